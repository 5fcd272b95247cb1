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
 * - a group with one way left to pair its copies is paired that way.
 * Pairings are forward-checked with a "must leave after" relation: a tile leaves
 * after every tile above it, and together with its partner. Each search node keeps
 * its transitive closure as one bitset per tile (`reach`: the tiles that must leave
 * after this one's pair), so a partner choice is checked in O(1): it is impossible
 * when it would make a pair wait for itself — a tile paired with one it lies on, or
 * a cycle such as "a over c, d over b, a with b, c with d". Committing a pair
 * updates the closure in one pass over the tiles (reachability only grows).
 * Paths through removed tiles never matter: a tile can only leave after every
 * tile that must leave before it. After each round of propagation an optimistic
 * play-out (`canEmpty`: undecided tiles may leave alone once free) must still
 * empty the board; it catches deadlocks that mix partners, covers and rows.
 * The search branches on a group that can move now (two free undecided copies that
 * some remaining pairing lets go together), the one with the fewest ways left,
 * ties broken at random; dead positions are remembered by a Zobrist hash of the
 * tiles present and the partners committed; runs restart on the Luby schedule.
 * A few random playouts run first: they clear most easy positions in microseconds.
 * Each search position and each playout move counts as one node against the
 * budget, so results never depend on the clock.
 */
import type { Geometry } from './layout.ts';
import { isFree, matchGroup, type Presence } from './rules.ts';
import { makeRng, type Rng } from './rng.ts';
import type { Face, Pair } from './types.ts';

export const SOLVE_BUDGET = 200_000; // default node budget
const PLAYOUTS = 4; // random playouts tried before the search
const RESTART_UNIT = 64; // nodes in the shortest search run

export type SolveOutcome = 'solvable' | 'unsolvable' | 'unresolved';

export type SolveResult =
  | { readonly result: 'solvable'; readonly nodes: number; readonly solution: Pair[] } // solution in play order
  | { readonly result: 'unsolvable' | 'unresolved'; readonly nodes: number }; // nodes: positions plus playout moves

export interface SolveOptions {
  readonly budget?: number; // node budget; default SOLVE_BUDGET
  readonly seed?: string; // seeds the playouts and tie-breaks; default 'solve'
}

class BudgetExceeded extends Error {}
class Restart extends Error {}

/** The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, …: a restart schedule within a log factor of optimal. */
function luby(k: number): number {
  for (let size = 1, power = 1; ; size = 2 * size + 1, power *= 2) {
    if (k === size) return power;
    if (k < size) return luby(k - (size - 1) / 2);
  }
}

const has = (bits: Uint32Array, base: number, i: number): boolean => (bits[base + (i >>> 5)]! & (1 << (i & 31))) !== 0;

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

  let nodes = 0;
  const spend = (): void => {
    if (++nodes > budget) throw new BudgetExceeded();
  };
  try {
    for (let p = 0; p < PLAYOUTS; p++) {
      const moves = playout(geom, present, faces, groupOf, rng, spend);
      if (moves) return { result: 'solvable', nodes, solution: moves };
    }
    const search = new PairingSearch(geom, groups, groupOf, spend, rng);
    const moves = search.run(present, count);
    return moves ? { result: 'solvable', nodes, solution: moves } : { result: 'unsolvable', nodes };
  } catch (e) {
    if (e instanceof BudgetExceeded) return { result: 'unresolved', nodes: budget };
    throw e;
  }
}


