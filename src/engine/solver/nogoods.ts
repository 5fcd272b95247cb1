/**
 * Nogoods: sets of pairs that no solution has all of, learnt from the search's dead ends.
 *
 * Implementation notes. A pair (a, b) of one group, a < b, is named by a key, a·L + the
 * index of b in its group (L: the largest group's size), so that per-pair facts live in
 * arrays indexed by key, kept in the workspace (lists are cleared per solve where they
 * were set). A nogood of one pair is a *forbidden* pairing, kept as a flag; in a group of exactly four copies,
 * forbidding a with b rules out one of the group's three pairings (a–b with c–d), kept as
 * `ban` bits per copy so that the optimistic play can let a copy go only with a copy it
 * may still pair with. Longer nogoods are kept as lists of pairs, each *watched* by one
 * of its pairs that is not committed (as SAT solvers watch literals): only when that
 * pair is committed can the nogood break, and then it moves its watch to another
 * uncommitted pair or is broken. Undoing decisions only uncommits pairs, so watches
 * never move back.
 *
 * The optimistic play obeys the nogoods too: before a play under some commitments,
 * `restrictPlay` bans each pairing of a group of four uncommitted copies that a nogood
 * rules out given those commitments (all its other pairs committed). Only nogoods with at
 * most two pairs uncommitted in force can do that; they are kept in `near`, up to date as
 * decisions come and go (`tally`). Nogoods hold in every solution, so the play stays
 * optimistic, and fewer commitments never ban more.
 */
import type { Start, Workspace } from './workspace.ts';

const MAX_NOGOODS = 100_000; // nogoods kept per solve: a bound on memory

/** What `brokenBy` found. */
export const INTACT = -2; // no nogood broken
export const FORBIDDEN = -1; // the pair itself is forbidden
// (a number ≥ 0: the id of the nogood broken)

export class Nogoods {
  private readonly width: number; // L: keys are a·L + the index of b in its group
  private readonly groupOf: Int32Array;
  private readonly memberAt: Int32Array;
  private readonly members: Int32Array;
  private readonly rank: Int32Array; // per tile, its index in its group
  private readonly nogoods: Int32Array[] = []; // per id, its pairs: a0 b0 a1 b1 …
  private readonly forbidden: Uint8Array; // per pair key: no solution has the pair (a nogood of one pair)
  private readonly watchers: (number[] | undefined)[]; // per pair key: ids of the nogoods watching it
  private readonly containing: (number[] | undefined)[]; // per pair key: ids of the nogoods that hold it
  private readonly listed: number[]; // keys whose lists are set, to clear for the next solve
  private readonly miss: number[] = []; // per nogood: its pairs not committed in force
  private readonly near: number[] = []; // ids of the nogoods with at most two pairs not committed in force
  private readonly nearAt: number[] = []; // per nogood: its index in `near`, or -1
  // For groups of exactly four copies with a forbidden pairing: per copy, a bit per group member (by its index in
  // the group) it can never pair with.
  readonly ban: Int32Array;
  readonly restricted: Uint8Array; // per group: has a forbidden pairing
  // What the optimistic play obeys (restrictPlay): `ban` and `restricted` plus the pairings a nogood rules out
  // under the commitments it plays.
  readonly playBan: Int32Array;
  readonly playRestricted: Uint8Array;
  bans = 0; // changes to `ban` so far (a playout's start depends on them)

  constructor(work: Workspace, start: Start) {
    this.width = start.largest;
    this.groupOf = start.groupOf;
    this.memberAt = start.memberAt;
    this.members = start.members;
    this.rank = start.rank;
    const keys = start.n * start.largest;
    if (work.forbidden.length < keys) {
      work.forbidden = new Uint8Array(keys);
      work.watchers = new Array<number[] | undefined>(keys);
      work.containing = new Array<number[] | undefined>(keys);
    } else work.forbidden.fill(0, 0, keys);
    for (const key of work.listed) work.watchers[key] = work.containing[key] = undefined;
    work.listed.length = 0;
    this.forbidden = work.forbidden;
    this.watchers = work.watchers;
    this.containing = work.containing;
    this.listed = work.listed;
    this.ban = work.ban.fill(0);
    this.restricted = work.restricted.fill(0);
    this.playBan = work.playBan;
    this.playRestricted = work.playRestricted;
  }

