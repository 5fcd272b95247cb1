/**
 * The command line (README.md, "Command line"; docs/contracts.md, "Command line"). Most cases run the
 * command in this process through src/cli/run.ts, with strings for stdout, stderr and stdin; a few run the
 * real entry as a user does (a child process `node dist/cli/main.js ...`, the build, in the project root),
 * which proves the arguments, streams, stdin and exit status are wired to run(). Happy paths check the
 * output shapes; a table of bad inputs checks exit status 2 with exactly one line on stderr and no stack
 * trace.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { FACES, deal, type Face, type Pair } from '../../src/engine/index.ts';
import { LAYOUTS, layoutById } from '../../src/engine/builtins.ts';
import { naiveReplay } from '../engine/helpers.ts';
import { corpusDir } from '../../src/cli/corpus.ts';
import { runCli, runInProcess, type Run } from './run.ts';

const CORPUS = corpusDir();

/** Runs the CLI with `args` in this process. */
const cli = (...args: string[]): Promise<Run> => runInProcess(args);

/** Parses stdout, which must be exactly one line of JSON. */
function json(run: Run): unknown {
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(run.stdout.endsWith('\n')).toBe(true);
  expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
  return JSON.parse(run.stdout);
}

// Fixture files, written once into a temporary folder.
const DIR = mkdtempSync(path.join(tmpdir(), 'mahjong-cli-'));
const file = (name: string, text: string): string => {
  const full = path.join(DIR, name);
  writeFileSync(full, text);
  return full;
};
const ROW_LAYOUT = file('row.layout', 'kmahjongg-layout-v1.1\nw8\nh2\nd1\n12121212\n43434343\n'); // four tiles in a row
const TWO_MAPS = file(
  'two.map',
  `<mahjongg>
  <map name="Little Row" scorename="littlerow"><row y="0" left="0" right="3"/></map>
  <map name="Two Rows" scorename="tworows"><row y="0" left="0" right="3"/><row y="1" left="0" right="3"/></map>
</mahjongg>
`,
);
const GARBAGE_LAYOUT = file('garbage.layout', 'this is not a layout\n');
const BROKEN_MAP = file('broken.map', '<mahjongg><map name="x"><row y="0" left="0"/></map></mahjongg>\n');
const ODD_LAYOUT = file('odd.layout', 'kmahjongg-layout-v1.1\nw6\nh2\nd1\n121212\n434343\n');
const TOWER_LAYOUT = file('tower.layout', 'kmahjongg-layout-v1.1\nw2\nh2\nd2\n12\n43\n12\n43\n'); // one tile on another
const UNKNOWN_FORMAT = file('notes.txt', 'hello\n');

afterAll(() => rmSync(DIR, { recursive: true, force: true }));

// ---------------------------------------------------------------------------
// An independent check of a solution: the rules of docs/contracts.md by scanning every tile.

interface Tile {
  x: number;
  y: number;
  z: number;
  face: string;
}

/** Replays a solution under the naive rules of test/engine/helpers.ts; null when it clears the board. */
const replay = (tiles: readonly Tile[], solution: readonly (readonly number[])[]): string | null =>
  naiveReplay(
    tiles,
    tiles.map((t) => t.face as Face),
    solution as readonly Pair[],
  );

// ---------------------------------------------------------------------------

describe('layouts', () => {
  test('lists the built-ins as {id, name, tiles, family}, turtle with 144', async () => {
    const list = json(await cli('layouts')) as { id: string; name: string; tiles: number; family: string }[];
    expect(list.length).toBeGreaterThanOrEqual(12);
    for (const entry of list) expect(Object.keys(entry)).toEqual(['id', 'name', 'tiles', 'family']);
    expect(list.find((l) => l.id === 'turtle')).toEqual({
      id: 'turtle',
      name: 'Turtle',
      tiles: 144,
      family: 'classic',
    });
    expect(list.filter((l) => l.family === 'portrait').length).toBeGreaterThanOrEqual(12);
    expect(new Set(list.map((l) => l.id)).size).toBe(list.length);
  });
});

