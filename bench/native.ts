/**
 * Our solver beside Michiel de Bondt's C++ solver (`npm run bench:native`), the yardstick of the
 * solver issue: the same uniform turtle shuffles (`study-1 … study-N`, as `solve --random --seed
 * study-k`), each solver a warm, long-lived process handed the same deal in turn, the order alternating
 * deal by deal, so that changes of the machine's load hit both alike. Neither solver runs while the
 * other one does.
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
 *   npm run bench:native [-- --deals 1000] [--warm 50] [--budget 200000] [--debondt DIR]
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { layoutById } from '../src/engine/builtins.ts';
import { fullPresence, geometryOf, matchGroup, solve, SOLVE_BUDGET, type Layout } from '../src/engine/index.ts';
import { parseFlags, UsageError } from '../src/cli/args.ts';
import { mean, percentile, round } from '../src/cli/measure.ts';
import { naiveFaces } from '../src/cli/naive.ts';
import { naiveReplay } from '../test/engine/helpers.ts'; // the tests' plain rules
import { compileCli, ROOT } from './built.ts';

const DEFAULT_DEBONDT = '../shared/peers/debondt'; // relative to the working directory
const CAP_MS = 600_000; // the reference gives up on a deal after this (never reached on turtle shuffles)

// The solver issue's goals, as ratios ours / de Bondt in the same run.
const GOALS = { geomean: 1.0, mean: 0.8, p50: 1.0, max: 1.0 };

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
}

/** One deal line of the reference's input: the seed, then per slot `x y z g` (g: match group 0 … 35). */
function referenceLine(turtle: Layout, seed: string): string {
  const faces = naiveFaces(turtle, seed);
  const ids = new Map<string, number>();
  const parts = [seed];
  turtle.slots.forEach((s, i) => {
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
  const a = JSON.parse(line) as { result: string; ms: number; cpu_ms: number; prunes: number };
  return { result: a.result, ms: a.ms, cpu: a.cpu_ms, work: a.prunes };
};

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
  });
  const count = flags.integer('deals', 1_000, 1, 100_000);
  const warm = flags.integer('warm', 50, 0, 10_000);
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
    `Solver beside de Bondt's (C++, g++ -O2): ${count} uniform turtle shuffles study-1 … study-${count}, ` +
      `${warm} warm-up deals each, budget ${budget} nodes; node ${process.version}, ${availableParallelism()} CPUs, ` +
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
  const native = new LineProcess('the de Bondt solver', spawn(reference.bin, ['-', String(CAP_MS)]));
  const mine: Answer[] = [];
  const theirs: Answer[] = [];
  try {
    for (let k = 1; k <= warm; k++) {
      await ours.ask(`warm-${k}`);
      await native.ask(referenceLine(turtle, `warm-${k}`));
    }
    for (let k = 1; k <= count; k++) {
      if (process.stderr.isTTY && k % 10 === 0) process.stderr.write(`\r\x1b[K${k}/${count}`);
      const seed = `study-${k}`;
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
  for (let k = 1; k <= count; k++) {
    const seed = `study-${k}`;
    const m = mine[k - 1]!;
    const t = theirs[k - 1]!;
    if (m.result !== 'unresolved' && t.result !== 'unresolved' && m.result !== t.result)
      disagreements.push(`${seed}: ours ${m.result}, de Bondt ${t.result}`);
    if (m.result !== 'solvable') continue;
    const faces = naiveFaces(turtle, seed);
    const again = solve(geom.value, fullPresence(144), faces, { seed, budget });
    if (again.result !== m.result || again.nodes !== m.work) changed++;
    if (again.result !== 'solvable' || naiveReplay(turtle.slots, faces, again.solution) !== null) badReplays++;
  }
  const unresolved = count - a.settled;
  const unsolvable = mine.filter((m) => m.result === 'unsolvable').length;
  const slowest = mine
    .map((m, i) => ({ seed: `study-${i + 1}`, m, t: theirs[i]! }))
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
      `with de Bondt's ${disagreements.length} (goal 0) ${met.agree ? 'met' : `NOT met (${disagreements.join('; ')})`}`,
  );
  const json = (f: Figures) => Object.fromEntries(Object.entries(f).map(([k, v]) => [k, round(v, 4)]));
  console.log(
    JSON.stringify({
      deals: count,
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
