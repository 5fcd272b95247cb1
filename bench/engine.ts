/**
 * Engine benchmark (`npm run bench`, `npm run bench -- --quick`): the figures the
 * engine issue asks for (docs/study.md; README.md, "Benchmarks").
 *
 * (a) Turtle relaxed deal time, beside a deliberately straightforward generator
 *     written here: a free check that scans every tile, a random pair of free
 *     tiles per step, the whole walk retried when it strands itself, and the
 *     same face pasting. Both are timed in this run; the goal is ≥ 50× at p50.
 * (b) Relaxed deals of every built-in layout: failures (must be 0), max attempts
 *     and search nodes, p50/p99/max ms.
 * (c) Classic deals per built-in and per clearable corpus layout: p50/p99/max ms,
 *     attempts, failures, solver nodes (p50/p99/max of the deals made: nodes do
 *     not depend on the machine's load, times do) and the p99 of the process's CPU
 *     time per deal (less hit by a busy machine than wall-clock time). A layout stops
 *     early after a time cap; the table shows how many deals were made. Goals: p99 ≤
 *     50 ms and 0 failures.
 * (d) The solver on uniform turtle shuffles (the study's naive deals study-1 …
 *     study-1000) at a budget of 200,000 nodes: solvable / unsolvable / unresolved,
 *     mean/p50/p99/max ms and nodes, and whether the solver issue's goals are met
 *     (0 unresolved, p99 ≤ 100 ms, mean ≤ 12 ms). Every solution is replayed under the
 *     tests' plain rules (outside the timings).
 * (e) The browser worker's answers along random games (see workerAnswers): p99 ≤ 16 ms
 *     (one frame), wall-clock and CPU.
 * (f) An independent check of (d)'s "unsolvable" answers: a certificate of one or two
 *     whole face groups that alone cannot be cleared (exhaustive search, plain rules).
 * (g) A deal's difficulty (engine difficulty.ts) on top of the deal: the time to measure it,
 *     per mode on the turtle (wall-clock and the process's CPU time) and its p99 on every
 *     built-in layout. Goal: p99 ≤ 20 ms on the turtle in both modes. Sections (a) to (c)
 *     time the generator alone (`dealBoard`); `deal` is the two together.
 *
 * The engine is timed as it ships, compiled into dist/ (bench/built.ts), not through tsx.
 *
 * Prints readable tables, then one JSON line with every figure.
 */
import { availableParallelism, loadavg } from 'node:os';
import { LAYOUTS, layoutById } from '../src/engine/builtins.ts';
import type { Deal, Face, Layout, Move, Pair } from '../src/engine/index.ts';
import { parseFlags, UsageError } from '../src/cli/args.ts';
import { max, mean, round, summarize, type Timings } from '../src/cli/measure.ts';
import { corpusLayouts } from '../src/cli/corpus.ts';
import { naiveFaces } from '../src/engine/naive.ts';
import { naiveIsFree, naiveReplay, unclearableCore } from '../test/engine/helpers.ts'; // the tests' plain rules
import { answer } from '../src/client/worker.ts'; // the code the browser's solver worker runs
import { builtEngine } from './built.ts';

// The engine as it ships (bench/built.ts): every section times the compiled files but (e), whose worker code is
// bundled for the browser by esbuild and runs here from source.
const {
  applyMove,
  availablePairs,
  deal,
  dealBoard,
  measureDifficulty,
  facePairs,
  fullPresence,
  geometryOf,
  makeRng,
  newGame,
  shuffleInPlace,
  solve,
} = await builtEngine();

const SOLVER_BUDGET = 200_000; // as in the published study

interface Counts {
  readonly compare: number; // turtle deals per generator in (a)
  readonly relaxed: number; // deals per layout in (b)
  readonly classic: number; // deals per layout in (c), at most
  readonly classicCapMs: number; // time per layout in (c), at most
  readonly corpus: number; // deals per corpus layout in (c), at most
  readonly corpusCapMs: number; // time per corpus layout in (c), at most
  readonly shuffles: number; // uniform turtle shuffles in (d)
  readonly games: number; // random turtle games per mode in (e)
  readonly difficulty: number; // turtle deals per mode in (g); a tenth of it per other built-in layout
}