describe('deal', () => {
  test('prints the deal JSON of docs/contracts.md, the same for the same seed', async () => {
    const [first, again, other] = await Promise.all([
      cli('deal', '--layout', 'turtle', '--seed', 'k3v9x2'),
      cli('deal', '--seed', 'k3v9x2', '--layout=turtle'),
      cli('deal', '--layout', 'turtle', '--seed', 'other'),
    ]);
    const deal = json(first) as { tiles: Tile[]; solution: number[][] } & Record<string, unknown>;
    expect(Object.keys(deal)).toEqual(['layout', 'seed', 'mode', 'generator', 'difficulty', 'tiles', 'solution']);
    expect(deal).toMatchObject({ layout: 'turtle', seed: 'k3v9x2', mode: 'relaxed', generator: expect.any(String) });
    expect(deal.difficulty).toEqual({
      band: expect.stringMatching(/^(easy|medium|hard|expert)$/),
      score: expect.any(Number),
    });
    expect(deal.tiles).toHaveLength(144);
    for (const t of deal.tiles) {
      expect(Object.keys(t)).toEqual(['x', 'y', 'z', 'face']);
      expect(FACES).toContain(t.face);
    }
    expect(deal.solution).toHaveLength(72);
    expect(replay(deal.tiles, deal.solution)).toBeNull();
    expect(again.stdout).toBe(first.stdout);
    expect(json(other)).not.toEqual(deal);
  });

  test('--mode classic deals a winnable board whose solution replays', async () => {
    const deal = json(await cli('deal', '--layout', 'garden', '--seed', 'c1', '--mode', 'classic')) as {
      mode: string;
      tiles: Tile[];
      solution: number[][];
    };
    expect(deal.mode).toBe('classic');
    expect(replay(deal.tiles, deal.solution)).toBeNull();
  });

  test('--layout-file reads a KMahjongg .layout (named after the file)', async () => {
    const deal = json(await cli('deal', '--layout-file', ROW_LAYOUT, '--seed', 's')) as {
      layout: string;
      tiles: Tile[];
      solution: number[][];
    };
    expect(deal.layout).toBe('row');
    expect(deal.tiles.map(({ x, y, z }) => [x, y, z])).toEqual([
      [0, 0, 0],
      [2, 0, 0],
      [4, 0, 0],
      [6, 0, 0],
    ]);
    expect(replay(deal.tiles, deal.solution)).toBeNull();
  });

  test('--layout-file reads a GNOME .map: the first map, or the one --name picks by name or id', async () => {
    const [first, byName, byId] = await Promise.all([
      cli('deal', '--layout-file', TWO_MAPS, '--seed', 's'),
      cli('deal', '--layout-file', TWO_MAPS, '--name', 'Two Rows', '--seed', 's'),
      cli('deal', '--layout-file', TWO_MAPS, '--name', 'tworows', '--seed', 's'),
    ]);
    expect((json(first) as { tiles: Tile[] }).tiles).toHaveLength(4);
    const two = json(byName) as { layout: string; tiles: Tile[]; solution: number[][] };
    expect(two.layout).toBe('tworows');
    expect(two.tiles).toHaveLength(8);
    expect(replay(two.tiles, two.solution)).toBeNull();
    expect(byId.stdout).toBe(byName.stdout);
  });

  test.skipIf(!existsSync(path.join(CORPUS, 'kmahjongg/default.layout')))(
    'reads the corpus: KMahjongg default.layout and GNOME Taipei',
    async () => {
      const [kde, taipei] = await Promise.all([
        cli('deal', '--layout-file', path.join(CORPUS, 'kmahjongg/default.layout'), '--seed', 'corpus'),
        cli('deal', '--layout-file', path.join(CORPUS, 'gnome/mahjongg.map'), '--name', 'Taipei', '--seed', 'corpus'),
      ]);
      for (const run of [kde, taipei]) {
        const deal = json(run) as { tiles: Tile[]; solution: number[][] };
        expect(deal.tiles).toHaveLength(144);
        expect(replay(deal.tiles, deal.solution)).toBeNull();
      }
    },
  );
});

