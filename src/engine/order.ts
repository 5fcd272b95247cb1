/**
 * Finding a removal order: a sequence of pairs of geometrically free slots that
 * empties a position, faces ignored. Deals are made by pasting face pairs onto
 * such an order (see deal.ts), and shuffles re-run it over the tiles left.
 *
 * Implementation notes: a depth-first search with
 * - weighted random move ordering: tiles on higher layers are tried first
 *   (weight (1 + z)²), so stacks are taken down early and rarely strand;
 * - a lookahead bound: in any clearing order, tiles on a chain (each covering the
 *   next) are removed one at a time, each with a partner from off the chain, so
 *   the longest chain of remaining tiles may be at most half of them. This alone
 *   forces the right move when one tall stack stands among single tiles, and
 *   proves at the root that a lone tower or stacked towers cannot be cleared;
 * - backtracking with a table of positions already proven dead (Zobrist hashes),
 *   so no position is expanded twice;
 * - a node budget, so that adversarial input ends with an error instead of a hang.
 * The chain bound runs in O(tiles + overlaps) per candidate, with free flags kept
 * up to date incrementally from the neighbour lists.
 */
import { LayoutError, type Geometry } from './layout.ts';
import { isFree, type Presence } from './rules.ts';
import { makeRng, type Rng } from './rng.ts';
import { err, ok, type Pair, type Result } from './types.ts';

export const ORDER_BUDGET = 200_000; // candidate pairs examined before giving up; real layouts need ~n/2

/** Slot indices from the top layer down: children come after every slot above them. */
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

/**
 * The longest chain of present tiles each covering the next; `scratch` is reused
 * storage of geom.size entries.
 */
