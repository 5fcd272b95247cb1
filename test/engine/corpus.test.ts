/**
 * The layout corpus (KMahjongg and GNOME Mahjongg data, at MAHJONG_LAYOUTS_DIR, default ../shared/layouts;
 * README.md, "Configuration") read as it is: every layout parses to the tile counts the corpus's own README
 * lists, and every one deals. The files stay outside the project; when the folder is absent the suite is
 * skipped.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { deal } from '../../src/engine/deal.ts';
import { parseGnomeMaps } from '../../src/formats/gnome.ts';
import { parseDesktopName, parseKmahjongg } from '../../src/formats/kmahjongg.ts';
import { geometryOf, makeGeometry, scanNeighbours } from '../../src/engine/layout.ts';
import type { Layout } from '../../src/engine/types.ts';
import { corpusDir } from '../../src/cli/corpus.ts';
import { replayDeal } from './helpers.ts';

const CORPUS = corpusDir();
const PROJECT = process.cwd();

// From the table in the corpus's README.md: file (or GNOME map name), name,
// format, tiles, per-layer counts from z = 0 up, extent in half tiles.
const EXPECTED: readonly (readonly [string, string, 'gnome' | 'v1.0' | 'v1.1', number, string, string])[] = [
  ['gnome:Turtle', 'Turtle', 'gnome', 144, '87/36/16/4/1', '30×16'],
  ['gnome:The Ziggurat', 'The Ziggurat', 'gnome', 144, '64/20/18/18/14/10', '30×16'],
  ['gnome:Four Bridges', 'Four Bridges', 'gnome', 144, '88/36/16/4', '26×18'],
  ['gnome:Cloud', 'Cloud', 'gnome', 144, '79/36/29', '28×13'],
  ['gnome:Tic-Tac-Toe', 'Tic-Tac-Toe', 'gnome', 144, '40/36/28/20/20', '26×18'],
  ['gnome:Red Dragon', 'Red Dragon', 'gnome', 144, '82/45/17', '30×15'],
  ['gnome:Overpass', 'Overpass', 'gnome', 144, '52/20/16/32/24', '24×18'],
  ["gnome:Pyramid's Walls", "Pyramid's Walls", 'gnome', 144, '41/34/27/20/13/6/3', '24×14'],
  ['gnome:Confounding Cross', 'Confounding Cross', 'gnome', 144, '47/42/27/18/9/1', '22×18'],
  ['gnome:Taipei', 'Taipei', 'gnome', 144, '63/46/19/10/3/2/1', '22×14'],
  ['4_winds', '4 Winds', 'v1.0', 128, '74/52/1/1', '28×16'],
  ['Vi', 'Vi', 'v1.0', 144, '72/42/22/6/2', '32×16'],
  ['X_shaped', 'X-shaped', 'v1.0', 134, '50/40/27/12/5', '28×16'],
  ['alien', 'Alien', 'v1.0', 152, '60/39/27/17/9', '30×16'],
  ['altar', 'Altar', 'v1.0', 144, '62/30/25/17/10', '32×16'],
  ['arena', 'Arena', 'v1.0', 144, '58/40/28/18', '28×14'],
  ['arrow', 'Arrow', 'v1.0', 144, '52/36/27/19/10', '30×14'],
  ['atlantis', 'Atlantis', 'v1.0', 132, '58/42/23/9', '32×16'],
  ['aztec', 'Aztec', 'v1.0', 142, '78/40/16/6/2', '30×14'],
  ['balance', 'Balance', 'v1.0', 144, '52/41/29/14/8', '30×16'],
  ['bat', 'Bat', 'v1.0', 144, '85/39/12/4/4', '30×16'],
  ['bug', 'Bug', 'v1.0', 144, '69/37/25/8/5', '28×16'],
  ['castle', 'Castle', 'v1.1', 156, '77/50/15/14', '28×16'],
  ['castle2', 'Castle View', 'v1.0', 146, '78/37/22/7/2', '32×16'],
  ['cat', 'Cat', 'v1.1', 144, '87/40/14/3', '36×16'],
  ['chains', 'Chains', 'v1.0', 120, '80/24/16', '32×16'],
  ['checkered', 'Checkered', 'v1.0', 144, '95/49', '30×16'],
  ['chip', 'Chip', 'v1.0', 144, '72/52/18/2', '28×14'],
  ['clubs', 'Clubs', 'v1.0', 74, '64/10', '32×16'],
  ['columns', 'Columns', 'v1.0', 144, '75/27/15/15/12', '30×16'],
  ['crab', 'Crab', 'v1.1', 144, '77/50/15/2', '28×16'],
  ['cross', 'Cross', 'v1.0', 222, '82/68/64/8', '32×16'],
  ['default', 'Default', 'v1.1', 144, '87/36/16/4/1', '30×16'],
  ['dragon', 'Dragon', 'v1.1', 144, '62/49/19/14', '30×16'],
  ['eagle', 'Eagle', 'v1.0', 144, '57/41/29/13/4', '28×16'],
  ['enterprise', 'Enterprise', 'v1.0', 144, '42/35/31/24/12', '32×12'],
  ['explosion', 'Explosion', 'v1.0', 138, '81/43/10/4', '32×16'],
  ['flowers', 'Flowers', 'v1.0', 144, '74/40/26/4', '28×16'],
  ['future', 'Future', 'v1.0', 144, '75/35/23/7/4', '30×14'],
  ['galaxy', 'Galaxy', 'v1.0', 140, '62/41/21/12/4', '30×16'],
  ['garden', 'Garden', 'v1.0', 144, '93/30/15/6', '32×16'],
  ['girl', 'Girl', 'v1.0', 178, '71/55/33/15/4', '30×16'],
  ['glade', 'Glade', 'v1.0', 144, '60/46/26/8/4', '32×16'],
  ['grid', 'Grid', 'v1.0', 134, '96/26/6/6', '32×16'],
  ['helios', 'Helios', 'v1.0', 144, '57/39/20/20/8', '24×16'],
  ['hole', 'Hole', 'v1.0', 208, '92/56/28/20/12', '24×16'],
  ['inner_circle', 'Inner Circle', 'v1.0', 144, '60/43/26/10/5', '28×16'],
  ['key', 'Key', 'v1.0', 130, '40/39/29/16/6', '32×10'],
  ['km', 'KM', 'v1.0', 144, '55/37/24/18/10', '28×12'],
  ['labyrinth', 'Labyrinth', 'v1.0', 110, '61/24/16/7/2', '30×16'],
  ['mask', 'Mask', 'v1.0', 168, '98/58/11/1', '32×16'],
  ['maya', 'Maya', 'v1.0', 144, '76/33/18/11/6', '26×16'],
  ['maze', 'Maze', 'v1.0', 194, '128/66', '32×16'],
  ['mesh', 'Mesh', 'v1.0', 144, '76/68', '30×14'],
  ['moth', 'Moth', 'v1.0', 144, '72/43/18/9/2', '32×15'],
  ['order', 'Order', 'v1.0', 144, '80/46/17/1', '26×16'],
  ['pattern', 'Pattern', 'v1.0', 144, '72/38/34', '29×14'],
  ['penta', 'Penta', 'v1.0', 130, '72/42/10/5/1', '26×14'],
  ['pillars', 'Pillars', 'v1.0', 118, '76/42', '32×16'],
  ['pirates', 'Pirates', 'v1.0', 144, '64/44/30/6', '32×16'],
  ['pyramid', 'Pyramid', 'v1.0', 204, '96/60/32/12/4', '24×16'],
  ['rocket', 'Rocket', 'v1.0', 144, '83/39/15/6/1', '31×16'],
  ['shield', 'Shield', 'v1.0', 144, '56/40/28/15/5', '29×16'],
  ['spider', 'Spider', 'v1.1', 144, '65/53/25/1', '30×16'],
  ['squares', 'Squares', 'v1.0', 144, '66/48/26/4', '22×16'],
  ['squaring', 'Squaring', 'v1.0', 144, '68/36/36/4', '30×13'],
  ['stadion', 'Stadion', 'v1.0', 128, '61/55/5/4/3', '32×16'],
  ['stairs', 'Stairs', 'v1.0', 144, '70/39/17/13/5', '30×16'],
  ['star', 'Star', 'v1.0', 122, '42/34/26/13/7', '26×16'],
  ['star_ship', 'Star Ship', 'v1.0', 144, '57/39/25/15/8', '30×14'],
  ['stax', 'Stacks', 'v1.0', 164, '60/45/33/21/5', '32×14'],
  ['swirl', 'Swirl', 'v1.0', 122, '81/17/12/8/4', '32×15'],
  ['temple', 'Temple', 'v1.0', 144, '88/38/16/2', '32×16'],
  ['the_door', 'The Door', 'v1.0', 144, '60/33/25/19/7', '30×16'],
  ['theatre', 'Theatre', 'v1.0', 154, '75/56/16/4/3', '28×14'],
  ['time_tunnel', 'Time Tunnel', 'v1.0', 144, '44/32/28/22/18', '20×12'],
  ['tomb', 'Tomb', 'v1.0', 144, '56/43/22/15/8', '20×14'],
  ['totem', 'Totem', 'v1.0', 114, '58/30/12/8/6', '32×16'],
  ['tower', 'Tower', 'v1.0', 228, '96/60/24/24/24', '24×16'],
  ['triangle', 'Triangle', 'v1.0', 190, '64/49/36/25/16', '30×16'],
  ['up&down', 'Up&Down', 'v1.0', 222, '84/66/36/24/12', '24×14'],
  ['well', 'Well', 'v1.0', 144, '64/32/16/16/16', '24×16'],
];

// Blocks drawn 12/32 instead of 12/43 (README, "Quirk"): read as tiles, with a warning each.
const QUIRKS: Record<string, number> = { castle: 2, crab: 1 };

interface Loaded {
  readonly layout: Layout;
  readonly warnings: readonly string[];
  readonly version: string | null; // first line of a .layout file
}

/** Every corpus layout by its key in EXPECTED; read once. */
function loadCorpus(): Map<string, Loaded> {
  const out = new Map<string, Loaded>();
  const gnome = parseGnomeMaps(readFileSync(path.join(CORPUS, 'gnome/mahjongg.map'), 'utf8'));
  if (!gnome.ok) throw new Error(`mahjongg.map: ${gnome.error}: ${gnome.message}`);
  for (const map of gnome.value) out.set(`gnome:${map.name}`, { layout: map.layout, warnings: [], version: null });
  const dir = path.join(CORPUS, 'kmahjongg');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.layout'))) {
    const base = file.slice(0, -'.layout'.length);
    const text = readFileSync(path.join(dir, file), 'utf8');
    const name = parseDesktopName(readFileSync(path.join(dir, `${base}.desktop`), 'utf8'));
    const parsed = parseKmahjongg(text, base, name ?? undefined);
    if (!parsed.ok) throw new Error(`${file}: ${parsed.error}: ${parsed.message}`);
    out.set(base, { ...parsed.value, version: text.slice(0, text.indexOf('\n')) });
  }
  return out;
}