describe('solve', () => {
  test('solves our deal: solvable, with the deal as tiles and a solution that replays', async () => {
    const [solved, dealt] = await Promise.all([
      cli('solve', '--layout', 'turtle', '--seed', 'k3v9x2'),
      cli('deal', '--layout', 'turtle', '--seed', 'k3v9x2'),
    ]);
    const out = json(solved) as { result: string; nodes: number; ms: number; tiles: Tile[]; solution: number[][] };
    expect(Object.keys(out)).toEqual(['result', 'nodes', 'ms', 'tiles', 'solution']);
    expect(out.result).toBe('solvable');
    expect(out.nodes).toBeGreaterThanOrEqual(0);
    expect(out.ms).toBeGreaterThanOrEqual(0);
    expect(out.tiles).toEqual((json(dealt) as { tiles: Tile[] }).tiles);
    expect(replay(out.tiles, out.solution)).toBeNull();
  });

  test('--mode classic solves our classic deal of the seed, as deal --mode classic gives it', async () => {
    const [solved, dealt] = await Promise.all([
      cli('solve', '--layout', 'garden', '--seed', 'c1', '--mode', 'classic'),
      cli('deal', '--layout', 'garden', '--seed', 'c1', '--mode', 'classic'),
    ]);
    const out = json(solved) as { result: string; tiles: Tile[]; solution: number[][] };
    expect(out.result).toBe('solvable');
    expect(out.tiles).toEqual((json(dealt) as { tiles: Tile[] }).tiles);
    expect(replay(out.tiles, out.solution)).toBeNull();
  });

  test('--random solves a naive shuffle of the same faces, the same for the same seed', async () => {
    const [a, b, ours] = await Promise.all([
      cli('solve', '--layout', 'garden', '--seed', 'r1', '--random'),
      cli('solve', '--layout', 'garden', '--seed', 'r1', '--random', '--budget', '100000'),
      cli('deal', '--layout', 'garden', '--seed', 'r1'),
    ]);
    const out = json(a) as { result: string; tiles: Tile[]; solution?: number[][] };
    expect(['solvable', 'unsolvable', 'unresolved']).toContain(out.result);
    expect((json(b) as { tiles: Tile[] }).tiles).toEqual(out.tiles);
    const deal = json(ours) as { tiles: Tile[] };
    const faces = (tiles: Tile[]) => tiles.map((t) => t.face).sort();
    expect(faces(out.tiles)).toEqual(faces(deal.tiles));
    expect(out.tiles.map((t) => t.face)).not.toEqual(deal.tiles.map((t) => t.face));
    if (out.result === 'solvable') expect(replay(out.tiles, out.solution!)).toBeNull();
    else expect(out.solution).toBeUndefined();
  });

  test('a tiny budget leaves a naive turtle deal unresolved, without a solution', async () => {
    const out = json(await cli('solve', '--layout', 'turtle', '--seed', 'tiny', '--random', '--budget', '1')) as {
      result: string;
      solution?: unknown;
    };
    expect(out.result).not.toBe('solvable');
    expect(out.solution).toBeUndefined();
  });
});

describe('solve --stdin', () => {
  test('answers one JSON line per seed line, warm in one process: the same answers as one seed at a time', async () => {
    const seeds = ['study-1', 'study-27', '', '  study-2  ', 'study-1'];
    const [run, single] = await Promise.all([
      runInProcess(['solve', '--layout', 'turtle', '--random', '--stdin'], { input: `${seeds.join('\n')}\r\n` }),
      cli('solve', '--layout', 'turtle', '--random', '--seed', 'study-27'),
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const lines = run.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.seed)).toEqual(['study-1', 'study-27', 'study-2', 'study-1']); // blank lines skipped
    for (const l of lines) {
      expect(Object.keys(l)).toEqual(['seed', 'result', 'nodes', 'ms', 'cpu_ms']);
      expect(l.ms).toBeGreaterThanOrEqual(0);
      expect(l.cpu_ms).toBeGreaterThanOrEqual(0);
    }
    expect(lines[3]).toMatchObject({ result: lines[0]!.result, nodes: lines[0]!.nodes }); // deterministic
    const one = json(single) as { result: string; nodes: number };
    expect(lines[1]).toMatchObject({ result: one.result, nodes: one.nodes });
  });

  test('--tiles adds the deal solved; our classic deal without --random', async () => {
    const [run, dealt] = await Promise.all([
      runInProcess(['solve', '--layout', 'garden', '--mode', 'classic', '--stdin', '--tiles'], { input: 'c1\n' }),
      cli('deal', '--layout', 'garden', '--seed', 'c1', '--mode', 'classic'),
    ]);
    const out = json(run) as { seed: string; result: string; tiles: Tile[] };
    expect(out).toMatchObject({ seed: 'c1', result: 'solvable' });
    expect(out.tiles).toEqual((json(dealt) as { tiles: Tile[] }).tiles);
  });

  test('a line that is not a seed stops the run: exit 2, one line on stderr naming it, earlier answers stand', async () => {
    const run = await runInProcess(['solve', '--layout', 'garden', '--random', '--stdin'], {
      input: 'ok-1\nnot a seed!\nok-2\n',
    });
    expect(run.status).toBe(2);
    expect(
      run.stdout
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { seed: string }).seed),
    ).toEqual(['ok-1']);
    expect(run.stderr).toMatch(/^mahjong: solve --stdin: line 2: bad seed "not a seed!"[^\n]*\n$/);
  });
});

