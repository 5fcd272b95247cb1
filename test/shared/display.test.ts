/** The one definition of clean wins, times and deal links that server, views and client share (src/shared/display.ts). */
import { describe, expect, test } from 'vitest';
import { dealApiUrl, dealUrl, formatTime, isCleanWin, newDealUrl } from '../../src/shared/display.ts';

describe('formatTime', () => {
  test.each([
    [0, '0:00'],
    [999, '0:00'],
    [75_000, '1:15'],
    [3_599_999, '59:59'],
    [3_600_000, '1:00:00'],
    [3_725_000, '1:02:05'],
    [-1, '–'],
    [Number.NaN, '–'],
    [Number.POSITIVE_INFINITY, '–'],
  ])('formatTime(%d) is %s', (ms, text) => expect(formatTime(ms)).toBe(text));
  test('no time reads as a dash', () => expect(formatTime(null)).toBe('–'));
});

describe('isCleanWin', () => {
  test.each([
    [{ hints: 0, shuffles: 0, undos: 0 }, true],
    [{ hints: 1, shuffles: 0, undos: 0 }, false],
    [{ hints: 0, shuffles: 1, undos: 0 }, false],
    [{ hints: 0, shuffles: 0, undos: 1 }, false],
  ])('%o → %s', (counts, clean) => expect(isCleanWin(counts)).toBe(clean));
});

describe('deal links', () => {
  test('a relaxed deal has no query; a classic one says so', () => {
    expect(dealUrl('turtle', 'k3v9x2', 'relaxed')).toBe('/play/turtle/k3v9x2');
    expect(dealUrl('turtle', '-x_1', 'classic')).toBe('/play/turtle/-x_1?mode=classic');
    expect(newDealUrl('c-0123456789ab', 'relaxed')).toBe('/play/c-0123456789ab');
    expect(newDealUrl('turtle', 'classic')).toBe('/play/turtle?mode=classic');
    expect(dealApiUrl('turtle', 'k3', 'classic')).toBe('/api/deals/turtle/k3?mode=classic');
  });
  test('anything outside an id or seed is escaped, so a link never leaves its path', () =>
    expect(dealUrl('a/b', 'x?y', 'relaxed')).toBe('/play/a%2Fb/x%3Fy'));
});
