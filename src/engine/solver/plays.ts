/**
 * The plays, a node each: the optimistic play (its failure proves the commitments dead), greedy play (a clear
 * board is a solution) and the probe plays (docs/engine.md, "The plays").
 */
import type { Pair } from '../types.ts';
import type { Budget } from './budget.ts';
import type { Nogoods } from './nogoods.ts';
import type { Neighbours } from './playouts.ts';
import type { HeldBack, PlayState, Start, Stranded, Workspace } from './workspace.ts';

/** The arrays of a walk's board, kept and put back by the probe plays. */
type WalkBoard = Pick<HeldBack, 'present' | 'blockers' | 'reached' | 'freeOrGone'>;

function copyBoard(from: WalkBoard, to: WalkBoard): void {
  to.present.set(from.present);
  to.blockers.set(from.blockers);
  to.reached.set(from.reached);
  to.freeOrGone.set(from.freeOrGone);
}

export class Plays {
  private readonly n: number;
  private readonly nbr: Neighbours;
  readonly isFree: Uint8Array; // per blockers number: 1 if such a tile is free, were it present
  private readonly groupCount: number;
  private readonly groupOf: Int32Array;
  private readonly memberAt: Int32Array;
  private readonly members: Int32Array;

  // The scratch board: presence, and every tile's blockers as one number (the playouts' Neighbours).
  readonly present: Uint8Array;
  private readonly blockers: Int32Array;
  private readonly stack: Int32Array;

  // The optimistic play.
  private readonly reached: Uint8Array;
  private readonly freeOrGone: Int32Array;
  readonly leftAt: Int32Array; // per tile: when it left, in waves of tiles freed
  private held = 0; // walk: the held-back group's copies seen free, by rank

  // The probe plays.
  private readonly rank: Int32Array;
  private readonly heldBack: HeldBack;
  private readonly board: WalkBoard;
  private heldGroup = -1;

  // Greedy play; read by the search where it stopped.
  readonly counted: Uint8Array;
  readonly freeUncommitted: Int32Array;
  readonly uncommittedLeft: Int32Array;
  private readonly mate: Int32Array; // the commitments plus greedy play's pairs
  private readonly moves: Int32Array;
  private movesLength = 0;

  readonly states: PlayState[];
  readonly stranded: Stranded;
  private readonly resumed: Int32Array; // per group: `resumeStamp` when a resumed play has set it up
  private resumeStamp = 0;
  private remaining = 0;
  failedEarly = false;

  constructor(
    work: Workspace,
    start: Start,
    private readonly budget: Budget,
    private readonly nogoods: Nogoods,
  ) {
    this.n = start.n;
    this.nbr = work.neighbours;
    this.isFree = work.neighbours.free;
    this.groupCount = start.groupCount;
    this.groupOf = start.groupOf;
    this.memberAt = start.memberAt;
    this.members = start.members;
    this.rank = start.rank;
    this.heldBack = work.heldBack;
    const { present, blockers, reached, freeOrGone } = work;
    this.board = { present, blockers, reached, freeOrGone };
    this.present = work.present;
    this.blockers = work.blockers;
    this.stack = work.stack;
    this.reached = work.reached;
    this.freeOrGone = work.freeOrGone;
    this.leftAt = work.leftAt.fill(0);
    this.counted = work.counted;
    this.freeUncommitted = work.freeUncommitted;
    this.uncommittedLeft = work.uncommittedLeft;
    this.mate = work.mate;
    this.moves = work.moves;
    this.states = work.states;
    this.stranded = work.stranded;
    this.resumed = work.resumed.fill(0);

    const root = this.stateAt(0);
    root.present.set(start.present);
    root.blockers.set(start.blockers);
    root.mate.fill(-1);
    root.remaining = start.count;
    root.played = 0;
  }

  /** Play state `slot`, allocated on first use. */
  private stateAt(slot: number): PlayState {
    const n = this.n;
    while (this.states.length <= slot)
      this.states.push({
        present: new Uint8Array(n),
        blockers: new Int32Array(n),
        mate: new Int32Array(n).fill(-1),
        remaining: 0,
        played: 0,
      });
    return this.states[slot]!;
  }

  /** Greedy play's state 1 becomes the root state 0. */
  adoptRoot(): void {
    const [zero, one] = [this.states[0]!, this.states[1]!];
    this.states[0] = one;
    this.states[1] = zero;
  }

  private freeNow(t: number): boolean {
    return this.isFree[this.blockers[t]!] === 1;
  }

  /** Loads a play state and pushes its free tiles; with `partner`, uncommitted copies gone count as gone. */
  private load(state: PlayState, partner: Int32Array | null = null): number {
    this.present.set(state.present);
    this.blockers.set(state.blockers);
    this.remaining = state.remaining;
    const { present, blockers, isFree, stack, reached, freeOrGone, groupOf } = this;
    if (partner) {
      reached.fill(0);
      freeOrGone.fill(0);
    }
    let top = 0;
    for (let i = 0; i < this.n; i++) {
      if (present[i]) {
        if (isFree[blockers[i]!] === 1) stack[top++] = i;
      } else if (partner && groupOf[i]! >= 0 && partner[i]! < 0) {
        freeOrGone[groupOf[i]!]!++;
        reached[i] = 1;
      }
    }
    return top;
  }

