/**
 * The search over pairings: conflict-directed, with learnt nogoods and restarts.
 *
 * Implementation notes. A search node at level l has decisions 0 … l − 1 in force. It
 * runs the optimistic play (a failure proves the commitments dead) and greedy play (a
 * clear board is a solution); where greedy play stopped, it branches on a group still
 * uncommitted: every way to pair its copies, the pairing that plays copies the optimistic
 * play frees at about the same time first (value ordering).
 *
 * Choosing the group: the one with the fewest pairings left, where a pairing that a near
 * nogood rules out under the commitments in force counts as gone (a unit propagation,
 * spending no node): a group left with one pairing is branched on first and one with none
 * fails at once. Ties go to the most active group (conflicts.ts: recent conflicts weigh
 * more, as in SAT solvers' VSIDS), so the search keeps to the groups its dead ends are
 * about, wherever they lie on the board; then to a group with two or more free copies
 * where greedy play stopped (its decision lets play go on); then at random. (Until
 * generator 13 only those groups were candidates, and the least active went first; on
 * the uniform turtle shuffles that needed the search, keeping to the conflicts takes a
 * third fewer nodes, and the hardest deal among the first thousand 56,220, not 129,662;
 * docs/study.md, section 5.)
 *
 * Before the search: pairings of copies stacked on each other are forbidden (they never
 * pair), and each group's pairings are probed alone at the root, the groups with the
 * fewest pairings left first, each asking only whether the probed group leaves (the
 * probe plays, plays.ts: the three pairings share one walk of the board): a pairing that
 * fails is forbidden for good, and a group left with one pairing is committed. Runs
 * restart on the Luby schedule, which keeps unlucky early choices from dominating;
 * nogoods survive restarts, and the probe runs again after each, as pairings forbidden
 * meanwhile make the optimistic play stricter.
 *
 * Phase saving (as SAT solvers save a variable's last value): each anchor remembers the partner it was last
 * decided with, and that pairing is tried first the next time the group is branched on, below another node or
 * after a restart, so the search goes back to where it was instead of starting over. On the uniform turtle
 * shuffles study-1 … 3000 it took the hardest deal of each thousand from 56,220, 45,718 and 29,053 nodes to
 * 36,890, 23,612 and 21,503, the nodes in all within ±13% (docs/study.md, section 5). Off for the dealer of
 * generator 15 (its boards must not change within a version).
 */
import type { Rng } from '../rng.ts';
import type { Pair } from '../types.ts';
import type { Budget } from './budget.ts';
import { RUN_OVER } from './budget.ts';
import type { Commitments } from './commitments.ts';
import type { Conflicts } from './conflicts.ts';
import type { Nogoods } from './nogoods.ts';
import type { Plays } from './plays.ts';
import type { Start, Workspace } from './workspace.ts';

const RESTART_UNIT = 1024; // nodes in the shortest search run

// Outcomes of a search node.
const SOLVED = 0;
const FAILED = 1; // with its conflict set
const DEAD = 2; // failed the optimistic play at once; its conflict set not computed yet

/** The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, …: a restart schedule within a log factor of optimal. */
export function luby(k: number): number {
  for (let size = 1, power = 1; ; size = 2 * size + 1, power *= 2) {
    if (k === size) return power;
    if (k < size) return luby(k - (size - 1) / 2);
  }
}

export class PairingSearch {
  private readonly n: number;
  private readonly count: number;
  private readonly groupCount: number;
  private readonly memberAt: Int32Array;
  private readonly members: Int32Array;
  private readonly stride: number; // the largest group's size: room per level in `options`
  private readonly options: Int32Array; // per level, the pairings tried: the anchor, then its partners in order
  private readonly optionCost: Int32Array; // scratch: the costs of the options being ordered
  private readonly marks: Int32Array; // covers: tiles reached, by stamp
  private stamp = 0; // marks: the last stamp handed out (the marks are cleared per solve)
  private readonly chain: Int32Array; // covers: tiles to walk up from
  private readonly order: Int32Array; // the probe's order of the groups (probeOrder)
  private readonly phase: Int32Array | null; // per anchor tile: the partner it was last decided with, or -1; null: off
  stacked = 0; // pairings of stacked copies forbidden by unstackAll