const perLayer = (layout: Layout): string => {
  const counts: number[] = [];
  for (const s of layout.slots) counts[s.z] = (counts[s.z] ?? 0) + 1;
  return Array.from(counts, (c) => c ?? 0).join('/');
};

const present = existsSync(path.join(CORPUS, 'README.md'));
if (!present) console.warn(`corpus tests skipped: no layout corpus at ${CORPUS} (it lives outside the project)`);

describe.skipIf(!present)('layout corpus', () => {
  const corpus = present ? loadCorpus() : new Map<string, Loaded>();
  const timings: [string, number][] = [];

  afterAll(() => {
    const slowest = [...timings].sort((a, b) => b[1] - a[1]).slice(0, 8);
    const total = timings.reduce((s, [, ms]) => s + ms, 0);
    console.info(
      `relaxed deal times, slowest first (ms): ${slowest.map(([k, ms]) => `${k} ${ms.toFixed(1)}`).join(', ')}; ` +
        `total ${total.toFixed(0)} ms for ${timings.length} layouts`,
    );
  });

  test('holds the 82 layouts of the README: 10 GNOME maps and 72 KMahjongg files', () => {
    expect([...corpus.keys()].sort()).toEqual(EXPECTED.map(([key]) => key).sort());
  });

  test.each(EXPECTED)('%s (%s, %s) has %i tiles, %s per layer, extent %s', (key, name, format, tiles, layers, size) => {
    const { layout, warnings, version } = corpus.get(key)!;
    expect(layout.name).toBe(name);
    if (format !== 'gnome') expect(version).toBe(`kmahjongg-layout-${format}`);
    expect(layout.slots).toHaveLength(tiles);
    expect(perLayer(layout)).toBe(layers);
    const geom = geometryOf(layout);
    expect(geom.ok && `${geom.value.extent.width}×${geom.value.extent.height}`).toBe(size);
    // The grid's neighbour lists are the scan's, in the same order.
    const { above, below, left, right } = makeGeometry(layout.slots);
    expect({ above, below, left, right }).toEqual(scanNeighbours(layout.slots));
    expect(warnings).toHaveLength(QUIRKS[key] ?? 0);
  });

  test('castle and crab warn about their 12/32 block at column 16, row 2', () => {
    expect(corpus.get('crab')!.warnings).toEqual([
      'line 44, column 16: the tile at (15, 2, 2) is drawn 12/32 instead of 12/43; read as a tile',
    ]);
    expect(corpus.get('castle')!.warnings.map((w) => w.replace(/^line \d+, /, ''))).toEqual([
      'column 16: the tile at (15, 2, 2) is drawn 12/32 instead of 12/43; read as a tile',
      'column 16: the tile at (15, 2, 3) is drawn 12/32 instead of 12/43; read as a tile',
    ]);
  });

  test('KMahjongg default.layout is GNOME Turtle one half tile further right', () => {
    const key = (s: { x: number; y: number; z: number }) => `${s.x},${s.y},${s.z}`;
    const turtle = corpus.get('gnome:Turtle')!.layout.slots.map((s) => key({ ...s, x: s.x + 1 }));
    const kde = corpus.get('default')!.layout.slots.map(key);
    expect(new Set(kde)).toEqual(new Set(turtle));
    expect(kde).toEqual(turtle); // same canonical order too: a shift in x keeps the sort
  });

  test.each(EXPECTED.map(([key, , , tiles]) => [key, tiles] as const))('%s deals (relaxed)', (key, tiles) => {
    const { layout } = corpus.get(key)!;
    const started = performance.now();
    const result = deal(layout, 'corpus', 'relaxed');
    timings.push([key, performance.now() - started]);
    if (!result.ok) throw new Error(`${key} did not deal: ${result.error}: ${result.message}`);
    const { tiles: dealt, solution } = result.value.deal;
    expect(dealt).toHaveLength(tiles);
    expect(dealt.map(({ x, y, z }) => ({ x, y, z }))).toEqual(layout.slots);
    expect(new Set(solution.flat()).size).toBe(tiles); // the solution takes every tile once
    const counts = new Map<string, number>();
    for (const t of dealt) counts.set(t.face, (counts.get(t.face) ?? 0) + 1);
    const most = Math.max(...counts.values());
    if (tiles > 144)
      expect(most).toBeGreaterThan(4); // a larger layout repeats the set
    else expect(most).toBeLessThanOrEqual(4);
  });
});

