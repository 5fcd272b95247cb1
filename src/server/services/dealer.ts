/**
 * The dealer: the deal for a (layout, seed, mode), stored on first use.
 *
 * Lookup order: an in-memory LRU, then the deals table, then the generator.
 * Relaxed deals are made in process (about 3 ms for the turtle, nearly all of it measuring the deal's difficulty): they never wait behind
 * anything. Classic deals (the solver; up to seconds) go to the worker pool (DEAL_WORKERS
 * threads, default 2, so one slow seed does not hold up the next), or in process when there
 * are no workers. Each client (an IPv4 /24 or IPv6 /64) has at most MAX_QUEUED_PER_CLIENT
 * worker tasks of any kind in the making at once (classic deals, custom layouts' deals, band
 * searches, reviews, upload checks), so one client cannot fill the queue for everyone; the pool
 * runs built-in classic deals ahead of the rest (services/worker-pool.ts, its lanes).
 * A generated deal is stored before it is served, and what is served is what the table holds (first
 * writer wins), so a link shows the same board forever, also after GENERATOR_VERSION changes or a
 * layout is removed.
 * Concurrent requests for one new deal share one generation. Deals that fail
 * (no classic deal, past the deadline) are remembered for a while so a repeated
 * link does not burn another worker's time. Making a new deal stores a row, so it
 * is budgeted per client and for everyone (limits.ts): `get` with a client key
 * refuses new deals past the budget (429, or 503 when everyone's budget is spent);
 * stored deals are always served. Seeds the server chose (`markChosen`, the "New game" redirect)
 * pay from a pool of their own (limits.ts).
 *
 * A band search (`findInBand`, `/play/:layout?difficulty=BAND`) deals new seeds the server chooses until
 * one's deal is in the band (each deal measures its difficulty, engine difficulty.ts), BAND_CHUNK seeds at a
 * time as one task of the worker pool, at most MAX_BAND_SEEDS seeds in all. The seeds it deals are paid, chunk
 * by chunk before they are dealt, from the server's own budget of band seeds (BAND_SEED_LIMITS: a pool for
 * everyone, of which one client may take a share), not from the player's new deals (a search stores nothing:
 * the deal found is kept as a shown deal, so the redirect's page view deals nothing again); each chunk is also
 * charged to the client's CPU budget (services/costs.ts), a whole search at most one burst window of it.
 *
 * Work a client makes the workers do on a custom layout (a deal) is charged to its CPU budget before it is
 * queued; a review is charged by services/replays.ts.
 *
 * A player's own layout (`c-…`, services/upload.ts) is dealt like a built-in from its stored slots,
 * relaxed deals too in a worker: an uploaded layout may be slow to deal, and a worker has a deadline.
 * An unknown `c-` id is 404. `check` deals a layout not stored yet, to learn whether it can be cleared.
 *
 * Deals nobody played are kept KEEP_UNPLAYED_MS (7 days), and at most MAX_UNPLAYED of them: a
 * pruner runs at start and every PRUNE_EVERY_MS and deletes the rest (never a deal a game points
 * at, never a daily deal, never one in the cache here). Opening such a link later deals it again:
 * the same board while GENERATOR_VERSION is the same.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Band, Deal, Layout, Mode, deal as dealFunction } from '../../engine/index.ts';
import { layoutById } from '../../engine/builtins.ts';
import { isErrorCode, type ErrorCode, type Refusal } from '../errors.ts';
import type { DealRow } from '../repositories/types.ts';
import { dealKey, type DealKey } from '../schemas/common.ts';
import {
  runBandTask,
  runDealTask,
  runReviewTask,
  type BandTask,
  type BandTaskResult,
  type DealTask,
  type DealTaskResult,
  type ReviewTask,
  type ReviewTaskResult,
} from './deal-worker.ts';
import { budgetGroup, NEW_DEAL_LIMITS, NewDealBudget, type NewDealLimits } from './limits.ts';
import { ByteLru } from './lru.ts';
import { dealGrowth } from './growth.ts';
import { CACHE_BUDGETS, dealBytes, keyedRecordBytes, stringBytes } from './sizes.ts';
import { isCustomId } from './upload.ts';
import { seedCostMs } from './costs.ts';
import { secondsOf } from './counters.ts';
import { randomSeed } from './seeds.ts';
import { DealPool, PoolError, type PoolStats } from './worker-pool.ts';

declare module 'fastify' {
  interface FastifyInstance {
    dealer: Dealer;
  }
}

export interface StoredDeal {
  readonly id: number; // row id in the deals table
  readonly deal: Deal;
  readonly json: string; // the deal JSON exactly as stored and served
}

/**
 * A deal shown without being stored (issue 24): to a visitor without a player cookie, or to a client whose
 * day of growth is spent. The same board it would be stored with (the same generator); stored when a
 * player starts a game of it or opens it with their cookie.
 */
