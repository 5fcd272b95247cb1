/**
 * `study`: solvability and difficulty, one row per layout (columns: docs/contracts.md, "Command line"; findings:
 * docs/study.md; method: docs/cli.md, "The study").
 */
import { LAYOUTS } from '../engine/builtins.ts';
import {
  BANDS,
  MODES,
  deal,
  fullPresence,
  geometryOf,
  isClearedByRandomPlay,
  makeRng,
  playBot,
  solve,
  SOLVE_BUDGET,
  type Face,
  type Geometry,
  type Layout,
} from '../engine/index.ts';
import { exactlyOne, parseFlags, quote, UsageError, type Env, type Flags } from './args.ts';
import {
  CALIBRATION_COLUMNS,
  CALIBRATION_DEALS,
  calibrateLayout,
  calibrationRowOf,
  roundedCalibration,
} from './calibrate.ts';
import { COACH_DEALS, coachStudy, coachTable } from './coach.ts';
import { MAX_BUDGET } from './commands.ts';
import { corpusDir, corpusLayouts, type CorpusEntry, type Source } from './corpus.ts';
import { max, mean, round } from './measure.ts';
import { naiveFaces } from '../engine/naive.ts';

import { builtinLayout } from './source.ts';

export const STUDY_DEALS = 40; // as in the published study
export const STUDY_SEED = 'study';
export const PLAYOUTS_PER_DEAL = 20; // random legal playouts per deal
export const MAX_DEALS = 10_000;

export interface StudyOptions {
  readonly deals: number;
  readonly budget: number; // solver nodes per naive deal
  readonly seed: string; // deal k uses `${seed}-${k}`
}

/** One row; rates in [0, 1], null when nothing to measure. */
export interface StudyRow {
  source: Source;
  layout: string;
  name: string;
  tiles: number;
  deals: number;
  budget: number;
  naive_solvable: number;
  naive_unsolvable: number;
  naive_unresolved: number;
  naive_random_clear: number | null; // the traditional difficulty
  naive_random_stuck: number | null; // 1 − naive_random_clear
  relaxed_random_clear: number | null;
  classic_random_clear: number | null;
  classic_mean_attempts: number | null; // shuffles our classic generator tried per deal
  classic_max_attempts: number | null;
  classic_mended: number | null; // mended rather than proved as shuffled
  relaxed_failures: number;
  classic_failures: number;
  // The bot with 0, 3 and unlimited shuffles; naive: every naive deal.
  bot_naive_0: number | null;
  bot_naive_3: number | null;
  bot_naive_unlimited: number | null;
  bot_relaxed_0: number | null;
  bot_relaxed_3: number | null;
  bot_relaxed_unlimited: number | null;
  bot_classic_0: number | null;
  bot_classic_3: number | null;
  bot_classic_unlimited: number | null;
  solver_mean_ms: number | null; // on the naive deals
  solver_max_ms: number | null;
  error: string; // the first failure, '' when none
}

export type Progress = (text: string) => void;

interface Dealt {
  readonly faces: readonly Face[]; // in slot order
  readonly seed: string;
}

/** The share of random playouts that clear the board (null for none). */
function clearRate(geom: Geometry, deals: readonly Dealt[], stream: string): number | null {
  if (deals.length === 0) return null;
  let cleared = 0;
  for (const d of deals) {
    const rng = makeRng(d.seed, 'playout', stream);
    for (let p = 0; p < PLAYOUTS_PER_DEAL; p++) if (isClearedByRandomPlay(geom, d.faces, rng)) cleared++;
  }
  return cleared / (deals.length * PLAYOUTS_PER_DEAL);
}

/** The share of deals the bot clears within `shuffles` shuffles (null for none). */
function botRate(geom: Geometry, deals: readonly Dealt[], shuffles: number): number | null {
  if (deals.length === 0) return null;
  return deals.filter((d) => playBot(geom, d.faces, d.seed, shuffles).won).length / deals.length;
}

/** A row with nothing measured yet. */
const emptyRow = (source: Source, id: string, name: string, tiles: number, options: StudyOptions): StudyRow => ({
  source,
  layout: id,
  name,
  tiles,
  deals: options.deals,
  budget: options.budget,
  naive_solvable: 0,
  naive_unsolvable: 0,
  naive_unresolved: 0,
  naive_random_clear: null,
  naive_random_stuck: null,
  relaxed_random_clear: null,
  classic_random_clear: null,
  classic_mean_attempts: null,
  classic_max_attempts: null,
  classic_mended: null,
  relaxed_failures: 0,
  classic_failures: 0,
  bot_naive_0: null,
  bot_naive_3: null,
  bot_naive_unlimited: null,
  bot_relaxed_0: null,
  bot_relaxed_3: null,
  bot_relaxed_unlimited: null,
  bot_classic_0: null,
  bot_classic_3: null,
  bot_classic_unlimited: null,
  solver_mean_ms: null,
  solver_max_ms: null,
  error: '',
});

