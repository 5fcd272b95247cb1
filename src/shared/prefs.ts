/**
 * The play page's switches, kept by the page's script in the `mj_prefs` cookie (not signed: it only changes
 * how the page looks) and rendered by the server, so a page opens as it was left: words joined by dots.
 * `timer-off` hides the clock and `highlight-off` the free tiles' highlight for every game; a pause belongs to
 * one deal (`paused~<layout>~<seed>~<mode>`), so a reload keeps that board hidden while every other deal opens
 * playing. Anything else is ignored.
 */
import type { Mode } from '../engine/index.ts';

export const PREFS_COOKIE = 'mj_prefs';
export const PREFS_MAX_AGE_S = 400 * 86_400; // as long as a browser keeps a cookie

export interface PlayPrefs {
  readonly timer: 'on' | 'off';
  readonly highlight: 'on' | 'off'; // free tiles lifted and rimmed (`data-free` stays either way)
  readonly paused: boolean; // this deal was left paused
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
  };
}

/** The cookie's value for the switches as they are now on the deal's page. */
export function makePrefs(prefs: PlayPrefs, layout: string, seed: string, mode: Mode): string {
  const words = [
    prefs.timer === 'off' ? 'timer-off' : '',
    prefs.highlight === 'off' ? 'highlight-off' : '',
    prefs.paused ? pausedWord(layout, seed, mode) : '',
  ];
  return words.filter(Boolean).join('.') || 'none';
}
