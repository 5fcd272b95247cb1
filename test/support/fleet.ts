/**
 * A fleet on loopback for tests and benchmarks: several server processes (test/server/process.ts) on
 * one database and one Redis, behind Debian's haproxy, configured from the project's own
 * deploy/haproxy.cfg (round robin, health checks on /healthz, retries, the 503 of a fleet with every
 * process out) with loopback addresses swapped in. Each answer through the balancer names the process that
 * served it in `X-Served-By` (haproxy adds it), so a test can see its requests spread. Every process has a
 * port of its own, kept when `restart` starts it again, and the balancer's admin socket tells a test
 * what it thinks of each (`state`).
 *
 * Without haproxy the tests that need it are skipped with one loud reason (`HAPROXY_MISSING`); with
 * `CI` set that is an error instead: CI installs it (.ci/run).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type LogLine, type ServerProcess } from '../server/process.ts';
import { findExecutable, missingReason } from './executables.ts';
import { freePort } from './ports.ts';

/** The haproxy binary: HAPROXY, or the first on PATH, /usr/sbin or /usr/bin. */
export const HAPROXY = findExecutable('haproxy', 'HAPROXY', ['/usr/sbin', '/usr/bin']);

/** Why the fleet cannot run here, or undefined when it can. Throws in CI, where it must. */
export const HAPROXY_MISSING = missingReason(
  HAPROXY,
  'haproxy is not installed (Debian: apt-get install haproxy)',
  'the fleet tests',
);

export const SERVED_BY = 'x-served-by'; // the header haproxy adds: the name of the process that answered

/** The balancer's config of compose.yaml, which every fleet here runs. */
export const DEPLOY_HAPROXY = fileURLToPath(new URL('../../deploy/haproxy.cfg', import.meta.url));

export interface BalancerTimings {
  /** ms between checks of a process in rotation (deploy/haproxy.cfg: 2 s); the others scale with it. */
  checkMs?: number;
  /** Failed checks in a row that take a process out (deploy/haproxy.cfg: 2). */
  fall?: number;
  /** How long a check may take (deploy/haproxy.cfg: 3 s): longer for tests on a machine shared with other work. */
  checkTimeoutMs?: number;
}

/**
 * deploy/haproxy.cfg on loopback: the frontend bound to 127.0.0.1:`port`, `servers` instead of the
 * compose services (and no Docker DNS), `X-Served-By` on every answer, an admin socket at `socket` if
 * given. Everything else is the file's own: timeouts, retries, the health check, the 503 with every process
 * out. `checkMs` (with fastinter a quarter of it and downinter a half, as in the file) and `fall` change the
 * check timings, for short tests and for benchmarks that must not take a saturated process out.
 */
export function haproxyConfig(
  port: number,
  servers: { name: string; base: string }[],
  { checkMs, fall, checkTimeoutMs, socket }: BalancerTimings & { socket?: string } = {},
): string {
  const out: string[] = [];
  let section = '';
  for (const line of readFileSync(DEPLOY_HAPROXY, 'utf8').split('\n')) {
    const head = /^([^\s#]\S*)/.exec(line)?.[1]; // a section starts at the margin; comments do not
    if (head) section = head;
    if (section === 'resolvers') continue;
    if (/^\s*server\s/.test(line)) continue;
    if (/^\s*bind\s/.test(line)) {
      out.push(`  bind 127.0.0.1:${port}`);
      continue;
    }
    if (checkTimeoutMs !== undefined && /^\s*timeout check\s/.test(line)) {
      out.push(`  timeout check ${checkTimeoutMs}ms`);
      continue;
    }
    if (/^\s*default-server\s/.test(line)) {
      let params = line.replace(/\s+init-addr\s+\S+/, '').replace(/\s+resolvers\s+\S+/, '');
      if (checkMs !== undefined)
        params = params
          .replace(/\binter \S+/, `inter ${checkMs}ms`)
          .replace(/\bfastinter \S+/, `fastinter ${Math.max(50, Math.round(checkMs / 4))}ms`)
          .replace(/\bdowninter \S+/, `downinter ${Math.max(50, Math.round(checkMs / 2))}ms`);
      if (fall !== undefined) params = params.replace(/\bfall \d+/, `fall ${fall}`);
      out.push(params, '  http-response set-header X-Served-By %[srv_name]');
      out.push(...servers.map(({ name, base }) => `  server ${name} ${new URL(base).host} check`));
      continue;
    }
    out.push(line);
    if (head === 'global' && socket) out.push(`  stats socket ${socket} level admin`);
  }
  return out.join('\n');
}

/** Asks haproxy's admin socket one command; resolves with its whole answer. */
function askSocket(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const conn = createConnection(socket);
    conn.on('connect', () => conn.write(`${command}\n`));
    conn.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    conn.on('end', () => resolve(answer));
    conn.on('error', reject);
  });
}

export interface Fleet {
  readonly base: string; // http://127.0.0.1:PORT: the balancer
  readonly apps: ServerProcess[]; // apps[i] is the process running as names[i] now (restart replaces it)
  readonly names: string[]; // app1, app2, …: what X-Served-By says
  /** What the balancer thinks of each process: UP, DOWN, MAINT, or a transition such as "UP 1/2". */
  state(): Promise<Record<string, string>>;
  /**
   * A rolling restart's step for process `i`: SIGTERM (it drains, closes and exits), then the same command
   * again on the same port; resolves with the new process once it listens and the balancer has it UP again,
   * and the old one's exit.
   */
  restart(i: number): Promise<{ exited: { code: number | null; signal: NodeJS.Signals | null } }>;
  /** haproxy's output so far (its warnings name each process going DOWN and UP). */
  balancerLog(): string;
  /** Stops the balancer and every process still running. */
  stop(): Promise<void>;
}

