/**
 * The small layout picture of the home page: one rectangle per tile, portrait
 * like a real tile, each layer shifted up-left and darker than the one below.
 * One <path> per layer keeps the markup small (a turtle is about 2.5 KB).
 */
import type { Geometry } from '../engine/layout.ts';

const UX = 3; // picture units per half tile, across
const UY = 4; // picture units per half tile, down (tiles are 3:4 portrait)
const GAP = 0.6; // between neighbouring tiles
const LIFT = 0.9; // up-left shift per layer
const LAYER_FILLS = ['#e9dcc0', '#d8c39b', '#c4a676', '#ae8a57', '#957044', '#7c5935']; // bottom to top, then the last

const num = (n: number): string => String(Math.round(n * 10) / 10);

const escapeAttr = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A layout's picture without its accessible name: the same shapes in every language, so the server keeps
 * one per layout and names it in the page's language (`namedPicture`).
 */
export interface LayoutDrawing {
  readonly viewBox: string;
  readonly body: string; // the layers' paths
}

/** The shapes of a layout's picture: one path per layer. */
export function layoutDrawing(geom: Geometry): LayoutDrawing {
  const { minX, minY, width, height, depth } = geom.extent;
  const shift = LIFT * Math.max(0, depth - 1);
  const w = width * UX + shift;
  const h = height * UY + shift;
  const layers: string[][] = Array.from({ length: depth }, () => []);
  for (const s of geom.slots) {
    const x = (s.x - minX) * UX + shift - LIFT * s.z;
    const y = (s.y - minY) * UY + shift - LIFT * s.z;
    layers[s.z]!.push(`M${num(x)} ${num(y)}h${num(2 * UX - GAP)}v${num(2 * UY - GAP)}h-${num(2 * UX - GAP)}z`);
  }
  const paths = layers
    .map((d, z) =>
      d.length ? `<path fill="${LAYER_FILLS[Math.min(z, LAYER_FILLS.length - 1)]}" d="${d.join('')}"/>` : '',
    )
    .join('');
  return {
    viewBox: `0 0 ${num(w)} ${num(h)}`,
    body: `<g stroke="#5b4630" stroke-width="0.5" stroke-linejoin="round">${paths}</g>`,
  };
}

/** SVG markup of a drawing with its accessible name (escaped here). */
export const namedPicture = (drawing: LayoutDrawing, label: string): string =>
  `<svg class="layout-picture" viewBox="${drawing.viewBox}" role="img" aria-label="${escapeAttr(label)}">` +
  `${drawing.body}</svg>`;

/** SVG markup of a layout's picture, with an accessible name. */
export const layoutPicture = (geom: Geometry, label: string): string => namedPicture(layoutDrawing(geom), label);
