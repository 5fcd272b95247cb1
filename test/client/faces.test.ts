/**
 * Static checks on the tile sets' face sprites (docs/client.md, "Faces"; public/faces.svg, the classic set;
 * the traditional and large-print sets drawn by scripts/faces/): every face is a symbol with the 60×80 face
 * box, nothing depends on fonts or outside resources, and no face uses more than two colours besides the
 * ink. The sprites are read as text with regular expressions, not rendered, so these checks say nothing
 * about how the faces look: test/client/colour-vision-browser.test.ts measures that, and
 * scripts/tiles-shots.ts and the /tiles/<set> pages show it.
 */
import { describe, expect, test } from 'vitest';
import { CLASSIC_SPRITE, spriteOf } from '../../scripts/faces/index.ts';
import { LIGHT } from '../../scripts/faces/draw.ts';
import { ART_OF, faceColours, faceSheet, THEMES } from '../../scripts/face-sheets.ts';
import { NUMERALS, WAN } from '../../scripts/faces/traditional.ts';
import { TILE_SETS } from '../../src/shared/tilesets.ts';
import { readFileSync } from 'node:fs';

// The 42 face ids; the same list as FACES in src/engine/types.ts.
const rank = (prefix: string): string[] => Array.from({ length: 9 }, (_, i) => `${prefix}${i + 1}`);
const FACE_IDS = [
  ...rank('d'),
  ...rank('b'),
  ...rank('c'),
  ...['we', 'ws', 'ww', 'wn', 'dr', 'dg', 'dw'],
  ...['f1', 'f2', 'f3', 'f4', 's1', 's2', 's3', 's4'],
];
const INK = '--f-ink'; // the ink colour (a theme property), not counted against a face's two colours
const MAX_BYTES = 30 * 1024; // a sprite's source: each sheet carries one whole

/**
 * The source text of the element with id `id`, from its start tag to its matching end tag.
 * Tags are matched by counting nesting, which is enough for this hand-written sprite (no CDATA,
 * no `>` inside attribute values).
 */
function elementById(svg: string, id: string): string | undefined {
  const start = svg.search(new RegExp(`<[a-zA-Z]+[^>]*\\sid="${id}"`));
  if (start < 0) return undefined;
  const tags = /<(\/?)[a-zA-Z][^>]*?(\/?)>/g;
  tags.lastIndex = start;
  let depth = 0;
  for (let m = tags.exec(svg); m; m = tags.exec(svg)) {
    if (m[1])
      depth--; // end tag
    else if (!m[2]) depth++; // start tag (not self-closing)
    if (depth === 0) return svg.slice(start, m.index + m[0].length);
  }
  return undefined;
}

/**
 * Colour values written in an element's text and, one level deep, in the helpers it references
 * with `<use href="#…">` (helpers that reference further helpers are not followed). `currentColor`
 * is not a colour of its own: the `color` attribute that feeds it is counted where it is written.
 * Only hex colours and the few keywords below are recognised; `none` and `transparent` are not
 * colours.
 */
function coloursOf(svg: string, element: string): Set<string> {
  const texts = [element];
  for (const [, ref] of element.matchAll(/href="#([^"]+)"/g)) texts.push(elementById(svg, ref!) ?? '');
  const colours = new Set<string>();
  for (const text of texts) {
    for (const [, value] of text.matchAll(/\b(?:fill|stroke|color|stop-color)="([^"]+)"/g)) {
      const v = value!.trim().toLowerCase();
      if (v === 'none' || v === 'transparent' || v === 'currentcolor') continue;
      colours.add(v);
    }
    // themed colours (style="fill:var(--f-blue,#2a5ea8)") count by their property: one per theme colour
    for (const [, name] of text.matchAll(/\b(?:fill|stroke|color|stop-color):var\((--f-[a-z]+),/g)) colours.add(name!);
  }
  return colours;
}

