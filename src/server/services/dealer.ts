/**
 * The deal of a (layout, seed, mode): from memory, the deals table, or made and stored before it is served; the
 * stored row wins, so a link shows the same board forever (docs/server.md, "Deals and links").
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Band, Layout, Mode } from '../../engine/index.ts';
import type { Refusal } from '../errors.ts';
import { dealKey, type DealKey } from '../schemas/common.ts';
import { BAND_SEED_LIMITS, findInBand, type BandLookup, type BandSeedLimits } from './band-search.ts';
import { ClientTasks } from './client-tasks.ts';
import { seedCostMs } from './costs.ts';
import { DealMakers, refusalCode, type MakerOptions } from './deal-makers.ts';
import { DealMemory, keyOf, type ShownDeal, type StoredDeal, type UnstoredDeal } from './deal-memory.ts';
import { pruneUnplayed, schedulePruning } from './deal-pruner.ts';
import type { DealTask, ReviewTask, ReviewTaskResult } from './deal-worker.ts';
import { dealGrowth } from './growth.ts';
import { NEW_DEAL_LIMITS, NewDealBudget, type NewDealLimits } from './limits.ts';
import { isCustomId } from './upload.ts';
import type { PoolStats } from './worker-pool.ts';

export type { BandLookup } from './band-search.ts';
export { MAX_BAND_SEEDS } from './band-search.ts';
export { MAX_QUEUED_PER_CLIENT } from './client-tasks.ts';
export type { ShownDeal, StoredDeal, UnstoredDeal } from './deal-memory.ts';
export { KEEP_UNPLAYED_MS } from './deal-pruner.ts';

declare module 'fastify' {
  interface FastifyInstance {
    dealer: Dealer;
  }
}

export type DealLookup = { readonly ok: true; readonly value: StoredDeal } | Refusal;
export type ShownLookup = { readonly ok: true; readonly value: ShownDeal } | Refusal;

export interface Dealer {
  /** The stored deal, made and stored on first use; `client` pays for a new one (none: free). */
  get(key: DealKey, client?: string): Promise<DealLookup>;
  /** As `get`, but a new deal is kept in memory, not stored. */
  show(key: DealKey, client?: string): Promise<ShownLookup>;
  byId(id: number): Promise<StoredDeal | undefined>;
  /** A seed the server chose: its deal pays from the server's own pool. */
  markChosen(key: DealKey): void;
  /** A new seed whose deal is in `band` (band-search.ts). */
  findInBand(layout: string, mode: Mode, band: Band, client: string): Promise<BandLookup>;
  /** Can an unstored layout be cleared? Dealt once, relaxed. */
  check(layout: Layout, client?: string): Promise<{ readonly ok: true } | Refusal>;
  /** Returns how many deals it deleted. */
  prune(): Promise<number>;
  /** A busy or failed worker is an answer, not a throw. */
  review(task: ReviewTask, client?: string): Promise<ReviewTaskResult | Refusal>;
  /** Undefined when deals are made in process. */
  workers(): PoolStats | undefined;
}

export interface DealerOptions extends MakerOptions {
  newDeals?: NewDealLimits | false; // false: unlimited (benchmarks)
  bandSeeds?: BandSeedLimits | false; // false: unlimited (benchmarks)
  now?: () => number;
}

const CHECK_SEED = 'upload-check';

