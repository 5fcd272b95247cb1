import { describe, expect, test } from 'vitest';
import { LAYOUTS, layoutById } from '../../src/engine/builtins.ts';
import { deal } from '../../src/engine/deal.ts';
import { geometryOf, sortSlots, validateSlots } from '../../src/engine/layout.ts';
import type { Slot } from '../../src/engine/types.ts';
import { naiveReplay } from './helpers.ts';

const EACH = LAYOUTS.map((l) => [l.id, l] as const); // test.each rows: [id, layout]
const SEEDS = Array.from({ length: 30 }, (_, i) => `seed-${i}`);

/** Tiles per layer, bottom first. */
const layerCounts = (slots: readonly Slot[]): number[] => {
  const counts: number[] = [];
  for (const s of slots) counts[s.z] = (counts[s.z] ?? 0) + 1;
  return Array.from(counts, (c) => c ?? 0);
};

describe('built-in layouts', () => {
  test('there are at least 12, the turtle first', () => {
    expect(LAYOUTS.length).toBeGreaterThanOrEqual(12);
    expect(LAYOUTS[0]!.id).toBe('turtle');
  });

  test('ids are unique, lowercase and url-safe', () => {
    const ids = LAYOUTS.map((l) => l.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  test('layoutById finds each layout and nothing else', () => {
    for (const layout of LAYOUTS) expect(layoutById(layout.id)).toBe(layout);
    expect(layoutById('no-such-layout')).toBeUndefined();
    expect(layoutById('')).toBeUndefined();
  });

  test.each(EACH)('%s: valid, sized, named, in canonical order', (_, layout) => {
    expect(validateSlots(layout.slots).ok).toBe(true);
    expect(layout.slots.length).toBeGreaterThanOrEqual(36);
    expect(layout.slots.length).toBeLessThanOrEqual(144);
    expect(layout.slots.length % 2).toBe(0);
    expect(layout.name.trim()).not.toBe('');
    expect(layout.description.trim()).not.toBe('');
    expect(layout.description).not.toMatch(/\n/);
    expect(layout.slots).toEqual(sortSlots(layout.slots));
  });

  test.each(EACH)('%s: fits in 36 × 20 half tiles from the origin', (_, layout) => {
    const geom = geometryOf(layout);
    if (!geom.ok) throw new Error(geom.message);
    const { minX, minY, width, height } = geom.value.extent;
    expect([minX, minY]).toEqual([0, 0]);
    expect(width).toBeLessThanOrEqual(36);
    expect(height).toBeLessThanOrEqual(20);
  });

  test('the turtle is the classic 144: layers of 87, 36, 16, 4 and 1', () => {
    const turtle = layoutById('turtle')!;
    expect(turtle.slots.length).toBe(144);
    expect(layerCounts(turtle.slots)).toEqual([87, 36, 16, 4, 1]);
    expect(turtle.slots.filter((s) => s.z === 4)).toEqual([{ x: 13, y: 7, z: 4 }]); // straddles the 2 × 2
  });

  // Deals of a layout depend on its slots, and shared links must keep their board:
  // a change here means every link to that layout changes too.
  test.each([
    ['turtle', [87, 36, 16, 4, 1]],
    ['garden', [36, 4]],
    ['heart', [42, 16]],
    ['fish', [47, 19]],
    ['win', [49, 25]],
    ['cross', [32, 24, 16, 8]],
    ['butterfly', [66, 20]],
    ['towers', [62, 6, 6, 6, 6]],
    ['honeycomb', [62, 26, 2]],
    ['ring', [56, 20, 16]],
    ['bridge', [48, 24, 26]],
    ['diamond', [50, 25, 18, 5, 2]],
    ['spiral', [68, 28, 6, 1, 1]],
    ['pyramid', [77, 30, 9]],
    ['fortress', [45, 40, 17, 16]],
    ['stairs', [24, 24, 24, 24, 24]],
  ] as const)('%s has layers %j', (id, layers) => {
    const layout = layoutById(id);
    expect(layout).toBeDefined();
    expect(layerCounts(layout!.slots)).toEqual(layers);
  });

  test('the table above lists every layout, in picker order', () => {
    expect(LAYOUTS.map((l) => l.id)).toEqual([
      'turtle', 'garden', 'heart', 'fish', 'win', 'cross', 'butterfly', 'towers',
      'honeycomb', 'ring', 'bridge', 'diamond', 'spiral', 'pyramid', 'fortress', 'stairs',
    ]); // prettier-ignore
  });
});

describe('every built-in layout can be cleared', () => {
  test('the plain replay rejects an illegal order: the turtle cleared bottom first', () => {
    const turtle = layoutById('turtle')!;
    const dealt = deal(turtle, 'check');
    if (!dealt.ok) throw new Error(dealt.message);
    const { tiles, solution } = dealt.value.deal;
    const faces = tiles.map((t) => t.face);
    expect(naiveReplay(turtle.slots, faces, [...solution].reverse())).toMatch(/not a pair of free tiles/);
    const skipped = naiveReplay(turtle.slots, faces, solution.slice(1));
    expect(skipped).toMatch(/not a pair of free tiles|tiles are left/);
  });

  test.each(EACH)('%s: 30 deals replay to an empty board', (_, layout) => {
    for (const seed of SEEDS) {
      const dealt = deal(layout, seed);
      if (!dealt.ok) throw new Error(`${layout.id} / ${seed}: ${dealt.message}`);
      const { tiles, solution } = dealt.value.deal;
      expect(tiles.map(({ x, y, z }) => ({ x, y, z }))).toEqual(layout.slots);
      expect(solution.length * 2).toBe(tiles.length);
      const problem = naiveReplay(
        layout.slots,
        tiles.map((t) => t.face),
        solution,
      );
      expect(problem, `${layout.id} / ${seed}`).toBeNull();
    }
  });

  // Classic deals shuffle faces uniformly and keep a shuffle only when the solver
  // proves it; a shape whose lower layers are all covered from the start (an early
  // pyramid and ring) made nearly every shuffle unsolvable, so classic dealing failed.
  test.each(EACH)(
    '%s: classic deals too, and their solutions replay',
    (_, layout) => {
      for (const seed of ['classic-0', 'classic-1']) {
        const dealt = deal(layout, seed, 'classic');
        if (!dealt.ok) throw new Error(`${layout.id} / ${seed}: ${dealt.message}`);
        const { tiles, solution } = dealt.value.deal;
        const problem = naiveReplay(
          layout.slots,
          tiles.map((t) => t.face),
          solution,
        );
        expect(problem, `${layout.id} / ${seed}`).toBeNull();
      }
    },
    120_000, // the solver may need a few seconds on the larger layouts
  );
});
