/** Zoom levels as tile widths in CSS px, null fitted (docs/client.md, "Zoom and pan (phones)"). */

export const COMFORT = 44; // the first step in
export const STEP = 1.25;
export const MAX_TILE = 120;
const SNAP = 1.04;

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
