/**
 * Our solver beside Michiel de Bondt's C++ solver (`npm run bench:native`), the yardstick of the
 * solver issue: the same uniform turtle shuffles (`study-1 … study-N`, as `solve --random --seed
 * study-k`; `--prefix P` for `P-1 … P-N`, seeds the solver was not tuned on), each solver a warm, long-lived
 * process handed the same deal in turn, the order alternating deal by deal, so that changes of the machine's load
 * hit both alike. Neither solver runs while the other one does. Both are warmed up on the same deals until ours
 * has spent 200,000 nodes (`--warm W`: at most W deals, default 5,000), as in `--all` below.
 *
 * - Ours: `mahjong solve --layout turtle --random --stdin` (the CLI contract for benchmarks), as it ships: the
 *   command line compiled by `tsc -p src/cli` into dist/ (what `npm install` builds; compiled first, so the
 *   figures are of the sources as they are) and run by node. (Run from source through tsx, whose transform wraps
 *   every closure it makes, the same solver measured about 25% slower per deal.)
 * - The reference: its own harness (`mjbench -`, one deal a line on stdin, one JSON line out), built
 *   with its build.sh (g++ -O2) in a temporary copy of its folder, `--debondt DIR` or `DEBONDT_DIR`
 *   (default `../shared/peers/debondt`, beside the checkout). Without that folder or without g++ the
 *   bench says so and stops (status 0): the reference is a yardstick, not a part of the project, and
 *   none of its code is copied here.
 *
 * Prints the ratio table (settled, mean, p50, p90, p99, max, CPU mean and p50, per-deal geometric mean
 * ratio, deals where we are faster) and the goals, met or not; then checks every answer: each of our
 * solutions replays under the tests' plain rules (solved again in this process, outside the timings,
 * which also checks that the answer and node count are the same), and each "unsolvable" agrees with
 * the reference. Then one JSON line with every figure.
 *
 * `--all`: the same race on every layout of 144 tiles, our built-ins and the corpus (MAHJONG_LAYOUTS_DIR, default
 * `../shared/layouts`): `--deals N` uniform shuffles of each (seeds `wide-F … wide-(F+N−1)`, `--first F`, default 1001:
 * outside the study seeds the solver was tuned on), `--warm W` warm-up deals per layout at most, default 5,000, fewer
 * once they spent 200,000 nodes (our process is started anew for each layout and warmed up on it, until V8 has
 * optimized every part of the solver; the reference, compiled ahead of time, once). Each deal is timed once on each
 * side: handed the same deal again straight after, the reference keeps what it learned (spire's wide-1183 took it 21.7
 * ms, then 0.1 ms; spider's wide-1105 125 ms, then 1.3 ms), so a best of several timings would not be of the same work
 * on both sides. Prints a table per layout (sorted by geometric mean, the worst first; also of CPU time), the same
 * figures over every deal, and the every-layout goals (per-deal geometric mean ≤ 0.8 and max ≤ 1.0 of the reference on
 * every layout), naming the deals that set a max over it; then the same answer checks, and one JSON line. The
 * reference's own solutions are replayed under the plain rules too: a layout where one breaks them (a tile covered only
 * from two layers up, which its geometry does not see: GNOME's overpass) is marked `*`, named with the first such deal,
 * and left out of the layout goals, as the reference solved another game there.
 *
 *   npm run bench:native [-- --deals 1000] [--prefix study] [--warm 5000] [--budget 200000] [--debondt DIR]
 *   npm run bench:native -- --all [--deals 20] [--first 1001] [--warm 5000] [--only garden,mesh]
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { layoutById } from '../src/engine/builtins.ts';
import {
  fullPresence,
  geometryOf,
  matchGroup,
  solve,
  SEED_PATTERN,
  SOLVE_BUDGET,
  type Layout,
  type Pair,
} from '../src/engine/index.ts';
import { parseFlags, UsageError, type Flags } from '../src/cli/args.ts';
import { corpusDir } from '../src/cli/corpus.ts';
import { layoutsOf144 } from './layouts144.ts';
import { parseGnomeMaps } from '../src/formats/gnome.ts';
import { mean, percentile, round } from '../src/cli/measure.ts';
import { naiveFaces } from '../src/engine/naive.ts';
import { naiveReplay } from '../test/engine/helpers.ts'; // the tests' plain rules
import { compileCli, ROOT } from './built.ts';

const DEFAULT_DEBONDT = '../shared/peers/debondt'; // relative to the working directory
const CAP_MS = 600_000; // the reference gives up on a deal after this (never reached on turtle shuffles)

// The solver issues' goals on the turtle, as ratios ours / de Bondt in the same run: the mean from the first; the
// geometric mean and p50 from the every-layout goals (the first asked for 1.0 of each); the max from both.
const GOALS = { geomean: 0.8, mean: 0.8, p50: 0.8, max: 1.0 };

// Warm-up for our process: deals of the layout until they have spent WARM_NODES nodes, at most WARM_DEALS of them. V8
// runs the solver in its baseline tiers until it has run enough of it: solved one after another in one process,
// arrow's shuffles take 97, 39, 16, 16, 14, 12 … µs at the median per block of 50, and a layout whose shuffles are
// rejected at the root has not run the search at all (its first search, tens of milliseconds, was the max). Counted
// in deals alone, the warm-up missed the search on layouts whose shuffles the playouts clear: after 500 deals and
// 40,000 nodes, pyramid's hardest deal (wide-1169, 2,132 nodes) took 17.5–22.8 ms the first time, its CPU time over
// its wall-clock time (V8 was still compiling), and 9.9–10.2 ms solved again; after 60,000 nodes, 13.7–15.2 ms; after
// 200,000, 9.2–9.6 ms (spire's hardest, wide-1183: 15.5–15.9, 13.0–13.3 and 12.5–13.3 ms).
const WARM_DEALS = 5_000;
// On layouts whose shuffles need the search, a few deals have run all of the solver many times over (500 of GNOME's
// cloud took four minutes at load 22).
const WARM_NODES = 200_000;

/**
 * Hands our process (and the reference, when given) the deals `warm-1 …` of `layout` until ours has spent
 * WARM_NODES nodes, at most `most` deals.
 */
