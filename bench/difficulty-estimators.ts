/**
 * Can fewer random games stand in for a deal's 200 (engine difficulty.ts)? `npx tsx bench/difficulty-estimators.ts
 * [--deals N]`: the comparison docs/study.md reports (section 6, "Measured difficulty", its cost).
 *
 * Relaxed turtle deals of two seed sets, the study's (`study-1 …`, where the cuts are fitted) and others never used
 * elsewhere (`estimate-1 …`, where everything is checked). Per deal: the 200-game score as the engine measures it,
 * a reference clear rate from REFERENCE_GAMES games of a stream nothing else uses, and the clear share of k games
 * (k in GAME_COUNTS) of a third stream. Each k gets its own cuts, the quartiles of its shares on the fit seeds (as
 * the 200 games' cuts are the quartiles of 400 turtle deals). On the check seeds it prints, per k: the agreement
 * with the 200-game band (same band, off by two or more), the error against the reference rate, and the
 * separation the study measures with random play: per band the reference rates' quartiles, and the gap between
 * each band's Q1 and the next harder band's Q3 (positive: in order). A game costs about 8 µs on the turtle at
 * load 1 (`npm run bench -- --only g`), so a budget of 0.25 ms is about 32 games.
 */
import { loadavg } from 'node:os';
import { layoutById } from '../src/engine/builtins.ts';
import { dealBoard } from '../src/engine/deal.ts';
import { BAND_CUTS, bandOf } from '../src/engine/difficulty.ts';
import { geometryOf } from '../src/engine/layout.ts';
import { groupsOf } from '../src/engine/playout.ts';
import { countRandomClears } from '../src/engine/quickplay.ts';
import { rngState } from '../src/engine/rng.ts';
import { BANDS, type Band } from '../src/engine/types.ts';
import { parseFlags, UsageError } from '../src/cli/args.ts';
import { percentile } from '../src/cli/measure.ts';

const REFERENCE_GAMES = 2_000;
const GAME_COUNTS = [16, 24, 32, 48, 64] as const;

interface Row {
  readonly score200: number; // clear share of the engine's 200 games
  readonly reference: number; // clear share of REFERENCE_GAMES games
  readonly shares: readonly number[]; // per GAME_COUNTS
}

function rowsFor(prefix: string, count: number): Row[] {
  const layout = layoutById('turtle')!;
  const geom = geometryOf(layout);
  if (!geom.ok) throw new Error(geom.message);
  const rows: Row[] = [];
  for (let k = 1; k <= count; k++) {
    const seed = `${prefix}-${k}`;
    const made = dealBoard(layout, seed, 'relaxed');
    if (!made.ok) throw new Error(`${seed}: ${made.message}`);
    const faces = made.value.deal.tiles.map((t) => t.face);
    const groups = groupsOf(faces);
    const play = (games: number, ...stream: string[]) =>
      countRandomClears(geom.value, groups, rngState(...stream), games) / games;
    rows.push({
      score200: play(200, 'difficulty', faces.join('')),
      reference: play(REFERENCE_GAMES, 'reference', seed),
      shares: GAME_COUNTS.map((games) => play(games, 'estimate', seed, String(games))),
    });
    process.stderr.write(`\r${prefix}: ${k}/${count}`);
  }
  process.stderr.write('\n');
  return rows;
}

/** The band of a share under `cuts` (least shares for easy, medium, hard). */
const bandUnder = (cuts: readonly number[], share: number): number => {
  const b = cuts.findIndex((cut) => share >= cut);
  return b < 0 ? 3 : b;
};

const sorted = (values: readonly number[]) => [...values].sort((a, b) => a - b);
const pct = (value: number) => `${(100 * value).toFixed(1)}%`;

function report(name: string, cuts: readonly number[], check: readonly Row[], estimate: (row: Row) => number): void {
  const official = (row: Row) => BANDS.indexOf(bandOf('relaxed', Math.round(row.score200 * 200), 200) as Band);
  const bands = check.map((row) => bandUnder(cuts, estimate(row)));
  const same = bands.filter((b, i) => b === official(check[i]!)).length / check.length;
  const offTwo = bands.filter((b, i) => Math.abs(b - official(check[i]!)) >= 2).length / check.length;
  const rmse = Math.sqrt(check.reduce((s, row) => s + (estimate(row) - row.reference) ** 2, 0) / check.length);
  const quartiles = [0, 1, 2, 3].map((b) => {
    const rates = sorted(check.filter((_, i) => bands[i] === b).map((row) => row.reference));
    return {
      deals: rates.length,
      q1: percentile(rates, 0.25),
      median: percentile(rates, 0.5),
      q3: percentile(rates, 0.75),
    };
  });
  const gaps = [1, 2, 3].map((b) => quartiles[b - 1]!.q1 - quartiles[b]!.q3);
  console.log(
    `| ${name} | ${cuts.map(pct).join(' · ')} | ${pct(same)} | ${pct(offTwo)} | ${(100 * rmse).toFixed(1)} | ` +
      `${quartiles.map((q) => `${pct(q.q1)}–${pct(q.q3)} (${q.deals})`).join(' · ')} | ${gaps.map(pct).join(' · ')} |`,
  );
}

function main(argv: readonly string[]): void {
  const deals = parseFlags('bench/difficulty-estimators.ts', argv, { deals: 'value' }).integer('deals', 300, 8, 10_000);
  const fit = rowsFor('study', deals);
  const check = rowsFor('estimate', deals);
  const quartileCuts = (values: readonly number[]) => [0.75, 0.5, 0.25].map((p) => percentile(sorted(values), p));
  console.log(
    `Relaxed turtle: cuts fitted on study-1 … study-${deals}, checked on estimate-1 … estimate-${deals}; ` +
      `reference: ${REFERENCE_GAMES} games; load ${loadavg()[0]!.toFixed(1)}`,
  );
  console.log(
    '| estimator | cuts (easy · medium · hard) | same band as 200 games | off by two | error vs reference (points) | reference rate Q1–Q3 per band (deals) | gaps between bands |',
  );
  console.log('| --- | --- | ---: | ---: | ---: | --- | --- |');
  report(
    '200 games (the engine)',
    BAND_CUTS.relaxed.map((c) => c / 1000),
    check,
    (row) => row.score200,
  );
  GAME_COUNTS.forEach((games, k) =>
    report(`${games} games`, quartileCuts(fit.map((row) => row.shares[k]!)), check, (row) => row.shares[k]!),
  );
}

try {
  main(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.error(error.message);
  process.exit(2);
}
