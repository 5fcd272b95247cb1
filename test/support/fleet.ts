/**
 * A fleet on loopback for tests and benchmarks: several server processes (test/server/process.ts) on
 * one database and one Redis, behind Debian's haproxy with a generated config in a temp dir (round
 * robin, health checks on /healthz). Each answer through the balancer names the process that served
 * it in `X-Served-By` (haproxy adds it), so a test can see its requests spread.
 *
 * Without haproxy the tests that need it are skipped with one loud reason (`HAPROXY_MISSING`); with
 * `CI` set that is an error instead: CI installs it (.ci/run).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FROM_SOURCE, startServer, type ServerProcess } from '../server/process.ts';
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

/**
 * The balancer's config: round robin over `servers`, each checked on /healthz every `checkMs` (a
 * process is out after `fall` failed checks in a row; a check may take 2 s: a busy process is slow,
 * not dead, and taking every busy process out would leave none).
 */
export function haproxyConfig(
  port: number,
  servers: { name: string; base: string }[],
  { checkMs = 300, fall = 2 }: { checkMs?: number; fall?: number } = {},
): string {
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 500ms',
    '  timeout client 30s',
    '  timeout server 30s',
    '  timeout check 2s',
    '  retries 2', // a refused connection (a dead process) is tried again…
    '  option redispatch 1', // …on another process
    'frontend web',
    `  bind 127.0.0.1:${port}`,
    '  default_backend app',
    'backend app',
    '  balance roundrobin',
    '  option httpchk GET /healthz',
    '  http-check expect status 200',
    `  default-server inter ${checkMs}ms fall ${fall} rise 2`,
    `  http-response set-header X-Served-By %[srv_name]`,
    ...servers.map(({ name, base }) => `  server ${name} ${new URL(base).host} check`),
    '',
  ].join('\n');
}

export interface Fleet {
  readonly base: string; // http://127.0.0.1:PORT: the balancer
  readonly apps: ServerProcess[];
  readonly names: string[]; // app1, app2, …: what X-Served-By says
  /** Stops the balancer and every process still running. */
  stop(): Promise<void>;
}

export interface FleetOptions {
  size: number; // app processes
  databasePath: string; // the SQLite file they share, when `env` names no DATABASE_URL
  env: Record<string, string>; // for every process: COOKIE_SECRET, REDIS_URL, DATABASE_URL…
  nodeArgs?: readonly string[]; // default: the server from source (tsx)
}

/** Starts the processes (the first alone: it runs the migrations), then haproxy in front of them. */
export async function startFleet(opts: FleetOptions): Promise<Fleet> {
  if (!HAPROXY) throw new Error(HAPROXY_MISSING);
  const apps: ServerProcess[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'mahjong-fleet-'));
  let haproxy: ChildProcess | undefined;
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
  try {
    const start = () => startServer(opts.databasePath, opts.env, opts.nodeArgs ?? FROM_SOURCE);
    apps.push(await start());
    apps.push(...(await Promise.all(Array.from({ length: opts.size - 1 }, start))));
    const names = apps.map((_, i) => `app${i + 1}`);
    const port = await freePort();
    const config = path.join(dir, 'haproxy.cfg');
    writeFileSync(
      config,
      haproxyConfig(
        port,
        apps.map((app, i) => ({ name: names[i]!, base: app.base })),
      ),
    );
    let output = '';
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
    return { base, apps, names, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
