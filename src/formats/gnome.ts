/**
 * GNOME Mahjongg `.map` files, several layouts in one (docs/contracts.md, "Layout files"); text in, never paths.
 * Stricter than GNOME inside `<mahjongg>`, with bounded work: docs/cli.md, "GNOME maps".
 */
import {
  LayoutError,
  MAX_COORD,
  MAX_LAYER,
  MAX_TILES,
  makeLayout,
  sortSlots,
  validateSlots,
} from '../engine/layout.ts';
import { err, ok, type Layout, type Result, type Slot } from '../engine/types.ts';
import { MarkupError, quote, readMarkup, type StartTag } from './markup.ts';

export const MAX_MAPS = 100; // a guard against garbage input
export const MAX_FILE_TILES = 20 * MAX_TILES; // GNOME's own file has 1,440

/** One parsed `<map>` of a file. */
export interface GnomeMap {
  readonly id: string; // slug of scorename, else of name; unique in the file
  readonly name: string; // display name
  readonly layout: Layout;
}

/** A `<map>` as read, its tiles unchecked. */
export interface GnomeMapDraft {
  readonly id: string; // as GnomeMap's
  readonly name: string;
  readonly label: string; // `map "Name" (line 3)`
  readonly slots: readonly Slot[]; // in file order
}

/** An expected failure inside the parser; an `err` at the top. */
class ParseFailure {
  constructor(
    readonly code: LayoutError,
    readonly message: string,
  ) {}
}

function fail(line: number, message: string, code: LayoutError = LayoutError.Format): never {
  throw new ParseFailure(code, `line ${line}: ${message}`);
}

type Attributes = ReadonlyMap<string, string>; // lower-cased name → decoded value

const SHAPES = ['tile', 'row', 'column', 'block'] as const;
type Shape = (typeof SHAPES)[number];
const MAHJONGG_ELEMENTS = new Set<string>(['mahjongg', 'map', 'layer', ...SHAPES]);

const ATTRIBUTES: Record<string, { readonly required: readonly string[]; readonly optional: readonly string[] }> = {
  mahjongg: { required: [], optional: [] },
  map: { required: [], optional: ['name', 'scorename'] },
  layer: { required: ['z'], optional: [] },
  tile: { required: ['x', 'y'], optional: ['z'] },
  row: { required: ['y', 'left', 'right'], optional: ['z'] },
  column: { required: ['x', 'top', 'bottom'], optional: ['z'] },
  block: { required: ['left', 'right', 'top', 'bottom'], optional: ['z'] },
};

function checkAttributes(element: string, attrs: Attributes, line: number): void {
  const spec = ATTRIBUTES[element]!;
  for (const key of attrs.keys())
    if (!spec.required.includes(key) && !spec.optional.includes(key)) {
      const known = [...spec.required, ...spec.optional];
      const takes = known.length ? ` (it takes ${known.join(', ')})` : '';
      fail(line, `<${element}> has an unknown attribute ${key}${takes}`);
    }
  for (const key of spec.required) if (!attrs.has(key)) fail(line, `<${element}> is missing the attribute ${key}`);
}

/** A coordinate in whole tiles (maybe .5), as half tiles. */
function halfUnits(element: string, attr: string, value: string, line: number): number {
  const v = value.trim();
  const where = `${attr}=${quote(value)} in <${element}>`;
  if (/^-\s*(\d|\.\d)/.test(v)) fail(line, `${where} is negative; coordinates count from 0`);
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(v)) fail(line, `${where} is not a number of tiles, like 3 or 3.5`);
  const half = Number(v) * 2;
  if (half > MAX_COORD) fail(line, `${where} is out of range: at most ${MAX_COORD / 2}`, LayoutError.Range);
  if (!Number.isInteger(half)) fail(line, `${where} is not a whole or half number of tiles`);
  return half;
}

function layerNumber(element: string, value: string, line: number): number {
  const v = value.trim();
  const where = `z=${quote(value)} in <${element}>`;
  if (/^-\s*\d/.test(v)) fail(line, `${where} is negative; layers count from 0`);
  if (!/^\d+(\.0*)?$/.test(v)) fail(line, `${where} is not a whole layer number`);
  const z = Number(v);
  if (z > MAX_LAYER) fail(line, `${where} is out of range: at most ${MAX_LAYER}`, LayoutError.Range);
  return z;
}

/** Tiles from `from` to `to` (half tiles, inclusive) in one-tile steps. */
function span(element: string, low: string, high: string, from: number, to: number, line: number): number[] {
  if (to < from) fail(line, `<${element}> runs backwards: ${high} is before ${low}`);
  const out: number[] = [];
  for (let v = from; v <= to; v += 2) out.push(v);
  return out;
}