/**
 * Classic deals on the corpus: one seed per layout, so the suite stays fast; `npm run bench -- --only c`
 * deals up to 100 per layout. Every clearable layout deals, as a shuffle the solver proved or, on the layouts
 * where winnable shuffles are rare or the solver is slow, as a mended one; either way its solution replays.
 */
describe.skipIf(!present)('layout corpus, classic deals', () => {
  const corpus = present ? loadCorpus() : new Map<string, Loaded>();
  const mended: string[] = [];
  afterAll(() => console.info(`classic deals mended (faces traded): ${mended.join(', ') || 'none'}`));

  test.each(EXPECTED.map(([key]) => key))('%s deals classic', (key) => {
    const result = deal(corpus.get(key)!.layout, 'corpus', 'classic');
    if (!result.ok) throw new Error(`${key} did not deal classic: ${result.message}`);
    const { deal: dealt, stats } = result.value;
    if (stats.trades > 0) mended.push(`${key} ${stats.trades}`);
    expect(replayDeal(dealt)).toBeNull();
  });
});

describe('the project', () => {
  test('holds no copy of the corpus: no .layout or mahjongg.map file', () => {
    const found: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.name === 'node_modules' || entry.name === '.git') continue;
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name.endsWith('.layout') || entry.name === 'mahjongg.map')
          found.push(path.relative(PROJECT, full));
      }
    };
    walk(PROJECT);
    expect(found).toEqual([]);
  });
});
