/**
 * A board as a link preview sees it: a 1200 × 630 PNG drawn as the play page draws it (board.css), rendered by
 * resvg in libuv's pool (docs/server.md, "Crawlers and link previews"). No text, so no font is read.
 */
import { readFileSync } from 'node:fs';
import { renderAsync } from '@resvg/resvg-js';
import { isFree, presenceOfFaces, type Face, type Geometry } from '../../engine/index.ts';
import { boxOf, DEPTH } from '../../shared/box.ts';
import { makeIndexedPng, quantize } from './png-palette.ts';

export const PREVIEW_WIDTH = 1200; // px
export const PREVIEW_HEIGHT = 630; // px
export const MAX_BADGE_S = 100 * 3600 - 1; // 99:59:59
const MARGIN = 28; // px
const ART = { x: 3.6 / 60, y: 5.1 / 80, scale: 0.88 }; // the face art in the tile, as the face sheets

const SPRITE_FILE = new URL('../../../public/faces.svg', import.meta.url);

let defs: string | undefined;
/** The classic sprite's symbols with light colours for its var()s (resvg has no var()). */
function spriteDefs(): string {
  if (defs === undefined) {
    const sprite = readFileSync(SPRITE_FILE, 'utf8');
    const inner = sprite.slice(sprite.indexOf('>', sprite.indexOf('<svg')) + 1, sprite.lastIndexOf('</svg>'));
    defs = inner.replace(/<!--[\s\S]*?-->/g, '').replace(/var\(--f-[a-z]+,\s*(#[0-9a-fA-F]{3,6})\)/g, '$1');
  }
  return defs;
}

const num = (n: number): string => String(Math.round(n * 100) / 100);

// A digit's segments (a top, b top right, c bottom right, d bottom, e bottom left, f top left, g middle).
const DIGITS = ['abcdef', 'bc', 'abged', 'abgcd', 'fgbc', 'afgcd', 'afgedc', 'abc', 'abcdefg', 'abcdfg'];
const SEG = { w: 36, h: 64, t: 8, gap: 14 }; // px

function digitRects(digit: number, x: number, y: number): string {
  const { w, h, t } = SEG;
  const half = h / 2;
  const long = half - 1.5 * t;
  const at: Record<string, [number, number, number, number]> = {
    a: [t, 0, w - 2 * t, t],
    b: [w - t, t, t, long],
    c: [w - t, half + t / 2, t, long],
    d: [t, h - t, w - 2 * t, t],
    e: [0, half + t / 2, t, long],
    f: [0, t, t, long],
    g: [t, half - t / 2, w - 2 * t, t],
  };
  return [...DIGITS[digit]!]
    .map((seg) => {
      const [sx, sy, sw, sh] = at[seg]!;
      return `<rect x="${num(x + sx)}" y="${num(y + sy)}" width="${sw}" height="${num(sh)}" rx="2"/>`;
    })
    .join('');
}

/** A stopwatch badge, top right, with a challenge's time to beat as m:ss. */
export function timeBadge(seconds: number): string {
  const s = Math.min(MAX_BADGE_S, Math.max(0, Math.floor(seconds)));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const text =
    h > 0
      ? `${h}:${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`
      : `${m}:${String(s % 60).padStart(2, '0')}`;
  const colon = 18; // px
  const icon = 64; // px
  const pad = 24;
  const width = pad * 2 + icon + [...text].reduce((n, c) => n + (c === ':' ? colon : SEG.w + SEG.gap), 0);
  const height = SEG.h + 2 * pad;
  const x0 = PREVIEW_WIDTH - MARGIN - width;
  const y0 = MARGIN;
  const parts = [
    `<rect x="${x0}" y="${y0}" width="${width}" height="${height}" rx="22" fill="#142c25" fill-opacity="0.88"/>`,
    `<circle cx="${x0 + pad + 26}" cy="${y0 + pad + 36}" r="24" fill="none" stroke="#f4c542" stroke-width="7"/>`,
    `<rect x="${x0 + pad + 20}" y="${y0 + pad - 2}" width="12" height="10" rx="2" fill="#f4c542"/>`,
    `<rect x="${x0 + pad + 23}" y="${y0 + pad + 18}" width="6" height="20" rx="3" fill="#f4c542"/>`,
  ];
  let x = x0 + pad + icon;
  const y = y0 + pad;
  const glyphs: string[] = [];
  for (const c of text) {
    if (c === ':') {
      glyphs.push(
        `<rect x="${x + 5}" y="${y + 16}" width="8" height="8" rx="2"/><rect x="${x + 5}" y="${y + 40}" width="8" height="8" rx="2"/>`,
      );
      x += colon;
    } else {
      glyphs.push(digitRects(Number(c), x, y));
      x += SEG.w + SEG.gap;
    }
  }
  return `${parts.join('')}<g fill="#fffdf6">${glyphs.join('')}</g>`;
}

/** The SVG of the tiles still on the board, fitted as the whole deal (as on the play page), with `badgeS`. */
export function previewSvg(geom: Geometry, faces: readonly (Face | null)[], badgeS?: number): string {
  const { minX, minY } = geom.extent;
  const box = boxOf(geom.slots, minX, minY);
  const tile = Math.min((PREVIEW_WIDTH - 2 * MARGIN) / box.bw, (PREVIEW_HEIGHT - 2 * MARGIN) / box.bh, 120);
  const th = (tile * 4) / 3;
  const d = tile * DEPTH; // thickness and layer shift, px
  const r = tile * 0.13;
  const left0 = (PREVIEW_WIDTH - box.bw * tile) / 2 + box.ox * tile;
  const top0 = (PREVIEW_HEIGHT - box.bh * tile) / 2 + box.oy * tile;
  const order = geom.slots
    .map((s, slot) => ({ s, slot, face: faces[slot] ?? null }))
    .filter((t): t is { s: (typeof geom.slots)[number]; slot: number; face: Face } => t.face !== null)
    .sort((a, b) => a.s.z - b.s.z || a.s.y - b.s.y || a.s.x - b.s.x);
  const present = presenceOfFaces(faces);
  const parts: string[] = [];
  for (const { s, face, slot } of order) {
    const x = left0 + ((s.x - minX) / 2 - s.z * DEPTH) * tile;
    const y = top0 + (((s.y - minY) * 2) / 3 - s.z * DEPTH) * tile;
    const sh = d * (1.1 + s.z * 0.4); // shadow offset
    parts.push(
      `<rect x="${num(x + sh)}" y="${num(y + sh)}" width="${num(tile)}" height="${num(th)}" rx="${num(r)}" fill="#000" fill-opacity="${num(0.2 + Math.min(s.z, 4) * 0.05)}"/>`,
      `<rect x="${num(x + d)}" y="${num(y + d)}" width="${num(tile)}" height="${num(th)}" rx="${num(r)}" fill="url(#side)"/>`,
      `<rect x="${num(x)}" y="${num(y)}" width="${num(tile)}" height="${num(th)}" rx="${num(r)}" fill="url(#face)" stroke="#d8cba9" stroke-width="${num(Math.max(1, tile * 0.025))}"/>`,
      `<use href="#${face}" x="${num(x + ART.x * tile)}" y="${num(y + ART.y * th)}" width="${num(ART.scale * tile)}" height="${num(ART.scale * th)}"/>`,
    );
    // Blocked tiles dimmed as --tile-dim does.
    const dim = isFree(geom, present, slot) ? 0 : Math.max(0.02, 0.17 - 0.05 * s.z);
    if (dim > 0)
      parts.push(
        `<rect x="${num(x)}" y="${num(y)}" width="${num(tile)}" height="${num(th)}" rx="${num(r)}" fill="#000" fill-opacity="${num(dim)}"/>`,
      );
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PREVIEW_WIDTH}" height="${PREVIEW_HEIGHT}" viewBox="0 0 ${PREVIEW_WIDTH} ${PREVIEW_HEIGHT}">` +
    `<defs>` +
    `<linearGradient id="side" x1="0" y1="0" x2="1" y2="1"><stop offset="0.45" stop-color="#d9c9a0"/><stop offset="1" stop-color="#9d8759"/></linearGradient>` +
    `<linearGradient id="face" x1="0" y1="0" x2="0.6" y2="1"><stop offset="0" stop-color="#fffdf6"/><stop offset="0.55" stop-color="#fbf6e9"/><stop offset="1" stop-color="#f1e8d2"/></linearGradient>` +
    `</defs>${spriteDefs()}` +
    `<rect width="${PREVIEW_WIDTH}" height="${PREVIEW_HEIGHT}" fill="#3f8470"/>${parts.join('')}` +
    `${badgeS === undefined ? '' : timeBadge(badgeS)}</svg>`
  );
}

/** The palette PNG of a preview's SVG, drawn off the main thread. */
export async function renderPng(svg: string): Promise<Buffer> {
  const image = await renderAsync(svg, { font: { loadSystemFonts: false }, background: '#285d4f' });
  return makeIndexedPng(image.width, image.height, quantize(image.pixels));
}