describe('bench', () => {
  test('prints deal timings, attempts and failures', async () => {
    const out = json(await cli('bench', '--layout', 'garden', '--count', '5')) as Record<string, number>;
    expect(Object.keys(out)).toEqual([
      'deals',
      'p50_ms',
      'p99_ms',
      'max_ms',
      'mean_attempts',
      'max_attempts',
      'failures',
    ]);
    expect(out).toMatchObject({ deals: 5, mean_attempts: 1, max_attempts: 1, failures: 0 });
    expect(out.p50_ms).toBeLessThanOrEqual(out.p99_ms!);
    expect(out.p99_ms).toBeLessThanOrEqual(out.max_ms!);
  });

  test('classic mode from a layout file', async () => {
    const out = json(
      await cli('bench', '--layout-file', TWO_MAPS, '--name', 'tworows', '--mode', 'classic', '--count', '3'),
    );
    expect(out).toMatchObject({ deals: 3, failures: 0 });
  });
});

describe('study', () => {
  const KEYS = [
    'source', 'layout', 'name', 'tiles', 'deals', 'budget',
    'naive_solvable', 'naive_unsolvable', 'naive_unresolved',
    'naive_random_clear', 'naive_random_stuck', 'relaxed_random_clear', 'classic_random_clear',
    'classic_mean_attempts', 'classic_max_attempts', 'classic_mended', 'relaxed_failures', 'classic_failures',
    'bot_naive_0', 'bot_naive_3', 'bot_naive_unlimited', 'bot_relaxed_0', 'bot_relaxed_3', 'bot_relaxed_unlimited',
    'bot_classic_0', 'bot_classic_3', 'bot_classic_unlimited',
    'solver_mean_ms', 'solver_max_ms', 'error',
  ]; // prettier-ignore

  test('--json: one row for the layout, counts adding up to --deals', async () => {
    const rows = json(await cli('study', '--layout', 'garden', '--deals', '3', '--json')) as Record<string, unknown>[];
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(Object.keys(row)).toEqual(KEYS);
    expect(row).toMatchObject({ source: 'builtin', layout: 'garden', tiles: 40, deals: 3, budget: 200000 });
    expect(Number(row.naive_solvable) + Number(row.naive_unsolvable) + Number(row.naive_unresolved)).toBe(3);
    for (const rate of [
      'relaxed_random_clear',
      'classic_random_clear',
      'classic_mended',
      ...KEYS.filter((k) => k.startsWith('bot_')),
    ])
      expect(row[rate], rate).toSatisfy((v: unknown) => typeof v === 'number' && v >= 0 && v <= 1);
    // More shuffles never clear fewer deals.
    for (const kind of ['naive', 'relaxed', 'classic']) {
      expect(Number(row[`bot_${kind}_0`])).toBeLessThanOrEqual(Number(row[`bot_${kind}_3`]));
      expect(Number(row[`bot_${kind}_3`])).toBeLessThanOrEqual(Number(row[`bot_${kind}_unlimited`]));
    }
    expect(row).toMatchObject({ relaxed_failures: 0, classic_failures: 0, error: '' });
  });

  test('--difficulty: four rows per mode, the bands of the deals dealt, rates measured apart from the score', async () => {
    const [csv, out] = await Promise.all([
      cli('study', '--layout', 'garden', '--difficulty', '--deals', '12'),
      cli('study', '--layout', 'garden', '--difficulty', '--deals', '12', '--json'),
    ]);
    const rows = json(out) as Record<string, unknown>[];
    expect(rows.map((r) => [r.mode, r.band])).toEqual(
      ['relaxed', 'classic'].flatMap((mode) => ['easy', 'medium', 'hard', 'expert'].map((band) => [mode, band])),
    );
    for (const mode of ['relaxed', 'classic']) {
      const of = rows.filter((r) => r.mode === mode);
      expect(of.reduce((n, r) => n + Number(r.deals), 0)).toBe(12);
      for (const r of of.filter((r) => Number(r.deals) > 0)) {
        expect(r.random_q1 as number).toBeLessThanOrEqual(r.random_q3 as number);
        expect(r.bot_mid_low as number).toBeLessThanOrEqual(r.bot_mid_high as number);
        expect(r.error).toBe('');
      }
    }
    // Each band's deals are those the engine deals in that band (what `deal` prints).
    const bands = Array.from({ length: 12 }, (_, k) => {
      const made = deal(layoutById('garden')!, `study-${k + 1}`, 'relaxed');
      return made.ok ? made.value.deal.difficulty.band : 'none';
    });
    for (const band of ['easy', 'medium', 'hard', 'expert'])
      expect(rows.find((r) => r.mode === 'relaxed' && r.band === band)!.deals).toBe(
        bands.filter((b) => b === band).length,
      );
    const [header, ...lines] = csv.stdout.trimEnd().split('\n');
    expect(header!.split(',')).toEqual(Object.keys(rows[0]!));
    expect(lines).toHaveLength(8);
  });

  test('--all: every built-in layout, then the corpus in MAHJONG_LAYOUTS_DIR (GNOME maps first)', async () => {
    const corpus = path.join(DIR, 'corpus');
    mkdirSync(path.join(corpus, 'kmahjongg'), { recursive: true });
    mkdirSync(path.join(corpus, 'gnome'), { recursive: true });
    copyFileSync(ROW_LAYOUT, path.join(corpus, 'kmahjongg', 'row.layout'));
    copyFileSync(TWO_MAPS, path.join(corpus, 'gnome', 'two.map'));
    const run = await runInProcess(['study', '--all', '--deals', '1', '--budget', '100', '--json'], {
      env: { MAHJONG_LAYOUTS_DIR: corpus },
    });
    const rows = json(run) as { source: string; layout: string; tiles: number }[];
    expect(rows.slice(0, LAYOUTS.length).map((r) => r.layout)).toEqual(LAYOUTS.map((l) => l.id));
    expect(rows.slice(LAYOUTS.length).map(({ source, layout, tiles }) => [source, layout, tiles])).toEqual([
      ['gnome', 'littlerow', 4],
      ['gnome', 'tworows', 8],
      ['kmahjongg', 'row', 4],
    ]);
  });

  test('CSV by default: a header row and one row per layout; the same seed gives the same counts', async () => {
    const [a, b] = await Promise.all([
      cli('study', '--layout', 'garden', '--deals', '2', '--budget', '50000', '--seed', 'x'),
      cli('study', '--layout', 'garden', '--deals', '2', '--budget', '50000', '--seed', 'x', '--json'),
    ]);
    expect(a.status).toBe(0);
    expect(a.stderr).toBe(''); // no progress when stderr is not a terminal
    const [header, line, ...rest] = a.stdout.trimEnd().split('\n');
    expect(rest).toEqual([]);
    expect(header!.split(',')).toEqual(KEYS);
    const cells = line!.split(',');
    const row = (json(b) as Record<string, unknown>[])[0]!;
    for (const key of [
      'layout',
      'tiles',
      'deals',
      'budget',
      'naive_solvable',
      'naive_random_clear',
      'relaxed_random_clear',
    ])
      expect(cells[KEYS.indexOf(key)]).toBe(String(row[key] ?? ''));
  });
});

