/**
 * HTTP benchmark (docs/capacity.md): `npm run bench:http`.
 *
 * For three routes, autocannon (32 connections, DURATION_S each) against the
 * app, then against a bare fastify that serves the very same bytes, in the same
 * run and the same server process:
 *   1. GET /play/turtle/<seed>           the deal page (stored deal, new visitor each request: sets a cookie and a
 *                                        stamp, writes nothing; the goal is GOAL_RATIO of bare fastify)
 *   2. GET /api/deals/turtle/<seed>      the deal JSON
 *   3. POST /api/games/:id/moves         the deal's whole solution in one batch: replay, verify, store, finish
 *      Each request needs a fresh game: the server process pre-creates them (one player) and autocannon
 *      takes the next id per request. The bare server parses the same body and answers the same bytes.
 * Prints the page weight of /play/turtle/x on a first visit (HTML, CSS, script, face sprite; raw and
 * gzip), then req/s, p50/p99 latency, errors and non-2xx, and the ratio app/bare.
 *
 * Each comparison alternates app and bare in ROUNDS rounds (DURATION_S / ROUNDS seconds each), so a
 * busy machine (other processes, CPU steal) weighs on both alike; req/s is total requests over total
 * time, p50 the mean of the rounds, p99 the worst round.
 *
 * The servers run in a child process (`--serve`) so autocannon does not share their event loop. The
 * database is a temp file on the real disk with our pragmas (WAL, synchronous=NORMAL). Rate limits are
 * off: this measures the server, not the limiter.
 *
 * Then the mixed workload (docs/capacity.md; see bench/mixed.ts): virtual players in a
 * closed loop, each playing whole games in the proportions of real play (a page load, a new game,
 * move batches of 1–3 moves, the last one the finish), half of the games on new seeds (a deal made
 * and stored), half on shared links. It reports req/s, p50/p99 latency per kind and overall,
 * errors, the server's RSS (sampled from /proc) and CPU time, and where that time went (replay
 * and verification, SQLite writes, deal making) from counters inside the server process.
 *
 * Options (environment): BENCH_DURATION (s per server and route, default 10), BENCH_ROUNDS (10), BENCH_WARMUP (s of
 * each before its rounds, default 2),
 * BENCH_CONNECTIONS (32), BENCH_GAMES (games pre-created for the POST run; default 30000),
 * BENCH_MIXED_DURATION (s, default 30), BENCH_PLAYERS (virtual players, default 32),
 * BENCH_NEW_DEALS (share of games on a new seed, default 0.5), BENCH_ONLY=mixed (skip the rest),
 * BENCH_ONLY=routes (the three routes only), BENCH_ONLY=backends (only the backends), and bench/backends.ts's own.
 *
 * Last, the backends (bench/backends.ts): the mixed workload on SQLite, on PostgreSQL and on
 * a fleet behind haproxy, side by side.
 *
 * The cost of metrics: the deal page of two server processes (`--serve-page`) built alike but
 * for METRICS_TOKEN (plugins/metrics.ts records every request), in alternating rounds, in CPU a request; and
 * the CPU time of one scrape of /metrics. Two processes, not two apps in one: a second fastify app in the
 * same process ran 10–25% more CPU a request than the first with neither recording anything (the shared
 * code sees two sets of object shapes), which would have been counted as the cost of metrics.
 * BENCH_ONLY=metrics runs that alone; BENCH_METRICS_AA=1 makes it an A/A run (both processes without metrics, no
 * scrape): the difference it prints is the comparison's own noise, to read the A/B figure against.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildApp } from '../src/server/app.ts';
import { backends } from './backends.ts';
import { instrument, measureReplay, mixedWorkload, printMixed, sampleProcess, type Costs } from './mixed.ts';
import type { Deal } from '../src/engine/index.ts';
import { dealKey } from '../src/server/schemas/common.ts';
import { paceStart } from '../src/server/services/fair-play.ts';
import { makeGameId } from '../src/server/services/games.ts';
import { makePlayerId } from '../src/server/plugins/player.ts';

const SEED = 'bench0001';
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const GAMES = Number(process.env.BENCH_GAMES ?? 30_000);
const SECRET = 'bench-secret-bench-secret-bench-secret-00';
const GOAL_TOTAL_KB = 120;
const GOAL_SCRIPT_KB = 28; // app.js at most 27 KB (test/client/measure-browser.test.ts) and theme.js, about 1 KB
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 2); // s of each server and route before its rounds, not counted
const GOAL_RATIO = 0.8; // a page view without a cookie writes nothing
const MIXED_DURATION_S = Number(process.env.BENCH_MIXED_DURATION ?? 30);
const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 32);
const NEW_DEALS = Number(process.env.BENCH_NEW_DEALS ?? 0.5);
const ONLY_MIXED = process.env.BENCH_ONLY === 'mixed';
const ONLY_BACKENDS = process.env.BENCH_ONLY === 'backends';
const ONLY_ROUTES = process.env.BENCH_ONLY === 'routes'; // the three routes beside bare fastify, nothing after
const ONLY_METRICS = process.env.BENCH_ONLY === 'metrics'; // the deal page with and without metrics, nothing else
const METRICS_AA = process.env.BENCH_METRICS_AA === '1'; // the metrics comparison with metrics off on both sides
const METRICS_TOKEN = 'bench-metrics-token-0123456789-abcdefghijklmnop';
const SCRAPES = 200; // scrapes of /metrics whose CPU time is measured
const SHARED_SEEDS = Array.from({ length: 20 }, (_, i) => `shared${i}`); // links many people open

interface Ready {
  app: number; // port of the app
  bare: number; // port of the bare fastify
  cookie: string; // the player cookie owning the pre-created games
  games: string[]; // game ids, all of turtle/SEED, untouched
  cookies: string[]; // the player cookie of each game, in the same order
  solution: string; // the moves body that wins any of them
  answer: string; // what the app answers to it
}

// ---------------------------------------------------------------- the server process

async function serve(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'mj-bench-'));
  const app = buildApp({ databasePath: join(dir, 'bench.db'), cookieSecret: SECRET, rateLimit: false, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const appPort = (app.server.address() as { port: number }).port;

  // Warm up: store the deal, render the page once, and learn the bytes the bare server must serve.
  const page = await app.inject({ url: `/play/turtle/${SEED}` });
  const dealJson = (await app.inject({ url: `/api/deals/turtle/${SEED}` })).body;
  const deal = JSON.parse(dealJson) as { solution: [number, number][] };
  const solution = JSON.stringify({ moves: deal.solution.map(([a, b]) => ({ type: 'match', a, b })) });
  const first = await app.inject({ url: '/api/stats' });
  const cookieValue = first.cookies.find((c) => c.name === 'mj_player')!.value;
  const cookie = `mj_player=${cookieValue}`;
  const playerId = cookieValue.split('.')[0]!;
  const stored = await app.dealer.get(dealKey('turtle', SEED, 'relaxed'));
  if (!stored.ok) throw new Error(stored.message);
  // Fresh games on one deal, each of a player of its own (one player's 30,000 wins would make every win's
  // extras, such as the player's best before it, read more and more), written straight to the store.
  const games: string[] = [];
  const cookies: string[] = [];
  for (let i = 0; i < (ONLY_MIXED ? 1 : GAMES); i++) {
    const id = makeGameId();
    const player = i === 0 ? playerId : makePlayerId();
    const shownAt = await app.gamesStore.recordFirstShown(player, stored.value.id, Date.now());
    cookies.push(i === 0 ? cookie : `mj_player=${app.signCookie(player)}`);
    await app.gamesStore.create({
      id,
      playerId: player,
      dealId: stored.value.id,
      layout: 'turtle',
      band: 'medium',
      status: 'playing',
      tilesLeft: stored.value.deal.tiles.length,
      now: Date.now(),
      shownAt,
      pacedAt: paceStart(shownAt),
    });
    games.push(id);
  }
  for (const seed of SHARED_SEEDS) await app.dealer.get(dealKey('turtle', seed, 'relaxed')); // stored before the mixed run
  const costs = instrument(app);
  const sampleCookie = cookies.pop()!;
  const sample = await app.inject({
    method: 'POST',
    url: `/api/games/${games.pop()}/moves`,
    headers: { cookie: sampleCookie, 'content-type': 'application/json' },
    payload: solution,
  });
  if (sample.json().status !== 'won') throw new Error(`the solution did not win: ${sample.body}`);

  const bare = Fastify({ logger: false });
  bare.get('/page', (_req, reply) => reply.type('text/html; charset=utf-8').send(page.body));
  bare.get('/deal', (_req, reply) => reply.type('application/json; charset=utf-8').send(dealJson));
  bare.post('/moves', (_req, reply) => reply.type('application/json; charset=utf-8').send(sample.body));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const barePort = (bare.server.address() as { port: number }).port;

  const ready: Ready = {
    app: appPort,
    bare: barePort,
    cookie,
    games,
    cookies,
    solution,
    answer: sample.body,
  };
  process.stdout.write(JSON.stringify(ready) + '\n');
  const stop = async (): Promise<void> => {
    await Promise.all([app.close(), bare.close()]);
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.stdin.on('end', () => void stop()); // the parent went away
  // One command a line from the parent: "costs" answers the counters so far, "reset" zeroes them.
  let pending = '';
  process.stdin.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    let end: number;
    while ((end = pending.indexOf('\n')) >= 0) {
      const command = pending.slice(0, end);
      pending = pending.slice(end + 1);
      if (command === 'reset') costs.reset();
      if (command === 'costs') process.stdout.write(JSON.stringify(costs.read()) + '\n');
      if (command === 'cpu') {
        const used = process.cpuUsage();
        process.stdout.write(JSON.stringify({ cpuMs: (used.user + used.system) / 1000 }) + '\n');
      }
    }
  });
  process.stdin.resume();
}

// ---------------------------------------------------------------- the load generator

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  requests: number;
  cpuUs: number; // CPU time of the server process per request (user + system, all its threads), in µs
}

async function run(opts: autocannon.Options): Promise<autocannon.Result> {
  return autocannon({ connections: CONNECTIONS, duration: DURATION_S / ROUNDS, ...opts });
}

/**
 * App and bare in alternating rounds; one row each. `cpu` reads the server process's CPU time (ms): each
 * round's share of it is the CPU a request costs there, which other work on the machine does not change
 * the way it changes req/s (a busy machine takes cores from the load generator and the server alike).
 */
