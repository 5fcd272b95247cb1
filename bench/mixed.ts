/**
 * The mixed workload of bench/http.ts (docs/capacity.md).
 *
 * Virtual players in a closed loop (no think time: this finds where the server saturates), each
 * playing whole turtle games as the browser does: the deal page, a new game, then the deal's
 * solution in move batches of 1, 2 and 3 moves in turn (the client batches what queues up while a
 * request is out), the last batch being the finish. A share of the games open a new seed (the deal
 * is made in the worker and stored), the rest a shared link whose deal is stored already. Every
 * player has its own cookie.
 *
 * Implementation notes: node:http with one keep-alive socket per player, so the load generator
 * costs little next to the server; latencies are measured per request kind. The server side is
 * measured inside its own process by `instrument` (time spent in the games service and in SQLite
 * writes, event-loop utilisation, process CPU) and from outside by `sampleProcess` (RSS from
 * /proc, every 250 ms).
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { applyMoves, newGame, type Deal, type Move } from '../src/engine/index.ts';

// ---------------------------------------------------------------------------------- in the server

interface Counter {
  n: number; // calls
  ms: number; // time until the call returned, summed: the part done before the store's first await
  settledMs: number; // time until its promise settled, summed: SQLite's whole write, or PostgreSQL's answer
}

/** What the server process measured about itself between two readings. */
export interface Costs {
  save: Counter; // the SQLite UPDATE of a batch (and finish)
  create: Counter; // the SQLite INSERT of a new game (and player)
  storeDeal: Counter; // the SQLite INSERT of a new deal
  cpuUs: number; // process CPU time, user + system, all threads (deal worker included); µs
  eluActive: number; // main-thread event loop busy time; ms
  eluIdle: number; // … idle time; ms
}

/**
 * Wraps the stores' writes with timers; returns the counters. For the benchmark's server only.
 * On SQLite a store's statements run synchronously, one transaction at a time, in microtasks that follow one
 * another, so the time until its promise settles is the time the write held the main thread; a store over
 * the network answers when its promise settles too (`settledMs`: the database's time plus the round trip).
 */
export function instrument(app: FastifyInstance): { read(): Costs; reset(): void } {
  const counters = { save: zero(), create: zero(), storeDeal: zero() };
  const wrap = <T extends object>(target: T, method: keyof T & string, counter: Counter): void => {
    const original = (target[method] as (...args: unknown[]) => Promise<unknown>).bind(target);
    (target as Record<string, unknown>)[method] = (...args: unknown[]) => {
      const start = performance.now();
      const answer = original(...args);
      counter.n++;
      counter.ms += performance.now() - start;
      return answer.finally(() => (counter.settledMs += performance.now() - start));
    };
  };
  wrap(app.gamesStore, 'saveMoves', counters.save);
  wrap(app.gamesStore, 'create', counters.create);
  wrap(app.dealsStore, 'store', counters.storeDeal);
  return {
    read() {
      const cpu = process.cpuUsage();
      const elu = performance.eventLoopUtilization();
      return { ...structuredClone(counters), cpuUs: cpu.user + cpu.system, eluActive: elu.active, eluIdle: elu.idle };
    },
    reset() {
      for (const c of Object.values(counters)) Object.assign(c, zero());
    },
  };
}

function zero(): Counter {
  return { n: 0, ms: 0, settledMs: 0 };
}

/**
 * The engine's cost of checking one move batch as the server does it (apply the batch to the
 * cached state after the stored log), over the whole solution in batches of 1, 2 and 3 moves; ms.
 */
export function measureReplay(deal: Deal, games = 200): number {
  const moves: Move[] = deal.solution.map(([a, b]) => ({ type: 'match', a, b }));
  let batches = 0;
  const start = performance.now();
  for (let g = 0; g < games; g++) {
    const fresh = newGame(deal);
    if (!fresh.ok) throw new Error(fresh.message);
    let game = fresh.value;
    for (let k = 0, size = 1; k < moves.length; k += size, size = (size % 3) + 1) {
      const next = applyMoves(game, moves.slice(k, k + size));
      if (!next.ok) throw new Error(next.message);
      game = next.value;
      batches++;
    }
  }
  return (performance.now() - start) / batches;
}

// ---------------------------------------------------------------------------------- the process

export interface ProcessSample {
  rssStartMb: number;
  rssPeakMb: number;
  rssEndMb: number;
  samples: number;
}

