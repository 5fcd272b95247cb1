/** The home page's layout picture: one <path> per layer, higher ones darker. */
import type { Geometry } from '../engine/layout.ts';

const UX = 3; // units per half tile
const UY = 4;
const GAP = 0.6;
const LIFT = 0.9; // per layer
const LAYER_FILLS = ['#e9dcc0', '#d8c39b', '#c4a676', '#ae8a57', '#957044', '#7c5935'];

const num = (n: number): string => String(Math.round(n * 10) / 10);

const escapeAttr = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A layout's picture without its name, so the server keeps one per layout. */
export interface LayoutDrawing {
  readonly viewBox: string;
  readonly body: string;
}

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

/** SVG of a drawing with its (escaped) accessible name. */
export const namedPicture = (drawing: LayoutDrawing, label: string): string =>
  `<svg class="layout-picture" viewBox="${drawing.viewBox}" role="img" aria-label="${escapeAttr(label)}">` +
  `${drawing.body}</svg>`;

export const layoutPicture = (geom: Geometry, label: string): string => namedPicture(layoutDrawing(geom), label);
