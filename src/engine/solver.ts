/**
 * The solver: is a position clearable, and how?
 *
 * Implementation notes. Searching over move orders wastes its budget on orders of
 * the same removals. Instead we search over *pairings*: which copy of a face is
 * removed with which. Once every tile's partner is fixed, the order no longer
 * matters — removing a tile only ever frees others — so playing any pair whose
 * two tiles are both free, until none is left, decides the pairing exactly. The
 * search therefore branches only on partner choices (three per group of four),
 * and plays everything else greedily. Rules that never lose a solution:
 * - a committed pair is removed as soon as both tiles are free;
 * - when every undecided copy of a group is free, they are all removed at once;
 * - when two undecided copies are left in a group, they are each other's partner;
 * - a tile is never paired with one it lies above or below, directly or through a
 *   chain of tiles (those two can never be free together): `comparable`, a bitset
 *   per tile built at the root. It stays sound below the root because a tile in
 *   the middle of such a chain can only leave after the tiles above it.
 * The branching tile is the free undecided one with the fewest partners left
 * (fail first); dead positions are remembered by a Zobrist hash of the tiles
 * present and the partners committed. A few random playouts run first: they clear
 * most easy positions in microseconds. Each search position and each playout move
 * counts as one node against the budget, so results never depend on the clock.
 */
import type { Geometry } from './layout.ts';
import { isFree, matchGroup, type Presence } from './rules.ts';
import { makeRng, type Rng } from './rng.ts';
import type { Face, Pair } from './types.ts';

export const SOLVE_BUDGET = 200_000; // default node budget
const PLAYOUTS = 4; // random playouts tried before the search

export type SolveOutcome = 'solvable' | 'unsolvable' | 'unresolved';

export type SolveResult =
  | { readonly result: 'solvable'; readonly nodes: number; readonly solution: Pair[] } // solution in play order
  | { readonly result: 'unsolvable' | 'unresolved'; readonly nodes: number }; // nodes: positions plus playout moves

export interface SolveOptions {
  readonly budget?: number; // node budget; default SOLVE_BUDGET
  readonly seed?: string; // seeds the playouts; default 'solve'
}

class BudgetExceeded extends Error {}
class Restart extends Error {}

const RESTART_UNIT = 64; // nodes in the shortest search run

/** The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, …: a restart schedule within a log factor of optimal. */
function luby(k: number): number {
  for (let size = 1, power = 1; ; size = 2 * size + 1, power *= 2) {
    if (k === size) return power;
    if (k < size) return luby(k - (size - 1) / 2);
  }
}

interface Node {
  present: Uint8Array;
  partner: Int16Array; // committed partner per slot; -1 while undecided
  left: number; // tiles still present
  options: (Pair[][] | undefined)[]; // per group of at most four undecided copies: the ways to pair them (see propagate)
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
  const groupOf = new Int16Array(n).fill(-1);
  const groups: number[][] = [];
  const groupIds = new Map<string, number>();
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (!present[i]) continue;
    count++;
    const face = faces[i];
    if (face == null) throw new Error(`solve: slot ${i} is present but has no face`);
    const key = matchGroup(face);
    let g = groupIds.get(key);
    if (g === undefined) groupIds.set(key, (g = groups.push([]) - 1));
    groups[g]!.push(i);
    groupOf[i] = g;
  }
  if (count === 0) return { result: 'solvable', nodes: 0, solution: [] };
  if (groups.some((members) => members.length % 2 !== 0)) return { result: 'unsolvable', nodes: 0 };

  const cover = new Cover(geom, present);
  // A group of four whose copies cannot be split into two unstacked pairs can never be cleared.
  for (const members of groups) if (!hasPairing(members, cover)) return { result: 'unsolvable', nodes: 0 };

  let nodes = 0;
  const spend = (k = 1): void => {
    nodes += k;
    if (nodes > budget) throw new BudgetExceeded();
  };

  try {
    for (let p = 0; p < PLAYOUTS; p++) {
      const moves = playout(geom, present, faces, groupOf, rng, spend);
      if (moves) return { result: 'solvable', nodes, solution: moves };
    }
    const search = new PairingSearch(geom, groups, groupOf, cover, spend, rng);
    const moves = search.run({ present: Uint8Array.from(present), partner: new Int16Array(n).fill(-1), left: count, options: [] });
    return moves ? { result: 'solvable', nodes, solution: moves } : { result: 'unsolvable', nodes };
  } catch (e) {
    if (e instanceof BudgetExceeded) return { result: 'unresolved', nodes: budget };
    throw e;
  }
}

/** True when the answer is a definite yes (a solution was found). */
export const isSolvable = (result: SolveResult): boolean => result.result === 'solvable';