describe.each(TILE_SETS)('the %s set', (set) => {
  const SVG = spriteOf(set);

  test('is an SVG document in the SVG namespace', () => {
    expect(SVG.trimStart().startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(SVG.trimEnd().endsWith('</svg>')).toBe(true);
  });

  test('has no "--" inside a comment (not well-formed XML: the browser then draws no face at all)', () => {
    for (const [, body] of SVG.matchAll(/<!--([\s\S]*?)-->/g)) expect(body).not.toContain('--');
  });

  test('has every face id exactly once, each as a symbol', () => {
    for (const id of FACE_IDS) {
      expect(SVG.match(new RegExp(`\\sid="${id}"`, 'g')), id).toHaveLength(1);
      expect(SVG, id).toMatch(new RegExp(`<symbol id="${id}"`));
    }
  });

  test('has no symbols besides the faces, and every other id once', () => {
    const ids = [...SVG.matchAll(/<symbol\s[^>]*id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids.sort()).toEqual([...FACE_IDS].sort());
    const all = [...SVG.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(all).size).toBe(all.length);
    for (const [, ref] of SVG.matchAll(/href="#([^"]+)"/g)) expect(all, ref).toContain(ref);
  });

  test('gives every symbol the 60×80 face box', () => {
    for (const [tag] of SVG.matchAll(/<symbol\s[^>]*>/g)) expect(tag).toMatch(/\sviewBox="0 0 60 80"/);
  });

  test('uses no text, fonts, scripts or outside resources', () => {
    expect(SVG).not.toMatch(/<text\b/i);
    expect(SVG).not.toMatch(/font-family/i);
    expect(SVG).not.toMatch(/<script\b/i);
    expect(SVG).not.toMatch(/<(image|foreignObject|style)\b/i);
    expect(SVG).not.toMatch(/href="http/i);
    // every reference stays inside the sprite
    for (const [, href] of SVG.matchAll(/href="([^"]*)"/g)) expect(href).toMatch(/^#/);
  });

  test.each(FACE_IDS)('%s uses at most two colours besides the ink', (id) => {
    const colours = coloursOf(SVG, elementById(SVG, id)!);
    colours.delete(INK);
    expect([...colours].length, [...colours].join(' ')).toBeLessThanOrEqual(2);
  });

  test('takes every colour from the theme (a --f-* property, the light value as fallback)', () => {
    expect(SVG).not.toMatch(/\b(?:fill|stroke|color|stop-color)="#/);
    expect(SVG).not.toMatch(/\b(?:fill|stroke|color|stop-color):#/);
    const used = new Set<string>();
    for (const [, name, fallback] of SVG.matchAll(/var\((--f-[a-z]+),(#[0-9a-f]{6})\)/g)) {
      used.add(`${name} ${fallback}`);
    }
    const names = [...used].map((pair) => pair.split(' ')[0]);
    expect(new Set(names).size, 'one fallback per property').toBe(names.length);
    for (const pair of used) {
      const [name, fallback] = pair.split(' ');
      expect(
        Object.keys(LIGHT).map((c) => `--f-${c}`),
        name,
      ).toContain(name);
      expect(LIGHT[name!.slice(4) as keyof typeof LIGHT], name).toBe(fallback);
    }
    if (set === 'classic')
      expect(names.sort()).toEqual(
        Object.keys(LIGHT)
          .map((c) => `--f-${c}`)
          .sort(),
      );
  });

  test('stays small', () => {
    expect(SVG.length).toBeLessThan(MAX_BYTES);
  });
});

describe('the colours the drawn sets fall back to', () => {
  test("are the light theme's face colours in public/css/site.css", () => {
    const css = readFileSync(new URL('../../public/css/site.css', import.meta.url), 'utf8');
    expect(faceColours(css).light).toEqual(Object.fromEntries(Object.entries(LIGHT).map(([c, v]) => [`--f-${c}`, v])));
  });
});

describe('the classic set', () => {
  test('is public/faces.svg as written by hand', () => {
    expect(spriteOf('classic')).toBe(readFileSync(CLASSIC_SPRITE, 'utf8'));
  });
});

describe("the traditional set's characters", () => {
  test('are strokes inside their design box', () => {
    for (const glyph of [...NUMERALS, WAN]) {
      const numbers = glyph.d.match(/-?\d*\.?\d+/g)!.map(Number);
      expect(Math.min(...numbers)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...numbers)).toBeLessThanOrEqual(Math.max(glyph.w, glyph.h));
    }
    expect(NUMERALS).toHaveLength(9);
  });
});

describe('the face sheets the board paints', () => {
  const colours = faceColours(readFileSync(new URL('../../public/css/site.css', import.meta.url), 'utf8'));
  test.each(TILE_SETS.flatMap((set) => THEMES.map((theme) => [set, theme] as const)))(
    '%s in %s: plain shapes in the theme’s colours, one viewport per face',
    (set, theme) => {
      const sheet = faceSheet(spriteOf(set), colours[theme], ART_OF[set]);
      expect(sheet).not.toMatch(/<use|<symbol|<defs|var\(|\sid="/);
      expect(sheet.match(/<svg width="60" height="80" viewBox="0 0 60 80">/g)?.length).toBeGreaterThanOrEqual(42);
      const written = new Set(sheet.match(/#[0-9a-fA-F]{3,8}\b/g));
      // every colour the sheet writes is one of the theme's or one the sprite writes itself
      const own = new Set(spriteOf(set).match(/#[0-9a-fA-F]{3,8}\b/g));
      const theirs = new Set(Object.values(colours[theme]));
      for (const value of written) expect(own.has(value) || theirs.has(value), value).toBe(true);
    },
  );
});
