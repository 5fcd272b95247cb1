/** What server and browser show alike: clean wins, times, links. No DOM, Node or clock. */
import type { Band, Mode } from '../engine/index.ts';

/** A game's help counters. */
export interface HelpCounts {
  readonly hints: number;
  readonly shuffles: number;
  readonly undos: number;
}

/** A clean win has no hint, shuffle or undo. */
export const isCleanWin = (game: HelpCounts): boolean => game.hints === 0 && game.shuffles === 0 && game.undos === 0;

/** 75_000 → '1:15'; 3_725_000 → '1:02:05'; no time (null, negative) → '–'. */
export function formatTime(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return '–';
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

const modeQuery = (mode: Mode): string => (mode === 'classic' ? '?mode=classic' : '');

/** A deal's link (docs/contracts.md, "Pages"). */
export const dealUrl = (layout: string, seed: string, mode: Mode): string =>
  `/play/${encodeURIComponent(layout)}/${encodeURIComponent(seed)}${modeQuery(mode)}`;

/** A new random deal's link; with a band, `?difficulty=<band>`. */
export const newDealUrl = (layout: string, mode: Mode, band?: Band): string =>
  band === undefined
    ? `/play/${encodeURIComponent(layout)}${modeQuery(mode)}`
    : `/play/${encodeURIComponent(layout)}?difficulty=${band}${mode === 'classic' ? '&mode=classic' : ''}`;

/** The browser's cache of deals shown online, for their links offline (kept across deployments). */
export const DEALS_CACHE = 'mahjong-deals';

/** A deal's API address (also the browser's cache key). */
export const dealApiUrl = (layout: string, seed: string, mode: Mode): string =>
  `/api/deals/${encodeURIComponent(layout)}/${encodeURIComponent(seed)}${modeQuery(mode)}`;