/**
 * Covering relations among the tiles present at the root, as bitsets: which tiles
 * lie above or below each one, directly or through a chain of tiles.
 */
class Cover {
  readonly words: number; // 32-bit words per bitset
  private readonly aboveStar: Uint32Array;
  readonly belowStar: Uint32Array;

  constructor(geom: Geometry, present: Presence) {
    const n = geom.size;
    this.words = (n + 31) >>> 5;
    this.aboveStar = new Uint32Array(n * this.words);
    this.belowStar = new Uint32Array(n * this.words);
    const byZ = Array.from({ length: n }, (_, i) => i).sort((a, b) => geom.slots[a]!.z - geom.slots[b]!.z);
    this.close(this.aboveStar, [...byZ].reverse(), geom.above, present);
    this.close(this.belowStar, byZ, geom.below, present);
  }

  private close(star: Uint32Array, order: number[], next: readonly (readonly number[])[], present: Presence): void {
    const w = this.words;
    for (const i of order) {
      if (!present[i]) continue;
      for (const j of next[i]!) {
        if (!present[j]) continue;
        star[i * w + (j >>> 5)]! |= 1 << (j & 31);
        for (let k = 0; k < w; k++) star[i * w + k]! |= star[j * w + k]!;
      }
    }
  }

  /** True when a lies above b or b above a: the two can never be free together. */
  comparable(a: number, b: number): boolean {
    const w = this.words;
    return (this.aboveStar[a * w + (b >>> 5)]! & (1 << (b & 31))) !== 0 ||
      (this.aboveStar[b * w + (a >>> 5)]! & (1 << (a & 31))) !== 0; // prettier-ignore
  }
}

/** Can the members be split into pairs of non-comparable tiles? Exact for groups up to 8. */
function hasPairing(members: readonly number[], cover: Cover): boolean {
  if (members.length === 0) return true;
  if (members.length > 8) return true; // not checked: the search finds out
  const [first, ...rest] = members;
  return rest.some((m, k) => !cover.comparable(first!, m) && hasPairing(rest.filter((_, j) => j !== k), cover));
}

/** One game of random legal play, taking safe moves first; the moves if it clears the board. */
function playout(
  geom: Geometry,
  start: Presence,
  faces: readonly (Face | null)[],
  groupOf: Int16Array,
  rng: Rng,
  spend: (k?: number) => void,
): Pair[] | null {
  const present = Uint8Array.from(start);
  const moves: Pair[] = [];
  const byGroup = new Map<number, number[]>();
  const remaining = new Map<number, number>();
  for (let i = 0; i < geom.size; i++) if (present[i]) remaining.set(groupOf[i]!, (remaining.get(groupOf[i]!) ?? 0) + 1);
  let left = 0;
  for (let i = 0; i < geom.size; i++) left += present[i]!;
  while (left > 0) {
    spend();
    byGroup.clear();
    for (let i = 0; i < geom.size; i++) {
      if (!isFree(geom, present, i) || faces[i] == null) continue;
      const g = groupOf[i]!;
      const list = byGroup.get(g);
      if (list) list.push(i);
      else byGroup.set(g, [i]);
    }
    let pick: Pair | null = null;
    const options: Pair[] = [];
    for (const [g, list] of byGroup) {
      if (list.length < 2) continue;
      if (list.length === remaining.get(g)) {
        pick = [list[0]!, list[1]!]; // every copy left is free: a safe move
        break;
      }
      for (let a = 0; a < list.length; a++)
        for (let b = a + 1; b < list.length; b++) options.push([list[a]!, list[b]!]);
    }
    if (!pick) {
      if (options.length === 0) return null;
      pick = options[rng.int(options.length)]!;
    }
    present[pick[0]] = 0;
    present[pick[1]] = 0;
    const g = groupOf[pick[0]]!;
    remaining.set(g, remaining.get(g)! - 2);
    moves.push(pick);
    left -= 2;
  }
  return moves;
}

/** Depth-first search over partner choices; see the module notes. */
class PairingSearch {
  private readonly moves: Pair[] = [];
  private readonly dead = new Set<number>();
  private readonly keys: Uint32Array;
  private readonly reach: Uint32Array; // scratch bitsets for the cycle check
  private readonly done: Uint32Array;
  private limit = 0; // nodes this run may visit
  private visited = 0; // nodes this run has visited

