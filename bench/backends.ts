/**
 * The backends of bench/http.ts: the mixed workload (bench/mixed.ts) against
 *   1. SQLite, one process: the embedded default;
 *   2. PostgreSQL, one process (DATABASE_URL), on a throwaway cluster like the tests' (test/support/
 *      postgres.ts: fsync and synchronous_commit off, so its writes cost less than a real server's);
 *   3. the fleet: FLEET_SIZE processes on one database and one Redis (REDIS_URL) behind haproxy,
 * side by side in one run, each with the same players and duration: req/s, p50/p99 latency, errors,
 * the database's own time per write (measured around the stores' write calls in every server
 * process: until the call returns, for SQLite all of its work; until its promise settles, for a
 * database over a socket), and the server processes' CPU. Then the cost of a shared limit: one
 * count in Redis (a round trip) against one in memory.
 *
 * Every server is a child process (`--serve-backend`) built like the benchmark's: rate limits off
 * (they would stop a closed-loop benchmark, not a crowd), no request logs. Redis and haproxy are
 * Debian's, started in temp dirs on free loopback ports (test/support/), and stopped after.
 *
 * Options (environment): BENCH_BACKENDS_DURATION (s per backend, default 20), BENCH_PLAYERS (32),
 * BENCH_FLEET_SIZE (3).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { buildApp } from '../src/server/app.ts';
import { dealKey } from '../src/server/schemas/common.ts';
import { SharedCounters } from '../src/server/plugins/counters.ts';
import { LocalCounters } from '../src/server/services/counters.ts';
import { createDatabase, postgresMissing, startPostgres, type RunningPostgres } from '../test/support/postgres.ts';
import { HAPROXY, HAPROXY_MISSING, haproxyConfig, SERVED_BY } from '../test/support/fleet.ts';
import { freePort } from '../test/support/ports.ts';
import { REDIS_MISSING, startRedis, type TestRedis } from '../test/support/redis.ts';
import { instrument, KINDS, mixedWorkload, type Costs, type MixedResult } from './mixed.ts';

const SECRET = 'bench-secret-bench-secret-bench-secret-00';
const DURATION_S = Number(process.env.BENCH_BACKENDS_DURATION ?? 20);
const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 32);
const FLEET_SIZE = Number(process.env.BENCH_FLEET_SIZE ?? 3);
const SHARED_SEEDS = Array.from({ length: 20 }, (_, i) => `shared${i}`); // links many people open

// ---------------------------------------------------------------- a server process

/** One server: BENCH_DATABASE_PATH or BENCH_DATABASE_URL, BENCH_REDIS_URL; answers "costs" on stdin with its counters. */
async function serveBackend(): Promise<void> {
  const app = buildApp({
    databasePath: process.env.BENCH_DATABASE_PATH ?? ':memory:',
    databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
    redisUrl: process.env.BENCH_REDIS_URL || undefined,
    cookieSecret: SECRET,
    rateLimit: false,
    logger: false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  for (const seed of SHARED_SEEDS) await app.dealer.get(dealKey('turtle', seed, 'relaxed')); // stored before the run
  const costs = instrument(app);
  process.stdout.write(JSON.stringify({ port: (app.server.address() as { port: number }).port }) + '\n');
  const stop = async (): Promise<void> => {
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.stdin.on('end', () => void stop()); // the parent went away
  createInterface({ input: process.stdin }).on('line', (command) => {
    if (command === 'costs') process.stdout.write(JSON.stringify(costs.read()) + '\n');
  });
}

interface Server {
  child: ChildProcess;
  port: number;
  costs(): Promise<Costs>;
}

async function startBackend(env: Record<string, string>): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve-backend'], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', ...env },
  });
  const answers: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => answers.shift()?.(line));
  const nextLine = (): Promise<string> => new Promise((resolve) => answers.push(resolve));
  const { port } = await Promise.race([
    nextLine().then((line) => JSON.parse(line) as { port: number }),
    new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`a server exited with ${code}`)))),
  ]);
  return {
    child,
    port,
    costs: async () => {
      const answer = nextLine();
      child.stdin!.write('costs\n');
      return JSON.parse(await answer) as Costs;
    },
  };
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await gone;
}

// ---------------------------------------------------------------- one backend

interface Setup {
  name: string;
  processes: number;
  env: Record<string, string>; // for every server process
  balancer: boolean;
}