export interface UnstoredDeal {
  readonly id: null;
  readonly deal: Deal;
  readonly json: string;
}

export type ShownDeal = StoredDeal | UnstoredDeal;

/** A stored deal, or why there is none: a refusal whose code errors.ts turns into a status. */
export type DealLookup = { readonly ok: true; readonly value: StoredDeal } | Refusal;
export type ShownLookup = { readonly ok: true; readonly value: ShownDeal } | Refusal;

/** A band search's answer: the key of a new deal in the band, or why there is none (ERR_NO_DEAL_IN_BAND: `seen`). */
export type BandLookup =
  { readonly ok: true; readonly value: DealKey } | (Refusal & { readonly seen?: Readonly<Record<Band, number>> });

export interface Dealer {
  /**
   * The stored deal, made and stored on first use. `client` (a clientKey) pays for a new one (its new-deal
   * budget and its day of growth); none: free.
   */
  get(key: DealKey, client?: string): Promise<DealLookup>;
  /**
   * The deal to show: the stored one, or else made (paid from `client`'s new-deal budget as by `get`) and
   * kept in memory without a write. A page view without a player cookie stores nothing (issue 24).
   */
  show(key: DealKey, client?: string): Promise<ShownLookup>;
  byId(id: number): Promise<StoredDeal | undefined>;
  /** Notes a seed the server chose (a random seed it redirected to): its deal pays from the server's own pool. */
  markChosen(key: DealKey): void;
  /**
   * A new seed of `layout` whose deal in `mode` is in `band`, found within MAX_BAND_SEEDS seeds the server
   * chooses; each seed dealt is paid from the band-seed budget (`client`'s share of it) and `client`'s CPU
   * budget. The deal found is kept to be shown.
   */
  findInBand(layout: string, mode: Mode, band: Band, client: string): Promise<BandLookup>;
  /**
   * Deals a layout that is not stored (an upload) once, relaxed, with a fixed seed, where custom
   * deals are made: ok when it can be cleared, else why not. Stores nothing. `client` (a clientKey): counted in
   * its worker tasks (MAX_QUEUED_PER_CLIENT).
   */
  check(layout: Layout, client?: string): Promise<{ readonly ok: true } | Refusal>;
  /** Deletes deals nobody played past their time or the cap; returns how many (also run on a timer). */
  prune(): Promise<number>;
  /**
   * Reviews a game's log where classic deals are made (the workers, else in process): solver work of up to a
   * second on a long game (services/replays.ts). A busy or failed worker is an `ok: false` answer, not a throw;
   * `client` (a clientKey) past MAX_QUEUED_PER_CLIENT worker tasks is refused (ERR_QUEUE).
   */
  review(task: ReviewTask, client?: string): Promise<ReviewTaskResult | Refusal>;
  /** What the deal workers are doing (for /metrics); undefined when deals are made in process. */
  workers(): PoolStats | undefined;
}

export interface DealerOptions {
  deal?: typeof dealFunction; // a deal function to use in process instead of the workers (tests)
  classic?: (task: DealTask) => Promise<DealTaskResult>; // makes classic deals instead of the pool (tests)
  workers?: number; // deal workers; 0 deals in process
  workerEntry?: { filename: string; execArgv: string[] }; // another worker file (tests); default the deal worker
  timeoutMs?: number; // deadline for making one deal; in ms
  maxQueue?: number; // deals waiting for a worker before new ones are refused
  newDeals?: NewDealLimits | false; // the budget of new deals; false: unlimited (benchmarks)
  bandSeeds?: BandSeedLimits | false; // the budget of seeds band searches deal; false: unlimited (benchmarks)
  now?: () => number;
}

export const MAX_QUEUED_PER_CLIENT = 2; // worker tasks of any kind one client may have in the making at once

/** Seeds band searches may deal in a minute: all clients together, and one client's share of that. */
export interface BandSeedLimits {
  perMinute: number; // seeds all searches together may deal in a minute
  perClientPerMinute: number; // … one client (a /24 or /64)
}

