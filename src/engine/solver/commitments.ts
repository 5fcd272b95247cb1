/**
 * Commitments: which copy of a group leaves with which, for good (the base) or by a search decision (one per
 * level; on a group of four it fixes the whole pairing). The nogoods are told of each.
 */
import { INTACT, type Nogoods } from './nogoods.ts';
import type { Start, Workspace } from './workspace.ts';

export class Commitments {
  readonly base: Int32Array; // partners for good; -1: none
  readonly partner: Int32Array;
  readonly trial: Int32Array; // the base plus some decisions, for a conflict test
  readonly levelOf: Int32Array; // per tile: the level that paired it; -1: base or none
  readonly decPairs: Int32Array; // per level, up to two pairs: a0 b0 a1 b1
  readonly decCount: Int32Array;
  readonly copies: Int32Array;
  depth = 0;
  broken = INTACT; // what the last decision broke (Nogoods.assign)
  private readonly groupOf: Int32Array;
  private readonly memberAt: Int32Array;
  private readonly members: Int32Array;

  constructor(
    work: Workspace,
    start: Start,
    private readonly nogoods: Nogoods,
  ) {
    this.groupOf = start.groupOf;
    this.memberAt = start.memberAt;
    this.members = start.members;
    this.base = work.base.fill(-1);
    this.partner = work.partner.fill(-1);
    this.trial = work.trial;
    this.levelOf = work.levelOf.fill(-1);
    this.decPairs = work.decPairs.fill(0);
    this.decCount = work.decCount.fill(0);
    this.copies = work.copies;
    for (let g = 0; g < start.groupCount; g++) {
      const from = this.memberAt[g]!;
      if (this.memberAt[g + 1]! - from === 2) this.commitBase(this.members[from]!, this.members[from + 1]!);
    }
  }

  private commitBase(a: number, b: number): void {
    this.base[a] = b;
    this.base[b] = a;
    this.partner[a] = b;
    this.partner[b] = a;
  }

  /** Writes group g's uncommitted copies into `out` from `at`; returns their count. */
  uncommitted(g: number, out: Int32Array, at: number): number {
    let k = 0;
    for (let m = this.memberAt[g]!; m < this.memberAt[g + 1]!; m++) {
      const t = this.members[m]!;
      if (this.partner[t]! < 0) out[at + k++] = t;
    }
    return k;
  }

  /**
   * Commits decision `level`: a with b, and the group's last two uncommitted copies together. Overwrites
   * `copies`.
   */
  decide(level: number, a: number, b: number): void {
    const { partner, levelOf, decPairs } = this;
    partner[a] = b;
    partner[b] = a;
    levelOf[a] = levelOf[b] = level;
    decPairs[4 * level] = a;
    decPairs[4 * level + 1] = b;
    this.decCount[level] = 1;
    const g = this.groupOf[a]!;
    const rest = this.uncommitted(g, this.copies, 0);
    if (rest === 2) {
      const c = this.copies[0]!;
      const d = this.copies[1]!;
      partner[c] = d;
      partner[d] = c;
      levelOf[c] = levelOf[d] = level;
      decPairs[4 * level + 2] = c;
      decPairs[4 * level + 3] = d;
      this.decCount[level] = 2;
    }
    this.depth = level + 1;
    // A group of four's two pairs are one literal.
    this.broken = this.nogoods.assign(a, b, level);
    if (this.decCount[level] === 2 && this.memberAt[g + 1]! - this.memberAt[g]! !== 4) {
      const found = this.nogoods.assign(decPairs[4 * level + 2]!, decPairs[4 * level + 3]!, level);
      if (this.broken === INTACT) this.broken = found;
    }
  }

  undecide(level: number): void {
    this.nogoods.release(level);
    for (let k = 0; k < 2 * this.decCount[level]!; k++) {
      const t = this.decPairs[4 * level + k]!;
      this.partner[t] = -1;
      this.levelOf[t] = -1;
    }
    this.depth = level;
  }

  /**
   * `trial` := the base plus the pairs of an earlier position's solution still on the board and uncommitted.
   */
  pairingOf(pairs: readonly (readonly [number, number])[]): Int32Array {
    const { trial, groupOf } = this;
    trial.set(this.base);
    for (const [a, b] of pairs)
      if (groupOf[a]! >= 0 && groupOf[a] === groupOf[b] && trial[a]! < 0 && trial[b]! < 0) {
        trial[a] = b;
        trial[b] = a;
      }
    return trial;
  }

  undecideAll(): void {
    while (this.depth > 0) this.undecide(this.depth - 1);
  }

  /** Makes decision 0 (the only one in force) part of the base. */
  keepRootDecision(): void {
    this.nogoods.keepRoot();
    for (let k = 0; k < 2 * this.decCount[0]!; k++) {
      const t = this.decPairs[k]!;
      this.base[t] = this.partner[t]!;
      this.levelOf[t] = -1;
    }
    this.depth = 0;
  }
}
