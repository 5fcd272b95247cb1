/** Game states after their stored logs, kept between batches and bounded by bytes (docs/operations.md, "Memory"). */
import type { Game } from '../../engine/index.ts';
import type { StoredDeal } from './dealer.ts';
import { ByteLru } from '../utils/lru.ts';
import { CACHE_BUDGETS, dealBytes, gameBytes } from '../utils/sizes.ts';

interface CachedState {
  readonly game: Game;
  readonly count: number; // move_count
  readonly stored: StoredDeal;
}

/** Game states after their stored logs, bounded by bytes; a deal the states hold counts once. */
export function gameStates(maxBytes: number = CACHE_BUDGETS.games) {
  const deals = new Map<StoredDeal, number>(); // deal → states holding it
  const bytesOf = (stored: StoredDeal): number => dealBytes(stored.json, stored.deal.tiles.length);
  const release = (stored: StoredDeal): void => {
    const left = (deals.get(stored) ?? 1) - 1;
    if (left > 0) return void deals.set(stored, left);
    deals.delete(stored);
    states.account(-bytesOf(stored));
  };
  const states: ByteLru<string, CachedState> = new ByteLru('game states', maxBytes, (_id, state) =>
    release(state.stored),
  );
  return {
    cache: states,
    get(id: string, count: number): Game | undefined {
      const state = states.get(id);
      return state && state.count === count ? state.game : undefined;
    },
    set(id: string, game: Game, count: number, stored: StoredDeal): void {
      states.delete(id);
      const bytes = gameBytes(game);
      if (bytes > maxBytes) return;
      const holders = deals.get(stored) ?? 0;
      deals.set(stored, holders + 1);
      if (holders === 0) states.account(bytesOf(stored));
      states.set(id, { game, count, stored }, bytes);
    },
    delete(id: string): void {
      states.delete(id);
    },
  };
}
