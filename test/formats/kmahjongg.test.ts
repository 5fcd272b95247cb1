import { describe, expect, test } from 'vitest';
import { LayoutError, makeLayout, sortSlots } from '../../src/engine/layout.ts';
import { makeKmahjongg, parseDesktopName, parseKmahjongg } from '../../src/formats/kmahjongg.ts';
import type { Slot } from '../../src/engine/types.ts';

/** A v1.1 file: version, size lines, then the grid rows as given. */
const v11 = (w: number, h: number, d: number, rows: readonly string[]): string =>
  ['kmahjongg-layout-v1.1', `w${w}`, `h${h}`, `d${d}`, ...rows].join('\n') + '\n';

/** A v1.0 file (32 × 16 × 5): `tiles` drawn as 12/43 blocks on an empty board. */
function v10(tiles: readonly Slot[]): string {
  const rows = Array.from({ length: 16 * 5 }, () => Array<string>(32).fill('.'));
  for (const { x, y, z } of tiles) {
    rows[z * 16 + y]!.splice(x, 2, '1', '2');
    rows[z * 16 + y + 1]!.splice(x, 2, '4', '3');
  }
  return ['kmahjongg-layout-v1.0', ...rows.map((r) => r.join(''))].join('\n') + '\n';
}

// Three tiles in a row on layer 0, one on top straddling the first two (half-tile offset in x).
const PYRAMID = v11(6, 2, 2, ['121212', '434343', '.12...', '.43...']);

function parsed(text: string) {
  const result = parseKmahjongg(text, 'test');
  if (!result.ok) throw new Error(`expected a layout, got ${result.error}: ${result.message}`);
  return result.value;
}

