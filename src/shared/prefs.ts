/** The play page's switches in the `mj_prefs` cookie (docs/client.md, "The menu's switches"). */
import type { Mode } from '../engine/index.ts';

export const PREFS_COOKIE = 'mj_prefs';
export const PREFS_MAX_AGE_S = 400 * 86_400;

/** The prefs cookie's value in a `Cookie` header or `document.cookie`, if there. */
export function readPrefsCookie(cookies: string): string | undefined {
  for (const part of cookies.split(';')) {
    const pair = part.trim();
    if (pair.startsWith(`${PREFS_COOKIE}=`)) return pair.slice(PREFS_COOKIE.length + 1);
  }
  return undefined;
}

/** Sets the prefs cookie to `value` via `document.cookie` (the server never sets it). */
export const makePrefsCookie = (value: string): string =>
  `${PREFS_COOKIE}=${value}; path=/; max-age=${PREFS_MAX_AGE_S}; samesite=lax`;

export interface PlayPrefs {
  readonly timer: 'on' | 'off';
  readonly highlight: 'on' | 'off'; // `data-free` stays either way
  readonly paused: boolean; // this deal's
  readonly tutorial?: 'done';
}

export const TUTORIAL_DONE = 'tutorial-done';

export const isTutorialDone = (raw: string | undefined): boolean => (raw ?? '').split('.').includes(TUTORIAL_DONE);

export function withTutorialDone(raw: string | undefined): string {
  const words = (raw ?? '').split('.').filter((w) => w && w !== 'none' && w !== TUTORIAL_DONE);
  return [...words, TUTORIAL_DONE].join('.');
}

/** A deal's paused word (ids and seeds hold neither `.` nor `~`). */
const pausedWord = (layout: string, seed: string, mode: Mode): string => `paused~${layout}~${seed}~${mode}`;

export function parsePrefs(raw: string | undefined, layout: string, seed: string, mode: Mode): PlayPrefs {
  const words = new Set((raw ?? '').split('.'));
  return {
    timer: words.has('timer-off') ? 'off' : 'on',
    highlight: words.has('highlight-off') ? 'off' : 'on',
    paused: words.has(pausedWord(layout, seed, mode)),
    ...(words.has(TUTORIAL_DONE) ? { tutorial: 'done' as const } : {}),
  };
}

export function makePrefs(prefs: PlayPrefs, layout: string, seed: string, mode: Mode): string {
  const words = [
    prefs.timer === 'off' ? 'timer-off' : '',
    prefs.highlight === 'off' ? 'highlight-off' : '',
    prefs.paused ? pausedWord(layout, seed, mode) : '',
    prefs.tutorial === 'done' ? TUTORIAL_DONE : '',
  ];
  return words.filter(Boolean).join('.') || 'none';
}
