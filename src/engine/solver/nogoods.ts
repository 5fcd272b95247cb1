/**
 * Nogoods: sets of pairs that no solution has all of, learnt from the search's dead ends.
 *
 * Implementation notes. A pair (a, b) of one group, a < b, is named by a key, a·L + the
 * index of b in its group (L: the largest group's size), so that per-pair facts live in
 * arrays indexed by key, kept in the workspace (lists are cleared per solve where they
 * were set). A pair of a group of four stands for the whole pairing it belongs to (the
 * other two copies pair with each other), so a nogood names such a pairing once, by the
 * pair of the group's first copy: its *literal*. A nogood of one literal is a
 * *forbidden* pairing, kept as a flag on both of its pairs and, in a group of four, as
 * `ban` bits per copy, so that the optimistic play can let a copy go only with a copy it
 * may still pair with.
 *
 * Under the commitments in force a literal is *true* (the pair is committed), *false*
 * (one of its tiles is committed to another tile) or open. Longer nogoods are kept as
 * lists of literals, each *watched* by two literals that are not true, as SAT solvers
 * watch the literals of a clause: only when a watched literal becomes true (a decision
 * commits it) is the nogood looked at, and then it moves that watch to another literal
 * that is not true, or it has at most one literal left that is not true: it is *near*.
 * A near nogood whose last literal is open rules that pairing out (a unit propagation);
 * one with every literal true is broken. Near nogoods are listed per decision level
 * that made them near and leave the list when that decision is undone; watches never
 * need to move back.
 *
 * The optimistic play obeys the nogoods: before a play under some commitments,
 * `restrictPlay` bans each pairing of a group of four uncommitted copies that a near
 * nogood rules out given those commitments. Nogoods hold in every solution, so the play
 * stays optimistic, and fewer commitments never ban more (the plays that explain a
 * conflict run under a subset of the commitments in force, whose near nogoods are a
 * subset of those listed).
 */
import type { Start, Workspace } from './workspace.ts';

const MAX_NOGOODS = 100_000; // nogoods kept per solve: a bound on memory

/** What a commitment found (`assign`). */
export const INTACT = -2; // no nogood broken
export const FORBIDDEN = -1; // the pair itself is forbidden
// (a number ≥ 0: the id of the nogood broken)

const BASE = -1; // the "level" of near nogoods that stay near for the rest of the solve

export class Nogoods {
  private readonly width: number; // L: keys are a·L + the index of b in its group
  private readonly groupOf: Int32Array;
  private readonly memberAt: Int32Array;
  private readonly members: Int32Array;
  private readonly rank: Int32Array; // per tile, its index in its group
  private readonly levelOf: Int32Array; // per tile, the decision level that paired it (commitments.ts); -1: none or the base
  private readonly inForce: Int32Array; // the commitments in force (commitments.ts's `partner`)
  private readonly nogoods: Int32Array[] = []; // per id, its literals a0 b0 a1 b1 …; the first two are watched
  private readonly forbidden: Uint8Array; // per pair key: no solution has the pair (a nogood of one literal)
  private readonly watchers: (number[] | undefined)[]; // per pair key: ids of the nogoods watching it
  private readonly listed: number[]; // keys whose lists are set, to clear for the next solve
  // Near nogoods: at most one literal not true under the commitments in force, kept first in its list.
  private readonly near: number[] = [];
  private readonly nearAt: number[] = []; // per nogood: its index in `near`, or -1
  private readonly nearBy: number[][]; // per decision level: the nogoods it made near
  private readonly nearForGood: number[] = []; // near for the rest of the solve (by the base alone)
  // For groups of exactly four copies with a forbidden pairing: per copy, a bit per group member (by its index in
  // the group) it can never pair with.
  readonly ban: Int32Array;
  readonly restricted: Uint8Array; // per group: has a forbidden pairing
  // What the optimistic play obeys (restrictPlay): `ban` and `restricted` plus the pairings a nogood rules out
  // under the commitments it plays.
  readonly playBan: Int32Array;
  readonly playRestricted: Uint8Array;
  // Per group g and index j of a member: playBanBy[4g + j], the near nogood that banned the pairing of the group's
  // first copy with member j in the last restrictPlay (read only where playBan has the bit and `ban` has not).
  readonly playBanBy: Int32Array;
  bans = 0; // changes to `ban` so far (a playout's start depends on them)
  private playBanned = -1; // `bans` when playBan and playRestricted were set to `ban` and `restricted` alone; -1: not so
  private readonly lit = [0, 0]; // scratch: a literal
  private readonly work: Workspace;

