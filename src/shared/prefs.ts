/**
 * The play page's switches, kept by the page's script in the `mj_prefs` cookie (not signed: it only changes
 * how the page looks) and rendered by the server, so a page opens as it was left: words joined by dots.
 * `timer-off` hides the clock and `highlight-off` the free tiles' highlight for every game; a pause belongs to
 * one deal (`paused~<layout>~<seed>~<mode>`), so a reload keeps that board hidden while every other deal opens
 * playing. `tutorial-done` says the first game's lesson was finished or skipped in this browser: the server
 * never renders it again. Anything else is ignored.
 */
import type { Mode } from '../engine/index.ts';

export const PREFS_COOKIE = 'mj_prefs';
export const PREFS_MAX_AGE_S = 400 * 86_400; // as long as a browser keeps a cookie

/** The prefs cookie's value in a `Cookie` header or `document.cookie` (`a=1; mj_prefs=…`), if it is there. */
export function readPrefsCookie(cookies: string): string | undefined {
  for (const part of cookies.split(';')) {
    const pair = part.trim();
    if (pair.startsWith(`${PREFS_COOKIE}=`)) return pair.slice(PREFS_COOKIE.length + 1);
  }
  return undefined;
}

/** The string that sets the prefs cookie to `value` (for `document.cookie`; the server never sets it). */
export const makePrefsCookie = (value: string): string =>
  `${PREFS_COOKIE}=${value}; path=/; max-age=${PREFS_MAX_AGE_S}; samesite=lax`;

export interface PlayPrefs {
  readonly timer: 'on' | 'off';
  readonly highlight: 'on' | 'off'; // free tiles lifted and rimmed (`data-free` stays either way)
  readonly paused: boolean; // this deal was left paused
  readonly tutorial?: 'done'; // the lesson (#tutorial) was finished or skipped: it never shows by itself again
}

export const TUTORIAL_DONE = 'tutorial-done';

/** Does the cookie's value say the lesson was done? */
export const isTutorialDone = (raw: string | undefined): boolean => (raw ?? '').split('.').includes(TUTORIAL_DONE);

/** The cookie's value with the lesson marked done, the other words kept. */
export function withTutorialDone(raw: string | undefined): string {
  const words = (raw ?? '').split('.').filter((w) => w && w !== 'none' && w !== TUTORIAL_DONE);
  return [...words, TUTORIAL_DONE].join('.');
}

/** The word that says a deal was left paused (layout ids and seeds hold neither `.` nor `~`). */
const pausedWord = (layout: string, seed: string, mode: Mode): string => `paused~${layout}~${seed}~${mode}`;

/** The switches the cookie holds for the deal (layout, seed, mode). */
export function parsePrefs(raw: string | undefined, layout: string, seed: string, mode: Mode): PlayPrefs {
  const words = new Set((raw ?? '').split('.'));
  return {
    timer: words.has('timer-off') ? 'off' : 'on',
    highlight: words.has('highlight-off') ? 'off' : 'on',
    paused: words.has(pausedWord(layout, seed, mode)),
    ...(words.has(TUTORIAL_DONE) ? { tutorial: 'done' as const } : {}),
  };
}

/** The cookie's value for the switches as they are now on the deal's page. */
export function makePrefs(prefs: PlayPrefs, layout: string, seed: string, mode: Mode): string {
  const words = [
    prefs.timer === 'off' ? 'timer-off' : '',
    prefs.highlight === 'off' ? 'highlight-off' : '',
    prefs.paused ? pausedWord(layout, seed, mode) : '',
    prefs.tutorial === 'done' ? TUTORIAL_DONE : '',
  ];
  return words.filter(Boolean).join('.') || 'none';
}
