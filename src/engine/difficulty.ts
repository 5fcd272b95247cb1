/**
 * A deal's measured difficulty: 100 × the share of its random games (playout.ts, seeded by its faces) that
 * get
 * stuck, and a band cut per mode at the turtle's quartiles (docs/engine.md, "Difficulty").
 */
import type { Geometry } from './layout.ts';
import { groupsOf } from './playout.ts';
import { countRandomClears } from './quickplay.ts';
import { rngState } from './rng.ts';
import { BANDS, type Band, type Difficulty, type Face, type Mode } from './types.ts';

export const DIFFICULTY_GAMES = 200; // random games per deal on up to 144 tiles
const MIN_GAMES = 20; // on the largest boards
const FULL_SET = 144;

/**
 * Per mode, the least share of random games (in thousandths) a deal must clear to be easy, medium and hard;
 * below the last, expert. Quartiles of 400 turtle deals per mode, rounded.
 */
export const BAND_CUTS: Readonly<Record<Mode, readonly [number, number, number]>> = {
  relaxed: [550, 375, 200],
  classic: [100, 30, 10],
};

export const difficultyGames = (size: number): number =>
  Math.max(MIN_GAMES, Math.min(DIFFICULTY_GAMES, Math.floor((DIFFICULTY_GAMES * FULL_SET) / size)));

/** The band of a deal in `mode` whose random games cleared `cleared` of `games`. */
export function bandOf(mode: Mode, cleared: number, games: number): Band {
  const cuts = BAND_CUTS[mode];
  for (let b = 0; b < cuts.length; b++) if (cleared * 1000 >= cuts[b]! * games) return BANDS[b]!;
  return 'expert';
}

export const isBand = (text: string): text is Band => (BANDS as readonly string[]).includes(text);

/**
 * The difficulty of the full board of `faces` on `geom` in `mode`; its randomness from `makeRng('difficulty',
 * faces)`.
 */
export function measureDifficulty(geom: Geometry, faces: readonly Face[], mode: Mode): Difficulty {
  const games = difficultyGames(geom.size);
  const groups = groupsOf(faces);
  const cleared = countRandomClears(geom, groups, rngState('difficulty', faces.join('')), games);
  return { band: bandOf(mode, cleared, games), score: Math.round((10_000 * (games - cleared)) / games) / 100 };
}