async function compare(
  names: [string, string],
  ours: autocannon.Options,
  bare: autocannon.Options,
  cpu: (side: 0 | 1) => Promise<number>, // the CPU time (ms) of the process serving that side
): Promise<[Row, Row]> {
  const results: [autocannon.Result[], autocannon.Result[]] = [[], []];
  const cpuMs = [0, 0];
  // Warm up both first, not counted: the app has far more code for the JIT to compile than the bare server.
  for (const opts of [ours, bare]) await run({ ...opts, duration: WARMUP_S });
  // In turn which goes first (ABBA…): the first run of a pair measured a few per cent more CPU a request when
  // the two sides were the same server (an A/A run of the metrics comparison).
  for (let round = 0; round < ROUNDS; round++)
    for (const side of round % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const)) {
      const before = await cpu(side);
      results[side]!.push(await run(side === 0 ? ours : bare));
      cpuMs[side]! += (await cpu(side)) - before;
    }
  const row = (name: string, list: autocannon.Result[], ms: number): Row => ({
    name,
    rps: list.reduce((s, r) => s + r.requests.total, 0) / DURATION_S,
    p50: Math.round(list.reduce((s, r) => s + r.latency.p50, 0) / list.length),
    p99: Math.max(...list.map((r) => r.latency.p99)),
    errors: list.reduce((s, r) => s + r.errors + r.timeouts, 0),
    non2xx: list.reduce((s, r) => s + r.non2xx, 0),
    requests: list.reduce((s, r) => s + r.requests.total, 0),
    cpuUs:
      (1000 * ms) /
      Math.max(
        1,
        list.reduce((s, r) => s + r.requests.total, 0),
      ),
  });
  return [row(names[0], results[0], cpuMs[0]!), row(names[1], results[1], cpuMs[1]!)];
}

