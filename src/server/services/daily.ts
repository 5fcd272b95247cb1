/**
 * The daily deal: one built-in layout a UTC day, relaxed, seed `daily-YYYY-MM-DD`. DAILY_SCHEDULE is append
 * only, so no past day changes its deal (docs/server.md, "Daily deal").
 */
import type { Mode } from '../../engine/index.ts';

export const DAILY_MODE: Mode = 'relaxed';
export const DAILY_BOARD_SIZE = 10; // best times shown
export const FIRST_DAILY = '2026-11-30'; // the day the game opened

export interface DailyPeriod {
  readonly from: string; // YYYY-MM-DD, UTC
  readonly layouts: readonly string[]; // built-in ids
}

/** One of each family in turn, so neighbouring days differ in shape and size. */
const FIRST_ROUND = [
  'turtle', 'cat', 'zen', 'pagoda', 'river', 'kite',
  'lotus', 'fish', 'heart', 'towers', 'honeycomb', 'mushroom',
  'ring', 'elephant', 'compass', 'lighthouse', 'islands', 'teacup',
  'mountain', 'owl', 'infinity', 'fortress', 'mosaic', 'garden',
  'diamond', 'rabbit', 'win', 'skyline', 'terraces', 'pinwheel',
  'imperial', 'snail', 'anchor', 'stairs', 'plains', 'pyramid',
  'butterfly', 'crescent', 'colonnade', 'cross', 'bridge', 'spiral',
] as const; // prettier-ignore

/** Small and tall in turn. */
const PORTRAIT_ROUND = [
  'tulip', 'keep', 'lantern', 'beehive', 'vase', 'gate',
  'keyhole', 'fountain', 'hourglass', 'bottle', 'pine', 'spire',
] as const; // prettier-ignore

/** `round` with one of `extra` after every three or four of its layouts. */
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

/** Oldest first. Append only, with a `from` in the future. */
export const DAILY_SCHEDULE: readonly DailyPeriod[] = [
  { from: FIRST_DAILY, layouts: ['turtle'] },
  { from: '2027-01-01', layouts: FIRST_ROUND },
  { from: '2027-02-12', layouts: interleave(FIRST_ROUND, PORTRAIT_ROUND) },
];

const DAY_MS = 86_400_000;

export const utcDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The last period begun on or before the day. */
export function periodOf(day: string): DailyPeriod {
  let period = DAILY_SCHEDULE[0]!;
  for (const p of DAILY_SCHEDULE) if (p.from <= day) period = p;
  return period;
}

export function dailyLayoutOf(day: string): string {
  const period = periodOf(day);
  const index = Math.max(
    0,
    Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${period.from}T00:00:00Z`)) / DAY_MS),
  );
  return period.layouts[index % period.layouts.length]!;
}

export const seedOfDay = (day: string): string => `daily-${day}`;

export const dailySeed = (ms: number): string => seedOfDay(utcDate(ms));

export const isDailySeed = (seed: string): boolean => /^daily-\d{4}-\d{2}-\d{2}$/.test(seed);

/** Null unless that day's layout and mode, on a real date. */
export function dailyDayOf(layout: string, seed: string, mode: string): string | null {
  if (mode !== DAILY_MODE || !isDailySeed(seed)) return null;
  const day = seed.slice(6);
  return isRealDay(day) && dailyLayoutOf(day) === layout ? day : null;
}

/** 2026-02-30 is not. */
export function isRealDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(ms) && utcDate(ms) === day;
}
