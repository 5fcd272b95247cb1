/**
 * Many random games in one loop, for a deal's difficulty: `playRandom`'s games move for move, inlined over
 * typed
 * arrays (docs/engine.md, "Random play").
 */
import { flatOf } from './flat.ts';
import type { Geometry } from './layout.ts';
import type { Groups } from './playout.ts';
import { blockersOf, neighboursOf, type Neighbours } from './solver/playouts.ts';

/**
 * What a removal changes and each tile's blockers as one number (the solver's playouts' `Neighbours`), the full
 * board's blockers and free tiles, and one game's scratch.
 */
interface Tables {
  readonly size: number;
  readonly nbr: Neighbours;
  readonly fullBlockers: Int32Array;
  readonly fullFree: Int32Array;
  readonly blockers: Int32Array;
  readonly free: Uint8Array; // freed this game (stays 1 once the tile has left: its blockers say so)
  readonly tiles: Int32Array; // per group: its free tiles, ascending, from start[g]
  readonly freed: Int32Array; // tiles the last move freed, to join their groups' lists
  start: Int32Array;
  length: Int32Array;
  pairsOf: Int32Array;
  active: Int32Array; // bit g & 31 of word g >> 5: group g has two free tiles or more
}

function tablesFor(geom: Geometry): Tables {
  const n = geom.size;
  const nbr = neighboursOf(flatOf(geom), n);
  const fullBlockers = Int32Array.from(geom.above, (l, i) =>
    blockersOf(nbr, l.length, geom.left[i]!.length, geom.right[i]!.length),
  );
  const free: number[] = [];
  for (let i = 0; i < n; i++) if (nbr.free[fullBlockers[i]!] === 1) free.push(i);
  return {
    size: n,
    nbr,
    fullBlockers,
    fullFree: Int32Array.from(free),
    blockers: new Int32Array(n),
    free: new Uint8Array(n),
    tiles: new Int32Array(n),
    freed: new Int32Array(n),
    start: new Int32Array(0),
    length: new Int32Array(0),
    pairsOf: new Int32Array(0),
    active: new Int32Array(0),
  };
}

const kept = new WeakMap<Geometry, Tables>();

/**
 * Plays `games` random games on the full board, drawing from SFC32 state `rng` (advanced in place): how many
 * cleared.
 */
export function countRandomClears(geom: Geometry, groups: Groups, rng: Int32Array, games: number): number {
  let t = kept.get(geom);
  if (!t) kept.set(geom, (t = tablesFor(geom)));
  const count = groups.count;
  if (t.start.length !== count) {
    t.start = new Int32Array(count);
    t.length = new Int32Array(count);
    t.pairsOf = new Int32Array(count);
    t.active = new Int32Array((count + 31) >> 5);
  }
  for (let g = 0, at = 0; g < count; g++) {
    t.start[g] = at;
    at += groups.copies[g]!;
  }
  let cleared = 0;
  for (let game = 0; game < games; game++) if (playOne(t, groups.of, rng)) cleared++;
  return cleared;
}

/**
 * v % n for a 32-bit unsigned v and 1 ≤ n ≤ 2^32 in 32-bit integers while n < 2^15 (`%` on v ≥ 2^31 is a
 * floating remainder).
 */
export const remainder = (v: number, n: number): number =>
  n < 0x8000 ? ((((v >>> 16) % n) << 16) | (v & 0xffff)) % n : v % n;

/** One game (its own function, so the loop has run every line before it is optimised). */
function playOne(t: Tables, of: Int32Array, rng: Int32Array): boolean {
  const { size, blockers, free, tiles, freed } = t;
  const { at, link, free: isFree, gone } = t.nbr;
  const { start, length, pairsOf, active } = t;
  let a = rng[0]!;
  let b = rng[1]!;
  let c = rng[2]!;
  let d = rng[3]!;
  blockers.set(t.fullBlockers);
  free.fill(0);
  length.fill(0);
  pairsOf.fill(0);
  active.fill(0);
  let pairs = 0;
  let top = 0;
  for (let k = 0; k < t.fullFree.length; k++) {
    const i = t.fullFree[k]!;
    free[i] = 1;
    freed[top++] = i;
  }
  let remaining = size;
  for (;;) {
    while (top > 0) {
      const i = freed[--top]!;
      const g = of[i]!;
      const s = start[g]!;
      const len = length[g]!;
      let k = s + len;
      pairs += len;
      pairsOf[g]! += len;
      if (len === 1) active[g >> 5]! |= 1 << (g & 31);
      length[g] = len + 1;
      while (k > s && tiles[k - 1]! > i) {
        tiles[k] = tiles[k - 1]!;
        k--;
      }
      tiles[k] = i;
    }
    if (remaining === 0 || pairs === 0) break;
    // rng.int(pairs): SFC32, the biased top of the range rejected.
    let v: number;
    do {
      const u = (((a + b) | 0) + d) | 0;
      d = (d + 1) | 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) | 0;
      c = (c << 21) | (c >>> 11);
      c = (c + u) | 0;
      v = u >>> 0;
    } while (v > 0xffffffff - pairs && v >= 0x100000000 - (0x100000000 % pairs));
    let r = remainder(v, pairs);
    // The groups with a pair, in order, until the r-th pair; then that pair (x < y).
    let g = -1;
    for (let w = 0; g < 0; w++)
      for (let bits = active[w]!; bits !== 0; bits &= bits - 1) {
        const h = (w << 5) | (31 - Math.clz32(bits & -bits));
        if (r < pairsOf[h]!) {
          g = h;
          break;
        }
        r -= pairsOf[h]!;
      }
    const s = start[g]!;
    const len = length[g]!;
    let p = 0;
    while (r >= len - 1 - p) r -= len - 1 - p++;
    const x = tiles[s + p]!;
    const y = tiles[s + p + 1 + r]!;
    for (let from = s + p + 1, to = s + p; from < s + len; from++)
      if (from !== s + p + 1 + r) tiles[to++] = tiles[from]!;
    length[g] = len - 2;
    pairs -= 2 * len - 3;
    pairsOf[g]! -= 2 * len - 3;
    if (len - 2 < 2) active[g >> 5]! &= ~(1 << (g & 31));
    remaining -= 2;
    // Both leave the board: their neighbours' blockers fall, and the newly free are stacked (in any order: a
    // group's list is kept sorted).
    for (let pass = 0, q = x; pass < 2; pass++, q = y) {
      blockers[q]! += gone;
      for (let e = at[q]!, end = at[q + 1]!; e < end; e++) {
        const l = link[e]!;
        const j = l >> 8;
        if (isFree[(blockers[j]! -= l & 255)] === 1 && free[j] === 0) {
          free[j] = 1;
          freed[top++] = j;
        }
      }
    }
  }
  rng[0] = a;
  rng[1] = b;
  rng[2] = c;
  rng[3] = d;
  return remaining === 0;
}
