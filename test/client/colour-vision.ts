/**
 * How far apart two rendered tile faces are, for a person with normal colour vision and for the three
 * dichromacies (docs/client.md, "Told apart, also under colour-vision deficiencies"):
 *
 * 1. A face is rendered as the board draws it (tile face colour and the set's sheet) at 24 CSS px wide,
 *    device pixel ratio 1: 24 × 32 pixels.
 * 2. Each pixel's sRGB is made linear and, for a deficiency, multiplied by the simulation matrix of Machado,
 *    Oliveira and Fernandes (2009, "A physiologically-based model for simulation of color vision
 *    deficiency", severity 1: protanopia, deuteranopia, tritanopia), clamped to the gamut.
 * 3. The distance of two faces is the mean, over their pixels, of the CIEDE2000 colour difference (ΔE00)
 *    between the pixels at the same place: 0 for identical images; about 1 is a just noticeable difference
 *    for one pixel, so a mean of 5 is, for example, a fifth of the face differing by 25.
 * 4. A set's figure is the smallest distance between two faces that do not match (two different faces,
 *    but not two flowers nor two seasons, which match each other).
 *
 * Everything here is written for this project from the published formulas; no image or colour library.
 */
import { FACES, type Face } from '../../src/engine/types.ts';
import { matchGroup } from '../../src/engine/rules.ts';
import type { Pixels } from './png.ts';

export const VISIONS = ['normal', 'protanopia', 'deuteranopia', 'tritanopia'] as const;
export type Vision = (typeof VISIONS)[number];

/** Machado et al. 2009, severity 1.0: linear RGB in, linear RGB out, row by row. */
export const MACHADO: Record<Exclude<Vision, 'normal'>, readonly number[]> = {
  protanopia: [0.152286, 1.052583, -0.204868, 0.114503, 0.786281, 0.099216, -0.003882, -0.048116, 1.051998],
  deuteranopia: [0.367322, 0.860646, -0.227968, 0.280085, 0.672501, 0.047413, -0.01182, 0.04294, 0.968881],
  tritanopia: [1.255528, -0.076749, -0.178779, -0.078411, 0.930809, 0.147602, 0.004733, 0.691367, 0.3039],
};

/** The sRGB transfer function undone, for each 8-bit value. */
const LINEAR = Float64Array.from({ length: 256 }, (_, i) => {
  const v = i / 255;
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
});

/** Linear sRGB (D65) to CIELAB (D65 white). */
export function linearToLab(r: number, g: number, b: number): [number, number, number] {
  const x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047;
  const y = 0.2126729 * r + 0.7151522 * g + 0.072175 * b;
  const z = (0.0193339 * r + 0.119192 * g + 0.9503041 * b) / 1.08883;
  const f = (t: number): number => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 / 116) * t + 16 / 116);
  const [fx, fy, fz] = [f(x), f(y), f(z)];
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/** An 8-bit sRGB colour as a person with `vision` sees it, in CIELAB. */
export function labOf(r8: number, g8: number, b8: number, vision: Vision): [number, number, number] {
  let [r, g, b] = [LINEAR[r8]!, LINEAR[g8]!, LINEAR[b8]!];
  if (vision !== 'normal') {
    const m = MACHADO[vision];
    const clamp = (v: number): number => Math.min(1, Math.max(0, v));
    [r, g, b] = [
      clamp(m[0]! * r + m[1]! * g + m[2]! * b),
      clamp(m[3]! * r + m[4]! * g + m[5]! * b),
      clamp(m[6]! * r + m[7]! * g + m[8]! * b),
    ];
  }
  return linearToLab(r, g, b);
}

const DEG = Math.PI / 180;

