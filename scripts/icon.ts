/**
 * The app's icon (the header's tile mark on the site's green), drawn from a few shapes, written as SVG and
 * rasterised to PNG at build time (scripts/build-client.ts) for the web app manifest: some systems install
 * only PNG icons.
 *
 * Implementation notes: every shape is a rounded rectangle or a circle, filled or stroked; a pixel's
 * colour is the shapes' coverage of 4×4 samples in it (only near an outline: a pixel whose centre is more
 * than a pixel from every edge of a paint is all in or all out), composited in order (source-over). The PNG is
 * 8-bit RGBA, one zlib stream, filter 0 on every row. No dependencies.
 */
import { deflateSync } from 'node:zlib';

type Rgb = readonly [number, number, number];
type Shape =
  | {
      readonly kind: 'rect';
      readonly x: number;
      readonly y: number;
      readonly w: number;
      readonly h: number;
      readonly r: number;
      readonly fill: string;
      readonly stroke?: string;
      readonly width?: number;
    }
  | {
      readonly kind: 'circle';
      readonly cx: number;
      readonly cy: number;
      readonly r: number;
      readonly fill?: string;
      readonly stroke?: string;
      readonly width?: number;
    };

export const ICON_SIZE = 512; // the drawing's units: a 512 × 512 square

const S = 12; // the header mark's 24 × 32 units, scaled
const X = 112; // where the mark starts, centred
const Y = 64;
/** The shapes, back to front, in ICON_SIZE units. */
const SHAPES: readonly Shape[] = [
  { kind: 'rect', x: 0, y: 0, w: 512, h: 512, r: 96, fill: '#2f6f5e' },
  { kind: 'rect', x: X + 3 * S, y: Y + 1 * S, w: 20 * S, h: 28 * S, r: 4 * S, fill: '#b08a55' },
  {
    kind: 'rect',
    x: X + 1 * S,
    y: Y + 3 * S,
    w: 20 * S,
    h: 28 * S,
    r: 4 * S,
    fill: '#fbf6e9',
    stroke: '#1d2a35',
    width: 1.2 * S,
  },
  { kind: 'circle', cx: X + 11 * S, cy: Y + 17 * S, r: 5 * S, stroke: '#2f6f5e', width: 2.5 * S },
  { kind: 'circle', cx: X + 11 * S, cy: Y + 17 * S, r: 1.6 * S, fill: '#a8512b' },
];

/**
 * The maskable icon (Android crops icons into a circle or squircle): the green fills the whole square, and the
 * mark is drawn at MASKABLE_SCALE around the centre, inside the safe zone (a circle of 40% of the size).
 */
const MASKABLE_SCALE = 0.72;
const MASKABLE: readonly Shape[] = SHAPES.map((shape, i): Shape => {
  if (i === 0) return { ...shape, r: 0 } as Shape; // the background, square
  const k = MASKABLE_SCALE;
  const c = ICON_SIZE / 2;
  return shape.kind === 'rect'
    ? {
        ...shape,
        x: c + (shape.x - c) * k,
        y: c + (shape.y - c) * k,
        w: shape.w * k,
        h: shape.h * k,
        r: shape.r * k,
        ...(shape.width === undefined ? {} : { width: shape.width * k }),
      }
    : {
        ...shape,
        cx: c + (shape.cx - c) * k,
        cy: c + (shape.cy - c) * k,
        r: shape.r * k,
        ...(shape.width === undefined ? {} : { width: shape.width * k }),
      };
});

