/**
 * The board's zoom levels as arithmetic on tile widths (CSS px): `null` is fitted, else a tile width. render.ts
 * applies them; the steps: docs/client.md, "Zoom and pan (phones)".
 */

export const COMFORT = 44; // CSS px: the first step in (a 44 × 59 touch target)
export const STEP = 1.25;
export const MAX_TILE = 120; // the largest tile width; in CSS px
const SNAP = 1.04; // within 4% of the fitted size is fitted

export function zoomIn(zoom: number | null, fitTile: number): number | null {
  const tile = zoom ?? fitTile;
  return clampZoom(tile < COMFORT ? COMFORT : tile * STEP, fitTile);
}

/** The zoom after a step out (null: fitted). */
export function zoomOut(zoom: number | null, fitTile: number): number | null {
  return zoom === null ? null : clampZoom(zoom / STEP, fitTile);
}

/** A double tap: fitted zooms in, zoomed fits again. */
export function zoomToggle(zoom: number | null, fitTile: number): number | null {
  return zoom === null ? zoomIn(null, fitTile) : null;
}

/** A pinch's tile width as a zoom: at most MAX_TILE; fitted when near or under the fit. */
export function clampZoom(tile: number, fitTile: number): number | null {
  const top = Math.max(MAX_TILE, fitTile);
  const clamped = Math.min(top, Math.round(tile * 10) / 10);
  return clamped <= fitTile * SNAP ? null : clamped;
}

/** Can the board zoom in further? */
export const canZoomIn = (zoom: number | null, fitTile: number): boolean =>
  (zoom ?? fitTile) < Math.max(MAX_TILE, fitTile);