export interface FleetOptions {
  size: number; // app processes
  databasePath: string; // the SQLite file they share, when `env` names no DATABASE_URL
  env: Record<string, string>; // for every process: COOKIE_SECRET, REDIS_URL, DATABASE_URL…
  nodeArgs?: readonly string[]; // default: startServer's, the build (FROM_DIST)
  keepLogs?: (line: LogLine) => boolean; // which log lines each process keeps (default all)
  /** Default: a check every 300 ms, out after 2 failed, a check may take 15 s; 'deploy': the file's own. */
  balancer?: BalancerTimings | 'deploy';
}

// Quick checks; and a check may take long: other test files share the CPU, and a process starved of it for
// a few seconds is slow, not down (taking every process out would fail every request).
const TEST_TIMINGS: Required<BalancerTimings> = { checkMs: 300, fall: 2, checkTimeoutMs: 15_000 };

/**
 * Starts the processes (the first alone: it runs the migrations), then haproxy in front of them. With test
 * timings each process drains for a little longer than the balancer takes to see it (DRAIN_MS; `env` may
 * say otherwise).
 */
export async function startFleet(opts: FleetOptions): Promise<Fleet> {
  if (!HAPROXY) throw new Error(HAPROXY_MISSING);
  const apps: ServerProcess[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'mahjong-fleet-'));
  const socket = path.join(dir, 'admin.sock');
  const timings: BalancerTimings = opts.balancer === 'deploy' ? {} : { ...TEST_TIMINGS, ...opts.balancer };
  const env: Record<string, string> = { ...opts.env };
  if (timings.checkMs !== undefined && env.DRAIN_MS === undefined) {
    // Out at worst checkMs + (fall - 1) × fastinter (checkMs / 4) after the drain began; half a second more
    // for checks answered late on a busy machine (the drain goes on while requests still arrive anyway).
    const drainMs = timings.checkMs + (((timings.fall ?? 2) - 1) * timings.checkMs) / 4 + 500;
    env.DRAIN_MS = String(Math.round(drainMs));
  } // with the file's own timings, the app's own DRAIN_MS (5 s), which docs/operations.md pairs with them
  let haproxy: ChildProcess | undefined;
  let output = '';
  const stop = async (): Promise<void> => {
    const exits = apps.map((app) => {
      if (app.child.exitCode === null && app.child.signalCode === null) app.child.kill('SIGTERM');
      return app.exited;
    });
    if (haproxy && haproxy.exitCode === null) {
      const gone = new Promise((resolve) => haproxy!.once('exit', resolve));
      haproxy.kill('SIGTERM');
      await gone;
    }
    await Promise.all(exits);
    rmSync(dir, { recursive: true, force: true });
  };
  const state = async (): Promise<Record<string, string>> => {
    const csv = await askSocket(socket, 'show stat');
    const [header, ...rows] = csv.replace(/^# /, '').trim().split('\n');
    const columns = header!.split(',');
    const [px, sv, status] = ['pxname', 'svname', 'status'].map((c) => columns.indexOf(c));
    return Object.fromEntries(
      rows
        .map((row) => row.split(','))
        .filter((cells) => cells[px!] === 'app' && !['FRONTEND', 'BACKEND'].includes(cells[sv!]!))
        .map((cells) => [cells[sv!]!, cells[status!]!]),
    );
  };
  try {
    const ports = await Promise.all(Array.from({ length: opts.size }, () => freePort()));
    const start = (i: number) =>
      startServer(opts.databasePath, { ...env, PORT: String(ports[i]) }, opts.nodeArgs, opts.keepLogs);
    apps.push(await start(0));
    apps.push(...(await Promise.all(Array.from({ length: opts.size - 1 }, (_, i) => start(i + 1)))));
    const names = apps.map((_, i) => `app${i + 1}`);
    const port = await freePort();
    const config = path.join(dir, 'haproxy.cfg');
    writeFileSync(
      config,
      haproxyConfig(
        port,
        apps.map((app, i) => ({ name: names[i]!, base: app.base })),
        { ...timings, socket },
      ),
    );
    haproxy = spawn(HAPROXY, ['-db', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] });
    haproxy.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    haproxy.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const base = `http://127.0.0.1:${port}`;
    // Ready once every process has answered through the balancer (its checks need `rise` passes first).
    const seen = new Set<string>();
    const deadline = Date.now() + 15_000;
    while (seen.size < names.length) {
      if (haproxy.exitCode !== null || Date.now() > deadline)
        throw new Error(`haproxy did not serve every process (saw ${[...seen].join(', ')}): ${output.slice(0, 500)}`);
      try {
        const res = await fetch(`${base}/healthz`);
        const by = res.headers.get(SERVED_BY);
        if (res.ok && by) seen.add(by);
      } catch {
        // not listening yet
      }
      if (seen.size < names.length) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const restart = async (i: number) => {
      const old = apps[i]!;
      old.child.kill('SIGTERM');
      const exited = await old.exited;
      apps[i] = await start(i);
      const until = Date.now() + 30_000;
      while ((await state())[names[i]!] !== 'UP') {
        if (Date.now() > until) throw new Error(`${names[i]} did not come back UP: ${output.slice(-500)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return { exited };
    };
    return { base, apps, names, state, restart, balancerLog: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
