/**
 * The review of a game's log (src/engine/review.ts): every position after which the board could not be
 * cleared, checked against asking the solver about every position one by one.
 */
import { describe, expect, test } from 'vitest';
import { layoutById } from '../../src/engine/builtins.ts';
import {
  applyMoves,
  availablePairs,
  deal,
  makeRng,
  newGame,
  presenceOf,
  reviewLog,
  solve,
  type Deal,
  type Game,
  type LostSpan,
  type Move,
} from '../../src/engine/index.ts';

const dealOf = (seed: string, layout = 'turtle', mode: 'relaxed' | 'classic' = 'relaxed'): Deal => {
  const made = deal(layoutById(layout)!, seed, mode);
  if (!made.ok) throw new Error(made.message);
  return made.value.deal;
};

const play = (d: Deal, log: readonly Move[]): Game => {
  const start = newGame(d);
  if (!start.ok) throw new Error(start.message);
  const game = applyMoves(start.value, log);
  if (!game.ok) throw new Error(game.message);
  return game.value;
};

/** A random player's log: random pairs, an undo now and then (a redo after some), a shuffle when stuck. */
function randomLog(d: Deal, seed: string, length: number, undoPerMille: number): Move[] {
  const rng = makeRng(seed, 'review-test');
  let game = play(d, []);
  const log: Move[] = [];
  while (log.length < length && game.left > 0) {
    const pairs = availablePairs(game);
    const roll = rng.int(1000);
    let move: Move;
    if (roll < undoPerMille && game.past.length > 0) move = { type: 'undo' };
    else if (roll < undoPerMille + 60 && game.future.length > 0) move = { type: 'redo' };
    else if (pairs.length === 0) move = { type: 'shuffle' };
    else {
      const [a, b] = pairs[rng.int(pairs.length)]!;
      move = { type: 'match', a, b };
    }
    const next = applyMoves(game, [move]);
    if (!next.ok) break; // a shuffle of tiles no order clears: the game ends here
    game = next.value;
    log.push(move);
  }
  return log;
}

/** The lost spans by asking the solver about every position of the log. */
function lostByBruteForce(d: Deal, log: readonly Move[]): LostSpan[] {
  const spans: LostSpan[] = [];
  for (let k = 0; k <= log.length; k++) {
    const game = play(d, log.slice(0, k));
    const answer = solve(game.geom, presenceOf(game), game.faces, { seed: d.seed });
    expect(answer.result).not.toBe('unresolved');
    if (answer.result !== 'unsolvable') continue;
    const last = spans[spans.length - 1];
    if (last && last.to === k - 1) spans[spans.length - 1] = { from: last.from, to: k };
    else spans.push({ from: k, to: k });
  }
  return spans;
}

describe('reviewLog', () => {
  test('a game played along its solution is never lost', () => {
    const d = dealOf('review-clean');
    const log: Move[] = d.solution.map(([a, b]) => ({ type: 'match', a, b }));
    const review = reviewLog(d, log);
    expect(review.ok && review.value).toMatchObject({
      moves: 72,
      lost: [],
      firstLost: null,
      settled: 72,
      complete: true,
    });
  });

  test('random games with undos, redos and shuffles: the same lost positions as asking about each one', () => {
    let sawLost = 0;
    let sawRecovery = 0;
    for (let i = 0; i < 12; i++) {
      const d = dealOf(`review-${i}`);
      const log = randomLog(d, `player-${i}`, 140, i % 3 === 0 ? 0 : 250);
      const review = reviewLog(d, log, play(d, log).boards);
      expect(review.ok).toBe(true);
      if (!review.ok) return;
      const expected = lostByBruteForce(d, log);
      expect(review.value.lost, `deal ${i}`).toEqual(expected);
      expect(review.value.firstLost).toBe(expected[0]?.from ?? null);
      expect(review.value.complete).toBe(true);
      if (expected.length > 0) sawLost++;
      if (expected.some((span) => span.to < log.length)) sawRecovery++; // lost, then clearable again (an undo)
    }
    expect(sawLost).toBeGreaterThan(3);
    expect(sawRecovery).toBeGreaterThan(1);
  });

  test('a classic deal and a game that ends stuck', () => {
    const d = dealOf('review-classic', 'turtle', 'classic');
    const log = randomLog(d, 'classic-player', 200, 0);
    const review = reviewLog(d, log);
    expect(review.ok && review.value.lost).toEqual(lostByBruteForce(d, log));
  });

  test('past its budget a review says how far it settled, and is not complete', () => {
    const d = dealOf('review-3');
    const log = randomLog(d, 'player-3', 140, 250);
    const full = reviewLog(d, log);
    const short = reviewLog(d, log, undefined, { questions: 3 });
    expect(full.ok && short.ok).toBe(true);
    if (!full.ok || !short.ok) return;
    expect(short.value.complete).toBe(false);
    expect(short.value.settled).toBeLessThan(log.length);
    // What it did settle agrees with the full review.
    const cut = (spans: readonly LostSpan[], upTo: number) =>
      spans.filter((s) => s.from <= upTo).map((s) => ({ from: s.from, to: Math.min(s.to, upTo) }));
    expect(cut(short.value.lost, short.value.settled)).toEqual(cut(full.value.lost, short.value.settled));
  });

  test('a log that does not replay is an error naming the move', () => {
    const d = dealOf('review-bad');
    const review = reviewLog(d, [{ type: 'undo' }]);
    expect(review.ok).toBe(false);
    if (!review.ok) expect(review.message).toMatch(/move 1/);
  });
});