  constructor(
    work: Workspace,
    private readonly start: Start,
    private readonly budget: Budget,
    private readonly plays: Plays,
    private readonly nogoods: Nogoods,
    private readonly commitments: Commitments,
    private readonly conflicts: Conflicts,
    private readonly rng: Rng,
    savePhases = true,
  ) {
    this.n = start.n;
    this.count = start.count;
    this.groupCount = start.groupCount;
    this.memberAt = start.memberAt;
    this.members = start.members;
    this.stride = start.largest;
    this.options = work.options;
    this.optionCost = work.optionCost;
    this.marks = work.marks.fill(0);
    this.chain = work.chain;
    this.order = work.probeOrder;
    this.phase = savePhases ? work.phase.fill(-1) : null;
  }

  /**
   * The optimistic play from the start position (one node), after forbidding the
   * pairings of stacked copies: false when even it strands tiles, a proof that nothing
   * clears the board. Run before the playouts: on layouts where most uniform shuffles
   * are unwinnable it rejects most of them for the price of one play.
   */
  passesFromStart(): boolean {
    this.unstackAll();
    return this.optimisticFromStart();
  }

  /** The first half of passesFromStart: the pairings of stacked copies forbidden (no node). */
  unstackAll(): void {
    this.budget.unlimited();
    this.unstack();
  }

  /** The second half: the optimistic play from the start (one node); false proves the position unwinnable. */
  optimisticFromStart(): boolean {
    return this.plays.optimistic(this.commitments.partner, 0);
  }

  /**
   * Copies stacked on each other never pair: the lower one stays covered until the
   * upper one leaves, and that one leaves only with its partner. Such pairings of the
   * groups still uncommitted are forbidden before any play, for no node (the probe would
   * spend one on each); a group left without a pairing then strands the optimistic play
   * at once.
   */
  private unstack(): void {
    const { memberAt, members } = this;
    const present = this.start.present;
    for (let g = 0; g < this.groupCount; g++) {
      const from = memberAt[g]!;
      const to = memberAt[g + 1]!;
      if (to - from < 4) continue; // a group of two is committed: the optimistic play judges it
      for (let i = from; i < to; i++)
        for (let j = i + 1; j < to; j++) {
          const a = members[i]!;
          const b = members[j]!;
          if (present[a] && present[b] && (this.covers(a, b) || this.covers(b, a))) {
            this.nogoods.forbid(a, b);
            this.stacked++;
          }
        }
    }
  }

  /** Is tile `top` above tile `low` through tiles on the board at the start (a chain of tiles each covering the next)? */
  private covers(top: number, low: number): boolean {
    if (this.count === this.n) {
      // The full board (every classic attempt): the chains are known per layout.
      const { words, bits } = this.start.cover;
      return (bits[low * words + (top >>> 5)]! & (1 << (top & 31))) !== 0;
    }
    const { above, aboveAt } = this.start.flat;
    const present = this.start.present;
    const chain = this.chain;
    const mark = ++this.stamp;
    let height = 0;
    chain[height++] = low;
    while (height > 0) {
      const t = chain[--height]!;
      for (let k = aboveAt[t]!; k < aboveAt[t + 1]!; k++) {
        const u = above[k]!;
        if (u === top) return true;
        if (present[u] && this.marks[u] !== mark) {
          this.marks[u] = mark;
          chain[height++] = u;
        }
      }
    }
    return false;
  }

  /**
   * Probes every pairing of every group alone at the root (see the notes); false when
   * some group has no pairing left (unsolvable).
   */
  private probe(): boolean {
    const { commitments, nogoods } = this;
    const order = this.probeOrder();
    for (let changed = true; changed;) {
      changed = false;
      for (let o = 0; o < this.groupCount; o++) {
        const g = order[o]!;
        const copies = commitments.copies;
        const k = commitments.uncommitted(g, copies, 0);
        if (k !== 4) continue;
        const a = copies[0]!;
        const b = copies[1]!;
        const c = copies[2]!;
        const d = copies[3]!;
        const onBoard = this.plays.states[0]!.present;
        if (!onBoard[a] || !onBoard[b] || !onBoard[c] || !onBoard[d]) continue; // already played
        let alive = -1;
        let aliveCount = 0;
        this.plays.startProbe();
        for (let j = 0; j < 3; j++) {
          const x = j === 0 ? b : j === 1 ? c : d; // `copies` is overwritten by decide
          if (nogoods.isForbidden(a, x)) continue;
          commitments.decide(0, a, x);
          const ok = this.plays.probePairing(commitments.partner, a, x);
          commitments.undecide(0);
          if (ok) {
            alive = x;
            aliveCount++;
          } else nogoods.forbid(a, x);
        }
        if (aliveCount === 0) return false;
        if (aliveCount === 1) {
          commitments.decide(0, a, alive);
          commitments.keepRootDecision();
          changed = true;
        }
      }
    }
    return true;
  }