  constructor(work: Workspace, start: Start) {
    this.width = start.largest;
    this.groupOf = start.groupOf;
    this.memberAt = start.memberAt;
    this.members = start.members;
    this.rank = start.rank;
    this.levelOf = work.levelOf;
    this.inForce = work.partner;
    const keys = start.n * start.largest;
    if (work.forbidden.length < keys) {
      work.forbidden = new Uint8Array(keys);
      work.watchers = new Array<number[] | undefined>(keys);
    } else work.forbidden.fill(0, 0, keys);
    for (const key of work.listed) work.watchers[key] = undefined;
    work.listed.length = 0;
    for (let l = 0; l < work.nearLevels; l++) work.nearBy[l]!.length = 0;
    work.nearLevels = 0;
    this.work = work;
    this.forbidden = work.forbidden;
    this.watchers = work.watchers;
    this.listed = work.listed;
    this.nearBy = work.nearBy;
    this.ban = work.ban.fill(0);
    this.restricted = work.restricted.fill(0);
    this.playBan = work.playBan;
    this.playRestricted = work.playRestricted;
    this.playBanBy = work.playBanBy;
  }

  /** The key of the pair (a, b) of one group, whichever comes first. */
  key(a: number, b: number): number {
    return a < b ? a * this.width + this.rank[b]! : b * this.width + this.rank[a]!;
  }

  isForbidden(a: number, b: number): boolean {
    return this.forbidden[this.key(a, b)] === 1;
  }

  /** The literals of nogood `id`: a0 b0 a1 b1 … */
  pairsOf(id: number): Int32Array {
    return this.nogoods[id]!;
  }

  /** How many nogoods of more than one literal are kept. */
  get size(): number {
    return this.nogoods.length;
  }

  /** The group of four's copies other than `a` and `b`, as indices in the group: c + 4·d. */
  private others(g: number, a: number, b: number): number {
    const from = this.memberAt[g]!;
    let c = -1;
    let d = -1;
    for (let k = 0; k < 4; k++) {
      const t = this.members[from + k]!;
      if (t === a || t === b) continue;
      if (c < 0) c = k;
      else d = k;
    }
    return c + 4 * d;
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
    const cd = this.others(g, a, b);
    const c = this.members[from + (cd & 3)]!;
    const d = this.members[from + (cd >> 2)]!;
    this.forbidden[this.key(c, d)] = 1;
    const ia = this.rank[a]!;
    const ib = this.rank[b]!;
    this.ban[a]! |= 1 << ib;
    this.ban[b]! |= 1 << ia;
    this.ban[c]! |= 1 << (cd >> 2);
    this.ban[d]! |= 1 << (cd & 3);
    this.restricted[g] = 1;
    this.bans++;
  }

  /**
   * The literal of the pair (a, b), written into `out` at `at` (smaller tile first): in a group of four, the
   * pair of its pairing that holds the group's first copy; else the pair itself.
   */
  private literal(a: number, b: number, out: number[], at: number): void {
    const g = this.groupOf[a]!;
    const from = this.memberAt[g]!;
    if (this.memberAt[g + 1]! - from === 4) {
      const first = this.members[from]!;
      if (a !== first && b !== first) {
        const cd = this.others(g, a, b);
        a = first;
        b = this.members[from + ((cd & 3) === 0 ? cd >> 2 : cd & 3)]!;
      }
    }
    out[at] = a < b ? a : b;
    out[at + 1] = a < b ? b : a;
  }

