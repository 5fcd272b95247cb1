/**
 * Naive deals: faces shuffled uniformly, with no promise the board can be cleared. `solve --random`, `study`,
 * the
 * solver's tests and the benchmarks share this stream.
 */
import { facePairs } from './faces.ts';
import { makeRng, shuffleInPlace } from './rng.ts';
import type { Face, Layout } from './types.ts';

export const naiveFaces = (layout: Layout, seed: string): Face[] =>
  shuffleInPlace(makeRng(seed, 'naive'), facePairs(layout.slots.length).flat());
