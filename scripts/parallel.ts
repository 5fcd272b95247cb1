/**
 * Runs npm scripts side by side and fails when any of them fails: `tsx scripts/parallel.ts typecheck lint`.
 *
 * `npm test` checks types, lint and formatting while it builds, before it runs the tests. Each checker is
 * single-threaded (eslint about a minute, tsc and the build about half a minute each, prettier a quarter), so
 * running the four side by side on CI's two cores takes about half as long as one after another. Name the
 * longest first: it runs at normal priority, the others below it. Each script's output is kept and
 * printed whole when it ends (interleaved lines of two checkers would be hard to read), followed by its status.
 */
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
if (names.length === 0 || names.some((name) => !/^[\w:-]+$/.test(name))) {
  process.stderr.write('usage: tsx scripts/parallel.ts SCRIPT [SCRIPT …] (npm script names)\n');
  process.exit(2);
}

function run(name: string, index: number): Promise<boolean> {
  const started = performance.now();
  // The first script at normal priority, the others below it (nice 10): the longest, named first, has a core
  // to itself while the others share the second.
  const [command, args] = index === 0 ? ['npm', [] as string[]] : ['nice', ['-n', '10', 'npm']];
  const child = spawn(command, [...args, 'run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const text = Buffer.concat(output).toString();
      process.stdout.write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
      const ok = code === 0;
      process.stdout.write(`${name}: ${ok ? 'ok' : `failed (${signal ?? `exit ${code}`})`} in ${seconds} s\n`);
      resolve(ok);
    });
  });
}

const results = await Promise.all(names.map(run));
process.exit(results.every(Boolean) ? 0 : 1);
