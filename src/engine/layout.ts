/**
 * Layout validation and geometry: every question of a position involves only a tile's neighbours, so
 * `makeGeometry` precomputes four lists per slot (above, below, left, right), once per layout: by lookups in a
 * grid of the layout's box, O(n · layers), or by a scan of every pair, O(n²), where a grid cannot hold it.
 */
import { err, ok, type Layout, type Result, type Slot } from './types.ts';

export const MAX_TILES = 1000; // more than six full sets; a guard against garbage input
export const MAX_COORD = 255; // largest x or y; in half tiles
export const MAX_LAYER = 63; // largest z

export const LayoutError = {
  Empty: 'ERR_EMPTY',
  TooLarge: 'ERR_TOO_LARGE',
  Range: 'ERR_RANGE',
  Duplicate: 'ERR_DUPLICATE',
  Overlap: 'ERR_OVERLAP',
  Odd: 'ERR_ODD',
  Unclearable: 'ERR_UNCLEARABLE',
  Format: 'ERR_FORMAT',
} as const;
export type LayoutError = (typeof LayoutError)[keyof typeof LayoutError];

export interface Geometry {
  readonly slots: readonly Slot[];
  readonly size: number;
  readonly above: readonly (readonly number[])[]; // higher slots overlapping slot i
  readonly below: readonly (readonly number[])[];
  readonly left: readonly (readonly number[])[]; // same layer at x − 2 with |dy| < 2
  readonly right: readonly (readonly number[])[]; // same layer at x + 2 with |dy| < 2
  readonly extent: Extent;
}

export interface Extent {
  readonly minX: number; // in half tiles
  readonly minY: number;
  readonly width: number; // to the right edge of the rightmost tile; in half tiles
  readonly height: number;
  readonly depth: number;
}

const overlaps = (a: Slot, b: Slot): boolean => Math.abs(a.x - b.x) < 2 && Math.abs(a.y - b.y) < 2;

const describe = (s: Slot): string => `(${s.x}, ${s.y}, ${s.z})`;

/**
 * Checks a layout's slots: non-empty, at most MAX_TILES, whole coordinates in range, no two tiles sharing
 * space,
 * an even count. Not that the layout can be cleared: dealing does that.
 */
export function validateSlots(slots: readonly Slot[]): Result<readonly Slot[], LayoutError> {
  if (slots.length === 0) return err(LayoutError.Empty, 'the layout has no tiles');
  if (slots.length > MAX_TILES)
    return err(LayoutError.TooLarge, `the layout has ${slots.length} tiles; at most ${MAX_TILES} are allowed`);
  for (const s of slots) {
    const inRange =
      Number.isInteger(s.x) && Number.isInteger(s.y) && Number.isInteger(s.z) &&
      s.x >= 0 && s.y >= 0 && s.z >= 0 && s.x <= MAX_COORD && s.y <= MAX_COORD && s.z <= MAX_LAYER; // prettier-ignore
    if (!inRange)
      return err(
        LayoutError.Range,
        `tile ${describe(s)} is out of range: x and y must be whole numbers 0–${MAX_COORD}, z 0–${MAX_LAYER}`,
      );
  }
  // Tiles overlap when less than a tile apart on both axes, so each tile's rivals are in the 3 × 3 positions
  // around
  // it: a lookup each, O(n) (uploads check this).
  const seen = new Map<number, number>(); // (z, y, x) of each tile so far → its index
  const keyOf = (x: number, y: number, z: number): number => (z * (MAX_COORD + 3) + y) * (MAX_COORD + 3) + x;
  for (let i = 0; i < slots.length; i++) {
    const s = slots[i]!;
    let first = -1; // the earliest tile sharing room with s, as a scan in order would find
    for (let dy = -1; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) {
        const j = seen.get(keyOf(s.x + dx + 1, s.y + dy + 1, s.z));
        if (j !== undefined && (first < 0 || j < first)) first = j;
      }
    if (first >= 0) {
      const t = slots[first]!;
      if (t.x === s.x && t.y === s.y) return err(LayoutError.Duplicate, `two tiles at ${describe(s)}`);
      return err(LayoutError.Overlap, `tiles ${describe(t)} and ${describe(s)} overlap on layer ${s.z}`);
    }
    seen.set(keyOf(s.x + 1, s.y + 1, s.z), i);
  }
  if (slots.length % 2 !== 0)
    return err(
      LayoutError.Odd,
      `the layout has ${slots.length} tiles; tiles are removed in pairs, so the count must be even`,
    );
  return ok(slots);
}

/** Cells at most in the grid that makeGeometry looks neighbours up in; a sparser layout is scanned instead. */
const GRID_CELLS = 1 << 16;

