/**
 * The daily deal: the same for everyone, by UTC date (/daily and /daily/:date; docs/server.md, "Daily deal").
 *
 * The layout of the day: each day's deal is dealt on one built-in layout, relaxed, seed
 * `daily-YYYY-MM-DD`. Which layout is fixed by DAILY_SCHEDULE, a list of periods that is only ever
 * added to: a day belongs to the last period that began on or before it, and takes the layouts of its
 * period in turn from the period's first day. Until 2026-12-31 every day was the turtle (the days
 * played before the layout of the day came keep their deal and their table); from 2027-01-01 the
 * days go through all 42 built-in layouts, family by family, one a day. A new layout joins the
 * rotation only with a new period that begins after the day it is deployed, so no day that has come
 * ever changes its deal (test/server/routes/daily.test.ts checks the rule). From 2027-02-12 the twelve
 * portrait layouts join the 42: a round of 54 days.
 */
import type { Mode } from '../../engine/index.ts';

export const DAILY_MODE: Mode = 'relaxed';
export const DAILY_BOARD_SIZE = 10; // best times shown
/** The first day with a daily deal: /daily/:date serves every day from it to today. */
export const FIRST_DAILY = '2026-11-30'; // the day the game opened

/** A period of the daily schedule: from its first day on, the days take `layouts` in turn. */
export interface DailyPeriod {
  readonly from: string; // YYYY-MM-DD, UTC
  readonly layouts: readonly string[]; // built-in layout ids, in the order the days take them
}

/** The 42 layouts of 2027-01-01's period: one of each family in turn (classic, animals, letters and symbols, towers,
 * flat, small), so that days next to each other differ in shape and size. */
const FIRST_ROUND = [
  'turtle', 'cat', 'zen', 'pagoda', 'river', 'kite',
  'lotus', 'fish', 'heart', 'towers', 'honeycomb', 'mushroom',
  'ring', 'elephant', 'compass', 'lighthouse', 'islands', 'teacup',
  'mountain', 'owl', 'infinity', 'fortress', 'mosaic', 'garden',
  'diamond', 'rabbit', 'win', 'skyline', 'terraces', 'pinwheel',
  'imperial', 'snail', 'anchor', 'stairs', 'plains', 'pyramid',
  'butterfly', 'crescent', 'colonnade', 'cross', 'bridge', 'spiral',
] as const; // prettier-ignore

/** The portrait family (engine/portrait.ts), in the order its layouts join the rotation: small and tall in turn. */
const PORTRAIT_ROUND = [
  'tulip', 'keep', 'lantern', 'beehive', 'vase', 'gate',
  'keyhole', 'fountain', 'hourglass', 'bottle', 'pine', 'spire',
] as const; // prettier-ignore

/** `round` with one of `extra` after every three or four of its layouts in turn (3, 4, 3, 4, …). */
function interleave(round: readonly string[], extra: readonly string[]): string[] {
  const out: string[] = [];
  let next = 0;
  extra.forEach((id, i) => {
    const take = i % 2 === 0 ? 3 : 4;
    out.push(...round.slice(next, next + take), id);
    next += take;
  });
  out.push(...round.slice(next));
  return out;
}

/** Every period, oldest first. Append only, with a `from` in the future: past days must keep their layout. */
export const DAILY_SCHEDULE: readonly DailyPeriod[] = [
  { from: FIRST_DAILY, layouts: ['turtle'] },
  { from: '2027-01-01', layouts: FIRST_ROUND }, // the layout of the day begins
  // After the first round of 42 days the portrait family joins: 54 days, a portrait layout every fourth or fifth day.
  { from: '2027-02-12', layouts: interleave(FIRST_ROUND, PORTRAIT_ROUND) },
];

const DAY_MS = 86_400_000;

/** The UTC date of a moment, YYYY-MM-DD. */
export const utcDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The period of the schedule a day (YYYY-MM-DD, UTC) belongs to: the last one begun on or before it. */
export function periodOf(day: string): DailyPeriod {
  let period = DAILY_SCHEDULE[0]!;
  for (const p of DAILY_SCHEDULE) if (p.from <= day) period = p;
  return period;
}

/** The built-in layout of a day's deal (YYYY-MM-DD, UTC). */
export function dailyLayoutOf(day: string): string {
  const period = periodOf(day);
  const index = Math.max(
    0,
    Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${period.from}T00:00:00Z`)) / DAY_MS),
  );
  return period.layouts[index % period.layouts.length]!;
}

/** The daily seed of a UTC day (YYYY-MM-DD): `daily-YYYY-MM-DD` (fits SEED_PATTERN). */
export const seedOfDay = (day: string): string => `daily-${day}`;

/** The daily seed of a moment. */
export const dailySeed = (ms: number): string => seedOfDay(utcDate(ms));

/** Is this a daily seed? */
export const isDailySeed = (seed: string): boolean => /^daily-\d{4}-\d{2}-\d{2}$/.test(seed);

/** The day of a daily deal (that day's layout, the daily mode and a daily seed of a real date), else null. */
export function dailyDayOf(layout: string, seed: string, mode: string): string | null {
  if (mode !== DAILY_MODE || !isDailySeed(seed)) return null;
  const day = seed.slice(6);
  return isRealDay(day) && dailyLayoutOf(day) === layout ? day : null;
}

/** Is `day` a real calendar date written YYYY-MM-DD? (2026-02-30 is not.) */
export function isRealDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(ms) && utcDate(ms) === day;
}
