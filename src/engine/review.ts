/**
 * A game looked back on: which positions of its move log were lost (position k: the board after k moves;
 * lost:
 * no removal order clears it) and the move that lost the win. Runs of matches are bisected, within budgets
 * (docs/engine.md, "Reviews").
 */
import { makeBoard } from './codec.ts';
import { applyMoves, newGame, type Game, type KnownBoards, type Move } from './game.ts';
import { presenceOfFaces } from './rules.ts';
import { solve, type SolveOutcome } from './solver/index.ts';
import { err, ok, type Deal, type Face, type Pair, type Result } from './types.ts';

/** Positions `from` … `to`, all lost. */
export interface LostSpan {
  readonly from: number;
  readonly to: number;
}

export interface Review {
  readonly moves: number; // the log's length: positions 0 … moves
  readonly lost: readonly LostSpan[]; // in order, disjoint, not touching
  readonly firstLost: number | null; // the first move after which the board could not be cleared; null: never (as far as settled)
  readonly settled: number; // positions 0 … settled are settled
  readonly complete: boolean; // every position settled and every answer proved
  readonly nodes: number;
}

export interface ReviewOptions {
  readonly budget?: number; // default REVIEW_BUDGET
  readonly totalBudget?: number; // default REVIEW_TOTAL_BUDGET
  readonly questions?: number; // default REVIEW_QUESTIONS
}

export const REVIEW_BUDGET = 50_000; // nodes per question: a turtle position takes a few hundred at most
export const REVIEW_TOTAL_BUDGET = 400_000; // nodes per review
export const REVIEW_QUESTIONS = 2_000; // boards per review (each costs its set-up besides its nodes)

/** A stretch of positions: `faces` at position `start`, then one pair removed per position. */
interface Run {
  readonly start: number;
  readonly faces: readonly (Face | null)[];
  readonly safe: boolean; // the first position is known clearable (the deal, or a shuffle's)
  readonly pairs: Pair[];
}

/**
 * Reviews a game's log on its deal (`known`: as Game.boards). An illegal move is an error (a stored log
 * replays).
 */
export function reviewLog(
  deal: Deal,
  log: readonly Move[],
  known?: KnownBoards,
  options: ReviewOptions = {},
): Result<Review, string> {
  const start = newGame(deal);
  if (!start.ok) return start;
  const perQuestion = options.budget ?? REVIEW_BUDGET;
  let nodesLeft = options.totalBudget ?? REVIEW_TOTAL_BUDGET;
  let questionsLeft = options.questions ?? REVIEW_QUESTIONS;
  let nodes = 0;
  let proved = true;
  let outOfBudget = false;
  const geom = start.value.geom;
  const memo = new Map<string, SolveOutcome>();
  let pairing: readonly Pair[] = deal.solution; // often still clears

  /** The solver's answer for a board (memoized); undefined once the review's budget is spent. */
  const ask = (faces: readonly (Face | null)[]): SolveOutcome | undefined => {
    const key = makeBoard(faces);
    const seen = memo.get(key);
    if (seen !== undefined) return seen;
    if (nodesLeft <= 0 || questionsLeft <= 0) {
      outOfBudget = true;
      return undefined;
    }
    questionsLeft--;
    const answer = solve(geom, presenceOfFaces(faces), faces, {
      budget: Math.min(perQuestion, nodesLeft),
      seed: deal.seed,
      pairing,
    });
    nodes += answer.nodes;
    nodesLeft -= answer.nodes;
    if (answer.result === 'solvable') pairing = answer.solution;
    if (answer.result === 'unresolved') {
      if (nodesLeft <= 0) {
        outOfBudget = true;
        return undefined;
      }
      proved = false;
    }
    memo.set(key, answer.result);
    return answer.result;
  };

  const lost: LostSpan[] = [];
  const markLost = (from: number, to: number): void => {
    const last = lost[lost.length - 1];
    if (last && last.to + 1 >= from) lost[lost.length - 1] = { from: last.from, to: Math.max(last.to, to) };
    else lost.push({ from, to });
  };

  const facesAt = (run: Run, i: number): (Face | null)[] => {
    const faces = run.faces.slice();
    for (let j = 0; j < i; j++) {
      const [a, b] = run.pairs[j]!;
      faces[a] = null;
      faces[b] = null;
    }
    return faces;
  };

  /** Settles a run's positions; false when the budget ran out. */
  const settle = (run: Run): boolean => {
    const length = run.pairs.length;
    const last = ask(facesAt(run, length));
    if (last === undefined) return false;
    if (last !== 'unsolvable') return true; // the last position clears, so does every one before it
    let lo = 0; // not lost (or the run's first, not known yet)
    if (!run.safe) {
      const first = length === 0 ? last : ask(run.faces);
      if (first === undefined) return false;
      if (first === 'unsolvable') {
        markLost(run.start, run.start + length);
        return true;
      }
    }
    let hi = length;
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      const answer = ask(facesAt(run, mid));
      if (answer === undefined) return false;
      if (answer === 'unsolvable') hi = mid;
      else lo = mid;
    }
    markLost(run.start + hi, run.start + length);
    return true;
  };

  let game: Game = start.value;
  let run: Run = { start: 0, faces: game.faces, safe: true, pairs: [] };
  let settled = -1;
  for (let k = 0; k < log.length;) {
    const move = log[k]!;
    if (move.type === 'match') {
      // A stretch of matches goes on the run, played in one call.
      let end = k;
      while (end < log.length && log[end]!.type === 'match') end++;
      const next = applyMoves(game, log.slice(k, end), known);
      if (!next.ok) return err('ERR_REPLAY', `move ${k + next.error.index + 1}: ${next.error.message}`);
      for (let i = k; i < end; i++) {
        const m = log[i] as Extract<Move, { type: 'match' }>;
        run.pairs.push([m.a, m.b]);
      }
      game = next.value;
      k = end;
      continue;
    }
    const next = applyMoves(game, [move], known);
    if (!next.ok) return err('ERR_REPLAY', `move ${k + 1}: ${next.error.message}`);
    const after = next.value;
    const step = after.past[after.past.length - 1];
    if (move.type === 'redo' && step?.type === 'match') run.pairs.push([step.a, step.b]);
    else {
      // Anything else (a shuffle, an undo, a redo of a shuffle; a hint in an older log) starts a new run.
      if (!settle(run)) break;
      settled = run.start + run.pairs.length;
      // A shuffle deals a board with a removal order: never lost.
      const shuffled = move.type === 'shuffle' || (move.type === 'redo' && step?.type === 'shuffle');
      run = { start: k + 1, faces: after.faces, safe: shuffled, pairs: [] };
    }
    game = after;
    k++;
  }
  if (!outOfBudget && settle(run)) settled = log.length;
  const firstLost = lost.length > 0 ? lost[0]!.from : null;
  return ok({
    moves: log.length,
    lost,
    firstLost,
    settled: Math.max(settled, 0),
    complete: settled === log.length && proved,
    nodes,
  });
}