const FULL: Counts = {
  compare: 300,
  relaxed: 10_000,
  classic: 200,
  classicCapMs: 6_000,
  corpus: 100,
  corpusCapMs: 3_000,
  shuffles: 1_000,
  games: 200,
  difficulty: 1_000,
};
const QUICK: Counts = {
  compare: 50,
  relaxed: 500,
  classic: 5,
  classicCapMs: 1_000,
  corpus: 3,
  corpusCapMs: 500,
  shuffles: 50,
  games: 5,
  difficulty: 100,
};

const progress = (text: string): void => {
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${text}`);
};
const done = (): void => progress('');

// ---------------------------------------------------------------------------
// The straightforward generator of (a).

const MAX_WALKS = 100_000; // a straightforward generator gives up here; counted as a failure

/** Random walks of pairs of free tiles until one empties the layout; then faces pasted on. */
function straightforwardDeal(layout: Layout, seed: string): { faces: Face[]; order: Pair[]; walks: number } | null {
  const rng = makeRng(seed, 'straightforward');
  const slots = layout.slots;
  for (let walk = 1; walk <= MAX_WALKS; walk++) {
    const present = slots.map(() => true);
    const order: Pair[] = [];
    for (let left = slots.length; left > 0; left -= 2) {
      const free: number[] = [];
      for (let i = 0; i < slots.length; i++) if (present[i] && naiveIsFree(slots, present, i)) free.push(i);
      if (free.length < 2) break;
      const a = rng.int(free.length);
      let b = rng.int(free.length - 1);
      if (b >= a) b++;
      order.push([free[a]!, free[b]!]);
      present[free[a]!] = present[free[b]!] = false;
    }
    if (order.length * 2 < slots.length) continue;
    const pairs = shuffleInPlace(rng, facePairs(slots.length));
    const faces: Face[] = new Array<Face>(slots.length);
    order.forEach(([a, b], k) => {
      const [f, g] = rng.int(2) === 0 ? pairs[k]! : [pairs[k]![1], pairs[k]![0]];
      faces[a] = f;
      faces[b] = g;
    });
    return { faces, order, walks: walk };
  }
  return null;
}

// ---------------------------------------------------------------------------
// Sections.

const ms = (t: number | null): string => (t === null ? '-' : t.toFixed(3));
const pad = (cells: readonly (string | number | null)[], widths: readonly number[]): string =>
  cells.map((c, i) => String(c ?? '-')[i === 0 ? 'padEnd' : 'padStart'](widths[i] ?? 10)).join('  ');

function table(title: string, header: readonly string[], rows: readonly (readonly (string | number | null)[])[]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i] ?? '-').length)));
  console.log(`\n${title}`);
  console.log(pad(header, widths));
  for (const r of rows) console.log(pad(r, widths));
}

const timed = (f: () => void): number => {
  const started = performance.now();
  f();
  return performance.now() - started;
};

const figures = (t: Timings) => ({ p50_ms: round(t.p50), p99_ms: round(t.p99), max_ms: round(t.max) });

function compareTurtle(turtle: Layout, count: number) {
  // JIT warm-up for both, then alternating blocks of BLOCK deals: load changes hit both generators alike,
  // while neither one's garbage is collected inside the other's timings deal by deal.
  for (let k = 0; k < 200; k++) dealBoard(turtle, `warm-${k}`, 'relaxed');
  for (let k = 0; k < 20; k++) straightforwardDeal(turtle, `warm-${k}`);
  const BLOCK = 25;
  const ours: number[] = [];
  const plain: number[] = [];
  const walks: number[] = [];
  let plainFailures = 0;
  const blockRatios: number[] = []; // per block: p50 straightforward / p50 ours, side by side in time
  for (let start = 1; start <= count; start += BLOCK) {
    const end = Math.min(count, start + BLOCK - 1);
    progress(`(a) turtle ${end}/${count}`);
    const from = ours.length;
    for (let k = start; k <= end; k++) ours.push(timed(() => dealBoard(turtle, `cmp-${k}`, 'relaxed')));
    for (let k = start; k <= end; k++) {
      let result: ReturnType<typeof straightforwardDeal> = null;
      plain.push(timed(() => (result = straightforwardDeal(turtle, `cmp-${k}`))));
      const r = result as ReturnType<typeof straightforwardDeal>;
      if (r) walks.push(r.walks);
      else plainFailures++;
    }
    blockRatios.push(summarize(plain.slice(from)).p50 / summarize(ours.slice(from)).p50);
  }
  done();
  const a = summarize(ours);
  const b = summarize(plain);
  const ratio = round(b.p50 / a.p50, 1);
  // Robust to load that changes during the run: the median of the blocks' ratios.
  const blockRatio = round(summarize(blockRatios).p50, 1);
  table(
    `(a) Turtle relaxed deal, ${count} deals each (ms)`,
    ['generator', 'p50', 'p99', 'max', 'mean walks', 'max walks', 'failures'],
    [
      ['ours (deal, relaxed)', ms(a.p50), ms(a.p99), ms(a.max), 1, 1, 0],
      ['straightforward', ms(b.p50), ms(b.p99), ms(b.max), round(mean(walks), 2), max(walks), plainFailures],
    ],
  );
  console.log(
    `p50 ratio straightforward / ours: ${ratio}× overall, ${blockRatio}× median of ${blockRatios.length} blocks side by side ` +
      `(goal ≥ 50×) ${Math.min(ratio ?? 0, blockRatio ?? 0) >= 50 ? 'met' : 'NOT met'}`,
  );
  return {
    deals: count,
    ours: figures(a),
    straightforward: {
      ...figures(b),
      mean_walks: round(mean(walks), 3),
      max_walks: max(walks),
      failures: plainFailures,
    },
    ratio_p50: ratio,
    ratio_p50_blocks: blockRatio,
  };
}

function relaxedDeals(count: number) {
  const rows = LAYOUTS.map((layout) => {
    dealBoard(layout, 'warm', 'relaxed');
    const times: number[] = [];
    let failures = 0;
    let maxAttempts = 0;
    let maxNodes = 0;
    for (let k = 1; k <= count; k++) {
      if (k % 500 === 0) progress(`(b) ${layout.id} ${k}/${count}`);
      const started = performance.now();
      const result = dealBoard(layout, `r${k}`, 'relaxed');
      times.push(performance.now() - started);
      if (!result.ok) failures++;
      else {
        maxAttempts = Math.max(maxAttempts, result.value.stats.attempts);
        maxNodes = Math.max(maxNodes, result.value.stats.nodes);
      }
    }
    const t = summarize(times);
    return {
      layout: layout.id,
      tiles: layout.slots.length,
      deals: count,
      failures,
      max_attempts: maxAttempts,
      max_nodes: maxNodes,
      ...figures(t),
    };
  });
  done();
  table(
    `(b) Relaxed deals, ${count} per built-in layout (ms)`,
    ['layout', 'tiles', 'deals', 'failures', 'max attempts', 'max nodes', 'p50', 'p99', 'max'],
    rows.map((r) => [
      r.layout,
      r.tiles,
      r.deals,
      r.failures,
      r.max_attempts,
      r.max_nodes,
      ms(r.p50_ms),
      ms(r.p99_ms),
      ms(r.max_ms),
    ]),
  );
  const failures = rows.reduce((s, r) => s + r.failures, 0);
  console.log(`total failures: ${failures} (must be 0)`);
  return rows;
}

const CLASSIC_GOAL_MS = 50; // p99 of a classic deal on every layout (the solver issue)

/** Classic deals of one layout: up to `count`, for at most `capMs`. */
function classicRow(source: string, id: string, layout: Layout, count: number, capMs: number) {
  const times: number[] = [];
  const attempts: number[] = [];
  const nodes: number[] = []; // solver nodes per deal made: the same on every machine, whatever the load
  const trades: number[] = []; // faces traded in a mended deal, 0 for a proved uniform shuffle
  const cpu: number[] = []; // the process's CPU time per deal, ms
  let failures = 0;
  const started = performance.now();
  for (let k = 1; k <= count && performance.now() - started < capMs; k++) {
    progress(`(c) ${id} ${k}/${count}`);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const result = dealBoard(layout, `c${k}`, 'classic');
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    if (result.ok) {
      attempts.push(result.value.stats.attempts);
      nodes.push(result.value.stats.nodes);
      trades.push(result.value.stats.trades);
    } else failures++;
  }
  const t = summarize(times);
  const n = summarize(nodes);
  return {
    source,
    layout: id,
    tiles: layout.slots.length,
    deals: times.length,
    failures,
    mean_attempts: round(mean(attempts), 3),
    max_attempts: attempts.length ? max(attempts) : null,
    mended_pct: trades.length ? round((100 * trades.filter((k) => k > 0).length) / trades.length, 1) : null,
    mean_trades: round(mean(trades), 2),
    ...figures(t),
    p99_cpu_ms: round(summarize(cpu).p99),
    p50_nodes: nodes.length ? n.p50 : null,
    p99_nodes: nodes.length ? n.p99 : null,
    max_nodes: nodes.length ? n.max : null,
  };
}

/**
 * (c) Classic deals on every built-in layout and every clearable layout of the corpus
 * at MAHJONG_LAYOUTS_DIR (one whose relaxed deal works; the others cannot be dealt at all).
 */
function classicDeals(count: number, capMs: number, corpusCount: number, corpusCapMs: number) {
  // JIT warm-up, as in a server that has dealt before (run alone, `--only c`, the turtle's first deals were
  // timed before V8 had optimized the solver: p99 43–48 ms there, 33 ms warm).
  for (let k = 0; k < 30; k++) dealBoard(LAYOUTS[0]!, `warm-${k}`, 'classic');
  const rows = LAYOUTS.map((layout) => classicRow('builtin', layout.id, layout, count, capMs));
  for (const entry of corpusLayouts()) {
    if (!('layout' in entry) || !dealBoard(entry.layout, 'clearable', 'relaxed').ok) continue;
    rows.push(classicRow(entry.source, entry.id, entry.layout, corpusCount, corpusCapMs));
  }
  done();
  table(
    `(c) Classic deals: up to ${count} per built-in layout (at most ${capMs / 1000} s each), up to ${corpusCount} per ` +
      `clearable corpus layout (at most ${corpusCapMs / 1000} s each) (ms)`,
    [
      'source',
      'layout',
      'tiles',
      'deals',
      'failures',
      'mean attempts',
      'max attempts',
      'mended %',
      'trades',
      'p50',
      'p99',
      'max',
      'CPU p99',
      'p50 nodes',
      'p99 nodes',
      'max nodes',
    ],
    rows.map((r) => [
      r.source,
      r.layout,
      r.tiles,
      r.deals,
      r.failures,
      r.mean_attempts,
      r.max_attempts,
      r.mended_pct,
      r.mean_trades,
      ms(r.p50_ms),
      ms(r.p99_ms),
      ms(r.max_ms),
      ms(r.p99_cpu_ms),
      r.p50_nodes,
      r.p99_nodes,
      r.max_nodes,
    ]),
  );
  const failing = rows.filter((r) => r.failures > 0);
  const slow = rows.filter((r) => (r.p99_ms ?? Infinity) > CLASSIC_GOAL_MS);
  const slowCpu = rows.filter((r) => (r.p99_cpu_ms ?? Infinity) > CLASSIC_GOAL_MS);
  const failures = rows.reduce((s, r) => s + r.failures, 0);
  console.log(
    `goals: ${rows.length} layouts, failures ${failures} (goal 0) ` +
      `${failures === 0 ? 'met' : `NOT met (${failing.map((r) => `${r.layout} ${r.failures}/${r.deals}`).join(', ')})`}; ` +
      `layouts over ${CLASSIC_GOAL_MS} ms at p99: ${slow.length} ${slow.length === 0 ? 'met' : `NOT met (${slow.map((r) => r.layout).join(', ')})`}; ` +
      `in CPU time: ${slowCpu.length} ${slowCpu.length === 0 ? 'met' : `NOT met (${slowCpu.map((r) => r.layout).join(', ')})`}`,
  );
  return rows;
}

const SOLVER_GOALS = { unresolved: 0, p99_ms: 100, mean_ms: 12 }; // the solver issue's goals (#12)

function solverOnShuffles(turtle: Layout, count: number) {
  const geom = geometryOf(turtle);
  if (!geom.ok) throw new Error(geom.message);
  for (let k = 1; k <= 20; k++)
    solve(geom.value, fullPresence(geom.value.size), naiveFaces(turtle, `warm-${k}`), { budget: SOLVER_BUDGET });
  const tally = { solvable: 0, unsolvable: 0, unresolved: 0 };
  const times: number[] = [];
  const nodes: number[] = [];
  const slowest: { seed: string; ms: number; nodes: number; result: string }[] = [];
  const unsolvable: string[] = [];
  let badReplays = 0;
  for (let k = 1; k <= count; k++) {
    if (k % 10 === 0) progress(`(d) shuffle ${k}/${count}`);
    const seed = `study-${k}`; // the study's naive deals: `solve --layout turtle --random --seed study-k`
    const faces = naiveFaces(turtle, seed);
    let answer: ReturnType<typeof solve> | undefined;
    const t = timed(
      () => (answer = solve(geom.value, fullPresence(geom.value.size), faces, { budget: SOLVER_BUDGET, seed })),
    );
    times.push(t);
    tally[answer!.result]++;
    nodes.push(answer!.nodes);
    if (answer!.result === 'unsolvable') unsolvable.push(seed);
    if (answer!.result === 'solvable' && naiveReplay(turtle.slots, faces, answer!.solution) !== null) badReplays++;
    slowest.push({ seed, ms: round(t) ?? t, nodes: answer!.nodes, result: answer!.result });
  }
  done();
  slowest.sort((a, b) => b.nodes - a.nodes);
  const t = summarize(times);
  const n = summarize(nodes);
  table(
    `(d) Solver on ${count} uniform turtle shuffles (study-1 … study-${count}), budget ${SOLVER_BUDGET} nodes`,
    [
      'shuffles',
      'solvable',
      'unsolvable',
      'unresolved',
      'mean ms',
      'p50 ms',
      'p99 ms',
      'max ms',
      'mean nodes',
      'p99 nodes',
      'max nodes',
    ],
    [
      [
        count,
        tally.solvable,
        tally.unsolvable,
        tally.unresolved,
        ms(t.mean),
        ms(t.p50),
        ms(t.p99),
        ms(t.max),
        Math.round(n.mean),
        n.p99,
        n.max,
      ],
    ],
  );
  console.log(`solutions that do not replay under the plain rules: ${badReplays} (must be 0)`);
  console.log(
    `most nodes: ${slowest
      .slice(0, 5)
      .map((s) => `${s.seed} ${s.result} ${s.nodes} nodes ${s.ms} ms`)
      .join('; ')}`,
  );
  const met = {
    unresolved: tally.unresolved <= SOLVER_GOALS.unresolved,
    p99: t.p99 <= SOLVER_GOALS.p99_ms,
    mean: t.mean <= SOLVER_GOALS.mean_ms,
  };
  console.log(
    `goals: unresolved ${tally.unresolved} (goal ${SOLVER_GOALS.unresolved}) ${met.unresolved ? 'met' : 'NOT met'}; ` +
      `p99 ${ms(t.p99)} ms (goal ≤ ${SOLVER_GOALS.p99_ms}) ${met.p99 ? 'met' : 'NOT met'}; ` +
      `mean ${ms(t.mean)} ms (goal ≤ ${SOLVER_GOALS.mean_ms}) ${met.mean ? 'met' : 'NOT met'}`,
  );
  return {
    shuffles: count,
    budget: SOLVER_BUDGET,
    ...tally,
    mean_ms: round(t.mean),
    ...figures(t),
    mean_nodes: round(n.mean, 1),
    p50_nodes: n.p50,
    p99_nodes: n.p99,
    max_nodes: n.max,
    bad_replays: badReplays,
    unsolvable_seeds: unsolvable,
    goals_met: met,
  };
}

/**
 * (f) The unsolvable answers of (d), checked by a second method that shares no code
 * with the solver: a set of up to two whole face groups that, alone on the board,
 * cannot be cleared (exhaustive search over move orders). Any clearing of the whole
 * deal would clear them alone too, so a certificate proves the answer; a deal without
 * one that small stays unchecked (its unsolvability is not local to two groups).
 */
function certifyUnsolvable(turtle: Layout, seeds: readonly string[]) {
  const rows = seeds.map((seed, k) => {
    progress(`(f) ${seed} ${k + 1}/${seeds.length}`);
    const faces = naiveFaces(turtle, seed);
    let core: number[] | null = null;
    const ms = timed(() => (core = unclearableCore(turtle.slots, faces, 2)));
    const found = core as number[] | null;
    return {
      seed,
      groups: found
        ? new Set(found.map((i) => (faces[i]![0] === 'f' || faces[i]![0] === 's' ? faces[i]![0] : faces[i]))).size
        : 0,
      faces: found ? found.map((i) => faces[i]).join(' ') : '',
      ms,
    };
  });
  done();
  const certified = rows.filter((r) => r.groups > 0);
  console.log(
    `\n(f) Independent check of the ${seeds.length} unsolvable answers of (d): ${certified.length} certified by a core of ` +
      `one face group (${certified.filter((r) => r.groups === 1).length}) or two (${certified.filter((r) => r.groups === 2).length}) ` +
      `that alone cannot be cleared; ${seeds.length - certified.length} without a core that small (unchecked, not contradicted: ` +
      `${
        rows
          .filter((r) => r.groups === 0)
          .map((r) => r.seed)
          .join(', ') || 'none'
      })`,
  );
  console.log(`cores: ${certified.map((r) => `${r.seed} [${r.faces}]`).join('; ')}`);
  return {
    unsolvable: seeds.length,
    certified: certified.length,
    unchecked: rows.filter((r) => r.groups === 0).map((r) => r.seed),
  };
}

const WORKER_GOAL_MS = 16; // p99 of one answer (one frame), in Node, on the worker's code (the solver issue)

/**
 * (e) What the browser's worker answers along random games: at every position of
 * `games` random turtle games per mode (uniform random legal pairs until the board
 * is clear or no pair is left), the hint and "can this still be won?" requests,
 * answered by the worker's own `answer`. Unknown = the solver's 'unresolved'.
 */
function workerAnswers(turtle: Layout, games: number) {
  const rows = (['relaxed', 'classic'] as const).map((mode) => {
    const times: number[] = [];
    const cpu: number[] = []; // the process's CPU time per answer, ms
    let positions = 0;
    let unknown = 0;
    let won = 0;
    let id = 0;
    for (let k = 1; k <= games; k++) {
      progress(`(e) ${mode} game ${k}/${games}`);
      const dealt = deal(turtle, `game-${k}`, mode);
      if (!dealt.ok) throw new Error(dealt.message);
      const d: Deal = dealt.value.deal;
      const started = newGame(d);
      if (!started.ok) throw new Error(started.message);
      let game = started.value;
      const rng = makeRng(`game-${k}`, 'bench-play');
      const log: Move[] = [];
      for (;;) {
        positions++;
        for (const kind of ['hint', 'check'] as const) {
          let a: ReturnType<typeof answer> | undefined;
          const c0 = process.cpuUsage();
          times.push(timed(() => (a = answer({ id: ++id, kind, deal: d, log }))));
          const c = process.cpuUsage(c0);
          cpu.push((c.user + c.system) / 1000);
          const result = a!.kind === 'hint' || a!.kind === 'check' ? a!.result : 'error';
          if (result !== 'solvable' && result !== 'unsolvable') unknown++;
        }
        const pairs = availablePairs(game);
        if (pairs.length === 0) break;
        const [a, b] = pairs[rng.int(pairs.length)]!;
        const move: Move = { type: 'match', a, b };
        const next = applyMove(game, move);
        if (!next.ok) throw new Error(next.message);
        game = next.value;
        log.push(move);
      }
      if (game.left === 0) won++;
    }
    const t = summarize(times);
    return {
      mode,
      games,
      won,
      positions,
      requests: times.length,
      unknown,
      mean_ms: round(t.mean),
      ...figures(t),
      p99_cpu_ms: round(summarize(cpu).p99),
    };
  });
  done();
  table(
    `(e) The solver worker's answers (hint and "can this still be won?") at every position of ${games} random turtle games per mode (ms per answer)`,
    ['mode', 'games', 'won', 'positions', 'answers', 'unknown', 'mean', 'p50', 'p99', 'max', 'CPU p99'],
    rows.map((r) => [
      r.mode,
      r.games,
      r.won,
      r.positions,
      r.requests,
      r.unknown,
      ms(r.mean_ms),
      ms(r.p50_ms),
      ms(r.p99_ms),
      ms(r.max_ms),
      ms(r.p99_cpu_ms),
    ]),
  );
  const unknown = rows.reduce((s, r) => s + r.unknown, 0);
  const p99 = Math.max(...rows.map((r) => r.p99_ms ?? Infinity));
  const p99Cpu = Math.max(...rows.map((r) => r.p99_cpu_ms ?? Infinity));
  console.log(
    `goals: unknown answers ${unknown} (goal 0) ${unknown === 0 ? 'met' : 'NOT met'}; ` +
      `p99 ${ms(p99)} ms (goal ≤ ${WORKER_GOAL_MS}) ${p99 <= WORKER_GOAL_MS ? 'met' : 'NOT met'}; ` +
      `in CPU time ${ms(p99Cpu)} ms ${p99Cpu <= WORKER_GOAL_MS ? 'met' : 'NOT met'}`,
  );
  return rows;
}