async function warmUp(ours: LineProcess, native: LineProcess | null, layout: Layout, most: number): Promise<void> {
  let nodes = 0;
  for (let k = 1; k <= most && nodes < WARM_NODES; k++) {
    nodes += parseOurs(await ours.ask(`warm-${k}`)).work;
    if (native) await native.ask(referenceLine(layout, `warm-${k}`));
  }
}

/** A child process that answers one line per line it is given. */
class LineProcess {
  private readonly lines: Interface;
  private readonly waiting: ((line: string) => void)[] = [];
  private readonly ready: string[] = [];
  private stderr = '';

  constructor(
    readonly name: string,
    private readonly child: ChildProcessWithoutNullStreams,
  ) {
    this.lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
    this.lines.on('line', (line) => {
      const next = this.waiting.shift();
      if (next) next(line);
      else this.ready.push(line);
    });
    child.stderr.on('data', (d: Buffer) => (this.stderr += d.toString()));
  }

  /** Writes one line and resolves with the answer line. */
  ask(line: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const early = this.ready.shift();
      if (early !== undefined) return resolve(early);
      const onExit = (code: number | null) =>
        reject(new Error(`${this.name} stopped (status ${code}): ${this.stderr.trim().split('\n').pop() ?? ''}`));
      this.child.once('exit', onExit);
      this.waiting.push((answer) => {
        this.child.off('exit', onExit);
        resolve(answer);
      });
      this.child.stdin.write(`${line}\n`);
    });
  }

  close(): void {
    this.child.stdin.end();
    this.lines.close();
  }
}

interface Answer {
  readonly result: string; // solvable | unsolvable | unresolved
  readonly ms: number; // wall-clock time of the solve, as the solver measured it
  readonly cpu: number; // process CPU time of the solve
  readonly work: number; // ours: nodes; the reference: prunes
  readonly order?: readonly number[]; // the reference's solution, slot by slot in play order (two a move)
}

/** One deal line of the reference's input: the seed, then per slot `x y z g` (g: match group 0 … 35). */
function referenceLine(layout: Layout, seed: string): string {
  const faces = naiveFaces(layout, seed);
  const ids = new Map<string, number>();
  const parts = [seed];
  layout.slots.forEach((s, i) => {
    const g = matchGroup(faces[i]!);
    if (!ids.has(g)) ids.set(g, ids.size);
    parts.push(`${s.x} ${s.y} ${s.z} ${ids.get(g)!}`);
  });
  return parts.join(' ');
}

/** Builds the reference in a temporary copy of its folder; the path of its harness, or why not. */
function buildReference(dir: string): { bin: string; tmp: string } | { skip: string } {
  if (!existsSync(path.join(dir, 'build.sh')))
    return { skip: `no de Bondt solver at ${dir} (give --debondt DIR or DEBONDT_DIR)` };
  if (spawnSync('g++', ['--version']).status !== 0) return { skip: 'no g++ to build the de Bondt solver with' };
  const tmp = mkdtempSync(path.join(tmpdir(), 'mahjong-debondt-'));
  cpSync(dir, path.join(tmp, 'debondt'), { recursive: true });
  const built = spawnSync('sh', [path.join(tmp, 'debondt', 'build.sh')], { encoding: 'utf8' });
  if (built.status !== 0) {
    rmSync(tmp, { recursive: true, force: true });
    return { skip: `the de Bondt solver did not build: ${(built.stderr || built.stdout).trim().split('\n').pop()}` };
  }
  return { bin: path.join(tmp, 'debondt', 'mjbench'), tmp };
}

