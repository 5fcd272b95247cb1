/**
 * What the server's pages, its API answers and the browser show alike, defined once: whether a win is
 * clean, how a time reads, and the links of a deal. No DOM, no Node, no clock: the server (services,
 * views), the CLI and the client bundle import it as it is.
 */
import type { Band, Mode } from '../engine/index.ts';

/** A game's help counters, as the engine's Game, a stored game row and a stats summary all carry them. */
export interface HelpCounts {
  readonly hints: number;
  readonly shuffles: number;
  readonly undos: number;
}

/**
 * A clean win is a win with no hint, no shuffle and no undo (docs/contracts.md, "Undo, redo, counters and the end
 * of a game"); this says whether the counters allow one.
 */
export const isCleanWin = (game: HelpCounts): boolean => game.hints === 0 && game.shuffles === 0 && game.undos === 0;

/** 75_000 → '1:15'; 3_725_000 → '1:02:05' (m:ss, or h:mm:ss from an hour on); no time (null, negative) → '–'. */
export function formatTime(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return '–';
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

const modeQuery = (mode: Mode): string => (mode === 'classic' ? '?mode=classic' : '');

/**
 * The shareable link of a deal: /play/<layout>/<seed>, with ?mode=classic for a classic deal (docs/contracts.md,
 * "Pages").
 */
export const dealUrl = (layout: string, seed: string, mode: Mode): string =>
  `/play/${encodeURIComponent(layout)}/${encodeURIComponent(seed)}${modeQuery(mode)}`;

/**
 * A new random deal of a layout in a mode: /play/<layout> redirects to a fresh seed; with a band,
 * /play/<layout>?difficulty=<band> to a fresh seed whose deal is in it.
 */
export const newDealUrl = (layout: string, mode: Mode, band?: Band): string =>
  band === undefined
    ? `/play/${encodeURIComponent(layout)}${modeQuery(mode)}`
    : `/play/${encodeURIComponent(layout)}?difficulty=${band}${mode === 'classic' ? '&mode=classic' : ''}`;

/** The deal API's address of a deal (what `GET /api/deals/…` answers; the browser's cache key of it). */
export const dealApiUrl = (layout: string, seed: string, mode: Mode): string =>
  `/api/deals/${encodeURIComponent(layout)}/${encodeURIComponent(seed)}${modeQuery(mode)}`;
