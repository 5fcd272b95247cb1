/**
 * The plays alone (src/engine/solver/plays.ts): the optimistic play's two promises (every real
 * solution under the commitments passes it; with every group committed it is exact), greedy play's
 * moves.
 */
import { describe, expect, test } from 'vitest';
import { geometryOf, makeLayout, makeRng, solve, type Face, type Pair, type Slot } from '../../../src/engine/index.ts';
import { bruteForceSolvable, naiveIsFree, naiveReplay } from '../helpers.ts';
import { membersOf, partsOf, randomFours, row } from './parts.ts';

/** With every partner fixed, any order of pairs whose two tiles are free decides the board: plain rules. */
function clearsWithPartners(slots: readonly Slot[], partner: readonly number[]): boolean {
  const present = slots.map(() => true);
  for (let moved = true; moved;) {
    moved = false;
    for (let a = 0; a < slots.length; a++) {
      const b = partner[a]!;
      if (!present[a] || b < a || !naiveIsFree(slots, present, a) || !naiveIsFree(slots, present, b)) continue;
      present[a] = present[b] = false;
      moved = true;
    }
  }
  return !present.includes(true);
}

/** Commits group g of four as the pairing `which` (0: first–second, 1: first–third, 2: first–fourth). */
function commitGroup(parts: ReturnType<typeof partsOf>, level: number, g: number, which: number): void {
  const [a, ...rest] = membersOf(parts.start, g);
  parts.commitments.decide(level, a!, rest[which]!);
}

