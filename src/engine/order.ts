/**
 * Finding a removal order: pairs of free slots that empty a position, faces ignored (docs/engine.md, "Removal
 * orders").
 */
import { LayoutError, type Geometry } from './layout.ts';
import { flatOf, neighbourCounts, type Flat } from './flat.ts';
import type { Presence } from './rules.ts';
import { makeRng, type Rng } from './rng.ts';
import { err, ok, type Pair, type Result } from './types.ts';

export const ORDER_BUDGET = 200_000; // candidate pairs; real layouts need ~n/2

function topDown(geom: Geometry): Int32Array {
  const order = Array.from({ length: geom.size }, (_, i) => i);
  order.sort((a, b) => geom.slots[b]!.z - geom.slots[a]!.z || a - b);
  return Int32Array.from(order);
}

const TOP_DOWN = new WeakMap<Geometry, Int32Array>();
const topDownOf = (geom: Geometry): Int32Array => {
  let order = TOP_DOWN.get(geom);
  if (!order) TOP_DOWN.set(geom, (order = topDown(geom)));
  return order;
};

/** The longest chain of present tiles each covering the next. */
export function longestChain(geom: Geometry, present: Presence, scratch: Int32Array): number {
  let longest = 0;
  const order = topDownOf(geom);
  const { above, aboveAt } = flatOf(geom);
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    if (!present[i]) continue;
    let best = 0;
    for (let m = aboveAt[i]!; m < aboveAt[i + 1]!; m++) {
      const j = above[m]!;
      if (present[j] && scratch[j]! > best) best = scratch[j]!;
    }
    scratch[i] = best + 1;
    if (best + 1 > longest) longest = best + 1;
  }
  return longest;
}

/** Why a set of tiles cannot be cleared, or null when the quick checks pass. */
export function quickUnclearable(geom: Geometry, present: Presence): string | null {
  let count = 0;
  for (let i = 0; i < geom.size; i++) count += present[i]!;
  if (count % 2 !== 0) return `${count} tiles cannot be removed in pairs`;
  if (count === 0) return null;
  const chain = longestChain(geom, present, new Int32Array(geom.size));
  if (chain * 2 > count)
    return `${chain} of the ${count} tiles are stacked on one another, and each of them needs a partner from elsewhere`;
  return null;
}

const WEIGHT = new WeakMap<Geometry, Int32Array>();
/** Per slot: (1 + z)², integers so every engine agrees. */
const weightOf = (geom: Geometry): Int32Array => {
  let weight = WEIGHT.get(geom);
  if (!weight) WEIGHT.set(geom, (weight = Int32Array.from(geom.slots, (s) => (1 + s.z) * (1 + s.z))));
  return weight;
};

const QUICK_FULL = new WeakMap<Geometry, string | null>();
const quickUnclearableFull = (geom: Geometry): string | null => {
  let reason = QUICK_FULL.get(geom);
  if (reason === undefined) QUICK_FULL.set(geom, (reason = quickUnclearable(geom, new Uint8Array(geom.size).fill(1))));
  return reason;
};

interface Frame {
  id: number;
  readonly drawn: number[]; // the free tiles in weighted random order, drawn lazily
  count: number;
  drawnWeight: number;
  i: number;
  j: number;
  a: number; // the pair this frame removed; -1: none
  b: number;
}

const ZOBRIST = new WeakMap<Geometry, Uint32Array>();
const zobristOf = (geom: Geometry): Uint32Array => {
  let keys = ZOBRIST.get(geom);
  if (!keys) {
    const rng = makeRng('zobrist');
    keys = new Uint32Array(geom.size * 2);
    for (let k = 0; k < keys.length; k++) keys[k] = rng.next();
    ZOBRIST.set(geom, keys);
  }
  return keys;
};

interface Start {
  readonly present: Uint8Array;
  readonly aboveCount: Int32Array;
  readonly leftCount: Int32Array;
  readonly rightCount: Int32Array;
  readonly freeList: readonly number[];
  readonly freeAt: Int32Array;
  readonly freeWeight: number;
  readonly h1: number;
  readonly h2: number;
}

function startOf(geom: Geometry, start: Presence): Start {
  const present = new Uint8Array(start);
  const [aboveCount, leftCount, rightCount] = neighbourCounts(flatOf(geom), present);
  const weight = weightOf(geom);
  const keys = zobristOf(geom);
  const freeList: number[] = [];
  const freeAt = new Int32Array(geom.size).fill(-1);
  let freeWeight = 0;
  let h1 = 0;
  let h2 = 0;
  for (let i = 0; i < geom.size; i++) {
    if (!present[i]) continue;
    h1 ^= keys[2 * i]!;
    h2 ^= keys[2 * i + 1]!;
    if (aboveCount[i] === 0 && (leftCount[i] === 0 || rightCount[i] === 0)) {
      freeAt[i] = freeList.push(i) - 1;
      freeWeight += weight[i]!;
    }
  }
  return { present, aboveCount, leftCount, rightCount, freeList, freeAt, freeWeight, h1, h2 };
}