  /** Removes tile r and pushes the tiles it frees (free now, not before), in the lists' order. */
  private remove(r: number, top: number): number {
    const { stack, present, blockers, isFree } = this;
    const { at, link } = this.nbr;
    present[r] = 0;
    for (let e = at[r]!, end = at[r + 1]!; e < end; e++) {
      const l = link[e]!;
      const j = l >> 8;
      const v = (blockers[j]! -= l & 255);
      if (isFree[v] === 1 && isFree[v + (l & 255)] === 0 && present[j]) stack[top++] = j;
    }
    return top;
  }

  /**
   * The optimistic play under `partner` from play state `slot`: true when it clears; else `present` is
   * stranded.
   */
  optimistic(partner: Int32Array, slot: number): boolean {
    return this.optimisticFrom(partner, this.states[slot]!);
  }

  keepStranded(): void {
    const to = this.stranded;
    to.present.set(this.present);
    to.blockers.set(this.blockers);
    to.remaining = this.remaining;
    to.reached.set(this.reached);
    to.freeOrGone.set(this.freeOrGone);
    to.walked = !this.failedEarly;
  }

  /**
   * The optimistic play under a subset of the stranding play's commitments, resumed from the stranded board.
   * When the stranding play walked, its walk ended where no copy could leave, and only copies of `groups` (repeats
   * allowed) can have a new way to leave under `partner`: the groups it commits otherwise, and those whose bans it
   * lifts. So the walk starts from their free copies alone, with what the stranding walk reached kept for every
   * other group, and ends where a walk from the whole board would (where a walk ends does not depend on the order
   * tiles leave in).
   */
  optimisticFromStranded(partner: Int32Array, groups: readonly number[]): boolean {
    const from = this.stranded;
    if (!from.walked) return this.optimisticFrom(partner, from);
    this.budget.spend();
    const { present, blockers, reached, freeOrGone, isFree, stack, members, memberAt, resumed } = this;
    present.set(from.present);
    blockers.set(from.blockers);
    reached.set(from.reached);
    freeOrGone.set(from.freeOrGone);
    this.remaining = from.remaining;
    const stamp = ++this.resumeStamp;
    let top = 0;
    for (let k = 0; k < groups.length; k++) {
      const g = groups[k]!;
      if (resumed[g] === stamp) continue;
      resumed[g] = stamp;
      // As `load` sets a group up, its free copies to be walked again.
      let gone = 0;
      for (let m = memberAt[g]!; m < memberAt[g + 1]!; m++) {
        const t = members[m]!;
        reached[t] = 0;
        if (present[t]) {
          if (isFree[blockers[t]!] === 1) stack[top++] = t;
        } else if (partner[t]! < 0) {
          reached[t] = 1;
          gone++;
        }
      }
      freeOrGone[g] = gone;
    }
    return this.restrictAndWalk(partner, top);
  }

  private optimisticFrom(partner: Int32Array, from: PlayState): boolean {
    this.budget.spend();
    return this.restrictAndWalk(partner, this.load(from, partner));
  }

  /** The optimistic play's restrictions under `partner`, then its walk from the `top` tiles stacked: does it clear? */
  private restrictAndWalk(partner: Int32Array, top: number): boolean {
    this.failedEarly = !this.nogoods.restrictPlay(partner);
    if (this.failedEarly) return false;
    this.remaining -= this.walk(partner, top, -1, 0);
    return this.remaining === 0;
  }

  /**
   * The optimistic play's walk: the tiles it removes. Copies of group `hold` never leave; once those in
   * `want`
   * were seen free it stops, returning -1.
   */
  private walk(partner: Int32Array, top: number, hold: number, want: number): number {
    const { present, reached, freeOrGone, stack, groupOf, members, memberAt, leftAt, rank } = this;
    const { playBan: ban, playRestricted: restricted } = this.nogoods;
    let removed = 0;
    let clock = 0;
    let held = this.held;
    // First in, first out: `leftAt` follows waves of tiles freed.
    for (let head = 0; head < top;) {
      const t = stack[head++]!;
      if (!present[t] || !this.freeNow(t)) continue;
      const g = groupOf[t]!;
      if (g === hold) {
        held |= 1 << rank[t]!;
        if ((held & want) !== want) continue;
        this.held = held;
        return -1;
      }
      const p = partner[t]!;
      if (!reached[t]) {
        reached[t] = 1;
        if (p < 0 && (++freeOrGone[g]! === 2 || restricted[g]))
          for (let k = memberAt[g]!; k < memberAt[g + 1]!; k++) if (members[k] !== t) stack[top++] = members[k]!;
      }
      if (p < 0) {
        if (freeOrGone[g]! < 2) continue;
        if (restricted[g]) {
          let mate = false;
          for (let k = memberAt[g]!; k < memberAt[g + 1]! && !mate; k++) {
            const u = members[k]!;
            mate = u !== t && reached[u] === 1 && partner[u]! < 0 && (ban[t]! & (1 << (k - memberAt[g]!))) === 0;
          }
          if (!mate) continue;
        }
        leftAt[t] = clock++;
        removed++;
        top = this.remove(t, top);
      } else if (present[p] && this.freeNow(p)) {
        leftAt[t] = leftAt[p] = clock++;
        removed += 2;
        top = this.remove(t, top);
        top = this.remove(p, top);
      }
    }
    this.held = held;
    return removed;
  }