  /** Is the pair (a, b) committed (true), is one of its tiles committed to another (false), or neither (open)? */
  private isTrue(a: number, b: number, partner: Int32Array): boolean {
    return partner[a] === b;
  }

  /**
   * Learns that no solution has all of `pairs` (a0 b0 a1 b1 …, pairs of the decisions of a conflict, in the order
   * of their levels). One literal is a forbidden pairing; longer nogoods are kept (up to MAX_NOGOODS), watched by
   * the literals that are not true under the commitments in force, else by the deepest ones (the first to be
   * undone); near at once when at most one literal is not true.
   */
  learn(pairs: readonly number[]): void {
    if (pairs.length === 0) return;
    const lits: number[] = [];
    for (let p = 0; p < pairs.length; p += 2) {
      this.literal(pairs[p]!, pairs[p + 1]!, lits, lits.length);
      const n = lits.length;
      for (let q = 0; q < n - 2; q += 2)
        if (lits[q] === lits[n - 2] && lits[q + 1] === lits[n - 1]) {
          lits.length -= 2; // both pairs of one pairing: one literal
          break;
        }
    }
    if (lits.length === 2) {
      this.forbid(lits[0]!, lits[1]!);
      return;
    }
    if (this.nogoods.length >= MAX_NOGOODS) return;
    // The two to watch first: literals not true before true ones, then the deeper level first.
    const partner = this.inForce;
    const rankOf = (p: number): number =>
      this.isTrue(lits[p]!, lits[p + 1]!, partner) ? this.levelOf[lits[p]!]! : 1 << 30;
    for (let w = 0; w < 4; w += 2) {
      let best = w;
      for (let p = w + 2; p < lits.length; p += 2) if (rankOf(p) > rankOf(best)) best = p;
      const [s, t] = [lits[best]!, lits[best + 1]!];
      lits[best] = lits[w]!;
      lits[best + 1] = lits[w + 1]!;
      lits[w] = s;
      lits[w + 1] = t;
    }
    const id = this.nogoods.push(Int32Array.from(lits)) - 1;
    this.nearAt.push(-1);
    this.attach(id);
  }

  /** Watches nogood `id` by its first two literals and lists it as near when the second is true. */
  private attach(id: number): void {
    const lits = this.nogoods[id]!;
    this.watch(this.key(lits[0]!, lits[1]!), id);
    this.watch(this.key(lits[2]!, lits[3]!), id);
    if (this.isTrue(lits[2]!, lits[3]!, this.inForce)) this.makeNear(id, this.levelOf[lits[2]!]!);
  }

  private watch(key: number, id: number): void {
    const ids = this.watchers[key];
    if (ids) ids.push(id);
    else {
      this.watchers[key] = [id];
      this.listed.push(key);
    }
  }

  /** Lists nogood `id` as near until decision `level` is undone (BASE: for good). */
  private makeNear(id: number, level: number): void {
    if (this.nearAt[id]! >= 0) return;
    this.nearAt[id] = this.near.length;
    this.near.push(id);
    if (level === BASE) this.nearForGood.push(id);
    else {
      this.nearBy[level]!.push(id);
      if (level >= this.work.nearLevels) this.work.nearLevels = level + 1;
    }
  }

