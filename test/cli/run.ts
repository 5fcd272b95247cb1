/** Runs the command line as a child process, for the CLI tests. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href; // tsx's import hook, from any folder

export interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * `node src/cli/main.ts ...args` through tsx, in `cwd` (default the project root), with `env` if given and
 * `input` written to its stdin (which is then closed; without `input`, stdin is closed at once).
 */
export function runCli(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; input?: string } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX, path.join(ROOT, 'src/cli/main.ts'), ...args], {
      cwd: options.cwd ?? ROOT,
      ...(options.env ? { env: options.env } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.stdin.end(options.input ?? '');
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
