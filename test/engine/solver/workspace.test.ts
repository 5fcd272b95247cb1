/**
 * The workspace alone (src/engine/solver/workspace.ts): groups numbered in slot order of their first
 * copy with their copies listed in slot order, odd groups refused, and one set of arrays per geometry
 * that leaves nothing behind from one solve to the next.
 */
import { describe, expect, test } from 'vitest';
import { naiveFaces } from '../../../src/engine/naive.ts';
import { layoutById } from '../../../src/engine/builtins.ts';
import { fullPresence, geometryOf, solve, type Face } from '../../../src/engine/index.ts';
import { setUp, workspaceOf } from '../../../src/engine/solver/workspace.ts';
import { membersOf, partsOf, row } from './parts.ts';

describe('the workspace', () => {
  test('numbers the groups by their first copy and lists copies in slot order; flowers are one group', () => {
    const faces: (Face | null)[] = ['b1', 'f1', 'b1', null, 'f3', 'd1', 'd1', 'b1', 'b1', null];
    const { start } = partsOf(row(10, 4), faces);
    expect(start.count).toBe(8);
    expect(start.groupCount).toBe(3);
    expect(Array.from(start.groupOf.subarray(0, 10))).toEqual([0, 1, 0, -1, 1, 2, 2, 0, 0, -1]);
    expect([0, 1, 2].map((g) => membersOf(start, g))).toEqual([
      [0, 2, 7, 8],
      [1, 4],
      [5, 6],
    ]);
    expect(start.largest).toBe(4);
  });

  test('refuses a group with an odd number of copies, and a present slot without a face', () => {
    const { work } = partsOf(row(4, 4), ['d1', 'd1', 'b1', 'b1']);
    expect(setUp(work, fullPresence(4), ['d1', 'd1', 'd1', 'b1'])).toBeNull();
    expect(() => setUp(work, fullPresence(4), ['d1', 'd1', null, 'b1'])).toThrow(/slot 2/);
  });

  test('one workspace per geometry, reused: a solve after others gives the answer it gave first', () => {
    const turtle = layoutById('turtle')!;
    const geom = geometryOf(turtle);
    if (!geom.ok) throw new Error(geom.message);
    expect(workspaceOf(geom.value)).toBe(workspaceOf(geom.value));
    const solveShuffle = (seed: string) => solve(geom.value, fullPresence(144), naiveFaces(turtle, seed), { seed });
    const first = solveShuffle('study-3');
    for (const seed of ['study-113', 'study-6', 'study-27']) solveShuffle(seed);
    expect(solveShuffle('study-3')).toEqual(first);
  });
});
