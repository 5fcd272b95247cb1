/**
 * Nogoods alone (src/engine/solver/nogoods.ts): forbidden pairings and the bans they put on a group
 * of four, learnt nogoods found broken exactly when all their pairs are committed (whichever pair is
 * watched), and the bans the optimistic play obeys under some commitments.
 */
import { describe, expect, test } from 'vitest';
import { makeRng, type Face } from '../../../src/engine/index.ts';
import { FORBIDDEN, INTACT } from '../../../src/engine/solver/nogoods.ts';
import { partsOf, row } from './parts.ts';

// Two groups of four on a row: d1 at 0 2 4 6, b1 at 1 3 5 7 (groups 0 and 1, copies in slot order).
const FACES: Face[] = ['d1', 'b1', 'd1', 'b1', 'd1', 'b1', 'd1', 'b1'];
const board = () => partsOf(row(8, 4), FACES);

/** A partner array with the given pairs committed. */
const partnerOf = (pairs: readonly [number, number][]): Int32Array => {
  const partner = new Int32Array(8).fill(-1);
  for (const [a, b] of pairs) [partner[a], partner[b]] = [b, a];
  return partner;
};

describe('nogoods', () => {
  test('forbidding a pairing of a group of four bans that pairing on all four copies, and nothing else', () => {
    const { nogoods } = board();
    nogoods.forbid(2, 0); // d1 copies 0 and 2 are group members 0 and 1: bans {0–2, 4–6}
    expect(nogoods.isForbidden(0, 2)).toBe(true);
    expect(nogoods.isForbidden(0, 4)).toBe(false);
    expect(Array.from(nogoods.ban.subarray(0, 8))).toEqual([0b0010, 0, 0b0001, 0, 0b1000, 0, 0b0100, 0]);
    expect(Array.from(nogoods.restricted.subarray(0, 2))).toEqual([1, 0]);
  });

  test('a learnt pair, or both pairs of one group of four, is a forbidden pairing', () => {
    const { nogoods } = board();
    const none = partnerOf([]);
    nogoods.learn([1, 3], none);
    nogoods.learn([0, 4, 2, 6], none);
    expect([nogoods.isForbidden(1, 3), nogoods.isForbidden(0, 4), nogoods.size]).toEqual([true, true, 0]);
  });

  test('a nogood is broken exactly when its last pair is committed, in any order of commitment', () => {
    const rng = makeRng('watches');
    for (let k = 0; k < 40; k++) {
      const { nogoods } = board();
      const pairs: [number, number][] = [
        [0, 2],
        [1, 5],
      ];
      nogoods.learn(pairs.flat(), partnerOf([]));
      expect(nogoods.size).toBe(1);
      const order = rng.int(2) === 0 ? pairs : [pairs[1]!, pairs[0]!];
      const committed: [number, number][] = [];
      for (const [a, b] of order) {
        committed.push([a, b]);
        const found = nogoods.brokenBy(a, b, partnerOf(committed));
        expect(found).toBe(committed.length === 2 ? 0 : INTACT);
      }
      expect(nogoods.brokenBy(3, 7, partnerOf([[3, 7]]))).toBe(INTACT); // a pair in no nogood
    }
  });

  test('a forbidden pair committed is reported as such', () => {
    const { nogoods } = board();
    nogoods.forbid(0, 6);
    expect(nogoods.brokenBy(6, 0, partnerOf([[0, 6]]))).toBe(FORBIDDEN);
  });

  test('the optimistic play is banned from a pairing a nogood rules out under its commitments, only then', () => {
    const { nogoods, commitments } = board();
    // No solution pairs d1 0–2 together with b1 1–3: with 0–2 committed, b1 must not pair 1–3 (nor 5–7).
    nogoods.learn([0, 2, 4, 6, 1, 3, 5, 7], commitments.partner);
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
    nogoods.learn([0, 2, 4, 6, 1, 7, 3, 5], commitments.partner);
    expect(nogoods.restrictPlay(commitments.partner)).toBe(true);
    commitments.decide(0, 0, 2);
    expect(nogoods.restrictPlay(commitments.partner)).toBe(false);
  });
});