  /**
   * The groups in the order the probe takes them: those with the fewest pairings left
   * first, as they are the likeliest to have none (on layouts where most shuffles are
   * unwinnable, the probe then rejects one after a play or two, not dozens); ties in group
   * order. A counting sort by pairings left (at most 3) into the workspace's `probeOrder`.
   */
  private probeOrder(): Int32Array {
    const { ban } = this.nogoods;
    const { members, memberAt, order } = this;
    const groups = this.groupCount;
    let at = 0;
    for (let left = -1; left <= 3; left++)
      // -1: a ban bit on the first copy itself (never set)
      for (let g = 0; g < groups; g++) {
        const banned = ban[members[memberAt[g]!]!]! & 15;
        if (3 - ((banned & 1) + ((banned >> 1) & 1) + ((banned >> 2) & 1) + ((banned >> 3) & 1)) === left)
          order[at++] = g;
      }
    return order;
  }

  /** Searches with restarts, after `passesFromStart`; the solution, or null when there is none. */
  run(): Pair[] | null {
    const { budget, plays, commitments } = this;
    budget.unlimited();
    if (plays.greedy(commitments.partner, 0)) return plays.solution();
    plays.adoptRoot();
    if (!this.probe()) return null;
    if (plays.greedy(commitments.partner, 0)) return plays.solution();
    plays.adoptRoot();
    for (let k = 1; ; k++) {
      budget.startRun(RESTART_UNIT * luby(k));
      try {
        const outcome = this.node(0);
        return outcome === SOLVED ? plays.solution() : null; // the root passed the optimistic play: never DEAD
      } catch (e) {
        if (e !== RUN_OVER) throw e;
        commitments.undecideAll();
        // Pairings forbidden since the last probe make the optimistic play stricter: probe again.
        budget.unlimited();
        if (!this.probe()) return null;
        if (plays.greedy(commitments.partner, 0)) return plays.solution();
        plays.adoptRoot();
      }
    }
  }

  /**
   * The node at `level` (decisions 0 … level − 1 in force): SOLVED (the moves in the
   * plays' solution), DEAD (failed the optimistic play at once, not explained yet) or
   * FAILED with its conflict set in the conflicts' conflict[level].
   */
  private node(level: number): number {
    const { plays, commitments, conflicts } = this;
    const partner = commitments.partner;
    if (!plays.optimistic(partner, level)) return DEAD;
    if (plays.greedy(partner, level)) return SOLVED;
    const g = this.branchGroup();
    if (g < 0) {
      // Cannot happen when the optimistic play succeeds (see plays.ts); answer soundly anyway.
      conflicts.everyLevelBelow(level);
      return FAILED;
    }
    const count = this.orderOptions(level, g);
    conflicts.startUnion(level);
    const first = this.stride * level;
    let dead = 0; // options whose child failed the optimistic play at once: explained only when needed, a bit mask
    for (let o = 0; o < count; o++) {
      commitments.decide(level, this.options[first]!, this.options[first + 1 + o]!);
      if (this.phase) this.phase[this.options[first]!] = this.options[first + 1 + o]!;
      let outcome = FAILED;
      if (!conflicts.brokenNogood(level)) outcome = this.node(level + 1);
      if (outcome === DEAD) {
        if (o < 30) dead |= 1 << o;
        else {
          conflicts.explain(level + 1); // the mask is full: explain now
          outcome = FAILED;
        }
      }
      commitments.undecide(level);
      if (outcome === SOLVED) return SOLVED;
      if (outcome === FAILED && !conflicts.merge(level)) return FAILED;
    }
    // No pairing worked: explain the ones that failed at once.
    for (let o = 0; o < count; o++) {
      if (!(dead & (1 << o))) continue;
      commitments.decide(level, this.options[first]!, this.options[first + 1 + o]!);
      if (plays.optimistic(partner, level + 1)) throw new Error('solve: a dead pairing came back to life');
      conflicts.explain(level + 1);
      commitments.undecide(level);
      if (!conflicts.merge(level)) return FAILED;
    }
    // The pairings tried were all those of the copies left uncommitted by the group's
    // earlier decisions (groups of more than four copies): those decisions belong too.
    for (let k = this.memberAt[g]!; k < this.memberAt[g + 1]!; k++) {
      const l = commitments.levelOf[this.members[k]!]!;
      if (l >= 0) conflicts.addToUnion(level, l);
    }
    conflicts.closeUnion(level);
    return FAILED;
  }

