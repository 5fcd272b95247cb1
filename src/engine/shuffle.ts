/**
 * Faces onto a removal order: a relaxed deal's faces, and the game's shuffle over the tiles still on the
 * board
 * (docs/contracts.md, "Shuffle").
 */
import { findRemovalOrder } from './order.ts';
import type { Geometry, LayoutError } from './layout.ts';
import { matchGroup, type Presence } from './rules.ts';
import { makeRng, shuffleInPlace, type Rng } from './rng.ts';
import { ok, type Face, type Pair, type Result } from './types.ts';

/** Pair k of the order gets faces[k]. */
export function pasteFaces(
  size: number,
  order: readonly Pair[],
  faces: readonly (readonly [Face, Face])[],
): (Face | null)[] {
  const out: (Face | null)[] = new Array<Face | null>(size).fill(null);
  order.forEach(([a, b], k) => {
    out[a] = faces[k]![0];
    out[b] = faces[k]![1];
  });
  return out;
}

/** Shuffles pairs, and which tile of each pair gets which face. */
export function shufflePairs(rng: Rng, pairs: [Face, Face][]): [Face, Face][] {
  shuffleInPlace(rng, pairs);
  for (const pair of pairs) if (rng.int(2) !== 0) [pair[0], pair[1]] = [pair[1], pair[0]];
  return pairs;
}

export interface ShuffleResult {
  readonly faces: (Face | null)[]; // null where removed
  readonly solution: Pair[];
}

/**
 * Re-deals the faces on the board over its slots so the position can be cleared; `shuffleNumber` counts from
 * 1.
 * ERR_UNCLEARABLE when no removal order of the slots left exists (only undo helps then).
 */
export function shuffleFaces(
  geom: Geometry,
  present: Presence,
  faces: readonly (Face | null)[],
  seed: string,
  shuffleNumber: number,
): Result<ShuffleResult, LayoutError> {
  const rng = makeRng(seed, 'shuffle', String(shuffleNumber));
  const found = findRemovalOrder(geom, present, rng);
  if (!found.ok) return found;
  // Pair the remaining faces within their match groups, in slot order.
  const waiting = new Map<string, Face>();
  const pairs: [Face, Face][] = [];
  for (let i = 0; i < geom.size; i++) {
    const face = faces[i];
    if (!present[i] || face == null) continue;
    const group = matchGroup(face);
    const mate = waiting.get(group);
    if (mate) {
      pairs.push([mate, face]);
      waiting.delete(group);
    } else waiting.set(group, face);
  }
  if (waiting.size > 0 || pairs.length !== found.value.order.length)
    throw new Error('shuffleFaces: the faces on the board do not pair up'); // legal play always leaves pairs
  return ok({ faces: pasteFaces(geom.size, found.value.order, shufflePairs(rng, pairs)), solution: found.value.order });
}
