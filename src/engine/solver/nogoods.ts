/**
 * Nogoods: sets of pairs no solution has all of, learnt from dead ends, watched by two literals as in SAT
 * solvers (docs/engine.md, "Nogoods").
 */
import type { Start, Workspace } from './workspace.ts';

const MAX_NOGOODS = 100_000; // nogoods kept per solve: a bound on memory

/** What a commitment found (`assign`): INTACT, FORBIDDEN or the broken nogood's id. */
export const INTACT = -2;
export const FORBIDDEN = -1;

const BASE = -1; // level of nogoods near for good
const NO_LITERALS = new Int32Array(0); // until the first nogood: most solves learn none

export class Nogoods {
  private readonly width: number; // keys are a·width + the index of b in its group
  private readonly groupOf: Int32Array;
  private readonly memberAt: Int32Array;
  private readonly members: Int32Array;
  private readonly rank: Int32Array;
  private readonly levelOf: Int32Array;
  private readonly inForce: Int32Array;
  // Every nogood's literals a0 b0 a1 b1 … in one array, the first two watched: nogood id's are
  // lits[from[id] … from[id + 1]). One array, not one per nogood, so that reading a nogood is one memory access.
  private lits = NO_LITERALS;
  private readonly from: number[] = [0];
  private readonly forbidden: Uint8Array;
  private readonly watchers: (number[] | undefined)[];
  private readonly listed: number[];
  // Nogoods with at most one literal not true, that one first.
  private readonly near: number[] = [];
  private readonly nearAt: number[] = [];
  private readonly nearBy: number[][];
  private readonly nearForGood: number[] = [];
  // Groups of four: per copy, a bit per member (by rank) it can never pair with.
  readonly ban: Int32Array;
  readonly restricted: Uint8Array;
  // `ban` and `restricted` plus what near nogoods rule out, for the play (restrictPlay).
  readonly playBan: Int32Array;
  readonly playRestricted: Uint8Array;
  // playBanBy[4g + j]: the nogood that banned g's first copy with member j.
  readonly playBanBy: Int32Array;
  bans = 0; // changes to `ban` so far
  private playBanned = -1; // `bans` when playBan was set from `ban` alone; else -1
  private readonly lit = [0, 0];
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

  key(a: number, b: number): number {
    return a < b ? a * this.width + this.rank[b]! : b * this.width + this.rank[a]!;
  }

  isForbidden(a: number, b: number): boolean {
    return this.forbidden[this.key(a, b)] === 1;
  }

  /** Nogood id's literals: pool[start … end), with `pool` read after every `learn` (it may grow). */
  get pool(): Int32Array {
    return this.lits;
  }

  start(id: number): number {
    return this.from[id]!;
  }

  end(id: number): number {
    return this.from[id + 1]!;
  }

  get size(): number {
    return this.from.length - 1;
  }

  /** The other two copies of a group of four, by index: c + 4·d. */
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

  /** No solution pairs a with b (in a group of four: nor the other two together). */
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
   * The literal of (a, b) into `out` at `at`: in a group of four, its pairing's pair holding the first copy.
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

  private isTrue(a: number, b: number, partner: Int32Array): boolean {
    return partner[a] === b;
  }

  /**
   * Learns that no solution has all of `pairs` (a0 b0 a1 b1 …, by level): forbidden if one literal, else
   * watched.
   */
  learn(pairs: readonly number[]): void {
    if (pairs.length === 0) return;
    const lits: number[] = [];
    for (let p = 0; p < pairs.length; p += 2) {
      this.literal(pairs[p]!, pairs[p + 1]!, lits, lits.length);
      const n = lits.length;
      for (let q = 0; q < n - 2; q += 2)
        if (lits[q] === lits[n - 2] && lits[q + 1] === lits[n - 1]) {
          lits.length -= 2;
          break;
        }
    }
    if (lits.length === 2) {
      this.forbid(lits[0]!, lits[1]!);
      return;
    }
    if (this.size >= MAX_NOGOODS) return;
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
    const id = this.size;
    const at = this.from[id]!;
    if (at + lits.length > this.lits.length) {
      const grown = new Int32Array(Math.max(2 * this.lits.length, at + lits.length, 256));
      grown.set(this.lits);
      this.lits = grown;
    }
    this.lits.set(lits, at);
    this.from.push(at + lits.length);
    this.nearAt.push(-1);
    this.attach(id, at);
  }

