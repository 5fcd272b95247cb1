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
 * - The *probe plays* (search.ts, the probe): the optimistic play under each pairing of one
 *   group of four, asked only whether that group's copies all leave. All three pairings
 *   share one walk with the group held back (see probePairing); one node each.
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
  private held = 0; // walk: the copies of the group held back seen free, a bit per rank

  // The probe plays: the board with one group held back, under the restrictions it was walked with.
  private readonly rank: Int32Array;
  private readonly heldBack: HeldBack;
  private readonly board: WalkBoard; // the scratch board's arrays that a walk reads and writes
  private heldGroup = -1; // the group whose walk `heldBack` keeps; -1: none kept

  // Greedy play; read by the search where it stopped.
  readonly counted: Uint8Array; // per tile: counted as a free uncommitted copy
  readonly freeUncommitted: Int32Array; // per group: free uncommitted copies
  readonly uncommittedLeft: Int32Array; // per group: uncommitted copies on the board
  private readonly mate: Int32Array; // partners: the commitments plus pairs it made itself
  private readonly moves: Int32Array; // tiles in removal order, two per move
  private movesLength = 0;

  readonly states: PlayState[];
  readonly stranded: PlayState; // what the last failed optimistic play left (keepStranded)
  private remaining = 0; // tiles on the scratch board after the last optimistic play
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

  /**
   * Loads a play state into the scratch board and pushes its free tiles; the stack height. With `partner`, for
   * an optimistic play, it also sets up the play's counts: copies gone before the state that `partner` leaves
   * uncommitted count as gone.
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
    // Only free tiles can move now; the others are pushed when a neighbour leaves.
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
   * it stranded.
   */
  optimistic(partner: Int32Array, slot: number): boolean {
    return this.optimisticFrom(partner, this.states[slot]!);
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
    to.remaining = this.remaining;
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
   * The optimistic play's walk over the stack (`top` tiles on it) under `partner` and the restrictions of the
   * last `restrictPlay`: the tiles it removes. Copies of group `hold` never leave: each one seen free sets its
   * rank's bit in `held`, and once every bit of `want` is set the walk stops there, returning -1. (A walk
   * stopped, or resumed later, has removed what some order of the play's moves removes by then; a play that
   * runs out ends on the one largest set of removals its rules allow, whatever the order.)
   */
  private walk(partner: Int32Array, top: number, hold: number, want: number): number {
    const { present, reached, freeOrGone, stack, groupOf, members, memberAt, leftAt, rank } = this;
    const { playBan: ban, playRestricted: restricted } = this.nogoods;
    let removed = 0;
    let clock = 0;
    let held = this.held;
    // First in, first out: `leftAt` then follows waves of tiles freed.
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
          // Only a copy it may still pair with (see Nogoods.forbid) lets it go.
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
   * One probe play (search.ts): does the optimistic play from play state 0 under `partner`, which commits the
   * copies of the group of four of `a` (all four on the board in that state) as a–x and the other two together,
   * remove all four? One node, and the same answer as that play. Call `startProbe` before the first pairing of
   * each group.
   *
   * Held back, the group's copies change nothing else in the play: so one walk with all four held back serves
   * all three pairings, as long as the restrictions on the other groups are the same. Where it ends, a pair
   * whose two copies it saw free leaves first (committed copies leave together once both are free, and a free
   * tile stays free); when both pairs are, the group is gone; when neither, it never leaves. With one, the walk
   * goes on from that board with the pair removed and the other pair held back, until both of those are free.
   * (The `leftAt` times it leaves are not a whole play's: the value ordering reads them only after a node's own
   * optimistic play, which times every tile it removes.)
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

  /** Forgets the walk kept for the probe plays: the next `probePairing` walks afresh. */
  startProbe(): void {
    this.heldGroup = -1;
  }

  /** Are the restrictions of the last `restrictPlay` those of the walk kept, but on group g? */
  private sameRestrictions(g: number): boolean {
    const { playBan, playRestricted } = this.nogoods;
    const kept = this.heldBack;
    for (let i = 0; i < this.n; i++) if (playBan[i] !== kept.ban[i] && this.groupOf[i] !== g) return false;
    for (let h = 0; h < this.groupCount; h++) if (playRestricted[h] !== kept.restricted[h] && h !== g) return false;
    return true;
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