/** Samples a process's resident set size from /proc every `everyMs` until stopped (Linux). */
export function sampleProcess(pid: number, everyMs: number): { stop(): ProcessSample } {
  const rss = (): number => {
    try {
      const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      return kb ? Number(kb) / 1024 : NaN;
    } catch {
      return NaN; // no /proc (not Linux): RSS is not reported
    }
  };
  const start = rss();
  let peak = start;
  let samples = 1;
  const timer = setInterval(() => {
    const now = rss();
    if (now > peak) peak = now;
    samples++;
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      const end = rss();
      return { rssStartMb: start, rssPeakMb: Math.max(peak, end), rssEndMb: end, samples: samples + 1 };
    },
  };
}

// ---------------------------------------------------------------------------------- the players

export const KINDS = ['page', 'create', 'batch', 'finish'] as const;
export type Kind = (typeof KINDS)[number];

export interface MixedOptions {
  base: string; // http://127.0.0.1:PORT
  players: number;
  durationS: number;
  newDealShare: number; // 0–1: share of games on a new seed
  sharedSeeds: readonly string[]; // stored deals, as shared links
}

export interface MixedResult {
  durationS: number; // measured, from the first request to the last answer
  latencies: Record<Kind, number[]>; // ms
  non2xx: Record<Kind, number>;
  statuses: Record<string, number>; // unexpected status → count
  errors: number; // network errors
  games: number; // games finished (a "won" answer)
  newDeals: number; // games on a new seed
}

interface Answer {
  status: number;
  body: string;
  cookie: string | undefined;
}

function send(
  agent: Agent,
  base: string,
  method: string,
  path: string,
  cookie: string | undefined,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'accept-encoding': 'identity' };
    if (cookie) headers.cookie = cookie;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(body);
    }
    const req = request(`${base}${path}`, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const set = res.headers['set-cookie']?.find((c) => c.startsWith('mj_player='));
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), cookie: set?.split(';')[0] });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Runs the players until the deadline; each finishes the request it is in. */
export async function mixedWorkload(opts: MixedOptions): Promise<MixedResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: opts.players });
  const result: MixedResult = {
    durationS: 0,
    latencies: { page: [], create: [], batch: [], finish: [] },
    non2xx: { page: 0, create: 0, batch: 0, finish: 0 },
    statuses: {},
    errors: 0,
    games: 0,
    newDeals: 0,
  };
  const started = performance.now();
  const deadline = started + opts.durationS * 1000;

  async function timed(
    kind: Kind,
    method: string,
    path: string,
    cookie: string | undefined,
    body?: string,
  ): Promise<Answer | undefined> {
    const start = performance.now();
    try {
      const answer = await send(agent, opts.base, method, path, cookie, body);
      result.latencies[kind].push(performance.now() - start);
      if (answer.status < 200 || answer.status > 299) {
        result.non2xx[kind]++;
        const key = `${kind} ${answer.status}`;
        result.statuses[key] = (result.statuses[key] ?? 0) + 1;
      }
      return answer;
    } catch {
      result.errors++;
      return undefined;
    }
  }

  async function player(index: number): Promise<void> {
    let cookie: string | undefined;
    for (let game = 0; performance.now() < deadline; game++) {
      const fresh = Math.random() < opts.newDealShare;
      const seed = fresh ? `p${index}g${game}` : opts.sharedSeeds[(index + game) % opts.sharedSeeds.length]!;
      if (fresh) result.newDeals++;
      const page = await timed('page', 'GET', `/play/turtle/${seed}`, cookie);
      if (!page) continue;
      cookie = page.cookie ?? cookie;
      if (performance.now() >= deadline) break;
      const created = await timed('create', 'POST', '/api/games', cookie, JSON.stringify({ layout: 'turtle', seed }));
      if (!created || created.status !== 201) continue;
      const { id, solution } = JSON.parse(created.body) as { id: string; solution: [number, number][] };
      const moves = solution.map(([a, b]) => ({ type: 'match', a, b }));
      for (let k = 0, size = 1; k < moves.length && performance.now() < deadline; k += size, size = (size % 3) + 1) {
        const last = k + size >= moves.length;
        const answer = await timed(
          last ? 'finish' : 'batch',
          'POST',
          `/api/games/${id}/moves`,
          cookie,
          JSON.stringify({ moves: moves.slice(k, k + size) }),
        );
        if (!answer || answer.status !== 200) break;
        if (last && (JSON.parse(answer.body) as { status: string }).status === 'won') result.games++;
      }
    }
  }

  await Promise.all(Array.from({ length: opts.players }, (_, i) => player(i)));
  result.durationS = (performance.now() - started) / 1000;
  agent.destroy();
  return result;
}

// ---------------------------------------------------------------------------------- the report

const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

const fixed = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : '–');

