/**
 * Random playouts, a node each: a safe move first (a group whose copies left are all free), else a pair drawn
 * uniformly among the allowed free pairs (docs/engine.md, "Playouts").
 */
import type { Flat } from '../flat.ts';
import type { Rng } from '../rng.ts';
import type { Pair } from '../types.ts';
import type { Budget } from './budget.ts';
import type { Nogoods } from './nogoods.ts';
import type { Start, Workspace } from './workspace.ts';

// The six pairs of a group of four as bits: (0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3).
const PAIR_BIT = [
  [0, 1, 2, 4],
  [1, 0, 8, 16],
  [2, 8, 0, 32],
  [4, 16, 32, 0],
] as const;

/** Per banned-pairs mask (six bits) and free-copies mask (four bits): the pairs allowed. */
const ALLOWED = (() => {
  const table = new Int8Array(64 * 16);
  for (let banned = 0; banned < 64; banned++)
    for (let free = 0; free < 16; free++) {
      let pairs = 0;
      for (let i = 0; i < 4; i++)
        for (let j = i + 1; j < 4; j++) if ((free >> i) & (free >> j) & 1 && (banned & PAIR_BIT[i]![j]!) === 0) pairs++;
      table[(banned << 4) | free] = pairs;
    }
  return table;
})();

/**
 * Per banned-pairs mask, free-copies mask and r below ALLOWED's count: the r-th allowed pair of a group of up to
 * four as 4i + j, in the order (0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3).
 */
const PICK = (() => {
  const table = new Int8Array(64 * 16 * 6).fill(-1);
  for (let banned = 0; banned < 64; banned++)
    for (let free = 0; free < 16; free++) {
      let r = 0;
      for (let i = 0; i < 4; i++)
        for (let j = i + 1; j < 4; j++)
          if ((free >> i) & (free >> j) & 1 && (banned & PAIR_BIT[i]![j]!) === 0)
            table[((banned << 4) | free) * 6 + r++] = 4 * i + j;
    }
  return table;
})();

/**
 * A tile's blockers in one number: above × ABOVE + left × LEFT + right (the counts of present tiles above it and
 * beside it), plus GONE once it has left. One read tells whether it is free (`free[v]`); a neighbour's removal
 * subtracts its step. The bases come from the full board's largest counts, so the fields never carry.
 */
export interface Neighbours {
  readonly at: Int32Array;
  // What each removal changes, tile << 8 | step: a tile below it or beside it, and by how much: ABOVE, LEFT (it
  // stood left of the tile) or RIGHT (1).
  readonly link: Int32Array;
  readonly above: number; // ABOVE
  readonly left: number; // LEFT
  readonly gone: number; // GONE: every value below it is a tile on the board
  readonly free: Uint8Array; // per value: 1 if such a tile is free (on the board, nothing above, a side open)
}

export function neighboursOf(flat: Flat, n: number): Neighbours {
  const at = new Int32Array(n + 1);
  let maxAbove = 0;
  let maxLeft = 0;
  let maxRight = 0;
  for (let t = 0; t < n; t++) {
    at[t + 1] =
      at[t]! +
      (flat.belowAt[t + 1]! - flat.belowAt[t]!) +
      (flat.leftAt[t + 1]! - flat.leftAt[t]!) +
      (flat.rightAt[t + 1]! - flat.rightAt[t]!);
    maxAbove = Math.max(maxAbove, flat.aboveAt[t + 1]! - flat.aboveAt[t]!);
    maxLeft = Math.max(maxLeft, flat.leftAt[t + 1]! - flat.leftAt[t]!);
    maxRight = Math.max(maxRight, flat.rightAt[t + 1]! - flat.rightAt[t]!);
  }
  const left = maxRight + 1;
  const above = (maxLeft + 1) * left;
  if (above > 255) throw new Error('solve: a tile with more neighbours than a layout can give it');
  const gone = (maxAbove + 1) * above;
  const free = new Uint8Array(2 * gone);
  for (let v = 0; v < gone; v++) {
    const sides = v % above;
    free[v] = v < above && (sides < left || sides % left === 0) ? 1 : 0;
  }
  const link = new Int32Array(at[n]!);
  for (let t = 0; t < n; t++) {
    let e = at[t]!;
    // In the separate lists' order: the same tiles freed in the same order. t lies above the tiles below it, is
    // the right neighbour of those on its left, and the left neighbour of those on its right.
    for (let k = flat.belowAt[t]!; k < flat.belowAt[t + 1]!; k++, e++) {
      link[e] = (flat.below[k]! << 8) | above;
    }
    for (let k = flat.leftAt[t]!; k < flat.leftAt[t + 1]!; k++, e++) {
      link[e] = (flat.left[k]! << 8) | 1;
    }
    for (let k = flat.rightAt[t]!; k < flat.rightAt[t + 1]!; k++, e++) {
      link[e] = (flat.right[k]! << 8) | left;
    }
  }
  return { at, link, above, left, gone, free };
}

