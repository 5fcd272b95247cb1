/**
 * The plays, one node each: the optimistic play (an uncommitted copy leaves once free and a copy it may still
 * pair
 * with is free or gone; its failure proves the commitments dead), greedy play (a group whose uncommitted
 * copies
 * are all free leaves whole; a clear board is a solution) and the probe plays. They run on a scratch board
 * loaded
 * from a play state (state l + 1: what greedy play left at level l) and walk a stack of maybe-free tiles, so
 * a
 * play costs about the tiles it removes. Why the shortcuts are sound: docs/engine.md, "The plays".
 */
import type { Flat } from '../flat.ts';
import type { Pair } from '../types.ts';
import type { Budget } from './budget.ts';
import type { Nogoods } from './nogoods.ts';
import type { HeldBack, PlayState, Start, Workspace } from './workspace.ts';

/** The arrays of a walk's board: what the probe plays keep (HeldBack) and put back. */
type WalkBoard = Pick<HeldBack, 'present' | 'above' | 'left' | 'right' | 'reached' | 'freeOrGone'>;

function copyBoard(from: WalkBoard, to: WalkBoard): void {
  to.present.set(from.present);
  to.above.set(from.above);
  to.left.set(from.left);
  to.right.set(from.right);
  to.reached.set(from.reached);
  to.freeOrGone.set(from.freeOrGone);
}

export class Plays {
  private readonly n: number;
  private readonly flat: Flat;
  private readonly groupCount: number;
  private readonly groupOf: Int32Array;
  private readonly memberAt: Int32Array;
  private readonly members: Int32Array;

  // The scratch board, loaded from a play state at the start of each play.
  readonly present: Uint8Array;
  private readonly above: Int32Array;
  private readonly left: Int32Array;
  private readonly right: Int32Array;
  private readonly stack: Int32Array; // tiles to look at

  // The optimistic play.
  private readonly reached: Uint8Array; // per tile: became free or left
  private readonly freeOrGone: Int32Array; // per group: uncommitted copies free or gone
  readonly leftAt: Int32Array; // per tile: when it left, in waves of tiles freed (for value ordering)
  private held = 0; // walk: the held-back group's copies seen free, a bit per rank

  // The probe plays: the board with one group held back, and the restrictions it was walked under.
  private readonly rank: Int32Array;
  private readonly heldBack: HeldBack;
  private readonly board: WalkBoard; // the scratch board's arrays a walk reads and writes
  private heldGroup = -1; // the group `heldBack` keeps; -1: none

  // Greedy play; read by the search where it stopped.
  readonly counted: Uint8Array; // per tile: counted as a free uncommitted copy
  readonly freeUncommitted: Int32Array; // per group: free uncommitted copies
  readonly uncommittedLeft: Int32Array; // per group: uncommitted copies on the board
  private readonly mate: Int32Array; // the commitments plus the pairs greedy play made
  private readonly moves: Int32Array; // tiles in removal order, two per move
  private movesLength = 0;

  readonly states: PlayState[];
  readonly stranded: PlayState; // what the last failed optimistic play left (keepStranded)
  private remaining = 0; // tiles on the scratch board after the last optimistic play
  failedEarly = false; // the last optimistic play failed before its first move

  constructor(
    work: Workspace,
    start: Start,
    private readonly budget: Budget,
    private readonly nogoods: Nogoods,
  ) {
    this.n = start.n;
    this.flat = start.flat;
    this.groupCount = start.groupCount;
    this.groupOf = start.groupOf;
    this.memberAt = start.memberAt;
    this.members = start.members;
    this.rank = start.rank;
    this.heldBack = work.heldBack;
    const { present, above, left, right, reached, freeOrGone } = work;
    this.board = { present, above, left, right, reached, freeOrGone };
    this.present = work.present;
    this.above = work.above;
    this.left = work.left;
    this.right = work.right;
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

    const root = this.stateAt(0);
    root.present.set(start.present);
    root.above.set(start.above);
    root.left.set(start.left);
    root.right.set(start.right);
    root.mate.fill(-1);
    root.remaining = start.count;
    root.played = 0;
  }

  /** Play state `slot`, allocated on first use: most solves stay shallow. */
  private stateAt(slot: number): PlayState {
    const n = this.n;
    while (this.states.length <= slot)
      this.states.push({
        present: new Uint8Array(n),
        above: new Int32Array(n),
        left: new Int32Array(n),
        right: new Int32Array(n),
        mate: new Int32Array(n).fill(-1),
        remaining: 0,
        played: 0,
      });
    return this.states[slot]!;
  }

  /** Makes the play state that greedy play just saved as state 1 the root state 0. */
  adoptRoot(): void {
    const [zero, one] = [this.states[0]!, this.states[1]!];
    this.states[0] = one;
    this.states[1] = zero;
  }

  private isFree(t: number): boolean {
    return this.above[t] === 0 && (this.left[t] === 0 || this.right[t] === 0);
  }

