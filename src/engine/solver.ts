/**
 * The solver: is a position clearable, and how?
 *
 * Implementation notes. Searching over move orders wastes its budget on orders of
 * the same removals. Instead we search over *pairings*: which copy of a face is
 * removed with which. Once every tile's partner is fixed, the order no longer
 * matters — removing a tile only ever frees others — so playing any pair whose two
 * tiles are both free, until none is left, decides the pairing exactly.
 *
 * A search state is a set of *commitments* (a group's copies paired up), one per
 * decision level. Two plays judge it, each a full replay from the start position
 * on typed arrays (no allocation), counted as one node each:
 * - `relax`, an optimistic play: committed pairs leave when both are free; an
 *   uncommitted copy leaves once it is free and another uncommitted copy of its
 *   group that it may still pair with (no forbidden pairing) is free or gone. Every real solution under the commitments passes it,
 *   so a failure proves the commitments dead; with every group committed it is
 *   exact. It is monotone: more commitments never remove more tiles.
 * - `greedy`, real play: committed pairs leave when both are free, and a group
 *   whose uncommitted copies are all free at once leaves whole (any pairing of
 *   free copies is safe). When it clears the board, its moves are the solution;
 *   when it stops, a group with two or more free uncommitted copies (not all) is
 *   branched on: every way to pair its copies, the pairing that plays copies the
 *   optimistic play frees at about the same time first.
 *
 * Conflict-directed backjumping: when `relax` fails, the commitments are released
 * one at a time (those whose tiles the failed play removed anyway in one batch
 * first) and kept only when the play then succeeds: a deletion-minimal conflict
 * set. A level whose every pairing fails returns the union of its children's
 * conflicts without itself; a child whose conflict does not contain the level's
 * decision makes the search jump straight back over it. Every such set is learnt
 * as a nogood (no solution has all of those pairs) and checked whenever a pairing
 * is tried; nogoods survive restarts (Luby schedule), which keep unlucky early
 * choices from dominating. Choosing the group to branch on, a pairing that a nogood
 * rules out under the commitments in force counts as gone (a lazy unit propagation,
 * spending no node): a group left with one pairing is branched on first and one
 * with none fails at once (measured: mean nodes −17% on study-1 … 1000 and −26% on
 * study-1001 … 2000, p99 −15% and −59%; one unresolved deal less in each thousand).
 * The optimistic play also obeys the nogoods: a pairing of a group of four that a
 * nogood rules out given the commitments the play runs under is banned like a
 * forbidden one (found among the nogoods with at most two pairs left uncommitted,
 * kept up to date as decisions come and go). Measured on study-1 … 1000: mean nodes
 * 1,810 → 1,260, p99 20,172 → 8,620, and study-974, unresolved before, proved
 * unsolvable in 149,434 nodes (457,285 before).
 * Before any play, pairings of copies stacked on each other are forbidden (they never
 * pair). Before the search each group's pairings are probed alone at the root, the
 * groups with the fewest pairings left first, each play stopping once the group is
 * gone: a pairing that fails is forbidden for good, and a group left with one
 * pairing is committed; the probe runs again after every restart, as pairings
 * forbidden meanwhile make the optimistic play stricter. The optimistic play from
 * the start runs first of all (a classic deal's unwinnable shuffles mostly fail
 * it), then a few random playouts: they clear most easy positions in microseconds.
 * Measured on the classic deals of arrow, enterprise, GNOME's pyramid, star ship
 * and difficult: 30–45% less time per shuffle tried.
 * Each play counts as one node against the budget, so results never depend on the
 * clock.
 */
import { coverOf, flatOf, neighbourCounts, type Cover, type Flat } from './flat.ts';
import type { Geometry } from './layout.ts';
import { matchGroup, type Presence } from './rules.ts';
import { makeRng, type Rng } from './rng.ts';
import type { Face, Pair } from './types.ts';

export const SOLVE_BUDGET = 200_000; // default node budget
const PLAYOUTS = 4; // random playouts tried before the search
const RESTART_UNIT = 1024; // nodes in the shortest search run
const MAX_NOGOODS = 100_000; // nogoods kept per solve: a bound on memory

export type SolveOutcome = 'solvable' | 'unsolvable' | 'unresolved';

export type SolveResult =
  | { readonly result: 'solvable'; readonly nodes: number; readonly solution: Pair[] } // solution in play order
  | { readonly result: 'unsolvable'; readonly nodes: number }
  | { readonly result: 'unresolved'; readonly nodes: number }; // nodes: plays and playout moves

export interface SolveOptions {
  readonly budget?: number; // node budget; default SOLVE_BUDGET
  readonly seed?: string; // seeds the playouts and tie-breaks; default 'solve'
  readonly playouts?: number; // random playouts before the search; default PLAYOUTS (the dealer skips them when it takes a mended deal's trades back)
}

// Outcomes of a search node.
const SOLVED = 0;
const FAILED = 1; // with its conflict set
const DEAD = 2; // failed relax at once; its conflict set not computed yet

class BudgetExceeded extends Error {}
class Restart extends Error {}
// Thrown as they are: a new Error records a stack trace, microseconds that a restart or a give-up need not spend.
const BUDGET_EXCEEDED = new BudgetExceeded('solve: node budget spent');
const RESTART = new Restart('solve: restart');

/** The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, …: a restart schedule within a log factor of optimal. */
function luby(k: number): number {
  for (let size = 1, power = 1; ; size = 2 * size + 1, power *= 2) {
    if (k === size) return power;
    if (k < size) return luby(k - (size - 1) / 2);
  }
}

/**
 * Solves the position given by `present` (1 per tile on the board) and `faces`
 * (the face per slot; removed slots may hold anything). The position must be
 * reachable by legal play from a full board (every position in a game is).
 */
