/**
 * `study --difficulty`: how well a deal's band tells how hard it is, per layout and mode, by random play and
 * the bot on deal `S-k` (the method: docs/study.md, "Measured difficulty").
 */
import {
  BANDS,
  deal,
  geometryOf,
  groupsOf,
  makeRng,
  playBot,
  playRandom,
  type Band,
  type Geometry,
  type Layout,
  type Mode,
} from '../engine/index.ts';
import type { Source } from './corpus.ts';
import { mean, round } from './measure.ts';

export const CALIBRATION_DEALS = 400; // per layout and mode
export const CALIBRATION_RANDOM = 1_000; // games per deal
export const CALIBRATION_BOT = 100; // games per deal
const BOOTSTRAP = 1_000; // resamples of a band's deals

/** One row: one band of one layout in one mode. Rates are shares in [0, 1]; null when the band has no deal. */
export interface CalibrationRow {
  source: Source;
  layout: string;
  tiles: number;
  mode: Mode;
  band: Band;
  deals: number;
  share: number; // of the layout's deals in this mode
  score_min: number | null;
  score_max: number | null;
  random_clear: number | null; // mean of its deals' rates
  random_q1: number | null; // of its deals' rates
  random_median: number | null;
  random_q3: number | null;
  random_mid_low: number | null; // the band's rate's middle half over resamples
  random_mid_high: number | null;
  bot_clear: number | null;
  bot_mid_low: number | null;
  bot_mid_high: number | null;
  in_order: boolean | null; // against the band before; null for easy or no deals
  error: string;
}

export type Progress = (text: string) => void;

interface Measured {
  readonly band: Band;
  readonly score: number;
  readonly random: number; // clear rate
  readonly bot: number;
}

/** The q-quantile (0–1) of ascending `sorted`, interpolated between neighbours (numpy's default). */
export function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/** The middle half of the mean of `values` over resamples (with replacement), from a seeded stream. */
export function resampledMiddle(values: readonly number[], stream: string): [number, number] {
  const rng = makeRng('calibrate', 'bootstrap', stream);
  const means: number[] = [];
  for (let r = 0; r < BOOTSTRAP; r++) {
    let sum = 0;
    for (let k = 0; k < values.length; k++) sum += values[rng.int(values.length)]!;
    means.push(sum / values.length);
  }
  means.sort((a, b) => a - b);
  return [quantile(means, 0.25), quantile(means, 0.75)];
}

function measure(geom: Geometry, layout: Layout, seed: string, mode: Mode): Measured | string {
  const made = deal(layout, seed, mode);
  if (!made.ok) return `${mode} ${seed}: ${made.message}`;
  const faces = made.value.deal.tiles.map((t) => t.face);
  const groups = groupsOf(faces);
  const rng = makeRng(seed, 'calibrate', mode);
  let cleared = 0;
  for (let g = 0; g < CALIBRATION_RANDOM; g++) if (playRandom(geom, groups, rng) === 0) cleared++;
  let won = 0;
  for (let g = 0; g < CALIBRATION_BOT; g++) if (playBot(geom, faces, `${seed}/calibrate/${g}`, 0).won) won++;
  const { band, score } = made.value.deal.difficulty;
  return { band, score, random: cleared / CALIBRATION_RANDOM, bot: won / CALIBRATION_BOT };
}

/** A row with nothing measured yet (`tiles` 0 for a layout that could not be read). */
export const calibrationRowOf = (
  source: Source,
  layout: string,
  mode: Mode,
  band: Band,
  tiles = 0,
): CalibrationRow => ({
  source,
  layout,
  tiles,
  mode,
  band,
  deals: 0,
  share: 0,
  score_min: null,
  score_max: null,
  random_clear: null,
  random_q1: null,
  random_median: null,
  random_q3: null,
  random_mid_low: null,
  random_mid_high: null,
  bot_clear: null,
  bot_mid_low: null,
  bot_mid_high: null,
  in_order: null,
  error: '',
});

/** Is `row` strictly harder than `easier`, with no overlap of their middle halves? */
const isInOrder = (easier: CalibrationRow, row: CalibrationRow): boolean =>
  row.random_clear! < easier.random_clear! &&
  row.bot_clear! < easier.bot_clear! &&
  row.random_q3! < easier.random_q1! &&
  row.random_mid_high! < easier.random_mid_low! &&
  row.bot_mid_high! < easier.bot_mid_low!;

/** The four rows of one layout in one mode, from `deals` deals (seeds `${seed}-1` …). */
export function calibrateLayout(
  source: Source,
  layout: Layout,
  mode: Mode,
  deals: number,
  seed: string,
  progress: Progress,
): CalibrationRow[] {
  const rows = BANDS.map((band) => calibrationRowOf(source, layout.id, mode, band, layout.slots.length));
  const geom = geometryOf(layout);
  if (!geom.ok) return rows.map((row) => ({ ...row, error: geom.message }));
  const measured: Measured[] = [];
  let error = '';
  for (let k = 1; k <= deals; k++) {
    if (k % 20 === 1) progress(`${layout.id} ${mode}: deal ${k}/${deals}`);
    const m = measure(geom.value, layout, `${seed}-${k}`, mode);
    if (typeof m === 'string') error ||= m;
    else measured.push(m);
  }
  rows.forEach((row, b) => {
    row.error = error;
    const of = measured.filter((m) => m.band === row.band);
    row.deals = of.length;
    row.share = measured.length ? of.length / measured.length : 0;
    if (of.length === 0) return;
    const scores = of.map((m) => m.score);
    row.score_min = Math.min(...scores);
    row.score_max = Math.max(...scores);
    const random = of.map((m) => m.random).sort((x, y) => x - y);
    const bot = of.map((m) => m.bot);
    row.random_clear = mean(random);
    row.random_q1 = quantile(random, 0.25);
    row.random_median = quantile(random, 0.5);
    row.random_q3 = quantile(random, 0.75);
    [row.random_mid_low, row.random_mid_high] = resampledMiddle(random, `${layout.id}/${mode}/${row.band}/random`);
    row.bot_clear = mean(bot);
    [row.bot_mid_low, row.bot_mid_high] = resampledMiddle(bot, `${layout.id}/${mode}/${row.band}/bot`);
    const easier = rows[b - 1];
    if (easier && easier.deals > 0) row.in_order = isInOrder(easier, row);
  });
  return rows;
}

export const CALIBRATION_COLUMNS: readonly (keyof CalibrationRow)[] = [
  'source',
  'layout',
  'tiles',
  'mode',
  'band',
  'deals',
  'share',
  'score_min',
  'score_max',
  'random_clear',
  'random_q1',
  'random_median',
  'random_q3',
  'random_mid_low',
  'random_mid_high',
  'bot_clear',
  'bot_mid_low',
  'bot_mid_high',
  'in_order',
  'error',
];

// The columns that are rates.
const RATE_KEYS = CALIBRATION_COLUMNS.filter((key) => key === 'share' || /^(?:random|bot)_/.test(key));

/** The row with its rates rounded for output (4 decimals). */
export const roundedCalibration = (row: CalibrationRow): CalibrationRow => {
  const out = { ...row } as Record<string, unknown>;
  for (const key of RATE_KEYS) {
    const v = out[key];
    if (typeof v === 'number') out[key] = round(v, 4);
  }
  return out as unknown as CalibrationRow;
};
