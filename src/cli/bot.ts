/**
 * A competent bot: how a player who plays well, but does not search, fares on a
 * deal (the study's question 1, docs/study.md).
 *
 * Its policy, move by move:
 * 1. A whole group first: when every copy of a face still on the board is free,
 *    it takes two of them (and the other two next, when there were four). Such a
 *    move can never be wrong.
 * 2. It never splits a group whose last copy is buried while a choice exists: with
 *    three copies of four free, taking two of them decides which one waits for
 *    the buried fourth, so it prefers any other pair.
 * 3. Among the pairs left it prefers the one that frees the most tiles (tiles that
 *    become free when both leave), then the one that uncovers the most tiles
 *    (stacked tiles count most, as they block whole columns), ties at random.
 * 4. Stuck with tiles left: it shuffles when it still may (the game's own shuffle,
 *    which re-deals the remaining faces so that they can be cleared), else loses.
 *
 * Deterministic for a seed: the tie-breaks come from `makeRng(seed, 'bot')`.
 */
import { isFree, makeRng, matchGroup, shuffleFaces, type Face, type Geometry, type Rng } from '../engine/index.ts';

export interface BotResult {
  readonly won: boolean;
  readonly shuffles: number; // shuffles used
}

const UNLIMITED = Infinity;
export const BOT_SHUFFLES = [0, 3, UNLIMITED] as const; // the study's three allowances
export const SHUFFLE_CAP = 1_000; // "unlimited" shuffles stop here (never reached in practice)

/** Plays one game from a full board with `faces`; at most `shuffles` shuffles. */
export function playBot(geom: Geometry, start: readonly Face[], seed: string, shuffles: number): BotResult {
  const n = geom.size;
  const rng = makeRng(seed, 'bot');
  const present = new Uint8Array(n).fill(1);
  let faces: (Face | null)[] = start.slice();
  let left = n;
  let used = 0;
  for (;;) {
    if (left === 0) return { won: true, shuffles: used };
    const move = botMove(geom, present, faces, rng);
    if (move) {
      present[move[0]] = present[move[1]] = 0;
      left -= 2;
      continue;
    }
    // 4. Stuck.
    if (used >= shuffles || used >= SHUFFLE_CAP) return { won: false, shuffles: used };
    used++;
    const shuffled = shuffleFaces(geom, present, faces, seed, used);
    if (!shuffled.ok) return { won: false, shuffles: used }; // the tiles left cannot be cleared by any faces
    faces = shuffled.value.faces;
  }
}

/** The bot's next pair on the board `present` with `faces` (rules 1 to 3), or null when no pair is free. */
export function botMove(
  geom: Geometry,
  present: Uint8Array,
  faces: readonly (Face | null)[],
  rng: Rng,
): [number, number] | null {
  // Free copies and copies on the board, per match group.
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
    // 2. Splitting a group of four whose fourth copy is buried: only when nothing else is left.
    const split = list.length === 3 && onBoard.get(g) === 4 ? -1e9 : 0;
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

/** Rule 3's measure of a pair: tiles it frees, then (below that) tiles it uncovers, stacked ones counting double. */
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
  let uncovered = 0;
  for (const t of [a, b]) uncovered += 2 * geom.below[t]!.length + geom.left[t]!.length + geom.right[t]!.length;
  return (freed - before) * 64 + uncovered;
}
