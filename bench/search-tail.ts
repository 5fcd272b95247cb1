/**
 * The search's tail, machine-free (`npm run bench:tail`): how many nodes the solver needs on the hardest uniform
 * shuffles of every layout of 144 tiles, over many tie-break seeds, so that a change of search can be judged on the
 * deals that set each layout's max without the chaos of one path.
 *
 * One deal's nodes can change a hundredfold with the tie-break seed alone (`solve`'s `seed`): spider's `wide-1057`
 * takes 29 to 8,894 nodes over 60 seeds. So the max of a race is mostly which deal drew an unlucky path, and a change
 * that shortens that path usually lengthens another layout's (docs/study.md, section 5). This bench measures the
 * distribution instead:
 *
 * 1. Finding the deals: `--deals N` shuffles of each layout (seeds `wide-F …`, `--first F`, default 1001), each solved
 *    once with its own seed; the `--hardest K` of each layout that took more than `--over M` nodes are kept.
 * 2. Each kept deal is solved again with `--seeds S` other tie-break seeds (`SEED/t1 …`, never its own: the deals
 *    were picked for being slow with their own seed, which would flatter any change).
 *
 * Prints, per layout, its hard deals' median and p90 nodes (over the seeds) and the layout's total; then one JSON line
 * with every deal's node counts. `--baseline FILE` (an earlier run's JSON line, saved by `--out FILE`) takes its deals
 * instead of finding them, and prints the ratios to it: per deal the median, p90 and mean over the seeds, as
 * geometric means over the deals, the total, and the deals more than 1.25× worse. Node counts depend on the engine
 * only, not on the machine: two runs of one build print the same figures.
 *
 *   npm run bench:tail [-- --deals 600] [--first 1001] [--hardest 3] [--over 1000] [--seeds 16] [--out FILE]
 *   npm run bench:tail -- --baseline FILE [--seeds 16]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { Layout } from '../src/engine/index.ts';
import { HelpRequested, parseFlags, UsageError } from '../src/cli/args.ts';
import { corpusDir } from '../src/cli/corpus.ts';
import { mean, percentile } from '../src/cli/measure.ts';
import { builtEngine } from './built.ts';
import { layoutsOf144 } from './layouts144.ts';

const USAGE =
  'usage: npm run bench:tail [-- --deals 600] [--first 1001] [--hardest 3] [--over 1000] [--seeds 16] [--out FILE]\n' +
  '       npm run bench:tail -- --baseline FILE [--seeds 16] [--out FILE]\n';
const WORSE = 1.25; // a deal counts as worse past this ratio of its mean nodes

interface HardDeal {
  readonly layout: string; // builtin:ID, kmahjongg:ID or gnome:ID
  readonly seed: string;
  readonly own: number; // nodes with its own seed
  readonly nodes: readonly number[]; // with tie-break seeds SEED/t1 …
}

/** An earlier run's seed count and deals, from its JSON line; a clear message when the file is not one. */
function readBaseline(file: string): { seeds: number; deals: HardDeal[] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`bad --baseline ${JSON.stringify(file)}: cannot read it`);
  }
  const line = text.trim().split('\n').pop() ?? '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    throw new UsageError(`bad --baseline ${JSON.stringify(file)}: its last line is not JSON`);
  }
  const { seeds, deals } = (parsed ?? {}) as { seeds?: unknown; deals?: unknown };
  const ok =
    typeof seeds === 'number' &&
    Array.isArray(deals) &&
    deals.every(
      (d: Partial<HardDeal>) =>
        typeof d.layout === 'string' &&
        typeof d.seed === 'string' &&
        typeof d.own === 'number' &&
        Array.isArray(d.nodes) &&
        d.nodes.length === seeds &&
        d.nodes.every((n) => typeof n === 'number'),
    );
  if (!ok) throw new UsageError(`bad --baseline ${JSON.stringify(file)}: not a bench:tail run (no "deals" list)`);
  return { seeds, deals: deals as HardDeal[] };
}

const sorted = (xs: readonly number[]): number[] => [...xs].sort((a, b) => a - b);
const geomean = (xs: readonly number[]): number => Math.exp(mean(xs.map(Math.log)));
const pad = (s: string | number, width: number): string => String(s).padStart(width);

