/**
 * KMahjongg layouts: the `.layout` grid (v1.0, v1.1; docs/contracts.md, "Layout files") and the name in its
 * `.desktop` file; text in, never paths. What is tolerated: docs/cli.md, "KMahjongg grids".
 */
import { LayoutError, MAX_TILES, makeLayout, sortSlots, validateSlots } from '../engine/layout.ts';
import { err, ok, type Layout, type Result, type Slot } from '../engine/types.ts';

export const KMAHJONGG_V10 = 'kmahjongg-layout-v1.0';
export const KMAHJONGG_V11 = 'kmahjongg-layout-v1.1';
export const KMAHJONGG_DEFAULT_SIZE = { w: 32, h: 16, d: 5 } as const; // v1.0 board; in cells and layers
export const KMAHJONGG_MAX_SIZE = { w: 256, h: 256, d: 64 } as const; // guard against absurd size lines

const MAX_WARNINGS = 20; // the rest are summed up in one line
const CELLS = '.1234';

type Dimension = 'w' | 'h' | 'd';

interface GridLine {
  readonly text: string;
  readonly line: number; // 1-based line number in the file
}

/** Lines numbered from 1; any line end, trailing blanks dropped. */
function splitLines(text: string): GridLine[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return body.split(/\r\n|\r|\n/).map((raw, i) => ({ text: raw.replace(/[ \t]+$/, ''), line: i + 1 }));
}

/** A short, printable excerpt for a message. */
const quote = (s: string): string => JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);

/** Reads a `.layout` file labelled `id`, `name`: slots in canonical order, oddities read anyway as warnings. */
export function parseKmahjongg(
  text: string,
  id: string,
  name?: string,
): Result<{ layout: Layout; warnings: string[] }, LayoutError> {
  const fail = (line: number | null, message: string, code: LayoutError = LayoutError.Format) =>
    err(code, line === null ? message : `line ${line}: ${message}`);
  const lines = splitLines(text);
  const first = lines.find((l) => l.text.trim() !== '');
  if (!first)
    return fail(
      null,
      `the file is empty; a KMahjongg layout starts with the line ${KMAHJONGG_V10} or ${KMAHJONGG_V11}`,
    );
  const version = first.text.trim();
  if (version !== KMAHJONGG_V10 && version !== KMAHJONGG_V11)
    return fail(first.line, `expected the version line ${KMAHJONGG_V10} or ${KMAHJONGG_V11}, found ${quote(version)}`);
  const warnings: string[] = [];
  const size: Record<Dimension, number | null> = { w: null, h: null, d: null };
  const grid: GridLine[] = [];
  for (const l of lines) {
    if (l.line <= first.line || l.text === '' || l.text.startsWith('#')) continue;
    const sizeLine = /^([whd])(\d*)$/.exec(l.text);
    if (sizeLine && grid.length === 0) {
      const dim = sizeLine[1] as Dimension;
      if (version === KMAHJONGG_V10)
        return fail(
          l.line,
          `size lines (w, h, d) are only allowed in ${KMAHJONGG_V11}; ${KMAHJONGG_V10} is always 32 × 16 × 5`,
        );
      if (sizeLine[2] === '')
        return fail(
          l.line,
          `bad size line ${quote(l.text)}: expected ${dim} followed by a whole number, like ${dim}${KMAHJONGG_DEFAULT_SIZE[dim]}`,
        );
      if (size[dim] !== null) return fail(l.line, `the size ${dim} is given twice`);
      const value = Number(sizeLine[2]);
      if (value < 1) return fail(l.line, `the size ${dim} must be at least 1`);
      if (value > KMAHJONGG_MAX_SIZE[dim])
        return fail(
          l.line,
          `the size ${dim}${value} is too large; at most ${KMAHJONGG_MAX_SIZE[dim]}`,
          LayoutError.TooLarge,
        );
      size[dim] = value;
      continue;
    }
    grid.push(l);
  }
  if (version === KMAHJONGG_V11) {
    const missing = (['w', 'h', 'd'] as const).filter((dim) => size[dim] === null);
    if (missing.length > 0)
      warnings.push(`no size line for ${missing.join(', ')}; using the v1.0 default 32 × 16 × 5 for it`);
  }
  const w = size.w ?? KMAHJONGG_DEFAULT_SIZE.w;
  const h = size.h ?? KMAHJONGG_DEFAULT_SIZE.h;
  const d = size.d ?? KMAHJONGG_DEFAULT_SIZE.d;
  const expected = h * d;
  const shape = `${expected} grid lines (${h} rows × ${d} layers) of ${w} cells`;
  for (let i = 0; i < grid.length; i++) {
    const { text: row, line } = grid[i]!;
    if (i >= expected) return fail(line, `too many grid lines; expected ${shape}`);
    if (/^[whd]\d*$/.test(row)) return fail(line, 'size lines must come before the grid');
    if (row.length !== w) return fail(line, `the grid line is ${row.length} cells wide; expected ${w}`);
    for (let c = 0; c < row.length; c++)
      if (!CELLS.includes(row[c]!))
        return fail(line, `column ${c + 1}: invalid character ${quote(row[c]!)}; a cell is one of . 1 2 3 4`);
  }
  if (grid.length < expected) {
    const after = grid.length > 0 ? `, after line ${grid.at(-1)!.line}` : '';
    return fail(null, `the grid has ${grid.length} lines; expected ${shape}${after}`);
  }

  const cell = (x: number, y: number, z: number): string => grid[z * h + y]!.text[x]!;
  const owned = new Uint8Array(w * h * d); // 1 where a cell lies in some tile's block
  const slots: Slot[] = [];
  let unreported = 0; // warnings past MAX_WARNINGS, only counted
  const warn = (message: string): void => {
    if (warnings.length < MAX_WARNINGS) warnings.push(message);
    else unreported++;
  };
  for (let z = 0; z < d; z++)
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        if (cell(x, y, z) !== '1') continue;
        const line = grid[z * h + y]!.line;
        const here = `column ${x + 1}: the tile starting here runs off`;
        if (x + 1 >= w) return fail(line, `${here} the right edge of the ${w}-cell grid`);
        if (y + 1 >= h) return fail(line, `${here} the bottom of layer ${z} (rows are ${h} cells)`);
        const block = `${cell(x, y, z)}${cell(x + 1, y, z)}/${cell(x, y + 1, z)}${cell(x + 1, y + 1, z)}`;
        if (block !== '12/43')
          warn(
            `line ${line}, column ${x + 1}: the tile at (${x}, ${y}, ${z}) is drawn ${block} instead of 12/43; ` +
              'read as a tile',
          );
        for (const [dx, dy] of [
          [0, 0],
          [1, 0],
          [0, 1],
          [1, 1],
        ] as const)
          owned[(z * h + y + dy) * w + x + dx] = 1;
        slots.push({ x, y, z });
        if (slots.length > MAX_TILES)
          return fail(line, `column ${x + 1}: more than ${MAX_TILES} tiles`, LayoutError.TooLarge);
      }
  for (let z = 0; z < d; z++)
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++)
        if (cell(x, y, z) !== '.' && !owned[(z * h + y) * w + x])
          warn(`line ${grid[z * h + y]!.line}, column ${x + 1}: ${quote(cell(x, y, z))} belongs to no tile; ignored`);
  if (unreported > 0) warnings.push(`and ${unreported} more warnings`);
  const checked = validateSlots(sortSlots(slots));
  if (!checked.ok) return checked;
  const layout = makeLayout(id, name ?? id, `KMahjongg layout, ${slots.length} tiles`, checked.value);
  return ok({ layout, warnings });
}

