/** Today's deal: the same for everyone, by UTC date (SPEC §3.2 /daily). */
import type { Mode } from '../../engine/index.ts';

export const DAILY_LAYOUT = 'turtle';
export const DAILY_MODE: Mode = 'relaxed';
export const DAILY_BOARD_SIZE = 10; // best times shown

/** The UTC date of a moment, YYYY-MM-DD. */
export const utcDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The daily seed of a moment: `daily-YYYY-MM-DD` (fits SEED_PATTERN). */
export const dailySeed = (ms: number): string => `daily-${utcDate(ms)}`;

/** Is this a daily seed? */
export const isDailySeed = (seed: string): boolean => /^daily-\d{4}-\d{2}-\d{2}$/.test(seed);
