import { describe, expect, test } from 'vitest';
import {
  LAYOUTS,
  MAX_COORD,
  MAX_LAYER,
  makeGeometry,
  makeRng,
  validateSlots,
  type Slot,
} from '../../src/engine/index.ts';
import { scanNeighbours } from '../../src/engine/layout.ts';

/** The first clash a scan of each tile's layer so far finds, as validateSlots reports it: the plain O(n²) rule. */
function naiveClash(slots: readonly Slot[]): string | null {
  for (let i = 0; i < slots.length; i++) {
    const s = slots[i]!;
    for (let j = 0; j < i; j++) {
      const t = slots[j]!;
      if (t.z !== s.z || Math.abs(t.x - s.x) >= 2 || Math.abs(t.y - s.y) >= 2) continue;
      if (t.x === s.x && t.y === s.y) return `two tiles at (${s.x}, ${s.y}, ${s.z})`;
      return `tiles (${t.x}, ${t.y}, ${t.z}) and (${s.x}, ${s.y}, ${s.z}) overlap on layer ${s.z}`;
    }
  }
  return null;
}

describe('validateSlots', () => {
  test.each([
    [
      'the same place twice',
      [
        { x: 4, y: 4, z: 0 },
        { x: 4, y: 4, z: 0 },
      ],
      'ERR_DUPLICATE',
      /two tiles at \(4, 4, 0\)/,
    ],
    [
      'half a tile apart',
      [
        { x: 4, y: 4, z: 0 },
        { x: 5, y: 3, z: 0 },
      ],
      'ERR_OVERLAP',
      /\(4, 4, 0\) and \(5, 3, 0\)/,
    ],
    [
      'at the grid corner',
      [
        { x: 0, y: 0, z: 2 },
        { x: 1, y: 1, z: 2 },
      ],
      'ERR_OVERLAP',
      /overlap on layer 2/,
    ],
    [
      'at the far corner',
      [
        { x: MAX_COORD, y: MAX_COORD, z: 0 },
        { x: MAX_COORD - 1, y: MAX_COORD, z: 0 },
      ],
      'ERR_OVERLAP',
      /overlap on layer 0/,
    ],
  ])('%s', (_name, slots, code, message) => {
    const result = validateSlots(slots);
    expect(!result.ok && result.error).toBe(code);
    expect(!result.ok && result.message).toMatch(message);
  });

  test('tiles a tile apart, or on other layers, share no room', () => {
    const slots = [
      { x: 4, y: 4, z: 0 },
      { x: 6, y: 5, z: 0 },
      { x: 3, y: 6, z: 0 },
      { x: 5, y: 5, z: 1 },
    ];
    expect(validateSlots(slots).ok).toBe(true);
  });

  // Each tile looks only at the places around it: the answer is the scan's, first clash and all.
  test('reports the first clash a scan in order finds, on random crowded layouts', () => {
    const rng = makeRng('validate-slots');
    for (let round = 0; round < 300; round++) {
      const size = 2 + rng.int(60);
      const slots = Array.from({ length: size }, () => ({ x: rng.int(16), y: rng.int(8), z: rng.int(2) }));
      const expected = naiveClash(slots);
      const result = validateSlots(slots);
      if (expected === null) expect(result.ok || result.error === 'ERR_ODD').toBe(true);
      else expect(!result.ok && result.message).toBe(expected);
    }
  });
});

describe('makeGeometry', () => {
  const lists = (slots: readonly Slot[]) => {
    const { above, below, left, right } = makeGeometry(slots);
    return { above, below, left, right };
  };

  test('every built-in layout: the grid finds the neighbours the scan of every pair finds, in slot order', () => {
    for (const layout of LAYOUTS) expect(lists(layout.slots), layout.id).toEqual(scanNeighbours(layout.slots));
  });

  // Random crowds (overlaps on a layer, two slots at one place), and boxes too big for the grid: the scan's answer.
  test('random, crowded, duplicated and sparse slots: the same lists as the scan', () => {
    const rng = makeRng('geometry-grid');
    for (let round = 0; round < 400; round++) {
      const size = 1 + rng.int(80);
      const spread = round % 4 === 0 ? MAX_COORD + 1 : 6 + rng.int(30);
      const layers = round % 5 === 0 ? MAX_LAYER + 1 : 1 + rng.int(6);
      const slots = Array.from({ length: size }, () => ({
        x: rng.int(spread),
        y: rng.int(spread),
        z: rng.int(layers),
      }));
      expect(lists(slots)).toEqual(scanNeighbours(slots));
    }
    expect(lists([])).toEqual(scanNeighbours([]));
  });

  test('the extent is the box of the slots', () => {
    const geom = makeGeometry([
      { x: 3, y: 5, z: 0 },
      { x: 9, y: 1, z: 2 },
    ]);
    expect(geom.extent).toEqual({ minX: 3, minY: 1, width: 8, height: 6, depth: 3 });
    expect(makeGeometry([]).extent).toEqual({ minX: 0, minY: 0, width: 0, height: 0, depth: 0 });
  });
});
