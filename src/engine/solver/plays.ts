/**
 * The plays: two ways to play the board out under some commitments, one node each (the
 * third, random playouts, is playouts.ts).
 *
 * - The *optimistic play* under some commitments: committed pairs leave when both are
 *   free; an uncommitted copy leaves once it is free and another uncommitted copy of its
 *   group that it may still pair with (no forbidden pairing, see nogoods.ts) is free or
 *   gone. Every real solution under the commitments passes it, so a failure proves the
 *   commitments dead; with every group committed it is exact. It is monotone: more
 *   commitments never remove more tiles.
 * - *Greedy play*, real play: committed pairs leave when both are free, and a group whose
 *   uncommitted copies are all free at once leaves whole (any pairing of free copies is
 *   safe). When it clears the board, its moves are the solution; where it stops, the
 *   search branches on a group with two or more free uncommitted copies.
 *
 * Implementation notes. A play runs on a scratch board (presence and neighbour counts)
 * loaded from a *play state*: state 0 is greedy play under the base commitments, and
 * state l + 1 is what the greedy play of the search node at level l left, where every
 * play below that node starts. The plays walk a stack of tiles that may have become free
 * (a tile's neighbours are pushed when it leaves), so a play costs about the tiles it
 * removes, not the board's size times the passes. Plays allocate nothing, but for the
 * play states, each made the first time a play reaches it (most solves stay shallow).
 */
import type { Flat } from '../flat.ts';
import type { Pair } from '../types.ts';
import type { Budget } from './budget.ts';
import type { Nogoods } from './nogoods.ts';
import type { PlayState, Start, Workspace } from './workspace.ts';

export class Plays {
  private readonly n: number;
  private readonly flat: Flat;
  private readonly groupCount: number;
  private readonly groupOf: Int32Array;
  private readonly memberAt: Int32Array;
  private readonly members: Int32Array;

  // The scratch board: loaded from a play state at the start of each play.
  readonly present: Uint8Array;
  private readonly above: Int32Array;
  private readonly left: Int32Array;
  private readonly right: Int32Array;
  private readonly stack: Int32Array; // tiles to look at

  // The optimistic play.
  private readonly reached: Uint8Array; // per tile: became free or left
  private readonly freeOrGone: Int32Array; // per group: uncommitted copies free or gone
  readonly leftAt: Int32Array; // per tile: when it left, in waves of tiles freed (for value ordering)

  // Greedy play; read by the search where it stopped.
  readonly counted: Uint8Array; // per tile: counted as a free uncommitted copy
  readonly freeUncommitted: Int32Array; // per group: free uncommitted copies
  readonly uncommittedLeft: Int32Array; // per group: uncommitted copies on the board
  private readonly mate: Int32Array; // partners: the commitments plus pairs it made itself
  private readonly moves: Int32Array; // tiles in removal order, two per move
  private movesLength = 0;

  readonly states: PlayState[];
  readonly stranded: PlayState; // what the last failed optimistic play left (keepStranded)
  failedEarly = false; // the last optimistic play failed before its first move (a broken nogood, a group with no pairing)

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

  /**
   * Play state `slot`, allocated the first time a play reaches it: most solves stay
   * shallow, and a classic deal's rejected shuffles rarely get past the root.
   */
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

  /** Loads a play state into the scratch board and pushes its free tiles; the stack height. */
  private load(state: PlayState): number {
    this.present.set(state.present);
    this.above.set(state.above);
    this.left.set(state.left);
    this.right.set(state.right);
    // Only free tiles can move now; the others are pushed when a neighbour leaves.
    let top = 0;
    const { present, above, left, right } = this;
    for (let i = 0; i < this.n; i++)
      if (present[i] && above[i] === 0 && (left[i] === 0 || right[i] === 0)) this.stack[top++] = i;
    return top;
  }

  /** Removes tile r from the scratch board and pushes the tiles it frees (those it was the last to cover or flank); the stack height. */
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
   * The optimistic play under `partner` (see the notes), continued from play state
   * `slot`: true when it empties the board; where it fails, `present` holds the tiles
   * it stranded. With `until` a group, true already once that group's copies are gone:
   * the probe's use, where the play without the group's commitment is known to clear
   * the board. The plays differ only in how that group leaves, so once it is gone they
   * remove the same tiles (the play removes every tile its rules allow, in whatever
   * order). Should the play without it fail after all, the answer errs towards
   * "possible", which only weakens the probe.
   */
  optimistic(partner: Int32Array, slot: number, until = -1): boolean {
    return this.optimisticFrom(partner, this.states[slot]!, until);
  }