/** One game of random legal play, taking safe moves first; the moves if it clears the board. */
function playout(
  geom: Geometry,
  start: Presence,
  faces: readonly (Face | null)[],
  groupOf: Int16Array,
  rng: Rng,
  spend: () => void,
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

interface Node {
  present: Uint8Array;
  partner: Int16Array; // committed partner per slot; -1 while undecided
  reach: Uint32Array; // per tile, `words` words: the tiles that must leave after its pair (see the notes)
  left: number; // tiles still present
  options: (Pair[][] | undefined)[]; // per group of two or four undecided copies: its ways to pair (see propagate)
}

/** Depth-first search over partner choices; see the module notes. */
class PairingSearch {
  private readonly moves: Pair[] = [];
  private readonly dead = new Set<number>();
  private readonly keys: Uint32Array;
  private readonly words: number; // 32-bit words per bitset
  private readonly union: Uint32Array; // scratch bitset
  private rowLeft = new Uint32Array(0); // per tile: the tiles of its row to its left, through neighbours of neighbours
  private rowRight = new Uint32Array(0); // the same to its right
  private scratch = new Uint32Array(0); // a node's reach, for trying a pairing without committing it
  private relaxed = new Uint8Array(0); // scratch presence for canEmpty
  private limit = 0; // nodes this run may visit
  private visited = 0; // nodes this run has visited

  constructor(
    private readonly geom: Geometry,
    private readonly groups: readonly (readonly number[])[],
    private readonly groupOf: Int16Array,
    private readonly spend: () => void,
    private readonly rng: Rng,
  ) {
    const zobrist = makeRng('solver-zobrist');
    this.keys = new Uint32Array(geom.size * 2);
    for (let k = 0; k < this.keys.length; k++) this.keys[k] = zobrist.next();
    this.words = (geom.size + 31) >>> 5;
    this.union = new Uint32Array(this.words);
  }

  /**
   * Runs the search with restarts: each run may visit a growing number of nodes
   * (the Luby sequence times RESTART_UNIT), and dead positions found by earlier
   * runs stay known. A run that ends within its limit has explored everything:
   * its answer is final.
   */
  run(present: Presence, count: number): Pair[] | null {
    this.rowLeft = Uint32Array.from(this.sideClosure(present, this.geom.left));
    this.rowRight = Uint32Array.from(this.sideClosure(present, this.geom.right));
    this.scratch = new Uint32Array(this.geom.size * this.words);
    this.relaxed = new Uint8Array(this.geom.size);
    const root: Node = {
      present: Uint8Array.from(present),
      partner: new Int16Array(this.geom.size).fill(-1),
      reach: this.coverClosure(present),
      left: count,
      options: [],
    };
    const all: number[] = [];
    for (let i = 0; i < this.geom.size; i++) if (root.present[i]) all.push(i);
    if (!this.propagate(root, all)) return null;
    const rootMoves = this.moves.length; // moves forced at the root come first in every run
    for (let k = 1; ; k++) {
      this.limit = RESTART_UNIT * luby(k);
      this.visited = 0;
      this.moves.length = rootMoves;
      try {
        return this.search(this.copy(root)) ? this.moves.slice() : null;
      } catch (e) {
        if (!(e instanceof Restart)) throw e;
      }
    }
  }

  /**
   * Per present tile, the tiles on one side of it in its row, through neighbours of
   * neighbours. Before a tile can leave, all of those on its left or all of those on
   * its right must have left: each of them is blocked on the far side until then.
   */
  private sideClosure(present: Presence, side: readonly (readonly number[])[]): Uint32Array {
    const w = this.words;
    const n = this.geom.size;
    const bits = new Uint32Array(n * w);
    const done = new Uint8Array(n);
    const visit = (t: number): void => {
      if (done[t]) return;
      done[t] = 1; // rows have no cycles: x + 2 always grows
      for (const j of side[t]!) {
        if (!present[j]) continue;
        visit(j);
        bits[t * w + (j >>> 5)]! |= 1 << (j & 31);
        for (let k = 0; k < w; k++) bits[t * w + k]! |= bits[j * w + k]!;
      }
    };
    for (let t = 0; t < n; t++) if (present[t]) visit(t);
    return bits;
  }

  /** Is tile z walled in: something on each side of its row must leave after it? */
  private walledIn(reach: Uint32Array, z: number): boolean {
    const w = this.words;
    let left = false;
    let right = false;
    for (let k = 0; k < w; k++) {
      const after = reach[z * w + k]!;
      if (after & this.rowLeft[z * w + k]!) left = true;
      if (after & this.rowRight[z * w + k]!) right = true;
    }
    return left && right;
  }

  /** Per present tile, the tiles below it, directly or through others. */
  private coverClosure(present: Presence): Uint32Array {
    const w = this.words;
    const reach = new Uint32Array(this.geom.size * w);
    const byZ = Array.from({ length: this.geom.size }, (_, i) => i).sort(
      (a, b) => this.geom.slots[a]!.z - this.geom.slots[b]!.z,
    );
    for (const i of byZ) {
      if (!present[i]) continue;
      for (const j of this.geom.below[i]!) {
        if (!present[j]) continue;
        reach[i * w + (j >>> 5)]! |= 1 << (j & 31);
        for (let k = 0; k < w; k++) reach[i * w + k]! |= reach[j * w + k]!;
      }
    }
    return reach;
  }

  private copy(node: Node): Node {
    return {
      present: node.present.slice(),
      partner: node.partner.slice(),
      reach: node.reach.slice(),
      left: node.left,
      options: node.options,
    };
  }

  private search(node: Node): boolean {
    this.spend();
    if (++this.visited > this.limit) throw new Restart();
    if (node.left === 0) return true;
    const key = this.key(node);
    if (this.dead.has(key)) return false;
    // Nothing committed can be played, so the next move pairs two free undecided
    // copies. Branch on a group where some way of pairing allows that (no such
    // group: dead end), taking the group with the fewest ways left. Candidates are
    // ranked by their cheap options, in random order among equals, and checked
    // thoroughly (walls included) only until none left can do better.
    const free = new Uint8Array(this.geom.size);
    for (let i = 0; i < free.length; i++) if (node.present[i] && isFree(this.geom, node.present, i)) free[i] = 1;
    const candidates: { g: number; cheap: Pair[][]; rank: number }[] = [];
    for (let g = 0; g < this.groups.length; g++) {
      let freeUndecided = 0;
      for (const i of this.groups[g]!) if (free[i] && node.partner[i] === -1) freeUndecided++;
      if (freeUndecided < 2) continue;
      const cheap = node.options[g] ?? this.anchored(node, this.undecided(node, g), free);
      if (!cheap.some((o) => o.some(([a, b]) => free[a] && free[b]))) continue;
      candidates.push({ g, cheap, rank: cheap.length * 0x10000 + this.rng.int(0x10000) });
    }
    candidates.sort((x, y) => x.rank - y.rank);
    let best: Pair[][] | null = null;
    for (const { g, cheap } of candidates) {
      if (best !== null && cheap.length >= best.length) break;
      const options = node.options[g] ? this.pairings(node, this.undecided(node, g), true) : cheap;
      if (options.length === 0) {
        best = null; // a group with no way left: dead
        break;
      }
      if (!options.some((o) => o.some(([a, b]) => free[a] && free[b]))) continue;
      if (best === null || options.length < best.length) best = options;
    }
    if (best !== null) {
      const mark = this.moves.length;
      for (const option of this.playableFirst(best, free)) {
        const child = this.copy(node);
        if (option.every(([a, b]) => this.commit(child, a, b)) && this.propagate(child, option.flat()) && this.search(child))
          return true;
        this.moves.length = mark;
      }
    }
    this.dead.add(key);
    return false;
  }

  private undecided(node: Node, g: number): number[] {
    return this.groups[g]!.filter((i) => node.present[i] && node.partner[i] === -1);
  }

  /** Options whose pairs can be played at once come first, the rest in random order. */
  private playableFirst(options: Pair[][], free: Uint8Array): Pair[][] {
    const playable = (o: Pair[]): number => o.filter(([a, b]) => free[a] && free[b]).length;
    const keyed = options.map((o) => [o, playable(o) * 0x10000 + this.rng.int(0x10000)] as const);
    return keyed.sort((x, y) => y[1] - x[1]).map(([o]) => o);
  }

  /**
   * Pairs a with b and closes `reach` over the new pair; false when that walls a
   * tile in (see walledIn): the position is then dead.
   */
  private commit(node: Node, a: number, b: number): boolean {
    node.partner[a] = b;
    node.partner[b] = a;
    return this.close(node, node.reach, a, b);
  }

  /** Adds the pair (a, b) to a reach relation; false when a tile ends up walled in. */
  private close(node: Node, reach: Uint32Array, a: number, b: number): boolean {
    const w = this.words;
    const union = this.union;
    for (let k = 0; k < w; k++) union[k] = reach[a * w + k]! | reach[b * w + k]!;
    union[a >>> 5]! |= 1 << (a & 31);
    union[b >>> 5]! |= 1 << (b & 31);
    // Whatever must leave after a or b (or is a or b) must now leave after the whole pair.
    let dead = false;
    for (let z = 0; z < this.geom.size; z++) {
      if (!node.present[z]) continue;
      if (z !== a && z !== b && !has(reach, z * w, a) && !has(reach, z * w, b)) continue;
      for (let k = 0; k < w; k++) reach[z * w + k]! |= union[k]!;
      if (this.walledIn(reach, z)) dead = true;
    }
    return !dead;
  }

  /** Could a and b leave together, given the pairs committed so far? */
  private feasible(node: Node, a: number, b: number): boolean {
    const w = this.words;
    const r = node.reach;
    return !has(r, a * w, a) && !has(r, a * w, b) && !has(r, b * w, a) && !has(r, b * w, b);
  }

  /** Could c and d leave together once a and b are committed? Computed without committing. */
  private feasibleAfter(node: Node, a: number, b: number, c: number, d: number): boolean {
    return (
      !this.reachesAfter(node, a, b, c, c) &&
      !this.reachesAfter(node, a, b, c, d) &&
      !this.reachesAfter(node, a, b, d, c) &&
      !this.reachesAfter(node, a, b, d, d)
    );
  }

  /** Must t leave after z once a and b are committed? (A method, not a closure: this is the hot path.) */
  private reachesAfter(node: Node, a: number, b: number, z: number, t: number): boolean {
    const w = this.words;
    const r = node.reach;
    if (has(r, z * w, t)) return true;
    if (!has(r, z * w, a) && !has(r, z * w, b)) return false;
    return t === a || t === b || has(r, a * w, t) || has(r, b * w, t);
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

  /** The ways to pair a group's two or four undecided copies that break no "must leave after" rule. */
  private pairings(node: Node, undecided: readonly number[], thorough: boolean): Pair[][] {
    if (undecided.length === 2) {
      const [a, b] = undecided as [number, number];
      if (!this.feasible(node, a, b)) return [];
      if (!thorough) return [[[a, b]]];
      this.scratch.set(node.reach);
      return this.close(node, this.scratch, a, b) ? [[[a, b]]] : [];
    }
    const [a, ...rest] = undecided as [number, number, number, number];
    const options: Pair[][] = [];
    for (const b of rest) {
      if (!this.feasible(node, a, b)) continue;
      const [c, d] = rest.filter((x) => x !== b) as [number, number];
      if (!this.feasibleAfter(node, a, b, c, d)) continue;
      if (!thorough) {
        options.push([[a, b], [c, d]]);
        continue;
      }
      // Cheap checks passed: try the pairing on a copy of the relation, walls included.
      this.scratch.set(node.reach);
      if (this.close(node, this.scratch, a, b) && this.close(node, this.scratch, c, d)) options.push([[a, b], [c, d]]);
    }
    return options;
  }

  /**
   * Plays every move the committed partners allow and commits every group with a
   * single way left, until nothing changes; false when that proves a dead end.
   * The last pass leaves each small group's options in `node.options` for the search.
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
        const options = this.pairings(node, undecided, false);
        if (options.length === 0) return false;
        node.options[g] = options;
        if (options.length === 1 && forced.length === 0) {
          // Commit one forced group per pass: the options of the others may change with it.
          for (const [a, b] of options[0]!) {
            if (!this.commit(node, a, b)) return false;
            forced.push(a, b);
          }
        }
      }
      if (forced.length === 0) return this.canEmpty(node);
      work = forced;
    }
  }

  /**
   * An optimistic test: can the board empty if every undecided tile may leave alone
   * as soon as it is free, and committed pairs leave when both are free? Any real
   * solution under the current partners passes it (removals only ever free tiles),
   * so a failure proves the position dead. It catches deadlocks that mix partners,
   * covers and rows.
   */
  private canEmpty(node: Node): boolean {
    const present = this.relaxed;
    present.set(node.present);
    let left = node.left;
    const work: number[] = [];
    for (let i = 0; i < present.length; i++) if (present[i]) work.push(i);
    while (work.length > 0) {
      const t = work.pop()!;
      if (!present[t] || !isFree(this.geom, present, t)) continue;
      const p = node.partner[t]!;
      if (p !== -1 && !(present[p] && isFree(this.geom, present, p))) continue;
      present[t] = 0;
      left--;
      if (p !== -1) (present[p] = 0), left--;
      for (const r of p === -1 ? [t] : [t, p]) {
        for (const j of this.geom.below[r]!) work.push(j);
        for (const j of this.geom.left[r]!) work.push(j);
        for (const j of this.geom.right[r]!) work.push(j);
      }
    }
    return left === 0;
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
      if (node.partner[t] === -1) {
        const undecided = this.undecided(node, this.groupOf[t]!);
        if (!undecided.every((i) => isFree(this.geom, node.present, i))) continue;
        for (let k = 0; k < undecided.length; k += 2) {
          if (!this.commit(node, undecided[k]!, undecided[k + 1]!)) return false;
          work.push(undecided[k]!);
        }
      }
      const p = node.partner[t]!;
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