/**
 * Writes a layout as a v1.1 file (at least 32 × 16 cells); parseKmahjongg reads it back. Throws a RangeError
 * for slots no grid holds: validate first.
 */
export function makeKmahjongg(layout: Layout): string {
  let maxX = 0;
  let maxY = 0;
  let maxZ = 0;
  for (const s of layout.slots) {
    if (![s.x, s.y, s.z].every((v) => Number.isInteger(v) && v >= 0))
      throw new RangeError(`makeKmahjongg: slot (${s.x}, ${s.y}, ${s.z}) is not on the grid`);
    maxX = Math.max(maxX, s.x);
    maxY = Math.max(maxY, s.y);
    maxZ = Math.max(maxZ, s.z);
  }
  const w = Math.max(KMAHJONGG_DEFAULT_SIZE.w, maxX + 2);
  const h = Math.max(KMAHJONGG_DEFAULT_SIZE.h, maxY + 2);
  const d = maxZ + 1;
  const cells = Array.from({ length: d * h }, () => new Array<string>(w).fill('.'));
  for (const s of layout.slots) {
    const top = cells[s.z * h + s.y]!;
    const bottom = cells[s.z * h + s.y + 1]!;
    if (top[s.x] !== '.' || top[s.x + 1] !== '.' || bottom[s.x] !== '.' || bottom[s.x + 1] !== '.')
      throw new RangeError(`makeKmahjongg: the tile at (${s.x}, ${s.y}, ${s.z}) overlaps another`);
    top[s.x] = '1';
    top[s.x + 1] = '2';
    bottom[s.x] = '4';
    bottom[s.x + 1] = '3';
  }
  const out = [KMAHJONGG_V11, `# ${layout.name.replace(/[\r\n]+/g, ' ')}`];
  out.push('# Board size in quarter tiles', `w${w}`, `h${h}`, '# Board depth', `d${d}`);
  for (let z = 0; z < d; z++) {
    out.push(`# Level ${z} -------------------------`);
    for (let y = 0; y < h; y++) out.push(cells[z * h + y]!.join(''));
  }
  return `${out.join('\n')}\n`;
}

const unescapeDesktop = (value: string): string =>
  value.replace(/\\([sntr\\])/g, (_, c: string) => ({ s: ' ', n: '\n', t: '\t', r: '\r', '\\': '\\' })[c]!);

/** The untranslated `Name=` of a `.desktop` file's `[KMahjonggLayout]` group, or null. */
export function parseDesktopName(text: string): string | null {
  let inGroup = false;
  for (const raw of splitLines(text)) {
    const line = raw.text.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const group = /^\[(.*)\]$/.exec(line);
    if (group) {
      inGroup = group[1] === 'KMahjonggLayout';
      continue;
    }
    if (!inGroup) continue;
    const entry = /^Name\s*=(.*)$/.exec(line);
    if (entry) {
      const name = unescapeDesktop(entry[1]!.trim());
      return name === '' ? null : name;
    }
  }
  return null;
}