  /** The key of the pair (a, b) of one group, whichever comes first. */
  key(a: number, b: number): number {
    return a < b ? a * this.width + this.rank[b]! : b * this.width + this.rank[a]!;
  }

  isForbidden(a: number, b: number): boolean {
    return this.forbidden[this.key(a, b)] === 1;
  }

  /** The pairs of nogood `id`: a0 b0 a1 b1 … */
  pairsOf(id: number): Int32Array {
    return this.nogoods[id]!;
  }

  /** How many nogoods of more than one pair are kept. */
  get size(): number {
    return this.nogoods.length;
  }

  /**
   * Records that no solution pairs a with b. In a group of exactly four copies that
   * rules out one pairing: a with b and the other two with each other.
   */
  forbid(a: number, b: number): void {
    this.forbidden[this.key(a, b)] = 1;
    const g = this.groupOf[a]!;
    const from = this.memberAt[g]!;
    if (this.memberAt[g + 1]! - from !== 4) return;
    // Indices in the group: a, b, and the other two, c and d (no allocation: the probe calls this often).
    let ia = -1;
    let ib = -1;
    let ic = -1;
    let id = -1;
    for (let k = 0; k < 4; k++) {
      const t = this.members[from + k];
      if (t === a) ia = k;
      else if (t === b) ib = k;
      else if (ic < 0) ic = k;
      else id = k;
    }
    const c = this.members[from + ic]!;
    const d = this.members[from + id]!;
    this.ban[a]! |= 1 << ib;
    this.ban[b]! |= 1 << ia;
    this.ban[c]! |= 1 << id;
    this.ban[d]! |= 1 << ic;
    this.restricted[g] = 1;
    this.bans++;
  }

  /**
   * Learns that no solution has all of `pairs` (a0 b0 a1 b1 …, the deepest decision's
   * pair last). One pair, or both pairs of a group of four, is a forbidden pairing;
   * longer ones are kept (up to MAX_NOGOODS) and watched by their last pair, the first
   * to be undone. `partner` holds the commitments in force.
   */
  learn(pairs: readonly number[], partner: Int32Array): void {
    if (pairs.length === 0) return;
    const g = this.groupOf[pairs[0]!]!;
    const whole =
      pairs.length === 4 && this.groupOf[pairs[2]!] === g && this.memberAt[g + 1]! - this.memberAt[g]! === 4;
    if (pairs.length === 2 || whole) {
      this.forbid(pairs[0]!, pairs[1]!);
      return;
    }
    if (this.nogoods.length >= MAX_NOGOODS) return;
    const id = this.nogoods.push(Int32Array.from(pairs)) - 1;
    let miss = 0;
    for (let p = 0; p < pairs.length; p += 2) {
      this.listIn(this.containing, this.key(pairs[p]!, pairs[p + 1]!), id);
      if (partner[pairs[p]!] !== pairs[p + 1]!) miss++;
    }
    this.miss.push(miss);
    this.nearAt.push(-1);
    if (miss <= 2) {
      this.nearAt[id] = this.near.length;
      this.near.push(id);
    }
    this.watch(this.key(pairs[pairs.length - 2]!, pairs[pairs.length - 1]!), id);
  }

  private watch(key: number, id: number): void {
    this.listIn(this.watchers, key, id);
  }

  /** Adds `id` to the list of `key` in `lists`. */
  private listIn(lists: (number[] | undefined)[], key: number, id: number): void {
    const ids = lists[key];
    if (ids) ids.push(id);
    else {
      lists[key] = [id];
      this.listed.push(key);
    }
  }