const parseOurs = (line: string): Answer => {
  const a = JSON.parse(line) as { result: string; ms: number; cpu_ms: number; nodes: number };
  return { result: a.result, ms: a.ms, cpu: a.cpu_ms, work: a.nodes };
};
const parseReference = (line: string): Answer => {
  const a = JSON.parse(line) as { result: string; ms: number; cpu_ms: number; prunes: number; order?: number[] };
  return { result: a.result, ms: a.ms, cpu: a.cpu_ms, work: a.prunes, order: a.order };
};

/**
 * Where the reference's answer "solvable" breaks the plain rules: its solution replayed as ours are, or null. Its
 * geometry reads a tile as covered only by the layer right above it, so on a layout with a tile floating over a
 * gap (GNOME's overpass) it solves another game than the rules' (docs/contracts.md), where any higher tile
 * overlapping covers.
 */
function referenceFault(layout: Layout, seed: string, answer: Answer): string | null {
  if (answer.result !== 'solvable' || !answer.order) return null;
  const pairs: Pair[] = [];
  for (let k = 0; k + 1 < answer.order.length; k += 2) pairs.push([answer.order[k]!, answer.order[k + 1]!]);
  return naiveReplay(layout.slots, naiveFaces(layout, seed), pairs);
}

interface Figures {
  readonly settled: number;
  readonly mean: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
  readonly cpuMean: number;
  readonly cpuP50: number;
}

function figuresOf(answers: readonly Answer[]): Figures {
  const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
  const cpu = answers.map((a) => a.cpu).sort((a, b) => a - b);
  return {
    settled: answers.filter((a) => a.result !== 'unresolved').length,
    mean: mean(ms),
    p50: percentile(ms, 0.5),
    p90: percentile(ms, 0.9),
    p99: percentile(ms, 0.99),
    max: ms[ms.length - 1]!,
    cpuMean: mean(cpu),
    cpuP50: percentile(cpu, 0.5),
  };
}

const FLOOR_MS = 0.001; // a time below the clocks' resolution counts as 1 µs in ratios

/** exp(mean(log(ours / reference))) over the deals, of wall-clock or CPU time. */
function geomean(ours: readonly Answer[], ref: readonly Answer[], key: 'ms' | 'cpu'): number {
  let sum = 0;
  for (let i = 0; i < ours.length; i++)
    sum += Math.log(Math.max(ours[i]![key], FLOOR_MS) / Math.max(ref[i]![key], FLOOR_MS));
  return Math.exp(sum / ours.length);
}

const cell = (v: number): string => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(3));

