/**
 * Nogoods alone (src/engine/solver/nogoods.ts): forbidden pairings and the bans they put on a group
 * of four, learnt nogoods found broken exactly when all their literals are committed (in any order of
 * the decisions, whichever literals are watched), and the bans the optimistic play obeys under some
 * commitments, listed and unlisted as decisions come and go.
 */
import { describe, expect, test } from 'vitest';
import { makeRng, type Face } from '../../../src/engine/index.ts';
import { FORBIDDEN, INTACT } from '../../../src/engine/solver/nogoods.ts';
import { partsOf, row } from './parts.ts';

// Two groups of four on a row: d1 at 0 2 4 6, b1 at 1 3 5 7 (groups 0 and 1, copies in slot order).
const FACES: Face[] = ['d1', 'b1', 'd1', 'b1', 'd1', 'b1', 'd1', 'b1'];
const board = () => partsOf(row(8, 4), FACES);

describe('nogoods', () => {
  test('forbidding a pairing of a group of four bans that pairing on all four copies, and nothing else', () => {
    const { nogoods } = board();
    nogoods.forbid(2, 0); // d1 copies 0 and 2 are group members 0 and 1: bans {0–2, 4–6}
    expect([nogoods.isForbidden(0, 2), nogoods.isForbidden(4, 6)]).toEqual([true, true]); // one pairing, both pairs
    expect(nogoods.isForbidden(0, 4)).toBe(false);
    expect(Array.from(nogoods.ban.subarray(0, 8))).toEqual([0b0010, 0, 0b0001, 0, 0b1000, 0, 0b0100, 0]);
    expect(Array.from(nogoods.restricted.subarray(0, 2))).toEqual([1, 0]);
  });

  test('a learnt literal, or both pairs of one pairing of a group of four, is a forbidden pairing', () => {
    const { nogoods } = board();
    nogoods.learn([1, 3]);
    nogoods.learn([0, 4, 2, 6]);
    expect([nogoods.isForbidden(1, 3), nogoods.isForbidden(0, 4), nogoods.isForbidden(2, 6), nogoods.size]).toEqual([
      true,
      true,
      true,
      0,
    ]);
  });

  test('a nogood is broken exactly when its last literal is committed, in any order of decisions', () => {
    const rng = makeRng('watches');
    // Three groups of four on a row: d1 at 0 3 6 9, b1 at 1 4 7 10, c1 at 2 5 8 11.
    const faces: Face[] = ['d1', 'b1', 'c1', 'd1', 'b1', 'c1', 'd1', 'b1', 'c1', 'd1', 'b1', 'c1'];
    for (let k = 0; k < 40; k++) {
      const { nogoods, commitments } = partsOf(row(12, 4), faces);
      // d1 0–3, b1 4–10 (its pairing with 1–7) and c1 2–8: learnt through any pair of each pairing.
      const decisions: [number, number][] = [
        [0, 3],
        [1, 7],
        [2, 8],
      ];
      nogoods.learn([6, 9, 4, 10, 2, 8]);
      expect(nogoods.size).toBe(1);
      const order = decisions.map((d) => [rng.next(), d] as const).sort((x, y) => x[0] - y[0]);
      order.forEach(([, [a, b]], level) => {
        commitments.decide(level, a, b);
        expect(commitments.broken).toBe(level === 2 ? 0 : INTACT);
      });
      // Undone and decided again the other way round: still found.
      for (let level = 2; level >= 0; level--) commitments.undecide(level);
      [...order].reverse().forEach(([, [a, b]], level) => {
        commitments.decide(level, a, b);
        expect(commitments.broken).toBe(level === 2 ? 0 : INTACT);
      });
    }
  });

  test('a forbidden pairing decided is reported as such, through either of its pairs', () => {
    const { nogoods, commitments } = board();
    nogoods.forbid(0, 6); // with 2–4
    commitments.decide(0, 2, 4);
    expect(commitments.broken).toBe(FORBIDDEN);
    commitments.undecide(0);
    commitments.decide(0, 0, 2);
    expect(commitments.broken).toBe(INTACT);
  });

  test('the optimistic play is banned from a pairing a nogood rules out under its commitments, only then', () => {
    const { nogoods, commitments } = board();
    // No solution pairs d1 0–2 together with b1 1–3: with 0–2 committed, b1 must not pair 1–3 (nor 5–7).
    nogoods.learn([0, 2, 4, 6, 1, 3, 5, 7]);
    expect(nogoods.restrictPlay(commitments.partner)).toBe(true);
    expect(Array.from(nogoods.playBan.subarray(0, 8))).toEqual(new Array(8).fill(0));
    commitments.decide(0, 0, 2); // commits d1 0–2 and 4–6: the nogood has one pair of b1 left uncommitted
    expect(nogoods.restrictPlay(commitments.partner)).toBe(true);
    expect(Array.from(nogoods.playBan.subarray(0, 8))).toEqual([0, 0b0010, 0, 0b0001, 0, 0b1000, 0, 0b0100]);
    expect(nogoods.playRestricted[1]).toBe(1);
    commitments.decide(1, 1, 3); // now the nogood is broken outright
    expect(nogoods.restrictPlay(commitments.partner)).toBe(false);
    commitments.undecide(1);
    commitments.undecide(0); // released: no ban left
    expect(nogoods.restrictPlay(commitments.partner)).toBe(true);
    expect(Array.from(nogoods.playBan.subarray(0, 8))).toEqual(new Array(8).fill(0));
  });

  test('a group whose every pairing is banned under the commitments fails the restriction at once', () => {
    const { nogoods, commitments } = board();
    nogoods.forbid(1, 3);
    nogoods.forbid(1, 5);
    nogoods.learn([0, 2, 4, 6, 1, 7, 3, 5]);
    expect(nogoods.restrictPlay(commitments.partner)).toBe(true);
    commitments.decide(0, 0, 2);
    expect(nogoods.restrictPlay(commitments.partner)).toBe(false);
  });
});