describe('the optimistic play', () => {
  test('strands a committed pair stacked on each other, and names what it left', () => {
    const slots = [{ x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 1 }, ...row(2, 4).map((s) => ({ ...s, x: s.x + 4 }))];
    const parts = partsOf(slots, ['d1', 'd1', 'b1', 'b1']);
    expect(parts.plays.optimistic(parts.commitments.partner, 0)).toBe(false);
    expect(Array.from(parts.plays.present)).toEqual([1, 1, 0, 0]);
    expect(parts.budget.nodes).toBe(1);
  });

  test('with every group committed it agrees with plain play of that pairing, as greedy play does', () => {
    for (let k = 0; k < 150; k++) {
      const { slots, faces } = randomFours(`exact-${k}`);
      const parts = partsOf(slots, faces);
      const rng = makeRng(`exact-${k}`, 'pairing');
      for (let g = 0; g < parts.start.groupCount; g++) commitGroup(parts, g, g, rng.int(3));
      const partner = Array.from(parts.commitments.partner);
      const expected = clearsWithPartners(slots, partner);
      expect(parts.plays.optimistic(parts.commitments.partner, 0), `board ${k}`).toBe(expected);
      expect(parts.plays.greedy(parts.commitments.partner, 0), `board ${k}`).toBe(expected);
      if (expected) expect(naiveReplay(slots, faces, parts.plays.solution())).toBeNull();
    }
  });

  test('every solution passes it under any part of its own pairing (it never rules out a winning board)', () => {
    let checked = 0;
    for (let k = 0; k < 150; k++) {
      const { slots, faces } = randomFours(`optimistic-${k}`);
      if (!bruteForceSolvable(slots, faces)) continue;
      const geom = geometryOf(makeLayout('s', 'S', 's', slots));
      if (!geom.ok) throw new Error(geom.message);
      const answer = solve(geom.value, new Uint8Array(slots.length).fill(1), faces, { budget: 100_000 });
      if (answer.result !== 'solvable') throw new Error(`board ${k}: ${answer.result}`);
      const mate = new Map<number, number>(
        answer.solution.flatMap(([a, b]): [number, number][] => [
          [a, b],
          [b, a],
        ]),
      );
      const parts = partsOf(slots, faces);
      const rng = makeRng(`optimistic-${k}`, 'subset');
      let level = 0;
      for (let g = 0; g < parts.start.groupCount; g++) {
        if (rng.int(2) === 0) continue;
        const [a, ...rest] = membersOf(parts.start, g);
        parts.commitments.decide(level++, a!, mate.get(a!)!);
        expect(rest).toContain(mate.get(a!));
      }
      expect(parts.plays.optimistic(parts.commitments.partner, 0), `board ${k}`).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(30);
  });

  test('is monotone: more commitments never let more tiles leave', () => {
    for (let k = 0; k < 100; k++) {
      const { slots, faces } = randomFours(`monotone-${k}`);
      const parts = partsOf(slots, faces);
      const rng = makeRng(`monotone-${k}`, 'pairing');
      let before = parts.plays.optimistic(parts.commitments.partner, 0);
      let stranded = Array.from(parts.plays.present);
      for (let g = 0; g < parts.start.groupCount; g++) {
        commitGroup(parts, g, g, rng.int(3));
        const now = parts.plays.optimistic(parts.commitments.partner, 0);
        const left = Array.from(parts.plays.present);
        if (!before) expect(now).toBe(false);
        for (let i = 0; i < left.length; i++) if (stranded[i]) expect(left[i], `board ${k}, tile ${i}`).toBe(1);
        before = now;
        stranded = left;
      }
    }
  });

  test('obeys forbidden pairings: a group of four with none of its pairings left strands', () => {
    // The row d1 d1 b1 b1 d1 d1 clears with any pairing of its d1; one pairing left is enough, none strands it.
    const slots = row(6);
    const faces: Face[] = ['d1', 'd1', 'b1', 'b1', 'd1', 'd1'];
    const open = partsOf(slots, faces);
    expect(open.plays.optimistic(open.commitments.partner, 0)).toBe(true);
    const parts = partsOf(slots, faces);
    parts.nogoods.forbid(0, 1);
    parts.nogoods.forbid(0, 4);
    expect(parts.plays.optimistic(parts.commitments.partner, 0)).toBe(true); // 0 with 5 is left
    parts.nogoods.forbid(0, 5);
    expect(parts.plays.optimistic(parts.commitments.partner, 0)).toBe(false);
  });
});

describe('the probe plays', () => {
  test('answer as the optimistic play under the pairing would (are all four copies gone?), one node each', () => {
    let alive = 0;
    let dead = 0;
    for (let k = 0; k < 150; k++) {
      const { slots, faces } = randomFours(`probe-${k}`);
      const probing = partsOf(slots, faces);
      const playing = partsOf(slots, faces);
      const rng = makeRng(`probe-${k}`, 'forbid');
      // Some pairings forbidden in other groups, so that the play runs under restrictions too.
      for (let g = 0; g < probing.start.groupCount; g++) {
        if (rng.int(3) > 0) continue;
        const [a, ...rest] = membersOf(probing.start, g);
        const x = rest[rng.int(3)]!;
        probing.nogoods.forbid(a!, x);
        playing.nogoods.forbid(a!, x);
      }
      for (let g = 0; g < probing.start.groupCount; g++) {
        const [a, ...rest] = membersOf(probing.start, g);
        probing.plays.startProbe();
        for (const x of rest) {
          probing.commitments.decide(0, a!, x);
          playing.commitments.decide(0, a!, x);
          const nodes = probing.budget.nodes;
          const answer = probing.plays.probePairing(probing.commitments.partner, a!, x);
          expect(probing.budget.nodes).toBe(nodes + 1);
          playing.plays.optimistic(playing.commitments.partner, 0);
          const gone = [a!, ...rest].every((t) => !playing.plays.present[t]);
          expect(answer, `board ${k}, group ${g}, pairing ${a}–${x}`).toBe(gone);
          if (answer) alive++;
          else dead++;
          probing.commitments.undecide(0);
          playing.commitments.undecide(0);
        }
      }
    }
    expect(alive).toBeGreaterThan(100);
    expect(dead).toBeGreaterThan(100);
  });
});

describe('greedy play', () => {
  test('takes a group whose uncommitted copies are all free, and stops where a choice is needed', () => {
    // Three d1 free and the fourth under one of them: greedy play must leave the choice of pairing to the search.
    const slots = [...row(2, 4), { x: 12, y: 0, z: 0 }, { x: 12, y: 0, z: 1 }];
    const faces: Face[] = ['d1', 'd1', 'd1', 'd1'];
    const parts = partsOf(slots, faces);
    expect(parts.plays.greedy(parts.commitments.partner, 0)).toBe(false);
    expect(parts.plays.freeUncommitted[0]).toBe(3); // the group of d1: three free copies, four left
    expect(parts.plays.uncommittedLeft[0]).toBe(4);
    expect(parts.budget.nodes).toBe(1);
  });

  test('resumes from a saved play state: the moves of both plays make the solution', () => {
    const slots = row(4, 4);
    const parts = partsOf(slots, ['d1', 'd1', 'b1', 'b1']);
    expect(parts.plays.greedy(parts.commitments.partner, 0)).toBe(true);
    const solution: Pair[] = parts.plays.solution();
    expect(solution).toHaveLength(2);
    expect(naiveReplay(slots, ['d1', 'd1', 'b1', 'b1'], solution)).toBeNull();
  });
});