  /**
   * The pair (a, b) was just committed (with the commitments in force in `partner`): is
   * it forbidden (FORBIDDEN), or does it break a nogood (its id)? Else INTACT. Moves the
   * watches of the nogoods it leaves intact.
   */
  brokenBy(a: number, b: number, partner: Int32Array): number {
    const key = this.key(a, b);
    if (this.forbidden[key] === 1) return FORBIDDEN;
    const ids = this.watchers[key];
    if (!ids) return INTACT;
    for (let i = 0; i < ids.length;) {
      const id = ids[i]!;
      const pairs = this.nogoods[id]!;
      let next = -1;
      for (let p = 0; p < pairs.length && next < 0; p += 2) if (partner[pairs[p]!] !== pairs[p + 1]!) next = p;
      if (next < 0) return id;
      ids[i] = ids[ids.length - 1]!;
      ids.pop();
      this.watch(this.key(pairs[next]!, pairs[next + 1]!), id);
    }
    return INTACT;
  }

  /** Commits (delta −1) or releases (+1) the pair (a, b) in the nogoods' counts of uncommitted pairs. */
  tally(a: number, b: number, delta: number): void {
    const ids = this.containing[this.key(a, b)];
    if (!ids) return;
    const { miss, near, nearAt } = this;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      const m = (miss[id]! += delta);
      if (delta < 0 && m === 2) {
        nearAt[id] = near.length;
        near.push(id);
      } else if (delta > 0 && m === 3) {
        const at = nearAt[id]!;
        const last = near.pop()!;
        if (last !== id) {
          near[at] = last;
          nearAt[last] = at;
        }
        nearAt[id] = -1;
      }
    }
  }

  /**
   * `playBan` and `playRestricted` for an optimistic play under `partner` (the
   * commitments in force or a subset of them): the forbidden pairings, plus each
   * pairing of a group of four uncommitted copies that a learnt nogood rules out given
   * `partner`. False when `partner` breaks a nogood or leaves some group no pairing.
   */
  restrictPlay(partner: Int32Array): boolean {
    const { playBan, playRestricted, members, memberAt, groupOf, near } = this;
    playBan.set(this.ban);
    playRestricted.set(this.restricted);
    for (let i = 0; i < near.length; i++) {
      const pairs = this.nogoods[near[i]!]!;
      let a = -1;
      let x = -1;
      let y = -1;
      let z = -1;
      let open = 0;
      for (let p = 0; p < pairs.length && open <= 2; p += 2) {
        const s = pairs[p]!;
        const t = pairs[p + 1]!;
        if (partner[s] === t) continue;
        if (open++ === 0) {
          a = s;
          x = t;
        } else {
          y = s;
          z = t;
        }
      }
      if (open > 2) continue;
      if (open === 0) return false;
      const g = groupOf[a]!;
      const from = memberAt[g]!;
      if (memberAt[g + 1]! - from !== 4 || groupOf[x] !== g) continue;
      if (open === 2 && (groupOf[y] !== g || groupOf[z] !== g)) continue;
      let free = true;
      for (let k = from; k < from + 4 && free; k++) free = partner[members[k]!]! < 0;
      if (!free) continue;
      let ia = 0;
      let ix = 0;
      for (let k = 0; k < 4; k++) {
        const m = members[from + k]!;
        if (m === a) ia = k;
        else if (m === x) ix = k;
      }
      let iy = 0;
      while (iy === ia || iy === ix) iy++;
      const iz = 6 - ia - ix - iy;
      if (open === 2 && members[from + iy] !== y && members[from + iz] !== y) continue;
      playBan[a]! |= 1 << ix;
      playBan[x]! |= 1 << ia;
      playBan[members[from + iy]!]! |= 1 << iz;
      playBan[members[from + iz]!]! |= 1 << iy;
      playRestricted[g] = 1;
      if ((playBan[members[from]!]! & 14) === 14) return false; // no pairing left
    }
    return true;
  }
}
