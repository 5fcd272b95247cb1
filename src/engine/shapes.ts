/**
 * Shape helpers for drawing layouts in half tiles (a tile is 2 × 2). Only + − × ÷ and comparisons, never
 * Math.sin,
 * Math.sqrt or `**` (rounding may differ between engines, and the browser must build the server's layouts).
 */
import { makeLayout, sortSlots } from './layout.ts';
import type { Layout, Slot } from './types.ts';

export const tile = (x: number, y: number, z = 0): Slot => ({ x, y, z });

/** `count` tiles rightwards from (x, y). */
export const row = (x: number, y: number, count: number, z = 0): Slot[] =>
  Array.from({ length: count }, (_, i) => tile(x + 2 * i, y, z));

export const column = (x: number, y: number, count: number, z = 0): Slot[] =>
  Array.from({ length: count }, (_, i) => tile(x, y + 2 * i, z));

/** `cols` × `rows` tiles, top-left at (x, y). */
export const rect = (x: number, y: number, cols: number, rows: number, z = 0): Slot[] =>
  Array.from({ length: rows }, (_, r) => row(x, y + 2 * r, cols, z)).flat();

/** A one-tile-thick border of a `cols` × `rows` rectangle. */
export const ring = (x: number, y: number, cols: number, rows: number, z = 0): Slot[] =>
  rect(x, y, cols, rows, z).filter(
    (s) => s.x === x || s.y === y || s.x === x + 2 * (cols - 1) || s.y === y + 2 * (rows - 1),
  );

export const stack = (x: number, y: number, height: number, z0 = 0): Slot[] =>
  Array.from({ length: height }, (_, i) => tile(x, y, z0 + i));

/** Rows 2 half tiles apart, row i `widths[i]` tiles long, centred on x = cx. */
export const centredRows = (cx: number, y: number, widths: readonly number[], z = 0): Slot[] =>
  widths.flatMap((w, i) => row(cx - w, y + 2 * i, w, z));

/** `count` tiles, each (dx, dy) on from the last. */
export const stroke = (x: number, y: number, count: number, dx: number, dy: number, z = 0): Slot[] =>
  Array.from({ length: count }, (_, i) => tile(x + dx * i, y + dy * i, z));

export const shift = (slots: readonly Slot[], dx: number, dy: number, dz = 0): Slot[] =>
  slots.map((s) => tile(s.x + dx, s.y + dy, s.z + dz));

export const mirrorX = (slots: readonly Slot[], cx: number): Slot[] =>
  slots.map((s) => tile(2 * cx - s.x - 2, s.y, s.z));

export const mirrorY = (slots: readonly Slot[], cy: number): Slot[] =>
  slots.map((s) => tile(s.x, 2 * cy - s.y - 2, s.z));

export const symmetricX = (slots: readonly Slot[], cx: number): Slot[] => [...slots, ...mirrorX(slots, cx)];

/**
 * A picture on one layer: a line per row, `#` a tile, else a one-tile gap; a leading `>` sets the row half a
 * tile right.
 */
export function art(x: number, y: number, lines: readonly string[], z = 0): Slot[] {
  const out: Slot[] = [];
  lines.forEach((line, r) => {
    const half = line.startsWith('>');
    [...(half ? line.slice(1) : line)].forEach((c, i) => {
      if (c === '#') out.push(tile(x + 2 * i + (half ? 1 : 0), y + 2 * r, z));
    });
  });
  return out;
}

/** A layout from shape parts: repeats dropped, lowest x and y moved to 0, slots in canonical order. */
export function build(
  id: string,
  name: string,
  description: string,
  parts: readonly (Slot | readonly Slot[])[],
): Layout {
  const seen = new Map<string, Slot>();
  for (const s of parts.flat()) seen.set(`${s.x},${s.y},${s.z}`, s);
  const slots = [...seen.values()];
  const minX = Math.min(...slots.map((s) => s.x));
  const minY = Math.min(...slots.map((s) => s.y));
  return makeLayout(id, name, description, sortSlots(shift(slots, -minX, -minY)));
}

/** A quarter turn clockwise (y downwards) about (cx, cy). */
export const turn = (slots: readonly Slot[], cx: number, cy: number): Slot[] =>
  slots.map((s) => tile(cx + cy - s.y - 2, cy - cx + s.x, s.z));

export type Region = (px: number, py: number) => boolean;

/** The tiles of a block whose centres lie inside; `brick`: every other row half a tile right. */
export function fill(x: number, y: number, cols: number, rows: number, inside: Region, z = 0, brick = false): Slot[] {
  const out: Slot[] = [];
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      const s = tile(x + 2 * c + (brick && r % 2 === 1 ? 1 : 0), y + 2 * r, z);
      if (inside(s.x + 1, s.y + 1)) out.push(s);
    }
  return out;
}

/** Tiles are 3 wide by 4 high: ry = 0.75 × rx looks round. */
export const ellipse =
  (cx: number, cy: number, rx: number, ry: number): Region =>
  (px, py) =>
    ((px - cx) / rx) * ((px - cx) / rx) + ((py - cy) / ry) * ((py - cy) / ry) <= 1;

export const without =
  (a: Region, b: Region): Region =>
  (px, py) =>
    a(px, py) && !b(px, py);

export const either =
  (a: Region, b: Region): Region =>
  (px, py) =>
    a(px, py) || b(px, py);

export type Point = readonly [number, number];

export const polygon =
  (corners: readonly Point[]): Region =>
  (px, py) => {
    let inside = false;
    for (let i = 0, j = corners.length - 1; i < corners.length; j = i++) {
      const [xi, yi] = corners[i]!;
      const [xj, yj] = corners[j]!;
      if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
    }
    return inside;
  };

/** Points within `width` of the polyline, as the eye sees it (tiles are 3 by 4). */
export const band =
  (points: readonly Point[], width: number): Region =>
  (px, py) => {
    const k = 4 / 3;
    for (let i = 0; i + 1 < points.length; i++) {
      const [ax, ay] = points[i]!;
      const [bx, by] = points[i + 1]!;
      const dx = bx - ax;
      const dy = (by - ay) * k;
      const qx = px - ax;
      const qy = (py - ay) * k;
      const len = dx * dx + dy * dy;
      const t = len === 0 ? 0 : Math.max(0, Math.min(1, (qx * dx + qy * dy) / len));
      const ex = qx - t * dx;
      const ey = qy - t * dy;
      if (ex * ex + ey * ey <= width * width) return true;
    }
    return false;
  };

/**
 * Rows whose tiles' centres lie inside, each symmetric about x = cx (centred on it or straddling it,
 * whichever fits more).
 */
export function fillSymmetric(cx: number, y: number, rows: number, inside: Region, z = 0, reach = 40): Slot[] {
  const out: Slot[] = [];
  for (let r = 0; r < rows; r++) {
    const py = y + 2 * r + 1;
    const centred: Slot[] = [];
    const straddling: Slot[] = [];
    for (let k = -reach; k <= reach; k++) {
      if (inside(cx + 2 * k, py)) centred.push(tile(cx + 2 * k - 1, py - 1, z));
      if (inside(cx + 2 * k + 1, py)) straddling.push(tile(cx + 2 * k, py - 1, z));
    }
    out.push(...(straddling.length > centred.length ? straddling : centred));
  }
  return out;
}