/** The CIEDE2000 colour difference of two CIELAB colours (kL = kC = kH = 1). */
export function deltaE2000(l1: number, a1: number, b1: number, l2: number, a2: number, b2: number): number {
  const c1 = Math.hypot(a1, b1);
  const c2 = Math.hypot(a2, b2);
  const cMean7 = ((c1 + c2) / 2) ** 7;
  const g = 0.5 * (1 - Math.sqrt(cMean7 / (cMean7 + 25 ** 7)));
  const a1p = (1 + g) * a1;
  const a2p = (1 + g) * a2;
  const c1p = Math.hypot(a1p, b1);
  const c2p = Math.hypot(a2p, b2);
  const hue = (a: number, b: number): number => {
    if (a === 0 && b === 0) return 0;
    const h = Math.atan2(b, a) / DEG;
    return h < 0 ? h + 360 : h;
  };
  const h1p = hue(a1p, b1);
  const h2p = hue(a2p, b2);
  const dL = l2 - l1;
  const dC = c2p - c1p;
  let dh = 0;
  if (c1p * c2p !== 0) {
    dh = h2p - h1p;
    if (dh > 180) dh -= 360;
    else if (dh < -180) dh += 360;
  }
  const dH = 2 * Math.sqrt(c1p * c2p) * Math.sin((dh / 2) * DEG);
  const lMean = (l1 + l2) / 2;
  const cMeanP = (c1p + c2p) / 2;
  let hMean = h1p + h2p;
  if (c1p * c2p !== 0) {
    if (Math.abs(h1p - h2p) <= 180) hMean /= 2;
    else hMean = h1p + h2p < 360 ? (hMean + 360) / 2 : (hMean - 360) / 2;
  }
  const t =
    1 -
    0.17 * Math.cos((hMean - 30) * DEG) +
    0.24 * Math.cos(2 * hMean * DEG) +
    0.32 * Math.cos((3 * hMean + 6) * DEG) -
    0.2 * Math.cos((4 * hMean - 63) * DEG);
  const dTheta = 30 * Math.exp(-(((hMean - 275) / 25) ** 2));
  const cMeanP7 = cMeanP ** 7;
  const rC = 2 * Math.sqrt(cMeanP7 / (cMeanP7 + 25 ** 7));
  const sL = 1 + (0.015 * (lMean - 50) ** 2) / Math.sqrt(20 + (lMean - 50) ** 2);
  const sC = 1 + 0.045 * cMeanP;
  const sH = 1 + 0.015 * cMeanP * t;
  const rT = -Math.sin(2 * dTheta * DEG) * rC;
  const [xl, xc, xh] = [dL / sL, dC / sC, dH / sH];
  return Math.sqrt(xl * xl + xc * xc + xh * xh + rT * xc * xh);
}

/** A face's pixels as seen with each vision: CIELAB, 3 numbers a pixel. */
export type FaceLab = Record<Vision, Float64Array>;

/** The pixels of the rectangle (x, y, w, h) of a screenshot, in CIELAB for every vision. */
export function faceLab(pixels: Pixels, x: number, y: number, w: number, h: number): FaceLab {
  const out = Object.fromEntries(VISIONS.map((v) => [v, new Float64Array(w * h * 3)])) as FaceLab;
  for (let row = 0; row < h; row++) {
    for (let col = 0; col < w; col++) {
      const at = ((y + row) * pixels.width + x + col) * 4;
      const [r, g, b] = [pixels.rgba[at]!, pixels.rgba[at + 1]!, pixels.rgba[at + 2]!];
      for (const vision of VISIONS) out[vision].set(labOf(r, g, b, vision), (row * w + col) * 3);
    }
  }
  return out;
}

/**
 * The mean ΔE00 between two faces' pixels at the same places. With `limit`, the sum stops as soon as the
 * mean must be above it (and the answer is then some value above `limit`): the search for the closest pair
 * needs no more.
 */
export function distance(a: Float64Array, b: Float64Array, limit = Infinity): number {
  if (a.length !== b.length) throw new Error('faces of different sizes');
  const pixels = a.length / 3;
  const most = limit * pixels;
  let sum = 0;
  for (let i = 0; i < a.length; i += 3) {
    if (a[i] === b[i] && a[i + 1] === b[i + 1] && a[i + 2] === b[i + 2]) continue; // the same pixel: 0
    sum += deltaE2000(a[i]!, a[i + 1]!, a[i + 2]!, b[i]!, b[i + 1]!, b[i + 2]!);
    if (sum > most) break;
  }
  return sum / pixels;
}

export interface Closest {
  readonly distance: number;
  readonly a: Face;
  readonly b: Face;
}

