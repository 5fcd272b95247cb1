/**
 * Conflicts: which decisions a dead end depends on, as bitsets of decision levels; learnt as nogoods, with
 * backjumping and VSIDS-style activity (docs/engine.md, "Conflicts").
 */
import { FORBIDDEN, INTACT, type Nogoods } from './nogoods.ts';
import type { Commitments } from './commitments.ts';
import type { Plays } from './plays.ts';
import type { Start, Workspace } from './workspace.ts';

const BUMP_GROWTH = 1.05; // each learnt conflict weighs this much more than the last

export class Conflicts {
  private readonly words: number;
  private readonly conflict: Uint32Array; // per level: what that node returned
  private readonly acc: Uint32Array; // per level: the union of its children's conflicts
  private readonly groupOf: Int32Array;
  private readonly freeGroup: Int32Array; // per group: noteStamp when a stranded copy is free
  private readonly banLevels: Uint32Array; // levels of the nogoods banning those groups
  private readonly lifted: number[]; // level, group: a nogood near with that level's decision bans a group's pairing
  private readonly idle: number[] = []; // levels released without a play since the board was stranded
  private readonly changed: number[] = []; // groups whose copies may leave the stranded board in a trial
  private noteStamp = 0;
  private anyStranded = false; // failed before its first move: every decision matters
  readonly activity: Float64Array;
  private bump = 1;

  constructor(
    work: Workspace,
    private readonly start: Start,
    private readonly commitments: Commitments,
    private readonly plays: Plays,
    private readonly nogoods: Nogoods,
    // Release without a play a decision after which no copy could leave the stranded board (`matters`);
    // generator 15's dealer plays it.
    private readonly skipIdle = true,
  ) {
    this.words = work.words;
    this.conflict = work.conflict.fill(0);
    this.acc = work.acc.fill(0);
    this.activity = work.activity.fill(0);
    this.groupOf = start.groupOf;
    this.freeGroup = work.freeGroup.fill(0);
    this.banLevels = work.banLevels;
    this.lifted = work.lifted;
  }

  // Sets of levels, `words` words each, at `at`.
  private clear(bits: Uint32Array, at: number): void {
    bits.fill(0, at, at + this.words);
  }
  private add(bits: Uint32Array, at: number, l: number): void {
    bits[at + (l >>> 5)]! |= 1 << (l & 31);
  }
  private remove(bits: Uint32Array, at: number, l: number): void {
    bits[at + (l >>> 5)]! &= ~(1 << (l & 31));
  }
  private has(bits: Uint32Array, at: number, l: number): boolean {
    return (bits[at + (l >>> 5)]! & (1 << (l & 31))) !== 0;
  }

  holds(level: number, l: number): boolean {
    return this.has(this.conflict, level * this.words, l);
  }

  levels(level: number): number[] {
    const out: number[] = [];
    for (let l = 0; l < this.words * 32; l++) if (this.holds(level, l)) out.push(l);
    return out;
  }

  /** In `trial`, decision l's pairs: committed (`on`) or as in the base. */
  private trialSet(l: number, on: boolean): void {
    const { base, trial, decPairs, decCount } = this.commitments;
    for (let k = 0; k < 2 * decCount[l]!; k += 2) {
      const a = decPairs[4 * l + k]!;
      const b = decPairs[4 * l + k + 1]!;
      trial[a] = on ? b : base[a]!;
      trial[b] = on ? a : base[b]!;
    }
  }

