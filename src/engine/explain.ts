/**
 * Why a win was lost: a short, proved reason a position can never be cleared (docs/coach.md).
 *
 * Implementation notes: a reason is a *deadlock set* D of tiles on the board, each of which is
 * - blocked by D: a tile of D lies on it, or tiles of D flank it on both long sides; or
 * - locked by D: every other tile of its match group still on the board is in D and blocked by D.
 * Take the first move, in any order of play, that removes a tile of D: before it all of D is on the board,
 * so a blocked tile is not free, and a locked tile's partner is a blocked tile of D, not free either. So no
 * tile of D ever leaves, and the board cannot be cleared. The largest deadlock set is a greatest fixed point
 * (drop tiles that are neither, until none drops); a short one is grown from one locked tile by taking, for
 * each tile that needs it, one blocker (a tile on top first, else one flank each side), and the smallest
 * such set is the reason. Its shape names it (REASONS). Many lost boards have no deadlock set (they fail by
 * counting, not blocking): those get 'none', never a guess.
 */
import { isBoardMove, type Game } from './game.ts';
import type { Geometry } from './layout.ts';
import { matchGroup } from './rules.ts';
import type { Face, Pair } from './types.ts';

/**
 * The reasons, as codes (docs/coach.md has each with its proof):
 * - stacked: the last tiles of one face lie on one another (one covers the other, maybe through tiles
 *   between), so they can never both be free;
 * - same-row: the last two of a face sit side by side in one row, and one of them is held by its flanks, the
 *   other and a tile that stays: it can only come free once the other is gone;
 * - cycle: tiles of two or more faces each wait for another's pair to go first;
 * - walled: the last tiles of one face are shut in by tiles that can only leave after them;
 * - none: no short reason is proved (the position is lost all the same).
 */
export const REASONS = ['stacked', 'same-row', 'cycle', 'walled', 'none'] as const;
export type Reason = (typeof REASONS)[number];

/** Tiles a reason may name at most: a longer one is no short reason. */
export const MAX_REASON_TILES = 10;

export interface Explanation {
  readonly reason: Reason;
  readonly move: Pair | null; // the losing move, when one was given
  readonly tiles: readonly number[]; // the deadlock set's slots, ascending; empty for 'none'
  readonly named: readonly number[]; // of those, the tiles whose faces the reason names (docs/coach.md)
}

/** How a tile of a deadlock set is held: by a tile on top, by both flanks, or by its partners. */
type Hold =
  | { readonly by: 'above'; readonly tile: number }
  | { readonly by: 'flanks'; readonly tiles: Pair }
  | { readonly by: 'group' };

const NONE = (move: Pair | null): Explanation => ({ reason: 'none', move, tiles: [], named: [] });

/** The slots of each match group on the board. */
function groupsOn(faces: readonly (Face | null)[]): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  faces.forEach((face, i) => {
    if (face == null) return;
    const key = matchGroup(face);
    const list = groups.get(key);
    if (list) list.push(i);
    else groups.set(key, [i]);
  });
  return groups;
}

const someIn = (set: Uint8Array, list: readonly number[]): number => {
  for (const j of list) if (set[j]) return j;
  return -1;
};

/** Is tile i blocked by the set: a tile of it on top, or on both sides? */
const isBlockedBy = (geom: Geometry, set: Uint8Array, i: number): boolean =>
  someIn(set, geom.above[i]!) >= 0 || (someIn(set, geom.left[i]!) >= 0 && someIn(set, geom.right[i]!) >= 0);

/** Is tile i locked by the set: every other tile of its group on the board in it and blocked by it? */
const isLockedBy = (geom: Geometry, set: Uint8Array, mates: readonly number[], i: number): boolean =>
  mates.every((m) => m === i || (set[m] === 1 && isBlockedBy(geom, set, m)));

/** The largest deadlock set of a board (1 per slot in it); all zero when there is none. */
export function largestDeadlock(geom: Geometry, faces: readonly (Face | null)[]): Uint8Array {
  const groups = groupsOn(faces);
  const set = Uint8Array.from(faces, (f) => (f == null ? 0 : 1));
  for (let changed = true; changed;) {
    changed = false;
    for (let i = 0; i < set.length; i++) {
      if (!set[i]) continue;
      if (isBlockedBy(geom, set, i) || isLockedBy(geom, set, groups.get(matchGroup(faces[i]!))!, i)) continue;
      set[i] = 0;
      changed = true;
    }
  }
  return set;
}

/** A deadlock set grown from one locked tile inside `largest`, with how each tile is held; null past `limit`. */
function growFrom(
  geom: Geometry,
  faces: readonly (Face | null)[],
  groups: Map<string, number[]>,
  largest: Uint8Array,
  seed: number,
  limit: number,
): Map<number, Hold> | null {
  const holds = new Map<number, Hold>();
  const inSet = (j: number): boolean => holds.has(j);
  const pick = (list: readonly number[]): number => {
    let any = -1;
    for (const j of list) {
      if (!largest[j]) continue;
      if (inSet(j)) return j;
      if (any < 0) any = j;
    }
    return any;
  };
  const queue: number[] = [];
  const add = (j: number): void => {
    if (!inSet(j) && !queue.includes(j)) queue.push(j);
  };
  holds.set(seed, { by: 'group' });
  for (const m of groups.get(matchGroup(faces[seed]!))!) if (m !== seed) add(m);
  while (queue.length > 0) {
    const i = queue.shift()!;
    if (inSet(i)) continue;
    const top = pick(geom.above[i]!);
    if (top >= 0) {
      holds.set(i, { by: 'above', tile: top });
      add(top);
    } else {
      const l = pick(geom.left[i]!);
      const r = pick(geom.right[i]!);
      if (l >= 0 && r >= 0) {
        holds.set(i, { by: 'flanks', tiles: [l, r] });
        add(l);
        add(r);
      } else {
        // Not blocked within the largest set, so locked there: its partners (all blocked there) join.
        holds.set(i, { by: 'group' });
        for (const m of groups.get(matchGroup(faces[i]!))!) if (m !== i) add(m);
      }
    }
    if (holds.size + queue.length > limit) return null;
  }
  return holds;
}

