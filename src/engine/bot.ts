/**
 * A competent bot: how a player who plays well but does not search fares on a deal (docs/study.md). Its rules
 * 1
 * to 4: docs/engine.md, "The bot". `playBot` makes `botMove`'s choices on kept free lists.
 */
import { shuffleFaces } from './shuffle.ts';
import { freedomOf, type Freedom } from './freedom.ts';
import type { Geometry } from './layout.ts';
import { freeByGroupOf, groupsOf, type FreeByGroup, type Groups } from './playout.ts';
import { makeRng, type Rng } from './rng.ts';
import { isFree, matchGroup } from './rules.ts';
import type { Face } from './types.ts';

export interface BotResult {
  readonly won: boolean;
  readonly shuffles: number;
  readonly left: number; // tiles left when it lost; 0 when it won
}

export const BOT_SHUFFLES = [0, 3, Infinity] as const; // the study's three allowances
export const SHUFFLE_CAP = 1_000; // "unlimited" shuffles stop here

const SPLIT = -1e9; // rule 2's penalty: below every other pair

/** The bot's next pair on `present` with `faces` (rules 1 to 3), or null when no pair is free. */
export function botMove(
  geom: Geometry,
  present: Uint8Array,
  faces: readonly (Face | null)[],
  rng: Rng,
): [number, number] | null {
  const free = new Map<string, number[]>();
  const onBoard = new Map<string, number>();
  for (let i = 0; i < geom.size; i++) {
    if (!present[i]) continue;
    const g = matchGroup(faces[i]!);
    onBoard.set(g, (onBoard.get(g) ?? 0) + 1);
    if (isFree(geom, present, i)) {
      const list = free.get(g);
      if (list) list.push(i);
      else free.set(g, [i]);
    }
  }
  // 1. A whole group.
  for (const [g, list] of free) if (list.length >= 2 && list.length === onBoard.get(g)) return [list[0]!, list[1]!];
  let move: [number, number] | null = null;
  let best = -Infinity;
  for (const [g, list] of free) {
    if (list.length < 2) continue;
    // 2. Split a group of four whose fourth copy is buried only when nothing else is left.
    const split = list.length === 3 && onBoard.get(g) === 4 ? SPLIT : 0;
    for (let x = 0; x < list.length; x++)
      for (let y = x + 1; y < list.length; y++) {
        // 3. The pair that frees the most, ties at random.
        const score = split + value(geom, present, list[x]!, list[y]!) * 16 + rng.int(16);
        if (score > best) {
          best = score;
          move = [list[x]!, list[y]!];
        }
      }
  }
  return move;
}

/** Rule 3's measure of a pair: tiles it frees, then tiles it uncovers. */
function value(geom: Geometry, present: Uint8Array, a: number, b: number): number {
  const touched = new Set<number>();
  for (const t of [a, b])
    for (const list of [geom.below[t]!, geom.left[t]!, geom.right[t]!]) for (const j of list) touched.add(j);
  touched.delete(a);
  touched.delete(b);
  const before = [...touched].filter((j) => present[j] && isFree(geom, present, j)).length;
  present[a] = present[b] = 0;
  let freed = 0;
  for (const j of touched) if (present[j] && isFree(geom, present, j)) freed++;
  present[a] = present[b] = 1;
  return (freed - before) * 64 + uncovers(geom, a) + uncovers(geom, b);
}

/** Tiles below t count double, those beside once. */
const uncovers = (geom: Geometry, t: number): number =>
  2 * geom.below[t]!.length + geom.left[t]!.length + geom.right[t]!.length;

/** Per geometry: `uncovers` of every slot, and scratch. */
interface BotWork {
  readonly uncovered: Int32Array;
  readonly seen: Int32Array;
  stamp: number;
  readonly order: Int32Array; // groups with two free copies or more, by first free slot
  onBoard: Int32Array;
}

const works = new WeakMap<Geometry, BotWork>();

