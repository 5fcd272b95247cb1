/**
 * What the deal workers' and replay pages' work costs, estimated from the request before it is done, in ms:
 * the figures charged to a client's CPU budget (services/cpu-budget.ts). Upper bounds of what was measured on
 * a busy two-core machine (docs/operations.md, "CPU budgets"), so a client is charged a little more than it
 * spends, never much less.
 */
import type { Mode } from '../../engine/index.ts';

/** One seed dealt (a deal and its difficulty measured): a turtle (144 tiles) took 3–35 ms, 216 tiles 5–33 ms. */
export const seedCostMs = (tiles: number, mode: Mode): number => (mode === 'classic' ? 2 + tiles / 8 : 1 + tiles / 16);

/**
 * A review of a game's log (engine reviewLog): a solver question's set-up per run of moves, each about the
 * board's size; a turtle log of 2,000 moves with undos took 50–126 ms. `moves`: the stored log's length.
 */
export const reviewCostMs = (tiles: number, moves: number): number => 2 + (moves * tiles) / 2000;

/**
 * A replay page's own work on the main thread: the log replayed to move K (a turtle's 1,000 moves took
 * 0.8 ms) and the page rendered (a turtle's page took 4–6 ms of the process's CPU with its review kept).
 */
export const replayPageCostMs = (tiles: number, k: number): number => 2 + tiles / 40 + (k * tiles) / 150_000;
