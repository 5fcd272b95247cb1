/** The board's box in tile widths (docs/client.md, "Sizes and the 3D stack"); every slot counts. */

export const DEPTH = 0.13; // board.css
const LIFT = 0.08; // a lifted tile's shift up-left
const SHADOW = 0.12; // down-right

export interface Box {
  readonly ox: number; // added to every tile's left
  readonly oy: number;
  readonly bw: number;
  readonly bh: number;
}

/** The exact box of slots at half-tile (x, y, z), (minX, minY) being the extent's corner. */
export function boxOf(
  slots: readonly { readonly x: number; readonly y: number; readonly z: number }[],
  minX: number,
  minY: number,
): Box {
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const t of slots) {
    const x = (t.x - minX) / 2 - t.z * DEPTH;
    const y = ((t.y - minY) * 2) / 3 - t.z * DEPTH;
    left = Math.min(left, x);
    top = Math.min(top, y);
    right = Math.max(right, x + 1 + DEPTH);
    bottom = Math.max(bottom, y + 4 / 3 + DEPTH);
  }
  if (slots.length === 0) return { ox: LIFT, oy: LIFT, bw: 1, bh: 1 };
  const round = (v: number): number => Math.round(v * 1000) / 1000;
  return {
    ox: round(LIFT - left),
    oy: round(LIFT - top),
    bw: round(right - left + LIFT + SHADOW),
    bh: round(bottom - top + LIFT + SHADOW),
  };
}