export function solve(
  geom: Geometry,
  present: Presence,
  faces: readonly (Face | null)[],
  options: SolveOptions = {},
): SolveResult {
  const budget = options.budget ?? SOLVE_BUDGET;
  const n = geom.size;
  const rng = makeRng(options.seed ?? 'solve', 'solver');

  // Groups of tiles that match each other.
  const work = workspaceOf(geom);
  const groupOf = work.groupOf.fill(-1);
  const sizes = work.sizes.fill(0); // copies per group; groups numbered in slot order of their first copy
  const groupIds = work.groupIds;
  groupIds.clear();
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (!present[i]) continue;
    count++;
    const face = faces[i];
    if (face == null) throw new Error(`solve: slot ${i} is present but has no face`);
    const key = matchGroup(face);
    let g = groupIds.get(key);
    if (g === undefined) groupIds.set(key, (g = groupIds.size));
    sizes[g]!++;
    groupOf[i] = g;
  }
  if (count === 0) return { result: 'solvable', nodes: 0, solution: [] };
  for (let g = 0; g < groupIds.size; g++) if (sizes[g]! % 2 !== 0) return { result: 'unsolvable', nodes: 0 };

  const search = new PairingSearch(geom, work, present, groupIds.size, groupOf, count, budget, rng);
  try {
    if (!search.possible()) return { result: 'unsolvable', nodes: search.nodes };
    for (let p = 0, playouts = options.playouts ?? PLAYOUTS; p < playouts; p++) {
      const moves = search.playout();
      if (moves) return { result: 'solvable', nodes: search.nodes, solution: moves };
    }
    const moves = search.run();
    if (moves) return { result: 'solvable', nodes: search.nodes, solution: moves };
    return { result: 'unsolvable', nodes: search.nodes };
  } catch (e) {
    if (e instanceof BudgetExceeded) return { result: 'unresolved', nodes: budget };
    throw e;
  }
}

/** A board during play: what greedy play left, the start of the plays below it. */
interface PlayState {
  readonly present: Uint8Array;
  readonly above: Int32Array; // per tile, present tiles above it
  readonly left: Int32Array; // present neighbours on the left
  readonly right: Int32Array;
  readonly mate: Int32Array; // partners: commitments and the pairs greedy play made
  remaining: number; // tiles present
  played: number; // entries of `moves` (two per move) that led here
}

/**
 * The typed arrays a solve works in, one set per geometry and reused by every
 * solve on it: allocating a small typed array costs a few microseconds, and a
 * solve needs some forty of them, more than many whole solves take (a classic
 * deal's rejected shuffles, the worker's answers). Solves are synchronous and
 * never nested, so one set serves them all; PairingSearch resets what it reads
 * before writing. Sizes are bounds: at most n/2 groups, n/2 + 1 decision levels,
 * groups of at most n copies.
 */
class Workspace {
  readonly groupOf: Int32Array;
  readonly groupIds = new Map<string, number>(); // match group → group number, per solve
  readonly sizes: Int32Array; // per group, its copies
  readonly nextSlot: Int32Array; // scratch: per group, where in `members` its next copy goes
  readonly start: Uint8Array;
  readonly counts: [Int32Array, Int32Array, Int32Array]; // at the start: above, left, right
  readonly ban: Int32Array;
  readonly playBan: Int32Array;
  readonly activity: Int32Array;
  readonly restricted: Uint8Array;
  readonly playRestricted: Uint8Array;
  readonly memberAt: Int32Array;
  readonly members: Int32Array;
  readonly present: Uint8Array;
  readonly above: Int32Array;
  readonly left: Int32Array;
  readonly right: Int32Array;
  readonly seen: Uint8Array;
  readonly avail: Int32Array;
  readonly open: Int32Array;
  readonly mate: Int32Array;
  readonly time: Int32Array;
  readonly marks: Int32Array;
  readonly stack: Int32Array;
  readonly moves: Int32Array;
  readonly base: Int32Array;
  readonly partner: Int32Array;
  readonly trial: Int32Array;
  readonly levelOf: Int32Array;
  readonly decPairs: Int32Array;
  readonly decCount: Int32Array;
  readonly conflict: Uint32Array;
  readonly acc: Uint32Array;
  readonly options: Int32Array;
  readonly copies: Int32Array;
  readonly freeBits: Uint32Array;
  readonly optionCost = new Int32Array(4);
  readonly states: PlayState[] = []; // allocated as plays first reach them
  readonly words: number;

  constructor(n: number, flat: Flat) {
    const levels = (n >>> 1) + 1;
    this.words = (levels + 31) >>> 5;
    this.groupOf = new Int32Array(n);
    this.sizes = new Int32Array(n);
    this.nextSlot = new Int32Array(n);
    this.start = new Uint8Array(n);
    this.counts = [new Int32Array(n), new Int32Array(n), new Int32Array(n)];
    this.ban = new Int32Array(n);
    this.playBan = new Int32Array(n);
    this.activity = new Int32Array(n);
    this.restricted = new Uint8Array(n);
    this.playRestricted = new Uint8Array(n);
    this.memberAt = new Int32Array(n + 1);
    this.members = new Int32Array(n);
    this.present = new Uint8Array(n);
    this.above = new Int32Array(n);
    this.left = new Int32Array(n);
    this.right = new Int32Array(n);
    this.seen = new Uint8Array(n);
    this.avail = new Int32Array(n);
    this.open = new Int32Array(n);
    this.mate = new Int32Array(n);
    this.time = new Int32Array(n);
    this.marks = new Int32Array(n);
    // Pushes: every tile once, neighbours once per removal, a group's copies once per copy seen at most.
    this.stack = new Int32Array(6 * n + flat.below.length + flat.left.length + flat.right.length + 8);
    this.moves = new Int32Array(n);
    this.base = new Int32Array(n);
    this.partner = new Int32Array(n);
    this.trial = new Int32Array(n);
    this.levelOf = new Int32Array(n);
    this.decPairs = new Int32Array(levels * 4);
    this.decCount = new Int32Array(levels);
    this.conflict = new Uint32Array((levels + 1) * this.words);
    this.acc = new Uint32Array((levels + 1) * this.words);
    this.options = new Int32Array(levels * n);
    this.copies = new Int32Array(n);
    this.freeBits = new Uint32Array((n + 31) >>> 5);
  }
}

const WORKSPACE = new WeakMap<Geometry, Workspace>();
function workspaceOf(geom: Geometry): Workspace {
  let work = WORKSPACE.get(geom);
  if (!work) WORKSPACE.set(geom, (work = new Workspace(geom.size, flatOf(geom))));
  return work;
}

/** Conflict-directed search over pairings; see the module notes. */
class PairingSearch {
  nodes = 0; // nodes spent: plays and playout moves
  private readonly n: number;
  private readonly flat: Flat;
  private readonly cover: Cover;
  private readonly start: Uint8Array; // presence at the start
  private readonly above0: Int32Array; // per tile, present tiles above it at the start
  private readonly left0: Int32Array; // present neighbours on the left at the start
  private readonly right0: Int32Array;
  private readonly memberAt: Int32Array; // group g's present copies are members[memberAt[g] .. memberAt[g + 1])
  private readonly members: Int32Array;
  private readonly groupCount: number;

