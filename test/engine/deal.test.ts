import { describe, expect, test } from 'vitest';
import { LAYOUTS, layoutById } from '../../src/engine/builtins.ts';
import {
  FACES,
  GENERATOR_VERSION,
  deal,
  facePairs,
  makeLayout,
  makeRng,
  matchGroup,
  type Face,
  type Layout,
  type Slot,
} from '../../src/engine/index.ts';
import { bruteForceSolvable, randomSlots, replayDeal } from './helpers.ts';

const turtle = layoutById('turtle')!;

/** FNV-1a over a string, for compact golden values. */
function fnv(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

const row = (y: number, x0: number, n: number, z = 0): Slot[] =>
  Array.from({ length: n }, (_, i) => ({ x: x0 + 2 * i, y, z }));
const tower = (x: number, y: number, height: number): Slot[] => Array.from({ length: height }, (_, z) => ({ x, y, z }));
const layoutOf = (slots: Slot[]): Layout => makeLayout('t', 'Test', 'test layout', slots);

describe('face sets', () => {
  test('144 tiles use the full set: 34 kinds four times, flowers and seasons once each', () => {
    const counts = new Map<Face, number>();
    for (const f of facePairs(144).flat()) counts.set(f, (counts.get(f) ?? 0) + 1);
    for (const f of FACES) expect(counts.get(f), f).toBe(f[0] === 'f' || f[0] === 's' ? 1 : 4);
  });

  test.each(Array.from({ length: 150 }, (_, k) => 2 * (k + 1)))('%i tiles: every match group pairs up', (n) => {
    const faces = facePairs(n).flat();
    expect(faces).toHaveLength(n);
    const groups = new Map<string, number>();
    for (const f of faces) groups.set(matchGroup(f), (groups.get(matchGroup(f)) ?? 0) + 1);
    for (const [g, c] of groups) expect(c % 2, g).toBe(0);
    // Bonus groups are whole when present: all four flowers, all four seasons.
    const flowers = faces.filter((f) => f[0] === 'f');
    if (flowers.length > 0) expect(new Set(flowers).size).toBe(4);
    expect(facePairs(n)).toEqual(facePairs(n));
  });

  test('a larger layout repeats the set', () => {
    const faces = facePairs(152).flat();
    expect(faces.filter((f) => f === 'f1')).toHaveLength(1); // the 8 extra tiles are too few for bonus groups
    expect(faces.filter((f) => f === 'd1')).toHaveLength(8);
  });
});

describe('seeded randomness', () => {
  test('the same parts give the same numbers; other parts differ', () => {
    const a = makeRng('seed', 'x');
    const b = makeRng('seed', 'x');
    const c = makeRng('seed', 'y');
    const seqA = Array.from({ length: 8 }, () => a.next());
    expect(Array.from({ length: 8 }, () => b.next())).toEqual(seqA);
    expect(Array.from({ length: 8 }, () => c.next())).not.toEqual(seqA);
  });

  test('golden sequence (identical in every JavaScript engine)', () => {
    const rng = makeRng('k3v9x2');
    expect(Array.from({ length: 4 }, () => rng.next())).toMatchSnapshot();
  });

  test('int(n) is in range and roughly uniform', () => {
    const rng = makeRng('uniform');
    const counts = new Array<number>(6).fill(0);
    for (let i = 0; i < 60_000; i++) counts[rng.int(6)]!++;
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(500);
  });
});

describe('relaxed and classic deals', () => {
  test('the same seed gives the same deal; another seed another deal', () => {
    const a = deal(turtle, 'k3v9x2');
    const b = deal(turtle, 'k3v9x2');
    const c = deal(turtle, 'k3v9x3');
    expect(a.ok && b.ok && c.ok).toBe(true);
    if (!a.ok || !b.ok || !c.ok) return;
    expect(b.value.deal).toEqual(a.value.deal);
    expect(c.value.deal.tiles).not.toEqual(a.value.deal.tiles);
  });

  // A change to the generator changes these hashes: bump GENERATOR_VERSION and update them together.
  test.each([
    ['relaxed', 'golden'],
    ['classic', 'golden'],
  ] as const)('golden %s deal of the turtle for generator %s', (mode, seed) => {
    const result = deal(turtle, seed, mode);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect({ generator: GENERATOR_VERSION, hash: fnv(JSON.stringify(result.value.deal)) }).toMatchSnapshot();
  });

  test('the deal JSON has the shape of docs/contracts.md', () => {
    const result = deal(turtle, 'shape', 'relaxed');
    if (!result.ok) throw new Error(result.message);
    const d = result.value.deal;
    expect(Object.keys(d)).toEqual(['layout', 'seed', 'mode', 'generator', 'difficulty', 'tiles', 'solution']);
    expect(d.difficulty).toEqual({
      band: expect.stringMatching(/^(easy|medium|hard|expert)$/),
      score: expect.any(Number),
    });
    expect(d.tiles[0]).toEqual({
      x: turtle.slots[0]!.x,
      y: turtle.slots[0]!.y,
      z: turtle.slots[0]!.z,
      face: expect.any(String),
    });
    expect(d.solution).toHaveLength(72);
  });

  test.each(LAYOUTS.map((l) => [l.id, l] as const))(
    '%s: 40 relaxed and 3 classic deals replay under the naive rules',
    (_, layout) => {
      for (let s = 0; s < 40; s++) {
        const result = deal(layout, `prop-${s}`, 'relaxed');
        if (!result.ok) throw new Error(result.message);
        expect(replayDeal(result.value.deal)).toBeNull();
      }
      for (let s = 0; s < 3; s++) {
        const result = deal(layout, `prop-${s}`, 'classic');
        if (!result.ok) throw new Error(result.message);
        expect(result.value.deal.mode).toBe('classic');
        expect(replayDeal(result.value.deal)).toBeNull();
      }
    },
  );

  test.each(['', 'a b', 'x'.repeat(33), '../etc', 'ok\u0000', 'héllo'])('rejects the seed %j', (seed) => {
    const result = deal(turtle, seed);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toBe('ERR_SEED');
  });
});

describe('the backwards generator never fails on a clearable layout', () => {
  test('one tall stack among single tiles: every step must take the top of the stack', () => {
    // A tower of 6 at the left, 6 lone tiles spread out: only taking the tower's top with a lone tile clears it.
    const slots = [...tower(0, 0, 6), ...[4, 8, 12, 16, 20, 24].map((x) => ({ x, y: 0, z: 0 }))];
    for (let s = 0; s < 50; s++) {
      const result = deal(layoutOf(slots), `stack-${s}`);
      if (!result.ok) throw new Error(result.message);
      expect(replayDeal(result.value.deal)).toBeNull();
    }
  });

  test('several towers that must be taken down together', () => {
    const slots = [...tower(0, 0, 4), ...tower(4, 0, 3), ...tower(8, 0, 3), ...tower(12, 4, 2)];
    const result = deal(layoutOf(slots), 'towers');
    if (!result.ok) throw new Error(result.message);
    expect(replayDeal(result.value.deal)).toBeNull();
  });

  test('a bridge: tiles over a gap with nothing under them', () => {
    const slots = [...row(0, 0, 2), ...row(0, 8, 2), ...row(0, 2, 4, 1), { x: 5, y: 0, z: 2 }, { x: 16, y: 0, z: 0 }];
    const result = deal(layoutOf(slots), 'bridge');
    if (!result.ok) throw new Error(result.message);
    expect(replayDeal(result.value.deal)).toBeNull();
  });

  test.each([
    ['a lone tower of two', tower(0, 0, 2), 'stacked'],
    ['a tower of three beside one tile', [...tower(0, 0, 3), { x: 6, y: 0, z: 0 }], 'stacked'],
    [
      'two towers of four beside two tiles',
      [...tower(0, 0, 5), ...tower(4, 0, 1), { x: 8, y: 0, z: 0 }, { x: 12, y: 0, z: 0 }],
      'stacked',
    ],
  ])('%s is a clear, quick error', (_, slots, reason) => {
    const result = deal(layoutOf(slots), 'x');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toBe('ERR_UNCLEARABLE');
      expect(result.message).toContain(reason);
    }
  });

  test('on 300 random small layouts, the generator deals exactly when an exhaustive search can clear it', () => {
    const rng = makeRng('random-layouts');
    let clearable = 0;
    for (let k = 0; k < 300; k++) {
      const slots = randomSlots(rng, 2 * (2 + rng.int(5)), 6, 4, 500); // 4 to 12 tiles
      const exhaustive = bruteForceSolvable(
        slots,
        slots.map(() => 'd1'),
      );
      const result = deal(layoutOf(slots), 'x');
      expect(result.ok, JSON.stringify(slots)).toBe(exhaustive);
      if (!result.ok) expect(result.error).toBe('ERR_UNCLEARABLE');
      else expect(replayDeal(result.value.deal)).toBeNull();
      if (exhaustive) clearable++;
    }
    expect(clearable).toBeGreaterThan(50); // the table holds both kinds
    expect(clearable).toBeLessThan(290);
  });

  test('odd and overlapping layouts are clear errors', () => {
    const odd = deal(layoutOf(row(0, 0, 3)), 'x');
    expect(!odd.ok && odd.error).toBe('ERR_ODD');
    const overlap = deal(
      layoutOf([
        { x: 0, y: 0, z: 0 },
        { x: 1, y: 1, z: 0 },
      ]),
      'x',
    );
    expect(!overlap.ok && overlap.error).toBe('ERR_OVERLAP');
  });
});
