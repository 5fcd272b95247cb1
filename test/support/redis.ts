/**
 * A throwaway redis-server for tests: Debian's binary on a free 127.0.0.1 port, its working directory
 * a temp dir, no persistence (no RDB snapshots, no AOF), stopped after the test. `kill()` takes it
 * away mid-test (SIGKILL) and `restart()` brings a fresh, empty one back on the same port.
 *
 * Without redis-server the tests that need it are skipped with one loud reason (`REDIS_MISSING`);
 * with `CI` set that is an error instead: CI installs it (.ci/run).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findExecutable, missingReason } from './executables.ts';
import { freePort } from './ports.ts';

/** The redis-server binary: REDIS_SERVER, or the first on PATH or in /usr/bin (Debian's). */
export const REDIS_SERVER = findExecutable('redis-server', 'REDIS_SERVER', ['/usr/bin']);

/** Why the Redis tests cannot run here, or undefined when they can. Throws in CI, where they must. */
export const REDIS_MISSING = missingReason(
  REDIS_SERVER,
  'redis-server is not installed (Debian: apt-get install redis-server)',
  'the Redis tests',
);

/** True once something on the port answers PING with PONG. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

export interface TestRedis {
  readonly url: string; // redis://127.0.0.1:PORT
  readonly port: number;
  /** SIGKILL: gone at once, as in a crash (SIGTERM: an operator's stop). */
  kill(signal?: 'SIGKILL' | 'SIGTERM'): Promise<void>;
  /** A fresh, empty server on the same port, after SIGKILL (a crash) or SIGTERM (an operator's restart). */
  restart(signal?: 'SIGKILL' | 'SIGTERM'): Promise<void>;
  /** SIGSTOP: it keeps its connections but answers nothing (a hung server); `resume()` undoes it. */
  pause(): void;
  resume(): void;
  /** Stops it and removes its directory. */
  stop(): Promise<void>;
}

/** Starts redis-server; resolves once it answers PING. */
export async function startRedis(): Promise<TestRedis> {
  if (!REDIS_SERVER) throw new Error(REDIS_MISSING);
  const dir = mkdtempSync(path.join(tmpdir(), 'mahjong-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const launch = async (): Promise<void> => {
    let output = '';
    child = spawn(
      REDIS_SERVER,
      [
        '--port', String(port),
        '--bind', '127.0.0.1',
        '--save', '', // no snapshots
        '--appendonly', 'no',
        '--dir', dir,
        '--daemonize', 'no',
        '--loglevel', 'warning',
      ], // prettier-ignore
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const running = child;
    running.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    running.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    exited = new Promise((resolve) => running.once('exit', () => resolve()));
    const deadline = Date.now() + 10_000;
    while (!(await answersPing(port))) {
      if (running.exitCode !== null || Date.now() > deadline)
        throw new Error(`redis-server did not start on port ${port}: ${output.slice(0, 500)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  const kill = async (signal: 'SIGKILL' | 'SIGTERM' = 'SIGKILL'): Promise<void> => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };

  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    restart: async (signal = 'SIGKILL') => {
      await kill(signal);
      await launch();
    },
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    stop: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