/**
 * A search's working state, one per geometry and reused. Frame ids count across calls, so `drawnBy` is never
 * cleared.
 */
class OrderSearch {
  readonly present: Uint8Array;
  readonly aboveCount: Int32Array;
  readonly leftCount: Int32Array;
  readonly rightCount: Int32Array;
  readonly freeAt: Int32Array;
  readonly drawnBy: Int32Array;
  readonly scratch: Int32Array;
  readonly pool: Frame[] = [];
  readonly flat: Flat;
  readonly weight: Int32Array;
  readonly keys: Uint32Array;
  frames = 0;
  // The position: free slots (unordered), their weight, its hash and tiles left.
  freeList: number[] = [];
  freeWeight = 0;
  h1 = 0;
  h2 = 0;
  left = 0;
  rng: Rng = makeRng('order');

  constructor(readonly geom: Geometry) {
    const n = geom.size;
    this.present = new Uint8Array(n);
    this.aboveCount = new Int32Array(n);
    this.leftCount = new Int32Array(n);
    this.rightCount = new Int32Array(n);
    this.freeAt = new Int32Array(n);
    this.drawnBy = new Int32Array(n).fill(-1);
    this.scratch = new Int32Array(n);
    this.flat = flatOf(geom);
    this.weight = weightOf(geom);
    this.keys = zobristOf(geom);
  }

  reset(init: Start, left: number, rng: Rng): void {
    this.present.set(init.present);
    this.aboveCount.set(init.aboveCount);
    this.leftCount.set(init.leftCount);
    this.rightCount.set(init.rightCount);
    this.freeAt.set(init.freeAt);
    this.freeList = init.freeList.slice();
    this.freeWeight = init.freeWeight;
    this.h1 = init.h1;
    this.h2 = init.h2;
    this.left = left;
    this.rng = rng;
    if (this.frames > 0x40000000) {
      this.drawnBy.fill(-1);
      this.frames = 0;
    }
  }

  isFree(i: number): boolean {
    return this.present[i] === 1 && this.aboveCount[i] === 0 && (this.leftCount[i] === 0 || this.rightCount[i] === 0);
  }

  setFree(j: number, f: boolean): void {
    const { freeAt, freeList } = this;
    const at = freeAt[j]!;
    if (f && at < 0) {
      freeAt[j] = freeList.push(j) - 1;
      this.freeWeight += this.weight[j]!;
    } else if (!f && at >= 0) {
      const last = freeList.pop()!;
      if (last !== j) {
        freeList[at] = last;
        freeAt[last] = at;
      }
      freeAt[j] = -1;
      this.freeWeight -= this.weight[j]!;
    }
  }

  refresh(i: number): void {
    const { below, belowAt, left, leftAt, right, rightAt } = this.flat;
    for (let k = belowAt[i]!; k < belowAt[i + 1]!; k++) this.setFree(below[k]!, this.isFree(below[k]!));
    for (let k = leftAt[i]!; k < leftAt[i + 1]!; k++) this.setFree(left[k]!, this.isFree(left[k]!));
    for (let k = rightAt[i]!; k < rightAt[i + 1]!; k++) this.setFree(right[k]!, this.isFree(right[k]!));
  }

  toggle(i: number, on: 0 | 1): void {
    const { below, belowAt, left, leftAt, right, rightAt } = this.flat;
    this.present[i] = on;
    this.h1 ^= this.keys[2 * i]!;
    this.h2 ^= this.keys[2 * i + 1]!;
    const delta = on === 1 ? 1 : -1;
    for (let k = belowAt[i]!; k < belowAt[i + 1]!; k++) this.aboveCount[below[k]!]! += delta;
    for (let k = leftAt[i]!; k < leftAt[i + 1]!; k++) this.rightCount[left[k]!]! += delta;
    for (let k = rightAt[i]!; k < rightAt[i + 1]!; k++) this.leftCount[right[k]!]! += delta;
    this.setFree(i, on === 1 && this.isFree(i));
  }

  take(a: number, b: number): void {
    this.toggle(a, 0);
    this.toggle(b, 0);
    this.refresh(a);
    this.refresh(b);
    this.left -= 2;
  }

