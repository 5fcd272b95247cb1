/**
 * Naive deals: the faces shuffled uniformly onto the slots, as a traditional set is, with no promise that the
 * board can be cleared. The CLI's `solve --random` and `study`, the solver's tests and the benchmarks share this
 * stream, so `solve --random --seed S` replays a study deal made with seed S.
 */
import { facePairs } from './faces.ts';
import { makeRng, shuffleInPlace } from './rng.ts';
import type { Face, Layout } from './types.ts';

/** The faces of a naive deal of `layout` for `seed`, in slot order. */
export const naiveFaces = (layout: Layout, seed: string): Face[] =>
  shuffleInPlace(makeRng(seed, 'naive'), facePairs(layout.slots.length).flat());
