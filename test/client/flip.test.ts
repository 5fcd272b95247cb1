/**
 * The shuffle's flight (src/client/flip.ts): which tiles fly, from where, in tile widths; and the state's
 * flights after a shuffle, its undo and redo, and none after a match.
 */
import { describe, expect, test } from 'vitest';
import { deal, layoutById, type Deal, type Face, type Slot } from '../../src/engine/index.ts';
import { flightsOf, placeOf, type Flight } from '../../src/client/flip.ts';
import { makeState, playMove } from '../../src/client/state.ts';

const ROW: Slot[] = [0, 2, 4, 6].map((x) => ({ x, y: 0, z: 0 }));

interface Case {
  readonly name: string;
  readonly before: readonly (Face | null)[];
  readonly after: readonly (Face | null)[];
  readonly flights: readonly Flight[];
}

const CASES: Case[] = [
  {
    name: 'two faces trade places: each flies from the other',
    before: ['d1', 'd2', 'd3', 'd4'],
    after: ['d2', 'd1', 'd3', 'd4'],
    flights: [
      { slot: 0, dx: 1, dy: 0 },
      { slot: 1, dx: -1, dy: 0 },
    ],
  },
  {
    name: 'a face that stays on its slot stays put; a copy comes from the nearest old place',
    before: ['d1', 'd2', 'd1', 'd2'],
    after: ['d1', 'd1', 'd2', 'd2'],
    flights: [
      { slot: 1, dx: 1, dy: 0 },
      { slot: 2, dx: -1, dy: 0 },
    ],
  },
  {
    name: 'removed tiles stay removed',
    before: ['d1', null, 'd2', null],
    after: ['d2', null, 'd1', null],
    flights: [
      { slot: 0, dx: 2, dy: 0 },
      { slot: 2, dx: -2, dy: 0 },
    ],
  },
  { name: 'nothing moved', before: ['d1', 'd2', 'd1', 'd2'], after: ['d1', 'd2', 'd1', 'd2'], flights: [] },
  {
    name: 'a match (tiles went): no flight',
    before: ['d1', 'd2', 'd1', 'd2'],
    after: [null, 'd2', null, 'd2'],
    flights: [],
  },
  {
    name: 'an undone match (tiles came back): no flight',
    before: [null, 'd2', null, 'd2'],
    after: ['d1', 'd2', 'd1', 'd2'],
    flights: [],
  },
  {
    name: 'a face that was not on the board is shown in place',
    before: ['d1', 'd2', 'd3', 'd4'],
    after: ['d5', 'd2', 'd3', 'd4'],
    flights: [],
  },
];

describe('flightsOf', () => {
  test.each(CASES)('$name', ({ before, after, flights }) => {
    expect(flightsOf(ROW, before, after)).toEqual(flights);
  });

  test('layers: a face from the layer above comes from up-left by the layer shift, rows are 2/3 of a tile', () => {
    const tiles: Slot[] = [
      { x: 0, y: 0, z: 0 },
      { x: 1, y: 3, z: 1 },
    ];
    expect(placeOf(tiles[1]!)).toEqual([0.5 - 0.13, 2 - 0.13]);
    const [back, up] = flightsOf(tiles, ['d1', 'd2'], ['d2', 'd1']);
    expect(back!.slot).toBe(0);
    expect(back!.dx).toBeCloseTo(0.37);
    expect(back!.dy).toBeCloseTo(1.87);
    expect(up!.dx).toBeCloseTo(-0.37);
    expect(up!.dy).toBeCloseTo(-1.87);
  });

  test('a turtle shuffle: every tile whose face changed flies, from a slot that had that face', () => {
    const made = deal(layoutById('turtle')!, 'flip');
    if (!made.ok) throw new Error(made.message);
    const d: Deal = made.value.deal;
    const s = makeState({ deal: d, game: null }, 0);
    const before = s.game.faces;
    expect(playMove(s, { type: 'shuffle' }, 0)).toBeNull();
    const after = s.game.faces;
    const changed = after.flatMap((f, i) => (f !== before[i] ? [i] : []));
    expect(changed.length).toBeGreaterThan(100);
    expect(s.moving.map((f) => f.slot)).toEqual(changed);
    const sources = new Set<number>();
    for (const { slot, dx, dy } of s.moving) {
      const [x, y] = placeOf(d.tiles[slot]!);
      const from = d.tiles.findIndex((t) => {
        const [tx, ty] = placeOf(t);
        return Math.abs(tx - x - dx) < 1e-9 && Math.abs(ty - y - dy) < 1e-9;
      });
      expect(before[from]).toBe(after[slot]); // it flies from a place its face had
      sources.add(from);
    }
    expect(sources.size).toBe(s.moving.length); // no two tiles fly from one place
  });
});

describe('the state after a move', () => {
  test('shuffle, undo and redo fly the faces back and forth; a match and its undo do not', () => {
    const made = deal(layoutById('turtle')!, 'flip-undo');
    if (!made.ok) throw new Error(made.message);
    const d = made.value.deal;
    const s = makeState({ deal: d, game: null }, 0);
    const [a, b] = d.solution[0]!;
    playMove(s, { type: 'match', a, b }, 0);
    expect(s.moving).toEqual([]);
    playMove(s, { type: 'shuffle' }, 0);
    const there = s.moving;
    expect(there.length).toBeGreaterThan(50);
    expect(s.message).toMatch(/^Shuffled\./); // the existing message, unchanged
    playMove(s, { type: 'undo' }, 0);
    const back = s.moving;
    // undo flies the faces back: the same tiles fly
    expect(back.map((f) => f.slot).sort((x, y) => x - y)).toEqual(there.map((f) => f.slot).sort((x, y) => x - y));
    playMove(s, { type: 'redo' }, 0);
    expect(s.moving.length).toBe(there.length);
    playMove(s, { type: 'undo' }, 0);
    playMove(s, { type: 'undo' }, 0); // the match comes back: tiles came, no flight
    expect(s.moving).toEqual([]);
  });
});