async function dealerPlugin(fastify: FastifyInstance, opts: DealerOptions): Promise<void> {
  const repo = fastify.dealsStore;
  const now = opts.now ?? Date.now;
  const memory = new DealMemory(now);
  fastify.caches.push(...memory.caches());
  const makers = new DealMakers(opts);
  const tasks = new ClientTasks();
  const pending = new Map<string, Promise<ShownLookup>>(); // by keyOf
  const budget =
    opts.newDeals === false ? undefined : new NewDealBudget(opts.newDeals ?? NEW_DEAL_LIMITS, fastify.counters);
  const bandSeeds = opts.bandSeeds === false ? undefined : (opts.bandSeeds ?? BAND_SEED_LIMITS);
  if (makers.hasWorkers) {
    fastify.addHook('onReady', async () => {
      void makers.start().catch((error: unknown) => fastify.log.error({ err: error }, 'deal workers did not start'));
    });
    fastify.addHook('onClose', () => makers.close());
  }

  const make = async (task: DealTask, key: string): Promise<ShownLookup> => {
    const result = await makers.deal(task);
    if (!result.ok) {
      const code = refusalCode(result.error, task.slots !== undefined);
      if (!code) throw new Error(`dealing ${key} failed: ${result.message}`); // our bug
      fastify.metrics.dealFailed(task.mode, code);
      const refusal: Refusal = { ok: false, code, message: result.message };
      if (result.error === 'ERR_TIMEOUT') memory.fail(key, refusal);
      return refusal;
    }
    fastify.metrics.dealMade(task.mode);
    return { ok: true, value: memory.keepUnstored(key, result.json) };
  };

  const store = async (key: DealKey, made: UnstoredDeal, client: string | undefined): Promise<DealLookup> => {
    const already = memory.storedByKey(keyOf(key)); // another waiter stored it first
    if (already) return { ok: true, value: already };
    const refused =
      client === undefined ? undefined : await fastify.growth.take(client, dealGrowth(made.deal.tiles.length));
    if (refused) return refused;
    return { ok: true, value: memory.remember(await repo.store(key, made.deal.generator, made.json, now())) };
  };

  const customSlots = async (layout: string): Promise<DealTask['slots'] | Refusal> => {
    const row = await fastify.customLayoutsStore.find(layout);
    if (!row)
      return {
        ok: false,
        code: 'ERR_UNKNOWN_LAYOUT',
        message: `there is no layout called ${layout}; was the link copied whole?`,
      };
    return JSON.parse(row.slots) as [number, number, number][];
  };

  const find = async (deal: DealKey, client: string | undefined): Promise<ShownLookup> => {
    const key = keyOf(deal);
    const cached = memory.storedByKey(key);
    if (cached) return { ok: true, value: cached };
    const row = await repo.find(deal);
    if (row) return { ok: true, value: memory.remember(row) };
    const made = memory.unstoredByKey(key);
    if (made) return { ok: true, value: made };
    const failure = memory.failure(key);
    if (failure) return failure;
    let job = pending.get(key);
    if (job) return job;
    let slots: DealTask['slots'];
    if (isCustomId(deal.layout)) {
      const found = await customSlots(deal.layout);
      if (found && 'ok' in found) return found;
      slots = found;
      job = pending.get(key); // started meanwhile?
      if (job) return job;
    }
    const counted = client !== undefined && (deal.mode === 'classic' || slots !== undefined); // a worker task
    const full = counted ? tasks.full(client) : undefined;
    if (full) return full;
    const refused = client === undefined ? undefined : await pay(deal, key, client, slots);
    if (refused) return refused;
    job = pending.get(key); // started meanwhile?
    if (job) return job;
    const done = counted ? tasks.start(client) : undefined;
    job = make({ ...deal, slots }, key).finally(() => {
      pending.delete(key);
      done?.();
    });
    pending.set(key, job);
    return job;
  };

  const pay = async (
    deal: DealKey,
    key: string,
    client: string,
    slots: DealTask['slots'],
  ): Promise<Refusal | undefined> => {
    const charged = slots
      ? await fastify.cpuBudget.charge(client, seedCostMs(slots.length, deal.mode), 'deal', 'worker')
      : undefined;
    if (charged) return charged;
    const refused = await budget?.take(client, memory.isChosen(key));
    if (!refused) return undefined;
    return {
      ok: false,
      code: refused.scope === 'client' ? 'ERR_NEW_DEALS' : 'ERR_NEW_DEALS_FULL',
      message: refused.message,
      retryAfterS: refused.retryAfterS,
    };
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
      const cached = memory.storedById(id);
      if (cached) return cached;
      const row = await repo.findById(id);
      return row ? memory.remember(row) : undefined;
    },
    markChosen: (deal) => memory.markChosen(keyOf(deal)),
    findInBand: (layout, mode, band, client) =>
      findInBand({ fastify, makers, tasks, memory, limits: bandSeeds }, layout, mode, band, client),
    async check(layout, client) {
      const slots = layout.slots.map((s) => [s.x, s.y, s.z] as const);
      const result = await tasks.run(client, () =>
        makers.deal({ ...dealKey(layout.id, CHECK_SEED, 'relaxed'), slots }),
      );
      if (!('error' in result)) return result.ok ? { ok: true } : result;
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
    review: (task, client) => tasks.run(client, () => makers.review(task)),
    // Deals held in memory stay: a request may be about to start a game on one.
    prune: () => pruneUnplayed(fastify, now(), memory.storedIds()),
    workers: () => makers.stats(),
  };
  fastify.decorate('dealer', dealer);
  schedulePruning(fastify, () => dealer.prune());
}

export default fp(dealerPlugin, {
  name: 'dealer',
  dependencies: ['stores', 'counters', 'growth', 'metrics', 'cpu-budget'],
});