/** Studies one layout. */
export function studyLayout(source: Source, layout: Layout, options: StudyOptions, progress: Progress): StudyRow {
  const row = emptyRow(source, layout.id, layout.name, layout.slots.length, options);
  const geom = geometryOf(layout);
  if (!geom.ok) return { ...row, error: geom.message };
  const seeds = Array.from({ length: options.deals }, (_, k) => `${options.seed}-${k + 1}`);
  const solvable: Dealt[] = [];
  const naive: Dealt[] = [];
  const relaxed: Dealt[] = [];
  const classic: Dealt[] = [];
  const solverMs: number[] = [];
  const attempts: number[] = [];
  let mended = 0;
  const full = fullPresence(geom.value.size);
  seeds.forEach((seed, k) => {
    progress(`${layout.id}: deal ${k + 1}/${seeds.length}`);
    const faces = naiveFaces(layout, seed);
    naive.push({ faces, seed });
    const started = performance.now();
    const answer = solve(geom.value, full, faces, { budget: options.budget, seed });
    solverMs.push(performance.now() - started);
    if (answer.result === 'solvable') {
      row.naive_solvable++;
      solvable.push({ faces, seed });
    } else if (answer.result === 'unsolvable') row.naive_unsolvable++;
    else row.naive_unresolved++;
    for (const mode of ['relaxed', 'classic'] as const) {
      const dealt = deal(layout, seed, mode);
      if (!dealt.ok) {
        row[`${mode}_failures`]++;
        row.error ||= `${mode} ${seed}: ${dealt.message}`;
        continue;
      }
      (mode === 'relaxed' ? relaxed : classic).push({ faces: dealt.value.deal.tiles.map((t) => t.face), seed });
      if (mode === 'classic') {
        attempts.push(dealt.value.stats.attempts);
        if (dealt.value.stats.trades > 0) mended++;
      }
    }
  });
  progress(`${layout.id}: random play`);
  row.naive_random_clear = clearRate(geom.value, solvable, 'naive');
  row.naive_random_stuck = row.naive_random_clear === null ? null : 1 - row.naive_random_clear;
  row.relaxed_random_clear = clearRate(geom.value, relaxed, 'relaxed');
  row.classic_random_clear = clearRate(geom.value, classic, 'classic');
  progress(`${layout.id}: the bot`);
  for (const [kind, dealt] of [
    ['naive', naive],
    ['relaxed', relaxed],
    ['classic', classic],
  ] as const) {
    row[`bot_${kind}_0`] = botRate(geom.value, dealt, 0);
    row[`bot_${kind}_3`] = botRate(geom.value, dealt, 3);
    row[`bot_${kind}_unlimited`] = botRate(geom.value, dealt, Infinity);
  }
  row.classic_mean_attempts = attempts.length ? mean(attempts) : null;
  row.classic_max_attempts = attempts.length ? max(attempts) : null;
  row.classic_mended = attempts.length ? mended / attempts.length : null;
  row.solver_mean_ms = mean(solverMs);
  row.solver_max_ms = max(solverMs);
  return row;
}

const COLUMNS: readonly (keyof StudyRow)[] = [
  'source',
  'layout',
  'name',
  'tiles',
  'deals',
  'budget',
  'naive_solvable',
  'naive_unsolvable',
  'naive_unresolved',
  'naive_random_clear',
  'naive_random_stuck',
  'relaxed_random_clear',
  'classic_random_clear',
  'classic_mean_attempts',
  'classic_max_attempts',
  'classic_mended',
  'relaxed_failures',
  'classic_failures',
  'bot_naive_0',
  'bot_naive_3',
  'bot_naive_unlimited',
  'bot_relaxed_0',
  'bot_relaxed_3',
  'bot_relaxed_unlimited',
  'bot_classic_0',
  'bot_classic_3',
  'bot_classic_unlimited',
  'solver_mean_ms',
  'solver_max_ms',
  'error',
];

const DIGITS: Partial<Record<keyof StudyRow, number>> = {
  naive_random_clear: 4,
  naive_random_stuck: 4,
  relaxed_random_clear: 4,
  classic_random_clear: 4,
  classic_mean_attempts: 3,
  classic_mended: 4,
  bot_naive_0: 4,
  bot_naive_3: 4,
  bot_naive_unlimited: 4,
  bot_relaxed_0: 4,
  bot_relaxed_3: 4,
  bot_relaxed_unlimited: 4,
  bot_classic_0: 4,
  bot_classic_3: 4,
  bot_classic_unlimited: 4,
  solver_mean_ms: 2,
  solver_max_ms: 2,
};

