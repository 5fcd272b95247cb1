/**
 * vitest globalSetup: the build (the compiled server and CLI in dist/, the browser's files in public/build/) is
 * as new as its sources (src/, public/css/, scripts/). The tests that start the real
 * server or the command line as a child process run the build, as `npm start` and the installed CLI do
 * (test/server/process.ts, test/cli/run.ts): a child started from source through tsx spends over a second of CPU
 * compiling before it answers, which a run of some thirty children pays again and again. `npm install` and
 * `npm ci` build (the `prepare` script), and `npm test` runs this file as `npm run build:stale` beside its lint
 * and type checks, so a fresh build is not made twice (CI's was, a minute of CPU); a run of single files after an
 * edit builds it here first. A build that fails leaves dist/ older than its sources or incomplete (build:server
 * starts by removing it), so the next run builds again: a fresh build is always one whose type check passed.
 * A part that starts no child and no browser (`npm run test:engine`, MAHJONG_TEST_LIGHT set) skips it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './root.ts';

const BUILT = ['dist/server/server.js', 'dist/cli/main.js', 'public/build/manifest.json'];
const SOURCES = ['src', 'public/css', 'scripts'];

/** The newest modification time of a file under `dir`, in ms. */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) latest = Math.max(latest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  return latest;
}

export default function setup(): void {
  if (process.env.MAHJONG_TEST_LIGHT) return;
  const built = BUILT.map((file) => path.join(ROOT, file));
  const oldest = Math.min(...built.map((file) => (existsSync(file) ? statSync(file).mtimeMs : 0)));
  if (SOURCES.every((dir) => newest(path.join(ROOT, dir)) <= oldest)) return;
  console.warn('\n*** a source is newer than the build: running `npm run build` before the tests ***\n');
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
}

// Run as a script (`npm run build:stale`): the same check and build, outside vitest.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) setup();
