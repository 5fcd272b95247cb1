/**
 * Random legal play: how hard is a deal for a player who takes any matching pair
 * of free tiles, uniformly at random, until the board is empty or no pair is left?
 * The share of such playouts that clear the board is our measure of difficulty
 * (docs/study.md): about 40% on relaxed turtle deals, about 6% on uniform solvable ones.
 *
 * Implementation notes: freedom is kept in an array and refreshed only for the
 * tiles a removed pair covered or flanked; each step buckets the free tiles by
 * match group and draws one of the Σ k(k−1)/2 matching pairs uniformly.
 */
import { isFree, matchGroup, type Face, type Geometry, type Rng } from '../engine/index.ts';

/** Plays one random game on a full board; true when it clears the board. */
export function isClearedByRandomPlay(geom: Geometry, faces: readonly Face[], rng: Rng): boolean {
  const n = geom.size;
  const groupIds = new Map<string, number>();
  const group = faces.map((f) => {
    const key = matchGroup(f);
    let g = groupIds.get(key);
    if (g === undefined) groupIds.set(key, (g = groupIds.size));
    return g;
  });
  const present = new Uint8Array(n).fill(1);
  const free = new Uint8Array(n);
  for (let i = 0; i < n; i++) free[i] = isFree(geom, present, i) ? 1 : 0;
  const buckets: number[][] = Array.from({ length: groupIds.size }, () => []);
  const refresh = (i: number): void => {
    for (const list of [geom.below[i]!, geom.left[i]!, geom.right[i]!])
      for (const j of list) free[j] = isFree(geom, present, j) ? 1 : 0;
  };
  for (let left = n; left > 0; left -= 2) {
    for (const b of buckets) b.length = 0;
    for (let i = 0; i < n; i++) if (free[i]) buckets[group[i]!]!.push(i);
    let pairs = 0;
    for (const b of buckets) pairs += (b.length * (b.length - 1)) / 2;
    if (pairs === 0) return false;
    let r = rng.int(pairs);
    for (const b of buckets) {
      const k = (b.length * (b.length - 1)) / 2;
      if (r >= k) {
        r -= k;
        continue;
      }
      // The r-th pair (a < c) of this bucket, row by row.
      let a = 0;
      while (r >= b.length - 1 - a) r -= b.length - 1 - a++;
      const x = b[a]!;
      const y = b[a + 1 + r]!;
      present[x] = present[y] = 0;
      free[x] = free[y] = 0;
      refresh(x);
      refresh(y);
      break;
    }
  }
  return true;
}

/** Share of `count` random playouts of the deal that clear the board. */
export function randomClearRate(geom: Geometry, faces: readonly Face[], rng: Rng, count: number): number {
  let cleared = 0;
  for (let k = 0; k < count; k++) if (isClearedByRandomPlay(geom, faces, rng)) cleared++;
  return cleared / count;
}