// 1,200 turtle seeds are ~15 s of one worker's minute; a client's share is four fruitless searches a minute.
export const BAND_SEED_LIMITS: BandSeedLimits = { perMinute: 1200, perClientPerMinute: 4 * 32 };
export const BAND_CHUNK = 4; // seeds a band search deals per worker task (and pays for at once)
export const MAX_BAND_SEEDS = 64; // seeds a band search deals at most before it says the layout has none in the band
export const KEEP_UNPLAYED_MS = 7 * 24 * 3600_000; // how long a deal nobody played is kept
export const MAX_UNPLAYED = 100_000; // deals nobody played kept at most (~0.6 KB each: ~60 MB)
const PRUNE_EVERY_MS = 10 * 60_000;
const PRUNE_BATCH = 5000; // rows deleted per run at most, so one run never holds the writer long
const FAILURE_TTL = 10 * 60_000; // how long a failed deal is remembered; in ms
/** The failures of making a deal that are the asker's, not our bug (their statuses: errors.ts). */
const REFUSED: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'ERR_UNKNOWN_LAYOUT',
  'ERR_SEED',
  'ERR_UNCLEARABLE', // a custom layout the removal-order search gave up on for this seed (checked clearable on upload)
  'ERR_TIMEOUT',
  'ERR_BUSY',
  'ERR_WORKER',
]);

const CHECK_SEED = 'upload-check'; // the seed an upload is dealt with to see whether it can be cleared

/** A built-in layout's tiles (a custom one's come with its slots); an unknown one is refused by the worker. */
const layoutTiles = (id: string): number => layoutById(id)?.slots.length ?? 0;

const keyOf = ({ layout, seed, mode }: { layout: string; seed: string; mode: string }): string =>
  `${layout}/${seed}/${mode}`;

const parseRow = (row: DealRow): StoredDeal => ({
  id: row.id,
  deal: JSON.parse(row.deal_json) as Deal,
  json: row.deal_json,
});