const kb = (bytes: number): string => (bytes / 1024).toFixed(1);

async function fetchBytes(url: string): Promise<Buffer> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

async function pageWeight(base: string): Promise<void> {
  const html = await fetchBytes(`${base}/play/turtle/x`);
  const text = html.toString('utf8');
  const css = [...text.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]!);
  const scripts = [...text.matchAll(/<script type="module" src="([^"]+)"/g)].map((m) => m[1]!);
  const sprite = /<use href="([^"#]+)#/.exec(text)?.[1];
  const parts: [string, string, Buffer][] = [['HTML', '/play/turtle/x', html]];
  for (const href of css) parts.push(['CSS', href, await fetchBytes(base + href)]);
  for (const src of scripts) parts.push(['script', src, await fetchBytes(base + src)]);
  if (sprite) parts.push(['SVG', sprite, await fetchBytes(base + sprite)]);

  console.log('\nPage weight of /play/turtle/x, first visit (gzip level 6 via node:zlib; raw in brackets):');
  let total = 0;
  let script = 0;
  for (const [kind, path, bytes] of parts) {
    const gz = gzipSync(bytes).length;
    total += gz;
    if (kind === 'script') script += gz;
    console.log(`  ${kind.padEnd(7)} ${kb(gz).padStart(6)} KB  (${kb(bytes.length).padStart(6)} KB)  ${path}`);
  }
  console.log(
    `  total   ${kb(total).padStart(6)} KB   goal ≤ ${GOAL_TOTAL_KB} KB: ${total <= GOAL_TOTAL_KB * 1024 ? 'met' : 'MISSED'}`,
  );
  console.log(
    `  script  ${kb(script).padStart(6)} KB   goal ≤ ${GOAL_SCRIPT_KB} KB: ${script <= GOAL_SCRIPT_KB * 1024 ? 'met' : 'MISSED'}`,
  );
  console.log('  (the solver worker script is fetched only on the first hint or "can this still be won?")');
}