async function main(): Promise<number> {
  const flags = parseFlags('bench/search-tail.ts', process.argv.slice(2), {
    deals: 'value',
    first: 'value',
    hardest: 'value',
    over: 'value',
    seeds: 'value',
    baseline: 'value',
    out: 'value',
  });
  const baselineFile = flags.text('baseline');
  if (baselineFile !== undefined && ['deals', 'first', 'hardest', 'over'].some((f) => flags.has(f)))
    throw new UsageError('--baseline takes its deals from that run: no --deals, --first, --hardest or --over');
  const base = baselineFile === undefined ? null : readBaseline(baselineFile);
  const seeds = flags.integer('seeds', base?.seeds ?? 16, 1, 1000);
  if (base && seeds !== base.seeds)
    throw new UsageError(`--seeds ${seeds}: the baseline was run with ${base.seeds}, and the seeds must be the same`);
  const baseline = base?.deals ?? null;
  const engine = await builtEngine();
  const layouts = new Map(layoutsOf144(corpusDir()).map((l) => [l.name, l.layout]));
  const nodesOf = (layout: Layout, deal: string, seed: string): number => {
    const geom = engine.geometryOf(layout);
    if (!geom.ok) throw new Error(`a layout of the corpus no longer loads: ${geom.error}`);
    return engine.solve(geom.value, engine.fullPresence(144), engine.naiveFaces(layout, deal), { seed }).nodes;
  };

  let picked: { layout: string; seed: string; own: number }[];
  if (baseline) {
    const missing = baseline.find((d) => !layouts.has(d.layout));
    if (missing) throw new UsageError(`bad --baseline: its layout ${missing.layout} is not here`);
    picked = baseline.map(({ layout, seed, own }) => ({ layout, seed, own }));
  } else {
    const count = flags.integer('deals', 600, 1, 100_000);
    const first = flags.integer('first', 1001, 1, 1_000_000_000);
    const hardest = flags.integer('hardest', 3, 1, 1000);
    const over = flags.integer('over', 1000, 0, 1_000_000_000);
    picked = [];
    for (const [name, layout] of layouts) {
      const solved = Array.from({ length: count }, (_, k) => {
        const seed = `wide-${first + k}`;
        return { layout: name, seed, own: nodesOf(layout, seed, seed) };
      });
      solved.sort((a, b) => b.own - a.own);
      picked.push(...solved.slice(0, hardest).filter((d) => d.own > over));
    }
  }

  const deals: HardDeal[] = picked.map((d) => ({
    ...d,
    nodes: Array.from({ length: seeds }, (_, t) => nodesOf(layouts.get(d.layout)!, d.seed, `${d.seed}/t${t + 1}`)),
  }));

  process.stdout.write(
    `The search's tail: ${deals.length} hard deals of ${layouts.size} layouts of 144 tiles, ${seeds} tie-break ` +
      `seeds each (nodes, machine-free)\n\n` +
      'layout'.padEnd(24) +
      `${pad('deals', 6)}${pad('own max', 9)}${pad('median', 9)}${pad('p90', 9)}${pad('total', 11)}\n`,
  );
  const byLayout = new Map<string, HardDeal[]>();
  for (const d of deals) byLayout.set(d.layout, [...(byLayout.get(d.layout) ?? []), d]);
  for (const [name, list] of byLayout) {
    const all = sorted(list.flatMap((d) => d.nodes));
    process.stdout.write(
      `${name.padEnd(24)}${pad(list.length, 6)}${pad(Math.max(...list.map((d) => d.own)), 9)}` +
        `${pad(percentile(all, 0.5), 9)}${pad(percentile(all, 0.9), 9)}${pad(
          all.reduce((s, n) => s + n, 0),
          11,
        )}\n`,
    );
  }
  const total = deals.reduce((s, d) => s + d.nodes.reduce((t, n) => t + n, 0), 0);
  process.stdout.write(`\nevery hard deal: ${total} nodes in all\n`);

  let comparison: Record<string, number> | null = null;
  if (baseline) {
    const before = new Map(baseline.map((d) => [`${d.layout} ${d.seed}`, d.nodes]));
    const ratio = (d: HardDeal, f: (xs: number[]) => number): number =>
      f(sorted(d.nodes)) / f(sorted(before.get(`${d.layout} ${d.seed}`)!));
    const baseTotal = baseline.reduce((s, d) => s + d.nodes.reduce((t, n) => t + n, 0), 0);
    comparison = {
      median: geomean(deals.map((d) => ratio(d, (xs) => percentile(xs, 0.5)))),
      p90: geomean(deals.map((d) => ratio(d, (xs) => percentile(xs, 0.9)))),
      mean: geomean(deals.map((d) => ratio(d, mean))),
      total: total / baseTotal,
      worse: deals.filter((d) => ratio(d, mean) > WORSE).length,
    };
    const times = (key: string): string => `${comparison![key]!.toFixed(3)}×`;
    process.stdout.write(
      `beside ${baselineFile} (per deal over the seeds, as geometric means over the deals): median ` +
        `${times('median')}, p90 ${times('p90')}, mean ${times('mean')}; total ${times('total')}; ` +
        `${comparison.worse} of ${deals.length} deals more than ${WORSE}× worse in the mean\n`,
    );
  }
  const line = JSON.stringify({ seeds, comparison, deals });
  process.stdout.write(`${line}\n`);
  const out = flags.text('out');
  if (out !== undefined) writeFileSync(out, `${line}\n`);
  return 0;
}

try {
  process.exitCode = await main();
} catch (e) {
  if (e instanceof HelpRequested) process.stdout.write(USAGE);
  else {
    process.stderr.write(`bench:tail: ${e instanceof Error ? e.message : String(e)}\n`);
    if (e instanceof UsageError) process.stderr.write(USAGE);
    process.exitCode = e instanceof UsageError ? 2 : 1;
  }
}
