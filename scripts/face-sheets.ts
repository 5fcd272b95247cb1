/**
 * The face sheets: every tile face drawn once, in one SVG image per tile set and theme, which the board
 * paints as the tiles' background (board.css). A tile is then a button and one span, not a `<use>` tree of
 * some twenty SVG elements that the browser must clone, style and lay out 144 times at load: on a phone
 * that restyle was most of a second of the main thread (docs/client.md, "Faces").
 *
 * - The sources are the sets' sprites (scripts/faces/: symbols of the 60 × 80 face box, colours as theme
 *   custom properties with the light values as fallbacks). A sheet places the 42 faces of FACES in a grid
 *   of SHEET_COLUMNS, a cell every CELL_W × CELL_H units (the face box plus a gap, so a neighbour never
 *   bleeds in at fractional sizes), each drawn inside the face's padding as the tile shows it (the
 *   large-print set uses more of the face: ART_OF).
 * - Its theme's face colours (the `--f-*` properties of that theme's block in public/css/site.css) are
 *   set in the sheet's own style, so the sprite's `var(--f-…)` resolve inside the image.
 * - `faceRules` is the CSS that picks a face's cell (`--fc`, `--fr` by `data-face`) and the sheet
 *   (`--faces`) by the `data-tiles` and `data-theme` of the page (or of an element inside it: the faces
 *   preview page shows a set that is not the player's), appended to board.css by the build. A page
 *   loads only the sheet its tiles paint: one.
 */
import { FACES } from '../src/engine/types.ts';
import { DEFAULT_TILE_SET, TILE_SETS, type TileSet } from '../src/shared/tilesets.ts';

export const SHEET_COLUMNS = 7;
export const CELL_W = 64; // a cell's width in face units: the 60-unit face box and a 4-unit gap
export const CELL_H = 84; // a cell's height: the 80-unit face box and a 4-unit gap
export const THEMES = ['light', 'dark', 'contrast'] as const;
export type Theme = (typeof THEMES)[number];

/** Where the face art sits in its 60 × 80 box: a scale and the offset of its top left corner. */
export interface Art {
  readonly x: number;
  readonly y: number;
  readonly scale: number;
}
/** Inside the tile's padding of 6% (sides, top) and 5% (bottom) of its width. */
const ART: Art = { x: 3.6, y: 5.1, scale: 0.88 };
/** Each set's art box: the large-print set keeps a padding of 2%, for bigger numerals. */
export const ART_OF: Record<TileSet, Art> = {
  classic: ART,
  traditional: ART,
  large: { x: 1.2, y: 1.6, scale: 0.96 },
};

const SELECTOR: Record<Theme, string> = {
  light: ':root {',
  dark: ":root[data-theme='dark'] {",
  contrast: ":root[data-theme='contrast'] {",
};

/** The `--f-*` colours of each theme, read from the theme blocks of site.css. */
export function faceColours(css: string): Record<Theme, Record<string, string>> {
  const out = {} as Record<Theme, Record<string, string>>;
  for (const theme of THEMES) {
    const start = css.indexOf(`\n${SELECTOR[theme]}`);
    if (start < 0) throw new Error(`site.css has no ${SELECTOR[theme]} block`);
    const block = css.slice(start, css.indexOf('\n}', start));
    const colours: Record<string, string> = {};
    for (const [, name, value] of block.matchAll(/(--f-[a-z]+):\s*([^;]+);/g)) colours[name!] = value!.trim();
    if (!colours['--f-ink']) throw new Error(`site.css's ${theme} block has no --f-ink`);
    out[theme] = colours;
  }
  return out;
}

/** One theme's sheet: the sprite's definitions, its colours, and a `<use>` of every face in its cell. */
export function faceSheet(sprite: string, colours: Record<string, string>, art: Art = ART): string {
  const open = sprite.indexOf('>', sprite.indexOf('<svg')) + 1;
  const close = sprite.lastIndexOf('</svg>');
  if (open <= 0 || close < open) throw new Error('faces.svg is not one <svg> element');
  const rows = Math.ceil(FACES.length / SHEET_COLUMNS);
  const width = SHEET_COLUMNS * CELL_W;
  const height = rows * CELL_H;
  const style = Object.entries(colours)
    .map(([name, value]) => `${name}:${value}`)
    .join(';');
  const cells = FACES.map((face, i) => {
    const x = (i % SHEET_COLUMNS) * CELL_W + art.x;
    const y = Math.floor(i / SHEET_COLUMNS) * CELL_H + art.y;
    return `<use href="#${face}" width="60" height="80" transform="translate(${x} ${y}) scale(${art.scale})"/>`;
  });
  const body = flatten(sprite.slice(open, close).replace(/<!--[\s\S]*?-->/g, '') + cells.join(''), colours);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    (body.includes('var(') ? `<style>svg{${style}}</style>` : '') +
    body +
    '</svg>\n'
  );
}

/** An element of the sprite: its name, its attributes in order and its children. */
interface Node {
  readonly name: string;
  readonly attrs: [string, string][];
  readonly children: Node[];
}

/** The sprite's markup as a tree (it is ours: elements and attributes in double quotes, no text). */
function parse(markup: string): Node[] {
  const root: Node = { name: '', attrs: [], children: [] };
  const open: Node[] = [root];
  for (const [, closing, name, attrs, selfClosing] of markup.matchAll(/<(\/?)([a-zA-Z]+)([^>]*?)(\/?)>/g)) {
    if (closing) {
      if (open.pop()?.name !== name) throw new Error(`the sprite closes <${name}> out of order`);
      continue;
    }
    const node: Node = {
      name: name!,
      attrs: [...attrs!.matchAll(/([\w:-]+)="([^"]*)"/g)].map(([, key, value]) => [key!, value!]),
      children: [],
    };
    open.at(-1)!.children.push(node);
    if (!selfClosing) open.push(node);
  }
  if (open.length !== 1) throw new Error('the sprite leaves an element open');
  return root.children;
}