  /**
   * Loads a play state into the scratch board and pushes its free tiles; returns the stack height. With
   * `partner`
   * (optimistic play), uncommitted copies gone before the state count as gone.
   */
  private load(state: PlayState, partner: Int32Array | null = null): number {
    this.present.set(state.present);
    this.above.set(state.above);
    this.left.set(state.left);
    this.right.set(state.right);
    this.remaining = state.remaining;
    const { present, above, left, right, stack, reached, freeOrGone, groupOf } = this;
    if (partner) {
      reached.fill(0);
      freeOrGone.fill(0);
    }
    let top = 0;
    for (let i = 0; i < this.n; i++) {
      if (present[i]) {
        if (above[i] === 0 && (left[i] === 0 || right[i] === 0)) stack[top++] = i;
      } else if (partner && groupOf[i]! >= 0 && partner[i]! < 0) {
        freeOrGone[groupOf[i]!]!++;
        reached[i] = 1;
      }
    }
    return top;
  }

  /** Removes tile r and pushes the tiles it frees; returns the stack height. */
  private remove(r: number, top: number): number {
    const f = this.flat;
    const { stack, present, above, left, right } = this;
    present[r] = 0;
    for (let k = f.belowAt[r]!, end = f.belowAt[r + 1]!; k < end; k++) {
      const j = f.below[k]!;
      if (--above[j]! === 0 && present[j] && (left[j] === 0 || right[j] === 0)) stack[top++] = j;
    }
    for (let k = f.leftAt[r]!, end = f.leftAt[r + 1]!; k < end; k++) {
      const j = f.left[k]!;
      if (--right[j]! === 0 && present[j] && above[j] === 0 && left[j] !== 0) stack[top++] = j;
    }
    for (let k = f.rightAt[r]!, end = f.rightAt[r + 1]!; k < end; k++) {
      const j = f.right[k]!;
      if (--left[j]! === 0 && present[j] && above[j] === 0 && right[j] !== 0) stack[top++] = j;
    }
    return top;
  }

  /**
   * The optimistic play under `partner` from play state `slot`: true when it empties the board; else
   * `present`
   * holds what it stranded.
   */
  optimistic(partner: Int32Array, slot: number): boolean {
    return this.optimisticFrom(partner, this.states[slot]!);
  }

  /** Keeps the board the last (failed) optimistic play stranded, for `optimisticFromStranded`. */
  keepStranded(): void {
    const to = this.stranded;
    to.present.set(this.present);
    to.above.set(this.above);
    to.left.set(this.left);
    to.right.set(this.right);
    to.remaining = this.remaining;
  }

  /**
   * The optimistic play under `partner`, a subset of the stranding play's commitments, resumed from the
   * stranded
   * board: the same answer for less work (docs/engine.md, "The plays"). One node.
   */
  optimisticFromStranded(partner: Int32Array): boolean {
    return this.optimisticFrom(partner, this.stranded);
  }

  private optimisticFrom(partner: Int32Array, from: PlayState): boolean {
    this.budget.spend();
    const top = this.load(from, partner);
    this.failedEarly = !this.nogoods.restrictPlay(partner);
    if (this.failedEarly) return false;
    this.remaining -= this.walk(partner, top, -1, 0);
    return this.remaining === 0;
  }

  /**
   * The optimistic play's walk from `top` stacked tiles: the tiles it removes. Copies of group `hold` never
   * leave;
   * each one seen free sets its rank's bit in `held`, and once all of `want` are set the walk stops,
   * returning -1.
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
      if (!present[t] || !this.isFree(t)) continue;
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
          // Only a copy it may still pair with (Nogoods.forbid) lets it go.
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
      } else if (present[p] && this.isFree(p)) {
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
   * One probe play: does the optimistic play from state 0 under `partner` (the group of four of `a` committed
   * as
   * a–x and the other two together) remove all four copies? One node; call `startProbe` before each group's
   * first
   * pairing. One walk with the group held back serves all three pairings (docs/engine.md, "The plays").
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

  /** Forgets the walk kept for the probe plays. */
  startProbe(): void {
    this.heldGroup = -1;
  }

  /** Are the last `restrictPlay`'s restrictions those of the kept walk, but on group g? */
  private sameRestrictions(g: number): boolean {
    const { playBan, playRestricted } = this.nogoods;
    const kept = this.heldBack;
    for (let i = 0; i < this.n; i++) if (playBan[i] !== kept.ban[i] && this.groupOf[i] !== g) return false;
    for (let h = 0; h < this.groupCount; h++) if (playRestricted[h] !== kept.restricted[h] && h !== g) return false;
    return true;
  }

  /**
   * Greedy play under `partner` from play state `slot`, saved as state `slot + 1`: true when it empties the
   * board
   * (moves kept for `solution`); else `freeUncommitted` and `uncommittedLeft` describe where it stopped.
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
      if (!present[t] || !this.isFree(t)) continue;
      const g = groupOf[t]!;
      if (!counted[t] && mate[t]! < 0) {
        counted[t] = 1;
        if (++freeUncommitted[g]! === uncommittedLeft[g]) {
          // Every uncommitted copy of the group is free: pair them in slot order.
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
      if (p >= 0 && present[p] && this.isFree(p)) {
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
    to.above.set(this.above);
    to.left.set(this.left);
    to.right.set(this.right);
    to.mate.set(mate);
    to.remaining = left;
    to.played = played;
    return left === 0;
  }

  /** The moves of the last greedy play that cleared the board, in play order. */
  solution(): Pair[] {
    const out: Pair[] = [];
    for (let k = 0; k < this.movesLength; k += 2) out.push([this.moves[k]!, this.moves[k + 1]!]);
    return out;
  }
}
