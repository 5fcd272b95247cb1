import { describe, expect, test } from 'vitest';
import { LAYOUTS, layoutById } from '../../src/engine/builtins.ts';
import {
  facePairs,
  findRemovalOrder,
  fullPresence,
  geometryOf,
  makeLayout,
  makeRng,
  shuffleInPlace,
  type Face,
  type Geometry,
  type Layout,
} from '../../src/engine/index.ts';
import { mendAlongOrder, mendByPlay } from '../../src/engine/mend.ts';
import { naiveReplay } from './helpers.ts';

const geometry = (layout: Layout): Geometry => {
  const result = geometryOf(layout);
  if (!result.ok) throw new Error(result.message);
  return result.value;
};

const sorted = (faces: readonly Face[]): Face[] => [...faces].sort();

describe('mending a shuffle by playing it', () => {
  test.each(LAYOUTS.map((l) => [l.id, l] as const))(
    '%s: 20 mended shuffles keep the faces and replay under the naive rules',
    (id, layout) => {
      const geom = geometry(layout);
      const rng = makeRng('mend', id);
      let mended = 0;
      for (let k = 0; k < 20; k++) {
        const shuffled = shuffleInPlace(rng, facePairs(geom.size).flat());
        const result = mendByPlay(geom, shuffled, rng);
        if (!result) continue; // the play stranded a lone stack: the dealer tries another shuffle
        mended++;
        expect(sorted(result.faces)).toEqual(sorted(shuffled));
        expect(naiveReplay(layout.slots, result.faces, result.solution)).toBeNull();
        // Each trade moves two faces, and only trades move faces.
        const moved = result.faces.filter((f, i) => f !== shuffled[i]).length;
        expect(moved).toBeLessThanOrEqual(2 * result.traded.length);
      }
      expect(mended).toBeGreaterThan(10);
    },
  );

  test('a shuffle that greedy play wins is kept as drawn', () => {
    // Six tiles apart from each other: all are free, so every pair is there to take.
    const layout = makeLayout(
      't',
      'Test',
      'six apart',
      Array.from({ length: 6 }, (_, i) => ({ x: 4 * i, y: 0, z: 0 })),
    );
    const faces: Face[] = ['d1', 'd2', 'd3', 'd1', 'd2', 'd3'];
    const result = mendByPlay(geometry(layout), faces, makeRng('kept'))!;
    expect(result.traded).toEqual([]);
    expect(result.faces).toEqual(faces);
  });

  test('faces trade where play is stuck: a buried copy comes to the surface', () => {
    // A stack of two on each side: the tops d1 and d2 cannot pair until one of them trades with a bottom.
    const layout = makeLayout('t', 'Test', 'two stacks', [
      { x: 0, y: 0, z: 0 },
      { x: 0, y: 0, z: 1 },
      { x: 4, y: 0, z: 0 },
      { x: 4, y: 0, z: 1 },
    ]);
    const faces: Face[] = ['d1', 'd2', 'd2', 'd1'];
    const result = mendByPlay(geometry(layout), faces, makeRng('stuck'))!;
    expect(result.traded).toHaveLength(1);
    expect(naiveReplay(layout.slots, result.faces, result.solution)).toBeNull();
  });

  test('a lone stack strands the play', () => {
    const layout = makeLayout('t', 'Test', 'a stack', [
      { x: 0, y: 0, z: 0 },
      { x: 0, y: 0, z: 1 },
    ]);
    expect(mendByPlay(geometry(layout), ['d1', 'd1'], makeRng('lone'))).toBeNull();
  });

  test('mending along a removal order always clears the board', () => {
    const turtle = layoutById('turtle')!;
    const geom = geometry(turtle);
    for (let k = 0; k < 20; k++) {
      const rng = makeRng('order', String(k));
      const found = findRemovalOrder(geom, fullPresence(geom.size), rng);
      if (!found.ok) throw new Error(found.message);
      const shuffled = shuffleInPlace(rng, facePairs(geom.size).flat());
      const result = mendAlongOrder(shuffled, found.value.order, rng);
      expect(sorted(result.faces)).toEqual(sorted(shuffled));
      expect(result.solution).toEqual(found.value.order);
      expect(naiveReplay(turtle.slots, result.faces, result.solution)).toBeNull();
    }
  });
});
