/**
 * Runs the command line for the CLI tests: in process through src/cli/run.ts (`runInProcess`, the fast way,
 * for most cases), or as a child process through the real entry as built, dist/cli/main.js (`runCli`), which
 * proves the wiring of arguments, streams, stdin, the environment and the exit status
 * (test/support/dist-setup.ts makes sure the build is as new as src/).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { run } from '../../src/cli/run.ts';
import { ROOT } from '../support/root.ts';

export interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * `node dist/cli/main.js ...args`, in `cwd` (default the project root), with `env` if given and
 * `input` written to its stdin (which is then closed; without `input`, stdin is closed at once; with `keepOpen`,
 * stdin stays open as a driver's pipe does, so the command has to stop by itself).
 */
export function runCli(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; input?: string; keepOpen?: boolean } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'dist/cli/main.js'), ...args], {
      cwd: options.cwd ?? ROOT,
      ...(options.env ? { env: options.env } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    if (options.keepOpen) child.stdin.write(options.input ?? '');
    else child.stdin.end(options.input ?? '');
    child.on('close', (status) => {
      child.stdin.destroy();
      resolve({ status, stdout, stderr });
    });
  });
}

/**
 * The same command run in this process by `run()`, as main.ts runs it but with strings for the streams: stdin
 * is `input` (empty without it), read line by line as main.ts reads the process's; stderr is not a terminal;
 * the environment is `env` (default this process's). Relative paths resolve against this process's folder.
 */
export async function runInProcess(
  args: readonly string[],
  options: { env?: Readonly<Record<string, string | undefined>>; input?: string } = {},
): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const status = await run(args, {
    out: (text) => (stdout += text),
    err: (text) => (stderr += text),
    isTerminal: false,
    input: () => createInterface({ input: Readable.from([Buffer.from(options.input ?? '')]), crlfDelay: Infinity }),
    env: options.env ?? process.env,
  });
  return { status, stdout, stderr };
}
