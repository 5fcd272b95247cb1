/**
 * Naive deals: the faces shuffled uniformly onto the slots, as a traditional set
 * is, with no promise that the board can be cleared. `solve --random` and the
 * study's naive deals use the same stream, so `solve --random --seed S` replays a
 * study deal made with seed S.
 */
import { facePairs, makeRng, shuffleInPlace, type Face, type Layout } from '../engine/index.ts';

/** The faces of a naive deal of `layout` for `seed`, in slot order. */
export const naiveFaces = (layout: Layout, seed: string): Face[] =>
  shuffleInPlace(makeRng(seed, 'naive'), facePairs(layout.slots.length).flat());
