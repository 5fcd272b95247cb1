/**
 * The search over pairings: conflict-directed, with learnt nogoods, phase saving and Luby restarts
 * (docs/engine.md, "The search").
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

const SOLVED = 0;
const FAILED = 1;
const DEAD = 2; // failed the optimistic play at once, not yet explained

/** The Luby sequence 1, 1, 2, 1, 1, 2, 4, …: a restart schedule within a log factor of optimal. */
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
  private readonly stride: number; // room per level in `options`
  private readonly options: Int32Array; // per level: the anchor, then its partners in the order tried
  private readonly optionCost: Int32Array;
  private readonly marks: Int32Array;
  private stamp = 0;
  private readonly chain: Int32Array;
  private readonly order: Int32Array;
  private readonly phase: Int32Array | null; // per anchor: its last decided partner, or -1; null: off
  stacked = 0;

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

  /** The optimistic play from the start after forbidding stacked pairings: false proves nothing clears. */
  passesFromStart(): boolean {
    this.unstackAll();
    return this.optimisticFromStart();
  }

  unstackAll(): void {
    this.budget.unlimited();
    this.unstack();
  }

  optimisticFromStart(): boolean {
    return this.plays.optimistic(this.commitments.partner, 0);
  }

  /**
   * Stacked copies never pair (the lower stays covered until the upper leaves): forbids those pairings, for
   * no node.
   */
  private unstack(): void {
    const { memberAt, members } = this;
    const present = this.start.present;
    for (let g = 0; g < this.groupCount; g++) {
      const from = memberAt[g]!;
      const to = memberAt[g + 1]!;
      if (to - from < 4) continue;
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

  private covers(top: number, low: number): boolean {
    if (this.count === this.n) {
      // The full board: chains precomputed per layout.
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

  /** Probes each pairing alone at the root; false when a group has none left. */
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
        if (!onBoard[a] || !onBoard[b] || !onBoard[c] || !onBoard[d]) continue;
        let alive = -1;
        let aliveCount = 0;
        this.plays.startProbe();
        for (let j = 0; j < 3; j++) {
          const x = j === 0 ? b : j === 1 ? c : d;
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

  /** The groups by pairings left, fewest first (a counting sort). */
  private probeOrder(): Int32Array {
    const { ban } = this.nogoods;
    const { members, memberAt, order } = this;
    const groups = this.groupCount;
    let at = 0;
    for (let left = -1; left <= 3; left++)
      for (let g = 0; g < groups; g++) {
        const banned = ban[members[memberAt[g]!]!]! & 15;
        if (3 - ((banned & 1) + ((banned >> 1) & 1) + ((banned >> 2) & 1) + ((banned >> 3) & 1)) === left)
          order[at++] = g;
      }
    return order;
  }

  /** Searches with restarts; the solution, or null when there is none. */
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
        return outcome === SOLVED ? plays.solution() : null;
      } catch (e) {
        if (e !== RUN_OVER) throw e;
        commitments.undecideAll();
        // Pairings forbidden since the last probe make the play stricter: probe again.
        budget.unlimited();
        if (!this.probe()) return null;
        if (plays.greedy(commitments.partner, 0)) return plays.solution();
        plays.adoptRoot();
      }
    }
  }

  /** The node at `level`: SOLVED, DEAD (not yet explained) or FAILED (conflict set in conflict[level]). */
  private node(level: number): number {
    const { plays, commitments, conflicts } = this;
    const partner = commitments.partner;
    if (!plays.optimistic(partner, level)) return DEAD;
    if (plays.greedy(partner, level)) return SOLVED;
    const g = this.branchGroup();
    if (g < 0) {
      // Cannot happen after a passing optimistic play.
      conflicts.everyLevelBelow(level);
      return FAILED;
    }
    const count = this.orderOptions(level, g);
    conflicts.startUnion(level);
    const first = this.stride * level;
    let dead = 0; // options whose child failed at once, a bit each
    for (let o = 0; o < count; o++) {
      commitments.decide(level, this.options[first]!, this.options[first + 1 + o]!);
      if (this.phase) this.phase[this.options[first]!] = this.options[first + 1 + o]!;
      let outcome = FAILED;
      if (!conflicts.brokenNogood(level)) outcome = this.node(level + 1);
      if (outcome === DEAD) {
        if (o < 30) dead |= 1 << o;
        else {
          conflicts.explain(level + 1);
          outcome = FAILED;
        }
      }
      commitments.undecide(level);
      if (outcome === SOLVED) return SOLVED;
      if (outcome === FAILED && !conflicts.merge(level)) return FAILED;
    }
    for (let o = 0; o < count; o++) {
      if (!(dead & (1 << o))) continue;
      commitments.decide(level, this.options[first]!, this.options[first + 1 + o]!);
      if (plays.optimistic(partner, level + 1)) throw new Error('solve: a dead pairing came back to life');
      conflicts.explain(level + 1);
      commitments.undecide(level);
      if (!conflicts.merge(level)) return FAILED;
    }
    // Groups of more than four copies: their earlier decisions belong too.
    for (let k = this.memberAt[g]!; k < this.memberAt[g + 1]!; k++) {
      const l = commitments.levelOf[this.members[k]!]!;
      if (l >= 0) conflicts.addToUnion(level, l);
    }
    conflicts.closeUnion(level);
    return FAILED;
  }

  /**
   * The group to branch on: fewest pairings left, then most active, then free copies, then at random; -1:
   * none.
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
        // A unit propagation: pairings a near nogood rules out count as gone.
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
   * Writes group g's options at `level`: the anchor, then partners (the saved phase, then the closest leaving
   * times first); returns how many.
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
    // More than four copies: anchor a free counted copy.
    let a = copies[0]!;
    const { counted, present } = this.plays;
    for (let j = 0; j < k; j++) if (counted[copies[j]!] && present[copies[j]!]) a = copies[j]!;
    options[base] = a;
    let m = 0;
    for (let j = 0; j < k; j++) if (copies[j] !== a) options[base + 1 + m++] = copies[j]!;
    return m;
  }
}