async function main(): Promise<number> {
  const flags = parseFlags('bench/native.ts', process.argv.slice(2), {
    deals: 'value',
    warm: 'value',
    budget: 'value',
    debondt: 'value',
    all: 'switch',
    first: 'value',
    only: 'value',
    prefix: 'value',
  });
  if (flags.has('all')) {
    if (flags.has('prefix')) throw new UsageError('--prefix is for the turtle race; --all takes --first');
    return everyLayout(flags);
  }
  const count = flags.integer('deals', 1_000, 1, 100_000);
  const prefix = flags.text('prefix') ?? 'study';
  // The seeds are prefix-1 … prefix-count: each must be a seed.
  if (!SEED_PATTERN.test(`${prefix}-${count}`))
    throw new UsageError(
      `bad --prefix ${JSON.stringify(prefix)}: with "-N" it must make a seed (1 to 32 of A-Z, a-z, 0-9, _ and -)`,
    );
  const seedOf = (k: number) => `${prefix}-${k}`;
  const warm = flags.integer('warm', WARM_DEALS, 0, 100_000);
  const budget = flags.integer('budget', SOLVE_BUDGET, 1, 1_000_000_000);
  const dir = path.resolve(flags.text('debondt') ?? process.env.DEBONDT_DIR ?? DEFAULT_DEBONDT);
  const turtle = layoutById('turtle');
  if (!turtle) throw new Error('no built-in turtle layout');

  const reference = buildReference(dir);
  if ('skip' in reference) {
    console.log(`bench:native skipped: ${reference.skip}`);
    return 0;
  }
  // Ours as it ships: the command line compiled into dist/ (bench/built.ts).
  try {
    compileCli();
  } catch (e) {
    rmSync(reference.tmp, { recursive: true, force: true });
    throw e;
  }
  const load = loadavg()[0]!.toFixed(1);
  console.log(
    `Solver beside de Bondt's (C++, g++ -O2): ${count} uniform turtle shuffles ${seedOf(1)} … ${seedOf(count)}, ` +
      `warm-up deals for both until ours spent ${WARM_NODES} nodes (at most ${warm}), budget ${budget} nodes; ` +
      `node ${process.version}, ${availableParallelism()} CPUs, ` +
      `load average ${load} at start`,
  );
  const ours = new LineProcess(
    'our solver',
    spawn(
      process.execPath,
      [
        path.join(ROOT, 'dist/cli/main.js'),
        'solve',
        '--layout',
        'turtle',
        '--random',
        '--stdin',
        '--budget',
        String(budget),
      ],
      { cwd: ROOT },
    ),
  );
  const native = spawnReference(reference.bin);
  const mine: Answer[] = [];
  const theirs: Answer[] = [];
  try {
    await warmUp(ours, native, turtle, warm);
    for (let k = 1; k <= count; k++) {
      if (process.stderr.isTTY && k % 10 === 0) process.stderr.write(`\r\x1b[K${k}/${count}`);
      const seed = seedOf(k);
      const line = referenceLine(turtle, seed);
      if (k % 2 === 1) {
        mine.push(parseOurs(await ours.ask(seed)));
        theirs.push(parseReference(await native.ask(line)));
      } else {
        theirs.push(parseReference(await native.ask(line)));
        mine.push(parseOurs(await ours.ask(seed)));
      }
    }
  } finally {
    ours.close();
    native.close();
    rmSync(reference.tmp, { recursive: true, force: true });
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
  }
  const loadAfter = loadavg()[0]!.toFixed(1);

  const a = figuresOf(mine);
  const b = figuresOf(theirs);
  const ratio = (x: number, y: number) => x / Math.max(y, FLOOR_MS);
  const wallGeomean = geomean(mine, theirs, 'ms');
  const cpuGeomean = geomean(mine, theirs, 'cpu');
  const fasterWall = mine.filter((m, i) => m.ms < theirs[i]!.ms).length;
  const fasterCpu = mine.filter((m, i) => m.cpu < theirs[i]!.cpu).length;
  const header = ['', 'settled', 'mean ms', 'p50', 'p90', 'p99', 'max', 'CPU mean', 'CPU p50'];
  const row = (name: string, f: Figures) => [
    name,
    String(f.settled),
    ...[f.mean, f.p50, f.p90, f.p99, f.max, f.cpuMean, f.cpuP50].map(cell),
  ];
  const ratios = [
    'ours / de Bondt',
    '',
    ...[
      ratio(a.mean, b.mean),
      ratio(a.p50, b.p50),
      ratio(a.p90, b.p90),
      ratio(a.p99, b.p99),
      ratio(a.max, b.max),
      ratio(a.cpuMean, b.cpuMean),
      ratio(a.cpuP50, b.cpuP50),
    ].map((r) => `${r.toFixed(2)}×`),
  ];
  const rows = [header, row('ours', a), row('de Bondt (C++, -O2)', b), ratios];
  const widths = header.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  console.log('');
  for (const r of rows) console.log(r.map((c, i) => c[i === 0 ? 'padEnd' : 'padStart'](widths[i]!)).join('  '));
  console.log(
    `per-deal geometric mean ratio: ${wallGeomean.toFixed(3)} (wall), ${cpuGeomean.toFixed(3)} (CPU); ` +
      `we are faster on ${fasterWall} of ${count} deals (wall), ${fasterCpu} (CPU); load average ${load} → ${loadAfter}`,
  );

  // The answers, checked outside the timings.
  const geom = geometryOf(turtle);
  if (!geom.ok) throw new Error(geom.message);
  let badReplays = 0;
  let changed = 0;
  const disagreements: string[] = [];
  const referenceFaults: string[] = []; // the reference's solutions that break the plain rules (none on the turtle)
  for (let k = 1; k <= count; k++) {
    const seed = seedOf(k);
    const m = mine[k - 1]!;
    const t = theirs[k - 1]!;
    const fault = referenceFault(turtle, seed, t);
    if (fault) referenceFaults.push(`${seed}: ${fault}`);
    if (m.result !== 'unresolved' && t.result !== 'unresolved' && m.result !== t.result)
      disagreements.push(
        `${seed}: ours ${m.result}, de Bondt ${t.result}${fault ? ' (its solution breaks the rules)' : ''}`,
      );
    if (m.result !== 'solvable') continue;
    const faces = naiveFaces(turtle, seed);
    const again = solve(geom.value, fullPresence(144), faces, { seed, budget });
    if (again.result !== m.result || again.nodes !== m.work) changed++;
    if (again.result !== 'solvable' || naiveReplay(turtle.slots, faces, again.solution) !== null) badReplays++;
  }
  const unresolved = count - a.settled;
  const unsolvable = mine.filter((m) => m.result === 'unsolvable').length;
  const slowest = mine
    .map((m, i) => ({ seed: seedOf(i + 1), m, t: theirs[i]! }))
    .sort((x, y) => y.m.ms - x.m.ms)
    .slice(0, 5)
    .map((s) => `${s.seed} ${s.m.result} ${cell(s.m.ms)} ms (${s.m.work} nodes) vs ${cell(s.t.ms)} ms`);
  console.log(`slowest of ours: ${slowest.join('; ')}`);
  const goal = (name: string, value: number, limit: number) =>
    `${name} ${value.toFixed(2)} (≤ ${limit}) ${value <= limit ? 'met' : 'NOT met'}`;
  const met = {
    geomean: wallGeomean <= GOALS.geomean,
    mean: ratio(a.mean, b.mean) <= GOALS.mean,
    p50: ratio(a.p50, b.p50) <= GOALS.p50,
    max: ratio(a.max, b.max) <= GOALS.max,
    unresolved: unresolved === 0,
    replays: badReplays === 0 && changed === 0,
    agree: disagreements.length === 0,
  };
  console.log(
    `goals (ratios ours / de Bondt, wall-clock): ${goal('geometric mean', wallGeomean, GOALS.geomean)}; ` +
      `${goal('mean', ratio(a.mean, b.mean), GOALS.mean)}; ${goal('p50', ratio(a.p50, b.p50), GOALS.p50)}; ` +
      `${goal('max', ratio(a.max, b.max), GOALS.max)}`,
  );
  console.log(
    `goals (answers): unresolved at ${budget} nodes ${unresolved} (goal 0) ${met.unresolved ? 'met' : 'NOT met'}; ` +
      `solutions that do not replay under the plain rules ${badReplays}, answers not the same when solved again ` +
      `${changed} (goal 0) ${met.replays ? 'met' : 'NOT met'}; unsolvable ${unsolvable}, answers that disagree ` +
      `with de Bondt's ${disagreements.length} (goal 0) ${met.agree ? 'met' : `NOT met (${disagreements.join('; ')})`}; ` +
      `the reference's solutions that break the plain rules ${referenceFaults.length}`,
  );
  const json = (f: Figures) => Object.fromEntries(Object.entries(f).map(([k, v]) => [k, round(v, 4)]));
  console.log(
    JSON.stringify({
      deals: count,
      first_seed: seedOf(1),
      budget,
      load_average: [Number(load), Number(loadAfter)],
      ours: json(a),
      debondt: json(b),
      geomean_wall: round(wallGeomean, 4),
      geomean_cpu: round(cpuGeomean, 4),
      faster_wall: fasterWall,
      faster_cpu: fasterCpu,
      unresolved,
      unsolvable,
      bad_replays: badReplays,
      changed,
      disagreements,
      reference_faults: referenceFaults,
      goals_met: met,
    }),
  );
  return 0;
}