const DIFFICULTY_GOAL_MS = 20; // p99 of measuring a turtle deal's difficulty, on top of the deal

/** Times measuring the difficulty of `count` deals of a layout in a mode (the deals made first, untimed). */
function difficultyRow(layout: Layout, mode: 'relaxed' | 'classic', count: number) {
  const geom = geometryOf(layout);
  if (!geom.ok) throw new Error(geom.message);
  const boards: Face[][] = [];
  for (let k = 1; k <= count; k++) {
    progress(`(g) ${layout.id} ${mode}: dealing ${k}/${count}`);
    const made = dealBoard(layout, `g${k}`, mode);
    if (made.ok) boards.push(made.value.deal.tiles.map((t) => t.face));
  }
  measureDifficulty(geom.value, boards[0]!, mode); // warm-up
  const wall: number[] = [];
  const cpu: number[] = [];
  const bands = { easy: 0, medium: 0, hard: 0, expert: 0 };
  for (const faces of boards) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const { band } = measureDifficulty(geom.value, faces, mode);
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    bands[band]++;
  }
  const t = summarize(wall);
  const u = summarize(cpu);
  return {
    layout: layout.id,
    mode,
    tiles: layout.slots.length,
    deals: boards.length,
    ...figures(t),
    p50_cpu_ms: round(u.p50),
    p99_cpu_ms: round(u.p99),
    bands,
  };
}