  constructor(
    private readonly geom: Geometry,
    private readonly groups: readonly (readonly number[])[],
    private readonly groupOf: Int16Array,
    private readonly cover: Cover,
    private readonly spend: (k?: number) => void,
    private readonly rng: Rng,
  ) {
    const zobrist = makeRng('solver-zobrist');
    this.keys = new Uint32Array(geom.size * 2);
    for (let k = 0; k < this.keys.length; k++) this.keys[k] = zobrist.next();
    this.reach = new Uint32Array(cover.words);
    this.done = new Uint32Array(cover.words);
  }

  /**
   * Runs the search with restarts: each run may visit a growing number of nodes
   * (the Luby sequence times RESTART_UNIT), branching ties are broken at random,
   * and dead positions found by earlier runs stay known. A run that ends within
   * its limit has explored everything: its answer is final.
   */
  run(root: Node): Pair[] | null {
    const all: number[] = [];
    for (let i = 0; i < this.geom.size; i++) if (root.present[i]) all.push(i);
    if (!this.propagate(root, all)) return null;
    const rootMoves = this.moves.length; // moves forced at the root come first in every run
    for (let k = 1; ; k++) {
      this.limit = RESTART_UNIT * luby(k);
      this.visited = 0;
      this.moves.length = rootMoves;
      const start: Node = { ...root, present: root.present.slice(), partner: root.partner.slice() };
      try {
        return this.search(start) ? this.moves.slice() : null;
      } catch (e) {
        if (!(e instanceof Restart)) throw e;
      }
    }
  }

  private search(node: Node): boolean {
    this.spend();
    if (++this.visited > this.limit) throw new Restart();
    if (node.left === 0) return true;
    const key = this.key(node);
    if (this.dead.has(key)) return false;
    // Nothing committed can be played, so the next move pairs two free undecided
    // copies. Branch on a group where some way of pairing allows that (no such
    // group: dead end), taking the group with the fewest ways left.
    const free = new Uint8Array(this.geom.size);
    for (let i = 0; i < free.length; i++) if (node.present[i] && isFree(this.geom, node.present, i)) free[i] = 1;
    let best: Pair[][] | null = null;
    let ties = 0;
    for (let g = 0; g < this.groups.length; g++) {
      let freeUndecided = 0;
      for (const i of this.groups[g]!) if (free[i] && node.partner[i] === -1) freeUndecided++;
      if (freeUndecided < 2) continue;
      const options =
        node.options[g] ??
        (this.undecided(node, g).length > 4
          ? this.anchored(node, this.undecided(node, g), free)
          : this.pairings(node, this.undecided(node, g)));
      if (!options.some((o) => o.some(([a, b]) => free[a] && free[b]))) continue;
      if (best === null || options.length < best.length) (best = options), (ties = 1);
      else if (options.length === best.length && this.rng.int(++ties) === 0) best = options; // uniform among ties
    }
    if (best !== null) {
      const mark = this.moves.length;
      for (const option of this.playableFirst(node, best)) {
        const child: Node = { present: node.present.slice(), partner: node.partner.slice(), left: node.left, options: [] };
        for (const [a, b] of option) (child.partner[a] = b), (child.partner[b] = a);
        if (this.propagate(child, option.flat()) && this.search(child)) return true;
        this.moves.length = mark;
      }
    }
    this.dead.add(key);
    return false;
  }

  private undecided(node: Node, g: number): number[] {
    return this.groups[g]!.filter((i) => node.present[i] && node.partner[i] === -1);
  }

  private isPlayable(node: Node, a: number, b: number): boolean {
    return isFree(this.geom, node.present, a) && isFree(this.geom, node.present, b);
  }

  /** Options whose pairs can be played at once come first. */
  private playableFirst(node: Node, options: Pair[][]): Pair[][] {
    const playable = (o: Pair[]): number => o.filter(([a, b]) => this.isPlayable(node, a, b)).length;
    const keyed = options.map((o) => [o, playable(o) * 0x10000 + this.rng.int(0x10000)] as const);
    return keyed.sort((x, y) => y[1] - x[1]).map(([o]) => o);
  }

  /**
   * For a group of more than four undecided copies (layouts over 144 tiles): the
   * partners of one free copy that has a free partner, so that the branch moves on.
   * Every pairing gives that copy one of them, so the branch is complete.
   */
  private anchored(node: Node, undecided: readonly number[], free: Uint8Array): Pair[][] {
    for (const t of undecided) {
      if (!free[t]) continue;
      const partners = undecided.filter((u) => u !== t && this.feasible(node, t, u));
      if (partners.some((u) => free[u])) return partners.map((u) => [[t, u]]);
    }
    return [];
  }

