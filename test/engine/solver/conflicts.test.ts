/**
 * Conflicts alone (src/engine/solver/conflicts.ts): the set of decisions `explain` blames for a failed
 * optimistic play is deletion-minimal (it fails, and it passes without any one of its decisions), holds
 * the last decision, and is learnt; a broken nogood names the levels of its pairs.
 */
import { describe, expect, test } from 'vitest';
import { makeRng } from '../../../src/engine/index.ts';
import { membersOf, partsOf, randomFours, row } from './parts.ts';

type Parts = ReturnType<typeof partsOf>;

/** Partners of the base plus the decisions at `levels`. */
function partnersOf(parts: Parts, levels: readonly number[]): Int32Array {
  const { base, decPairs, decCount } = parts.commitments;
  const partner = Int32Array.from(base);
  for (const l of levels)
    for (let k = 0; k < 2 * decCount[l]!; k += 2) {
      const [a, b] = [decPairs[4 * l + k]!, decPairs[4 * l + k + 1]!];
      [partner[a], partner[b]] = [b, a];
    }
  return partner;
}

describe('conflict sets', () => {
  test('explain blames a deletion-minimal set of decisions, with the last one in it, and learns it', () => {
    let explained = 0;
    for (let k = 0; k < 200 && explained < 40; k++) {
      const { slots, faces } = randomFours(`conflict-${k}`);
      const parts = partsOf(slots, faces);
      const { commitments, plays, conflicts, nogoods } = parts;
      const rng = makeRng(`conflict-${k}`, 'decisions');
      // Decide random pairings, group after group, until the optimistic play fails.
      let failed = false;
      for (let g = 0; g < parts.start.groupCount && !failed; g++) {
        const [a, ...rest] = membersOf(parts.start, g);
        commitments.decide(g, a!, rest[rng.int(3)]!);
        failed = !plays.optimistic(commitments.partner, 0);
      }
      if (!failed || commitments.depth < 2) continue;
      const learntBefore = nogoods.size;
      conflicts.explain(0); // plays from the start position (play state 0), writes conflict[0]
      const blamed = conflicts.levels(0);
      expect(blamed).toContain(commitments.depth - 1);
      // Judged without the nogood just learnt (which makes the plays stricter, as it should): on a fresh board.
      const judge = partsOf(slots, faces).plays;
      expect(judge.optimistic(partnersOf(parts, blamed), 0), `board ${k}`).toBe(false);
      for (const l of blamed)
        expect(
          judge.optimistic(
            partnersOf(
              parts,
              blamed.filter((m) => m !== l),
            ),
            0,
          ),
          `board ${k} without level ${l}`,
        ).toBe(true);
      // Learnt: a nogood kept, or, for one decision on a group of four, a forbidden pairing.
      const [a, b] = [commitments.decPairs[4 * blamed[0]!]!, commitments.decPairs[4 * blamed[0]! + 1]!];
      expect(nogoods.size > learntBefore || (blamed.length === 1 && nogoods.isForbidden(a, b))).toBe(true);
      explained++;
    }
    expect(explained).toBeGreaterThanOrEqual(20);
  });

  test('a decision that breaks a nogood is blamed with the decisions of the nogood’s other pairs', () => {
    // Three groups of four on a row: d1 at 0 3 6 9, b1 at 1 4 7 10, c1 at 2 5 8 11.
    const parts = partsOf(row(12, 4), ['d1', 'b1', 'c1', 'd1', 'b1', 'c1', 'd1', 'b1', 'c1', 'd1', 'b1', 'c1']);
    const { commitments, conflicts, nogoods } = parts;
    nogoods.learn([0, 3, 6, 9, 2, 5, 8, 11]); // d1 0–3 with c1 2–5
    commitments.decide(0, 0, 3);
    expect(conflicts.brokenNogood(0)).toBe(false);
    commitments.decide(1, 1, 4); // b1: not in the nogood
    expect(conflicts.brokenNogood(1)).toBe(false);
    commitments.decide(2, 2, 5);
    expect(conflicts.brokenNogood(2)).toBe(true);
    expect(conflicts.levels(3)).toEqual([0, 2]); // written as the conflict of the child the decision opens
    // The child's conflict holds the node's decision: merged into the node's union, no jump.
    conflicts.startUnion(2);
    expect(conflicts.merge(2)).toBe(true);
    conflicts.closeUnion(2);
    expect(conflicts.levels(2)).toEqual([0]);
  });
});
