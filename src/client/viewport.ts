/** The board's view: its fitted tile size, zoom and pan, and bringing tiles into view (docs/client.md, "Zoom and pan (phones)"). */
import { setAttr } from './dom.ts';
import type { State } from './render.ts';

/** Reads the fitted tile width as board.css computes it; drops a zoom the view now fits. */
export function fit(s: State, min = 22): void {
  const { scroller } = s.dom;
  const width = scroller.clientWidth;
  const height = scroller.clientHeight;
  s.fitTile = Math.max(min, Math.min(width / s.dom.box.bw, height / s.dom.box.bh));
  if (s.zoom !== null && s.zoom <= s.fitTile * 1.04) {
    s.zoom = null;
    scroller.scrollLeft = scroller.scrollTop = 0;
  }
  sizeBoard(s);
}

/** Sets --tile while zoomed and marks the view zoomed. */
function sizeBoard(s: State): void {
  const { board, scroller } = s.dom;
  const value = s.zoom === null ? '' : `${s.zoom}px`;
  if (board.style.getPropertyValue('--tile') !== value) {
    if (value) board.style.setProperty('--tile', value);
    else board.style.removeProperty('--tile');
  }
  setAttr(scroller, 'data-zoomed', s.zoom === null ? null : '');
}

/** The board's point under client point `at`, in tile widths. */
export function boardPoint(s: State, at: { readonly x: number; readonly y: number }): { x: number; y: number } {
  const r = s.dom.board.getBoundingClientRect();
  const tile = r.width / s.dom.box.bw;
  return { x: (at.x - r.left) / tile, y: (at.y - r.top) / tile };
}

/**
 * Zooms to a tile width (null: fitted), keeping board point `held` (default: the one under `anchor`) under
 * client point `anchor` (default: the view's middle) as far as the view scrolls.
 */
export function zoomTo(
  s: State,
  zoom: number | null,
  anchor?: { readonly x: number; readonly y: number },
  held?: { readonly x: number; readonly y: number },
): void {
  const { scroller } = s.dom;
  const view = scroller.getBoundingClientRect();
  const at = anchor ?? { x: view.left + view.width / 2, y: view.top + view.height / 2 };
  const point = held ?? boardPoint(s, at);
  if (zoom !== s.zoom) {
    if (zoom === null) scroller.scrollLeft = scroller.scrollTop = 0;
    s.zoom = zoom;
    sizeBoard(s);
  }
  if (zoom === null) return;
  const after = s.dom.board.getBoundingClientRect();
  scroller.scrollLeft += after.left + point.x * zoom - at.x;
  scroller.scrollTop += after.top + point.y * zoom - at.y;
}

/** Pans, then scrolls, as little as possible to show the tiles (docs/contracts.md, "The play page"). */
export function reveal(s: State, slots: readonly number[]): void {
  const els = slots
    .map((slot) => s.dom.tiles[slot])
    .filter((el): el is HTMLButtonElement => el !== undefined && !el.hidden);
  if (els.length === 0) return;
  if (s.zoom !== null) {
    const { scroller } = s.dom;
    const view = scroller.getBoundingClientRect();
    const margin = s.zoom * 0.25;
    const rects = els.map((el) => el.getBoundingClientRect());
    const union = (rs: DOMRect[]) => ({
      left: Math.min(...rs.map((r) => r.left)) - margin,
      right: Math.max(...rs.map((r) => r.right)) + margin,
      top: Math.min(...rs.map((r) => r.top)) - margin,
      bottom: Math.max(...rs.map((r) => r.bottom)) + margin,
    });
    let box = union(rects);
    if (box.right - box.left > scroller.clientWidth || box.bottom - box.top > scroller.clientHeight)
      box = union(rects.slice(0, 1));
    const shift = (lo: number, hi: number, from: number, to: number): number =>
      lo < from ? lo - from : hi > to ? Math.min(hi - to, lo - from) : 0;
    scroller.scrollLeft += shift(box.left, box.right, view.left, view.left + scroller.clientWidth);
    scroller.scrollTop += shift(box.top, box.bottom, view.top, view.top + scroller.clientHeight);
  }
  els[0]!.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}