  /**
   * The commitments in force failed the last (optimistic) play: writes a deletion-minimal set of their levels
   * into conflict[level] and learns it. `trial` follows the set level by level: the base plus its decisions.
   */
  explain(level: number): void {
    const at = level * this.words;
    const out = this.conflict;
    this.clear(out, at);
    const last = this.commitments.depth - 1;
    if (last < 0) return;
    this.commitments.trial.set(this.commitments.base);
    for (let l = 0; l <= last; l++) {
      this.add(out, at, l);
      this.trialSet(l, true);
    }
    this.plays.keepStranded();
    this.noteStranded();
    for (let l = last - 1; l >= 0; l--) {
      this.remove(out, at, l);
      this.trialSet(l, false);
      if (!this.matters(l)) {
        this.idle.push(l);
        continue;
      }
      if (this.plays.optimisticFromStranded(this.commitments.trial, this.changedBy(l))) {
        this.add(out, at, l);
        this.trialSet(l, true);
      } else {
        this.plays.keepStranded();
        this.noteStranded();
      }
    }
    this.learn(out, at);
  }

  /**
   * The groups whose rules differ, without decision l, from those of the play that stranded the board: l's and
   * those of the levels released since without a play, and the groups whose bans they lift.
   */
  private changedBy(l: number): number[] {
    const { changed, idle, lifted, groupOf } = this;
    const decPairs = this.commitments.decPairs;
    changed.length = 0;
    for (let k = -1; k < idle.length; k++) {
      const level = k < 0 ? l : idle[k]!;
      changed.push(groupOf[decPairs[4 * level]!]!);
      for (let j = 0; j < lifted.length; j += 2) if (lifted[j] === level) changed.push(lifted[j + 1]!);
    }
    return changed;
  }

  /** After a failed play: groups with a free stranded copy, and the levels of the nogoods banning them. */
  private noteStranded(): void {
    this.idle.length = 0;
    const stamp = ++this.noteStamp;
    const { present, blockers } = this.plays.stranded;
    const isFree = this.plays.isFree;
    const { freeGroup, banLevels, lifted } = this;
    banLevels.fill(0);
    lifted.length = 0;
    this.anyStranded = this.plays.failedEarly;
    if (this.anyStranded) return;
    const { groupOf, memberAt, members, n } = this.start;
    for (let t = 0; t < n; t++) if (present[t] && isFree[blockers[t]!] === 1) freeGroup[groupOf[t]!] = stamp;
    const { playBan, playBanBy, ban } = this.nogoods;
    const levelOf = this.commitments.levelOf;
    for (let g = 0; g < this.start.groupCount; g++) {
      if (freeGroup[g] !== stamp || memberAt[g + 1]! - memberAt[g]! !== 4) continue;
      const first = members[memberAt[g]!]!;
      const fromNogoods = playBan[first]! & ~ban[first]! & 14;
      for (let j = 1; j <= 3; j++) {
        if ((fromNogoods & (1 << j)) === 0) continue;
        const id = playBanBy[4 * g + j]!;
        const lits = this.nogoods.pool;
        for (let q = this.nogoods.start(id) + 2; q < this.nogoods.end(id); q += 2) {
          const l = levelOf[lits[q]!]!;
          if (l < 0) continue;
          banLevels[l >>> 5]! |= 1 << (l & 31);
          lifted.push(l, g);
        }
      }
    }
  }

  /**
   * Can leaving decision `l` out change the play from the stranded board? Only two things change: the rules of
   * its group, and the bans of the near nogoods holding it, which are lifted. So it can only if a copy of its
   * group, or of a group those bans held, could then leave.
   */
  private matters(l: number): boolean {
    if (this.anyStranded) return true;
    const g = this.groupOf[this.commitments.decPairs[4 * l]!]!;
    const banned = (this.banLevels[l >>> 5]! & (1 << (l & 31))) !== 0;
    if (!this.skipIdle) return banned || this.freeGroup[g] === this.noteStamp;
    if (this.freeGroup[g] === this.noteStamp && this.canLeave(g, true)) return true;
    if (!banned) return false;
    const lifted = this.lifted;
    for (let k = 0; k < lifted.length; k += 2) if (lifted[k] === l && this.canLeave(lifted[k + 1]!, false)) return true;
    return false;
  }