/** The icon as SVG markup (`maskable`: the full-bleed variant). */
export function iconSvg(maskable = false): string {
  const shapes = maskable ? MASKABLE : SHAPES;
  const attrs = (s: Shape): string =>
    `fill="${('fill' in s && s.fill) || 'none'}"` + (s.stroke ? ` stroke="${s.stroke}" stroke-width="${s.width}"` : '');
  const body = shapes
    .map((s) =>
      s.kind === 'rect'
        ? `<rect x="${s.x}" y="${s.y}" width="${s.w}" height="${s.h}" rx="${s.r}" ${attrs(s)}/>`
        : `<circle cx="${s.cx}" cy="${s.cy}" r="${s.r}" ${attrs(s)}/>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${ICON_SIZE} ${ICON_SIZE}">${body}</svg>\n`;
}

const rgb = (hex: string): Rgb => [
  parseInt(hex.slice(1, 3), 16),
  parseInt(hex.slice(3, 5), 16),
  parseInt(hex.slice(5, 7), 16),
];

/** Signed distance from (px, py) to a shape's outline: negative inside. */
function distance(s: Shape, px: number, py: number): number {
  if (s.kind === 'circle') return Math.hypot(px - s.cx, py - s.cy) - s.r;
  const qx = Math.abs(px - (s.x + s.w / 2)) - (s.w / 2 - s.r);
  const qy = Math.abs(py - (s.y + s.h / 2)) - (s.h / 2 - s.r);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - s.r;
}

/** The paints of a shape: its fill (inside) and its stroke (within half the width of the outline), in order. */
function paints(s: Shape): { color: Rgb; covers: (d: number) => boolean }[] {
  const out: { color: Rgb; covers: (d: number) => boolean }[] = [];
  if ('fill' in s && s.fill) out.push({ color: rgb(s.fill), covers: (d) => d <= 0 });
  if (s.stroke) {
    const half = (s.width ?? 0) / 2;
    out.push({ color: rgb(s.stroke), covers: (d) => Math.abs(d) <= half });
  }
  return out;
}

/** The icon as RGBA pixels, `size` × `size`. */
function raster(size: number, shapes: readonly Shape[]): Uint8Array {
  const pixels = new Uint8Array(size * size * 4);
  const scale = ICON_SIZE / size;
  const N = 4; // samples per side of a pixel
  const layers = shapes.flatMap((s) => paints(s).map((p) => ({ shape: s, ...p })));
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (const layer of layers) {
        let cover: number;
        const centre = distance(layer.shape, (x + 0.5) * scale, (y + 0.5) * scale);
        if (
          layer.covers(centre - scale) === layer.covers(centre + scale) &&
          layer.covers(centre) === layer.covers(centre - scale)
        ) {
          cover = layer.covers(centre) ? 1 : 0; // the outline is more than a pixel away: all in or all out
        } else {
          let hits = 0;
          for (let sy = 0; sy < N; sy++)
            for (let sx = 0; sx < N; sx++)
              if (layer.covers(distance(layer.shape, (x + (sx + 0.5) / N) * scale, (y + (sy + 0.5) / N) * scale)))
                hits++;
          cover = hits / (N * N);
        }
        if (cover === 0) continue;
        // source-over with premultiplied colour
        r = layer.color[0] * cover + r * (1 - cover);
        g = layer.color[1] * cover + g * (1 - cover);
        b = layer.color[2] * cover + b * (1 - cover);
        a = cover + a * (1 - cover);
      }
      const i = (y * size + x) * 4;
      pixels[i] = a > 0 ? Math.round(r / a) : 0;
      pixels[i + 1] = a > 0 ? Math.round(g / a) : 0;
      pixels[i + 2] = a > 0 ? Math.round(b / a) : 0;
      pixels[i + 3] = Math.round(a * 255);
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
}

/** The icon as a PNG file of `size` × `size` pixels. */
export function iconPng(size: number, maskable = false): Buffer {
  const pixels = raster(size, maskable ? MASKABLE : SHAPES);
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    rows[y * (size * 4 + 1)] = 0; // filter: none
    rows.set(pixels.subarray(y * size * 4, (y + 1) * size * 4), y * (size * 4 + 1) + 1);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter method, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', new Uint8Array(0)),
  ]);
}
