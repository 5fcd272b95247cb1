/**
 * The fleet under load (docs/capacity.md): `npm run bench:fleet`. Two parts, each with simulated players at a human
 * pace (test/support/players.ts: whole turtle games through the page's own sync module, a move every
 * BENCH_PACE seconds on average, so a batch every 8 s, each player with an address of its own, rate limits on):
 *
 * 1. Restarts (`BENCH_ONLY=restarts`): three processes of the built server (`dist/server/server.js`) on one
 *    PostgreSQL and one Redis behind haproxy with deploy/haproxy.cfg as it is (checks every 2 s, DRAIN_MS 5 s),
 *    BENCH_PLAYERS (200) players. Then, one after the other: a rolling restart (each process: SIGTERM, drain,
 *    exit, the same build started again, back in rotation), PostgreSQL restarted (`pg_ctl restart -m fast`),
 *    PostgreSQL stopped for 5 s (every process out of rotation: the balancer's own 503s), Redis stopped for a
 *    few seconds and started again. For each: requests, failed requests (any answer but
 *    2xx, or none), the 503s (how many, over how long, all with Retry-After?, from the balancer or a process and
 *    its error code), the longest one player waited
 *    for a good answer, latency; per restarted process its drain and how long until it served again; at the
 *    end the acknowledged moves and wins missing from the database (lostMoves).
 *
 * 2. Capacity (`BENCH_ONLY=capacity`): how many players at that pace one process (SQLite, the default) and a
 *    fleet of three (PostgreSQL, Redis, haproxy) carry on this machine before the p99 latency of their requests
 *    passes BENCH_P99_MS (100 ms). Players are added in steps (spread over 8 s), each step measured for
 *    BENCH_STEP_S after BENCH_SETTLE_S; the ramp stops at the first step past the bound (or with failures over
 *    1%, or BENCH_MAX_PLAYERS). Per step: players, req/s, p50/p99/max, failures, the server processes' CPU
 *    (from /proc), the load generator's own CPU and event-loop delay (a busy generator would show up as
 *    latency of its own), and the machine's load average. The generator shares the machine's cores with the
 *    servers (and here with other people's work), so the figures are a floor.
 *
 * Everything listens on 127.0.0.1 and is stopped, and its temp dirs removed, at the end, also on failure.
 * Options (environment): BENCH_ONLY (restarts | capacity), BENCH_PLAYERS (200), BENCH_PACE (s between moves,
 * 6), BENCH_WARM_S (20), BENCH_SETTLE_S (15), BENCH_STEP_S (30), BENCH_P99_MS (100), BENCH_MAX_PLAYERS
 * (20000), BENCH_STEPS (comma-separated player counts), BENCH_TARGETS (sqlite,fleet; also postgres).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { FROM_DIST, startServer, type LogLine, type ServerProcess } from '../test/server/process.ts';
import { HAPROXY_MISSING, startFleet, type Fleet } from '../test/support/fleet.ts';
import { Crowd, lostMoves, percentile, readStoredGames, type Outcome } from '../test/support/players.ts';
import { createDatabase, postgresMissing, startPostgres, type RunningPostgres } from '../test/support/postgres.ts';
import { REDIS_MISSING, startRedis, type TestRedis } from '../test/support/redis.ts';

const ONLY = process.env.BENCH_ONLY;
const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 200);
const PACE_MS = Number(process.env.BENCH_PACE ?? 6) * 1000;
const WARM_S = Number(process.env.BENCH_WARM_S ?? 20);
const SETTLE_S = Number(process.env.BENCH_SETTLE_S ?? 15);
const STEP_S = Number(process.env.BENCH_STEP_S ?? 30);
const P99_MS = Number(process.env.BENCH_P99_MS ?? 100);
const MAX_PLAYERS = Number(process.env.BENCH_MAX_PLAYERS ?? 20_000);
const STEPS = (process.env.BENCH_STEPS ?? '250,500,1000,2000,3000,4000,5000,6000,8000,10000,12000,16000,20000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0 && n <= MAX_PLAYERS);
const TARGETS = (process.env.BENCH_TARGETS ?? 'sqlite,fleet').split(',');
const SECRET = 'bench-fleet-Secret-0123456789-abcdefghijkLMN';
const SHARED_SEEDS = Array.from({ length: 20 }, (_, i) => `shared${i}`);

/** Log lines a benchmark keeps: all but the two of every request. */
const NOT_REQUESTS = (line: LogLine) => line.msg !== 'incoming request' && line.msg !== 'request completed';
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const ok = (o: Outcome) => o.status >= 200 && o.status < 300;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const fmt = (n: number, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '–';

/** What the cleanup at the end must stop, whatever happened. */
const running: { stop(): Promise<void> }[] = [];
async function cleanup(): Promise<void> {
  for (const r of running.splice(0).reverse()) await r.stop().catch((e: unknown) => console.error('cleanup:', e));
}

/** CPU seconds (user + system) of a process so far, from /proc. */
function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return 0;
  }
}

