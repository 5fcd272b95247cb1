/**
 * Prunes deals nobody played, past KEEP_UNPLAYED_MS or MAX_UNPLAYED; never one a game points at, a daily deal or
 * one the dealer holds. Such a link deals the same board again while GENERATOR_VERSION is the same.
 */
import type { FastifyInstance } from 'fastify';

export const KEEP_UNPLAYED_MS = 7 * 24 * 3600_000;
export const MAX_UNPLAYED = 100_000; // ~0.6 KB each: ~60 MB
const PRUNE_EVERY_MS = 10 * 60_000;
const PRUNE_BATCH = 5000; // per run, so one run never holds the writer long

/** Spares `keep` (ids); returns how many it deleted. */
export function pruneUnplayed(fastify: FastifyInstance, now: number, keep: number[]): Promise<number> {
  return fastify.dealsStore.pruneUnplayed({
    before: now - KEEP_UNPLAYED_MS,
    max: MAX_UNPLAYED,
    keep,
    limit: PRUNE_BATCH,
  });
}

/** At start, then every PRUNE_EVERY_MS until the app closes. */
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