  // Scratch for the plays: reset at the start of each one.
  private readonly present: Uint8Array;
  private readonly above: Int32Array;
  private readonly left: Int32Array;
  private readonly right: Int32Array;
  private readonly seen: Uint8Array; // relax: became free or left; greedy: counted as free
  private readonly avail: Int32Array; // per group: relax: uncommitted copies free or gone; greedy: free uncommitted copies
  private readonly open: Int32Array; // greedy, per group: uncommitted copies present
  private readonly mate: Int32Array; // greedy: partners, the commitments plus pairs it made itself
  private readonly time: Int32Array; // relax: when each tile left (for value ordering)
  private readonly marks: Int32Array; // covers: tiles reached, by stamp
  private stamp = 0; // marks: the last stamp handed out (the marks are cleared per solve)
  private readonly stack: Int32Array;
  private readonly moves: Int32Array; // greedy: tiles in removal order, two per move
  private movesLength = 0;
  // Play states: 0 is greedy play under the base; state l + 1 is what the greedy play
  // of the node at level l left, where every play below that node starts.
  private readonly states: PlayState[];

  // Commitments. base: made for good at the root; partner: base plus the decisions in force.
  private readonly base: Int32Array;
  private readonly partner: Int32Array;
  private readonly trial: Int32Array; // partners for a conflict test
  private readonly levelOf: Int32Array; // decision level that paired a tile; -1: base or none
  private readonly decPairs: Int32Array; // per level, up to two pairs: a0 b0 a1 b1
  private readonly decCount: Int32Array; // pairs per level
  private depth = 0; // decisions in force

  // Conflict sets: one bitset over levels per level.
  private readonly words: number;
  private readonly conflict: Uint32Array; // conflict[level]: what the node at that level returned
  private readonly acc: Uint32Array; // acc[level]: union of its children's conflicts
  private readonly stride: number; // the largest group's size: room per level in `options`
  private readonly options: Int32Array; // per level, the pairings tried: the anchor, then its partners in order
  private readonly copies: Int32Array; // scratch: a group's uncommitted copies; the playouts' free tiles
  private readonly freeBits: Uint32Array; // playout: the free tiles, a bit per tile
  private readonly optionCost: Int32Array; // scratch: the costs of the options being ordered

  // Nogoods: sets of pairs that no solution has all of.
  private readonly nogoods: Int32Array[] = [];
  private readonly watchers = new Map<number, number[]>(); // pair key → ids of the nogoods watching it
  private readonly forbidden = new Set<number>(); // pair keys no solution has (unit nogoods)
  private readonly containing = new Map<number, number[]>(); // pair key → ids of the nogoods that hold it
  private readonly miss: number[] = []; // per nogood: its pairs not committed in `partner`
  private readonly near: number[] = []; // ids of the nogoods with at most two pairs not committed in `partner`
  private readonly nearAt: number[] = []; // per nogood: its index in `near`, or -1
  // For groups of exactly four copies with a forbidden pairing: per copy, a bit per group member (by its index in
  // the group) it can never pair with; `relax` lets an uncommitted copy go only with a copy it may pair with.
  private readonly ban: Int32Array;
  private readonly restricted: Uint8Array; // per group: has a forbidden pairing
  // What `relax` uses: `ban` and `restricted` plus the pairings a nogood rules out under the commitments it plays.
  private readonly playBan: Int32Array;
  private readonly playRestricted: Uint8Array;

  // Activity per group (after SAT solvers' VSIDS): how many learnt conflicts the group
  // took part in. Unlike SAT solvers, the *least* active
  // group is branched on: groups caught in conflicts are decided late, when more of the
  // board is gone and the optimistic play judges them better (measured: fewer nodes).
  private readonly activity: Int32Array;

  private limit = 0; // nodes this run may visit
  private visited = 0; // nodes this run has visited