interface OpenMap {
  readonly name: string | null;
  readonly scorename: string | null;
  readonly line: number;
  readonly slots: Slot[];
}

/** Expands a shape into slots, within MAX_TILES a map and MAX_FILE_TILES a file. */
function addShape(map: OpenMap, shape: Shape, attrs: Attributes, layerZ: number, line: number, before: number): void {
  const at = (attr: string): number => halfUnits(shape, attr, attrs.get(attr)!, line);
  const z = attrs.has('z') ? layerNumber(shape, attrs.get('z')!, line) : layerZ;
  let xs: number[];
  let ys: number[];
  switch (shape) {
    case 'tile':
      xs = [at('x')];
      ys = [at('y')];
      break;
    case 'row':
      xs = span(shape, 'left', 'right', at('left'), at('right'), line);
      ys = [at('y')];
      break;
    case 'column':
      xs = [at('x')];
      ys = span(shape, 'top', 'bottom', at('top'), at('bottom'), line);
      break;
    case 'block':
      xs = span(shape, 'left', 'right', at('left'), at('right'), line);
      ys = span(shape, 'top', 'bottom', at('top'), at('bottom'), line);
      break;
  }
  // at most MAX_COORD / 2 + 1 values each: a small product
  if (map.slots.length + xs.length * ys.length > MAX_TILES)
    fail(line, `this <${shape}> takes the map past ${MAX_TILES} tiles`, LayoutError.TooLarge);
  if (before + map.slots.length + xs.length * ys.length > MAX_FILE_TILES)
    fail(line, `this <${shape}> takes the file past ${MAX_FILE_TILES} tiles in all its maps`, LayoutError.TooLarge);
  for (const x of xs) for (const y of ys) map.slots.push({ x, y, z });
}

/** A url-safe id from a name: lower case, a–z, 0–9 and dashes. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32)
    .replace(/-+$/, '');
}

/** A closed map's id (unique against `ids`), name and label. */
function closeMap(open: OpenMap, index: number, ids: Set<string>): GnomeMapDraft {
  const label = `map ${quote(open.name ?? open.scorename ?? `#${index + 1}`)} (line ${open.line})`;
  const base = slugify(open.scorename ?? '') || slugify(open.name ?? '') || `map-${index + 1}`;
  let id = base;
  for (let k = 2; ids.has(id); k++) id = `${base}-${k}`;
  ids.add(id);
  const name = open.name?.trim() || open.scorename?.trim() || id;
  return { id, name, label, slots: open.slots };
}

/** Checks a map's tiles into a layout in canonical order; throws a ParseFailure. */
function checkMap(draft: GnomeMapDraft): GnomeMap {
  const checked = validateSlots(sortSlots(draft.slots));
  if (!checked.ok) throw new ParseFailure(checked.error, `${draft.label}: ${checked.message}`);
  const { id, name } = draft;
  return { id, name, layout: makeLayout(id, name, `GNOME Mahjongg map, ${checked.value.length} tiles`, checked.value) };
}

interface Open {
  readonly element: string; // lower case; 'other' outside <mahjongg>
}

/** Reads a `.map` file: every `<map>` in file order, slots in canonical order; errors carry the line. */
export function parseGnomeMaps(text: string): Result<GnomeMap[], LayoutError> {
  const maps: GnomeMap[] = [];
  return caught(() => (readMaps(text, (draft) => maps.push(checkMap(draft))), maps));
}

/** Reads a `.map` file as parseGnomeMaps does but checks no tiles: checkGnomeMap does, for the map wanted. */
export function scanGnomeMaps(text: string): Result<GnomeMapDraft[], LayoutError> {
  const maps: GnomeMapDraft[] = [];
  return caught(() => (readMaps(text, (draft) => maps.push(draft)), maps));
}

/** A scanned map checked into a layout, with parseGnomeMaps' message. */
export const checkGnomeMap = (draft: GnomeMapDraft): Result<GnomeMap, LayoutError> => caught(() => checkMap(draft));

function caught<T>(read: () => T): Result<T, LayoutError> {
  try {
    return ok(read());
  } catch (e) {
    if (e instanceof ParseFailure) return err(e.code, e.message);
    throw e;
  }
}

const MAP_TAG = /<map[\s/>]/gi; // a <map start tag, counted in the raw text

/** Throws for more than MAX_MAPS `<map` tags, before any reading. */
function countMaps(text: string): void {
  MAP_TAG.lastIndex = 0;
  for (let count = 1; MAP_TAG.exec(text); count++)
    if (count > MAX_MAPS) {
      const at = MAP_TAG.lastIndex;
      let line = 1;
      for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) line++;
      fail(line, `more than ${MAX_MAPS} maps in one file`, LayoutError.TooLarge);
    }
}

