/**
 * A game looked back on: which positions of its log were lost (no removal order clears them) and the move
 * that
 * lost the win (docs/engine.md, "Reviews").
 */
import { makeBoard } from './codec.ts';
import { applyMoves, newGame, type Game, type KnownBoards, type Move } from './game.ts';
import { presenceOfFaces } from './rules.ts';
import { solve, type SolveOutcome } from './solver/index.ts';
import { err, ok, type Deal, type Face, type Pair, type Result } from './types.ts';

export interface LostSpan {
  readonly from: number;
  readonly to: number;
}

export interface Review {
  readonly moves: number;
  readonly lost: readonly LostSpan[]; // in order, disjoint, not touching
  readonly firstLost: number | null; // the first move after which the board could not be cleared; null: never
  readonly settled: number;
  readonly complete: boolean;
  readonly nodes: number;
}

export interface ReviewOptions {
  readonly budget?: number;
  readonly totalBudget?: number;
  readonly questions?: number;
}

export const REVIEW_BUDGET = 50_000; // nodes per question
export const REVIEW_TOTAL_BUDGET = 400_000;
export const REVIEW_QUESTIONS = 2_000; // boards per review

/** `faces` at position `start`, then one pair removed per position. */
interface Run {
  readonly start: number;
  readonly faces: readonly (Face | null)[];
  readonly safe: boolean; // the first position is known clearable
  readonly pairs: Pair[];
}

/** Reviews a game's log on its deal (`known`: as Game.boards). An illegal move is an error. */
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
  let pairing: readonly Pair[] = deal.solution;

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

  const settle = (run: Run): boolean => {
    const length = run.pairs.length;
    const last = ask(facesAt(run, length));
    if (last === undefined) return false;
    if (last !== 'unsolvable') return true;
    let lo = 0;
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
      // A shuffle, an undo, a redo of a shuffle (or an old log's hint) starts a new run.
      if (!settle(run)) break;
      settled = run.start + run.pairs.length;
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