function difficultyTimes(count: number) {
  const turtle = (['relaxed', 'classic'] as const).map((mode) => difficultyRow(layoutById('turtle')!, mode, count));
  const others = LAYOUTS.filter((l) => l.id !== 'turtle').flatMap((layout) =>
    (['relaxed', 'classic'] as const).map((mode) => difficultyRow(layout, mode, Math.max(10, count / 10))),
  );
  done();
  const rows = [...turtle, ...others];
  table(
    `(g) A deal's difficulty on top of the deal: ${count} turtle deals per mode, ${Math.max(10, count / 10)} of each other built-in (ms)`,
    ['layout', 'mode', 'tiles', 'deals', 'p50', 'p99', 'max', 'CPU p50', 'CPU p99', 'easy', 'medium', 'hard', 'expert'],
    rows.map((r) => [
      r.layout,
      r.mode,
      r.tiles,
      r.deals,
      ms(r.p50_ms),
      ms(r.p99_ms),
      ms(r.max_ms),
      ms(r.p50_cpu_ms),
      ms(r.p99_cpu_ms),
      r.bands.easy,
      r.bands.medium,
      r.bands.hard,
      r.bands.expert,
    ]),
  );
  const worst = Math.max(...turtle.map((r) => r.p99_ms ?? Infinity));
  console.log(
    `goal: turtle p99 ≤ ${DIFFICULTY_GOAL_MS} ms in both modes: ${worst <= DIFFICULTY_GOAL_MS ? 'met' : 'NOT met'} ` +
      `(${turtle.map((r) => `${r.mode} ${ms(r.p99_ms)} ms wall, ${ms(r.p99_cpu_ms)} ms CPU`).join('; ')}); ` +
      `slowest p99 of any built-in: ${ms(Math.max(...rows.map((r) => r.p99_ms ?? 0)))} ms`,
  );
  return rows;
}

