import { describe, expect, test } from 'vitest';
import {
  MAX_FILE_TILES,
  checkGnomeMap,
  makeGnomeMap,
  parseGnomeMaps,
  scanGnomeMaps,
  slugify,
} from '../../src/formats/gnome.ts';
import { LayoutError, makeLayout, sortSlots } from '../../src/engine/layout.ts';

/** One map named "T" (scorename "t") around `body`. */
const wrap = (body: string): string => `<mahjongg>\n<map name="T" scorename="t">\n${body}\n</map>\n</mahjongg>\n`;

function maps(text: string) {
  const result = parseGnomeMaps(text);
  if (!result.ok) throw new Error(`expected maps, got ${result.error}: ${result.message}`);
  return result.value;
}

const slotsOf = (text: string) => maps(text)[0]!.layout.slots.map((s) => [s.x, s.y, s.z]);

describe('parseGnomeMaps', () => {
  test('reads every shape: whole tiles become half units, ranges are inclusive', () => {
    const text = wrap(`
      <layer z="0">
        <tile x="0" y="0"/>
        <row y="2" left="0" right="2"/>
        <column x="4" top="0" bottom="1"/>
      </layer>
      <block z="1" left="0.5" right="1.5" top="2" bottom="2"/>`);
    expect(slotsOf(text)).toEqual([
      [0, 0, 0],
      [8, 0, 0],
      [8, 2, 0],
      [0, 4, 0],
      [2, 4, 0],
      [4, 4, 0],
      [1, 4, 1],
      [3, 4, 1],
    ]);
  });

  test('id is a slug of the scorename, else of the name; the name is kept', () => {
    const text = `<mahjongg>
      <map name="Taipei" scorename="difficult"><tile x="0" y="0"/><tile x="1" y="0"/></map>
      <map name="Pyramid's Walls"><tile x="0" y="0"/><tile x="1" y="0"/></map>
      <map name="Élan Vital!" scorename=""><tile x="0" y="0"/><tile x="1" y="0"/></map>
      <map scorename="only_score"><tile x="0" y="0"/><tile x="1" y="0"/></map>
    </mahjongg>`;
    expect(maps(text).map((m) => [m.id, m.name, m.layout.id, m.layout.name])).toEqual([
      ['difficult', 'Taipei', 'difficult', 'Taipei'],
      ['pyramids-walls', "Pyramid's Walls", 'pyramids-walls', "Pyramid's Walls"],
      ['elan-vital', 'Élan Vital!', 'elan-vital', 'Élan Vital!'],
      ['only-score', 'only_score', 'only-score', 'only_score'],
    ]);
  });

  test('two maps with the same id get distinct ids', () => {
    const two = '<map name="Same"><tile x="0" y="0"/><tile x="1" y="0"/></map>';
    expect(maps(`<mahjongg>${two}${two}${two}</mahjongg>`).map((m) => m.id)).toEqual(['same', 'same-2', 'same-3']);
  });

  test('a name without letters or digits still gets an id', () => {
    expect(maps('<mahjongg><map name="★"><tile x="0" y="0"/><tile x="1" y="0"/></map></mahjongg>')[0]!.id).toBe(
      'map-1',
    );
  });

  test('tolerates attribute order, single quotes, spaces, comments, case, entities and declarations', () => {
    const text = `<?xml version="1.0"?>
<!DOCTYPE mahjongg>
<!-- a comment with <tags> inside -->
<MahJongg>
  <map   scorename = 'x'  name="A &amp; B &#233;&#x21;" >
    <!-- <tile x="9" y="9"/> is commented out -->
    <Layer Z='2'>
      <tile y="1" x="7"   />   \t
      <tile
        x="8"
        y="1"></tile>
    </Layer>
  </map>
</MahJongg>`;
    const [map] = maps(text);
    expect(map!.name).toBe('A & B é!');
    expect(map!.layout.slots).toEqual([
      { x: 14, y: 2, z: 2 },
      { x: 16, y: 2, z: 2 },
    ]);
  });

  test('a shape z overrides its layer; the layer default ends with the layer', () => {
    const text = wrap(
      `<layer z="3"><tile x="0" y="0"/><tile x="0" y="0" z="1"/></layer><tile x="0" y="0"/><tile x="5" y="0"/>`,
    );
    expect(slotsOf(text)).toEqual([
      [0, 0, 0],
      [10, 0, 0],
      [0, 0, 1],
      [0, 0, 3],
    ]);
  });

  test('<mahjongg> may sit inside other markup, which is skipped', () => {
    const text = `<data><note>hello</note><mahjongg><map name="In"><tile x="0" y="0"/><tile x="1" y="0"/></map></mahjongg></data>`;
    expect(maps(text).map((m) => m.id)).toEqual(['in']);
  });

  test('a range whose span is not a whole number of tiles stops where GNOME stops', () => {
    expect(slotsOf(wrap('<row y="0" left="0" right="2.5"/><tile x="0" y="1"/>'))).toEqual([
      [0, 0, 0],
      [2, 0, 0],
      [4, 0, 0],
      [0, 2, 0],
    ]);
  });

  test('slots come in canonical order', () => {
    const { layout } = maps(
      wrap('<tile x="3" y="3" z="1"/><tile x="5" y="0"/><tile x="0" y="2"/><tile x="2" y="0"/>'),
    )[0]!;
    expect(layout.slots).toEqual(sortSlots(layout.slots));
  });

  test.each([
    ['not markup at all', 'hello world', LayoutError.Format, /^not a GNOME Mahjongg map file: no <mahjongg> element$/],
    [
      'another root element',
      '<mahjong><map name="x"/></mahjong>',
      LayoutError.Format,
      /^line 1: <map> must be inside <mahjongg>$/,
    ],
    [
      'foreign markup only',
      '<html><body/></html>',
      LayoutError.Format,
      /no <mahjongg> element \(top-level elements: <html>\)/,
    ],
    ['<mahjongg> without maps', '<mahjongg>\n</mahjongg>', LayoutError.Format, /has a <mahjongg> element but no <map>/],
    [
      'an unknown element in a map',
      wrap('<tile x="0" y="0"/>\n<tiles x="1" y="0"/>'),
      LayoutError.Format,
      /^line 4: <tiles> is not allowed inside <map>; expected <layer>, <tile>, <row>, <column>, <block>$/,
    ],
    [
      'an unknown element in mahjongg',
      '<mahjongg><layout/></mahjongg>',
      LayoutError.Format,
      /^line 1: <layout> is not allowed inside <mahjongg>; expected <map>$/,
    ],
    [
      'a layer inside a layer',
      wrap('<layer z="0"><layer z="1"/></layer>'),
      LayoutError.Format,
      /^line 3: <layer> is not allowed inside <layer>/,
    ],
    [
      'an element inside a tile',
      wrap('<tile x="0" y="0"><tile x="1" y="0"/></tile>'),
      LayoutError.Format,
      /^line 3: <tile> is not allowed inside <tile>; <tile> holds no elements$/,
    ],
    [
      'an unknown attribute',
      wrap('<row y="0" left="0" rigth="3"/>'),
      LayoutError.Format,
      /^line 3: <row> has an unknown attribute rigth \(it takes y, left, right, z\)$/,
    ],
    [
      'a missing attribute',
      wrap('<column x="0" top="0"/>'),
      LayoutError.Format,
      /^line 3: <column> is missing the attribute bottom$/,
    ],
    [
      'a layer without z',
      wrap('<layer><tile x="0" y="0"/></layer>'),
      LayoutError.Format,
      /^line 3: <layer> is missing the attribute z$/,
    ],
    [
      'a map without name or scorename',
      '<mahjongg><map><tile x="0" y="0"/></map></mahjongg>',
      LayoutError.Format,
      /^line 1: <map> needs a name or a scorename$/,
    ],
    [
      'a negative coordinate',
      wrap('<tile x="-1" y="0"/>'),
      LayoutError.Format,
      /^line 3: x="-1" in <tile> is negative; coordinates count from 0$/,
    ],
    [
      'a coordinate that is not a number',
      wrap('<tile x="NaN" y="0"/>'),
      LayoutError.Format,
      /^line 3: x="NaN" in <tile> is not a number of tiles, like 3 or 3\.5$/,
    ],
    ['an empty coordinate', wrap('<tile x="" y="0"/>'), LayoutError.Format, /x="" in <tile> is not a number of tiles/],
    [
      'an exponent',
      wrap('<row y="0" left="0" right="1e9"/>'),
      LayoutError.Format,
      /^line 3: right="1e9" in <row> is not a number of tiles/,
    ],
    [
      'a quarter tile',
      wrap('<tile x="1.25" y="0"/>'),
      LayoutError.Format,
      /^line 3: x="1\.25" in <tile> is not a whole or half number of tiles$/,
    ],
    [
      'a fractional layer',
      wrap('<tile x="0" y="0" z="1.5"/>'),
      LayoutError.Format,
      /^line 3: z="1\.5" in <tile> is not a whole layer number$/,
    ],
    [
      'a negative layer',
      wrap('<layer z="-2"/>'),
      LayoutError.Format,
      /^line 3: z="-2" in <layer> is negative; layers count from 0$/,
    ],
    [
      'a coordinate far out of range',
      wrap('<row y="0" left="0" right="1000000000"/>'),
      LayoutError.Range,
      /^line 3: right="1000000000" in <row> is out of range: at most 127\.5$/,
    ],
    [
      'a 309-digit coordinate',
      wrap(`<tile x="${'9'.repeat(309)}" y="0"/>`),
      LayoutError.Range,
      /is out of range: at most 127\.5$/,
    ],
    [
      'a layer out of range',
      wrap('<tile x="0" y="0" z="64"/>'),
      LayoutError.Range,
      /^line 3: z="64" in <tile> is out of range: at most 63$/,
    ],
    [
      'a block of 16384 tiles',
      wrap('<block left="0" right="127" top="0" bottom="127"/>'),
      LayoutError.TooLarge,
      /^line 3: this <block> takes the map past 1000 tiles$/,
    ],
    [
      'a map over 1000 tiles in small steps',
      wrap('<block left="0" right="99" top="0" bottom="9"/>\n<tile x="0" y="10"/>'),
      LayoutError.TooLarge,
      /^line 4: this <tile> takes the map past 1000 tiles$/,
    ],
    [
      'a backwards row',
      wrap('<row y="0" left="5" right="2"/>'),
      LayoutError.Format,
      /^line 3: <row> runs backwards: right is before left$/,
    ],
    [
      'a backwards column',
      wrap('<column x="0" top="3" bottom="1"/>'),
      LayoutError.Format,
      /^line 3: <column> runs backwards: bottom is before top$/,
    ],
    [
      'an unclosed map',
      '<mahjongg>\n<map name="x">\n<tile x="0" y="0"/>\n</mahjongg>',
      LayoutError.Format,
      /^line 4: <\/mahjongg> does not match <map> opened on line 2$/,
    ],
    [
      'an unclosed root',
      '<mahjongg>\n<map name="x"><tile x="0" y="0"/><tile x="1" y="0"/></map>\n',
      LayoutError.Format,
      /^line 1: <mahjongg> is never closed$/,
    ],
    [
      'an unclosed comment',
      wrap('<!-- oops <tile x="0" y="0"/>'),
      LayoutError.Format,
      /^line 3: the comment starting here is never closed with -->$/,
    ],
    [
      'an unclosed tag',
      wrap('<tile x="0" y="0"'),
      LayoutError.Format,
      /^line 3: the tag <tile> is never closed with >$/,
    ],
    [
      'an unclosed attribute value',
      wrap('<tile x="0 y="0"/>'),
      LayoutError.Format,
      /expected a space, > or \/> in <tile>/,
    ],
    ['a stray end tag', '</map>', LayoutError.Format, /^line 1: <\/map> closes nothing$/],
    [
      'an unquoted value',
      wrap('<tile x=0 y="0"/>'),
      LayoutError.Format,
      /^line 3: the value of x in <tile> must be in quotes$/,
    ],
    [
      'a repeated attribute',
      wrap('<tile x="0" x="1" y="0"/>'),
      LayoutError.Format,
      /^line 3: the attribute x appears twice in <tile>$/,
    ],
    [
      'a bare ampersand',
      '<mahjongg><map name="A & B"/></mahjongg>',
      LayoutError.Format,
      /^line 1: a bare & in "A & B"; write it as &amp;$/,
    ],
    ['an unknown entity', '<mahjongg><map name="&nbsp;"/></mahjongg>', LayoutError.Format, /unknown entity &nbsp;/],
    ['text inside a map', wrap('tile 0 0'), LayoutError.Format, /^line 3: unexpected text "tile 0 0" inside <map>$/],
    [
      'a tag without a name',
      wrap('< tile x="0" y="0"/>'),
      LayoutError.Format,
      /^line 3: expected an element name after </,
    ],
    [
      'an empty map',
      '<mahjongg><map name="Empty"/></mahjongg>',
      LayoutError.Empty,
      /^map "Empty" \(line 1\): the layout has no tiles$/,
    ],
    [
      'an odd map',
      wrap('<row y="0" left="0" right="2"/>'),
      LayoutError.Odd,
      /^map "T" \(line 2\): the layout has 3 tiles/,
    ],
    [
      'the same tile twice',
      wrap('<row y="0" left="0" right="2"/><tile x="1" y="0"/>'),
      LayoutError.Duplicate,
      /^map "T" \(line 2\): two tiles at \(2, 0, 0\)$/,
    ],
    [
      'overlapping tiles',
      wrap('<tile x="0" y="0"/><tile x="0.5" y="0.5"/>'),
      LayoutError.Overlap,
      /overlap on layer 0/,
    ],
  ])('rejects %s', (_, text, code, message) => {
    const result = parseGnomeMaps(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toBe(code);
    expect(result.message).toMatch(message);
  });

  test('more than 100 maps in one file is too large', () => {
    const one = '<map name="m"><tile x="0" y="0"/><tile x="1" y="0"/></map>';
    const result = parseGnomeMaps(`<mahjongg>${one.repeat(101)}</mahjongg>`);
    expect(!result.ok && [result.error, result.message]).toEqual([
      LayoutError.TooLarge,
      'line 1: more than 100 maps in one file',
    ]);
  });

  test('the maps are counted in the text before it is read: a 101st map is refused before any error in the first', () => {
    const text = `<mahjongg><map name="m"><tile x="oops" y="0"/>${'<map name="m"></map>\n'.repeat(100)}`;
    expect(parseGnomeMaps(text)).toMatchObject({
      error: LayoutError.TooLarge,
      message: 'line 100: more than 100 maps in one file',
    });
  });

  test(`a file holds at most ${MAX_FILE_TILES} tiles in all its maps: the read stops at the shape past it`, () => {
    const map = (i: number) => `<map name="m${i}"><block left="0" right="39" top="0" bottom="24"/></map>\n`; // 1,000 tiles
    const full = `<mahjongg>\n${Array.from({ length: MAX_FILE_TILES / 1000 }, (_, i) => map(i)).join('')}`;
    expect(scanGnomeMaps(`${full}</mahjongg>`).ok).toBe(true);
    expect(scanGnomeMaps(`${full}${map(99)}<x></mahjongg>`)).toMatchObject({
      error: LayoutError.TooLarge,
      message: `line 22: this <block> takes the file past ${MAX_FILE_TILES} tiles in all its maps`,
    });
  });

  test('a scan reads every map but checks no tiles; checking one gives what parseGnomeMaps would', () => {
    const text =
      '<mahjongg>\n<map name="Good"><row y="0" left="0" right="1"/></map>\n' +
      '<map name="Bad"><tile x="0" y="0"/><tile x="0.5" y="0"/></map>\n</mahjongg>';
    const scanned = scanGnomeMaps(text);
    if (!scanned.ok) throw new Error(scanned.message);
    expect(scanned.value.map((m) => [m.id, m.name, m.slots.length])).toEqual([
      ['good', 'Good', 2],
      ['bad', 'Bad', 2],
    ]);
    const good = checkGnomeMap(scanned.value[0]!);
    expect(good.ok && good.value.layout.slots).toEqual([
      { x: 0, y: 0, z: 0 },
      { x: 2, y: 0, z: 0 },
    ]);
    const whole = parseGnomeMaps(text);
    expect(checkGnomeMap(scanned.value[1]!)).toEqual(whole);
    expect(whole).toMatchObject({ error: LayoutError.Overlap, message: /^map "Bad" \(line 3\): tiles/ });
  });

  test('absurd input ends quickly', () => {
    const started = performance.now();
    const huge = wrap('<block left="0" right="127.5" top="0" bottom="127.5"/>'.repeat(1000));
    expect(parseGnomeMaps(huge).ok).toBe(false);
    expect(parseGnomeMaps(`<mahjongg>${'<x>'.repeat(100_000)}`).ok).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('makeGnomeMap', () => {
  const layouts = [
    makeLayout('bridge', 'Bridge & <Co>', '', [
      { x: 0, y: 0, z: 0 },
      { x: 4, y: 0, z: 0 },
      { x: 2, y: 0, z: 1 },
      { x: 7, y: 3, z: 0 },
    ]),
    makeLayout('pyramids-walls', "Pyramid's Walls", '', [
      { x: 1, y: 1, z: 2 },
      { x: 3, y: 1, z: 2 },
    ]),
  ];

  test('writes <tile> elements in whole tiles, grouped by layer', () => {
    const text = makeGnomeMap([layouts[1]!]);
    expect(text).toContain('<map name="Pyramid&apos;s Walls" scorename="pyramids-walls">');
    expect(text).toContain('<layer z="2">\n      <tile x="0.5" y="0.5"/>\n      <tile x="1.5" y="0.5"/>\n    </layer>');
  });

  test('parse(make(x)) gives back the ids, names and slots', () => {
    const back = maps(makeGnomeMap(layouts));
    expect(back.map((m) => [m.id, m.name, m.layout.slots])).toEqual(
      layouts.map((l) => [l.id, l.name, sortSlots(l.slots)]),
    );
  });

  test('make(parse(text)) is stable', () => {
    const once = makeGnomeMap(maps(makeGnomeMap(layouts)).map((m) => m.layout));
    expect(makeGnomeMap(maps(once).map((m) => m.layout))).toBe(once);
  });
});

describe('slugify', () => {
  test.each([
    ['Turtle', 'turtle'],
    ['Four Bridges', 'four-bridges'],
    ['Tic-Tac-Toe', 'tic-tac-toe'],
    ["Pyramid's Walls", 'pyramids-walls'],
    ['  Up&Down  ', 'up-down'],
    ['Élan', 'elan'],
    ['a'.repeat(40), 'a'.repeat(32)],
    ['★', ''],
  ])('%s → %s', (text, slug) => {
    expect(slugify(text)).toBe(slug);
  });
});
