/**
 * The layout of the day (services/daily.ts): which built-in layout each day's deal is dealt on. Days
 * that have come must keep their layout for ever (their deals, tables and streaks hang on it), so the schedule
 * is pinned here: a change that moves a past day fails.
 */
import { describe, expect, test } from 'vitest';
import { LAYOUTS, layoutById } from '../../../src/engine/builtins.ts';
import {
  DAILY_SCHEDULE,
  FIRST_DAILY,
  dailyDayOf,
  dailyLayoutOf,
  isRealDay,
} from '../../../src/server/services/daily.ts';
import { shiftDay } from '../../../src/server/stores/days.ts';

describe('the layout of the day', () => {
  test('every day before 2027 is the turtle, as it was before the layout of the day', () => {
    for (let day = FIRST_DAILY; day <= '2026-12-31'; day = shiftDay(day, 1)) expect(dailyLayoutOf(day)).toBe('turtle');
  });

  test.each([
    ['2027-01-01', 'turtle'],
    ['2027-01-02', 'cat'],
    ['2027-01-03', 'zen'],
    ['2027-01-06', 'kite'],
    ['2027-02-11', 'spiral'], // the 42nd day
    ['2027-02-12', 'turtle'], // and round again, with the portrait family
    ['2027-02-15', 'tulip'], // the first portrait day
    ['2027-04-06', 'spire'], // the 54th day
    ['2027-04-07', 'turtle'], // and round again
    ['2028-02-25', 'turtle'], // seven rounds of 54 on
  ])('%s is %s', (day, layout) => {
    expect(dailyLayoutOf(day)).toBe(layout);
  });

  test('the periods start on real days, in order, and only name built-in layouts', () => {
    expect(DAILY_SCHEDULE.map((p) => [p.from, p.layouts.length])).toEqual([
      [FIRST_DAILY, 1],
      ['2027-01-01', 42],
      ['2027-02-12', 54],
    ]);
    for (const period of DAILY_SCHEDULE) {
      expect(isRealDay(period.from)).toBe(true);
      for (const id of period.layouts) expect(layoutById(id), id).toBeDefined();
    }
  });

  test('the last period takes every built-in layout once (a new layout needs a new period)', () => {
    const last = DAILY_SCHEDULE[DAILY_SCHEDULE.length - 1]!;
    expect([...last.layouts].sort()).toEqual(LAYOUTS.map((l) => l.id).sort());
  });

  test('a deal is the daily deal of its day only on that day’s layout, relaxed, with a real date', () => {
    expect(dailyDayOf('turtle', 'daily-2026-12-02', 'relaxed')).toBe('2026-12-02');
    expect(dailyDayOf('cat', 'daily-2027-01-02', 'relaxed')).toBe('2027-01-02');
    expect(dailyDayOf('turtle', 'daily-2027-01-02', 'relaxed')).toBeNull();
    expect(dailyDayOf('cat', 'daily-2027-01-02', 'classic')).toBeNull();
    expect(dailyDayOf('turtle', 'daily-2026-02-30', 'relaxed')).toBeNull();
    expect(dailyDayOf('turtle', 'k3v9x2', 'relaxed')).toBeNull();
  });
});