// The goals on every layout of 144 tiles, as ratios ours / de Bondt in the same run.
const ALL_GOALS = { geomean: 0.8, max: 1.0, turtleP50: 0.8 };
const ALL_SEED = 'wide'; // seeds wide-F …: not the study seeds the solver was tuned on

/** A layout of the race: how our command line is told to load it, and the layout itself. */
interface Entrant {
  readonly name: string; // builtin:ID, kmahjongg:ID or gnome:ID
  readonly layout: Layout;
  readonly args: readonly string[];
}

/** Every layout of 144 tiles (bench/layouts144.ts), with the flags that load it into our command line. */
function entrants(only: ReadonlySet<string> | null): Entrant[] {
  const root = corpusDir();
  const maps = existsSync(path.join(root, 'gnome'))
    ? readdirSync(path.join(root, 'gnome')).filter((f) => f.endsWith('.map'))
    : [];
  const list: Entrant[] = [];
  for (const { name, source, id, layout } of layoutsOf144(root)) {
    if (source === 'builtin') list.push({ name, layout, args: ['--layout', id] });
    else if (source === 'kmahjongg')
      list.push({ name, layout, args: ['--layout-file', path.join(root, 'kmahjongg', `${id}.layout`)] });
    else {
      const file = maps.find((f) => {
        const parsed = parseGnomeMaps(readFileSync(path.join(root, 'gnome', f), 'utf8'));
        return parsed.ok && parsed.value.some((m) => m.id === id);
      });
      if (file) list.push({ name, layout, args: ['--layout-file', path.join(root, 'gnome', file), '--name', id] });
    }
  }
  return only ? list.filter((e) => only.has(e.name) || only.has(e.name.split(':')[1]!)) : list;
}

