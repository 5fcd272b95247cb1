/**
 * The solver's parts, put together on a small board as `solve` puts them together, so that each
 * module's tests can drive one part and watch it alone.
 */
import { geometryOf, makeLayout, makeRng, shuffleInPlace, type Face, type Slot } from '../../../src/engine/index.ts';
import { Budget } from '../../../src/engine/solver/budget.ts';
import { Commitments } from '../../../src/engine/solver/commitments.ts';
import { Conflicts } from '../../../src/engine/solver/conflicts.ts';
import { Nogoods } from '../../../src/engine/solver/nogoods.ts';
import { Plays } from '../../../src/engine/solver/plays.ts';
import { Playouts } from '../../../src/engine/solver/playouts.ts';
import { PairingSearch } from '../../../src/engine/solver/search.ts';
import { setUp, workspaceOf } from '../../../src/engine/solver/workspace.ts';
import { randomSlots } from '../helpers.ts';

export function partsOf(slots: readonly Slot[], faces: readonly (Face | null)[], budget = 1_000_000) {
  const geom = geometryOf(makeLayout('t', 'T', 't', [...slots]));
  if (!geom.ok) throw new Error(geom.message);
  const work = workspaceOf(geom.value);
  const start = setUp(
    work,
    Uint8Array.from(faces, (f) => (f === null ? 0 : 1)),
    faces,
  );
  if (!start) throw new Error('a group with an odd number of copies');
  const counter = new Budget(budget);
  const nogoods = new Nogoods(work, start);
  const plays = new Plays(work, start, counter, nogoods);
  const playouts = new Playouts(work, start, counter, nogoods);
  const commitments = new Commitments(work, start, nogoods);
  const conflicts = new Conflicts(work, start, commitments, plays, nogoods);
  const search = new PairingSearch(work, start, counter, plays, nogoods, commitments, conflicts, makeRng('parts'));
  return { geom: geom.value, work, start, budget: counter, nogoods, plays, playouts, commitments, conflicts, search };
}

/** The copies of group g, in slot order. */
export const membersOf = (start: { memberAt: Int32Array; members: Int32Array }, g: number): number[] =>
  Array.from(start.members.subarray(start.memberAt[g]!, start.memberAt[g + 1]!));

/** A row of tiles on layer 0 (x = 0, 2, 4, …), each `gap` half tiles apart (2: touching). */
export const row = (count: number, gap = 2, y = 0, z = 0): Slot[] =>
  Array.from({ length: count }, (_, i) => ({ x: gap * i, y, z }));

/** A random board of 16 to 20 tiles with groups of four (five kinds) on a narrow grid of four layers. */
export function randomFours(seed: string): { slots: Slot[]; faces: Face[] } {
  const rng = makeRng(seed);
  const slots = randomSlots(rng, 16 + 2 * rng.int(3), 10, 4, 800);
  if (slots.length % 4 !== 0) slots.splice(-2);
  const kinds: Face[] = ['d1', 'b2', 'c3', 'wn', 'dr'];
  const faces = Array.from({ length: slots.length }, (_, i) => kinds[Math.floor(i / 4)]!);
  return { slots, faces: shuffleInPlace(rng, faces) };
}
