import { describe, expect, test } from 'vitest';
import { naiveFaces } from '../../../src/engine/naive.ts';
import { layoutById } from '../../../src/engine/builtins.ts';
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
} from '../../../src/engine/index.ts';
import { bruteForceSolvable, naiveIsFree, naiveMatch, naiveReplay, randomSlots, unclearableCore } from '../helpers.ts';

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

  test('agrees with an exhaustive search on positions part-way through 300 random small games', () => {
    const rng = makeRng('solver-positions');
    const tally = { solvable: 0, unsolvable: 0 };
    for (let k = 0; k < 300; k++) {
      const { slots, faces } = randomBoard(rng);
      // A few random legal pairs first: the solver then starts from a position with tiles gone.
      const present = slots.map(() => true);
      for (let step = rng.int(4); step > 0; step--) {
        const free = slots.map((_, i) => i).filter((i) => naiveIsFree(slots, present, i));
        const pairs = free.flatMap((a) =>
          free.filter((b) => b > a && naiveMatch(faces[a]!, faces[b]!)).map((b) => [a, b] as const),
        );
        if (pairs.length === 0) break;
        const [a, b] = pairs[rng.int(pairs.length)]!;
        present[a] = present[b] = false;
      }
      const left = slots.map((_, i) => i).filter((i) => present[i]);
      const expected = bruteForceSolvable(
        left.map((i) => slots[i]!),
        left.map((i) => faces[i]!),
      );
      const now = faces.map((f, i) => (present[i] ? f : null));
      const result = solve(geometryFor(slots), Uint8Array.from(present, Number), now, { budget: 100_000 });
      expect(result.result, JSON.stringify({ slots, now })).toBe(expected ? 'solvable' : 'unsolvable');
      if (result.result === 'solvable') expect(naiveReplay(slots, now, result.solution)).toBeNull();
      tally[expected ? 'solvable' : 'unsolvable']++;
    }
    expect(tally.solvable).toBeGreaterThan(30);
    expect(tally.unsolvable).toBeGreaterThan(30);
  });

  test('agrees with an exhaustive search on 300 boards of 16 to 20 tiles with groups of four', () => {
    const rng = makeRng('solver-fours');
    const tally = { solvable: 0, unsolvable: 0 };
    for (let k = 0; k < 300; k++) {
      const slots = randomSlots(rng, 16 + 2 * rng.int(3), 10, 4, 800);
      if (slots.length % 4 !== 0) slots.splice(-2);
      const kinds: Face[] = ['d1', 'b2', 'c3', 'wn', 'dr'];
      const faces = shuffleInPlace(
        rng,
        Array.from({ length: slots.length }, (_, i) => kinds[Math.floor(i / 4)]!),
      );
      const expected = bruteForceSolvable(slots, faces);
      const result = solve(geometryFor(slots), fullPresence(slots.length), faces, { budget: 100_000 });
      expect(result.result, JSON.stringify({ slots, faces })).toBe(expected ? 'solvable' : 'unsolvable');
      if (result.result === 'solvable') expect(naiveReplay(slots, faces, result.solution)).toBeNull();
      tally[expected ? 'solvable' : 'unsolvable']++;
    }
    expect(tally.solvable).toBeGreaterThan(30);
    expect(tally.unsolvable).toBeGreaterThan(30);
  });

  // Proven unsolvable by the previous solver too (a different method: move-order search over pairings with a
  // transitive "must leave after" relation), and by this one in a few hundred nodes.
  test.each(['study-139', 'study-981', 'study-169'])('the uniform turtle shuffle %s is unsolvable', (seed) => {
    const turtle = layoutById('turtle')!;
    const geom = geometryOf(turtle);
    if (!geom.ok) throw new Error(geom.message);
    const result = solve(geom.value, fullPresence(144), naiveFaces(turtle, seed), { seed });
    expect(result.result).toBe('unsolvable');
    expect(result.nodes).toBeLessThan(5_000);
  });

  // A second, independent method: a face group whose four copies alone cannot be cleared (exhaustive search over
  // their move orders, naive rules) proves the whole deal unsolvable. study-610's core is the four flowers.
  test.each(['study-27', 'study-88', 'study-181', 'study-610', 'study-876'])(
    'the uniform turtle shuffle %s is unsolvable, and an independent certificate agrees',
    (seed) => {
      const turtle = layoutById('turtle')!;
      const geom = geometryOf(turtle);
      if (!geom.ok) throw new Error(geom.message);
      const faces = naiveFaces(turtle, seed);
      const core = unclearableCore(turtle.slots, faces, 1);
      expect(core).toHaveLength(4);
      expect(
        bruteForceSolvable(
          core!.map((i) => turtle.slots[i]!),
          core!.map((i) => faces[i]!),
        ),
      ).toBe(false);
      expect(solve(geom.value, fullPresence(144), faces, { seed }).result).toBe('unsolvable');
    },
  );

  test('the certificate never fires on a board that can be cleared, and agrees with the whole search when it fires', () => {
    const rng = makeRng('solver-cores');
    const tally = { cleared: 0, certified: 0 };
    for (let k = 0; k < 150; k++) {
      const { slots, faces } = randomBoard(rng);
      const whole = bruteForceSolvable(slots, faces);
      const core = unclearableCore(slots, faces, 2);
      if (whole) expect(core, JSON.stringify({ slots, faces })).toBeNull();
      else if (core) tally.certified++;
      if (whole) tally.cleared++;
    }
    expect(tally.cleared).toBeGreaterThan(20);
    expect(tally.certified).toBeGreaterThan(10);
  });

  test.each([
    [
      'two copies stacked on each other',
      [
        { x: 0, y: 0, z: 0 },
        { x: 0, y: 0, z: 1 },
        { x: 4, y: 0, z: 0 },
        { x: 8, y: 0, z: 0 },
      ],
      ['d1', 'd1', 'b1', 'b1'],
    ],
    [
      'a cycle: each pair waits for the other',
      [
        { x: 0, y: 0, z: 0 },
        { x: 0, y: 0, z: 1 },
        { x: 4, y: 0, z: 0 },
        { x: 4, y: 0, z: 1 },
      ],
      ['d1', 'b1', 'b1', 'd1'],
    ],
  ] as const)('%s is unsolvable', (_, slots, faces) => {
    const result = solve(geometryFor([...slots]), fullPresence(slots.length), [...faces]);
    expect(result.result).toBe('unsolvable');
  });

  test('an empty board is solved', () => {
    const slots = [
      { x: 0, y: 0, z: 0 },
      { x: 4, y: 0, z: 0 },
    ];
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

  test('uniform turtle shuffles (study-1 … study-16): all settled at 200,000 nodes, solutions replay', () => {
    const turtle = layoutById('turtle')!;
    const geom = geometryOf(turtle);
    if (!geom.ok) throw new Error(geom.message);
    const tally = { solvable: 0, unsolvable: 0, unresolved: 0 };
    for (let k = 1; k <= 16; k++) {
      const faces = naiveFaces(turtle, `study-${k}`); // as `solve --layout turtle --random --seed study-k`
      const result = solve(geom.value, fullPresence(144), faces, { seed: `study-${k}` });
      tally[result.result]++;
      if (result.result === 'solvable') expect(naiveReplay(turtle.slots, faces, result.solution)).toBeNull();
    }
    expect(tally).toEqual({ solvable: 16, unsolvable: 0, unresolved: 0 }); // study-1 … study-16 are all solvable
  });

  // A release skipped that the play would have passed would learn a nogood that is not one: a lost answer.
  test('explanations that skip the releases letting no copy leave give the same answers as playing them', () => {
    const turtle = layoutById('turtle')!;
    const geom = geometryOf(turtle);
    if (!geom.ok) throw new Error(geom.message);
    // Unsolvable shuffles whose proofs learn hundreds of nogoods, and solvable ones the search settles.
    for (const seed of ['study-113', 'study-160', 'study-797', 'study-867', 'study-877', 'study-10', 'study-158']) {
      const faces = naiveFaces(turtle, seed);
      const played = solve(geom.value, fullPresence(144), faces, { seed, skipIdleReleases: false });
      const skipped = solve(geom.value, fullPresence(144), faces, { seed });
      expect([seed, skipped.result]).toEqual([seed, played.result]);
      expect(played.result).not.toBe('unresolved');
      if (skipped.result === 'solvable') expect(naiveReplay(turtle.slots, faces, skipped.solution)).toBeNull();
    }
  });
});

