/**
 * Commitments alone (src/engine/solver/commitments.ts): a decision on a group of four fixes its whole
 * pairing, one on a larger group one pair; releasing restores; groups of two are committed from the start.
 */
import { describe, expect, test } from 'vitest';
import type { Face } from '../../../src/engine/index.ts';
import { partsOf, row } from './parts.ts';

describe('commitments', () => {
  test('groups of two are committed from the start, for good', () => {
    const { commitments } = partsOf(row(4, 4), ['d1', 'b1', 'b1', 'd1']);
    expect(Array.from(commitments.base.subarray(0, 4))).toEqual([3, 2, 1, 0]);
    expect(Array.from(commitments.partner.subarray(0, 4))).toEqual([3, 2, 1, 0]);
    expect(commitments.depth).toBe(0);
  });

  test('a decision on a group of four commits both of its pairs at one level; undoing it releases both', () => {
    const { commitments } = partsOf(row(6, 4), ['d1', 'd1', 'b1', 'd1', 'b1', 'd1']);
    commitments.decide(0, 0, 3);
    expect(Array.from(commitments.partner.subarray(0, 6))).toEqual([3, 5, 4, 0, 2, 1]);
    expect(Array.from(commitments.levelOf.subarray(0, 6))).toEqual([0, 0, -1, 0, -1, 0]);
    expect([commitments.depth, commitments.decCount[0]]).toEqual([1, 2]);
    commitments.undecide(0);
    expect(Array.from(commitments.partner.subarray(0, 6))).toEqual([-1, -1, 4, -1, 2, -1]);
    expect(commitments.depth).toBe(0);
  });

  test('a decision on a group of six commits one pair; the next one the other two', () => {
    const faces: Face[] = ['d1', 'd1', 'd1', 'd1', 'd1', 'd1'];
    const { commitments, start } = partsOf(row(6, 4), faces);
    expect(commitments.uncommitted(0, commitments.copies, 0)).toBe(6);
    commitments.decide(0, 0, 5);
    expect(commitments.decCount[0]).toBe(1);
    expect(commitments.uncommitted(0, commitments.copies, 0)).toBe(4);
    commitments.decide(1, 1, 2);
    expect(Array.from(commitments.partner.subarray(0, 6))).toEqual([5, 2, 1, 4, 3, 0]);
    expect(Array.from(commitments.levelOf.subarray(0, 6))).toEqual([0, 1, 1, 1, 1, 0]);
    commitments.undecideAll();
    expect(commitments.uncommitted(0, commitments.copies, 0)).toBe(start.count);
  });

  test('the probe keeps a root decision for good: it joins the base', () => {
    const { commitments } = partsOf(row(4, 4), ['d1', 'd1', 'd1', 'd1']);
    commitments.decide(0, 0, 2);
    commitments.keepRootDecision();
    expect(commitments.depth).toBe(0);
    expect(Array.from(commitments.base.subarray(0, 4))).toEqual([2, 3, 0, 1]);
    expect(Array.from(commitments.levelOf.subarray(0, 4))).toEqual([-1, -1, -1, -1]);
  });
});
