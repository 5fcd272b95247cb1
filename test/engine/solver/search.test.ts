/**
 * The search's pieces that stand alone (src/engine/solver/search.ts): its restart schedule, and the
 * forbidding of copies stacked on each other before any play. The search itself is checked end to end
 * against an exhaustive search (solve.test.ts) and by its pinned node counts (table.test.ts).
 */
import { describe, expect, test } from 'vitest';
import type { Face } from '../../../src/engine/index.ts';
import { luby } from '../../../src/engine/solver/search.ts';
import { partsOf } from './parts.ts';

describe('the search', () => {
  test('restarts on the Luby schedule', () => {
    expect(Array.from({ length: 15 }, (_, k) => luby(k + 1))).toEqual([1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
  });

  test('forbids the pairings of copies stacked on each other before any play, for one node', () => {
    // A tower of two d1 beside two more d1: the tower's copies never pair with each other.
    const slots = [
      { x: 0, y: 0, z: 0 },
      { x: 0, y: 0, z: 1 },
      { x: 4, y: 0, z: 0 },
      { x: 8, y: 0, z: 0 },
    ];
    const faces: Face[] = ['d1', 'd1', 'd1', 'd1'];
    const parts = partsOf(slots, faces);
    expect(parts.search.passesFromStart()).toBe(true);
    expect(parts.nogoods.isForbidden(0, 1)).toBe(true);
    expect(parts.nogoods.isForbidden(0, 2)).toBe(false);
    expect(parts.budget.nodes).toBe(1);
    expect(parts.search.run()).not.toBeNull();
  });
});
