/**
 * Zoom levels for the board (every tile a comfortable touch target on a phone: docs/contracts.md, "Phones"), as plain
 * arithmetic on tile widths in CSS pixels. The board is either fitted to its room (`null`, the default
 * everywhere) or zoomed to a tile width; render.ts applies it and keeps the point under the fingers
 * (or the middle of the view) where it was, events.ts turns pinches and double taps into calls.
 *
 * A portrait phone fits the turtle at about 24 px tiles. The first step in goes straight to COMFORT
 * (a touch target of 44 × 59 px), further steps multiply by STEP up to MAX_TILE; stepping out comes
 * back to the fitted board, which is also one tap away (zoom-fit) and what a double tap on a zoomed
 * board returns to.
 */

export const COMFORT = 44; // tile width a zoom-in from a smaller fitted board goes to; in CSS px (≥ 40)
export const STEP = 1.25; // factor of each further step in or out
export const MAX_TILE = 120; // the largest tile width; in CSS px
const SNAP = 1.04; // a zoom within 4% of the fitted size is the fitted board

/** The zoom after a step in from `zoom` on a board fitted at `fitTile` px. */
export function zoomIn(zoom: number | null, fitTile: number): number | null {
  const tile = zoom ?? fitTile;
  return clampZoom(tile < COMFORT ? COMFORT : tile * STEP, fitTile);
}

/** The zoom after a step out from `zoom` (null: back to the fitted board). */
export function zoomOut(zoom: number | null, fitTile: number): number | null {
  return zoom === null ? null : clampZoom(zoom / STEP, fitTile);
}

/** A double tap: a fitted board zooms to a comfortable size (or a step in), a zoomed one fits again. */
export function zoomToggle(zoom: number | null, fitTile: number): number | null {
  return zoom === null ? zoomIn(null, fitTile) : null;
}

/** A tile width (from a pinch) as a zoom: at most MAX_TILE, and the fitted board when near or under it. */
export function clampZoom(tile: number, fitTile: number): number | null {
  const top = Math.max(MAX_TILE, fitTile);
  const clamped = Math.min(top, Math.round(tile * 10) / 10);
  return clamped <= fitTile * SNAP ? null : clamped;
}

/** Can the board zoom in further? */
export const canZoomIn = (zoom: number | null, fitTile: number): boolean =>
  (zoom ?? fitTile) < Math.max(MAX_TILE, fitTile);