/** For each vision: the two faces that do not match and are nearest, and their distance. */
export function closestPairs(faces: ReadonlyMap<Face, FaceLab>): Record<Vision, Closest> {
  const out = {} as Record<Vision, Closest>;
  for (const vision of VISIONS) {
    let best: Closest = { distance: Infinity, a: 'd1', b: 'd1' };
    for (let i = 0; i < FACES.length; i++) {
      for (let j = i + 1; j < FACES.length; j++) {
        const [a, b] = [FACES[i]!, FACES[j]!];
        if (matchGroup(a) === matchGroup(b)) continue;
        const d = distance(faces.get(a)![vision], faces.get(b)![vision], best.distance);
        if (d < best.distance) best = { distance: d, a, b };
      }
    }
    out[vision] = best;
  }
  return out;
}

/** The tile width the faces are measured at, in CSS px (device pixel ratio 1). */
export const MEASURE_TILE_PX = 24;
const GAP = 8;
const COLUMNS = 7;

/**
 * Renders a set's 42 faces in a theme as the board draws them, at MEASURE_TILE_PX, from the set's faces
 * preview page (`/tiles/<set>`, the shipped board.css and sheets) of the app at `url`, and returns each
 * face's pixels in CIELAB for every vision.
 */
export async function renderFaces(
  browser: import('playwright-core').Browser,
  url: string,
  set: string,
  theme: string,
): Promise<Map<Face, FaceLab>> {
  const context = await browser.newContext({
    viewport: { width: 400, height: 400 },
    deviceScaleFactor: 1,
    bypassCSP: true, // for the measuring style below
  });
  try {
    await context.addCookies([{ name: 'theme', value: theme, url }]);
    const page = await context.newPage();
    await page.goto(`${url}/tiles/${set}`);
    const t = MEASURE_TILE_PX;
    await page.addStyleTag({
      content:
        `.face-strip{position:fixed;left:0;top:0;z-index:10;display:grid;margin:0;padding:${GAP}px;` +
        `grid-template-columns:repeat(${COLUMNS},${t}px);gap:${GAP}px;background:var(--bg)}` +
        `body .face-chart .face-strip .face-tile{--tile:${t}px;box-shadow:inset 0 0 0 1px var(--tile-edge)}`,
    });
    // the sheet loaded and decoded, then two frames painted
    await page.evaluate(async () => {
      const tile = document.querySelector('.face-strip .face-tile')!;
      const sheet = /url\("?([^")]+)"?\)/.exec(getComputedStyle(tile).getPropertyValue('--faces'))?.[1];
      if (!sheet) throw new Error('no face sheet');
      const image = new Image();
      image.src = sheet;
      await image.decode();
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    });
    const tiles = await page.$$eval('.face-strip .face-tile', (els) =>
      els.map((el) => {
        const box = el.getBoundingClientRect();
        return { face: el.getAttribute('data-face'), box: [box.x, box.y, box.width, box.height] };
      }),
    );
    if (tiles.map((tile) => tile.face).join() !== FACES.join())
      throw new Error(`the preview's faces are not FACES in order: ${tiles.map((tile) => tile.face).join()}`);
    tiles.forEach(({ face, box }, i) => {
      const want = [
        GAP + (i % COLUMNS) * (t + GAP),
        GAP + Math.floor(i / COLUMNS) * ((t * 4) / 3 + GAP),
        t,
        (t * 4) / 3,
      ];
      if (box.join() !== want.join()) throw new Error(`${face} is drawn at ${box.join()}, not ${want.join()}`);
    });
    const rows = Math.ceil(FACES.length / COLUMNS);
    const width = GAP + COLUMNS * (t + GAP);
    const height = GAP + rows * ((t * 4) / 3 + GAP);
    const { decodePng } = await import('./png.ts');
    const pixels = decodePng(await page.screenshot({ clip: { x: 0, y: 0, width, height } }));
    const out = new Map<Face, FaceLab>();
    FACES.forEach((face, i) => {
      const x = GAP + (i % COLUMNS) * (t + GAP);
      const y = GAP + Math.floor(i / COLUMNS) * ((t * 4) / 3 + GAP);
      out.set(face, faceLab(pixels, x, y, t, (t * 4) / 3));
    });
    return out;
  } finally {
    await context.close();
  }
}