// ---------------------------------------------------------------- part 1: restarts under load

interface Phase {
  name: string;
  from: number;
  to: number;
}

/**
 * Who answered the 503s and why: the balancer itself (every process out of rotation: X-Served-By absent), or
 * a process, by the error code of its answer (ERR_UNAVAILABLE: the database did not answer, or the pool had
 * no connection for 10 s), e.g. "12 balancer, 3 app ERR_UNAVAILABLE".
 */
function sources(s503: readonly Outcome[]): string {
  const counts = new Map<string, number>();
  for (const o of s503) {
    const source = o.by === null ? 'balancer' : `app ${/"code":"(\w+)"/.exec(o.error ?? '')?.[1] ?? 'page'}`;
    counts.set(source, (counts.get(source) ?? 0) + 1);
  }
  return [...counts].map(([source, n]) => `${fmt(n)} ${source}`).join(', ');
}

function summarize(phase: Phase, outcomes: readonly Outcome[]): string[] {
  const mine = outcomes.filter((o) => o.start >= phase.from && o.start < phase.to);
  const failed = mine.filter((o) => !ok(o));
  const s503 = failed.filter((o) => o.status === 503);
  const other = failed.filter((o) => o.status !== 503);
  const span = s503.length
    ? (Math.max(...s503.map((o) => o.start + o.ms)) - Math.min(...s503.map((o) => o.start))) / 1000
    : 0;
  // The longest one player waited: from a failed request until its next good answer.
  let longest = 0;
  const since = new Map<number, number>();
  for (const o of [...mine].sort((a, b) => a.start - b.start)) {
    if (!ok(o)) {
      if (!since.has(o.player)) since.set(o.player, o.start);
    } else if (since.has(o.player)) {
      longest = Math.max(longest, o.start + o.ms - since.get(o.player)!);
      since.delete(o.player);
    }
  }
  const ms = mine.map((o) => o.ms).sort((a, b) => a - b);
  return [
    phase.name,
    fmt(mine.length),
    fmt(failed.length),
    s503.length
      ? `${fmt(s503.length)} over ${fmt(span, 1)} s${s503.every((o) => o.retryAfter) ? ', all with Retry-After' : ''}: ${sources(s503)}`
      : '0',
    other.length ? other.map((o) => `${o.kind} ${o.status}`).join(', ') : '0',
    fmt(longest / 1000, 1),
    fmt(percentile(ms, 50), 1),
    fmt(percentile(ms, 99), 1),
    fmt(ms.at(-1) ?? NaN, 0),
  ];
}