  /**
   * Decision `level` committed the pair (a, b) (already in the commitments in force): is it forbidden
   * (FORBIDDEN), or does it break a nogood (its id)? Else INTACT. Moves the watches of the nogoods that watch
   * its literal, and lists those it makes near.
   */
  assign(a: number, b: number, level: number): number {
    const lit = this.lit;
    this.literal(a, b, lit, 0);
    const key = this.key(lit[0]!, lit[1]!);
    let found = this.forbidden[key] === 1 ? FORBIDDEN : INTACT;
    const ids = this.watchers[key];
    if (!ids) return found;
    const partner = this.inForce;
    const [s, t] = [lit[0]!, lit[1]!];
    for (let i = 0; i < ids.length;) {
      const id = ids[i]!;
      const lits = this.nogoods[id]!;
      const w = lits[0] === s && lits[1] === t ? 0 : 2; // the watch that became true
      let next = -1;
      for (let p = 4; p < lits.length && next < 0; p += 2) if (partner[lits[p]!] !== lits[p + 1]!) next = p;
      if (next >= 0) {
        lits[w] = lits[next]!;
        lits[w + 1] = lits[next + 1]!;
        lits[next] = s;
        lits[next + 1] = t;
        ids[i] = ids[ids.length - 1]!;
        ids.pop();
        this.watch(this.key(lits[w]!, lits[w + 1]!), id);
        continue;
      }
      // Every literal but the other watch is true: near. First in its list goes the other watch when it is not true,
      // else this one (broken: the deepest, the first to be undone).
      const otherTrue = partner[lits[2 - w]!] === lits[3 - w]!;
      if ((w === 0) !== otherTrue) {
        lits[w] = lits[2 - w]!;
        lits[w + 1] = lits[3 - w]!;
        lits[2 - w] = s;
        lits[3 - w] = t;
      }
      this.makeNear(id, level);
      if (found === INTACT && partner[lits[0]!] === lits[1]!) found = id;
      i++;
    }
    return found;
  }

  /** Decision `level` is undone: the nogoods it made near are near no more. */
  release(level: number): void {
    const list = this.nearBy[level]!;
    const { near, nearAt } = this;
    for (let i = 0; i < list.length; i++) {
      const id = list[i]!;
      const at = nearAt[id]!;
      const last = near.pop()!;
      if (last !== id) {
        near[at] = last;
        nearAt[last] = at;
      }
      nearAt[id] = -1;
    }
    list.length = 0;
  }

  /** Decision 0 joins the base (commitments.keepRootDecision): what it made near stays near. */
  keepRoot(): void {
    const list = this.nearBy[0]!;
    for (const id of list) this.nearForGood.push(id);
    list.length = 0;
  }

  /**
   * `playBan` and `playRestricted` for an optimistic play under `partner` (the
   * commitments in force or a subset of them): the forbidden pairings, plus each
   * pairing of a group of four uncommitted copies that a near nogood rules out given
   * `partner`. False when `partner` breaks a nogood or leaves some group no pairing.
   */
  restrictPlay(partner: Int32Array): boolean {
    const { playBan, playRestricted, members, memberAt, groupOf, near, rank } = this;
    if (this.playBanned !== this.bans) {
      playBan.set(this.ban);
      playRestricted.set(this.restricted);
      this.playBanned = this.bans;
    }
    const all = partner === this.inForce; // every literal of a near nogood but its first is true
    for (let i = 0; i < near.length; i++) {
      const lits = this.nogoods[near[i]!]!;
      if (!all) {
        let p = 2;
        while (p < lits.length && partner[lits[p]!] === lits[p + 1]!) p += 2;
        if (p < lits.length) continue;
      }
      const a = lits[0]!;
      const x = lits[1]!;
      if (partner[a] === x) return false; // every literal true: broken
      if (partner[a]! >= 0 || partner[x]! >= 0) continue; // false: the nogood holds
      const g = groupOf[a]!;
      const from = memberAt[g]!;
      if (memberAt[g + 1]! - from !== 4) continue;
      // a is the group's first copy (see literal) and the group is uncommitted: ban a–x with the other two.
      const ix = rank[x]!;
      const yz = this.others(g, a, x);
      const iy = yz & 3;
      const iz = yz >> 2;
      this.playBanned = -1; // more than `ban`: set afresh next time
      if ((playBan[a]! & (1 << ix)) === 0) this.playBanBy[4 * g + ix] = near[i]!;
      playBan[a]! |= 1 << ix;
      playBan[x]! |= 1;
      playBan[members[from + iy]!]! |= 1 << iz;
      playBan[members[from + iz]!]! |= 1 << iy;
      playRestricted[g] = 1;
      if ((playBan[a]! & 14) === 14) return false; // no pairing left
    }
    return true;
  }
}
