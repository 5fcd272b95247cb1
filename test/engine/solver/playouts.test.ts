/**
 * Random playouts alone (src/engine/solver/playouts.ts): a node each; what they clear replays under the
 * plain rules, they never clear a board that cannot be cleared, and they keep to the bans of the nogoods
 * (the first pair of a group of four is never a pairing forbidden while all four copies are on the board).
 */
import { describe, expect, test } from 'vitest';
import { makeRng, type Face } from '../../../src/engine/index.ts';
import { flatOf } from '../../../src/engine/flat.ts';
import { blockersOf, neighboursOf } from '../../../src/engine/solver/playouts.ts';
import { bruteForceSolvable, naiveIsFree, naiveReplay } from '../helpers.ts';
import { membersOf, partsOf, randomFours, row } from './parts.ts';

describe('random playouts', () => {
  test('clear an open board with moves that replay; fail on a board with no matching free pair', () => {
    const open = row(8, 4);
    const faces: Face[] = ['d1', 'b1', 'c1', 'd1', 'b1', 'c1', 'd1', 'd1'];
    const parts = partsOf(open, faces);
    const moves = parts.playouts.playout(makeRng('playout'));
    expect(moves).not.toBeNull();
    expect(naiveReplay(open, faces, moves!)).toBeNull();
    expect(parts.budget.nodes).toBe(1); // one node a playout

    const stuck = [
      { x: 0, y: 0, z: 0 },
      { x: 0, y: 0, z: 1 },
      { x: 4, y: 0, z: 0 },
      { x: 4, y: 0, z: 1 },
    ];
    const cycle = partsOf(stuck, ['d1', 'b1', 'b1', 'd1']);
    expect(cycle.playouts.playout(makeRng('playout'))).toBeNull();
  });

  test('what they clear replays, and they clear nothing that cannot be cleared', () => {
    let cleared = 0;
    let unclearable = 0;
    for (let k = 0; k < 60; k++) {
      const { slots, faces } = randomFours(`playouts-${k}`);
      const parts = partsOf(slots, faces);
      const solvable = bruteForceSolvable(slots, faces);
      if (!solvable) unclearable++;
      const rng = makeRng(`playouts-${k}`);
      for (let p = 0; p < 20; p++) {
        const moves = parts.playouts.playout(rng);
        if (!moves) continue;
        expect(solvable, `board ${k}`).toBe(true);
        expect(naiveReplay(slots, faces, moves), `board ${k}`).toBeNull();
        cleared++;
      }
    }
    expect(cleared).toBeGreaterThan(50);
    expect(unclearable).toBeGreaterThan(5);
  });

  test('keep to a forbidden pairing while the group is whole (but for a safe move: all four copies free)', () => {
    let checked = 0;
    for (let k = 0; k < 40; k++) {
      const { slots, faces } = randomFours(`bans-${k}`);
      const parts = partsOf(slots, faces);
      const rng = makeRng(`bans-${k}`);
      const g = rng.int(parts.start.groupCount);
      const [a, b, c, d] = membersOf(parts.start, g);
      parts.nogoods.forbid(a!, b!); // the pairing a–b with c–d
      const banned = new Set([`${a}-${b}`, `${c}-${d}`]);
      for (let p = 0; p < 30; p++) {
        const moves = parts.playouts.playout(rng);
        if (!moves) continue;
        const present = faces.map(() => true);
        for (const [x, y] of moves) {
          if (parts.start.groupOf[x] === g) {
            const key = [x, y].sort((u, v) => u - v).join('-');
            if (banned.has(key))
              expect(
                [a, b, c, d].every((t) => naiveIsFree(slots, present, t!)),
                `board ${k}`,
              ).toBe(true);
            checked++;
            break;
          }
          present[x] = present[y] = false;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  test("a tile's blockers in one number: free exactly as the rules say, with any of its neighbours gone", () => {
    // Tile 0 with two tiles on its left, two on its right and four on top (each overlapping a quarter of it).
    const slots = [
      { x: 2, y: 2, z: 0 },
      { x: 0, y: 1, z: 0 },
      { x: 0, y: 3, z: 0 },
      { x: 4, y: 1, z: 0 },
      { x: 4, y: 3, z: 0 },
      { x: 1, y: 1, z: 1 },
      { x: 3, y: 1, z: 1 },
      { x: 1, y: 3, z: 1 },
      { x: 3, y: 3, z: 1 },
      { x: 10, y: 0, z: 0 }, // out of the way: a layout's tiles come in pairs
    ];
    const { geom } = partsOf(slots, ['b1', 'b1', 'b1', 'b1', 'c1', 'c1', 'c1', 'c1', 'd1', 'd1']);
    const nbr = neighboursOf(flatOf(geom), slots.length);
    for (let subset = 0; subset < 1 << 9; subset++) {
      const present = slots.map((_, i) => i === 9 || ((subset >> i) & 1) === 1);
      // The full board's number, less a step for each neighbour gone, plus GONE if tile 0 itself is.
      let v = blockersOf(nbr, 4, 2, 2) + (present[0] ? 0 : nbr.gone);
      for (let t = 1; t < 9; t++) {
        if (present[t]) continue;
        for (let e = nbr.at[t]!; e < nbr.at[t + 1]!; e++) if (nbr.link[e]! >> 8 === 0) v -= nbr.link[e]! & 255;
      }
      expect(nbr.free[v] === 1, `tiles present ${subset.toString(2)}`).toBe(naiveIsFree(slots, present, 0));
    }
  });
});