describe('parseKmahjongg', () => {
  test('reads a v1.1 grid: tiles are the 1 cells, x and y in half tiles, layers stacked', () => {
    const { layout, warnings } = parsed(v11(6, 2, 2, ['121212', '434343', '..12..', '..43..']));
    expect(layout.slots).toEqual([
      { x: 0, y: 0, z: 0 },
      { x: 2, y: 0, z: 0 },
      { x: 4, y: 0, z: 0 },
      { x: 2, y: 0, z: 1 },
    ]);
    expect(warnings).toEqual([]);
    expect(layout.id).toBe('test');
    expect(layout.name).toBe('test');
  });

  test('uses the given id and name', () => {
    const result = parseKmahjongg(PYRAMID, 'pyr', 'Pyramid');
    expect(result.ok && [result.value.layout.id, result.value.layout.name]).toEqual(['pyr', 'Pyramid']);
  });

  test('reads half-tile offsets in both directions', () => {
    const { layout } = parsed(v11(5, 4, 1, ['12...', '4312.', '..43.', '.....']));
    expect(layout.slots).toEqual([
      { x: 0, y: 0, z: 0 },
      { x: 2, y: 1, z: 0 },
    ]);
  });

  test('v1.0 has no size lines and is always 32 × 16 × 5', () => {
    const tiles = [
      { x: 0, y: 0, z: 0 },
      { x: 30, y: 14, z: 0 },
      { x: 15, y: 7, z: 4 },
      { x: 3, y: 5, z: 2 },
    ];
    expect(parsed(v10(tiles)).layout.slots).toEqual(sortSlots(tiles));
  });

  test('slots come in canonical order: layer, then row, then column', () => {
    const { layout } = parsed(v11(4, 4, 2, ['..12', '..43', '12..', '43..', '1212', '4343', '....', '....']));
    expect(layout.slots.map((s) => [s.x, s.y, s.z])).toEqual([
      [2, 0, 0],
      [0, 2, 0],
      [0, 0, 1],
      [2, 0, 1],
    ]);
  });

  test('skips comments anywhere, also between grid lines and before the size lines', () => {
    const text = [
      'kmahjongg-layout-v1.1',
      '# size',
      'w4',
      '# h',
      'h2',
      'd1',
      '# Level 0',
      '1212',
      '# mid',
      '4343',
    ].join('\n');
    expect(parsed(text).layout.slots).toHaveLength(2);
  });

  test('tolerates CRLF, CR, a missing final newline, blank lines, trailing spaces and a BOM', () => {
    const plain = parsed(PYRAMID).layout.slots;
    expect(parsed(PYRAMID.replace(/\n/g, '\r\n')).layout.slots).toEqual(plain);
    expect(parsed(PYRAMID.replace(/\n/g, '\r')).layout.slots).toEqual(plain);
    expect(parsed(PYRAMID.trimEnd()).layout.slots).toEqual(plain);
    expect(parsed(PYRAMID.replace(/\n/g, '  \n\n')).layout.slots).toEqual(plain);
    expect(parsed(`\uFEFF${PYRAMID}`).layout.slots).toEqual(plain);
  });

  test('a block drawn 12/32 (castle, crab) counts its 1 and gives a warning with the line', () => {
    const { layout, warnings } = parsed(v11(4, 2, 1, ['1212', '4332']));
    expect(layout.slots).toHaveLength(2);
    expect(warnings).toEqual([
      'line 5, column 3: the tile at (2, 0, 0) is drawn 12/32 instead of 12/43; read as a tile',
    ]);
  });

  test('a cell that belongs to no tile is a warning', () => {
    const { warnings } = parsed(v11(6, 2, 1, ['1212.2', '4343..']));
    expect(warnings).toEqual(['line 5, column 6: "2" belongs to no tile; ignored']);
  });

  test('a v1.1 file without size lines uses the v1.0 size, with a warning', () => {
    const text = v10([
      { x: 0, y: 0, z: 0 },
      { x: 2, y: 0, z: 0 },
    ]).replace('v1.0', 'v1.1');
    const { layout, warnings } = parsed(text);
    expect(layout.slots).toHaveLength(2);
    expect(warnings).toEqual(['no size line for w, h, d; using the v1.0 default 32 × 16 × 5 for it']);
  });

  test('many warnings are capped, with a count of the rest', () => {
    const { warnings } = parsed(v11(60, 2, 1, ['1212' + '.2'.repeat(28), '4343' + '.'.repeat(56)]));
    expect(warnings).toHaveLength(21);
    expect(warnings.at(-1)).toBe('and 8 more warnings');
  });

  const ROWS_4x2 = ['1212', '4343'];
  test.each([
    ['an empty file', '', LayoutError.Format, /the file is empty/],
    [
      'no version line',
      ['1212', '4343'].join('\n'),
      LayoutError.Format,
      /^line 1: expected the version line kmahjongg-layout-v1\.0 or kmahjongg-layout-v1\.1, found "1212"$/,
    ],
    [
      'an unknown version',
      v11(4, 2, 1, ROWS_4x2).replace('v1.1', 'v2.0'),
      LayoutError.Format,
      /^line 1: .*found "kmahjongg-layout-v2\.0"/,
    ],
    [
      'a grid line too narrow',
      v11(4, 2, 1, ['1212', '434']),
      LayoutError.Format,
      /^line 6: the grid line is 3 cells wide; expected 4$/,
    ],
    [
      'a grid line too wide',
      v11(4, 2, 1, ['12121', '4343']),
      LayoutError.Format,
      /^line 5: the grid line is 5 cells wide; expected 4$/,
    ],
    [
      'too few grid lines',
      v11(4, 2, 2, ROWS_4x2),
      LayoutError.Format,
      /^the grid has 2 lines; expected 4 grid lines \(2 rows × 2 layers\) of 4 cells, after line 6$/,
    ],
    ['no grid at all', v11(4, 2, 1, ['# nothing']), LayoutError.Format, /^the grid has 0 lines; expected 2 grid lines/],
    [
      'too many grid lines',
      v11(4, 2, 1, [...ROWS_4x2, '....']),
      LayoutError.Format,
      /^line 7: too many grid lines; expected 2 grid lines/,
    ],
    [
      'an invalid character',
      v11(4, 2, 1, ['1x12', '4343']),
      LayoutError.Format,
      /^line 5: column 2: invalid character "x"; a cell is one of \. 1 2 3 4$/,
    ],
    [
      'a tab inside a row',
      v11(4, 2, 1, ['12\t2', '4343']),
      LayoutError.Format,
      /^line 5: column 3: invalid character "\\t"/,
    ],
    [
      'a tile off the right edge',
      v11(4, 2, 1, ['...1', '....']),
      LayoutError.Format,
      /^line 5: column 4: the tile starting here runs off the right edge of the 4-cell grid$/,
    ],
    [
      'a tile off the bottom of a layer',
      v11(4, 2, 2, ['....', '12..', '....', '....']),
      LayoutError.Format,
      /^line 6: column 1: the tile starting here runs off the bottom of layer 0 \(rows are 2 cells\)$/,
    ],
    [
      'a width over 256',
      v11(300, 2, 1, ROWS_4x2),
      LayoutError.TooLarge,
      /^line 2: the size w300 is too large; at most 256$/,
    ],
    [
      'a height over 256',
      v11(4, 99999999999, 1, ROWS_4x2),
      LayoutError.TooLarge,
      /^line 3: the size h99999999999 is too large; at most 256$/,
    ],
    [
      'a depth over 64',
      v11(4, 2, 65, ROWS_4x2),
      LayoutError.TooLarge,
      /^line 4: the size d65 is too large; at most 64$/,
    ],
    ['a size of zero', v11(0, 2, 1, ROWS_4x2), LayoutError.Format, /^line 2: the size w must be at least 1$/],
    [
      'a size line without a number',
      v11(4, 2, 1, ROWS_4x2).replace('d1', 'd'),
      LayoutError.Format,
      /^line 4: bad size line "d": expected d followed by a whole number, like d5$/,
    ],
    [
      'a size given twice',
      v11(4, 2, 1, ROWS_4x2).replace('d1', 'w4'),
      LayoutError.Format,
      /^line 4: the size w is given twice$/,
    ],
    [
      'a size line after the grid',
      v11(4, 2, 1, ['1212', 'w4', '4343']),
      LayoutError.Format,
      /^line 6: size lines must come before the grid$/,
    ],
    [
      'size lines in v1.0',
      v11(4, 2, 1, ROWS_4x2).replace('v1.1', 'v1.0'),
      LayoutError.Format,
      /^line 2: size lines \(w, h, d\) are only allowed in kmahjongg-layout-v1\.1/,
    ],
    ['no tiles', v11(4, 2, 1, ['....', '....']), LayoutError.Empty, /the layout has no tiles/],
    ['an odd count', v11(6, 2, 1, ['121212', '434343']), LayoutError.Odd, /the layout has 3 tiles/],
    [
      'overlapping tiles',
      v11(4, 3, 1, ['12..', '412.', '.43.']),
      LayoutError.Overlap,
      /tiles \(0, 0, 0\) and \(1, 1, 0\) overlap on layer 0/,
    ],
  ])('rejects %s', (_, text, code, message) => {
    const result = parseKmahjongg(text, 'bad');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toBe(code);
    expect(result.message).toMatch(message);
  });

  test('a grid with more than 1000 tiles stops at the 1001st', () => {
    const rows = Array.from({ length: 128 }, (_, y) => (y % 2 ? '43' : '12').repeat(16)); // 1024 tiles
    const result = parseKmahjongg(v11(32, 128, 1, rows), 'many');
    expect(!result.ok && [result.error, result.message]).toEqual([
      LayoutError.TooLarge,
      'line 129: column 17: more than 1000 tiles',
    ]);
  });

  test('a huge declared board with a short grid fails fast without allocating it', () => {
    const started = performance.now();
    const result = parseKmahjongg(v11(256, 256, 64, ['.'.repeat(256)]), 'big');
    expect(result.ok).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('makeKmahjongg', () => {
  const layout = makeLayout('mix', 'Mixed\nname', '', [
    { x: 0, y: 0, z: 0 },
    { x: 2, y: 0, z: 0 },
    { x: 1, y: 0, z: 1 },
    { x: 60, y: 29, z: 0 }, // beyond the default 32 × 16 board: the size grows
    { x: 7, y: 3, z: 6 },
    { x: 9, y: 3, z: 6 },
  ]);

  test('writes v1.1 with size lines and a 12/43 block per tile', () => {
    const text = makeKmahjongg(
      makeLayout('two', 'Two', '', [
        { x: 0, y: 0, z: 0 },
        { x: 2, y: 1, z: 0 },
      ]),
    );
    const lines = text.split('\n');
    expect(lines.slice(0, 7)).toEqual([
      'kmahjongg-layout-v1.1',
      '# Two',
      '# Board size in quarter tiles',
      'w32',
      'h16',
      '# Board depth',
      'd1',
    ]);
    expect(lines.slice(8, 11)).toEqual([`12${'.'.repeat(30)}`, `4312${'.'.repeat(28)}`, `..43${'.'.repeat(28)}`]);
    expect(text.endsWith('\n')).toBe(true);
  });

  test('parse(make(x)) gives back the same slots, in canonical order', () => {
    const back = parseKmahjongg(makeKmahjongg(layout), 'mix', 'Mixed');
    expect(back.ok && back.value.layout.slots).toEqual(sortSlots(layout.slots));
    expect(back.ok && back.value.warnings).toEqual([]);
  });

  test('make(parse(text)) is stable', () => {
    const once = makeKmahjongg(parsed(PYRAMID).layout);
    expect(makeKmahjongg(parsed(once).layout)).toBe(once);
  });

  test('throws for slots no grid can hold (a programmer error)', () => {
    const overlap = makeLayout('o', 'O', '', [
      { x: 0, y: 0, z: 0 },
      { x: 1, y: 1, z: 0 },
    ]);
    expect(() => makeKmahjongg(overlap)).toThrow(RangeError);
    expect(() => makeKmahjongg(makeLayout('n', 'N', '', [{ x: -1, y: 0, z: 0 }]))).toThrow(RangeError);
  });
});

describe('parseDesktopName', () => {
  test('reads the untranslated Name of [KMahjonggLayout]', () => {
    const text = [
      '[KMahjonggLayout]',
      'Name=Default',
      'Name[de]=Standard',
      'Description=Default KMahjongg game layout',
      'VersionFormat=1',
      'FileName=default.layout',
    ].join('\n');
    expect(parseDesktopName(text)).toBe('Default');
  });

  test.each([
    ['translations before the name', '[KMahjonggLayout]\nName[fr]=Par défaut\nName=Default\n', 'Default'],
    ['CRLF and spaces around =', '[KMahjonggLayout]\r\nName = Star Ship \r\n', 'Star Ship'],
    ['comments and a BOM', '\uFEFF# comment\n[KMahjonggLayout]\n; other\nName=Up&Down\n', 'Up&Down'],
    ['escapes', '[KMahjonggLayout]\nName=A\\sB\\\\C\n', 'A B\\C'],
    ['a Name in another group first', '[Other]\nName=Wrong\n[KMahjonggLayout]\nName=Right\n', 'Right'],
    ['no group', 'Name=Loose\n', null],
    ['no Name key', '[KMahjonggLayout]\nDescription=x\n', null],
    ['an empty Name', '[KMahjonggLayout]\nName=\n', null],
    ['empty text', '', null],
  ])('%s', (_, text, expected) => {
    expect(parseDesktopName(text)).toBe(expected);
  });
});
