/** The play page's switches in the `mj_prefs` cookie (src/shared/prefs.ts): the words read and written. */
import { describe, expect, test } from 'vitest';
import {
  isTutorialDone,
  makePrefs,
  makePrefsCookie,
  parsePrefs,
  readPrefsCookie,
  withTutorialDone,
  type PlayPrefs,
} from '../../src/shared/prefs.ts';

const ON: PlayPrefs = { timer: 'on', highlight: 'on', paused: false };

describe('parsePrefs', () => {
  test.each([
    [undefined, ON],
    ['', ON],
    ['none', ON],
    ['timer-off', { ...ON, timer: 'off' }],
    ['highlight-off', { ...ON, highlight: 'off' }],
    ['timer-off.highlight-off', { ...ON, timer: 'off', highlight: 'off' }],
    ['highlight-off.paused~turtle~abc~relaxed', { ...ON, highlight: 'off', paused: true }],
    ['paused~turtle~abc~classic', ON], // another mode's pause
    ['paused~turtle~other~relaxed.timer-off', { ...ON, timer: 'off' }], // another deal's pause
    ['highlight-of.highlight.off.HIGHLIGHT-OFF.highlight-on', ON], // only the exact word counts
    ['x'.repeat(5000), ON],
  ] as const)('%j', (raw, prefs) => {
    expect(parsePrefs(raw, 'turtle', 'abc', 'relaxed')).toEqual(prefs);
  });
});

describe('makePrefs', () => {
  test.each([
    [ON, 'none'],
    [{ ...ON, highlight: 'off' }, 'highlight-off'],
    [{ ...ON, timer: 'off', highlight: 'off' }, 'timer-off.highlight-off'],
    [{ timer: 'off', highlight: 'off', paused: true }, 'timer-off.highlight-off.paused~turtle~abc~relaxed'],
  ] as const)('%j → %s', (prefs, word) => {
    expect(makePrefs(prefs, 'turtle', 'abc', 'relaxed')).toBe(word);
  });

  test('every combination reads back as written', () => {
    for (const timer of ['on', 'off'] as const)
      for (const highlight of ['on', 'off'] as const)
        for (const paused of [false, true]) {
          const prefs = { timer, highlight, paused };
          expect(parsePrefs(makePrefs(prefs, 'fortress', 's-1', 'classic'), 'fortress', 's-1', 'classic')).toEqual(
            prefs,
          );
        }
  });
});

describe('the first game lesson word', () => {
  test('tutorial-done is read, added once, and kept when the switches are written again', () => {
    expect(isTutorialDone(undefined)).toBe(false);
    expect(isTutorialDone('timer-off.tutorial-done')).toBe(true);
    expect(withTutorialDone(undefined)).toBe('tutorial-done');
    expect(withTutorialDone('none')).toBe('tutorial-done');
    expect(withTutorialDone('highlight-off.tutorial-done')).toBe('highlight-off.tutorial-done');
    const prefs = parsePrefs('timer-off.tutorial-done', 'turtle', 'abc', 'relaxed');
    expect(prefs.tutorial).toBe('done');
    expect(makePrefs(prefs, 'turtle', 'abc', 'relaxed')).toBe('timer-off.tutorial-done');
  });
});

describe('the cookie itself', () => {
  test.each([
    ['', undefined],
    ['mj_prefs=timer-off', 'timer-off'],
    ['theme=dark; mj_prefs=highlight-off.tutorial-done; tiles=classic', 'highlight-off.tutorial-done'],
    ['theme=dark;mj_prefs=none', 'none'], // a Cookie header written without the space
    ['xmj_prefs=timer-off; mj_prefsx=1', undefined], // only the exact name
  ] as const)('read from %j', (cookies, value) => {
    expect(readPrefsCookie(cookies)).toBe(value);
  });

  test('written for a whole browser lifetime, every path, same site', () => {
    expect(makePrefsCookie('timer-off')).toBe('mj_prefs=timer-off; path=/; max-age=34560000; samesite=lax');
    expect(readPrefsCookie(makePrefsCookie('timer-off').split(';')[0]!)).toBe('timer-off');
  });
});
