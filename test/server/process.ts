/**
 * The real server as a child process, for the crash, shutdown and production-build tests:
 * `node dist/server/server.js`, the build `npm start` runs (test/support/dist-setup.ts makes sure it is as new
 * as src/; other node arguments may be given, such as `--import tsx src/server/server.ts`), on 127.0.0.1, port 0
 * (the kernel picks a free one; we read it from the "Server listening at" log line), a database file the test
 * chooses.
 * Every log line is kept, parsed, for the test to look at.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ROOT } from '../support/root.ts';

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly base: string; // http://127.0.0.1:PORT
  readonly logs: LogLine[];
  readonly stderr: () => string;
  /** Signals the child and every process it started (`npm start` runs the server as its grandchild). */
  stop(signal?: NodeJS.Signals): void;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves when a log line matching `test` appears (or has appeared). */
  waitForLog(test: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
}

export const FROM_DIST = ['dist/server/server.js'] as const; // what `npm start` runs (`npm run build` makes it)

/** Starts the server on `databasePath`; resolves once it listens. */
export async function startServer(
  databasePath: string,
  env: Record<string, string> = {},
  nodeArgs: readonly string[] = FROM_DIST,
  keep: (line: LogLine) => boolean = () => true, // which log lines `logs` keeps (a benchmark drops request logs)
): Promise<ServerProcess> {
  const child = spawn(process.execPath, nodeArgs, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_PATH: databasePath,
      LOG_LEVEL: 'info',
      DEAL_WORKERS: '0', // deals in process: no worker boot per start (the pool has its own tests)
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so `stop` reaches a grandchild too
  });
  const logs: LogLine[] = [];
  const waiters: { test: (line: LogLine) => boolean; resolve: (line: LogLine) => void }[] = [];
  let stderr = '';
  createInterface({ input: child.stdout! }).on('line', (text) => {
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      line = { level: 0, msg: text };
    }
    if (keep(line)) logs.push(line);
    for (const w of waiters.splice(0)) {
      if (w.test(line)) w.resolve(line);
      else waiters.push(w);
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );

  const waitForLog = (test: (line: LogLine) => boolean, timeoutMs = 30_000): Promise<LogLine> => {
    const seen = logs.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no such log line within ${timeoutMs} ms; stderr: ${stderr.slice(0, 500)}`)),
        timeoutMs,
      );
      waiters.push({
        test,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`the server exited; stderr: ${stderr.slice(0, 500)}`));
      });
    });
  };

  // A start takes a second or two; on a machine busy with other test files it has taken over 30 s.
  const listening = await waitForLog((l) => l.msg.startsWith('Server listening at http://127.0.0.1:'), 90_000);
  const base = /http:\/\/127\.0\.0\.1:\d+/.exec(listening.msg)![0];
  const stop = (signal: NodeJS.Signals = 'SIGTERM'): void => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // the group is gone
    }
  };
  return { child, base, logs, stderr: () => stderr, exited, waitForLog, stop };
}

/**
 * A player of the HTTP API with their own cookie jar (one cookie: the player's) and, optionally,
 * headers of their own (an X-Forwarded-For address behind a trusted proxy).
 */
export class Player {
  cookie: string | undefined; // "mj_player=…", once the server set it

  constructor(
    public base: string, // the server; a test may point the player at a restarted one
    private readonly headers: Record<string, string> = {},
  ) {}

  async request(
    method: string,
    url: string,
    body?: unknown,
  ): Promise<{ status: number; json: Record<string, unknown> }> {
    // Only a GET makes a player (a POST without the cookie is refused): fetch one first.
    if (!this.cookie && method !== 'GET') await this.request('GET', '/api/stats');
    const headers: Record<string, string> = { ...this.headers };
    if (this.cookie) headers.cookie = this.cookie;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(this.base + url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const set = res.headers.get('set-cookie');
    const match = set ? /mj_player=[^;]+/.exec(set) : null;
    if (match) this.cookie = match[0];
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  }
}
