/** A geometry's neighbour lists flattened into typed arrays, once per geometry, for the inner loops. */
import type { Geometry } from './layout.ts';

/** Tile i's list of each kind is list[at[i] .. at[i + 1]). */
export interface Flat {
  readonly aboveAt: Int32Array;
  readonly above: Int32Array;
  readonly belowAt: Int32Array;
  readonly below: Int32Array;
  readonly leftAt: Int32Array;
  readonly left: Int32Array;
  readonly rightAt: Int32Array;
  readonly right: Int32Array;
}

const FLAT = new WeakMap<Geometry, Flat>();

function flatten(lists: readonly (readonly number[])[]): [Int32Array, Int32Array] {
  const at = new Int32Array(lists.length + 1);
  for (let i = 0; i < lists.length; i++) at[i + 1] = at[i]! + lists[i]!.length;
  const list = new Int32Array(at[lists.length]!);
  for (let i = 0; i < lists.length; i++) list.set(lists[i]!, at[i]!);
  return [at, list];
}

export function flatOf(geom: Geometry): Flat {
  let flat = FLAT.get(geom);
  if (!flat) {
    const [aboveAt, above] = flatten(geom.above);
    const [belowAt, below] = flatten(geom.below);
    const [leftAt, left] = flatten(geom.left);
    const [rightAt, right] = flatten(geom.right);
    FLAT.set(geom, (flat = { aboveAt, above, belowAt, below, leftAt, left, rightAt, right }));
  }
  return flat;
}

type Counts = [above: Int32Array, left: Int32Array, right: Int32Array];

/** Per tile, present tiles covering it and flanking it left and right; into `out` when given. */
export function neighbourCounts(flat: Flat, present: Uint8Array, out?: Counts): Counts {
  const n = present.length;
  const [above, left, right] = out ?? [new Int32Array(n), new Int32Array(n), new Int32Array(n)];
  above.fill(0);
  left.fill(0);
  right.fill(0);
  for (let i = 0; i < n; i++) {
    if (!present[i]) continue;
    for (let k = flat.belowAt[i]!; k < flat.belowAt[i + 1]!; k++) above[flat.below[k]!]!++;
    for (let k = flat.leftAt[i]!; k < flat.leftAt[i + 1]!; k++) right[flat.left[k]!]!++;
    for (let k = flat.rightAt[i]!; k < flat.rightAt[i + 1]!; k++) left[flat.right[k]!]!++;
  }
  return [above, left, right];
}

/**
 * On the full board, which tiles stand above which: row i has bit j when a chain of covering tiles leads from
 * j
 * down to i.
 */
export interface Cover {
  readonly words: number;
  readonly bits: Uint32Array; // row i is bits[i * words .. (i + 1) * words)
}

const COVER = new WeakMap<Geometry, Cover>();

export function coverOf(geom: Geometry): Cover {
  let cover = COVER.get(geom);
  if (!cover) {
    const n = geom.size;
    const words = (n + 31) >>> 5;
    const bits = new Uint32Array(n * words);
    const { above, aboveAt } = flatOf(geom);
    // Higher tiles first: a tile's row is complete before any tile below reads it.
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => geom.slots[b]!.z - geom.slots[a]!.z);
    for (const i of order)
      for (let k = aboveAt[i]!; k < aboveAt[i + 1]!; k++) {
        const j = above[k]!;
        bits[i * words + (j >>> 5)]! |= 1 << (j & 31);
        for (let w = 0; w < words; w++) bits[i * words + w]! |= bits[j * words + w]!;
      }
    COVER.set(geom, (cover = { words, bits }));
  }
  return cover;
}
