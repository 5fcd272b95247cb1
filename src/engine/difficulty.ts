/**
 * A deal's measured difficulty: a score and a band (easy, medium, hard, expert), made with the deal.
 *
 * What it measures: the share of random legal games that fail to clear the board. DIFFICULTY_GAMES games
 * of random play (playout.ts: any matching pair of free tiles, uniformly at random), seeded by the deal's
 * own faces, so the same deal always gets the same score; the score is 100 × the share of them that got
 * stuck (0: every game cleared it, 100: none did). Random play is the study's measure of difficulty
 * (docs/study.md): on the turtle it clears about 40% of relaxed deals and 7% of classic ones. Calibrated
 * against it and against the competent bot (bot.ts), which nothing here runs: over 400 turtle deals per
 * mode, both clear strictly fewer games from band to band (docs/study.md, "Measured difficulty").
 *
 * The bands are cut per mode, at the quartiles of the turtle's deals in that mode (rounded): a relaxed
 * "hard" deal is among the harder relaxed deals, not as hard as a classic one. Other layouts use the same
 * cuts, so an open layout may have no expert deals and a tall one no easy ones.
 *
 * Implementation notes: the games are playRandom's (playout.ts), played in one allocation-free loop
 * (quickplay.ts): a turtle game costs a few microseconds, the 200 about 1.5 ms on top of the deal. On larger
 * boards, where a game costs more, fewer games are played (the same number of tile removals in all), at least
 * MIN_GAMES.
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
 * Per mode, the least share of random games a deal must clear to be easy, medium and hard, in thousandths;
 * below the last, expert. The quartiles of 400 turtle deals per mode (seeds difficulty-1 … difficulty-400),
 * rounded.
 */
export const BAND_CUTS: Readonly<Record<Mode, readonly [number, number, number]>> = {
  relaxed: [550, 375, 200],
  classic: [100, 30, 10],
};

/** Random games played for a board of `size` tiles. */
export const difficultyGames = (size: number): number =>
  Math.max(MIN_GAMES, Math.min(DIFFICULTY_GAMES, Math.floor((DIFFICULTY_GAMES * FULL_SET) / size)));

/** The band of a deal in `mode` whose random games cleared `cleared` of `games`. */
export function bandOf(mode: Mode, cleared: number, games: number): Band {
  const cuts = BAND_CUTS[mode];
  for (let b = 0; b < cuts.length; b++) if (cleared * 1000 >= cuts[b]! * games) return BANDS[b]!;
  return 'expert';
}

/** Is `text` a band's name? */
export const isBand = (text: string): text is Band => (BANDS as readonly string[]).includes(text);

/**
 * The difficulty of the full board of `faces` (in slot order) on `geom`, dealt in `mode`. Deterministic in
 * the faces: the games' randomness comes from `makeRng('difficulty', faces)`.
 */
export function measureDifficulty(geom: Geometry, faces: readonly Face[], mode: Mode): Difficulty {
  const games = difficultyGames(geom.size);
  const groups = groupsOf(faces);
  const cleared = countRandomClears(geom, groups, rngState('difficulty', faces.join('')), games);
  return { band: bandOf(mode, cleared, games), score: Math.round((10_000 * (games - cleared)) / games) / 100 };
}