/** Checks the deadlock-set conditions on a set of slots (the proof, run again on the set found). */
export function isDeadlock(geom: Geometry, faces: readonly (Face | null)[], tiles: readonly number[]): boolean {
  if (tiles.length === 0) return false;
  const groups = groupsOn(faces);
  const set = new Uint8Array(faces.length);
  for (const i of tiles) {
    if (faces[i] == null) return false;
    set[i] = 1;
  }
  return tiles.every((i) => isBlockedBy(geom, set, i) || isLockedBy(geom, set, groups.get(matchGroup(faces[i]!))!, i));
}

/** The name of a deadlock set's shape (see REASONS), and the tiles whose faces the reason names. */
function nameOf(
  faces: readonly (Face | null)[],
  groups: Map<string, number[]>,
  holds: Map<number, Hold>,
): { reason: Reason; named: number[] } {
  const locked = [...holds.keys()].filter((i) => holds.get(i)!.by === 'group').sort((a, b) => a - b);
  const lockedGroups = new Set(locked.map((i) => matchGroup(faces[i]!)));
  const allIn = (group: string): number[] =>
    groups
      .get(group)!
      .slice()
      .sort((a, b) => a - b);
  if (lockedGroups.size === 1 && [...holds.values()].every((h) => h.by !== 'flanks'))
    return { reason: 'stacked', named: allIn([...lockedGroups][0]!) };
  // The last two of a face side by side: one held by its flanks, the other one of them (the other flank stays).
  for (const group of lockedGroups) {
    const mine = groups.get(group)!;
    if (mine.length !== 2) continue;
    const [a, b] = mine as [number, number];
    const sideBy = (i: number, j: number): boolean => {
      const hold = holds.get(i);
      return hold?.by === 'flanks' && hold.tiles.includes(j);
    };
    if (sideBy(a, b) || sideBy(b, a)) return { reason: 'same-row', named: [a, b].sort((x, y) => x - y) };
  }
  if (lockedGroups.size > 1) return { reason: 'cycle', named: locked };
  return { reason: 'walled', named: allIn([...lockedGroups][0]!) };
}

/** A short proved reason the board `faces` can never be cleared, or 'none'. `move`: the move that led to it. */
export function explainPosition(
  geom: Geometry,
  faces: readonly (Face | null)[],
  move: Pair | null = null,
  limit = MAX_REASON_TILES,
): Explanation {
  const largest = largestDeadlock(geom, faces);
  const groups = groupsOn(faces);
  let best: Map<number, Hold> | null = null;
  for (let i = 0; i < largest.length; i++) {
    if (!largest[i] || isBlockedBy(geom, largest, i)) continue; // seeds: the locked tiles
    const grown = growFrom(geom, faces, groups, largest, i, best ? best.size - 1 : limit);
    if (grown) best = grown;
  }
  if (!best) return NONE(move);
  const tiles = [...best.keys()].sort((a, b) => a - b);
  if (!isDeadlock(geom, faces, tiles)) throw new Error('explain: a grown set is not a deadlock'); // a bug, never input
  return { ...nameOf(faces, groups, best), move, tiles };
}

/**
 * Why the win was lost by playing `move` on the board `before` (a board that could be cleared, and after the
 * move could not): a short reason in every order of play from there, or 'none'.
 */
export function explainLoss(geom: Geometry, before: readonly (Face | null)[], move: Pair): Explanation {
  const after = before.slice();
  after[move[0]] = null;
  after[move[1]] = null;
  return explainPosition(geom, after, move);
}

/** Where a game's win was lost: the board before the losing match, the match, and where it stands in the log. */
export interface LostWin {
  readonly at: number; // board moves (hints and checks not counted) before the losing match: play on from here
  readonly before: readonly (Face | null)[]; // the last board that could be cleared
  readonly move: Pair; // the match that lost it
}

/**
 * The losing match of a game whose win was lost `undoSteps` undo steps ago (winnability's answer), or null
 * when that step is not a match. `at` counts the log's board moves before the move that put the step on the
 * undo stack (its first play, or the redo that played it again), as the server's stored log counts them.
 */
export function lostWinOf(game: Game, undoSteps: number): LostWin | null {
  const past = game.past;
  if (undoSteps < 1 || undoSteps > past.length) return null;
  const step = past[past.length - undoSteps]!;
  if (step.type !== 'match') return null;
  const before = game.faces.slice();
  for (let k = past.length - 1; k >= past.length - undoSteps; k--) {
    const s = past[k]!;
    if (s.type !== 'match') return null; // a shuffle lies between: not a board of this game's last stretch
    before[s.a] = s.faceA;
    before[s.b] = s.faceB;
  }
  // The board-move index at which each step on the undo stack was played, as the stack moves.
  const played: number[] = [];
  const undone: number[] = [];
  let n = 0;
  for (const m of game.log) {
    if (!isBoardMove(m)) continue;
    if (m.type === 'undo') undone.push(played.pop()!);
    else if (m.type === 'redo') {
      undone.pop();
      played.push(n);
    } else {
      played.push(n);
      undone.length = 0;
    }
    n++;
  }
  return { at: played[past.length - undoSteps]!, before, move: [step.a, step.b] };
}