  /**
   * Under `trial`, could a copy of group g leave the stranded board? One free and uncommitted, with a copy of its
   * group it may pair with that is uncommitted and free or gone, as the optimistic play lets copies leave. With
   * `obeyBans` the forbidden pairings count (never the near nogoods' bans, which only ever ban more); without, no
   * ban does. Either way this may say yes where the play then cannot, never no where it can.
   */
  private canLeave(g: number, obeyBans: boolean): boolean {
    const { present, blockers } = this.plays.stranded;
    const isFree = this.plays.isFree;
    const trial = this.commitments.trial;
    const { memberAt, members } = this.start;
    const ban = this.nogoods.ban;
    const from = memberAt[g]!;
    const to = memberAt[g + 1]!;
    let reached = 0; // copies uncommitted and free or gone, a bit each
    let free = 0; // of those, the ones on the board
    for (let k = from; k < to; k++) {
      const m = members[k]!;
      if (trial[m]! >= 0) continue;
      const bit = 1 << (k - from);
      if (!present[m]) reached |= bit;
      else if (isFree[blockers[m]!] === 1) {
        reached |= bit;
        free |= bit;
      }
    }
    for (let k = from; k < to; k++) {
      const bit = 1 << (k - from);
      const banned = obeyBans ? ban[members[k]!]! : 0;
      if ((free & bit) !== 0 && (reached & ~bit & ~banned) !== 0) return true;
    }
    return false;
  }

  /** Is a nogood broken by decision `level`? If so, writes its levels into conflict[level + 1]. */
  brokenNogood(level: number): boolean {
    const found = this.commitments.broken;
    if (found === INTACT) return false;
    const at = (level + 1) * this.words;
    this.clear(this.conflict, at);
    if (found === FORBIDDEN) this.add(this.conflict, at, level);
    else {
      const { levelOf } = this.commitments;
      const pairs = this.nogoods.pool;
      for (let p = this.nogoods.start(found); p < this.nogoods.end(found); p += 2) {
        const l = levelOf[pairs[p]!]!;
        if (l >= 0) this.add(this.conflict, at, l);
      }
    }
    return true;
  }

  /** conflict[level] := every level below it (always sound). */
  everyLevelBelow(level: number): void {
    const at = level * this.words;
    this.clear(this.conflict, at);
    for (let l = 0; l < level; l++) this.add(this.conflict, at, l);
  }

  startUnion(level: number): void {
    this.clear(this.acc, level * this.words);
  }

  addToUnion(level: number, l: number): void {
    this.add(this.acc, level * this.words, l);
  }

  /**
   * Adds a failed child's conflict to the node's union; false when it lacks the node's decision (backjump).
   */
  merge(level: number): boolean {
    const w = this.words;
    const at = level * w;
    const childAt = at + w;
    if (!this.has(this.conflict, childAt, level)) {
      for (let k = 0; k < w; k++) this.conflict[at + k] = this.conflict[childAt + k]!;
      return false;
    }
    for (let k = 0; k < w; k++) this.acc[at + k]! |= this.conflict[childAt + k]!;
    this.remove(this.acc, at, level);
    return true;
  }

  /** Every pairing failed: the union becomes the node's conflict, learnt as a nogood. */
  closeUnion(level: number): void {
    const at = level * this.words;
    for (let k = 0; k < this.words; k++) this.conflict[at + k] = this.acc[at + k]!;
    this.learn(this.acc, at);
  }

  private learn(bits: Uint32Array, at: number): void {
    const { decPairs, decCount, depth } = this.commitments;
    const pairs: number[] = [];
    for (let l = 0; l < depth; l++) {
      if (!this.has(bits, at, l)) continue;
      this.activity[this.groupOf[decPairs[4 * l]!]!]! += this.bump;
      for (let k = 0; k < decCount[l]!; k++) pairs.push(decPairs[4 * l + 2 * k]!, decPairs[4 * l + 2 * k + 1]!);
    }
    this.nogoods.learn(pairs);
    this.bump *= BUMP_GROWTH;
    if (this.bump > 1e100) {
      for (let g = 0; g < this.activity.length; g++) this.activity[g]! *= 1e-100;
      this.bump *= 1e-100;
    }
  }
}