async function main(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve'], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  // The child answers in JSON lines: first Ready, then one Costs per "costs" command.
  const answers: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => answers.shift()?.(line));
  const nextLine = (): Promise<string> => new Promise((resolve) => answers.push(resolve));
  const ready = await Promise.race([
    nextLine().then((line) => JSON.parse(line) as Ready),
    new Promise<never>((_, reject) =>
      child.on('exit', (code) => reject(new Error(`the server process exited with ${code}`))),
    ),
  ]);
  const costs = async (): Promise<Costs> => {
    const answer = nextLine();
    child.stdin!.write('costs\n');
    return JSON.parse(await answer) as Costs;
  };
  const cpu = async (): Promise<number> => {
    const answer = nextLine();
    child.stdin!.write('cpu\n');
    return (JSON.parse(await answer) as { cpuMs: number }).cpuMs;
  };
  const app = `http://127.0.0.1:${ready.app}`;
  const bare = `http://127.0.0.1:${ready.bare}`;
  if (!ONLY_MIXED)
    console.log(
      `autocannon: ${CONNECTIONS} connections, ${DURATION_S} s per server and route in ${ROUNDS} alternating rounds; ` +
        `servers in pid ${child.pid}; ${ready.games.length} games ready`,
    );
  console.log(
    `machine: ${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} at the start`,
  );

  if (ONLY_MIXED) {
    await mixed(app, child.pid!, costs);
    child.kill('SIGTERM');
    return;
  }

  // First, while the build the server read at start is surely still on disk (a rebuild replaces it).
  await pageWeight(app);

  const rows: [Row, Row][] = [];
  rows.push(
    await compare(
      [`app  GET /play/turtle/${SEED}`, 'bare GET (same bytes)'],
      { url: `${app}/play/turtle/${SEED}` },
      { url: `${bare}/page` },
      cpu,
    ),
  );
  rows.push(
    await compare(
      [`app  GET /api/deals/turtle/${SEED}`, 'bare GET (same bytes)'],
      { url: `${app}/api/deals/turtle/${SEED}` },
      { url: `${bare}/deal` },
      cpu,
    ),
  );
  let next = 0;
  let ranOut = 0;
  const games = ready.games;
  const headers = { cookie: ready.cookie, 'content-type': 'application/json' };
  rows.push(
    await compare(
      ['app  POST /api/games/:id/moves (win)', 'bare POST (same body, same answer)'],
      {
        url: app,
        requests: [
          {
            method: 'POST',
            headers,
            body: ready.solution,
            setupRequest: (req) => {
              const cookie = ready.cookies[next];
              const id = games[next++];
              if (id === undefined) ranOut++;
              return {
                ...req,
                path: `/api/games/${id ?? 'AAAAAAAAAAAAAAAA'}/moves`,
                headers: { ...headers, cookie: cookie ?? ready.cookie },
              };
            },
          },
        ],
      },
      { url: `${bare}/moves`, method: 'POST', headers, body: ready.solution },
      cpu,
    ),
  );

  console.log(
    '\nroute                                          req/s    p50 ms  p99 ms  errors  non-2xx  CPU µs/req  ratio app/bare (req/s, CPU)',
  );
  for (const [ours, theirs] of rows) {
    for (const r of [ours, theirs]) {
      const ratio =
        r === ours ? `${(ours.rps / theirs.rps).toFixed(2)}, ${(theirs.cpuUs / ours.cpuUs).toFixed(2)}` : '';
      console.log(
        `${r.name.padEnd(44)} ${r.rps.toFixed(0).padStart(7)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(7)} ` +
          `${String(r.errors).padStart(7)} ${String(r.non2xx).padStart(8)} ${r.cpuUs.toFixed(0).padStart(11)}  ${ratio}`,
      );
    }
  }
  const [page, barePage] = rows[0]!;
  const ratio = page.rps / barePage.rps;
  const cpuRatio = barePage.cpuUs / page.cpuUs; // what one core of its own would serve, app against bare
  console.log(
    `\ndeal page: ${ratio.toFixed(2)}× bare fastify in req/s, ${cpuRatio.toFixed(2)}× in CPU per request ` +
      `(goal ≥ ${GOAL_RATIO} in CPU per request, which a busy machine does not bend): ${cpuRatio >= GOAL_RATIO ? 'met' : 'MISSED'}`,
  );
  if (ranOut > 0)
    console.log(
      `note: the POST run used up its ${games.length} games; ${ranOut} requests went to an unknown id (404s)`,
    );
  else console.log(`POST run: ${next} games won by replay and stored`);
  if (ONLY_ROUTES) {
    child.kill('SIGTERM');
    return;
  }

  await mixed(app, child.pid!, costs);
  child.kill('SIGTERM');
  await metricsCost();
  await backends(); // SQLite, PostgreSQL and the fleet side by side (bench/backends.ts)
  console.log(
    `\nload average at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

/**
 * A server process for the metrics comparison (`--serve-page`): the app alone, with METRICS_TOKEN when
 * BENCH_SERVE_METRICS=1, the deal page stored and rendered once. Prints its port, then answers "cpu" on stdin
 * with its CPU time so far (ms).
 */
async function servePage(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'mj-bench-page-'));
  const app = buildApp({
    databasePath: join(dir, 'bench.db'),
    cookieSecret: SECRET,
    rateLimit: false,
    logger: false,
    metricsToken: process.env.BENCH_SERVE_METRICS === '1' ? METRICS_TOKEN : undefined,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  await app.inject({ url: `/play/turtle/${SEED}` });
  process.stdout.write(JSON.stringify({ port: (app.server.address() as { port: number }).port }) + '\n');
  const stop = async (): Promise<void> => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  createInterface({ input: process.stdin })
    .on('line', (command) => {
      if (command !== 'cpu') return;
      const used = process.cpuUsage();
      process.stdout.write(JSON.stringify({ cpuMs: (used.user + used.system) / 1000 }) + '\n');
    })
    .on('close', () => void stop());
}

/** Starts a `--serve-page` process; its base URL, its CPU time (ms) on demand, and a stop. */
async function pageServer(metrics: boolean) {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve-page'], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', BENCH_SERVE_METRICS: metrics ? '1' : '0' },
  });
  const answers: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => answers.shift()?.(line));
  const nextLine = (): Promise<string> => new Promise((resolve) => answers.push(resolve));
  const { port } = JSON.parse(await nextLine()) as { port: number };
  return {
    base: `http://127.0.0.1:${port}`,
    async cpu(): Promise<number> {
      const answer = nextLine();
      child.stdin!.write('cpu\n');
      return (JSON.parse(await answer) as { cpuMs: number }).cpuMs;
    },
    stop: () => child.kill('SIGTERM'),
  };
}