/** The blockers number of a tile on the board with these counts of tiles above it, on its left and on its right. */
export const blockersOf = (nbr: Neighbours, above: number, left: number, right: number): number =>
  above * nbr.above + left * nbr.left + right;

/** Every tile's blockers number from its counts of tiles above it, on its left and on its right; into `out`. */
export function blockersFromCounts(
  nbr: Neighbours,
  [above, left, right]: readonly [Int32Array, Int32Array, Int32Array],
  out: Int32Array = new Int32Array(above.length),
): Int32Array {
  for (let i = 0; i < above.length; i++) out[i] = blockersOf(nbr, above[i]!, left[i]!, right[i]!);
  return out;
}

export class Playouts {
  private readonly n: number;
  private readonly count: number;
  private readonly groupCount: number;
  private readonly groupOf: Int32Array;
  private readonly memberAt: Int32Array;
  private readonly members: Int32Array;
  private readonly rank: Int32Array;
  private readonly start: Start;
  private readonly nbr: Neighbours;

  // The board: every tile's blockers, one number each (Neighbours).
  private readonly blockers: Int32Array;
  private readonly startBlockers: Int32Array;
  // Per group, five sections: free copies (bits), free copies, copies left, playable pairs, banned pairs;
  // then
  // per block of eight groups the sum of their pairs.
  private readonly state: Int32Array;
  private readonly opening: Int32Array;
  private readonly safe: Int32Array; // groups whose copies left may all be free
  private readonly safeAtStart: Int32Array;
  private safeTop = 0;
  private safeTopAtStart = 0;
  private drawable = 0;
  private drawableAtStart = 0;
  private readonly moves: Int32Array;
  private openingBans = -1; // nogoods.bans when the opening was worked out; -1: not yet
  private draws = 0; // xorshift32 state, seeded from the solve's generator

  constructor(
    work: Workspace,
    start: Start,
    private readonly budget: Budget,
    private readonly nogoods: Nogoods,
  ) {
    this.n = start.n;
    this.count = start.count;
    this.groupCount = start.groupCount;
    this.groupOf = start.groupOf;
    this.memberAt = start.memberAt;
    this.members = start.members;
    this.rank = start.rank;
    this.start = start;
    this.nbr = work.neighbours;
    this.blockers = work.playoutBlockers;
    this.startBlockers = work.playoutStartBlockers;
    this.state = work.playoutState;
    this.opening = work.playoutOpening;
    this.safe = work.playoutSafe;
    this.safeAtStart = work.playoutSafeAtStart;
    this.moves = work.playoutMoves;
  }