describe('a known solution of an earlier board', () => {
  const turtle = layoutById('turtle')!;
  const geom = geometryOf(turtle);
  if (!geom.ok) throw new Error(geom.message);

  test('its pairing clears a board reached along it in one greedy play; a wrong one costs a play, not the answer', () => {
    const faces = naiveFaces(turtle, 'study-3');
    const first = solve(geom.value, fullPresence(144), faces, { seed: 'study-3' });
    if (first.result !== 'solvable') throw new Error(first.result);
    // Ten moves along the solution, then solved again with it as the hint: one greedy play.
    const now: (Face | null)[] = faces.slice();
    for (const [a, b] of first.solution.slice(0, 10)) now[a] = now[b] = null;
    const present = Uint8Array.from(now, (f) => (f === null ? 0 : 1));
    const hinted = solve(geom.value, present, now, { seed: 'x', pairing: first.solution });
    expect(hinted).toMatchObject({ result: 'solvable', nodes: 1 });
    if (hinted.result === 'solvable') expect(naiveReplay(turtle.slots, now, hinted.solution)).toBeNull();
    // Pairs that do not fit the board (other groups, tiles gone) are left out; the answer stays the solver's.
    const wrong = solve(geom.value, present, now, {
      seed: 'x',
      pairing: [
        [0, 1],
        [2, 3],
        [500, 501],
      ],
    });
    const plain = solve(geom.value, present, now, { seed: 'x' });
    expect(wrong.result).toBe(plain.result);
    expect(wrong.nodes).toBe(plain.nodes + 1);
  });
});