test('help prints the usage on stdout', async () => {
  const run = await cli('--help');
  expect(run.status).toBe(0);
  expect(run.stdout).toMatch(/^Usage: .*mahjong/);
  expect(run.stderr).toBe('');
});

// ---------------------------------------------------------------------------

const BAD_INPUTS: readonly (readonly [string, readonly string[], RegExp])[] = [
  ['no command', [], /missing command/],
  ['unknown command', ['frobnicate'], /unknown command "frobnicate"/],
  ['layouts with an argument', ['layouts', 'extra'], /unexpected argument "extra"/],
  ['layouts with a flag', ['layouts', '--all'], /unknown flag "--all"/],
  ['missing layout', ['deal', '--seed', 'abc'], /needs --layout or --layout-file/],
  ['both layout flags', ['deal', '--layout', 'turtle', '--layout-file', ROW_LAYOUT, '--seed', 'a'], /not both/],
  ['missing seed', ['deal', '--layout', 'turtle'], /needs --seed/],
  ['seed without a value', ['deal', '--layout', 'turtle', '--seed'], /--seed needs a value/],
  ['seed followed by a flag', ['deal', '--seed', '--layout', 'turtle'], /--seed needs a value/],
  ['duplicate flag', ['deal', '--layout', 'turtle', '--seed', 'a', '--seed', 'b'], /--seed is given twice/],
  ['unknown flag', ['deal', '--layout', 'turtle', '--seed', 'a', '--colour', 'red'], /unknown flag "--colour"/],
  ['single-dash flag', ['deal', '-l', 'turtle', '--seed', 'a'], /unknown flag "-l"/],
  ['bad seed characters', ['deal', '--layout', 'turtle', '--seed', 'bad seed!'], /bad --seed/],
  ['seed too long', ['deal', '--layout', 'turtle', '--seed', 'x'.repeat(33)], /bad --seed/],
  ['unknown layout', ['deal', '--layout', 'nope', '--seed', 'a'], /unknown layout "nope"; built-in layouts: turtle/],
  ['bad mode', ['deal', '--layout', 'turtle', '--seed', 'a', '--mode', 'hard'], /bad --mode "hard"/],
  [
    '--name with --layout',
    ['deal', '--layout', 'turtle', '--name', 'x', '--seed', 'a'],
    /--name goes with --layout-file/,
  ],
  ['budget not a number', ['solve', '--layout', 'turtle', '--seed', 'a', '--budget', 'lots'], /bad --budget "lots"/],
  ['budget zero', ['solve', '--layout', 'turtle', '--seed', 'a', '--budget', '0'], /bad --budget "0"/],
  ['budget negative', ['solve', '--layout', 'turtle', '--seed', 'a', '--budget', '-5'], /bad --budget "-5"/],
  ['switch with a value', ['solve', '--layout', 'turtle', '--seed', 'a', '--random=yes'], /--random takes no value/],
  ['solve bad mode', ['solve', '--layout', 'turtle', '--seed', 'a', '--mode', 'hard'], /bad --mode "hard"/],
  [
    'solve --random with --mode',
    ['solve', '--layout', 'turtle', '--seed', 'a', '--random', '--mode', 'classic'],
    /--random .* no --mode/,
  ],
  ['solve --stdin with --seed', ['solve', '--layout', 'turtle', '--random', '--stdin', '--seed', 'a'], /not both/],
  ['solve --tiles without --stdin', ['solve', '--layout', 'turtle', '--random', '--seed', 'a', '--tiles'], /--stdin/],
  ['solve --stdin with a value', ['solve', '--layout', 'turtle', '--stdin=yes'], /--stdin takes no value/],
  ['solve --stdin without a layout', ['solve', '--random', '--stdin'], /needs --layout or --layout-file/],
  ['count a fraction', ['bench', '--layout', 'turtle', '--count', '1.5'], /bad --count "1.5"/],
  ['count huge', ['bench', '--layout', 'turtle', '--count', '99999999999'], /bad --count/],
  ['bench bad mode', ['bench', '--layout', 'garden', '--mode', 'easy'], /bad --mode/],
  ['study with --layout and --all', ['study', '--layout', 'turtle', '--all'], /not both/],
  ['study with neither', ['study'], /needs --layout or --all/],
  ['study deals zero', ['study', '--layout', 'garden', '--deals', '0'], /bad --deals "0"/],
  [
    'study --difficulty with --budget',
    ['study', '--layout', 'garden', '--difficulty', '--budget', '5'],
    /no solver budget/,
  ],
  ['study --difficulty=yes', ['study', '--layout', 'garden', '--difficulty=yes'], /--difficulty takes no value/],
  ['study --layout-file', ['study', '--layout-file', ROW_LAYOUT], /unknown flag "--layout-file"/],
  ['study seed too long for its deals', ['study', '--layout', 'garden', '--seed', 'x'.repeat(31)], /fit in 32/],
  ['missing file', ['deal', '--layout-file', path.join(DIR, 'missing.layout'), '--seed', 'a'], /no such file/],
  ['a directory', ['deal', '--layout-file', DIR, '--seed', 'a'], /is a directory/],
  ['garbage .layout', ['deal', '--layout-file', GARBAGE_LAYOUT, '--seed', 'a'], /garbage\.layout: line 1/],
  ['broken .map', ['solve', '--layout-file', BROKEN_MAP, '--seed', 'a'], /broken\.map: line 1/],
  ['unknown format', ['bench', '--layout-file', UNKNOWN_FORMAT], /unknown layout format/],
  [
    'map name not found',
    ['deal', '--layout-file', TWO_MAPS, '--name', 'Nope', '--seed', 'a'],
    /no map named "Nope"; maps: Little Row/,
  ],
  ['--name on a .layout', ['deal', '--layout-file', ROW_LAYOUT, '--name', 'x', '--seed', 'a'], /--name picks a map/],
  ['odd tile count', ['deal', '--layout-file', ODD_LAYOUT, '--seed', 'a'], /3 tiles/],
  ['unclearable layout', ['deal', '--layout-file', TOWER_LAYOUT, '--seed', 'a'], /cannot be cleared/],
];