function workOf(geom: Geometry): BotWork {
  let work = works.get(geom);
  if (!work) {
    const uncovered = new Int32Array(geom.size);
    for (let t = 0; t < geom.size; t++) uncovered[t] = uncovers(geom, t);
    work = {
      uncovered,
      seen: new Int32Array(geom.size),
      stamp: 0,
      order: new Int32Array(geom.size),
      onBoard: new Int32Array(0),
    };
    works.set(geom, work);
  }
  return work;
}

/**
 * Plays one game from a full board with `start` faces and at most `shuffles` shuffles; `seed` names the
 * tie-breaks and the shuffles.
 */
export function playBot(geom: Geometry, start: readonly Face[], seed: string, shuffles: number): BotResult {
  const rng = makeRng(seed, 'bot');
  const board = freedomOf(geom);
  const free = freeByGroupOf(geom);
  const work = workOf(geom);
  let faces: readonly (Face | null)[] = start;
  let groups: Groups = groupsOf(faces);
  const ids = new Map(groups.ids);
  let left = geom.size;
  let used = 0;
  const begin = (present: Uint8Array | null): void => {
    free.open(groups);
    if (work.onBoard.length < groups.count) work.onBoard = new Int32Array(groups.count);
    work.onBoard.set(groups.copies);
    board.reset(present, free.add);
  };
  begin(null);
  for (;;) {
    if (left === 0) return { won: true, shuffles: used, left: 0 };
    const move = nextMove(board, work, free, groups, rng);
    if (move >= 0) {
      const a = move >> 16;
      const b = move & 0xffff;
      const g = groups.of[a]!;
      free.take(g, b);
      free.take(g, a);
      work.onBoard[g]! -= 2;
      board.remove(a, free.add);
      board.remove(b, free.add);
      left -= 2;
      continue;
    }
    // 4. Stuck.
    if (used >= shuffles || used >= SHUFFLE_CAP) return { won: false, shuffles: used, left };
    used++;
    const present = Uint8Array.from(board.present);
    const shuffled = shuffleFaces(geom, present, faces, seed, used);
    if (!shuffled.ok) return { won: false, shuffles: used, left }; // the tiles left cannot be cleared by any faces
    faces = shuffled.value.faces;
    groups = groupsOf(faces, ids);
    begin(present);
  }
}

/** `botMove` on the kept free lists: the pair as a << 16 | b, or -1 when none. */
function nextMove(board: Freedom, work: BotWork, free: FreeByGroup, groups: Groups, rng: Rng): number {
  // Groups with two free copies or more, by first free slot (botMove's order).
  const { order, onBoard, uncovered } = work;
  let count = 0;
  for (let g = 0; g < groups.count; g++) {
    if (free.length[g]! < 2) continue;
    const head = free.tiles[free.start[g]!]!;
    let k = count++;
    while (k > 0 && free.tiles[free.start[order[k - 1]!]!]! > head) {
      order[k] = order[k - 1]!;
      k--;
    }
    order[k] = g;
  }
  // 1. A whole group.
  for (let k = 0; k < count; k++) {
    const g = order[k]!;
    if (free.length[g] === onBoard[g]) return (free.tiles[free.start[g]!]! << 16) | free.tiles[free.start[g]! + 1]!;
  }
  let move = -1;
  let best = -Infinity;
  for (let k = 0; k < count; k++) {
    const g = order[k]!;
    const s = free.start[g]!;
    const n = free.length[g]!;
    // 2. Splitting a group of four whose fourth copy is buried.
    const split = n === 3 && onBoard[g] === 4 ? SPLIT : 0;
    for (let x = 0; x < n; x++)
      for (let y = x + 1; y < n; y++) {
        const a = free.tiles[s + x]!;
        const b = free.tiles[s + y]!;
        // 3. The pair that frees the most, ties at random.
        const score =
          split +
          (board.freedBy(a, b, work.seen, ++work.stamp) * 64 + uncovered[a]! + uncovered[b]!) * 16 +
          rng.int(16);
        if (score > best) {
          best = score;
          move = (a << 16) | b;
        }
      }
  }
  return move;
}