  private attach(id: number, at: number): void {
    const lits = this.lits;
    this.watch(this.key(lits[at]!, lits[at + 1]!), id);
    this.watch(this.key(lits[at + 2]!, lits[at + 3]!), id);
    if (this.isTrue(lits[at + 2]!, lits[at + 3]!, this.inForce)) this.makeNear(id, this.levelOf[lits[at + 2]!]!);
  }

  private watch(key: number, id: number): void {
    const ids = this.watchers[key];
    if (ids) ids.push(id);
    else {
      this.watchers[key] = [id];
      this.listed.push(key);
    }
  }

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
   * Decision `level` committed (a, b): FORBIDDEN, a broken nogood's id, or INTACT. Moves the watches on its
   * literal.
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
    const { lits, from } = this;
    for (let i = 0; i < ids.length;) {
      const id = ids[i]!;
      const o = from[id]!;
      const end = from[id + 1]!;
      const w = o + (lits[o] === s && lits[o + 1] === t ? 0 : 2);
      const v = 2 * o + 2 - w; // the other watch
      let next = -1;
      for (let p = o + 4; p < end && next < 0; p += 2) if (partner[lits[p]!] !== lits[p + 1]!) next = p;
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
      // Near: the other watch first when not true, else this one (broken).
      const otherTrue = partner[lits[v]!] === lits[v + 1]!;
      if ((w === o) !== otherTrue) {
        lits[w] = lits[v]!;
        lits[w + 1] = lits[v + 1]!;
        lits[v] = s;
        lits[v + 1] = t;
      }
      this.makeNear(id, level);
      if (found === INTACT && partner[lits[o]!] === lits[o + 1]!) found = id;
      i++;
    }
    return found;
  }

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

  /** Decision 0 joins the base: what it made near stays near. */
  keepRoot(): void {
    const list = this.nearBy[0]!;
    for (const id of list) this.nearForGood.push(id);
    list.length = 0;
  }

  /**
   * Sets `playBan` and `playRestricted` for a play under `partner`; false when it breaks a nogood or leaves a
   * group no pairing.
   */
  restrictPlay(partner: Int32Array): boolean {
    const { playBan, playRestricted, members, memberAt, groupOf, near, rank } = this;
    if (this.playBanned !== this.bans) {
      playBan.set(this.ban);
      playRestricted.set(this.restricted);
      this.playBanned = this.bans;
    }
    const all = partner === this.inForce;
    const { lits, from: starts } = this;
    for (let i = 0; i < near.length; i++) {
      const o = starts[near[i]!]!;
      if (!all) {
        const end = starts[near[i]! + 1]!;
        let p = o + 2;
        while (p < end && partner[lits[p]!] === lits[p + 1]!) p += 2;
        if (p < end) continue;
      }
      const a = lits[o]!;
      const x = lits[o + 1]!;
      if (partner[a] === x) return false;
      if (partner[a]! >= 0 || partner[x]! >= 0) continue;
      const g = groupOf[a]!;
      const from = memberAt[g]!;
      if (memberAt[g + 1]! - from !== 4) continue;
      // a is the group's first copy: ban a–x with the other two.
      const ix = rank[x]!;
      const yz = this.others(g, a, x);
      const iy = yz & 3;
      const iz = yz >> 2;
      this.playBanned = -1;
      if ((playBan[a]! & (1 << ix)) === 0) this.playBanBy[4 * g + ix] = near[i]!;
      playBan[a]! |= 1 << ix;
      playBan[x]! |= 1;
      playBan[members[from + iy]!]! |= 1 << iz;
      playBan[members[from + iz]!]! |= 1 << iy;
      playRestricted[g] = 1;
      if ((playBan[a]! & 14) === 14) return false;
    }
    return true;
  }
}
