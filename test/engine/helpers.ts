/**
 * Test helpers: independent, deliberately simple versions of the rules, so the
 * engine's fast paths are checked against something obviously right.
 */
import type { Deal, Face, Pair, Rng, Slot } from '../../src/engine/index.ts';

/** The free rule (docs/contracts.md, "Free tiles") by scanning every tile: O(n) per question, O(n²) per position. */
export function naiveIsFree(slots: readonly Slot[], present: readonly boolean[], i: number): boolean {
  if (!present[i]) return false;
  const a = slots[i]!;
  let left = false;
  let right = false;
  for (let j = 0; j < slots.length; j++) {
    if (j === i || !present[j]) continue;
    const b = slots[j]!;
    if (b.z > a.z && Math.abs(b.x - a.x) < 2 && Math.abs(b.y - a.y) < 2) return false;
    if (b.z === a.z && Math.abs(b.y - a.y) < 2) {
      if (b.x === a.x - 2) left = true;
      if (b.x === a.x + 2) right = true;
    }
  }
  return !(left && right);
}

export const naiveMatch = (a: Face, b: Face): boolean =>
  a === b || (a[0] === 'f' && b[0] === 'f') || (a[0] === 's' && b[0] === 's');

/** Replays pairs on faces with the naive rules; returns the first problem, or null when the board clears. */
export function naiveReplay(
  slots: readonly Slot[],
  faces: readonly (Face | null)[],
  solution: readonly Pair[],
): string | null {
  const present = faces.map((f) => f !== null);
  for (const [k, [a, b]] of solution.entries()) {
    if (a === b) return `step ${k}: same tile`;
    if (!present[a] || !present[b]) return `step ${k}: tile already removed`;
    if (!naiveIsFree(slots, present, a) || !naiveIsFree(slots, present, b))
      return `step ${k}: (${a}, ${b}) is not a pair of free tiles`;
    if (!naiveMatch(faces[a]!, faces[b]!)) return `step ${k}: ${faces[a]} does not match ${faces[b]}`;
    present[a] = false;
    present[b] = false;
  }
  const left = present.filter(Boolean).length;
  return left === 0 ? null : `${left} tiles left`;
}

export const replayDeal = (deal: Deal): string | null =>
  naiveReplay(
    deal.tiles,
    deal.tiles.map((t) => t.face),
    deal.solution,
  );

/** Exhaustive search over move orders with memo, for small boards only. */
export function bruteForceSolvable(slots: readonly Slot[], faces: readonly Face[]): boolean {
  const memo = new Map<string, boolean>();
  const go = (present: boolean[]): boolean => {
    if (!present.includes(true)) return true;
    const key = present.map((p) => (p ? 1 : 0)).join('');
    const known = memo.get(key);
    if (known !== undefined) return known;
    const free = present.map((_, i) => naiveIsFree(slots, present, i));
    let result = false;
    for (let a = 0; a < slots.length && !result; a++)
      for (let b = a + 1; b < slots.length && !result; b++) {
        if (!free[a] || !free[b] || !naiveMatch(faces[a]!, faces[b]!)) continue;
        const next = present.slice();
        next[a] = false;
        next[b] = false;
        result = go(next);
      }
    memo.set(key, result);
    return result;
  };
  return go(slots.map(() => true));
}

/**
 * Up to `size` random slots (an even number) on a small grid: `width` columns, 3 rows and `layers` layers, in
 * half tiles, without two tiles sharing space on a layer; placements are drawn until `tries` run out.
 */
export function randomSlots(rng: Rng, size: number, width: number, layers: number, tries: number): Slot[] {
  const slots: Slot[] = [];
  for (let k = 0; slots.length < size && k < tries; k++) {
    const s = { x: rng.int(width), y: rng.int(3), z: rng.int(layers) };
    if (slots.some((t) => t.z === s.z && Math.abs(t.x - s.x) < 2 && Math.abs(t.y - s.y) < 2)) continue;
    slots.push(s);
  }
  if (slots.length % 2) slots.pop();
  return slots;
}

/**
 * An independent proof that a board cannot be cleared: a few whole face groups (every copy of each) whose tiles,
 * alone on the board, already cannot be cleared (by `bruteForceSolvable`). Sound because any clearing of the whole
 * board, restricted to those tiles, is a clearing of them alone: pairs never mix groups, and with the other tiles
 * gone a tile is only ever freer. Tries every set of up to `maxGroups` groups, smallest first; the indices of the
 * certificate's tiles, or null when there is none that small (which proves nothing).
 */
export function unclearableCore(slots: readonly Slot[], faces: readonly Face[], maxGroups: number): number[] | null {
  const groups: number[][] = [];
  for (let i = 0; i < slots.length; i++) {
    const g = groups.find((members) => naiveMatch(faces[members[0]!]!, faces[i]!));
    if (g) g.push(i);
    else groups.push([i]);
  }
  const test = (chosen: readonly number[]): number[] | null => {
    const tiles = chosen.flatMap((g) => groups[g]!).sort((a, b) => a - b);
    return bruteForceSolvable(
      tiles.map((i) => slots[i]!),
      tiles.map((i) => faces[i]!),
    )
      ? null
      : tiles;
  };
  const pick = (chosen: number[], from: number, size: number): number[] | null => {
    if (chosen.length === size) return test(chosen);
    for (let g = from; g < groups.length; g++) {
      chosen.push(g);
      const found = pick(chosen, g + 1, size);
      chosen.pop();
      if (found) return found;
    }
    return null;
  };
  for (let size = 1; size <= maxGroups; size++) {
    const found = pick([], 0, size);
    if (found) return found;
  }
  return null;
}

/**
 * Random legal play as the study first wrote it: every step rebuilds the free tiles of each match group
 * from scratch (groups numbered by first appearance in slot order) and draws one of all matching pairs
 * with `rng.int(pairs)`, a group's pairs row by row. The engine's playout (playout.ts) must draw the same.
 */
export function naiveRandomPlay(slots: readonly Slot[], faces: readonly Face[], rng: Rng): number {
  const ids = new Map<string, number>();
  const group = faces.map((f) => {
    const key = f[0] === 'f' || f[0] === 's' ? f[0] : f;
    if (!ids.has(key)) ids.set(key, ids.size);
    return ids.get(key)!;
  });
  const present = faces.map(() => true);
  for (let left = faces.length; left > 0; left -= 2) {
    const buckets: number[][] = Array.from({ length: ids.size }, () => []);
    for (let i = 0; i < faces.length; i++) if (naiveIsFree(slots, present, i)) buckets[group[i]!]!.push(i);
    let pairs = 0;
    for (const b of buckets) pairs += (b.length * (b.length - 1)) / 2;
    if (pairs === 0) return left;
    const r = rng.int(pairs);
    const all = buckets.flatMap((b) => b.flatMap((x, a) => b.slice(a + 1).map((y) => [x, y] as const)));
    const [x, y] = all[r]!;
    present[x] = present[y] = false;
  }
  return 0;
}
