/**
 * The shuffle's flight (FLIP): each face that a shuffle (or its undo or redo) moved to another slot is drawn
 * leaving its old place for its new one. A shuffle only changes which face each tile button shows, so the
 * first and last positions come from the slots' geometry, not from measuring the page: nothing here reads
 * layout, and render.ts only writes two custom properties and an attribute per moving tile.
 *
 * Faces repeat (four of each), so which old copy a new one came from is a choice: a face that stays on its
 * slot stays put, the others come from the nearest old place of the same face.
 */
import type { Face, Slot } from '../engine/index.ts';

/** Each layer up is shifted up and left by this much; in tile widths (board.css, --depth). */
const LAYER_SHIFT = 0.13;

/** A tile that shows a face which was on another slot: it starts (dx, dy) away, where the face was. */
export interface Flight {
  readonly slot: number;
  readonly dx: number; // in tile widths; negative: it comes from the left
  readonly dy: number; // in tile widths; negative: it comes from above
}

/** Where board.css draws a slot's face, in tile widths from the layout's corner. */
export const placeOf = (t: Slot): readonly [number, number] => [
  t.x / 2 - t.z * LAYER_SHIFT,
  (t.y * 2) / 3 - t.z * LAYER_SHIFT,
];

/**
 * The flights from faces `before` to faces `after` (by slot; null where no tile is). None when the tiles on
 * the board differ (a match, its undo): only a shuffle keeps every tile and moves faces.
 */
export function flightsOf(
  tiles: readonly Slot[],
  before: readonly (Face | null)[],
  after: readonly (Face | null)[],
): Flight[] {
  if (before.length !== after.length || before.length !== tiles.length) return [];
  const from = new Map<Face, number[]>(); // face → the slots it left
  for (let i = 0; i < before.length; i++) {
    const face = before[i] ?? null;
    if ((face === null) !== ((after[i] ?? null) === null)) return []; // a tile came or went
    if (face !== null && face !== after[i]) {
      const list = from.get(face);
      if (list) list.push(i);
      else from.set(face, [i]);
    }
  }
  const flights: Flight[] = [];
  for (let j = 0; j < after.length; j++) {
    const face = after[j] ?? null;
    if (face === null || face === before[j]) continue;
    const list = from.get(face);
    if (!list || list.length === 0) continue; // a face that was not on the board: shown in place
    const [x, y] = placeOf(tiles[j]!);
    let best = 0;
    let bestDistance = Infinity;
    list.forEach((i, k) => {
      const [fx, fy] = placeOf(tiles[i]!);
      const distance = (fx - x) ** 2 + (fy - y) ** 2;
      if (distance < bestDistance) [best, bestDistance] = [k, distance];
    });
    const [fx, fy] = placeOf(tiles[list[best]!]!);
    list.splice(best, 1);
    flights.push({ slot: j, dx: fx - x, dy: fy - y });
  }
  return flights;
}
