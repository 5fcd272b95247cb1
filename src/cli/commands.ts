/** The commands `layouts`, `deal` and `bench` (docs/contracts.md, "Command line"); bad input: UsageError. */
import { layoutSummaries } from '../engine/builtins.ts';
import { deal, type Deal, type Layout, type Mode } from '../engine/index.ts';
import { parseFlags, UsageError, type Flags } from './args.ts';
import { mean, round, summarize } from './measure.ts';
import { LAYOUT_FLAGS, layoutFromFlags } from './source.ts';

export const MAX_BUDGET = 1_000_000_000; // solver nodes
export const MAX_COUNT = 1_000_000; // deals in one bench
export const BENCH_COUNT = 100;

/** A command's stdout and warnings; `lines` is printed as it comes (`solve --stdin`), after the warnings. */
export interface Output {
  readonly stdout: string;
  readonly warnings: readonly string[];
  readonly lines?: AsyncIterable<string>;
}

/** `layouts`: the built-in layouts as [{id, name, tiles, family}]. */
export function layoutsCommand(argv: readonly string[]): Output {
  parseFlags('layouts', argv, {});
  return { stdout: JSON.stringify(layoutSummaries()), warnings: [] };
}

/** Deals or turns the engine's failure into a one-line error. */
export function dealOrFail(layout: Layout, seed: string, mode: Mode): { deal: Deal; attempts: number } {
  const result = deal(layout, seed, mode);
  if (!result.ok) throw new UsageError(`cannot deal ${layout.id} (${mode}): ${result.message}`); // a bad seed or layout
  return { deal: result.value.deal, attempts: result.value.stats.attempts };
}

/** `deal`: the deal JSON (docs/contracts.md, "Deal JSON") on one line. */
export function dealCommand(argv: readonly string[]): Output {
  const flags = parseFlags('deal', argv, { ...LAYOUT_FLAGS, seed: 'value', mode: 'value' });
  const seed = flags.seed();
  const mode = flags.mode();
  const { layout, warnings } = layoutFromFlags(flags);
  return { stdout: JSON.stringify(dealOrFail(layout, seed, mode).deal), warnings };
}

/** `bench`: deal `count` seeds and report timings, attempts and failures. */
export function benchCommand(argv: readonly string[]): Output {
  const flags: Flags = parseFlags('bench', argv, { ...LAYOUT_FLAGS, mode: 'value', count: 'value' });
  const mode = flags.mode();
  const count = flags.integer('count', BENCH_COUNT, 1, MAX_COUNT);
  const { layout, warnings } = layoutFromFlags(flags);
  const ms: number[] = [];
  const attempts: number[] = [];
  let failures = 0;
  for (let k = 1; k <= count; k++) {
    const started = performance.now();
    const result = deal(layout, `bench-${k}`, mode);
    ms.push(performance.now() - started);
    if (result.ok) attempts.push(result.value.stats.attempts);
    else failures++;
  }
  const t = summarize(ms);
  const report = {
    deals: count,
    p50_ms: round(t.p50),
    p99_ms: round(t.p99),
    max_ms: round(t.max),
    mean_attempts: round(mean(attempts)),
    max_attempts: attempts.length ? Math.max(...attempts) : null,
    failures,
  };
  return { stdout: JSON.stringify(report), warnings };
}
