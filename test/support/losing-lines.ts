/**
 * Losing lines for the coach's tests (docs/coach.md): games of a deal after some pairs, and the first pair along
 * the deal's solution that loses the win for a named reason (not `none`), played on to a stuck board if asked.
 */
import {
  applyMoves,
  availablePairs,
  explainLoss,
  newGame,
  presenceOf,
  solve,
  type Deal,
  type Game,
  type Move,
  type Pair,
} from '../../src/engine/index.ts';

/** The game of `deal` after matching `pairs` in order. */
export function gameOf(deal: Deal, pairs: readonly Pair[]): Game {
  const start = newGame(deal);
  if (!start.ok) throw new Error(start.message);
  const moves: Move[] = pairs.map(([a, b]) => ({ type: 'match', a, b }));
  const game = applyMoves(start.value, moves);
  if (!game.ok) throw new Error(game.message);
  return game.value;
}

export interface LosingLine {
  readonly line: Pair[]; // the solution's first `at` pairs: the board is still winnable after them
  readonly at: number;
  readonly losing: Pair; // a free pair that loses the win there
  readonly reason: string;
  readonly tiles: readonly number[];
}

/**
 * Along the deal's solution (its first `upTo` positions; all by default), the first free pair that loses the win
 * for a named reason, and the line before it.
 */
export function losingLine(deal: Deal, upTo = deal.solution.length): LosingLine {
  for (let k = 0; k < Math.min(upTo, deal.solution.length); k++) {
    const line = deal.solution.slice(0, k) as Pair[];
    const game = gameOf(deal, line);
    for (const pair of availablePairs(game)) {
      const after = gameOf(deal, [...line, pair]);
      if (solve(after.geom, presenceOf(after), after.faces).result !== 'unsolvable') continue;
      const e = explainLoss(game.geom, game.faces, pair);
      if (e.reason !== 'none') return { line, at: k, losing: pair, reason: e.reason, tiles: e.tiles };
    }
  }
  throw new Error('no losing move with a reason along the solution');
}

/** `pairs`, then the first free pair of each position until none is left: a line to a stuck board. */
export function toStuck(deal: Deal, pairs: readonly Pair[]): Pair[] {
  const line = [...pairs];
  for (let next = availablePairs(gameOf(deal, line))[0]; next; next = availablePairs(gameOf(deal, line))[0])
    line.push(next);
  return line;
}