  restore(a: number, b: number): void {
    this.toggle(a, 1);
    this.toggle(b, 1);
    this.refresh(a);
    this.refresh(b);
    this.left += 2;
  }

  stateKey(): number {
    return this.h1 * 0x100000 + (this.h2 & 0xfffff);
  }

  frameAt(depth: number): Frame {
    let frame = this.pool[depth];
    if (!frame) this.pool.push((frame = { id: 0, drawn: [], count: 0, drawnWeight: 0, i: 0, j: 1, a: -1, b: -1 }));
    frame.id = this.frames++;
    frame.count = 0;
    frame.drawnWeight = 0;
    frame.i = 0;
    frame.j = 1;
    frame.a = frame.b = -1;
    return frame;
  }

  /** The k-th tile of the frame's weighted random order. */
  tileAt(frame: Frame, k: number): number {
    const { freeList, weight, drawnBy } = this;
    while (frame.count <= k) {
      let r = this.rng.int(this.freeWeight - frame.drawnWeight);
      let n = 0;
      for (;;) {
        const t = freeList[n++]!;
        if (drawnBy[t] === frame.id) continue;
        if (r < weight[t]!) {
          drawnBy[t] = frame.id;
          frame.drawn[frame.count++] = t;
          frame.drawnWeight += weight[t]!;
          break;
        }
        r -= weight[t]!;
      }
    }
    return frame.drawn[k]!;
  }

  run(budget: number): Result<{ order: Pair[]; stats: OrderStats }, LayoutError> {
    const { geom, pool, present, scratch } = this;
    const dead = new Set<number>();
    let depth = 0;
    this.frameAt(0);
    let nodes = 0;
    while (this.left > 0) {
      const frame = pool[depth]!;
      if (frame.a >= 0) {
        this.restore(frame.a, frame.b);
        frame.a = frame.b = -1;
      }
      let advanced = false;
      while (frame.j < this.freeList.length) {
        const a = this.tileAt(frame, frame.i);
        const b = this.tileAt(frame, frame.j);
        if (++frame.i === frame.j) {
          frame.i = 0;
          frame.j++;
        }
        if (++nodes > budget)
          return err(
            LayoutError.Unclearable,
            `no removal order was found within ${budget} steps; the layout is very likely unclearable`,
          );
        this.take(a, b);
        // A chain has at most one tile per layer: the bound bites only below twice the layer count.
        const left = this.left;
        const viable =
          left === 0 ||
          (this.freeList.length >= 2 &&
            (dead.size === 0 || !dead.has(this.stateKey())) &&
            (left >= 2 * geom.extent.depth || longestChain(geom, present, scratch) * 2 <= left));
        if (viable) {
          frame.a = a;
          frame.b = b;
          advanced = true;
          break;
        }
        this.restore(a, b);
      }
      if (this.left === 0) break;
      if (advanced) {
        this.frameAt(++depth);
        continue;
      }
      dead.add(this.stateKey());
      if (depth-- === 0)
        return err(LayoutError.Unclearable, 'the layout cannot be cleared: no order of removals empties it');
    }
    const order: Pair[] = [];
    for (let d = 0; d <= depth; d++) if (pool[d]!.a >= 0) order.push([pool[d]!.a, pool[d]!.b]);
    return ok({ order, stats: { nodes } });
  }
}

const SEARCH = new WeakMap<Geometry, OrderSearch>();
const searchOf = (geom: Geometry): OrderSearch => {
  let search = SEARCH.get(geom);
  if (!search) SEARCH.set(geom, (search = new OrderSearch(geom)));
  return search;
};

const FULL_START = new WeakMap<Geometry, Start>();
const startOfFull = (geom: Geometry): Start => {
  let start = FULL_START.get(geom);
  if (!start) FULL_START.set(geom, (start = startOf(geom, new Uint8Array(geom.size).fill(1))));
  return start;
};

export interface OrderStats {
  readonly nodes: number;
}

/**
 * A seeded removal order for the present tiles; ERR_UNCLEARABLE with the reason when none exists or is found.
 */
export function findRemovalOrder(
  geom: Geometry,
  start: Presence,
  rng: Rng,
  budget = ORDER_BUDGET,
): Result<{ order: Pair[]; stats: OrderStats }, LayoutError> {
  let left = 0;
  for (let i = 0; i < geom.size; i++) left += start[i]!;
  const full = left === geom.size;
  const quick = full ? quickUnclearableFull(geom) : quickUnclearable(geom, start);
  if (quick) return err(LayoutError.Unclearable, `the layout cannot be cleared: ${quick}`);
  const search = searchOf(geom);
  search.reset(full ? startOfFull(geom) : startOf(geom, start), left, rng);
  return search.run(budget);
}
