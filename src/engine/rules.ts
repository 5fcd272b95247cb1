/**
 * The rules of docs/contracts.md ("Free tiles", "Faces and matching"). A position is a `Uint8Array`, 1 per
 * slot
 * still on the board; `isFree` reads only the slot's neighbour lists.
 */
import type { Geometry } from './layout.ts';
import type { Face } from './types.ts';

export type Presence = Uint8Array;

const anyPresent = (present: Presence, list: readonly number[]): boolean => {
  for (const j of list) if (present[j]) return true;
  return false;
};

/** True when slot i is on the board, uncovered and open on a long side. */
export function isFree(geom: Geometry, present: Presence, i: number): boolean {
  if (!present[i]) return false;
  if (anyPresent(present, geom.above[i]!)) return false;
  return !anyPresent(present, geom.left[i]!) || !anyPresent(present, geom.right[i]!);
}

export function freeSlots(geom: Geometry, present: Presence): number[] {
  const free: number[] = [];
  for (let i = 0; i < geom.size; i++) if (isFree(geom, present, i)) free.push(i);
  return free;
}

/** 1 where a face is, 0 where the tile was removed. */
export const presenceOfFaces = (faces: readonly (Face | null)[]): Presence =>
  Uint8Array.from(faces, (f) => (f === null ? 0 : 1));

export const fullPresence = (size: number): Presence => new Uint8Array(size).fill(1);

/** The face itself, or 'f'/'s' for flowers and seasons. */
export const matchGroup = (face: Face): string => (face[0] === 'f' || face[0] === 's' ? face[0] : face);

export const canMatch = (a: Face, b: Face): boolean => matchGroup(a) === matchGroup(b);

export function matchingPairs(geom: Geometry, present: Presence, faces: readonly (Face | null)[]): [number, number][] {
  const byGroup = new Map<string, number[]>();
  for (let i = 0; i < geom.size; i++) {
    const face = faces[i];
    if (face == null || !isFree(geom, present, i)) continue;
    const key = matchGroup(face);
    const list = byGroup.get(key);
    if (list) list.push(i);
    else byGroup.set(key, [i]);
  }
  const pairs: [number, number][] = [];
  for (const list of byGroup.values())
    for (let a = 0; a < list.length; a++) for (let b = a + 1; b < list.length; b++) pairs.push([list[a]!, list[b]!]);
  return pairs.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
}