async function restarts(): Promise<void> {
  const missing = REDIS_MISSING ?? HAPROXY_MISSING ?? postgresMissing();
  if (missing) throw new Error(`the restart benchmark needs PostgreSQL, Redis and haproxy: ${missing}`);
  console.log(
    `\n## Restarts under load: ${PLAYERS} players, a move every ${PACE_MS / 1000} s on average, three processes of dist/ on PostgreSQL and Redis behind deploy/haproxy.cfg`,
  );
  console.log(`machine: ${cpus().length} CPUs, load average ${load()} at the start`);
  const postgres: RunningPostgres = await startPostgres();
  running.push(postgres);
  const databaseUrl = await createDatabase(postgres.url);
  const redis: TestRedis = await startRedis();
  running.push(redis);
  const fleet: Fleet = await startFleet({
    size: 3,
    databasePath: '/nonexistent/unused.db',
    nodeArgs: FROM_DIST,
    keepLogs: NOT_REQUESTS,
    balancer: 'deploy',
    env: {
      COOKIE_SECRET: SECRET,
      REDIS_URL: redis.url,
      TRUST_PROXY: 'loopback',
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'info', // as in production (request logs are not kept here: NOT_REQUESTS)
    },
  });
  running.push(fleet);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256, timeout: 10_000 });
  running.push({ stop: async () => agent.destroy() });
  const outcomes: Outcome[] = [];
  const crowd = new Crowd({
    base: fleet.base,
    agent,
    paceMs: PACE_MS,
    sharedSeeds: SHARED_SEEDS,
    onOutcome: (o) => outcomes.push(o),
  });
  running.push(crowd);
  // Three in four play the turtle (144 tiles, some 8 minutes a game at this pace), one in four the mushroom
  // (36 tiles, 2 minutes): wins come within the run, and each is checked in the database afterwards.
  const small = Math.round(PLAYERS / 4);
  crowd.add(PLAYERS - small, 8000);
  crowd.add(small, 8000, { layout: 'mushroom' });
  const phases: Phase[] = [];
  const phase = async (name: string, work: () => Promise<void>, afterS: number) => {
    const from = Date.now();
    await work();
    await pause(afterS * 1000);
    phases.push({ name, from, to: Date.now() });
    console.log(`  ${name}: done in ${fmt((Date.now() - from) / 1000, 1)} s (load average ${load()})`);
  };

  await phase('steady play', () => pause(WARM_S * 1000), 0);
  const steps: string[][] = [];
  await phase(
    'rolling restart',
    async () => {
      for (let i = 0; i < fleet.names.length; i++) {
        const old = fleet.apps[i]!;
        const t0 = Date.now();
        const { exited } = await fleet.restart(i);
        const drained = old.logs.find((l) => l.msg === 'drained');
        const down = new RegExp(`Server app/${fleet.names[i]} is DOWN, reason: ([^,]+(?:, code: \\d+)?)`).exec(
          fleet
            .balancerLog()
            .split('\n')
            .filter((l) => l.includes(`app/${fleet.names[i]} is DOWN`))
            .at(-1) ?? '',
        );
        steps.push([
          fleet.names[i]!,
          String(exited.code),
          drained ? fmt(Number(drained.drainedMs) / 1000, 1) : '–',
          down?.[1] ?? '–',
          fmt((Date.now() - t0) / 1000, 1),
        ]);
      }
    },
    10,
  );
  await phase('PostgreSQL restart (pg_ctl restart -m fast)', () => postgres.restart(), 20);
  await phase('PostgreSQL stopped 5 s, started', () => postgres.down(() => pause(5000)), 20);
  await phase(
    'Redis stopped 3 s, started',
    async () => {
      await redis.kill('SIGTERM');
      await pause(3000);
      await redis.restart();
    },
    20,
  );
  await crowd.stop();
  const exits = fleet.apps.map((a) => a.child.exitCode);
  const lost = lostMoves(crowd.games(), await readStoredGames(databaseUrl));

  console.log('\nthe rolling restart, process by process (SIGTERM → drained → exit → started → UP in haproxy):\n');
  console.log('| process | exit | drained in s | taken out by | SIGTERM to UP again, s |');
  console.log('| --- | ---: | ---: | --- | ---: |');
  for (const s of steps) console.log(`| ${s.join(' | ')} |`);
  console.log('\nrequests by phase (failed: any answer but 2xx, or none):\n');
  console.log(
    '| phase | requests | failed | 503s | other failures | longest wait of one player, s | p50 ms | p99 ms | max ms |',
  );
  console.log('| --- | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: |');
  for (const p of phases) console.log(`| ${summarize(p, outcomes).join(' | ')} |`);
  const games = crowd.games();
  console.log(
    `\ngames: ${fmt(games.length)} played, ${fmt(games.filter((g) => g.won).length)} won; moves acknowledged: ${fmt(lost.acknowledged)}; ` +
      `lost: ${lost.moves} moves, ${lost.wins} wins, ${lost.games} games; conflicts ${games.reduce((n, g) => n + g.conflicts, 0)}; ` +
      `processes still running after the database and Redis restarts: ${exits.filter((c) => c === null).length} of ${exits.length}`,
  );
  for (const d of lost.details.slice(0, 10)) console.log(`  LOST ${d}`);
  console.log(`load average at the end: ${load()}`);
  await cleanup();
}

// ---------------------------------------------------------------- part 2: capacity

interface Target {
  name: string;
  base: string;
  pids: () => (number | undefined)[];
}

