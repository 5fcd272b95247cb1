/**
 * Estimates in ms, from the request before the work, of what is charged to a client's CPU budget: upper bounds
 * of the figures measured in docs/operations.md, "CPU budgets".
 */
import type { Mode } from '../../engine/index.ts';

/** One seed dealt, its difficulty measured. */
export const seedCostMs = (tiles: number, mode: Mode): number => (mode === 'classic' ? 2 + tiles / 8 : 1 + tiles / 16);

/** A review of a game's log of `moves` moves: a solver question per run of moves. */
export const reviewCostMs = (tiles: number, moves: number): number => 2 + (moves * tiles) / 2000;

/** A replay page's main-thread work: the log replayed to move K and the page rendered. */
export const replayPageCostMs = (tiles: number, k: number): number => 2 + tiles / 40 + (k * tiles) / 150_000;
