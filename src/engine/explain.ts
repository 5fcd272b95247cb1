/**
 * Why a win was lost: a short proved reason (a deadlock set) a position can never be cleared, or 'none',
 * never a
 * guess (docs/coach.md, "The reasons, and their proofs").
 */
import { isBoardMove, type Game } from './game.ts';
import type { Geometry } from './layout.ts';
import { matchGroup } from './rules.ts';
import type { Face, Pair } from './types.ts';

export const REASONS = ['stacked', 'same-row', 'cycle', 'walled', 'none'] as const;
export type Reason = (typeof REASONS)[number];

export const MAX_REASON_TILES = 10;

export interface Explanation {
  readonly reason: Reason;
  readonly move: Pair | null;
  readonly tiles: readonly number[]; // the deadlock set's slots, ascending; empty for 'none'
  readonly named: readonly number[]; // of those, the tiles whose faces the reason names
}

type Hold =
  | { readonly by: 'above'; readonly tile: number }
  | { readonly by: 'flanks'; readonly tiles: Pair }
  | { readonly by: 'group' };

const NONE = (move: Pair | null): Explanation => ({ reason: 'none', move, tiles: [], named: [] });

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

const isBlockedBy = (geom: Geometry, set: Uint8Array, i: number): boolean =>
  someIn(set, geom.above[i]!) >= 0 || (someIn(set, geom.left[i]!) >= 0 && someIn(set, geom.right[i]!) >= 0);

const isLockedBy = (geom: Geometry, set: Uint8Array, mates: readonly number[], i: number): boolean =>
  mates.every((m) => m === i || (set[m] === 1 && isBlockedBy(geom, set, m)));

/** The largest deadlock set (1 per slot in it), a greatest fixed point; all zero when none. */
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

/** A deadlock set grown from one locked tile inside `largest`; null past `limit`. */
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
        // Not blocked within the largest set, so locked: its partners join.
        holds.set(i, { by: 'group' });
        for (const m of groups.get(matchGroup(faces[i]!))!) if (m !== i) add(m);
      }
    }
    if (holds.size + queue.length > limit) return null;
  }
  return holds;
}

/** The deadlock-set conditions, checked again on a set found. */
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

/** The shape's name, and the tiles whose faces the reason names. */
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

/** A short proved reason `faces` can never be cleared, or 'none'. */
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
    if (!largest[i] || isBlockedBy(geom, largest, i)) continue;
    const grown = growFrom(geom, faces, groups, largest, i, best ? best.size - 1 : limit);
    if (grown) best = grown;
  }
  if (!best) return NONE(move);
  const tiles = [...best.keys()].sort((a, b) => a - b);
  if (!isDeadlock(geom, faces, tiles)) throw new Error('explain: a grown set is not a deadlock'); // a bug, never input
  return { ...nameOf(faces, groups, best), move, tiles };
}

/** Why playing `move` on the clearable `before` lost the win. */
export function explainLoss(geom: Geometry, before: readonly (Face | null)[], move: Pair): Explanation {
  const after = before.slice();
  after[move[0]] = null;
  after[move[1]] = null;
  return explainPosition(geom, after, move);
}

export interface LostWin {
  readonly at: number; // board moves before the losing match
  readonly before: readonly (Face | null)[];
  readonly move: Pair;
}

/**
 * The losing match `undoSteps` steps ago (null: not a match); `at` counts board moves as the server's log
 * does.
 */
export function lostWinOf(game: Game, undoSteps: number): LostWin | null {
  const past = game.past;
  if (undoSteps < 1 || undoSteps > past.length) return null;
  const step = past[past.length - undoSteps]!;
  if (step.type !== 'match') return null;
  const before = game.faces.slice();
  for (let k = past.length - 1; k >= past.length - undoSteps; k--) {
    const s = past[k]!;
    if (s.type !== 'match') return null;
    before[s.a] = s.faceA;
    before[s.b] = s.faceB;
  }
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