/** Precomputes neighbour lists for valid slots. */
export function makeGeometry(slots: readonly Slot[]): Geometry {
  const n = slots.length;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  let maxZ = 0;
  for (const a of slots) {
    minX = Math.min(minX, a.x);
    minY = Math.min(minY, a.y);
    maxX = Math.max(maxX, a.x + 2);
    maxY = Math.max(maxY, a.y + 2);
    maxZ = Math.max(maxZ, a.z);
  }
  const extent = n === 0
    ? { minX: 0, minY: 0, width: 0, height: 0, depth: 0 }
    : { minX, minY, width: maxX - minX, height: maxY - minY, depth: maxZ + 1 }; // prettier-ignore
  const lists =
    n === 0 ? emptyLists(0) : (gridNeighbours(slots, minX, minY, maxX, maxY, maxZ) ?? scanNeighbours(slots));
  return { slots, size: n, ...lists, extent };
}

interface Neighbours {
  above: number[][];
  below: number[][];
  left: number[][];
  right: number[][];
}

const emptyLists = (n: number): Neighbours => ({
  above: Array.from({ length: n }, () => []),
  below: Array.from({ length: n }, () => []),
  left: Array.from({ length: n }, () => []),
  right: Array.from({ length: n }, () => []),
});

/**
 * Every pair of slots compared: the definition of the four lists, each in slot order. Kept for layouts a grid
 * cannot hold (two slots at one place, or a box of more than GRID_CELLS cells), and as the oracle the grid is
 * tested against.
 */
export function scanNeighbours(slots: readonly Slot[]): Neighbours {
  const n = slots.length;
  const { above, below, left, right } = emptyLists(n);
  for (let i = 0; i < n; i++) {
    const a = slots[i]!;
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const b = slots[j]!;
      if (b.z > a.z && overlaps(a, b)) above[i]!.push(j);
      else if (b.z < a.z && overlaps(a, b)) below[i]!.push(j);
      else if (b.z === a.z && Math.abs(a.y - b.y) < 2) {
        if (b.x === a.x - 2) left[i]!.push(j);
        else if (b.x === a.x + 2) right[i]!.push(j);
      }
    }
  }
  return { above, below, left, right };
}

/**
 * The same lists by lookups: each slot's index at its place in a grid of the layout's box (two half tiles of
 * margin on every side), then, per slot, the 3 × 3 places around it on every other layer (overlapping tiles) and
 * the three places two to its left and right on its own. Each list is sorted into slot order, as the scan makes
 * it. Null when the grid cannot hold the layout.
 */
function gridNeighbours(
  slots: readonly Slot[],
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  maxZ: number,
): Neighbours | null {
  const w = maxX - minX + 4;
  const h = maxY - minY + 4;
  const layer = w * h;
  if (layer * (maxZ + 1) > GRID_CELLS) return null;
  const grid = new Int32Array(layer * (maxZ + 1)).fill(-1);
  const at = (x: number, y: number, z: number): number => z * layer + (y - minY + 2) * w + (x - minX + 2);
  for (let i = 0; i < slots.length; i++) {
    const a = slots[i]!;
    const cell = at(a.x, a.y, a.z);
    if (grid[cell] !== -1) return null; // two slots at one place: the scan says what that means
    grid[cell] = i;
  }
  const lists = emptyLists(slots.length);
  const byIndex = (p: number, q: number): number => p - q;
  for (let i = 0; i < slots.length; i++) {
    const a = slots[i]!;
    for (let z = 0; z <= maxZ; z++) {
      if (z === a.z) continue;
      const list = z > a.z ? lists.above[i]! : lists.below[i]!;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const j = grid[at(a.x + dx, a.y + dy, z)]!;
          if (j >= 0) list.push(j);
        }
    }
    for (let dy = -1; dy <= 1; dy++) {
      const l = grid[at(a.x - 2, a.y + dy, a.z)]!;
      if (l >= 0) lists.left[i]!.push(l);
      const r = grid[at(a.x + 2, a.y + dy, a.z)]!;
      if (r >= 0) lists.right[i]!.push(r);
    }
    for (const list of [lists.above[i]!, lists.below[i]!, lists.left[i]!, lists.right[i]!])
      if (list.length > 1) list.sort(byIndex);
  }
  return lists;
}

export function parseGeometry(slots: readonly Slot[]): Result<Geometry, LayoutError> {
  const checked = validateSlots(slots);
  return checked.ok ? ok(makeGeometry(checked.value)) : checked;
}

/** Layout slots by layer, then row, then column: the canonical slot order. */
export function sortSlots(slots: readonly Slot[]): Slot[] {
  return [...slots].sort((a, b) => a.z - b.z || a.y - b.y || a.x - b.x);
}

export const makeLayout = (id: string, name: string, description: string, slots: readonly Slot[]): Layout => ({
  id,
  name,
  description,
  slots,
});

const GEOMETRY = new WeakMap<Layout, Result<Geometry, LayoutError>>();

/** The validated geometry of a layout, built once per layout value and cached. */
export function geometryOf(layout: Layout): Result<Geometry, LayoutError> {
  let geom = GEOMETRY.get(layout);
  if (!geom) GEOMETRY.set(layout, (geom = parseGeometry(layout.slots)));
  return geom;
}