  /**
   * The ways to pair a group's two or four undecided copies that break no covering
   * rule: complete pairings.
   */
  private pairings(node: Node, undecided: readonly number[]): Pair[][] {
    const [a, ...rest] = undecided as [number, ...number[]];
    const options: Pair[][] = [];
    for (const b of rest) {
      if (!this.feasible(node, a, b)) continue;
      if (undecided.length !== 4) {
        options.push([[a, b]]);
        continue;
      }
      const [c, d] = rest.filter((x) => x !== b) as [number, number];
      node.partner[a] = b;
      node.partner[b] = a;
      if (this.feasible(node, c, d)) options.push([[a, b], [c, d]]);
      node.partner[a] = -1;
      node.partner[b] = -1;
    }
    return options;
  }

  /**
   * Can a and b be partners, given the partners committed so far? Not if one lies
   * above the other, nor if pairing them closes a cycle of "must leave before":
   * everything below a pair leaves after it, and so does the partner of each.
   */
  private feasible(node: Node, a: number, b: number): boolean {
    if (this.cover.comparable(a, b)) return false;
    const w = this.cover.words;
    const below = this.cover.belowStar;
    const reach = this.reach;
    const done = this.done;
    for (let k = 0; k < w; k++) (reach[k] = below[a * w + k]! | below[b * w + k]!), (done[k] = 0);
    for (let grew = true; grew; ) {
      grew = false;
      for (let k = 0; k < w; k++) {
        let bits = reach[k]! & ~done[k]!;
        while (bits !== 0) {
          const low = bits & -bits;
          bits ^= low;
          done[k]! |= low;
          const x = (k << 5) + (31 - Math.clz32(low));
          const p = node.partner[x]!;
          if (p < 0 || reach[p >>> 5]! & (1 << (p & 31))) continue;
          reach[p >>> 5]! |= 1 << (p & 31);
          for (let j = 0; j < w; j++) reach[j]! |= below[p * w + j]!;
          grew = true;
        }
      }
    }
    return (reach[a >>> 5]! & (1 << (a & 31))) === 0 && (reach[b >>> 5]! & (1 << (b & 31))) === 0;
  }

  /**
   * Plays every move the committed partners allow and commits every group with a
   * single way left, until nothing changes; false when that proves a dead end.
   */
  private propagate(node: Node, touched: readonly number[]): boolean {
    let work = touched;
    for (;;) {
      if (!this.settle(node, work)) return false;
      if (node.left === 0) return true;
      const forced: number[] = [];
      node.options = [];
      for (let g = 0; g < this.groups.length; g++) {
        const undecided = this.undecided(node, g);
        if (undecided.length === 0 || undecided.length > 4) continue;
        const options = this.pairings(node, undecided);
        node.options[g] = options; // kept for the search when this pass forces nothing
        if (options.length === 0) return false;
        if (options.length === 1) {
          for (const [a, b] of options[0]!) (node.partner[a] = b), (node.partner[b] = a), forced.push(a, b);
        }
      }
      if (forced.length === 0) return true;
      work = forced;
    }
  }

  /**
   * Removes committed pairs whose tiles are both free, following what each removal
   * frees; when every undecided copy of a group is free, pairs them in slot order.
   */
  private settle(node: Node, start: readonly number[]): boolean {
    const work = start.slice();
    while (work.length > 0) {
      const t = work.pop()!;
      if (!node.present[t] || !isFree(this.geom, node.present, t)) continue;
      let p = node.partner[t]!;
      if (p === -1) {
        const undecided = this.undecided(node, this.groupOf[t]!);
        if (!undecided.every((i) => isFree(this.geom, node.present, i))) continue;
        for (let k = 0; k < undecided.length; k += 2) {
          node.partner[undecided[k]!] = undecided[k + 1]!;
          node.partner[undecided[k + 1]!] = undecided[k]!;
          work.push(undecided[k]!);
        }
        p = node.partner[t]!;
      }
      if (!isFree(this.geom, node.present, p)) continue;
      node.present[t] = 0;
      node.present[p] = 0;
      node.left -= 2;
      this.moves.push([t, p]);
      for (const r of [t, p]) {
        for (const j of this.geom.below[r]!) work.push(j);
        for (const j of this.geom.left[r]!) work.push(j);
        for (const j of this.geom.right[r]!) work.push(j);
      }
    }
    return true;
  }

  private key(node: Node): number {
    let h1 = 0;
    let h2 = 0;
    for (let i = 0; i < this.geom.size; i++) {
      if (!node.present[i]) continue;
      h1 ^= this.keys[2 * i]!;
      const p = node.partner[i]!;
      h2 ^= Math.imul(this.keys[2 * i + 1]! ^ (p + 1), 0x9e3779b1);
    }
    return (h1 >>> 0) * 0x100000 + ((h2 >>> 0) & 0xfffff);
  }
}