  /** One random playout (one node): the moves if it clears the board, else null. */
  playout(rng: Rng): Pair[] | null {
    this.budget.spend();
    if (this.draws === 0) this.draws = rng.next() | 1;
    if (this.openingBans !== this.nogoods.bans) this.open();
    const { blockers, state, safe, members, memberAt, moves, groupOf, rank } = this;
    const { at, link, free: isFree, gone } = this.nbr;
    const groups = this.groupCount;
    const FREE_COUNT = groups;
    const LEFT = 2 * groups;
    const PAIRS = 3 * groups;
    const BANNED = 4 * groups;
    const BLOCKS = 5 * groups;
    blockers.set(this.startBlockers);
    const opening = this.opening;
    for (let i = 0, end = BLOCKS + (groups >> 3) + 1; i < end; i++) state[i] = opening[i]!;
    let safeTop = this.safeTopAtStart;
    const safeAtStart = this.safeAtStart;
    for (let i = 0; i < safeTop; i++) safe[i] = safeAtStart[i]!;
    let drawable = this.drawableAtStart;
    let draws = this.draws;
    let played = 0;
    for (let remaining = this.count; remaining > 0; remaining -= 2) {
      let g = -1;
      while (safeTop > 0 && g < 0) {
        const h = safe[--safeTop]!;
        const left = state[LEFT + h]!;
        if (left > 0 && state[FREE_COUNT + h] === left) g = h;
      }
      let a = -1;
      let b = -1;
      if (g >= 0) {
        for (let k = memberAt[g]!; k < memberAt[g + 1]! && b < 0; k++) {
          const m = members[k]!;
          if (blockers[m]! >= gone) continue;
          if (a < 0) a = m;
          else b = m;
        }
      } else {
        if (drawable === 0) {
          this.draws = draws;
          return null;
        }
        draws ^= draws << 13;
        draws ^= draws >>> 17;
        draws ^= draws << 5;
        let r = Math.floor(((draws >>> 0) * drawable) / 0x100000000); // exact in doubles: the same everywhere
        let block = 0;
        for (; r >= state[BLOCKS + block]!; block++) r -= state[BLOCKS + block]!;
        for (g = block << 3; r >= state[PAIRS + g]!; g++) r -= state[PAIRS + g]!;
        const from = memberAt[g]!;
        const size = memberAt[g + 1]! - from;
        const free = state[g]!;
        if (size <= 4) {
          const banned = size === 4 && state[LEFT + g] === 4 ? state[BANNED + g]! : 0;
          const pair = PICK[((banned << 4) | free) * 6 + r]!;
          a = members[from + (pair >> 2)]!;
          b = members[from + (pair & 3)]!;
        } else
          for (let i = 0; i < size && b < 0; i++) {
            if (((free >> i) & 1) === 0) continue;
            for (let j = i + 1; j < size; j++) {
              if (((free >> j) & 1) === 0 || r-- > 0) continue;
              a = members[from + i]!;
              b = members[from + j]!;
              break;
            }
          }
      }
      moves[played++] = a;
      moves[played++] = b;
      state[FREE_COUNT + g]! -= 2;
      state[LEFT + g]! -= 2;
      // Take a, then b (b stays marked free while a's neighbours are told), then recount group g.
      for (let side = 0; side < 2; side++) {
        const t = side === 0 ? a : b;
        blockers[t]! += gone;
        state[g]! &= ~(1 << rank[t]!);
        for (let e = at[t]!, end = at[t + 1]!; e <= end; e++) {
          let h: number;
          if (e === end) h = side === 1 ? g : -1;
          else {
            const l = link[e]!;
            const j = l >> 8;
            if (isFree[(blockers[j]! -= l & 255)] === 0) continue;
            h = groupOf[j]!;
            const bit = 1 << rank[j]!;
            if ((state[h]! & bit) !== 0) continue;
            state[h]! |= bit;
            state[FREE_COUNT + h]!++;
          }
          if (h < 0) continue;
          const freeCount = state[FREE_COUNT + h]!;
          const bannedH = state[BANNED + h]!;
          const left = state[LEFT + h]!;
          const pairs =
            bannedH !== 0 && left === 4 ? ALLOWED[(bannedH << 4) | state[h]!]! : (freeCount * (freeCount - 1)) >> 1;
          const delta = pairs - state[PAIRS + h]!;
          state[PAIRS + h] = pairs;
          state[BLOCKS + (h >> 3)]! += delta;
          drawable += delta;
          if (left > 0 && freeCount === left) safe[safeTop++] = h;
        }
      }
    }
    this.draws = draws;
    const out: Pair[] = [];
    for (let k = 0; k < played; k += 2) out.push([moves[k]!, moves[k + 1]!]);
    return out;
  }

  /** Group g changed: its playable pairs again, and whether it is safe to take. */
  private recount(g: number): void {
    const groups = this.groupCount;
    const state = this.state;
    const pairs = this.playablePairs(g);
    const delta = pairs - state[3 * groups + g]!;
    state[3 * groups + g] = pairs;
    state[5 * groups + (g >> 3)]! += delta;
    this.drawable += delta;
    const left = state[2 * groups + g]!;
    if (left > 0 && state[groups + g] === left) this.safe[this.safeTop++] = g;
  }

  /** Group g's playable pairs: none of a banned pairing in a full group of four. */
  private playablePairs(g: number): number {
    const groups = this.groupCount;
    const state = this.state;
    const free = state[groups + g]!;
    const banned = state[4 * groups + g]!;
    if (banned !== 0 && state[2 * groups + g] === 4) return ALLOWED[(banned << 4) | state[g]!]!;
    return (free * (free - 1)) >> 1;
  }

  /** What every playout starts from; redone when nogoods.bans changes. */
  private open(): void {
    const { n, groupOf, rank, memberAt, members, state } = this;
    const groups = this.groupCount;
    const start = this.start;
    const { gone, free } = this.nbr;
    for (let i = 0; i < n; i++) this.startBlockers[i] = start.blockers[i]! + (start.present[i] ? 0 : gone);
    state.fill(0, 0, 5 * groups + (groups >> 3) + 1);
    for (let i = 0; i < n; i++) {
      if (!start.present[i]) continue;
      const g = groupOf[i]!;
      state[2 * groups + g]!++;
      if (free[start.blockers[i]!] === 1) {
        state[g]! |= 1 << rank[i]!;
        state[groups + g]!++;
      }
    }
    const ban = this.nogoods.ban;
    for (let g = 0; g < groups; g++) {
      const from = memberAt[g]!;
      if (memberAt[g + 1]! - from !== 4 || !this.nogoods.restricted[g]) continue;
      let banned = 0;
      for (let i = 0; i < 4; i++)
        for (let j = i + 1; j < 4; j++) if ((ban[members[from + i]!]! & (1 << j)) !== 0) banned |= PAIR_BIT[i]![j]!;
      state[4 * groups + g] = banned;
    }
    this.drawable = 0;
    this.safeTop = 0;
    for (let g = 0; g < groups; g++) this.recount(g);
    this.opening.set(state);
    this.safeAtStart.set(this.safe);
    this.safeTopAtStart = this.safeTop;
    this.drawableAtStart = this.drawable;
    this.openingBans = this.nogoods.bans;
  }
}