const rounded = (row: StudyRow): StudyRow => {
  const out = { ...row } as Record<string, unknown>;
  for (const [key, digits] of Object.entries(DIGITS)) {
    const v = out[key];
    if (typeof v === 'number') out[key] = round(v, digits);
  }
  return out as unknown as StudyRow;
};

export const csvCell = (v: unknown): string => {
  const text = v === null || v === undefined ? '' : String(v);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export const makeCsv = (rows: readonly StudyRow[]): string =>
  [COLUMNS.join(','), ...rows.map((r) => COLUMNS.map((c) => csvCell(rounded(r)[c])).join(','))].join('\n');

/** A JSON array of rows on one line. */
export const makeJson = (rows: readonly StudyRow[]): string => JSON.stringify(rows.map(rounded));

/** `study --coach --layout ID [--deals N] [--seed S] [--json]` (coach.ts). */
function coachCommand(flags: Flags, progress: Progress): string {
  if (flags.has('all') || flags.has('budget') || flags.has('difficulty'))
    throw new UsageError('study: --coach takes --layout ID, --deals N, --seed S and --json only');
  const deals = flags.integer('deals', COACH_DEALS, 1, MAX_DEALS);
  const seed = flags.seed('seed', STUDY_SEED);
  if (`${seed}-${deals}`.length > 32)
    throw new UsageError(`bad --seed ${quote(seed)}: deal k uses seed "${seed}-k", which must fit in 32 characters`);
  const layout = builtinLayout(flags.required('layout'));
  const rows = coachStudy(layout, deals, seed, (text) => progress(`study --coach ${text}`));
  return flags.has('json') ? JSON.stringify(rows) : coachTable(rows);
}

/**
 * `study (--layout ID | --all) [--deals N] [--budget N] [--seed S] [--json] [--difficulty]`; with
 * `--difficulty` the bands' calibration (calibrate.ts) instead.
 */
export function studyCommand(argv: readonly string[], progress: Progress, env: Env = process.env): string {
  const flags = parseFlags('study', argv, {
    layout: 'value',
    all: 'switch',
    deals: 'value',
    budget: 'value',
    seed: 'value',
    json: 'switch',
    difficulty: 'switch',
    coach: 'switch',
  });
  if (flags.has('coach')) return coachCommand(flags, progress);
  const difficulty = flags.has('difficulty');
  if (difficulty && flags.has('budget'))
    throw new UsageError('study: --budget is for the solvability study; --difficulty uses no solver budget');
  const options: StudyOptions = {
    deals: flags.integer('deals', difficulty ? CALIBRATION_DEALS : STUDY_DEALS, 1, MAX_DEALS),
    budget: flags.integer('budget', SOLVE_BUDGET, 1, MAX_BUDGET),
    seed: flags.seed('seed', STUDY_SEED),
  };
  if (`${options.seed}-${options.deals}`.length > 32)
    throw new UsageError(
      `bad --seed ${quote(options.seed)}: deal k uses seed "${options.seed}-k", which must fit in 32 characters`,
    );
  const which = exactlyOne(flags, ['layout', 'all']);
  const entries: CorpusEntry[] =
    which === 'layout'
      ? [{ source: 'builtin', id: flags.required('layout'), layout: builtinLayout(flags.required('layout')) }]
      : [
          ...LAYOUTS.map((layout): CorpusEntry => ({ source: 'builtin', id: layout.id, layout })),
          ...corpusLayouts(corpusDir(env)),
        ];
  if (difficulty) {
    const rows = entries.flatMap((entry, i) => {
      const tell: Progress = (text) => progress(`study ${i + 1}/${entries.length} ${entry.source} ${text}`);
      if ('error' in entry)
        return MODES.flatMap((mode) =>
          BANDS.map((band) => ({
            ...calibrationRowOf(entry.source, entry.id, mode, band),
            error: entry.error,
          })),
        );
      return MODES.flatMap((mode) =>
        calibrateLayout(entry.source, entry.layout, mode, options.deals, options.seed, tell),
      );
    });
    const out = rows.map(roundedCalibration);
    return flags.has('json')
      ? JSON.stringify(out)
      : [
          CALIBRATION_COLUMNS.join(','),
          ...out.map((r) => CALIBRATION_COLUMNS.map((c) => csvCell(r[c])).join(',')),
        ].join('\n');
  }
  const rows = entries.map((entry, i) => {
    const tell: Progress = (text) => progress(`study ${i + 1}/${entries.length} ${entry.source} ${text}`);
    return 'error' in entry
      ? { ...emptyRow(entry.source, entry.id, entry.id, 0, options), error: entry.error }
      : studyLayout(entry.source, entry.layout, options, tell);
  });
  return flags.has('json') ? makeJson(rows) : makeCsv(rows);
}