/**
 * The sheet's markup with every `<use>` replaced by a copy of what it names and every colour property by the
 * theme's value: plain shapes, which the browser parses and styles several times faster than the clones a
 * `<use>` makes (a quarter of a second of a slow phone's main thread at load; docs/client.md, "Faces").
 */
function flatten(markup: string, colours: Record<string, string>): string {
  const nodes = parse(markup);
  const byId = new Map<string, Node>();
  const index = (list: readonly Node[]): void => {
    for (const node of list) {
      const id = node.attrs.find(([key]) => key === 'id')?.[1];
      if (id) byId.set(id, node);
      index(node.children);
    }
  };
  index(nodes);
  const colour = (value: string): string =>
    value.replace(/var\((--f-[a-z]+),([^)]+)\)/g, (_, name: string, fallback: string) => colours[name] ?? fallback);
  const attrs = (list: readonly [string, string][]): string =>
    list.map(([key, value]) => ` ${key}="${colour(value)}"`).join('');
  const write = (node: Node, depth: number): string => {
    if (node.name === 'defs' || node.name === 'symbol') return '';
    if (node.name !== 'use') {
      const own = node.attrs.filter(([key]) => key !== 'id');
      const inner = node.children.map((child) => write(child, depth)).join('');
      return inner ? `<${node.name}${attrs(own)}>${inner}</${node.name}>` : `<${node.name}${attrs(own)}/>`;
    }
    if (depth > 8) throw new Error('the sprite nests <use> too deep');
    const get = (key: string): string | undefined => node.attrs.find(([k]) => k === key)?.[1];
    const href = get('href') ?? get('xlink:href') ?? '';
    const target = byId.get(href.slice(1));
    if (!target) throw new Error(`a <use> names ${href}, which the sprite does not define`);
    const x = Number(get('x') ?? 0);
    const y = Number(get('y') ?? 0);
    const transform = [get('transform'), x || y ? `translate(${x} ${y})` : ''].filter(Boolean).join(' ');
    const rest = node.attrs.filter(
      ([key]) => !['href', 'xlink:href', 'x', 'y', 'width', 'height', 'transform'].includes(key),
    );
    const group: [string, string][] = [...(transform ? [['transform', transform] as [string, string]] : []), ...rest];
    if (target.name !== 'symbol') return `<g${attrs(group)}>${write(target, depth + 1)}</g>`;
    // A symbol's copy keeps its viewport, which clips what reaches past the face box, as the use did.
    const box = target.attrs.find(([key]) => key === 'viewBox')?.[1] ?? '0 0 60 80';
    const [, , boxW, boxH] = box.split(/\s+/);
    const inner = target.children.map((child) => write(child, depth + 1)).join('');
    const viewport = `<svg width="${get('width') ?? boxW}" height="${get('height') ?? boxH}" viewBox="${box}">${inner}</svg>`;
    return `<g${attrs(group)}>${viewport}</g>`;
  };
  return nodes.map((node) => write(node, 0)).join('');
}

/** The rule a sheet of `theme` comes under: the page's theme, on <html> (`:root`). */
const THEME_ROOT: Record<Theme, string> = {
  light: ':root',
  dark: ":root[data-theme='dark']",
  contrast: ":root[data-theme='contrast']",
};

/**
 * The CSS that paints faces from the sheets: each face's cell, and the sheet of each set and theme (`urls`:
 * the sheets' paths, by set and theme). `data-tiles` picks the set on <html> (the player's) or on any element
 * inside (a preview of another set); `:root` alone, a page without it, gets the default set. The dark sheet
 * also serves pages that follow a dark system scheme. Rules of one specificity come in order, so a set's
 * rule wins over the default's and a theme's over the light one.
 */
export function faceRules(urls: Record<TileSet, Record<Theme, string>>): string {
  const cells = FACES.map(
    (face, i) => `.tile[data-face='${face}']{--fc:${i % SHEET_COLUMNS};--fr:${Math.floor(i / SHEET_COLUMNS)}}`,
  );
  const sheet = (set: TileSet, theme: Theme): string => `{--faces:url(${urls[set][theme]})}`;
  const tiles = (set: TileSet): string => `[data-tiles='${set}']`;
  /** The selectors of a set in a theme: the page itself, and an element inside it. */
  const under = (root: string, set: TileSet): string => `${root}${tiles(set)},${root} ${tiles(set)}`;
  const auto = ':root[data-theme-auto]';
  const fallback = DEFAULT_TILE_SET;
  return [
    `/* Generated by scripts/face-sheets.ts: the cell of each face and the sheet of each set and theme. */`,
    `:root${sheet(fallback, 'light')}`,
    `@media (prefers-color-scheme: dark){${auto}${sheet(fallback, 'dark')}}`,
    `${THEME_ROOT.dark}${sheet(fallback, 'dark')}`,
    `${THEME_ROOT.contrast}${sheet(fallback, 'contrast')}`,
    ...TILE_SETS.flatMap((set) => [
      `${tiles(set)}${sheet(set, 'light')}`,
      `@media (prefers-color-scheme: dark){${under(auto, set)}${sheet(set, 'dark')}}`,
      `${under(THEME_ROOT.dark, set)}${sheet(set, 'dark')}`,
      `${under(THEME_ROOT.contrast, set)}${sheet(set, 'contrast')}`,
    ]),
    ...cells,
  ].join('\n');
}
