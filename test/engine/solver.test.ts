import { describe, expect, test } from 'vitest';
import { layoutById } from '../../src/engine/builtins.ts';
import {
  facePairs,
  fullPresence,
  geometryOf,
  makeLayout,
  makeRng,
  shuffleInPlace,
  solve,
  type Face,
  type Slot,
} from '../../src/engine/index.ts';
import { bruteForceSolvable, naiveReplay, randomSlots } from './helpers.ts';

const geometryFor = (slots: Slot[]) => {
  const geom = geometryOf(makeLayout('t', 'T', 't', slots));
  if (!geom.ok) throw new Error(geom.message);
  return geom.value;
};

/** Random small boards: a few layers on a narrow grid, so that stacks and blocked rows are common. */
function randomBoard(rng: ReturnType<typeof makeRng>): { slots: Slot[]; faces: Face[] } {
  const slots = randomSlots(rng, 2 * (3 + rng.int(5)), 8, 3, 400); // 6 to 14 tiles
  // Few kinds, so that every face has two or four copies and pairing choices matter.
  const kinds: Face[] = ['d1', 'b2', 'c3', 'f1'];
  const faces: Face[] = [];
  for (let k = 0; faces.length < slots.length; k++) {
    const kind = kinds[rng.int(kinds.length)]!;
    faces.push(kind === 'f1' ? 'f1' : kind, kind === 'f1' ? 'f3' : kind);
  }
  return { slots, faces: shuffleInPlace(rng, faces) };
}

describe('the solver', () => {
  test('agrees with an exhaustive search on 400 random small boards, and its solutions replay', () => {
    const rng = makeRng('solver-vs-brute');
    const tally = { solvable: 0, unsolvable: 0 };
    for (let k = 0; k < 400; k++) {
      const { slots, faces } = randomBoard(rng);
      const expected = bruteForceSolvable(slots, faces);
      const result = solve(geometryFor(slots), fullPresence(slots.length), faces, { budget: 100_000 });
      expect(result.result, JSON.stringify({ slots, faces })).toBe(expected ? 'solvable' : 'unsolvable');
      if (result.result === 'solvable') expect(naiveReplay(slots, faces, result.solution)).toBeNull();
      tally[expected ? 'solvable' : 'unsolvable']++;
    }
    expect(tally.solvable).toBeGreaterThan(40);
    expect(tally.unsolvable).toBeGreaterThan(40);
  });

  test.each([
    ['two copies stacked on each other', [{ x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 1 }, { x: 4, y: 0, z: 0 }, { x: 8, y: 0, z: 0 }], ['d1', 'd1', 'b1', 'b1']],
    ['a cycle: each pair waits for the other', [{ x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 1 }, { x: 4, y: 0, z: 0 }, { x: 4, y: 0, z: 1 }], ['d1', 'b1', 'b1', 'd1']],
  ] as const)('%s is unsolvable', (_, slots, faces) => {
    const result = solve(geometryFor([...slots]), fullPresence(slots.length), [...faces]);
    expect(result.result).toBe('unsolvable');
  });

  test('an empty board is solved', () => {
    const slots = [{ x: 0, y: 0, z: 0 }, { x: 4, y: 0, z: 0 }];
    const result = solve(geometryFor(slots), new Uint8Array(2), [null, null]);
    expect(result).toMatchObject({ result: 'solvable', solution: [] });
  });

  test('the budget bounds the work and answers unresolved', () => {
    const turtle = layoutById('turtle')!;
    const geom = geometryOf(turtle);
    if (!geom.ok) throw new Error(geom.message);
    const faces = shuffleInPlace(makeRng('budget'), facePairs(144).flat());
    const result = solve(geom.value, fullPresence(144), faces, { budget: 10 });
    expect(['unresolved', 'unsolvable', 'solvable']).toContain(result.result);
    expect(result.nodes).toBeLessThanOrEqual(10);
  });

  test('uniform turtle shuffles: nearly all settled at 200,000 nodes, solutions replay', () => {
    const turtle = layoutById('turtle')!;
    const geom = geometryOf(turtle);
    if (!geom.ok) throw new Error(geom.message);
    const rng = makeRng('study');
    const tally = { solvable: 0, unsolvable: 0, unresolved: 0 };
    for (let k = 0; k < 12; k++) {
      const faces = shuffleInPlace(rng, facePairs(144).flat());
      const result = solve(geom.value, fullPresence(144), faces);
      tally[result.result]++;
      if (result.result === 'solvable') expect(naiveReplay(turtle.slots, faces, result.solution)).toBeNull();
    }
    expect(tally.unresolved).toBeLessThanOrEqual(1);
    expect(tally.solvable).toBeGreaterThanOrEqual(10);
  });
});