async function startTarget(kind: string, dir: string): Promise<Target> {
  const env = { COOKIE_SECRET: SECRET, TRUST_PROXY: 'loopback', LOG_LEVEL: 'info' }; // as in production
  if (kind === 'sqlite' || kind === 'postgres') {
    let databaseUrl: string | undefined;
    if (kind === 'postgres') {
      const postgres = await startPostgres();
      running.push(postgres);
      databaseUrl = await createDatabase(postgres.url);
    }
    const server: ServerProcess = await startServer(
      join(dir, 'capacity.db'),
      { ...env, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
      FROM_DIST,
      NOT_REQUESTS,
    );
    running.push({
      stop: async () => {
        server.child.kill('SIGTERM');
        await server.exited;
      },
    });
    return {
      name: `one process, ${kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`,
      base: server.base,
      pids: () => [server.child.pid],
    };
  }
  const postgres = await startPostgres();
  running.push(postgres);
  const redis = await startRedis();
  running.push(redis);
  const fleet = await startFleet({
    size: 3,
    databasePath: '/nonexistent/unused.db',
    nodeArgs: FROM_DIST,
    keepLogs: NOT_REQUESTS,
    balancer: { checkMs: 2000, fall: 3, checkTimeoutMs: 10_000 }, // a saturated process is slow, not down
    env: { ...env, REDIS_URL: redis.url, DATABASE_URL: await createDatabase(postgres.url) },
  });
  running.push(fleet);
  return {
    name: 'fleet: 3 processes, PostgreSQL, Redis, haproxy',
    base: fleet.base,
    pids: () => fleet.apps.map((a) => a.child.pid),
  };
}

async function capacity(kind: string): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'mahjong-capacity-'));
  running.push({ stop: async () => rmSync(dir, { recursive: true, force: true }) });
  const target = await startTarget(kind, dir);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 128, timeout: 10_000 });
  running.push({ stop: async () => agent.destroy() });
  let window: Outcome[] | null = null;
  const crowd = new Crowd({
    base: target.base,
    agent,
    paceMs: PACE_MS,
    sharedSeeds: SHARED_SEEDS,
    onOutcome: (o) => window?.push(o),
    tag: kind,
  });
  running.push(crowd);
  console.log(`\n### ${target.name} (load average ${load()} at the start)\n`);
  console.log(
    '| players | req/s | p50 ms | p99 ms | max ms | failed | server CPU, % of a core | CPU ms a request | generator CPU % | generator loop delay p99 ms | load average |',
  );
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let carried = 0;
  let passedAt: number | null = null;
  for (const players of STEPS) {
    crowd.add(players - crowd.players.length, 8000);
    await pause(SETTLE_S * 1000);
    window = [];
    loop.reset();
    const cpu0 = target.pids().reduce<number>((s, pid) => s + cpuSeconds(pid), 0);
    const own0 = process.cpuUsage();
    const t0 = Date.now();
    await pause(STEP_S * 1000);
    const measured: Outcome[] = window;
    window = null;
    const seconds = (Date.now() - t0) / 1000;
    const cpu = target.pids().reduce<number>((s, pid) => s + cpuSeconds(pid), 0) - cpu0;
    const own = process.cpuUsage(own0);
    const ms = measured.map((o) => o.ms).sort((a, b) => a - b);
    const failed = measured.filter((o) => !ok(o)).length;
    const p99 = percentile(ms, 99);
    console.log(
      `| ${fmt(players)} | ${fmt(measured.length / seconds)} | ${fmt(percentile(ms, 50), 1)} | ${fmt(p99, 1)} | ${fmt(ms.at(-1) ?? NaN)} | ${failed} | ${fmt((cpu / seconds) * 100)} | ${fmt((cpu * 1000) / Math.max(1, measured.length), 2)} | ${fmt(((own.user + own.system) / 1e6 / seconds) * 100)} | ${fmt(loop.percentile(99) / 1e6, 1)} | ${load()} |`,
    );
    if (p99 > P99_MS || failed > measured.length / 100) {
      passedAt = players;
      break;
    }
    carried = players;
  }
  loop.disable();
  await cleanup();
  return [target.name, fmt(carried), passedAt === null ? `not reached by ${fmt(STEPS.at(-1) ?? 0)}` : fmt(passedAt)];
}

// ---------------------------------------------------------------- main

process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));
try {
  if (ONLY === undefined || ONLY === 'restarts') await restarts();
  if (ONLY === undefined || ONLY === 'capacity') {
    console.log(
      `\n## Capacity: players at a move every ${PACE_MS / 1000} s (a batch every 8 s) until p99 passes ${P99_MS} ms; ` +
        `${STEP_S} s measured after ${SETTLE_S} s at each step; ${cpus().length} CPUs`,
    );
    const rows: string[][] = [];
    for (const kind of TARGETS) rows.push(await capacity(kind));
    console.log(`\n| target | players carried (p99 ≤ ${P99_MS} ms) | p99 passed at |`);
    console.log('| --- | ---: | ---: |');
    for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  }
} finally {
  await cleanup();
}