export function longestChain(geom: Geometry, present: Presence, scratch: Int32Array): number {
  let longest = 0;
  for (const i of topDownOf(geom)) {
    if (!present[i]) continue;
    let best = 0;
    for (const j of geom.above[i]!) if (present[j] && scratch[j]! > best) best = scratch[j]!;
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
/** Per slot, its weight in the random order: (1 + z)², integers so that every engine agrees. */
const weightOf = (geom: Geometry): Int32Array => {
  let weight = WEIGHT.get(geom);
  if (!weight) WEIGHT.set(geom, (weight = Int32Array.from(geom.slots, (s) => (1 + s.z) * (1 + s.z))));
  return weight;
};

const QUICK_FULL = new WeakMap<Geometry, string | null>();
/** quickUnclearable for the whole layout, once per geometry: every deal starts there. */
const quickUnclearableFull = (geom: Geometry): string | null => {
  let reason = QUICK_FULL.get(geom);
  if (reason === undefined) QUICK_FULL.set(geom, (reason = quickUnclearable(geom, new Uint8Array(geom.size).fill(1))));
  return reason;
};

interface Frame {
  readonly id: number; // marks the tiles this frame has drawn (see `drawnBy`)
  readonly drawn: number[]; // the free tiles of this frame's position in weighted random order, drawn lazily
  drawnWeight: number; // their total weight
  i: number; // cursor over pairs (drawn[i], drawn[j]) with i < j
  j: number;
  pair: Pair | null; // the pair this frame removed, to be restored on backtrack
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

export interface OrderStats {
  readonly nodes: number; // candidate pairs examined
}

/**
 * A seeded removal order for the present tiles: pairs of slots, both free when
 * taken, that empty the position. Errors with ERR_UNCLEARABLE and the reason when
 * no order exists (or none was found within `budget` candidate pairs).
 */
export function findRemovalOrder(
  geom: Geometry,
  start: Presence,
  rng: Rng,
  budget = ORDER_BUDGET,
): Result<{ order: Pair[]; stats: OrderStats }, LayoutError> {
  const quick = start.every((p) => p === 1) ? quickUnclearableFull(geom) : quickUnclearable(geom, start);
  if (quick) return err(LayoutError.Unclearable, `the layout cannot be cleared: ${quick}`);
  const present = Uint8Array.from(start);
  let left = 0;
  for (let i = 0; i < geom.size; i++) left += present[i]!;
  // The free slots, as a list with each slot's position in it (-1 when not free),
  // kept up to date as tiles leave and come back.
  const weight = weightOf(geom);
  const freeList: number[] = [];
  const freeAt = new Int32Array(geom.size).fill(-1);
  let freeWeight = 0; // total weight of the free list
  const setFree = (j: number, f: boolean): void => {
    const at = freeAt[j]!;
    if (f && at < 0) {
      freeAt[j] = freeList.push(j) - 1;
      freeWeight += weight[j]!;
    } else if (!f && at >= 0) {
      const last = freeList.pop()!;
      if (last !== j) {
        freeList[at] = last;
        freeAt[last] = at;
      }
      freeAt[j] = -1;
      freeWeight -= weight[j]!;
    }
  };
  for (let i = 0; i < geom.size; i++) setFree(i, isFree(geom, present, i));
  const keys = zobristOf(geom);
  let h1 = 0;
  let h2 = 0;
  for (let i = 0; i < geom.size; i++)
    if (present[i]) {
      h1 ^= keys[2 * i]!;
      h2 ^= keys[2 * i + 1]!;
    }
  const dead = new Set<number>();
  const scratch = new Int32Array(geom.size);

  const refresh = (i: number): void => {
    for (const j of geom.below[i]!) setFree(j, isFree(geom, present, j));
    for (const j of geom.left[i]!) setFree(j, isFree(geom, present, j));
    for (const j of geom.right[i]!) setFree(j, isFree(geom, present, j));
  };
  const toggle = (i: number, on: 0 | 1): void => {
    present[i] = on;
    h1 ^= keys[2 * i]!;
    h2 ^= keys[2 * i + 1]!;
    setFree(i, on === 1 && isFree(geom, present, i));
  };
  const take = ([a, b]: Pair): void => {
    toggle(a, 0);
    toggle(b, 0);
    refresh(a);
    refresh(b);
    left -= 2;
  };
  const restore = ([a, b]: Pair): void => {
    toggle(a, 1);
    toggle(b, 1);
    refresh(a);
    refresh(b);
    left += 2;
    // a and b were free when taken; restoring them re-blocks their neighbours via refresh.
  };
  const stateKey = (): number => h1 * 0x100000 + (h2 & 0xfffff);
  // Weighted draws without replacement from the free list of the top frame's position
  // (the free list holds exactly that position's free tiles while the frame is on top).
  const drawnBy = new Int32Array(geom.size).fill(-1);
  let frames = 0;
  const newFrame = (): Frame => ({ id: frames++, drawn: [], drawnWeight: 0, i: 0, j: 1, pair: null });
  const tileAt = (frame: Frame, k: number): number => {
    while (frame.drawn.length <= k) {
      let r = rng.int(freeWeight - frame.drawnWeight);
      let n = 0;
      for (;;) {
        const t = freeList[n++]!;
        if (drawnBy[t] === frame.id) continue;
        if (r < weight[t]!) {
          drawnBy[t] = frame.id;
          frame.drawn.push(t);
          frame.drawnWeight += weight[t]!;
          break;
        }
        r -= weight[t]!;
      }
    }
    return frame.drawn[k]!;
  };

  const stack: Frame[] = [newFrame()];
  let nodes = 0;
  while (left > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.pair) {
      // Came back here: the position after this frame's pair was dead.
      restore(frame.pair);
      frame.pair = null;
    }
    let advanced = false;
    while (frame.j < freeList.length) {
      const pair: Pair = [tileAt(frame, frame.i), tileAt(frame, frame.j)];
      if (++frame.i === frame.j) {
        frame.i = 0;
        frame.j++;
      }
      if (++nodes > budget)
        return err(
          LayoutError.Unclearable,
          `no removal order was found within ${budget} steps; the layout is very likely unclearable`,
        );
      take(pair);
      // A chain has at most one tile per layer, so the chain bound can only bite once
      // fewer than twice the layer count are left.
      const viable =
        left === 0 ||
        (freeList.length >= 2 &&
          (dead.size === 0 || !dead.has(stateKey())) &&
          (left >= 2 * geom.extent.depth || longestChain(geom, present, scratch) * 2 <= left));
      if (viable) {
        frame.pair = pair;
        advanced = true;
        break;
      }
      restore(pair);
    }
    if (left === 0) break;
    if (advanced) {
      stack.push(newFrame());
      continue;
    }
    // Every pair from this position fails: remember it and step back.
    dead.add(stateKey());
    stack.pop();
    if (stack.length === 0)
      return err(LayoutError.Unclearable, 'the layout cannot be cleared: no order of removals empties it');
  }
  const order = stack.map((f) => f.pair).filter((p): p is Pair => p !== null);
  return ok({ order, stats: { nodes } });
}
