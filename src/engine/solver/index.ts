/**
 * The solver: is a position clearable, and how? It searches over pairings, not move orders (README.md, "The
 * solver"; the order of a solve's steps: docs/engine.md, "Solve order").
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

export const SOLVE_BUDGET = 200_000;
const PLAYOUTS = 300; // a node each
// Of those, tried before the optimistic play from the start.
const PLAYOUTS_FIRST = 10;
// From this many stacked pairings forbidden, that play goes first.
const STACKED_LIKELY_LOST = 5;

export type SolveOutcome = 'solvable' | 'unsolvable' | 'unresolved';

export type SolveResult =
  | { readonly result: 'solvable'; readonly nodes: number; readonly solution: Pair[] } // solution in play order
  | { readonly result: 'unsolvable'; readonly nodes: number }
  | { readonly result: 'unresolved'; readonly nodes: number }; // nodes: plays (a random playout is one)

export interface SolveOptions {
  readonly budget?: number;
  readonly seed?: string; // seeds the playouts and tie-breaks
  readonly playouts?: number;
  // An earlier position's solution: its pairing is tried first (one greedy play).
  readonly pairing?: readonly Pair[];
  // Playouts before the optimistic play from the start.
  readonly playoutsFirst?: number;
  // Phase saving in the search; generator 15's dealer turns it off.
  readonly savePhases?: boolean;
  // Explanations release without a play a decision that lets no copy leave; generator 15's dealer turns it off.
  readonly skipIdleReleases?: boolean;
}

/**
 * Solves the position `present` with `faces` (per slot; removed slots may hold anything), reachable by legal
 * play. Deterministic in the position and options.
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
  const conflicts = new Conflicts(work, start, commitments, plays, nogoods, options.skipIdleReleases ?? true);
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