// `--solutions`: each answer "solvable" with its play order (written after its clocks stop), replayed here.
const spawnReference = (bin: string) =>
  new LineProcess('the de Bondt solver', spawn(bin, ['-', String(CAP_MS), '0', '--solutions']));
const spawnOurs = (entrant: Entrant, budget: number) =>
  new LineProcess(
    `our solver on ${entrant.name}`,
    spawn(
      process.execPath,
      [
        path.join(ROOT, 'dist/cli/main.js'),
        'solve',
        ...entrant.args,
        '--random',
        '--stdin',
        '--budget',
        String(budget),
      ],
      { cwd: ROOT },
    ),
  );

/** One layout's race: the answers of both, deal by deal, or why the reference could not take it. */
interface Race {
  readonly entrant: Entrant;
  readonly seeds: readonly string[];
  readonly mine: Answer[];
  readonly theirs: Answer[];
  readonly skipped?: string;
}

/** Ratios of one set of deals, ours / the reference. */
interface Ratios {
  readonly deals: number;
  readonly geomean: number;
  readonly cpuGeomean: number; // the same of CPU time: what the load moves least (never the time a process waits for a CPU)
  readonly p50: number;
  readonly p90: number;
  readonly max: number;
  readonly faster: number;
  readonly oursP50: number;
  readonly oursMax: number;
  readonly refMax: number;
  readonly nodesMax: number;
}

function ratiosOf(mine: readonly Answer[], theirs: readonly Answer[]): Ratios {
  const a = figuresOf(mine);
  const b = figuresOf(theirs);
  const ratio = (x: number, y: number) => x / Math.max(y, FLOOR_MS);
  return {
    deals: mine.length,
    geomean: geomean(mine, theirs, 'ms'),
    cpuGeomean: geomean(mine, theirs, 'cpu'),
    p50: ratio(a.p50, b.p50),
    p90: ratio(a.p90, b.p90),
    max: ratio(a.max, b.max),
    faster: mine.filter((m, i) => m.ms < theirs[i]!.ms).length,
    oursP50: a.p50,
    oursMax: a.max,
    refMax: b.max,
    nodesMax: Math.max(...mine.map((m) => m.work)),
  };
}

/** A race's slowest deal on each side: its seed, answer, nodes and time, and the other side's time of it. */
function slowestDeals(r: Race): string {
  const at = (answers: readonly Answer[]) => answers.reduce((k, a, i) => (a.ms > answers[k]!.ms ? i : k), 0);
  const [m, t] = [at(r.mine), at(r.theirs)];
  const deal = (k: number) =>
    `${r.seeds[k]} (${r.mine[k]!.result}, ${r.mine[k]!.work} nodes) ours ${cell(r.mine[k]!.ms)} ms, ` +
    `the reference ${cell(r.theirs[k]!.ms)} ms`;
  return `${r.entrant.name}: ours slowest ${deal(m)}; the reference's slowest ${m === t ? 'the same' : deal(t)}`;
}