  constructor(
    geom: Geometry,
    work: Workspace,
    start: Presence,
    groupCount: number, // groups numbered 0 … groupCount − 1 in `groupOf`, their sizes in work.sizes
    private readonly groupOf: Int32Array,
    private readonly count: number,
    private readonly budget: number,
    private readonly rng: Rng,
  ) {
    this.n = geom.size;
    const flat = (this.flat = flatOf(geom));
    this.cover = coverOf(geom);
    // The workspace's arrays, reset where a solve reads before it writes.
    this.start = work.start;
    this.start.set(start);
    [this.above0, this.left0, this.right0] = neighbourCounts(flat, this.start, work.counts);
    this.groupCount = groupCount;
    this.activity = work.activity.fill(0);
    this.ban = work.ban.fill(0);
    this.restricted = work.restricted.fill(0);
    this.playBan = work.playBan;
    this.playRestricted = work.playRestricted;
    this.memberAt = work.memberAt;
    this.memberAt[0] = 0;
    for (let g = 0; g < groupCount; g++) this.memberAt[g + 1] = this.memberAt[g]! + work.sizes[g]!;
    // Each group's copies in slot order, placed by a counting sort over `groupOf`.
    this.members = work.members;
    const nextSlot = work.nextSlot;
    nextSlot.set(this.memberAt.subarray(0, groupCount));
    for (let i = 0; i < this.n; i++) if (start[i]) this.members[nextSlot[groupOf[i]!]!++] = i;

    this.present = work.present;
    this.above = work.above;
    this.left = work.left;
    this.right = work.right;
    this.seen = work.seen;
    this.avail = work.avail;
    this.open = work.open;
    this.mate = work.mate;
    this.time = work.time.fill(0);
    this.marks = work.marks.fill(0);
    this.stack = work.stack;
    this.moves = work.moves;
    this.states = work.states;

    const root = this.stateAt(0);
    root.present.set(this.start);
    root.above.set(this.above0);
    root.left.set(this.left0);
    root.right.set(this.right0);
    root.mate.fill(-1);
    root.remaining = count;
    root.played = 0;
    this.base = work.base.fill(-1);
    this.partner = work.partner.fill(-1);
    this.trial = work.trial;
    this.levelOf = work.levelOf.fill(-1);
    this.decPairs = work.decPairs.fill(0);
    this.decCount = work.decCount.fill(0);
    this.words = work.words;
    this.conflict = work.conflict.fill(0);
    this.acc = work.acc.fill(0);
    let stride = 0;
    for (let g = 0; g < groupCount; g++) stride = Math.max(stride, work.sizes[g]!);
    this.stride = stride;
    this.options = work.options;
    this.copies = work.copies;
    this.freeBits = work.freeBits;
    this.optionCost = work.optionCost;
    for (let g = 0; g < groupCount; g++)
      if (work.sizes[g] === 2) this.pairBase(this.members[this.memberAt[g]!]!, this.members[this.memberAt[g]! + 1]!);
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

  private spend(): void {
    if (++this.nodes > this.budget) throw BUDGET_EXCEEDED;
    if (++this.visited > this.limit) throw RESTART;
  }

  private pairBase(a: number, b: number): void {
    this.base[a] = b;
    this.base[b] = a;
    this.partner[a] = b;
    this.partner[b] = a;
  }

  private isFree(t: number): boolean {
    return this.above[t] === 0 && (this.left[t] === 0 || this.right[t] === 0);
  }

  /**
   * Loads play state `slot` into the scratch board and pushes its free tiles; the
   * stack height.
   */
  private load(slot: number): number {
    const state = this.states[slot]!;
    this.present.set(state.present);
    this.above.set(state.above);
    this.left.set(state.left);
    this.right.set(state.right);
    this.seen.fill(0);
    // Only free tiles can move now; the others are pushed when a neighbour leaves.
    let top = 0;
    const { present, above, left, right } = this;
    for (let i = 0; i < this.n; i++)
      if (present[i] && above[i] === 0 && (left[i] === 0 || right[i] === 0)) this.stack[top++] = i;
    return top;
  }

  /** Removes tile r from the scratch board and pushes the tiles that may have become free. */
  private remove(r: number, top: number): number {
    const f = this.flat;
    const stack = this.stack;
    this.present[r] = 0;
    for (let k = f.belowAt[r]!, end = f.belowAt[r + 1]!; k < end; k++) {
      const j = f.below[k]!;
      this.above[j]!--;
      stack[top++] = j;
    }
    for (let k = f.leftAt[r]!, end = f.leftAt[r + 1]!; k < end; k++) {
      const j = f.left[k]!;
      this.right[j]!--;
      stack[top++] = j;
    }
    for (let k = f.rightAt[r]!, end = f.rightAt[r + 1]!; k < end; k++) {
      const j = f.right[k]!;
      this.left[j]!--;
      stack[top++] = j;
    }
    return top;
  }

  /**
   * `playBan` and `playRestricted` for a play under `partner` (the commitments in
   * force or a subset of them): the forbidden pairings, plus each pairing of a group
   * of four uncommitted copies that a learnt nogood rules out given `partner` (all
   * its other pairs committed there). Nogoods hold in every solution, so the play
   * stays optimistic, and fewer commitments never ban more. Only nogoods with at most
   * two pairs uncommitted in force (`near`) can qualify. False when `partner` breaks
   * a nogood or leaves some group no pairing.
   */
  private restrict(partner: Int32Array): boolean {
    const { playBan, playRestricted, members, memberAt, groupOf, near } = this;
    playBan.set(this.ban);
    playRestricted.set(this.restricted);
    for (let i = 0; i < near.length; i++) {
      const pairs = this.nogoods[near[i]!]!;
      let a = -1;
      let x = -1;
      let y = -1;
      let z = -1;
      let open = 0;
      for (let p = 0; p < pairs.length && open <= 2; p += 2) {
        const s = pairs[p]!;
        const t = pairs[p + 1]!;
        if (partner[s] === t) continue;
        if (open++ === 0) {
          a = s;
          x = t;
        } else {
          y = s;
          z = t;
        }
      }
      if (open > 2) continue;
      if (open === 0) return false;
      const g = groupOf[a]!;
      const from = memberAt[g]!;
      if (memberAt[g + 1]! - from !== 4 || groupOf[x] !== g) continue;
      if (open === 2 && (groupOf[y] !== g || groupOf[z] !== g)) continue;
      let free = true;
      for (let k = from; k < from + 4 && free; k++) free = partner[members[k]!]! < 0;
      if (!free) continue;
      let ia = 0;
      let ix = 0;
      for (let k = 0; k < 4; k++) {
        const m = members[from + k]!;
        if (m === a) ia = k;
        else if (m === x) ix = k;
      }
      let iy = 0;
      while (iy === ia || iy === ix) iy++;
      const iz = 6 - ia - ix - iy;
      if (open === 2 && members[from + iy] !== y && members[from + iz] !== y) continue;
      playBan[a]! |= 1 << ix;
      playBan[x]! |= 1 << ia;
      playBan[members[from + iy]!]! |= 1 << iz;
      playBan[members[from + iz]!]! |= 1 << iy;
      playRestricted[g] = 1;
      if ((playBan[members[from]!]! & 14) === 14) return false; // no pairing left
    }
    return true;
  }

  /** Commits (delta −1) or releases (+1) the pair (a, b) in the nogoods' counts. */
  private tally(a: number, b: number, delta: number): void {
    const ids = this.containing.get(this.key(a, b));
    if (!ids) return;
    const { miss, near, nearAt } = this;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      const m = (miss[id]! += delta);
      if (delta < 0 && m === 2) {
        nearAt[id] = near.length;
        near.push(id);
      } else if (delta > 0 && m === 3) {
        const at = nearAt[id]!;
        const last = near.pop()!;
        if (last !== id) {
          near[at] = last;
          nearAt[last] = at;
        }
        nearAt[id] = -1;
      }
    }
  }

  /**
   * The optimistic play under `partner` (see the notes), continued from play state
   * `slot`: true when it empties the board. With `until` a group, true already once
   * that group's copies are gone: the probe's use, where the play without the
   * group's commitment is known to clear the board. The plays differ only in how
   * that group leaves, so once it is gone they remove the same tiles (the play
   * removes every tile its rules allow, in whatever order). Should the play without
   * it fail after all, the answer errs towards "possible", which only weakens the
   * probe.
   */
  private relax(partner: Int32Array, slot: number, until = -1): boolean {
    this.spend();
    let top = this.load(slot);
    const { present, seen, avail, stack, groupOf, members, memberAt, time } = this;
    avail.fill(0);
    if (!this.restrict(partner)) return false;
    const { playBan: ban, playRestricted: restricted } = this;
    // Copies gone before the state that `partner` leaves uncommitted count as gone.
    for (let k = 0, end = memberAt[this.groupCount]!; k < end; k++) {
      const m = members[k]!;
      if (!present[m] && partner[m]! < 0) {
        avail[groupOf[m]!]!++;
        seen[m] = 1;
      }
    }
    let left = this.states[slot]!.remaining;
    let pending = -1; // copies of group `until` on the board
    if (until >= 0) {
      pending = 0;
      for (let k = memberAt[until]!; k < memberAt[until + 1]!; k++) pending += present[members[k]!]!;
    }
    let clock = 0;
    // First in, first out: `time` then follows waves of tiles freed.
    for (let head = 0; head < top;) {
      const t = stack[head++]!;
      if (!present[t] || !this.isFree(t)) continue;
      const p = partner[t]!;
      const g = groupOf[t]!;
      if (!seen[t]) {
        seen[t] = 1;
        if (p < 0 && (++avail[g] === 2 || restricted[g]))
          for (let k = memberAt[g]!; k < memberAt[g + 1]!; k++) if (members[k] !== t) stack[top++] = members[k]!;
      }
      if (p < 0) {
        if (avail[g]! < 2) continue;
        if (restricted[g]) {
          // Only a copy it may still pair with (see addForbidden) lets it go.
          let mate = false;
          for (let k = memberAt[g]!; k < memberAt[g + 1]! && !mate; k++) {
            const u = members[k]!;
            mate = u !== t && seen[u] === 1 && partner[u]! < 0 && (ban[t]! & (1 << (k - memberAt[g]!))) === 0;
          }
          if (!mate) continue;
        }
        time[t] = clock++;
        top = this.remove(t, top);
        left--;
        if (g === until && --pending === 0) return true;
      } else if (present[p] && this.isFree(p)) {
        time[t] = time[p] = clock++;
        top = this.remove(t, top);
        top = this.remove(p, top);
        left -= 2;
        if (g === until && (pending -= 2) === 0) return true;
      }
    }
    return left === 0;
  }