export interface BackendRow {
  name: string;
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  errors: number; // network errors and non-2xx answers
  statuses: Record<string, number>; // the non-2xx answers: "kind status" → count
  games: number;
  writes: number; // saves, new games and new deals stored
  answeredMsPerWrite: number; // until the write's promise settled: the database's time, the trip, the queues
  heldMsPerWrite: number; // until the write call returned: the main thread was held
  serverMsPerWrite: number | null; // PostgreSQL's own time executing statements (all, reads too), per write
  cpuS: number; // all server processes, all threads
  servedBy: number; // processes that answered through the balancer (1 without one)
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

function sum(list: Costs[]): { writes: number; settledMs: number; ms: number; cpuUs: number } {
  let writes = 0;
  let settledMs = 0;
  let ms = 0;
  let cpuUs = 0;
  for (const c of list) {
    for (const k of ['save', 'create', 'storeDeal'] as const) {
      writes += c[k].n;
      settledMs += c[k].settledMs;
      ms += c[k].ms;
    }
    cpuUs += c.cpuUs;
  }
  return { writes, settledMs, ms, cpuUs };
}

async function runBackend(setup: Setup, dir: string): Promise<BackendRow> {
  const servers: Server[] = [];
  let haproxy: ChildProcess | undefined;
  try {
    servers.push(await startBackend(setup.env)); // the first alone: it runs the migrations
    servers.push(...(await Promise.all(Array.from({ length: setup.processes - 1 }, () => startBackend(setup.env)))));
    let base = `http://127.0.0.1:${servers[0]!.port}`;
    const seen = new Set<string>();
    if (setup.balancer) {
      const port = await freePort();
      const config = join(dir, `haproxy-${port}.cfg`);
      const names = servers.map((_, i) => `app${i + 1}`);
      writeFileSync(
        config,
        haproxyConfig(
          port,
          servers.map((s, i) => ({ name: names[i]!, base: `http://127.0.0.1:${s.port}` })),
          { checkMs: 1000, fall: 3 }, // nobody is killed here: a saturated process must not be taken out
        ),
      );
      haproxy = spawn(HAPROXY!, ['-db', '-f', config], { stdio: 'ignore' });
      base = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 15_000;
      while (seen.size < names.length && Date.now() < deadline) {
        try {
          const by = (await fetch(`${base}/healthz`)).headers.get(SERVED_BY);
          if (by) seen.add(by);
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      if (seen.size < names.length) throw new Error(`haproxy served ${seen.size} of ${names.length} processes`);
    }
    const before = await Promise.all(servers.map((s) => s.costs()));
    const result: MixedResult = await mixedWorkload({
      base,
      players: PLAYERS,
      durationS: DURATION_S,
      newDealShare: 0.5,
      sharedSeeds: SHARED_SEEDS,
    });
    const after = await Promise.all(servers.map((s) => s.costs()));
    const [b, a] = [sum(before), sum(after)];
    const all = KINDS.flatMap((k) => result.latencies[k]).sort((x, y) => x - y);
    const writes = a.writes - b.writes;
    return {
      name: setup.name,
      requests: all.length,
      rps: Math.round(all.length / result.durationS),
      p50Ms: Number(percentile(all, 50).toFixed(1)),
      p99Ms: Number(percentile(all, 99).toFixed(1)),
      errors: result.errors + KINDS.reduce((s, k) => s + result.non2xx[k], 0),
      statuses: result.statuses,
      games: result.games,
      writes,
      answeredMsPerWrite: Number(((a.settledMs - b.settledMs) / Math.max(1, writes)).toFixed(3)),
      heldMsPerWrite: Number(((a.ms - b.ms) / Math.max(1, writes)).toFixed(3)),
      cpuS: Number(((a.cpuUs - b.cpuUs) / 1e6).toFixed(1)),
      servedBy: setup.balancer ? seen.size : 1,
      serverMsPerWrite: null,
    };
  } finally {
    if (haproxy) await stopProcess(haproxy);
    await Promise.all(servers.map((s) => stopProcess(s.child)));
  }
}

/**
 * PostgreSQL's own time executing statements in the database at `url` (pg_stat_database.active_time,
 * PostgreSQL 14+); ms. A connection reports its share when it ends, so read it after the servers stop.
 */
async function databaseActiveMs(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ ms: number | null }>(
      'SELECT active_time AS ms FROM pg_stat_database WHERE datname = current_database()',
    );
    return Number(result.rows[0]?.ms ?? 0);
  } finally {
    await client.end();
  }
}

/** runBackend on PostgreSQL, with the database's own time per write. */
async function runOnPostgres(setup: Setup, url: string, dir: string): Promise<BackendRow> {
  const before = await databaseActiveMs(url);
  const row = await runBackend({ ...setup, env: { ...setup.env, BENCH_DATABASE_URL: url } }, dir);
  await new Promise((resolve) => setTimeout(resolve, 500)); // the servers' connections end and report
  const after = await databaseActiveMs(url);
  return { ...row, serverMsPerWrite: Number(((after - before) / Math.max(1, row.writes)).toFixed(3)) };
}

/** One count of a shared limit in Redis against one in memory: p50/p99 of `n` in a row; ms. */
async function countCost(redis: TestRedis, n = 2000): Promise<{ redis: number[]; memory: number[] }> {
  const quiet = { info() {}, warn() {} } as never;
  const shared = new SharedCounters(redis.url, new LocalCounters(Date.now), quiet, Date.now);
  const local = new LocalCounters(Date.now);
  try {
    if (!(await shared.connected(5000))) throw new Error('Redis did not answer');
    const time = async (counters: { take: LocalCounters['take'] }): Promise<number[]> => {
      const ms: number[] = [];
      for (let i = 0; i < n; i++) {
        const start = performance.now();
        await counters.take([{ key: `bench:${i % 100}`, max: 1e9, windowMs: 60_000 }]);
        ms.push(performance.now() - start);
      }
      ms.sort((x, y) => x - y);
      return [percentile(ms, 50), percentile(ms, 99)];
    };
    return { redis: await time(shared), memory: await time(local) };
  } finally {
    shared.close();
  }
}

// ---------------------------------------------------------------- the comparison

const pad = (s: string | number, n: number): string => String(s).padStart(n);

export async function backends(): Promise<void> {
  console.log(
    `\nBackends: the mixed workload, ${PLAYERS} players, ${DURATION_S} s each, 50% of games on a new seed, ` +
      `rate limits off; machine ${cpus().length} CPUs, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
  const missing = REDIS_MISSING ?? HAPROXY_MISSING;
  const dir = mkdtempSync(join(tmpdir(), 'mj-bench-backends-'));
  let redis: TestRedis | undefined;
  let postgres: RunningPostgres | undefined;
  const noPostgres = postgresMissing();
  const rows: BackendRow[] = [];
  try {
    rows.push(
      await runBackend(
        { name: 'SQLite, 1 process', processes: 1, env: { BENCH_DATABASE_PATH: join(dir, 'one.db') }, balancer: false },
        dir,
      ),
    );
    if (noPostgres) console.log(`PostgreSQL, 1 process: not measured: ${noPostgres}`);
    else {
      postgres = await startPostgres();
      rows.push(
        await runOnPostgres(
          { name: 'PostgreSQL, 1 process', processes: 1, env: {}, balancer: false },
          await createDatabase(postgres.url),
          dir,
        ),
      );
    }
    if (missing) console.log(`fleet: not measured: ${missing}`);
    else {
      redis = await startRedis();
      const fleet: Setup = {
        name: `fleet: ${FLEET_SIZE} processes, ${postgres ? 'PostgreSQL' : 'one SQLite file'}, Redis, haproxy`,
        processes: FLEET_SIZE,
        env: { BENCH_REDIS_URL: redis.url },
        balancer: true,
      };
      rows.push(
        postgres
          ? await runOnPostgres(fleet, await createDatabase(postgres.url), dir)
          : await runBackend({ ...fleet, env: { ...fleet.env, BENCH_DATABASE_PATH: join(dir, 'fleet.db') } }, dir),
      );
    }
    console.log(
      '\nbackend                                             req/s  p50 ms  p99 ms  errors  games  ' +
        'db ms/write  answered ms/write  held ms/write  server CPU s',
    );
    for (const r of rows)
      console.log(
        `${r.name.padEnd(50)} ${pad(r.rps, 6)} ${pad(r.p50Ms.toFixed(1), 7)} ${pad(r.p99Ms.toFixed(1), 7)} ` +
          `${pad(r.errors, 7)} ${pad(r.games, 6)} ${pad((r.serverMsPerWrite ?? r.heldMsPerWrite).toFixed(3), 12)} ` +
          `${pad(r.answeredMsPerWrite.toFixed(3), 18)} ${pad(r.heldMsPerWrite.toFixed(3), 14)} ${pad(r.cpuS.toFixed(1), 13)}`,
      );
    console.log(
      "db ms/write: the database's own time per write (SQLite: the write call, all of it on the main thread; " +
        'PostgreSQL: pg_stat_database.active_time, every statement, reads too, over the writes); answered: until ' +
        "the write's promise settled (round trip, pool and event-loop queues included); held: main thread blocked",
    );
    if (redis) {
      const cost = await countCost(redis);
      console.log(
        `\none count of a shared limit: ${cost.redis[0]!.toFixed(3)} ms p50, ${cost.redis[1]!.toFixed(3)} ms p99 in Redis ` +
          `(a loopback round trip); ${cost.memory[0]!.toFixed(4)} ms p50 in memory`,
      );
    }
    console.log(JSON.stringify({ backends: rows }));
  } finally {
    await redis?.stop();
    await postgres?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--serve-backend')) await serveBackend();
else if (process.argv[1] === fileURLToPath(import.meta.url)) await backends();