  /**
   * Does the optimistic play from state 0, with a's group of four paired a–x and the other two, remove all
   * four?
   * One walk with the group held back serves all three pairings; call `startProbe` per group.
   */
  probePairing(partner: Int32Array, a: number, x: number): boolean {
    this.budget.spend();
    const nogoods = this.nogoods;
    this.failedEarly = !nogoods.restrictPlay(partner);
    if (this.failedEarly) return false;
    const g = this.groupOf[a]!;
    const kept = this.heldBack;
    if (this.heldGroup !== g || !this.sameRestrictions(g)) {
      this.heldGroup = g;
      kept.ban.set(nogoods.playBan);
      kept.restricted.set(nogoods.playRestricted);
      const top = this.load(this.states[0]!, partner);
      this.held = 0;
      this.walk(partner, top, g, 15);
      kept.held = this.held;
      if (kept.held !== 15) copyBoard(this.board, kept);
    }
    const pair = (1 << this.rank[a]!) | (1 << this.rank[x]!);
    const other = 15 ^ pair;
    const pairFree = (kept.held & pair) === pair;
    const otherFree = (kept.held & other) === other;
    if (pairFree === otherFree) return pairFree;
    const [first, last] = pairFree ? [pair, other] : [other, pair];
    copyBoard(kept, this.board);
    let top = 0;
    for (let k = this.memberAt[g]!; k < this.memberAt[g + 1]!; k++) {
      const m = this.members[k]!;
      if (first & (1 << this.rank[m]!)) top = this.remove(m, top);
    }
    this.held = kept.held & last;
    return this.walk(partner, top, g, last) < 0;
  }

  startProbe(): void {
    this.heldGroup = -1;
  }

  /** Are the last `restrictPlay`'s restrictions the kept walk's, but on group g? */
  private sameRestrictions(g: number): boolean {
    const { playBan, playRestricted } = this.nogoods;
    const kept = this.heldBack;
    for (let i = 0; i < this.n; i++) if (playBan[i] !== kept.ban[i] && this.groupOf[i] !== g) return false;
    for (let h = 0; h < this.groupCount; h++) if (playRestricted[h] !== kept.restricted[h] && h !== g) return false;
    return true;
  }

  /**
   * Greedy play under `partner` from play state `slot`, saved as state `slot + 1`: true when it clears the
   * board.
   */
  greedy(partner: Int32Array, slot: number): boolean {
    this.budget.spend();
    const from = this.states[slot]!;
    let top = this.load(from);
    const { present, counted, freeUncommitted, uncommittedLeft, stack, groupOf, members, memberAt, mate, moves } = this;
    counted.fill(0);
    mate.set(from.mate);
    for (let i = 0; i < this.n; i++) if (partner[i]! >= 0) mate[i] = partner[i]!;
    freeUncommitted.fill(0);
    uncommittedLeft.fill(0);
    for (let i = 0; i < this.n; i++) if (present[i] && mate[i]! < 0) uncommittedLeft[groupOf[i]!]!++;
    let left = from.remaining;
    let played = from.played;
    while (top > 0) {
      const t = stack[--top]!;
      if (!present[t] || !this.freeNow(t)) continue;
      const g = groupOf[t]!;
      if (!counted[t] && mate[t]! < 0) {
        counted[t] = 1;
        if (++freeUncommitted[g]! === uncommittedLeft[g]) {
          // Every uncommitted copy is free: pair them in slot order.
          let first = -1;
          for (let k = memberAt[g]!; k < memberAt[g + 1]!; k++) {
            const m = members[k]!;
            if (!present[m] || mate[m]! >= 0) continue;
            if (first < 0) first = m;
            else {
              mate[first] = m;
              mate[m] = first;
              stack[top++] = first;
              first = -1;
            }
          }
          freeUncommitted[g] = uncommittedLeft[g] = 0;
        }
      }
      const p = mate[t]!;
      if (p >= 0 && present[p] && this.freeNow(p)) {
        moves[played++] = t;
        moves[played++] = p;
        top = this.remove(t, top);
        top = this.remove(p, top);
        left -= 2;
      }
    }
    this.movesLength = played;
    const to = this.stateAt(slot + 1);
    to.present.set(present);
    to.blockers.set(this.blockers);
    to.mate.set(mate);
    to.remaining = left;
    to.played = played;
    return left === 0;
  }

  solution(): Pair[] {
    const out: Pair[] = [];
    for (let k = 0; k < this.movesLength; k += 2) out.push([this.moves[k]!, this.moves[k + 1]!]);
    return out;
  }
}
