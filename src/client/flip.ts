/** The shuffle's flight from slot geometry (docs/client.md, "The shuffle's flight"). */
import type { Face, Slot } from '../engine/index.ts';

/** The up-left shift per layer, in tile widths (board.css, --depth). */
const LAYER_SHIFT = 0.13;

/** A tile showing a face that was on another slot, (dx, dy) away. */
export interface Flight {
  readonly slot: number;
  readonly dx: number; // tile widths; negative: from the left
  readonly dy: number; // tile widths; negative: from above
}

/** Where board.css draws a slot's face, in tile widths. */
export const placeOf = (t: Slot): readonly [number, number] => [
  t.x / 2 - t.z * LAYER_SHIFT,
  (t.y * 2) / 3 - t.z * LAYER_SHIFT,
];

/** The flights from faces `before` to `after` (by slot); none unless the same tiles are on the board. */
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
    if (!list || list.length === 0) continue; // not on the board before: shown in place
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
