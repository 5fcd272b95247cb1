/**
 * The solver: is a position clearable, and how?
 *
 * Implementation notes. Searching over move orders wastes its budget on orders of the
 * same removals. Instead we search over *pairings*: which copy of a face is removed with
 * which. Once every tile's partner is fixed, the order no longer matters — removing a
 * tile only ever frees others — so playing any pair whose two tiles are both free, until
 * none is left, decides the pairing exactly.
 *
 * The modules, one idea each:
 * - workspace.ts: the typed arrays a solve works in (kept per geometry) and the start
 *   position's groups of matching tiles;
 * - budget.ts: nodes, the unit of work and of every budget (never time);
 * - plays.ts: the optimistic play (a failure proves the commitments dead) and greedy play
 *   (a clear board is a solution);
 * - playouts.ts: random playouts (a pair drawn by group, safe moves first);
 * - commitments.ts: the pairs fixed so far, for good or by the search's decisions;
 * - nogoods.ts: learnt sets of literals (pairings of a group of four) no solution has
 *   all of, watched by two literals as SAT solvers watch theirs, and the bans they put on
 *   the optimistic play;
 * - conflicts.ts: which decisions a dead end depends on (deletion-minimal conflict sets,
 *   backjumping, learning);
 * - search.ts: the search over pairings, its root probe and its restarts.
 *
 * A solve: the pairing of a known solution of an earlier position when there is one (one
 * greedy play), then PLAYOUTS_FIRST random playouts (about 9 µs each on the turtle; half the
 * uniform turtle shuffles are cleared by one of the first 20; none when many copies lie on
 * each other, as such a shuffle is likely lost), then the optimistic play from
 * the start (most unwinnable shuffles fail it at once), then the rest of the PLAYOUTS random
 * playouts, then the search. How each step was measured is in docs/study.md, "The solver's
 * measurements".
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
// Of those, tried before the optimistic play from the start: a position likely winnable (a uniform turtle shuffle, a
// player's board) is then often cleared without that play, which costs as much as one or two playouts.
const PLAYOUTS_FIRST = 10;
// Unless this many pairings of stacked copies were forbidden: then the optimistic play from the start goes first. The
// more copies lie on each other, the likelier a shuffle is lost (over all 53 layouts of 144 tiles, 100 shuffles each:
// the play fails on 1–4% of shuffles with 0–3 such pairings, 15% with 5, 42% with 8, most with 9 or more), and
// then it saves the 10 playouts for the price of one or two.
const STACKED_LIKELY_LOST = 5;

export type SolveOutcome = 'solvable' | 'unsolvable' | 'unresolved';

export type SolveResult =
  | { readonly result: 'solvable'; readonly nodes: number; readonly solution: Pair[] } // solution in play order
  | { readonly result: 'unsolvable'; readonly nodes: number }
  | { readonly result: 'unresolved'; readonly nodes: number }; // nodes: plays (a random playout is one)

export interface SolveOptions {
  readonly budget?: number; // node budget; default SOLVE_BUDGET
  readonly seed?: string; // seeds the playouts and tie-breaks; default 'solve'
  readonly playouts?: number; // random playouts before the search; default PLAYOUTS (the dealer skips them when it takes a mended deal's trades back)
  // Pairs of a known solution of an earlier position of the same game (the deal's own solution): the pairing
  // they give the tiles still on the board is tried first, as one greedy play (one node) before the playouts.
  readonly pairing?: readonly Pair[];
  // Of the playouts, how many before the optimistic play from the start; default PLAYOUTS_FIRST, or 0 when
  // STACKED_LIKELY_LOST pairings of stacked copies were forbidden. The dealer gives 0: on the hard layouts most
  // classic shuffles are unwinnable, which that play proves for one node.
  readonly playoutsFirst?: number;
  // Phase saving in the search (search.ts); default true. The dealer of generator 15 turns it off: its boards must
  // not change within a version.
  readonly savePhases?: boolean;
}

/**
 * Solves the position given by `present` (1 per tile on the board) and `faces` (the
 * face per slot; removed slots may hold anything). The position must be reachable by
 * legal play from a full board (every position in a game is). Deterministic: the same
 * position and options give the same answer, nodes and solution.
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
    // The playouts, with the optimistic play from the start after the first `first` of them.
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