  /**
   * A group to branch on where greedy play stopped: one of four copies all uncommitted
   * (or of more, with four or more uncommitted), or one with two or more free uncommitted
   * copies. The one with the fewest pairings left (neither forbidden nor ruled out by a
   * nogood), then the most active, then one with free copies to pair, then at random; -1
   * when none.
   */
  private branchGroup(): number {
    const { plays, commitments, conflicts, nogoods } = this;
    const copies = commitments.copies;
    let best = -1;
    let bestAlive = 0;
    let bestAct = 0;
    let bestFront = 0;
    let bestR = 0;
    for (let g = 0; g < this.groupCount; g++) {
      if (plays.uncommittedLeft[g]! === 0 || (plays.freeUncommitted[g]! < 2 && plays.uncommittedLeft[g]! < 4)) continue;
      const k = commitments.uncommitted(g, copies, 0);
      let alive = 0;
      const a = copies[0]!;
      if (k === 4) {
        // Pairings a near nogood rules out under the commitments in force count as gone (a unit propagation, done
        // by the node's optimistic play for its bans): a group left with one pairing is branched on first, one with
        // none fails at once. No node is spent.
        const banned = nogoods.playBan[a]! & 14;
        alive = 3 - ((banned >> 1) & 1) - ((banned >> 2) & 1) - ((banned >> 3) & 1);
      } else for (let j = 1; j < k; j++) if (!nogoods.isForbidden(a, copies[j]!)) alive++;
      const act = conflicts.activity[g]!;
      const front = plays.freeUncommitted[g]! >= 2 ? 1 : 0;
      const r = this.rng.int(0x10000);
      let better: boolean;
      if (best < 0 || alive !== bestAlive) better = best < 0 || alive < bestAlive;
      else if (act !== bestAct) better = act > bestAct;
      else if (front !== bestFront) better = front > bestFront;
      else better = r < bestR;
      if (better) {
        best = g;
        bestAlive = alive;
        bestAct = act;
        bestFront = front;
        bestR = r;
      }
    }
    return best;
  }

  /**
   * Writes the pairings of group g to try at `level` into `options`: the anchor (its
   * first uncommitted copy) and its partners, the saved phase first, then those pairing
   * copies the optimistic play freed at about the same time. For groups of more than four copies the anchor
   * is a free copy (so the branch moves play on). Returns how many.
   */
  private orderOptions(level: number, g: number): number {
    const copies = this.commitments.copies;
    const k = this.commitments.uncommitted(g, copies, 0);
    const time = this.plays.leftAt;
    const base = this.stride * level;
    const options = this.options;
    if (k === 4) {
      const a = copies[0]!;
      options[base] = a;
      const saved = this.phase ? this.phase[a]! : -1;
      // The three partners of the anchor, by cost: how far apart in the optimistic play's
      // time the two pairs would leave; ties at random (a stable insertion sort).
      for (let j = 1; j <= 3; j++) {
        const b = copies[j]!;
        const c = copies[j === 1 ? 2 : 1]!;
        const d = copies[j === 3 ? 2 : 3]!;
        const cost =
          b === saved ? -1 : (Math.abs(time[a]! - time[b]!) + Math.abs(time[c]! - time[d]!)) * 4 + this.rng.int(4);
        let at = j;
        while (at > 1 && this.optionCost[at - 1]! > cost) {
          this.optionCost[at] = this.optionCost[at - 1]!;
          options[base + at] = options[base + at - 1]!;
          at--;
        }
        this.optionCost[at] = cost;
        options[base + at] = b;
      }
      return 3;
    }
    // More than four copies: anchor a free copy that greedy play counted.
    let a = copies[0]!;
    const { counted, present } = this.plays;
    for (let j = 0; j < k; j++) if (counted[copies[j]!] && present[copies[j]!]) a = copies[j]!;
    options[base] = a;
    let m = 0;
    for (let j = 0; j < k; j++) if (copies[j] !== a) options[base + 1 + m++] = copies[j]!;
    return m;
  }
}
