/**
 * The Nu HTML checker (vnu.jar, from the vnu-jar package; it needs a Java runtime: Debian's
 * default-jre-headless, which .ci/run installs) on the server-rendered HTML of every page the axe audit
 * visits (test/client/audit.ts), as the real app serves it to a player with games: any error fails. One JVM
 * for all pages. Without Java the test is skipped with a loud reason; with CI set that is an error.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { auditPages } from '../../client/audit.ts';
import { startApp, type Running } from '../../client/browser.ts';

const HAS_JAVA = spawnSync('java', ['-version']).status === 0;
if (!HAS_JAVA) {
  const message = 'java is missing: the Nu HTML checker test is SKIPPED (apt-get install -y default-jre-headless)';
  if (process.env.CI) throw new Error(message);
  console.warn(`\n*** ${message} ***\n`);
}
const VNU = createRequire(import.meta.url).resolve('vnu-jar/build/dist/vnu.jar');

interface VnuMessage {
  type: 'error' | 'info' | 'non-document-error';
  subType?: string;
  url: string;
  lastLine?: number;
  message: string;
  extract?: string;
}

/**
 * The one error this checker reports against the HTML standard: it allows `blocking` only on stylesheets, where the
 * standard also allows it on `<link rel="expect">` (render-blocking until an element is parsed; the board pages,
 * views/layout.eta). Exactly that element is let through, nothing else about it.
 */
const behindTheStandard = (m: VnuMessage): boolean =>
  m.message.startsWith('A “link” element with a “blocking” attribute must have a “rel” attribute') &&
  /\n<link rel="expect" href="#(deal|replay)-data" blocking="render">\n/.test(m.extract ?? '');

(HAS_JAVA ? describe : describe.skip)('the Nu HTML checker on every page', { timeout: 120_000 }, () => {
  let app: Running;
  let dir: string;
  beforeAll(async () => {
    app = await startApp({ tutorial: true }); // the audited player has games: only a first visit meets the lesson
    dir = mkdtempSync(join(tmpdir(), 'mahjong-vnu-'));
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('no errors in the HTML of any page', async () => {
    const { cookie, pages } = await auditPages(app.url);
    const files: string[] = [];
    for (const p of pages) {
      const res = await fetch(`${app.url}${p.path}`, { headers: { cookie: `${cookie.name}=${cookie.value}` } });
      expect([200, 404], p.name).toContain(res.status);
      const file = join(dir, `${p.name.replace(/\W+/g, '-')}.html`);
      writeFileSync(file, await res.text());
      files.push(file);
    }
    // A first visit's play page: the lesson drawn open over the board (views/partials/tutorial.eta).
    const first = await (await fetch(`${app.url}/play/turtle/first-visit`)).text();
    expect(first).toContain('<dialog id="tutorial"');
    files.push(join(dir, 'first-visit-play.html'));
    writeFileSync(files.at(-1)!, first);
    const run = spawnSync('java', ['-jar', VNU, '--format', 'json', '--exit-zero-always', ...files], {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
    const { messages } = JSON.parse(run.stderr || run.stdout) as { messages: VnuMessage[] };
    const errors = messages
      .filter((m) => m.type !== 'info') // warnings are printed; errors (and files it could not read) fail
      .filter((m) => !behindTheStandard(m))
      .map((m) => `${m.url.split('/').pop()}:${m.lastLine}: ${m.message} ${m.extract?.trim() ?? ''}`);
    const warnings = messages.filter((m) => m.type === 'info' && m.subType === 'warning');
    if (warnings.length)
      console.log(`vnu warnings:\n${warnings.map((m) => `  ${m.url.split('/').pop()}: ${m.message}`).join('\n')}`);
    expect(errors).toEqual([]);
  });
});