/** Prints the tables and one JSON line of figures (for docs/capacity.md). */
export function printMixed(
  result: MixedResult,
  proc: ProcessSample,
  before: Costs,
  after: Costs,
  replayMs: number,
): void {
  const rows: [string, number[], number][] = KINDS.map((k) => [k, result.latencies[k], result.non2xx[k]]);
  const all = KINDS.flatMap((k) => result.latencies[k]);
  rows.push(['all', all, KINDS.reduce((s, k) => s + result.non2xx[k], 0)]);
  console.log('\nkind        requests    req/s   p50 ms   p99 ms   max ms  non-2xx');
  for (const [name, list, non2xx] of rows) {
    const sorted = [...list].sort((a, b) => a - b);
    console.log(
      `${name.padEnd(10)} ${String(list.length).padStart(9)} ${fixed(list.length / result.durationS, 0).padStart(8)} ` +
        `${fixed(percentile(sorted, 50)).padStart(8)} ${fixed(percentile(sorted, 99)).padStart(8)} ` +
        `${fixed(sorted.at(-1) ?? NaN).padStart(8)} ${String(non2xx).padStart(8)}`,
    );
  }
  const sortedAll = [...all].sort((a, b) => a - b);
  const cpuS = (after.cpuUs - before.cpuUs) / 1e6;
  const activeMs = after.eluActive - before.eluActive;
  const idleMs = after.eluIdle - before.eluIdle;
  const delta = (k: 'save' | 'create' | 'storeDeal') => ({
    n: after[k].n - before[k].n,
    ms: after[k].settledMs - before[k].settledMs, // SQLite's whole write (see instrument)
  });
  const save = delta('save');
  const create = delta('create');
  const store = delta('storeDeal');
  const wallMs = result.durationS * 1000;
  const requests = all.length;
  const batches = result.latencies.batch.length + result.latencies.finish.length;

  console.log(`\nerrors ${result.errors}; unexpected statuses ${JSON.stringify(result.statuses)}`);
  console.log(
    `games won ${result.games} (${fixed(result.games / result.durationS, 2)}/s), ${result.newDeals} of the games started on a new seed`,
  );
  console.log(
    `server RSS: ${fixed(proc.rssStartMb, 0)} MB before, ${fixed(proc.rssPeakMb, 0)} MB peak, ${fixed(proc.rssEndMb, 0)} MB after ` +
      `(${proc.samples} samples)`,
  );
  console.log(
    `server CPU: ${fixed(cpuS)} s in ${fixed(result.durationS)} s (${fixed((cpuS / result.durationS) * 100, 0)}% of one core, all threads); ` +
      `main thread busy ${fixed((activeMs / (activeMs + idleMs)) * 100, 0)}% (event-loop utilisation)`,
  );
  console.log(
    `per request ${fixed((cpuS * 1000) / requests, 2)} ms CPU; per game ${fixed((cpuS * 1000) / Math.max(1, result.games), 0)} ms CPU ` +
      `(${fixed(requests / Math.max(1, result.games), 1)} requests a game)`,
  );
  console.log(
    `move batches: ${fixed(replayMs, 3)} ms to replay and check one (the engine, measured alone), ` +
      `${fixed(save.ms / Math.max(1, save.n), 3)} ms for its SQLite UPDATE; ` +
      `SQLite writes held the main thread ${fixed(((save.ms + create.ms + store.ms) / wallMs) * 100, 1)}% of the time`,
  );
  console.log(
    `new games: ${fixed(create.ms / Math.max(1, create.n), 3)} ms per INSERT; new deals stored: ${store.n}, ` +
      `${fixed(store.ms / Math.max(1, store.n), 3)} ms per INSERT (a relaxed deal itself is made in process, about 0.06 ms)`,
  );
  console.log(
    JSON.stringify({
      mixed: {
        durationS: Number(result.durationS.toFixed(1)),
        requests,
        rps: Math.round(requests / result.durationS),
        p50Ms: Number(fixed(percentile(sortedAll, 50), 2)),
        p99Ms: Number(fixed(percentile(sortedAll, 99), 2)),
        errors: result.errors,
        non2xx: rows.at(-1)![2],
        games: result.games,
        batches,
        rssPeakMb: Math.round(proc.rssPeakMb),
        cpuS: Number(cpuS.toFixed(2)),
        mainThreadBusy: Number((activeMs / (activeMs + idleMs)).toFixed(3)),
        replayMsPerBatch: Number(replayMs.toFixed(3)),
        saveMsPerBatch: Number((save.ms / Math.max(1, save.n)).toFixed(3)),
        writerShare: Number(((save.ms + create.ms + store.ms) / wallMs).toFixed(3)),
      },
    }),
  );
}