async function everyLayout(flags: Flags): Promise<number> {
  const count = flags.integer('deals', 20, 1, 100_000);
  const first = flags.integer('first', 1_001, 1, 1_000_000_000);
  const warm = flags.integer('warm', WARM_DEALS, 0, 100_000);
  const budget = flags.integer('budget', SOLVE_BUDGET, 1, 1_000_000_000);
  const dir = path.resolve(flags.text('debondt') ?? process.env.DEBONDT_DIR ?? DEFAULT_DEBONDT);
  const only = flags.has('only') ? new Set(flags.required('only').split(',')) : null;
  const list = entrants(only);
  if (list.length === 0) throw new UsageError('bench:native --all: no layout of 144 tiles to race on');
  const reference = buildReference(dir);
  if ('skip' in reference) {
    console.log(`bench:native skipped: ${reference.skip}`);
    return 0;
  }
  try {
    compileCli();
  } catch (e) {
    rmSync(reference.tmp, { recursive: true, force: true });
    throw e;
  }
  const load = loadavg()[0]!.toFixed(1);
  console.log(
    `Solver beside de Bondt's (C++, g++ -O2) on ${list.length} layouts of 144 tiles: ${count} uniform shuffles of ` +
      `each, ${ALL_SEED}-${first} … ${ALL_SEED}-${first + count - 1}, warm-up deals per layout until they spent ` +
      `${WARM_NODES} nodes (at most ${warm}), budget ` +
      `${budget} nodes; node ${process.version}, ${availableParallelism()} CPUs, load average ${load} at start`,
  );
  const seeds = Array.from({ length: count }, (_, k) => `${ALL_SEED}-${first + k}`);
  const races: Race[] = [];
  let native = spawnReference(reference.bin);
  try {
    for (const [n, entrant] of list.entries()) {
      if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${n + 1}/${list.length} ${entrant.name}`);
      const ours = spawnOurs(entrant, budget);
      const mine: Answer[] = [];
      const theirs: Answer[] = [];
      try {
        // Each of our processes is new and compiles the solver anew: warmed up on the layout it races on. The
        // reference, compiled ahead of time, is warmed up once.
        await warmUp(ours, n === 0 ? native : null, entrant.layout, warm);
        for (const [k, seed] of seeds.entries()) {
          const line = referenceLine(entrant.layout, seed);
          if (k % 2 === 0) {
            mine.push(parseOurs(await ours.ask(seed)));
            theirs.push(parseReference(await native.ask(line)));
          } else {
            theirs.push(parseReference(await native.ask(line)));
            mine.push(parseOurs(await ours.ask(seed)));
          }
        }
        races.push({ entrant, seeds, mine, theirs });
      } catch (e) {
        // The reference takes only layouts of its own geometry rule; one it cannot read stops its process.
        const why = e instanceof Error ? e.message : String(e);
        if (!why.startsWith('the de Bondt solver')) throw e;
        native.close();
        native = spawnReference(reference.bin);
        races.push({ entrant, seeds, mine: [], theirs: [], skipped: why });
      } finally {
        ours.close();
      }
    }
  } finally {
    native.close();
    rmSync(reference.tmp, { recursive: true, force: true });
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
  }
  const loadAfter = loadavg()[0]!.toFixed(1);

  const raced = races.filter((r) => !r.skipped);
  // Layouts where the reference's solutions break the plain rules: it solved another game there.
  const faults = new Map<string, { deals: number; first: string }>();
  for (const r of raced)
    for (const [k, seed] of r.seeds.entries()) {
      const fault = referenceFault(r.entrant.layout, seed, r.theirs[k]!);
      if (!fault) continue;
      const f = faults.get(r.entrant.name);
      if (f) f.deals++;
      else faults.set(r.entrant.name, { deals: 1, first: `${seed}, ${fault}` });
    }
  const mark = (name: string) => (faults.has(name) ? `${name} *` : name);
  const table = raced
    .map((r) => ({ name: r.entrant.name, ...ratiosOf(r.mine, r.theirs) }))
    .sort((x, y) => y.geomean - x.geomean);
  const all = ratiosOf(
    raced.flatMap((r) => r.mine),
    raced.flatMap((r) => r.theirs),
  );
  const header = [
    'layout',
    'geomean',
    'cpu gm',
    'p50',
    'p90',
    'max',
    'faster',
    'ours p50 ms',
    'ours max',
    'ref max',
    'nodes max',
  ];
  const line = (name: string, t: Ratios) => [
    name,
    t.geomean.toFixed(2),
    t.cpuGeomean.toFixed(2),
    t.p50.toFixed(2),
    t.p90.toFixed(2),
    t.max.toFixed(2),
    `${t.faster}/${t.deals}`,
    cell(t.oursP50),
    cell(t.oursMax),
    cell(t.refMax),
    String(t.nodesMax),
  ];
  const rows = [header, ...table.map((t) => line(mark(t.name), t)), line('every deal', all)];
  const widths = header.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  console.log('');
  for (const r of rows) console.log(r.map((c, i) => c[i === 0 ? 'padEnd' : 'padStart'](widths[i]!)).join('  '));
  for (const r of races.filter((r) => r.skipped)) console.log(`${r.entrant.name}: not raced (${r.skipped})`);
  for (const [name, f] of faults)
    console.log(
      `${name} *: the reference's solutions break the plain rules on ${f.deals} of ${count} deals (${f.first}): ` +
        'it solved another game there, so its times are no yardstick and the layout goals below leave it out',
    );
  console.log(`ratios ours / de Bondt, wall-clock; load average ${load} → ${loadAfter}`);

  // The answers, checked outside the timings.
  let unresolved = 0;
  let badReplays = 0;
  let changed = 0;
  const disagreements: string[] = [];
  const referenceWrong: string[] = []; // answers that differ where the reference's solution is not one
  for (const r of raced) {
    const geom = geometryOf(r.entrant.layout);
    if (!geom.ok) throw new Error(`${r.entrant.name}: ${geom.message}`);
    for (const [k, seed] of r.seeds.entries()) {
      const m = r.mine[k]!;
      const t = r.theirs[k]!;
      if (m.result === 'unresolved') unresolved++;
      if (m.result !== 'unresolved' && t.result !== 'unresolved' && m.result !== t.result) {
        const fault = referenceFault(r.entrant.layout, seed, t);
        if (fault) referenceWrong.push(`${r.entrant.name} ${seed}: de Bondt's solution breaks the rules (${fault})`);
        else disagreements.push(`${r.entrant.name} ${seed}: ours ${m.result}, de Bondt ${t.result}`);
      }
      if (m.result !== 'solvable') continue;
      const faces = naiveFaces(r.entrant.layout, seed);
      const again = solve(geom.value, fullPresence(144), faces, { seed, budget });
      if (again.result !== m.result || again.nodes !== m.work) changed++;
      if (again.result !== 'solvable' || naiveReplay(r.entrant.layout.slots, faces, again.solution) !== null)
        badReplays++;
    }
  }
  const judged = table.filter((t) => !faults.has(t.name));
  const worstGeomean = judged[0] ?? table[0]!;
  const worstMax = [...judged].sort((x, y) => y.max - x.max)[0] ?? table[0]!;
  const turtle = table.find((t) => t.name === 'builtin:turtle');
  const met = {
    geomean: worstGeomean.geomean <= ALL_GOALS.geomean,
    max: worstMax.max <= ALL_GOALS.max,
    turtleP50: turtle ? turtle.p50 <= ALL_GOALS.turtleP50 : null,
    unresolved: unresolved === 0,
    replays: badReplays === 0 && changed === 0,
    agree: disagreements.length === 0,
  };
  const verdict = (ok: boolean | null) => (ok === null ? 'not measured' : ok ? 'met' : 'NOT met');
  console.log(
    `goals${faults.size > 0 ? ` (on the ${judged.length} layouts where the reference keeps the rules)` : ''}: ` +
      `geometric mean ≤ ${ALL_GOALS.geomean} on every layout (worst ${worstGeomean.name} ` +
      `${worstGeomean.geomean.toFixed(2)}) ${verdict(met.geomean)}; max ≤ ${ALL_GOALS.max} on every layout (worst ` +
      `${worstMax.name} ${worstMax.max.toFixed(2)}) ${verdict(met.max)}; turtle p50 ≤ ${ALL_GOALS.turtleP50} ` +
      `(${turtle ? turtle.p50.toFixed(2) : '–'}) ${verdict(met.turtleP50)}`,
  );
  console.log(
    `goals (answers): unresolved at ${budget} nodes ${unresolved} (goal 0) ${verdict(met.unresolved)}; solutions ` +
      `that do not replay under the plain rules ${badReplays}, answers not the same when solved again ${changed} ` +
      `(goal 0) ${verdict(met.replays)}; answers that disagree with de Bondt's ${disagreements.length} (goal 0) ` +
      `${met.agree ? 'met' : `NOT met (${disagreements.join('; ')})`}`,
  );
  if (referenceWrong.length > 0)
    console.log(`answers that differ where the reference's solution breaks the rules: ${referenceWrong.join('; ')}`);
  const over = judged
    .filter((t) => t.max > ALL_GOALS.max)
    .map((t) => slowestDeals(raced.find((r) => r.entrant.name === t.name)!));
  if (over.length > 0) console.log(`the deals that set a max over ${ALL_GOALS.max}: ${over.join('; ')}`);
  const json = ({ deals, geomean, cpuGeomean, p50, p90, max, faster, oursP50, oursMax, refMax, nodesMax }: Ratios) => ({
    ...{
      deals,
      geomean: round(geomean, 4),
      cpu_geomean: round(cpuGeomean, 4),
      p50: round(p50, 4),
      p90: round(p90, 4),
      max: round(max, 4),
      faster,
    },
    ...{ ours_p50_ms: round(oursP50, 4), ours_max_ms: round(oursMax, 4), ref_max_ms: round(refMax, 4) },
    nodes_max: nodesMax,
  });
  console.log(
    JSON.stringify({
      layouts: raced.length,
      deals_per_layout: count,
      first_seed: `${ALL_SEED}-${first}`,
      budget,
      load_average: [Number(load), Number(loadAfter)],
      overall: json(all),
      per_layout: Object.fromEntries(table.map((t) => [t.name, json(t)])),
      not_raced: races.filter((r) => r.skipped).map((r) => r.entrant.name),
      unresolved,
      bad_replays: badReplays,
      changed,
      disagreements,
      reference_faults: Object.fromEntries(faults),
      reference_wrong: referenceWrong,
      goals_met: met,
    }),
  );
  return 0;
}

try {
  process.exitCode = await main();
} catch (e) {
  process.stderr.write(`bench:native: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = e instanceof UsageError ? 2 : 1;
}
