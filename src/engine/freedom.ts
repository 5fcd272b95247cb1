/**
 * Freedom kept up to date while tiles leave, for random play and the bot: per slot, the present tiles
 * covering
 * it and flanking it on each side (the free rule of rules.ts, in counts). Freedom only grows as tiles leave,
 * so a
 * tile is reported free once, through `onFree`. Arrays are made once per geometry and reused.
 */
import type { Geometry } from './layout.ts';
import type { Presence } from './rules.ts';

/** A geometry's neighbour lists, flattened: list k of slot i is `at[start[i]] … at[start[i + 1] - 1]`. */
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

export class Freedom {
  readonly size: number;
  readonly present: Uint8Array;
  readonly free: Uint8Array;
  private readonly covers: Int32Array; // present tiles above, per slot
  private readonly lefts: Int32Array; // present tiles flanking on the left
  private readonly rights: Int32Array;
  private readonly above: Lists;
  private readonly below: Lists;
  private readonly left: Lists;
  private readonly right: Lists;
  private readonly full: { covers: Int32Array; lefts: Int32Array; rights: Int32Array; free: Int32Array };

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

  /** Starts a game on `present` (all when null), each free tile told to `onFree`. */
  reset(present: Presence | null, onFree: (i: number) => void): void {
    this.free.fill(0);
    if (!present) {
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

  private countAll(): void {
    for (let i = 0; i < this.size; i++) {
      this.covers[i] = countPresent(this.above, i, this.present);
      this.lefts[i] = countPresent(this.left, i, this.present);
      this.rights[i] = countPresent(this.right, i, this.present);
    }
  }

  /** Takes tile r off the board; every tile it frees is told to `onFree`. */
  remove(r: number, onFree: (i: number) => void): void {
    this.present[r] = 0;
    this.free[r] = 0;
    const { below, left, right } = this;
    for (let k = below.start[r]!; k < below.start[r + 1]!; k++) {
      const j = below.at[k]!;
      this.covers[j]!--;
      this.check(j, onFree);
    }
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
   * How many tiles not free now would be free once a and b (present, free) left; the board is unchanged.
   * `seen`:
   * scratch of `size` entries, all below `stamp`.
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

export function freedomOf(geom: Geometry): Freedom {
  let board = boards.get(geom);
  if (!board) boards.set(geom, (board = new Freedom(geom)));
  return board;
}
