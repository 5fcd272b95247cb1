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

/** SVG markup of a layout's picture, with an accessible name. */
export function layoutPicture(geom: Geometry, label: string): string {
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
  return (
    `<svg class="layout-picture" viewBox="0 0 ${num(w)} ${num(h)}" role="img" aria-label="${escapeAttr(label)}">` +
    `<g stroke="#5b4630" stroke-width="0.5" stroke-linejoin="round">${paths}</g></svg>`
  );
}