  /**
   * Keeps the board the last optimistic play stranded (it failed), for `optimisticFromStranded`. (When the play
   * failed before its first move, a broken nogood, that is the board it started from.)
   */
  keepStranded(): void {
    const to = this.stranded;
    to.present.set(this.present);
    to.above.set(this.above);
    to.left.set(this.left);
    to.right.set(this.right);
    let remaining = 0;
    for (let i = 0; i < this.n; i++) remaining += this.present[i]!;
    to.remaining = remaining;
  }

  /**
   * The optimistic play under `partner`, a subset of the commitments the stranding play ran under (see
   * keepStranded), resumed from the board it stranded instead of the state it started from: the same answer
   * for less work. The play's rules only ever allow more as tiles leave, so it ends on the one largest set of
   * removals they allow, in whatever order it makes them; and everything the stranding play removed, the play
   * under fewer commitments may remove too (a pair committed there leaves as two uncommitted copies that are
   * free together; fewer commitments never ban more). One node, like any play.
   */
  optimisticFromStranded(partner: Int32Array): boolean {
    return this.optimisticFrom(partner, this.stranded, -1);
  }

  private optimisticFrom(partner: Int32Array, from: PlayState, until: number): boolean {
    this.budget.spend();
    let top = this.load(from);
    const { present, reached, freeOrGone, stack, groupOf, members, memberAt, leftAt } = this;
    reached.fill(0);
    freeOrGone.fill(0);
    this.failedEarly = false;
    if (!this.nogoods.restrictPlay(partner)) {
      this.failedEarly = true;
      return false;
    }
    const { playBan: ban, playRestricted: restricted } = this.nogoods;
    // Copies gone before the state that `partner` leaves uncommitted count as gone.
    for (let k = 0, end = memberAt[this.groupCount]!; k < end; k++) {
      const m = members[k]!;
      if (!present[m] && partner[m]! < 0) {
        freeOrGone[groupOf[m]!]!++;
        reached[m] = 1;
      }
    }
    let left = from.remaining;
    let pending = -1; // copies of group `until` on the board
    if (until >= 0) {
      pending = 0;
      for (let k = memberAt[until]!; k < memberAt[until + 1]!; k++) pending += present[members[k]!]!;
    }
    let clock = 0;
    // First in, first out: `leftAt` then follows waves of tiles freed.
    for (let head = 0; head < top;) {
      const t = stack[head++]!;
      if (!present[t] || !this.isFree(t)) continue;
      const p = partner[t]!;
      const g = groupOf[t]!;
      if (!reached[t]) {
        reached[t] = 1;
        if (p < 0 && (++freeOrGone[g]! === 2 || restricted[g]))
          for (let k = memberAt[g]!; k < memberAt[g + 1]!; k++) if (members[k] !== t) stack[top++] = members[k]!;
      }
      if (p < 0) {
        if (freeOrGone[g]! < 2) continue;
        if (restricted[g]) {
          // Only a copy it may still pair with (see Nogoods.forbid) lets it go.
          let mate = false;
          for (let k = memberAt[g]!; k < memberAt[g + 1]! && !mate; k++) {
            const u = members[k]!;
            mate = u !== t && reached[u] === 1 && partner[u]! < 0 && (ban[t]! & (1 << (k - memberAt[g]!))) === 0;
          }
          if (!mate) continue;
        }
        leftAt[t] = clock++;
        top = this.remove(t, top);
        left--;
        if (g === until && --pending === 0) return true;
      } else if (present[p] && this.isFree(p)) {
        leftAt[t] = leftAt[p] = clock++;
        top = this.remove(t, top);
        top = this.remove(p, top);
        left -= 2;
        if (g === until && (pending -= 2) === 0) return true;
      }
    }
    return left === 0;
  }

  /**
   * Greedy play under `partner` (see the notes), continued from play state `slot` and
   * saved as state `slot + 1`: true when it empties the board, all moves so far kept for
   * `solution`. Otherwise `freeUncommitted` and `uncommittedLeft` describe each group
   * where it stopped.
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
