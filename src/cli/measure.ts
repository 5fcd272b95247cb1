/**
 * Small statistics for timings and counts, shared by the CLI's `bench` and
 * `study` and by bench/engine.ts.
 */

/** The p-th percentile (0 < p ≤ 1) of ascending `sorted`, by nearest rank; NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length))) - 1]!;
}

export const mean = (values: readonly number[]): number =>
  values.length === 0 ? NaN : values.reduce((s, v) => s + v, 0) / values.length;

export const max = (values: readonly number[]): number => (values.length === 0 ? NaN : Math.max(...values));

/** Rounds to `digits` decimals; NaN becomes null so JSON stays valid. */
export const round = (value: number, digits = 3): number | null =>
  Number.isFinite(value) ? Math.round(value * 10 ** digits) / 10 ** digits : null;

export interface Timings {
  readonly p50: number; // ms
  readonly p99: number; // ms
  readonly max: number; // ms
  readonly mean: number; // ms
}

/** p50, p99, max and mean of a list of durations in ms. */
export function summarize(ms: readonly number[]): Timings {
  const sorted = [...ms].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: max(sorted), mean: mean(sorted) };
}
