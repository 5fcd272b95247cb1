/**
 * Random legal play: any matching pair of free tiles, uniformly at random, until the board is empty or stuck
 * (the
 * study's measure of difficulty, docs/study.md; half of a deal's difficulty). Each group's free tiles are
 * kept
 * ascending as they become free, so a turtle game costs a few microseconds with the study's original draws.
 */
import { freedomOf } from './freedom.ts';
import type { Geometry } from './layout.ts';
import { matchGroup } from './rules.ts';
import type { Rng } from './rng.ts';
import type { Face } from './types.ts';

/** The match group of each slot, numbered by first appearance in slot order (-1: empty). */
export interface Groups {
  readonly of: Int32Array;
  readonly count: number;
  readonly copies: Int32Array; // per group: copies on the board
  readonly ids: ReadonlyMap<string, number>;
}

/** Numbers the match groups of `faces`; `ids` keeps an earlier board's numbers (a shuffle). */
export function groupsOf(faces: readonly (Face | null)[], ids: Map<string, number> = new Map()): Groups {
  const of = new Int32Array(faces.length).fill(-1);
  faces.forEach((face, i) => {
    if (face == null) return;
    const key = matchGroup(face);
    let g = ids.get(key);
    if (g === undefined) ids.set(key, (g = ids.size));
    of[i] = g;
  });
  const copies = new Int32Array(ids.size);
  for (const g of of) if (g >= 0) copies[g]!++;
  return { of, count: ids.size, copies, ids };
}

/**
 * The free tiles of each group, ascending: group g's are `tiles[start[g]] …`, `length[g]` of them. Kept per
 * geometry.
 */
export class FreeByGroup {
  readonly tiles: Int32Array;
  start = new Int32Array(0);
  length = new Int32Array(0);
  pairsOf = new Int32Array(0); // per group: length(length − 1)/2
  active = new Int32Array(0); // bit g % 32 of word g >> 5: group g has a pair
  pairs = 0;
  private groups: Groups | undefined;
  readonly add = (i: number): void => {
    const g = this.groups!.of[i]!;
    const s = this.start[g]!;
    let k = s + this.length[g]!;
    this.pairs += this.length[g]!;
    this.pairsOf[g]! += this.length[g]!;
    if (this.length[g]! === 1) this.active[g >> 5]! |= 1 << (g & 31);
    this.length[g]!++;
    // Insertion keeps the group ascending (a few free copies at most).
    while (k > s && this.tiles[k - 1]! > i) {
      this.tiles[k] = this.tiles[k - 1]!;
      k--;
    }
    this.tiles[k] = i;
  };

  constructor(size: number) {
    this.tiles = new Int32Array(size);
  }

  open(groups: Groups): void {
    this.groups = groups;
    if (this.start.length !== groups.count) {
      this.start = new Int32Array(groups.count);
      this.length = new Int32Array(groups.count);
      this.pairsOf = new Int32Array(groups.count);
      this.active = new Int32Array((groups.count + 31) >> 5);
    }
    let at = 0;
    for (let g = 0; g < groups.count; g++) {
      this.start[g] = at;
      at += groups.copies[g]!;
    }
    this.length.fill(0);
    this.pairsOf.fill(0);
    this.active.fill(0);
    this.pairs = 0;
  }

  take(g: number, i: number): void {
    const s = this.start[g]!;
    const end = s + this.length[g]! - 1;
    let k = s;
    while (this.tiles[k] !== i) k++;
    for (; k < end; k++) this.tiles[k] = this.tiles[k + 1]!;
    this.length[g]!--;
    this.pairs -= this.length[g]!;
    this.pairsOf[g]! -= this.length[g]!;
    if (this.length[g]! === 1) this.active[g >> 5]! &= ~(1 << (g & 31));
  }
}

const lists = new WeakMap<Geometry, FreeByGroup>();

export function freeByGroupOf(geom: Geometry): FreeByGroup {
  let kept = lists.get(geom);
  if (!kept) lists.set(geom, (kept = new FreeByGroup(geom.size)));
  return kept;
}

/** Plays one random game on the full board of `groups`: the tiles left, 0 when cleared. */
export function playRandom(geom: Geometry, groups: Groups, rng: Rng): number {
  const board = freedomOf(geom);
  const free = freeByGroupOf(geom);
  free.open(groups);
  board.reset(null, free.add);
  let left = geom.size;
  while (left > 0) {
    if (free.pairs === 0) return left;
    let r = rng.int(free.pairs);
    // The groups with a pair (their bits, lowest first), until the r-th pair.
    let g = -1;
    for (let w = 0; g < 0; w++) {
      for (let bits = free.active[w]!; bits !== 0; bits &= bits - 1) {
        const h = (w << 5) | (31 - Math.clz32(bits & -bits));
        if (r < free.pairsOf[h]!) {
          g = h;
          break;
        }
        r -= free.pairsOf[h]!;
      }
    }
    // The r-th pair (a < c) of this group, row by row.
    const k = free.length[g]!;
    let a = 0;
    while (r >= k - 1 - a) r -= k - 1 - a++;
    const s = free.start[g]!;
    const x = free.tiles[s + a]!;
    const y = free.tiles[s + a + 1 + r]!;
    free.take(g, y);
    free.take(g, x);
    board.remove(x, free.add);
    board.remove(y, free.add);
    left -= 2;
  }
  return 0;
}

export const isClearedByRandomPlay = (geom: Geometry, faces: readonly Face[], rng: Rng): boolean =>
  playRandom(geom, groupsOf(faces), rng) === 0;

/** Share of `count` random games of the deal that clear the board. */
export function randomClearRate(geom: Geometry, faces: readonly Face[], rng: Rng, count: number): number {
  const groups = groupsOf(faces);
  let cleared = 0;
  for (let k = 0; k < count; k++) if (playRandom(geom, groups, rng) === 0) cleared++;
  return cleared / count;
}
