/**
 * The solver: is a position clearable, and how? It searches over pairings (which copy of a face leaves with
 * which), not move orders: with every partner fixed, greedy play decides the rest. A module per idea; the
 * order
 * of a solve's steps and why: docs/engine.md, "Solve order"; the search: README.md, "The solver".
 */
import type { Geometry } from '../layout.ts';
import type { Presence } from '../rules.ts';
import { makeRng } from '../rng.ts';
import type { Face, Pair } from '../types.ts';
import { BUDGET_SPENT, Budget } from './budget.ts';
import { Commitments } from './commitments.ts';
import { Conflicts } from './conflicts.ts';
import { Nogoods } from './nogoods.ts';
import { Plays } from './plays.ts';
import { Playouts } from './playouts.ts';
import { PairingSearch } from './search.ts';
import { setUp, workspaceOf } from './workspace.ts';

export const SOLVE_BUDGET = 200_000; // default node budget
const PLAYOUTS = 300; // random playouts tried before the search (a node each)
// Of those, tried before the optimistic play from the start (docs/engine.md, "Solve order").
const PLAYOUTS_FIRST = 10;
// Unless this many pairings of stacked copies were forbidden: then that play goes first.
const STACKED_LIKELY_LOST = 5;

export type SolveOutcome = 'solvable' | 'unsolvable' | 'unresolved';

export type SolveResult =
  | { readonly result: 'solvable'; readonly nodes: number; readonly solution: Pair[] } // solution in play order
  | { readonly result: 'unsolvable'; readonly nodes: number }
  | { readonly result: 'unresolved'; readonly nodes: number }; // nodes: plays (a random playout is one)

export interface SolveOptions {
  readonly budget?: number; // node budget; default SOLVE_BUDGET
  readonly seed?: string; // seeds the playouts and tie-breaks; default 'solve'
  readonly playouts?: number; // default PLAYOUTS
  // A known solution of an earlier position of the same game: its pairing is tried first, as one greedy play.
  readonly pairing?: readonly Pair[];
  // Playouts before the optimistic play from the start; default PLAYOUTS_FIRST, or 0 when many copies are
  // stacked.
  readonly playoutsFirst?: number;
  // Phase saving in the search; default true (generator 15's dealer turns it off: its boards are fixed).
  readonly savePhases?: boolean;
}

/**
 * Solves the position `present` (1 per tile on the board) with `faces` (per slot; removed slots may hold
 * anything). It must be reachable by legal play. Deterministic in the position and options.
 */
export function solve(
  geom: Geometry,
  present: Presence,
  faces: readonly (Face | null)[],
  options: SolveOptions = {},
): SolveResult {
  const budget = new Budget(options.budget ?? SOLVE_BUDGET);
  const rng = makeRng(options.seed ?? 'solve', 'solver');
  const work = workspaceOf(geom);
  const start = setUp(work, present, faces);
  if (!start) return { result: 'unsolvable', nodes: 0 }; // a group with an odd number of copies
  if (start.count === 0) return { result: 'solvable', nodes: 0, solution: [] };

  const nogoods = new Nogoods(work, start);
  const plays = new Plays(work, start, budget, nogoods);
  const playouts = new Playouts(work, start, budget, nogoods);
  const commitments = new Commitments(work, start, nogoods);
  const conflicts = new Conflicts(work, start, commitments, plays, nogoods);
  const search = new PairingSearch(
    work,
    start,
    budget,
    plays,
    nogoods,
    commitments,
    conflicts,
    rng,
    options.savePhases ?? true,
  );
  const count = options.playouts ?? PLAYOUTS;
  try {
    search.unstackAll();
    const first = Math.min(
      count,
      options.playoutsFirst ?? (search.stacked >= STACKED_LIKELY_LOST ? 0 : PLAYOUTS_FIRST),
    );
    if (options.pairing && plays.greedy(commitments.pairingOf(options.pairing), 0))
      return { result: 'solvable', nodes: budget.nodes, solution: plays.solution() };
    for (let p = 0; p <= count; p++) {
      if (p === first && !search.optimisticFromStart()) return { result: 'unsolvable', nodes: budget.nodes };
      if (p === count) break;
      const moves = playouts.playout(rng);
      if (moves) return { result: 'solvable', nodes: budget.nodes, solution: moves };
    }
    const moves = search.run();
    if (moves) return { result: 'solvable', nodes: budget.nodes, solution: moves };
    return { result: 'unsolvable', nodes: budget.nodes };
  } catch (e) {
    if (e === BUDGET_SPENT) return { result: 'unresolved', nodes: budget.max };
    throw e;
  }
}
