/** The daily deal: the same for everyone, by UTC date (SPEC §3.2 /daily and /daily/:date). */
import type { Mode } from '../../engine/index.ts';

export const DAILY_LAYOUT = 'turtle';
export const DAILY_MODE: Mode = 'relaxed';
export const DAILY_BOARD_SIZE = 10; // best times shown
/** The first day with a daily deal: /daily/:date serves every day from it to today. */
export const FIRST_DAILY = '2026-11-30'; // the day the game opened

/** The UTC date of a moment, YYYY-MM-DD. */
export const utcDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The daily seed of a UTC day (YYYY-MM-DD): `daily-YYYY-MM-DD` (fits SEED_PATTERN). */
export const seedOfDay = (day: string): string => `daily-${day}`;

/** The daily seed of a moment. */
export const dailySeed = (ms: number): string => seedOfDay(utcDate(ms));

/** Is this a daily seed? */
export const isDailySeed = (seed: string): boolean => /^daily-\d{4}-\d{2}-\d{2}$/.test(seed);

/** The day of a daily deal (its layout, mode and a daily seed of a real date), else null. */
export function dailyDayOf(layout: string, seed: string, mode: string): string | null {
  if (layout !== DAILY_LAYOUT || mode !== DAILY_MODE || !isDailySeed(seed)) return null;
  const day = seed.slice(6);
  return isRealDay(day) ? day : null;
}

/** Is `day` a real calendar date written YYYY-MM-DD? (2026-02-30 is not.) */
export function isRealDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(ms) && utcDate(ms) === day;
}