/** Reads the maps in order, handing each to `onMap` as it closes; throws a ParseFailure. */
function readMaps(text: string, onMap: (draft: GnomeMapDraft) => void): void {
  countMaps(text);
  let closed = 0; // maps read so far
  let tiles = 0; // their tiles
  const ids = new Set<string>();
  const stack: Open[] = [];
  const topLevel = new Set<string>();
  let sawMahjongg = false;
  let map: OpenMap | null = null;
  let layerZ = 0;
  const parentOf = (): string => stack.at(-1)?.element ?? 'other';
  const start = ({ name: written, attrs, line }: StartTag): void => {
    const parent = parentOf();
    const element = written.toLowerCase();
    if (parent === 'other') {
      if (element !== 'mahjongg') {
        if (MAHJONGG_ELEMENTS.has(element)) fail(line, `<${written}> must be inside <mahjongg>`);
        if (stack.length === 0) topLevel.add(written);
      } else sawMahjongg = true;
    } else {
      const allowed: Record<string, readonly string[]> = {
        mahjongg: ['map'],
        map: ['layer', ...SHAPES],
        layer: SHAPES,
      };
      const inside = allowed[parent] ?? [];
      if (!inside.includes(element)) {
        const expected = inside.length
          ? `expected ${inside.map((e) => `<${e}>`).join(', ')}`
          : `<${parent}> holds no elements`;
        fail(line, `<${written}> is not allowed inside <${parent}>; ${expected}`);
      }
    }
    const known = MAHJONGG_ELEMENTS.has(element); // else outside <mahjongg>: skipped
    if (known) checkAttributes(element, attrs, line);
    if (element === 'map' && known) {
      if (closed >= MAX_MAPS) fail(line, `more than ${MAX_MAPS} maps in one file`, LayoutError.TooLarge);
      const name = attrs.get('name') ?? null;
      const scorename = attrs.get('scorename') ?? null;
      if (!name?.trim() && !scorename?.trim()) fail(line, '<map> needs a name or a scorename');
      map = { name, scorename, line, slots: [] };
    } else if (element === 'layer' && known) layerZ = layerNumber('layer', attrs.get('z')!, line);
    else if (known && (SHAPES as readonly string[]).includes(element))
      addShape(map!, element as Shape, attrs, layerZ, line, tiles);
    stack.push({ element: known ? element : 'other' });
  };
  const end = (): void => {
    const open = stack.pop()!; // readMarkup matched it
    if (open.element === 'map') {
      tiles += map!.slots.length;
      onMap(closeMap(map!, closed++, ids));
      map = null;
    } else if (open.element === 'layer') layerZ = 0;
  };
  const onText = (words: string, line: number): void => {
    const parent = parentOf();
    if (parent !== 'other') fail(line, `unexpected text ${quote(words.trim())} inside <${parent}>`);
  };
  try {
    readMarkup(text, { start, end, text: onText });
  } catch (e) {
    if (e instanceof MarkupError) fail(e.line, e.message);
    throw e;
  }
  if (closed === 0) {
    if (sawMahjongg) throw new ParseFailure(LayoutError.Format, 'the file has a <mahjongg> element but no <map> in it');
    const names = [...topLevel].slice(0, 5).map((n) => `<${n}>`);
    const seen = names.length ? ` (top-level elements: ${names.join(', ')})` : '';
    throw new ParseFailure(LayoutError.Format, `not a GNOME Mahjongg map file: no <mahjongg> element${seen}`);
  }
}

const escapeAttribute = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

/** Writes layouts as one `.map` file (ids as scorenames, tiles by layer); parseGnomeMaps reads them back. */
export function makeGnomeMap(layouts: readonly Layout[]): string {
  const out = ['<!-- GNOME Mahjongg layouts; coordinates are the top-left corner of a tile, in tiles -->'];
  out.push('<mahjongg>');
  for (const layout of layouts) {
    out.push(`  <map name="${escapeAttribute(layout.name)}" scorename="${escapeAttribute(layout.id)}">`);
    const layers = [...new Set(layout.slots.map((s) => s.z))].sort((a, b) => a - b);
    for (const z of layers) {
      out.push(`    <layer z="${z}">`);
      for (const s of sortSlots(layout.slots.filter((t) => t.z === z)))
        out.push(`      <tile x="${s.x / 2}" y="${s.y / 2}"/>`);
      out.push('    </layer>');
    }
    out.push('  </map>');
  }
  out.push('</mahjongg>');
  return `${out.join('\n')}\n`;
}