/**
 * What metrics cost: the deal page of a process recording metrics against one that does not, in
 * CPU a request (alternating rounds, each process's own CPU time over its own rounds), and the
 * CPU time of one scrape of /metrics.
 */
async function metricsCost(): Promise<void> {
  const [on, off] = await Promise.all([pageServer(!METRICS_AA), pageServer(false)]);
  try {
    console.log(
      `\nMetrics: the deal page of a process ${METRICS_AA ? 'without them (A/A: the noise)' : 'with them'} and one without; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} at the start`,
    );
    const cpuOf = (side: 0 | 1): Promise<number> => (side === 0 ? on : off).cpu();
    const [withMetrics, without] = await compare(
      [`metrics ${METRICS_AA ? 'off' : 'on '} GET /play/turtle/${SEED}`, 'metrics off (another process, alike)'],
      { url: `${on.base}/play/turtle/${SEED}` },
      { url: `${off.base}/play/turtle/${SEED}` },
      cpuOf,
    );
    for (const r of [withMetrics, without])
      console.log(
        `${r.name.padEnd(44)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  ` +
          `${r.cpuUs.toFixed(1)} µs CPU a request  (${r.errors} errors, ${r.non2xx} non-2xx)`,
      );
    const extra = withMetrics.cpuUs - without.cpuUs;
    console.log(
      `${METRICS_AA ? 'A/A difference (no metrics on either)' : 'recording'}: ${extra >= 0 ? '+' : ''}${extra.toFixed(1)} µs CPU a request ` +
        `(${((100 * extra) / without.cpuUs).toFixed(1)}% of the page's ${without.cpuUs.toFixed(1)} µs)`,
    );
    if (METRICS_AA) return;
    const headers = { authorization: `Bearer ${METRICS_TOKEN}` };
    let bytes = 0;
    const before = await on.cpu();
    for (let i = 0; i < SCRAPES; i++) {
      const res = await fetch(`${on.base}/metrics`, { headers });
      if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
      bytes = (await res.arrayBuffer()).byteLength;
    }
    const scrapeMs = ((await on.cpu()) - before) / SCRAPES;
    console.log(
      `a scrape of /metrics: ${scrapeMs.toFixed(2)} ms CPU, ${kb(bytes)} KB (${SCRAPES} scrapes; ` +
        `Prometheus asks every 15 s: ${((100 * scrapeMs) / 15_000).toFixed(3)}% of a core)`,
    );
  } finally {
    on.stop();
    off.stop();
  }
}

/** The mixed workload against the app, with the server process sampled and its counters read. */
async function mixed(base: string, pid: number, costs: () => Promise<Costs>): Promise<void> {
  console.log(
    `\nMixed workload: ${PLAYERS} players, ${MIXED_DURATION_S} s, ${Math.round(NEW_DEALS * 100)}% of games on a new seed; ` +
      `load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} at the start`,
  );
  const deal = (await (await fetch(`${base}/api/deals/turtle/${SHARED_SEEDS[0]}`)).json()) as Deal;
  const replayMs = measureReplay(deal);
  const before = await costs();
  const sampler = sampleProcess(pid, 250);
  const result = await mixedWorkload({
    base,
    players: PLAYERS,
    durationS: MIXED_DURATION_S,
    newDealShare: NEW_DEALS,
    sharedSeeds: SHARED_SEEDS,
  });
  const proc = sampler.stop();
  const after = await costs();
  printMixed(result, proc, before, after, replayMs);
}

if (process.argv.includes('--serve')) await serve();
else if (process.argv.includes('--serve-page')) await servePage();
else if (ONLY_BACKENDS) await backends();
else if (ONLY_METRICS) await metricsCost();
else await main();