async function dealerPlugin(fastify: FastifyInstance, opts: DealerOptions): Promise<void> {
  const repo = fastify.dealsRepository;
  const now = opts.now ?? Date.now;
  // Stored deals kept parsed, bounded by bytes (services/sizes.ts: a turtle deal with its geometry is
  // ~140 KB, a 1,000-tile one up to ~900 KB), found by id and by key.
  const idOfKey = new Map<string, number>(); // keyOf → id of a deal in byId (entries go with byId's)
  const byId = new ByteLru<number, StoredDeal>('deals', CACHE_BUDGETS.deals, (_id, stored) =>
    idOfKey.delete(keyOf(stored.deal)),
  );
  const failed = new ByteLru<string, { result: DealLookup; at: number }>('failed deals', CACHE_BUDGETS.dealKeys / 2);
  const pending = new Map<string, Promise<ShownLookup>>();
  // Seeds the server chose, until their deal is made.
  const chosen = new ByteLru<string, true>('chosen seeds', CACHE_BUDGETS.dealKeys / 2);
  // Deals made and not stored (Dealer.show), until they are stored: kept within the deals' budget.
  const unstored = new ByteLru<string, UnstoredDeal>('unstored deals', CACHE_BUDGETS.deals / 4);
  fastify.caches.push(byId, unstored, failed, chosen);
  const making = new Map<string, number>(); // budgetGroup → worker tasks in the making for it
  const budget =
    opts.newDeals === false ? undefined : new NewDealBudget(opts.newDeals ?? NEW_DEAL_LIMITS, fastify.counters);
  const bandSeeds = opts.bandSeeds === false ? undefined : (opts.bandSeeds ?? BAND_SEED_LIMITS);
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const workers = opts.deal ? 0 : (opts.workers ?? 2);
  const pool =
    workers > 0
      ? new DealPool({
          size: workers,
          timeoutMs,
          maxQueue: opts.maxQueue ?? 32,
          ...(opts.workerEntry ? { entry: opts.workerEntry } : {}),
        })
      : undefined;
  if (pool) {
    // Start the workers once the app is up, without holding up the start: the first new deal is quick then.
    fastify.addHook('onReady', async () => {
      void pool.start().catch((error: unknown) => fastify.log.error({ err: error }, 'deal workers did not start'));
    });
    fastify.addHook('onClose', () => pool.close());
  }

  const remember = (row: DealRow): StoredDeal => {
    const stored = parseRow(row);
    const bytes = dealBytes(stored.json, stored.deal.tiles.length) + 2 * keyedRecordBytes(keyOf(stored.deal));
    byId.set(row.id, stored, bytes);
    if (byId.get(row.id) === stored) idOfKey.set(keyOf(stored.deal), row.id);
    return stored;
  };
  const cachedByKey = (key: string): StoredDeal | undefined => {
    const id = idOfKey.get(key);
    return id === undefined ? undefined : byId.get(id);
  };

  const generate = async (task: DealTask): Promise<DealTaskResult> => {
    if (task.mode === 'relaxed' && !task.slots) return runDealTask(task, opts.deal); // ~3 ms with the difficulty: no queue, no worker
    if (opts.classic) return opts.classic(task);
    if (!pool) return runDealTask(task, opts.deal);
    try {
      return await pool.run(task);
    } catch (error) {
      if (error instanceof PoolError) {
        const message =
          error.code === 'ERR_TIMEOUT' ? `${error.message}; play it relaxed or try another seed` : error.message;
        return { ok: false, error: error.code, message };
      }
      throw error;
    }
  };

  /** Runs one chunk of a band search: in the pool, or in process when there is none. */
  const search = async (task: BandTask): Promise<BandTaskResult> => {
    if (!pool) return runBandTask(task, opts.deal);
    try {
      return await pool.search(task);
    } catch (error) {
      if (error instanceof PoolError) return { ok: false, error: error.code, message: error.message };
      throw error;
    }
  };

  /** Makes a deal: its JSON, or why not (remembered a while when it timed out). */
  const make = async (task: DealTask, key: string): Promise<ShownLookup> => {
    const result = await generate(task);
    if (!result.ok) {
      // Any other failure of a custom layout's deal is the search giving up on this seed.
      const code =
        isErrorCode(result.error) && REFUSED.has(result.error)
          ? result.error
          : task.slots
            ? 'ERR_UNCLEARABLE'
            : undefined;
      if (!code) throw new Error(`dealing ${key} failed: ${result.message}`); // a broken built-in layout: our bug
      fastify.metrics.dealFailed(task.mode, code);
      const lookup: Refusal = { ok: false, code, message: result.message };
      if (result.error === 'ERR_TIMEOUT')
        failed.set(key, { result: lookup, at: now() }, keyedRecordBytes(key, stringBytes(lookup.message)));
      return lookup;
    }
    fastify.metrics.dealMade(task.mode);
    const made: UnstoredDeal = { id: null, deal: JSON.parse(result.json) as Deal, json: result.json };
    unstored.set(key, made, dealBytes(made.json, made.deal.tiles.length) + keyedRecordBytes(key));
    return { ok: true, value: made };
  };

  /** Stores a deal made here (first writer wins: what is served is what the table holds). */
  const store = async (key: DealKey, made: UnstoredDeal, client: string | undefined): Promise<DealLookup> => {
    const already = cachedByKey(keyOf(key)); // a request that waited on the same making stored it first
    if (already) return { ok: true, value: already };
    const refused =
      client === undefined ? undefined : await fastify.growth.take(client, dealGrowth(made.deal.tiles.length));
    if (refused) return refused;
    const stored = remember(await repo.store(key, made.deal.generator, made.json, now()));
    unstored.delete(keyOf(key));
    return { ok: true, value: stored };
  };

  /** The deal of `deal` as stored, or made now (and not stored); see Dealer.show. */
  const find = async (deal: DealKey, client: string | undefined): Promise<ShownLookup> => {
    const { layout, mode } = deal;
    const key = keyOf(deal);
    const cached = cachedByKey(key);
    if (cached) return { ok: true, value: cached };
    const row = await repo.find(deal);
    if (row) return { ok: true, value: remember(row) };
    const made = unstored.get(key);
    if (made) return { ok: true, value: made };
    const failure = failed.get(key);
    if (failure && now() - failure.at < FAILURE_TTL) return failure.result;
    let job = pending.get(key);
    if (job) return job;
    let slots: DealTask['slots'];
    if (isCustomId(layout)) {
      const row = await fastify.customLayoutsRepository.find(layout);
      if (!row)
        return {
          ok: false,
          code: 'ERR_UNKNOWN_LAYOUT',
          message: `there is no layout called ${layout}; was the link copied whole?`,
        };
      slots = JSON.parse(row.slots) as [number, number, number][];
      job = pending.get(key); // another request may have started it while the row was read
      if (job) return job;
    }
    const group = client === undefined || (mode === 'relaxed' && !slots) ? undefined : budgetGroup(client);
    if (group !== undefined && (making.get(group) ?? 0) >= MAX_QUEUED_PER_CLIENT) return queueFull();
    // A custom layout's deal is charged to the client's time before it is queued (its cost grows with its tiles).
    const charged =
      client !== undefined && slots
        ? await fastify.cpuBudget.charge(client, seedCostMs(slots.length, mode), 'deal', 'worker')
        : undefined;
    if (charged) return charged;
    const refused = client === undefined ? undefined : await budget?.take(client, chosen.get(key) === true);
    if (refused) {
      return {
        ok: false,
        code: refused.scope === 'client' ? 'ERR_NEW_DEALS' : 'ERR_NEW_DEALS_FULL',
        message: refused.message,
        retryAfterS: refused.retryAfterS,
      };
    }
    job = pending.get(key); // another request may have started it while the budget answered
    if (job) return job;
    const done = group === undefined ? undefined : startMaking(group);
    job = make({ ...deal, slots }, key).finally(() => {
      pending.delete(key);
      done?.();
    });
    pending.set(key, job);
    return job;
  };

  /** The refusal of a client that has MAX_QUEUED_PER_CLIENT worker tasks in the making. */
  const queueFull = (): Refusal => ({
    ok: false,
    code: 'ERR_QUEUE',
    message: `at most ${MAX_QUEUED_PER_CLIENT} classic deals, band searches or reviews are made for you at once; try again when they are ready`,
    retryAfterS: 2,
  });

  /** Takes `n` seeds of the band-seed budget for `client`; undefined when it may, else the refusal. */
  const takeBandSeeds = async (client: string, n: number): Promise<Refusal | undefined> => {
    if (!bandSeeds) return undefined;
    const taken = await fastify.counters.take(
      [
        { key: `band:minute:${budgetGroup(client)}`, max: bandSeeds.perClientPerMinute, windowMs: 60_000 },
        { key: 'band:everyone', max: bandSeeds.perMinute, windowMs: 60_000 },
      ],
      n,
    );
    if (taken.ok) return undefined;
    const wait = secondsOf(taken.retryAfterMs);
    return taken.index === 0
      ? {
          ok: false,
          code: 'ERR_QUEUE',
          retryAfterS: wait,
          message: `your network has searched ${bandSeeds.perClientPerMinute} deals by difficulty this minute, as many as one may; try again in ${wait} s`,
        }
      : {
          ok: false,
          code: 'ERR_BUSY',
          retryAfterS: wait,
          message: `the server is searching deals by difficulty for many people right now; try again in ${wait} s, or start any deal`,
        };
  };

  /** Counts a worker task in the making for a client group; the returned function ends it. */
  const startMaking = (group: string): (() => void) => {
    making.set(group, (making.get(group) ?? 0) + 1);
    return () => {
      const left = (making.get(group) ?? 1) - 1;
      if (left <= 0) making.delete(group);
      else making.set(group, left);
    };
  };

  const findInBand = async (layout: string, mode: Mode, band: Band, client: string): Promise<BandLookup> => {
    let slots: BandTask['slots'];
    if (isCustomId(layout)) {
      const row = await fastify.customLayoutsRepository.find(layout);
      if (!row) return { ok: false, code: 'ERR_UNKNOWN_LAYOUT', message: `there is no layout called ${layout}` };
      slots = JSON.parse(row.slots) as [number, number, number][];
    }
    const group = budgetGroup(client);
    if ((making.get(group) ?? 0) >= MAX_QUEUED_PER_CLIENT) return queueFull();
    const done = startMaking(group);
    try {
      const seen: Record<Band, number> = { easy: 0, medium: 0, hard: 0, expert: 0 };
      const tiles = slots?.length ?? layoutTiles(layout);
      // The chunks are charged as dealt, a whole search at most one burst of the client's CPU budget: like any one
      // request, a search of a large layout passes an empty window instead of never reaching its answer.
      const limits = fastify.cpuBudget.limits;
      let unpaid = limits ? Math.min(limits.clientBurstMs, limits.clientPerMinuteMs) : 0; // ms
      for (let dealt = 0; dealt < MAX_BAND_SEEDS; dealt += BAND_CHUNK) {
        const cost = Math.min(unpaid, Math.ceil(BAND_CHUNK * seedCostMs(tiles, mode)));
        unpaid -= cost;
        const refused =
          (await takeBandSeeds(client, BAND_CHUNK)) ?? (await fastify.cpuBudget.charge(client, cost, 'band', 'worker'));
        if (refused) return refused;
        const seeds = Array.from({ length: BAND_CHUNK }, randomSeed);
        const result = await search({ layout, mode, band, seeds, slots });
        if (!result.ok) {
          const code =
            isErrorCode(result.error) && REFUSED.has(result.error)
              ? result.error
              : slots
                ? 'ERR_UNCLEARABLE'
                : undefined;
          if (!code) throw new Error(`searching ${layout} (${mode}) for ${band} failed: ${result.message}`); // our bug
          return {
            ok: false,
            code,
            message: result.message,
            ...(code === 'ERR_BUSY' || code === 'ERR_WORKER' ? { retryAfterS: 5 } : {}),
          };
        }
        for (const b of Object.keys(seen) as Band[]) seen[b] += result.seen[b];
        if (result.found) {
          const key = dealKey(layout, result.found.seed, mode);
          const made: UnstoredDeal = { id: null, deal: JSON.parse(result.found.json) as Deal, json: result.found.json };
          unstored.set(keyOf(key), made, dealBytes(made.json, made.deal.tiles.length) + keyedRecordBytes(keyOf(key)));
          return { ok: true, value: key };
        }
      }
      return {
        ok: false,
        code: 'ERR_NO_DEAL_IN_BAND',
        message: `none of ${MAX_BAND_SEEDS} new ${mode} deals of this layout was ${band}`,
        seen,
      };
    } finally {
      done();
    }
  };

  const dealer: Dealer = {
    async get(deal, client) {
      const found = await find(deal, client);
      if (!found.ok) return found;
      if (found.value.id !== null) return { ok: true, value: found.value };
      return store(deal, found.value, client);
    },
    show: find,
    async byId(id) {
      const cached = byId.get(id);
      if (cached) return cached;
      const row = await repo.findById(id);
      return row ? remember(row) : undefined;
    },
    markChosen(deal) {
      const key = keyOf(deal);
      chosen.set(key, true, keyedRecordBytes(key));
    },
    findInBand,
    async check(layout, client) {
      const slots = layout.slots.map((s) => [s.x, s.y, s.z] as const);
      const group = client === undefined ? undefined : budgetGroup(client);
      if (group !== undefined && (making.get(group) ?? 0) >= MAX_QUEUED_PER_CLIENT) return queueFull();
      const done = group === undefined ? undefined : startMaking(group);
      const result = await generate({ ...dealKey(layout.id, CHECK_SEED, 'relaxed'), slots }).finally(() => done?.());
      if (result.ok) return { ok: true };
      if (result.error === 'ERR_BUSY' || result.error === 'ERR_WORKER')
        return { ok: false, code: result.error, message: result.message, retryAfterS: 5 };
      if (result.error === 'ERR_TIMEOUT')
        return {
          ok: false,
          code: 'ERR_LAYOUT_TOO_SLOW',
          message: 'this layout takes too long to deal; it cannot be played here',
        };
      return { ok: false, code: 'ERR_LAYOUT', message: result.message };
    },
    async review(task, client) {
      const group = client === undefined ? undefined : budgetGroup(client);
      if (group !== undefined && (making.get(group) ?? 0) >= MAX_QUEUED_PER_CLIENT) return queueFull();
      const done = group === undefined ? undefined : startMaking(group);
      try {
        if (!pool) return runReviewTask(task);
        return await pool.run(task);
      } catch (error) {
        if (error instanceof PoolError) return { ok: false, error: error.code, message: error.message };
        throw error;
      } finally {
        done?.();
      }
    },
    async prune() {
      // The cached deals stay: a request that just looked one up may be about to start a game on it.
      return repo.pruneUnplayed({
        before: now() - KEEP_UNPLAYED_MS,
        max: MAX_UNPLAYED,
        keep: byId.keys(),
        limit: PRUNE_BATCH,
      });
    },
    workers: () => pool?.stats(),
  };
  fastify.decorate('dealer', dealer);

  const pruneNow = async (): Promise<void> => {
    try {
      const pruned = await dealer.prune();
      if (pruned > 0) fastify.log.info({ pruned }, 'deleted deals nobody played');
    } catch (error) {
      fastify.log.error({ err: error }, 'pruning unplayed deals failed');
    }
  };
  let pruner: NodeJS.Timeout | undefined;
  fastify.addHook('onReady', async () => {
    void pruneNow();
    pruner = setInterval(() => void pruneNow(), PRUNE_EVERY_MS);
    pruner.unref();
  });
  fastify.addHook('onClose', () => clearInterval(pruner));
}

export default fp(dealerPlugin, {
  name: 'dealer',
  dependencies: ['stores', 'counters', 'growth', 'metrics', 'cpu-budget'],
});