describe.concurrent('bad input: exit 2 and one line on stderr', () => {
  test.each(BAD_INPUTS)('%s', async (_, args, message) => {
    const run = await cli(...args);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.endsWith('\n')).toBe(true);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^mahjong: /);
    expect(lines[0]).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at |Error:/); // no stack trace
  });
});

// ---------------------------------------------------------------------------
// The real entry, as a user runs it: what run() answers reaches the process's streams and exit status.

describe('the entry, built (dist/cli/main.js), in a child process', () => {
  test('a command: its JSON on stdout, nothing on stderr, exit 0; the same as in process', async () => {
    const [spawned, inProcess] = await Promise.all([
      runCli(['deal', '--layout', 'garden', '--seed', 'entry']),
      cli('deal', '--layout', 'garden', '--seed', 'entry'),
    ]);
    expect(json(spawned)).toEqual(json(inProcess));
    expect(spawned.stdout).toBe(inProcess.stdout);
  });

  test('bad input: exit 2, one line on stderr, nothing on stdout', async () => {
    const run = await runCli(['deal', '--layout', 'nope', '--seed', 'a']);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^mahjong: unknown layout "nope"[^\n]*\n$/);
  });

  test('stdin: solve --stdin answers each line until stdin closes, then exits 0', async () => {
    const run = await runCli(['solve', '--layout', 'garden', '--random', '--stdin'], { input: 'e-1\r\ne-2\n' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const seeds = run.stdout
      .trimEnd()
      .split('\n')
      .map((l) => (JSON.parse(l) as { seed: string }).seed);
    expect(seeds).toEqual(['e-1', 'e-2']);
  });

  test('stdin: a bad line stops solve --stdin with status 2 at once, also while its stdin stays open', async () => {
    const run = await runCli(['solve', '--layout', 'garden', '--random', '--stdin'], {
      input: 'e-1\nup&down-1\ne-2\n',
      keepOpen: true, // a driver that keeps its pipe open: the process must not wait for more lines
    });
    expect(run.status).toBe(2);
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(1); // the answer to the line before it
    expect(run.stderr).toMatch(/^mahjong: solve --stdin: line 2: bad seed "up&down-1"[^\n]*\n$/);
  });

  test('help: the usage on stdout, exit 0', async () => {
    const run = await runCli(['--help']);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Usage: .*mahjong/);
    expect(run.stderr).toBe('');
  });
});