  /**
   * Real play under `partner` (see the notes), continued from play state `slot` and
   * saved as state `slot + 1`: true when it empties the board, all moves so far in
   * `moves`. Otherwise `avail` holds each group's free uncommitted copies and `open`
   * its uncommitted copies, at the point where it stopped.
   */
  private greedy(partner: Int32Array, slot: number): boolean {
    this.spend();
    let top = this.load(slot);
    const from = this.states[slot]!;
    const { present, seen, avail, open, stack, groupOf, members, memberAt, mate, moves } = this;
    mate.set(from.mate);
    for (let i = 0; i < this.n; i++) if (partner[i]! >= 0) mate[i] = partner[i]!;
    avail.fill(0);
    open.fill(0);
    for (let i = 0; i < this.n; i++) if (present[i] && mate[i]! < 0) open[groupOf[i]!]!++;
    let left = from.remaining;
    let played = from.played;
    while (top > 0) {
      const t = stack[--top]!;
      if (!present[t] || !this.isFree(t)) continue;
      const g = groupOf[t]!;
      if (!seen[t] && mate[t]! < 0) {
        seen[t] = 1;
        if (++avail[g] === open[g]) {
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
          avail[g] = open[g] = 0;
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

  private solution(): Pair[] {
    const out: Pair[] = [];
    for (let k = 0; k < this.movesLength; k += 2) out.push([this.moves[k]!, this.moves[k + 1]!]);
    return out;
  }

  /** One game of random legal play, taking safe moves first; the moves if it clears the board. */
  playout(): Pair[] | null {
    const { present, groupOf, members, memberAt, open, avail, freeBits, stack } = this;
    this.present.set(this.start);
    this.above.set(this.above0);
    this.left.set(this.left0);
    this.right.set(this.right0);
    // Free tiles are kept in a bit set (read in slot order) and counted per group in `avail`, updated from the
    // neighbours of the tiles that leave: tiles only ever become free in a playout.
    open.fill(0);
    avail.fill(0);
    freeBits.fill(0);
    for (let i = 0; i < this.n; i++) {
      if (!present[i]) continue;
      open[groupOf[i]!]!++;
      if (this.isFree(i)) {
        freeBits[i >>> 5]! |= 1 << (i & 31);
        avail[groupOf[i]!]!++;
      }
    }
    const free = this.copies; // tiles free now, in slot order
    const moves: Pair[] = [];
    for (let left = this.count; left > 0; left -= 2) {
      if (++this.nodes > this.budget) throw BUDGET_EXCEEDED;
      let nFree = 0;
      for (let w = 0; w < freeBits.length; w++)
        for (let bits = freeBits[w]!; bits !== 0; bits &= bits - 1)
          free[nFree++] = (w << 5) + 31 - Math.clz32(bits & -bits);
      let a = -1;
      let b = -1;
      // A safe move: every copy left of a group is free.
      for (let g = 0; g < this.groupCount && a < 0; g++) {
        if (open[g] === 0 || avail[g] !== open[g]) continue;
        for (let k = memberAt[g]!; k < memberAt[g + 1]! && b < 0; k++) {
          const m = members[k]!;
          if (!present[m]) continue;
          if (a < 0) a = m;
          else b = m;
        }
      }
      if (a < 0) {
        // Count the playable pairs, then draw one.
        let pairs = 0;
        for (let i = 0; i < nFree; i++)
          for (let j = i + 1; j < nFree; j++) if (groupOf[free[i]!] === groupOf[free[j]!]) pairs++;
        if (pairs === 0) return null;
        let pick = this.rng.int(pairs);
        for (let i = 0; i < nFree && a < 0; i++)
          for (let j = i + 1; j < nFree; j++)
            if (groupOf[free[i]!] === groupOf[free[j]!] && pick-- === 0) {
              a = free[i]!;
              b = free[j]!;
              break;
            }
      }
      moves.push([a, b]);
      open[groupOf[a]!]! -= 2;
      avail[groupOf[a]!]! -= 2;
      freeBits[a >>> 5]! &= ~(1 << (a & 31));
      freeBits[b >>> 5]! &= ~(1 << (b & 31));
      const top = this.remove(b, this.remove(a, 0));
      for (let k = 0; k < top; k++) {
        const t = stack[k]!;
        if (!present[t] || (freeBits[t >>> 5]! & (1 << (t & 31))) !== 0 || !this.isFree(t)) continue;
        freeBits[t >>> 5]! |= 1 << (t & 31);
        avail[groupOf[t]!]!++;
      }
    }
    return moves;
  }

  // ---------------------------------------------------------------------------
  // Commitments and nogoods.

  /**
   * Records that no solution pairs a with b. In a group of exactly four copies that
   * rules out one pairing: a with b and the other two with each other.
   */
  private addForbidden(a: number, b: number): void {
    this.forbidden.add(this.key(a, b));
    const g = this.groupOf[a]!;
    const from = this.memberAt[g]!;
    if (this.memberAt[g + 1]! - from !== 4) return;
    // Indices in the group: a, b, and the other two, c and d (no allocation: the probe calls this often).
    let ia = -1;
    let ib = -1;
    let ic = -1;
    let id = -1;
    for (let k = 0; k < 4; k++) {
      const t = this.members[from + k];
      if (t === a) ia = k;
      else if (t === b) ib = k;
      else if (ic < 0) ic = k;
      else id = k;
    }
    const c = this.members[from + ic]!;
    const d = this.members[from + id]!;
    this.ban[a]! |= 1 << ib;
    this.ban[b]! |= 1 << ia;
    this.ban[c]! |= 1 << id;
    this.ban[d]! |= 1 << ic;
    this.restricted[g] = 1;
  }

  private key(a: number, b: number): number {
    return a < b ? a * this.n + b : b * this.n + a;
  }

  /** The uncommitted present copies of group g, written into `out` from `at`; their count. */
  private uncommitted(g: number, out: Int32Array, at: number): number {
    let k = 0;
    for (let m = this.memberAt[g]!; m < this.memberAt[g + 1]!; m++) {
      const t = this.members[m]!;
      if (this.partner[t]! < 0) out[at + k++] = t;
    }
    return k;
  }

  /**
   * Commits decision `level`: `a` with `b`, and the last two uncommitted copies of the
   * group with each other when that leaves two.
   */
  private decide(level: number, a: number, b: number, counted = true): void {
    const { partner, levelOf, decPairs } = this;
    partner[a] = b;
    partner[b] = a;
    levelOf[a] = levelOf[b] = level;
    decPairs[4 * level] = a;
    decPairs[4 * level + 1] = b;
    this.decCount[level] = 1;
    const rest = this.uncommitted(this.groupOf[a]!, this.copies, 0);
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
    if (counted)
      for (let k = 0; k < 2 * this.decCount[level]!; k += 2)
        this.tally(decPairs[4 * level + k]!, decPairs[4 * level + k + 1]!, -1);
  }

  private undecide(level: number, counted = true): void {
    if (counted)
      for (let k = 0; k < 2 * this.decCount[level]!; k += 2)
        this.tally(this.decPairs[4 * level + k]!, this.decPairs[4 * level + k + 1]!, 1);
    for (let k = 0; k < 2 * this.decCount[level]!; k++) {
      const t = this.decPairs[4 * level + k]!;
      this.partner[t] = -1;
      this.levelOf[t] = -1;
    }
    this.depth = level;
  }

  /** Is the pair (a, b) committed now, in the base or by a decision? */
  private committed(a: number, b: number): boolean {
    return this.partner[a] === b;
  }

  /**
   * Is a nogood broken by the pairs of decision `level`? If so, writes the levels of
   * its pairs into `out` (a conflict bitset) and returns true.
   */
  private brokenNogood(level: number, out: Uint32Array, at: number): boolean {
    for (let k = 0; k < this.decCount[level]!; k++) {
      const a = this.decPairs[4 * level + 2 * k]!;
      const b = this.decPairs[4 * level + 2 * k + 1]!;
      const key = this.key(a, b);
      if (this.forbidden.has(key)) {
        this.clear(out, at);
        this.set(out, at, level);
        return true;
      }
      // Each nogood watches one of its pairs that is not committed (as SAT solvers watch
      // literals): only when that pair is committed can the nogood break, and then it
      // either moves its watch to another uncommitted pair or is broken. Undoing
      // decisions only uncommits pairs, so watches never move back.
      const ids = this.watchers.get(key);
      if (!ids) continue;
      for (let i = 0; i < ids.length;) {
        const id = ids[i]!;
        const pairs = this.nogoods[id]!;
        let next = -1;
        for (let p = 0; p < pairs.length && next < 0; p += 2) if (!this.committed(pairs[p]!, pairs[p + 1]!)) next = p;
        if (next >= 0) {
          ids[i] = ids[ids.length - 1]!;
          ids.pop();
          this.watch(this.key(pairs[next]!, pairs[next + 1]!), id);
          continue;
        }
        this.clear(out, at);
        for (let p = 0; p < pairs.length; p += 2) {
          const l = this.levelOf[pairs[p]!]!;
          if (l >= 0) this.set(out, at, l);
        }
        return true;
      }
    }
    return false;
  }

  private watch(key: number, id: number): void {
    const ids = this.watchers.get(key);
    if (ids) ids.push(id);
    else this.watchers.set(key, [id]);
  }

  /** Learns the decisions at the levels of a conflict set as a nogood. */
  private learn(bits: Uint32Array, at: number): void {
    const pairs: number[] = [];
    for (let l = 0; l < this.depth; l++) {
      if (!this.has(bits, at, l)) continue;
      const g = this.groupOf[this.decPairs[4 * l]!]!;
      this.activity[g]!++;
      for (let k = 0; k < this.decCount[l]!; k++)
        pairs.push(this.decPairs[4 * l + 2 * k]!, this.decPairs[4 * l + 2 * k + 1]!);
    }
    if (pairs.length === 0) return;
    const g = this.groupOf[pairs[0]!]!;
    const whole =
      pairs.length === 4 && this.groupOf[pairs[2]!] === g && this.memberAt[g + 1]! - this.memberAt[g]! === 4;
    if (pairs.length === 2 || whole) {
      this.addForbidden(pairs[0]!, pairs[1]!);
      return;
    }
    if (this.nogoods.length >= MAX_NOGOODS) return;
    // Watched: the pair of the deepest level, the first to be undone.
    const id = this.nogoods.push(Int32Array.from(pairs)) - 1;
    let miss = 0;
    for (let p = 0; p < pairs.length; p += 2) {
      const key = this.key(pairs[p]!, pairs[p + 1]!);
      const ids = this.containing.get(key);
      if (ids) ids.push(id);
      else this.containing.set(key, [id]);
      if (!this.committed(pairs[p]!, pairs[p + 1]!)) miss++;
    }
    this.miss.push(miss);
    this.nearAt.push(-1);
    if (miss <= 2) {
      this.nearAt[id] = this.near.length;
      this.near.push(id);
    }
    this.watch(this.key(pairs[pairs.length - 2]!, pairs[pairs.length - 1]!), id);
  }

  // Bitsets over levels, `words` words each, stored at `at` words into an array.
  private clear(bits: Uint32Array, at: number): void {
    bits.fill(0, at, at + this.words);
  }
  private set(bits: Uint32Array, at: number, l: number): void {
    bits[at + (l >>> 5)]! |= 1 << (l & 31);
  }
  private unset(bits: Uint32Array, at: number, l: number): void {
    bits[at + (l >>> 5)]! &= ~(1 << (l & 31));
  }
  private has(bits: Uint32Array, at: number, l: number): boolean {
    return (bits[at + (l >>> 5)]! & (1 << (l & 31))) !== 0;
  }

  /** `trial` := the base plus the decisions whose levels are in the bitset. */
  private trialOf(bits: Uint32Array, at: number): Int32Array {
    const trial = this.trial;
    trial.set(this.base);
    for (let l = 0; l < this.depth; l++) {
      if (!this.has(bits, at, l)) continue;
      for (let k = 0; k < 2 * this.decCount[l]!; k += 2) {
        const a = this.decPairs[4 * l + k]!;
        const b = this.decPairs[4 * l + k + 1]!;
        trial[a] = b;
        trial[b] = a;
      }
    }
    return trial;
  }

  /**
   * The commitments in force fail `relax`: writes a deletion-minimal set of their
   * levels into conflict[level] (the last decision always belongs to it).
   */
  private explain(level: number): void {
    const w = this.words;
    const at = level * w;
    const out = this.conflict;
    this.clear(out, at);
    const last = this.depth - 1;
    if (last < 0) return; // the base alone fails: unsolvable
    // First guess: the last decision and those with a tile the failed play left on
    // the board. When the play without the others still fails, only the guess is
    // shrunk; else everything is.
    this.set(out, at, last);
    for (let l = 0; l < last; l++) {
      let stuck = false;
      for (let k = 0; k < 2 * this.decCount[l]! && !stuck; k++) stuck = this.present[this.decPairs[4 * l + k]!] === 1;
      if (stuck) this.set(out, at, l);
    }
    if (this.relax(this.trialOf(out, at), level)) for (let l = 0; l < last; l++) this.set(out, at, l);
    for (let l = last - 1; l >= 0; l--) {
      if (!this.has(out, at, l)) continue;
      this.unset(out, at, l);
      if (this.relax(this.trialOf(out, at), level)) this.set(out, at, l);
    }
    this.learn(out, at);
  }

  // ---------------------------------------------------------------------------
  // The search.

  /**
   * Probes every pairing of every group alone at the root (see the notes); false
   * when some group has no pairing left (unsolvable).
   */
  private probe(): boolean {
    const order = this.probeOrder();
    for (let changed = true; changed;) {
      changed = false;
      for (const g of order) {
        const k = this.uncommitted(g, this.copies, 0);
        if (k !== 4) continue;
        const [a, b, c, d] = [this.copies[0]!, this.copies[1]!, this.copies[2]!, this.copies[3]!];
        const onBoard = this.states[0]!.present;
        if (!onBoard[a] || !onBoard[b] || !onBoard[c] || !onBoard[d]) continue; // already played
        let alive = -1;
        let aliveCount = 0;
        for (const x of [b, c, d]) {
          if (this.forbidden.has(this.key(a, x))) continue;
          this.decide(0, a, x);
          const ok = this.relax(this.partner, 0, g);
          this.undecide(0);
          if (ok) {
            alive = x;
            aliveCount++;
          } else this.addForbidden(a, x);
        }
        if (aliveCount === 0) return false;
        if (aliveCount === 1) {
          this.decide(0, a, alive);
          for (const t of [a, b, c, d]) {
            this.base[t] = this.partner[t]!;
            this.levelOf[t] = -1;
          }
          this.depth = 0;
          changed = true;
        }
      }
    }
    return true;
  }

  /**
   * The groups in the order the probe takes them: those with the fewest pairings left
   * first, as they are the likeliest to have none (on layouts where most shuffles
   * are unwinnable, the probe then rejects one after a play or two, not dozens).
   */
  private probeOrder(): number[] {
    const left = (g: number): number => {
      const first = this.members[this.memberAt[g]!]!;
      const banned = this.ban[first]! & 15;
      return 3 - ((banned & 1) + ((banned >> 1) & 1) + ((banned >> 2) & 1) + ((banned >> 3) & 1));
    };
    const order = Array.from({ length: this.groupCount }, (_, g) => g);
    return order.sort((g, h) => left(g) - left(h) || g - h);
  }

  /** Makes the play state greedy play just saved as state 1 the root state 0. */
  private adoptRoot(): void {
    const [zero, one] = [this.states[0]!, this.states[1]!];
    this.states[0] = one;
    this.states[1] = zero;
  }

  /**
   * The optimistic play from the start position (one node): false when even it
   * strands tiles, a proof that nothing clears the board. Run before the playouts: on
   * layouts where most uniform shuffles are unwinnable it rejects most of them for
   * the price of one play.
   */
  possible(): boolean {
    this.limit = Infinity;
    this.unstack();
    return this.relax(this.partner, 0);
  }

  /**
   * Copies stacked on each other never pair: the lower one stays covered until the
   * upper one leaves, and that one leaves only with its partner. Such pairings of
   * the groups still uncommitted are forbidden before any play, for no node (the
   * probe would spend one on each); a group left without a pairing then strands
   * the optimistic play at once.
   */
  private unstack(): void {
    for (let g = 0; g < this.groupCount; g++) {
      const from = this.memberAt[g]!;
      const to = this.memberAt[g + 1]!;
      if (to - from < 4) continue; // a group of two is committed: the optimistic play judges it
      for (let i = from; i < to; i++)
        for (let j = i + 1; j < to; j++) {
          const a = this.members[i]!;
          const b = this.members[j]!;
          if (this.start[a] && this.start[b] && (this.covers(a, b) || this.covers(b, a))) this.addForbidden(a, b);
        }
    }
  }

  /** Is tile `top` above tile `low` through tiles on the board at the start (a chain of tiles each covering the next)? */
  private covers(top: number, low: number): boolean {
    if (this.count === this.n) {
      // The full board (every classic attempt): the chains are known per layout.
      const { words, bits } = this.cover;
      return (bits[low * words + (top >>> 5)]! & (1 << (top & 31))) !== 0;
    }
    const { above, aboveAt } = this.flat;
    const stack = this.stack;
    const mark = ++this.stamp;
    let height = 0;
    stack[height++] = low;
    while (height > 0) {
      const t = stack[--height]!;
      for (let k = aboveAt[t]!; k < aboveAt[t + 1]!; k++) {
        const u = above[k]!;
        if (u === top) return true;
        if (this.start[u] && this.marks[u] !== mark) {
          this.marks[u] = mark;
          stack[height++] = u;
        }
      }
    }
    return false;
  }

  /** Searches with restarts, after `possible`; the solution, or null when there is none. */
  run(): Pair[] | null {
    this.limit = Infinity;
    if (this.greedy(this.partner, 0)) return this.solution();
    this.adoptRoot();
    if (!this.probe()) return null;
    if (this.greedy(this.partner, 0)) return this.solution();
    this.adoptRoot();
    for (let k = 1; ; k++) {
      this.limit = RESTART_UNIT * luby(k);
      this.visited = 0;
      try {
        const outcome = this.node(0);
        return outcome === SOLVED ? this.solution() : null; // the root passed relax above: never DEAD
      } catch (e) {
        if (!(e instanceof Restart)) throw e;
        while (this.depth > 0) this.undecide(this.depth - 1);
        // Pairings forbidden since the last probe make the optimistic play stricter: probe again.
        this.limit = Infinity;
        if (!this.probe()) return null;
        if (this.greedy(this.partner, 0)) return this.solution();
        this.adoptRoot();
      }
    }
  }

  /**
   * The node at `level` (decisions 0 … level − 1 in force): true when solved (the
   * moves in `moves`); else false with its conflict set in conflict[level].
   */
  private node(level: number): number {
    const w = this.words;
    if (!this.relax(this.partner, level)) return DEAD;
    if (this.greedy(this.partner, level)) return SOLVED;
    const g = this.branchGroup();
    const at = level * w;
    if (g < 0) {
      // Cannot happen when relax succeeds (see the notes); answer soundly anyway.
      this.clear(this.conflict, at);
      for (let l = 0; l < level; l++) this.set(this.conflict, at, l);
      return FAILED;
    }
    const count = this.orderOptions(level, g);
    const acc = this.acc;
    this.clear(acc, at);
    const childAt = (level + 1) * w;
    const first = this.stride * level;
    let dead = 0; // options whose child failed `relax` at once: explained only when needed, as a bit mask
    for (let o = 0; o < count; o++) {
      this.decide(level, this.options[first]!, this.options[first + 1 + o]!);
      let outcome = FAILED;
      if (!this.brokenNogood(level, this.conflict, childAt)) outcome = this.node(level + 1);
      if (outcome === DEAD) {
        if (o < 30) dead |= 1 << o;
        else {
          this.explain(level + 1); // the mask is full: explain now
          outcome = FAILED;
        }
      }
      this.undecide(level);
      if (outcome === SOLVED) return SOLVED;
      if (outcome === FAILED && !this.merge(level)) return FAILED;
    }
    // No pairing worked: explain the ones that failed at once.
    for (let o = 0; o < count; o++) {
      if (!(dead & (1 << o))) continue;
      this.decide(level, this.options[first]!, this.options[first + 1 + o]!);
      if (this.relax(this.partner, level + 1)) throw new Error('solve: a dead pairing came back to life');
      this.explain(level + 1);
      this.undecide(level);
      if (!this.merge(level)) return FAILED;
    }
    // The pairings tried were all those of the copies left uncommitted by the group's
    // earlier decisions (groups of more than four copies): those decisions belong too.
    for (let k = this.memberAt[g]!; k < this.memberAt[g + 1]!; k++) {
      const l = this.levelOf[this.members[k]!]!;
      if (l >= 0) this.set(acc, at, l);
    }
    for (let k = 0; k < w; k++) this.conflict[at + k] = acc[at + k]!;
    this.learn(acc, at);
    return FAILED;
  }

  /**
   * Adds the conflict of a failed child of the node at `level` to the node's union;
   * false when that conflict does not contain the node's decision: the failure does
   * not depend on it, so the search jumps back over it (the child's conflict becomes
   * the node's).
   */
  private merge(level: number): boolean {
    const w = this.words;
    const at = level * w;
    const childAt = at + w;
    if (!this.has(this.conflict, childAt, level)) {
      for (let k = 0; k < w; k++) this.conflict[at + k] = this.conflict[childAt + k]!;
      return false;
    }
    for (let k = 0; k < w; k++) this.acc[at + k]! |= this.conflict[childAt + k]!;
    this.unset(this.acc, at, level);
    return true;
  }

  /**
   * A group to branch on where greedy play stopped: two or more free uncommitted
   * copies. The one with the fewest pairings left (neither forbidden nor ruled out
   * by a nogood), then the least active, ties at random; -1 when none.
   */
  private branchGroup(): number {
    let best = -1;
    let bestScore = Infinity;
    const level = this.depth;
    const scratch = (level + 1) * this.words; // the child's conflict: free to overwrite before the child runs
    for (let g = 0; g < this.groupCount; g++) {
      if (this.avail[g]! < 2 || this.open[g]! === 0) continue;
      const k = this.uncommitted(g, this.copies, 0);
      let alive = 0;
      const a = this.copies[0]!;
      if (k === 4) {
        // Pairings a learnt nogood rules out under the commitments in force count as gone
        // (a lazy unit propagation): a group left with one pairing is branched on first,
        // one with none fails at once. No node is spent.
        const b = this.copies[1]!;
        const c = this.copies[2]!;
        const d = this.copies[3]!;
        for (let j = 0; j < 3; j++) {
          const x = j === 0 ? b : j === 1 ? c : d;
          if (this.forbidden.has(this.key(a, x))) continue;
          this.decide(level, a, x, false); // overwrites `copies`: b, c, d are read above
          if (!this.brokenNogood(level, this.conflict, scratch)) alive++;
          this.undecide(level, false);
        }
      } else for (let j = 1; j < k; j++) if (!this.forbidden.has(this.key(a, this.copies[j]!))) alive++;
      const score = alive * 2 ** 40 + this.activity[g]! * 0x10000 + this.rng.int(0x10000);
      if (score < bestScore) {
        bestScore = score;
        best = g;
      }
    }
    return best;
  }

  /**
   * Writes the pairings of group g to try at `level` into `options`: the anchor (its
   * first uncommitted copy) and its partners, those pairing copies the optimistic
   * play freed at about the same time first. For groups of more than four copies the
   * anchor is a free copy (so the branch moves play on). Returns how many.
   */
  private orderOptions(level: number, g: number): number {
    const copies = this.copies;
    const k = this.uncommitted(g, copies, 0);
    const time = this.time;
    const base = this.stride * level;
    if (k === 4) {
      const a = copies[0]!;
      const options = this.options;
      options[base] = a;
      // The three partners of the anchor, by cost: how far apart in the optimistic play's
      // time the two pairs would leave; ties at random (a stable insertion sort).
      for (let j = 1; j <= 3; j++) {
        const b = copies[j]!;
        const c = copies[j === 1 ? 2 : 1]!;
        const d = copies[j === 3 ? 2 : 3]!;
        const cost = (Math.abs(time[a]! - time[b]!) + Math.abs(time[c]! - time[d]!)) * 4 + this.rng.int(4);
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
    // More than four copies: anchor a free copy that the greedy play saw.
    let a = copies[0]!;
    for (let j = 0; j < k; j++) if (this.seen[copies[j]!] && this.present[copies[j]!]) a = copies[j]!;
    this.options[base] = a;
    let m = 0;
    for (let j = 0; j < k; j++) if (copies[j] !== a) this.options[base + 1 + m++] = copies[j]!;
    return m;
  }
}
