/**
 * Pruning deals nobody played: kept KEEP_UNPLAYED_MS (7 days), and at most MAX_UNPLAYED of them. The pruner runs
 * at start and every PRUNE_EVERY_MS and deletes the rest (never a deal a game points at, never a daily deal,
 * never one the dealer holds in memory). Opening such a link later deals it again: the same board while
 * GENERATOR_VERSION is the same.
 */
import type { FastifyInstance } from 'fastify';

export const KEEP_UNPLAYED_MS = 7 * 24 * 3600_000; // how long a deal nobody played is kept
export const MAX_UNPLAYED = 100_000; // deals nobody played kept at most (~0.6 KB each: ~60 MB)
const PRUNE_EVERY_MS = 10 * 60_000;
const PRUNE_BATCH = 5000; // rows deleted per run at most, so one run never holds the writer long

/** Deletes deals nobody played past their time or the cap, sparing `keep` (ids); returns how many. */
export function pruneUnplayed(fastify: FastifyInstance, now: number, keep: number[]): Promise<number> {
  return fastify.dealsStore.pruneUnplayed({
    before: now - KEEP_UNPLAYED_MS,
    max: MAX_UNPLAYED,
    keep,
    limit: PRUNE_BATCH,
  });
}

/** Runs `prune` once the app is ready and then every PRUNE_EVERY_MS, until it closes; logs what it did. */
export function schedulePruning(fastify: FastifyInstance, prune: () => Promise<number>): void {
  const pruneNow = async (): Promise<void> => {
    try {
      const pruned = await prune();
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
