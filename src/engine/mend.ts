/**
 * Mending a shuffle into a winnable deal by playing it (classic deals on layouts where winnable shuffles are
 * rare):
 * a greedy player plays, and where no free pair matches, two faces trade places (docs/engine.md, "Mending").
 */
import { flatOf, neighbourCounts } from './flat.ts';
import type { Geometry } from './layout.ts';
import { matchGroup } from './rules.ts';
import type { Rng } from './rng.ts';
import type { Face, Pair } from './types.ts';

export interface Mended {
  readonly faces: Face[];
  readonly solution: Pair[];
  readonly traded: Pair[]; // slots whose faces were exchanged, in order (none: won as drawn)
}

const WHOLE_GROUP = 1_000; // score of a pair whose group has no tile buried: never costs a choice
const PER_FREED = 4; // score per tile the pair frees; a tile's layer adds its z

function groupsOf(faces: readonly Face[]): { group: Int32Array; count: number } {
  const ids = new Map<string, number>();
  const group = new Int32Array(faces.length);
  faces.forEach((face, i) => {
    const key = matchGroup(face);
    let id = ids.get(key);
    if (id === undefined) ids.set(key, (id = ids.size));
    group[i] = id;
  });
  return { group, count: ids.size };
}

/** Plays `shuffled` greedily, trading faces where play is stuck; null when the play strands a lone stack. */
export function mendByPlay(geom: Geometry, shuffled: readonly Face[], rng: Rng): Mended | null {
  const n = geom.size;
  const flat = flatOf(geom);
  const faces = shuffled.slice();
  const present = new Uint8Array(n).fill(1);
  const [above, left, right] = neighbourCounts(flat, present);
  const { group, count: groups } = groupsOf(faces);
  const onBoard = new Int32Array(groups);
  for (let i = 0; i < n; i++) onBoard[group[i]!]!++;
  const freeIn = new Int32Array(groups);
  const seen = new Int32Array(n);
  let mark = 0;
  const free: number[] = [];
  const ties: number[] = [];
  const solution: Pair[] = [];
  const traded: Pair[] = [];

  const isFree = (i: number): boolean => present[i] === 1 && above[i] === 0 && (left[i] === 0 || right[i] === 0);
  const lift = (t: number, step: 1 | -1): void => {
    present[t] = step === 1 ? 1 : 0;
    for (let k = flat.belowAt[t]!; k < flat.belowAt[t + 1]!; k++) above[flat.below[k]!]! += step;
    for (let k = flat.leftAt[t]!; k < flat.leftAt[t + 1]!; k++) right[flat.left[k]!]! += step;
    for (let k = flat.rightAt[t]!; k < flat.rightAt[t + 1]!; k++) left[flat.right[k]!]! += step;
  };
  // Free tiles under or beside t, each counted once per mark.
  const freeNeighbours = (t: number): number => {
    let found = 0;
    const visit = (u: number): void => {
      if (seen[u] === mark || present[u] !== 1) return;
      seen[u] = mark;
      if (isFree(u)) found++;
    };
    for (let k = flat.belowAt[t]!; k < flat.belowAt[t + 1]!; k++) visit(flat.below[k]!);
    for (let k = flat.leftAt[t]!; k < flat.leftAt[t + 1]!; k++) visit(flat.left[k]!);
    for (let k = flat.rightAt[t]!; k < flat.rightAt[t + 1]!; k++) visit(flat.right[k]!);
    return found;
  };
  const freed = (a: number, b: number): number => {
    seen[a] = seen[b] = ++mark;
    const before = freeNeighbours(a) + freeNeighbours(b);
    lift(a, -1);
    lift(b, -1);
    mark++;
    const after = freeNeighbours(a) + freeNeighbours(b);
    lift(b, 1);
    lift(a, 1);
    return after - before;
  };
  const score = (a: number, b: number): number => PER_FREED * freed(a, b) + geom.slots[a]!.z + geom.slots[b]!.z;
  let best = -Infinity;
  const consider = (a: number, b: number, value: number): void => {
    if (value < best) return;
    if (value > best) {
      best = value;
      ties.length = 0;
    }
    ties.push(a, b);
  };

  for (let leftOnBoard = n; leftOnBoard > 0; leftOnBoard -= 2) {
    free.length = 0;
    freeIn.fill(0);
    for (let i = 0; i < n; i++)
      if (isFree(i)) {
        free.push(i);
        freeIn[group[i]!]!++;
      }
    if (free.length < 2) return null;
    best = -Infinity;
    ties.length = 0;
    for (let x = 0; x < free.length; x++)
      for (let y = x + 1; y < free.length; y++) {
        const a = free[x]!;
        const b = free[y]!;
        if (group[a] !== group[b]) continue;
        consider(a, b, (freeIn[group[a]!] === onBoard[group[a]!] ? WHOLE_GROUP : 0) + score(a, b));
      }
    const matched = ties.length > 0;
    if (!matched)
      for (let x = 0; x < free.length; x++)
        for (let y = x + 1; y < free.length; y++) consider(free[x]!, free[y]!, score(free[x]!, free[y]!));
    const k = rng.int(ties.length / 2);
    let a = ties[2 * k]!;
    let b = ties[2 * k + 1]!;
    if (!matched) {
      // No free pair: b trades faces with a buried copy of a's group (groups are even, so there is one).
      if (rng.int(2) === 1) [a, b] = [b, a];
      const copies: number[] = [];
      for (let i = 0; i < n; i++) if (present[i] === 1 && i !== a && group[i] === group[a]) copies.push(i);
      const c = copies[rng.int(copies.length)]!;
      [faces[b], faces[c]] = [faces[c]!, faces[b]!];
      [group[b], group[c]] = [group[c]!, group[b]!];
      traded.push([b, c]);
    }
    lift(a, -1);
    lift(b, -1);
    onBoard[group[a]!]! -= 2;
    solution.push([a, b]);
  }
  return { faces, solution, traded };
}

/**
 * Makes each pair of a removal order match, trading faces with a later tile where it does not: always
 * succeeds.
 */
export function mendAlongOrder(shuffled: readonly Face[], order: readonly Pair[], rng: Rng): Mended {
  const faces = shuffled.slice();
  const { group } = groupsOf(faces);
  const gone = new Uint8Array(faces.length);
  const traded: Pair[] = [];
  for (const [a, b] of order) {
    if (group[a] !== group[b]) {
      const copies: number[] = [];
      for (let i = 0; i < faces.length; i++) if (gone[i] === 0 && i !== a && group[i] === group[a]) copies.push(i);
      const c = copies[rng.int(copies.length)]!;
      [faces[b], faces[c]] = [faces[c]!, faces[b]!];
      [group[b], group[c]] = [group[c]!, group[b]!];
      traded.push([b, c]);
    }
    gone[a] = 1;
    gone[b] = 1;
  }
  return { faces, solution: order.map(([a, b]) => [a, b]), traded };
}
