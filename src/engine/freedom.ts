/**
 * Freedom kept up to date while tiles leave: what the random player (playout.ts) and the competent
 * bot (bot.ts) play on, thousands of games a second.
 *
 * Implementation notes: per slot the board keeps how many present tiles cover it, flank it on the
 * left and flank it on the right. A tile is free when it is present, nothing covers it and one flank
 * count is zero (the free rule of rules.ts, in counts). Removing a tile lowers the counts of the tiles
 * below it and beside it, and only those can become free. Freedom only grows as tiles leave (a free
 * tile stays free until it is taken), so a tile is reported free once, through `onFree`. The counts
 * and lists live in typed arrays made once per geometry and reused by every game on it (the engine
 * runs one game at a time per thread); `reset` starts a new game without allocating.
 */
import type { Geometry } from './layout.ts';
import type { Presence } from './rules.ts';

/** A geometry's neighbour lists, flattened: the slots of list k of slot i are `at[start[i]] … at[start[i + 1] - 1]`. */
interface Lists {
  readonly start: Int32Array;
  readonly at: Int32Array;
}

const flatten = (lists: readonly (readonly number[])[]): Lists => {
  const start = new Int32Array(lists.length + 1);
  lists.forEach((list, i) => (start[i + 1] = start[i]! + list.length));
  const at = new Int32Array(start[lists.length]!);
  lists.forEach((list, i) => at.set(list, start[i]!));
  return { start, at };
};

/** The present tiles of slot i's list. */
function countPresent(lists: Lists, i: number, present: Uint8Array): number {
  let c = 0;
  for (let k = lists.start[i]!; k < lists.start[i + 1]!; k++) c += present[lists.at[k]!]!;
  return c;
}

/** `total`, less the tiles of slot j's list that are a or b. */
function countWithout(lists: Lists, j: number, total: number, a: number, b: number): number {
  let c = total;
  for (let k = lists.start[j]!; k < lists.start[j + 1]!; k++) {
    const t = lists.at[k]!;
    if (t === a || t === b) c--;
  }
  return c;
}

/** A board of one geometry whose free tiles are known at every step. */
export class Freedom {
  readonly size: number;
  readonly present: Uint8Array; // 1 while the slot's tile is on the board
  readonly free: Uint8Array; // 1 while it is free
  private readonly covers: Int32Array; // present tiles above, per slot
  private readonly lefts: Int32Array; // present tiles flanking on the left
  private readonly rights: Int32Array; // … on the right
  private readonly above: Lists;
  private readonly below: Lists;
  private readonly left: Lists;
  private readonly right: Lists;
  private readonly full: { covers: Int32Array; lefts: Int32Array; rights: Int32Array; free: Int32Array }; // the full board's

  constructor(geom: Geometry) {
    const n = geom.size;
    this.size = n;
    this.present = new Uint8Array(n);
    this.free = new Uint8Array(n);
    this.covers = new Int32Array(n);
    this.lefts = new Int32Array(n);
    this.rights = new Int32Array(n);
    this.above = flatten(geom.above);
    this.below = flatten(geom.below);
    this.left = flatten(geom.left);
    this.right = flatten(geom.right);
    this.present.fill(1);
    this.countAll();
    const free: number[] = [];
    for (let i = 0; i < n; i++) if (this.isFreeNow(i)) free.push(i);
    this.full = {
      covers: this.covers.slice(),
      lefts: this.lefts.slice(),
      rights: this.rights.slice(),
      free: Int32Array.from(free),
    };
  }

  /** Starts a game on the tiles of `present` (all when none): the counts from scratch, each free tile told to `onFree`. */
  reset(present: Presence | null, onFree: (i: number) => void): void {
    this.free.fill(0);
    if (!present) {
      // The full board: its counts and free tiles as worked out once.
      this.present.fill(1);
      this.covers.set(this.full.covers);
      this.lefts.set(this.full.lefts);
      this.rights.set(this.full.rights);
      for (const i of this.full.free) {
        this.free[i] = 1;
        onFree(i);
      }
      return;
    }
    this.present.set(present);
    this.countAll();
    for (let i = 0; i < this.size; i++) {
      if (!this.isFreeNow(i)) continue;
      this.free[i] = 1;
      onFree(i);
    }
  }

  /** The counts of every slot from `present`. */
  private countAll(): void {
    for (let i = 0; i < this.size; i++) {
      this.covers[i] = countPresent(this.above, i, this.present);
      this.lefts[i] = countPresent(this.left, i, this.present);
      this.rights[i] = countPresent(this.right, i, this.present);
    }
  }

  /** Takes tile r off the board; every tile this frees is told to `onFree`, in the order found. */
  remove(r: number, onFree: (i: number) => void): void {
    this.present[r] = 0;
    this.free[r] = 0;
    const { below, left, right } = this;
    for (let k = below.start[r]!; k < below.start[r + 1]!; k++) {
      const j = below.at[k]!;
      this.covers[j]!--;
      this.check(j, onFree);
    }
    // r flanks the tiles to its right on their left, and those to its left on their right.
    for (let k = right.start[r]!; k < right.start[r + 1]!; k++) {
      const j = right.at[k]!;
      this.lefts[j]!--;
      this.check(j, onFree);
    }
    for (let k = left.start[r]!; k < left.start[r + 1]!; k++) {
      const j = left.at[k]!;
      this.rights[j]!--;
      this.check(j, onFree);
    }
  }

  /**
   * How many tiles not free now would be free once both a and b left (a and b present and free). Leaves the
   * board as it was. `seen` is scratch of `size` entries, all below `stamp` (the bot counts each touched tile once).
   */
  freedBy(a: number, b: number, seen: Int32Array, stamp: number): number {
    let freed = 0;
    for (let t = a, pass = 0; pass < 2; t = b, pass++)
      for (const lists of [this.below, this.left, this.right])
        for (let k = lists.start[t]!; k < lists.start[t + 1]!; k++) {
          const j = lists.at[k]!;
          if (j === a || j === b || seen[j] === stamp) continue;
          seen[j] = stamp;
          if (this.present[j] && !this.free[j] && this.isFreeWithout(j, a, b)) freed++;
        }
    return freed;
  }

  private isFreeNow(i: number): boolean {
    return this.present[i] === 1 && this.covers[i] === 0 && (this.lefts[i] === 0 || this.rights[i] === 0);
  }

  /** Whether tile j would be free with a and b gone. */
  private isFreeWithout(j: number, a: number, b: number): boolean {
    if (countWithout(this.above, j, this.covers[j]!, a, b) !== 0) return false;
    return (
      countWithout(this.left, j, this.lefts[j]!, a, b) === 0 || countWithout(this.right, j, this.rights[j]!, a, b) === 0
    );
  }

  private check(j: number, onFree: (i: number) => void): void {
    if (this.free[j] || !this.isFreeNow(j)) return;
    this.free[j] = 1;
    onFree(j);
  }
}

const boards = new WeakMap<Geometry, Freedom>();

/** The board kept for a geometry (made on first use). */
export function freedomOf(geom: Geometry): Freedom {
  let board = boards.get(geom);
  if (!board) boards.set(geom, (board = new Freedom(geom)));
  return board;
}