function main(): void {
  const flags = parseFlags('bench/engine.ts', process.argv.slice(2), { quick: 'switch', only: 'value' });
  const counts = flags.has('quick') ? QUICK : FULL;
  const only = flags.text('only') ?? 'abcdefg'; // sections to run, e.g. --only de (f needs d)
  if (!/^[a-g]+$/.test(only))
    throw new UsageError(`bad --only ${JSON.stringify(only)}: letters a to g, the sections to run`);
  if (only.includes('f') && !only.includes('d'))
    throw new UsageError('--only with f needs d too: f checks the unsolvable answers of d');
  const turtle = layoutById('turtle');
  if (!turtle) throw new Error('no built-in turtle layout');
  const started = performance.now();
  const load = loadavg()[0]!.toFixed(1);
  console.log(
    `Engine bench${flags.has('quick') ? ' (--quick)' : ''}: node ${process.version}, ${availableParallelism()} CPUs, ` +
      `load average ${load} at start (wall-clock times; tail percentiles suffer on a busy machine)`,
  );
  const compare = only.includes('a') ? compareTurtle(turtle, counts.compare) : null;
  const relaxed = only.includes('b') ? relaxedDeals(counts.relaxed) : null;
  const classic = only.includes('c')
    ? classicDeals(counts.classic, counts.classicCapMs, counts.corpus, counts.corpusCapMs)
    : null;
  const solver = only.includes('d') ? solverOnShuffles(turtle, counts.shuffles) : null;
  const worker = only.includes('e') ? workerAnswers(turtle, counts.games) : null;
  const certificates = only.includes('f') && solver ? certifyUnsolvable(turtle, solver.unsolvable_seeds) : null;
  const difficulty = only.includes('g') ? difficultyTimes(counts.difficulty) : null;
  const seconds = round((performance.now() - started) / 1000, 1);
  console.log(`\ntotal ${seconds} s`);
  console.log(
    JSON.stringify({
      quick: flags.has('quick'),
      seconds,
      load_average: Number(load),
      turtle_relaxed: compare,
      relaxed,
      classic,
      solver,
      worker,
      certificates,
      difficulty,
    }),
  );
}

try {
  main();
} catch (e) {
  process.stderr.write(`bench: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = e instanceof UsageError ? 2 : 1;
}
