/**
 * Achievements as players see them (docs/server.md, "Achievements"): names, rules in words, what a player holds
 * and how far they are from the rest. It only reads: the rules are applied in stores/achievements.ts.
 */
import { FAMILIES } from '../../engine/builtins.ts';
import { BANDS, type Mode } from '../../engine/index.ts';
import { ACHIEVEMENT_KEYS, type AchievementKeys } from '../../shared/achievements.ts';
import { dealUrl } from '../../shared/display.ts';
import {
  ACHIEVEMENTS,
  bandAchievement,
  BUILTIN_IDS,
  builtinsAmong,
  familiesWon,
  GOALS,
  isAchievementId,
  type AchievementId,
} from '../stores/achievements.ts';
import type { EarnedRow, StatsRows } from '../stores/types.ts';

/** The pages' catalog keys; a missing one fails to compile. */
export const ACHIEVEMENT_MESSAGES: Readonly<Record<AchievementId, AchievementKeys>> = ACHIEVEMENT_KEYS;

/** English: the API's words (`GET /api/stats`, exports). */
export const ACHIEVEMENT_TEXT: Readonly<Record<AchievementId, { readonly name: string; readonly rule: string }>> = {
  'first-win': { name: 'First win', rule: 'Clear a board.' },
  'first-clean-win': { name: 'Clean hands', rule: 'Win without a hint, a shuffle or an undo.' },
  'first-classic-win': { name: 'Classic', rule: 'Win a classic deal (faces shuffled at random, proved winnable).' },
  'wins-10': { name: 'Ten wins', rule: 'Win 10 games.' },
  'clean-10': { name: 'Spotless ten', rule: 'Win 10 games clean.' },
  'wins-100': { name: 'A hundred wins', rule: 'Win 100 games.' },
  'wins-1000': { name: 'A thousand wins', rule: 'Win 1,000 games.' },
  'band-easy': { name: 'Easy going', rule: 'Win an easy deal.' },
  'band-medium': { name: 'Middle way', rule: 'Win a medium deal.' },
  'band-hard': { name: 'Hard won', rule: 'Win a hard deal.' },
  'band-expert': { name: 'Expert', rule: 'Win an expert deal.' },
  'every-band': { name: 'Full range', rule: 'Win a deal in every band: easy, medium, hard and expert.' },
  'expert-no-hints': { name: 'Unaided expert', rule: 'Win an expert deal without a hint.' },
  'every-family': { name: 'Family tour', rule: `Win a layout of each of the ${FAMILIES.length} families.` },
  'every-layout': { name: 'Grand tour', rule: `Win every one of the ${BUILTIN_IDS.size} built-in layouts.` },
  'streak-7': { name: 'A week of wins', rule: 'Win a game on 7 days in a row (UTC).' },
  'daily-first': { name: 'Daily player', rule: 'Win the daily deal on its day.' },
  'daily-7': { name: 'Daily week', rule: 'Win the daily deal on its day, 7 days in a row.' },
  'daily-30': { name: 'Daily month', rule: 'Win the daily deal on its day, 30 days in a row.' },
};

/** As in "Layouts: 31 of 42". */
export type ProgressUnit = 'wins' | 'clean wins' | 'layouts' | 'families' | 'bands' | 'days';

export type Progress = {
  readonly done: number; // at most goal
  readonly goal: number;
  readonly unit: ProgressUnit;
};

export type EarnedBy = {
  readonly id: string;
  readonly layout: string;
  readonly seed: string;
  readonly mode: Mode;
  readonly url: string;
};

export type AchievementView = {
  readonly id: AchievementId;
  readonly name: string;
  readonly rule: string;
  readonly earned: boolean;
  readonly earnedAt: number | null; // the server's time of the winning move
  readonly game: EarnedBy | null;
  readonly progress: Progress | null; // for those earned by a count
};

export type Announced = {
  readonly id: AchievementId;
  readonly name: string;
  readonly rule: string;
};

/** Each known achievement once, in the order earned (ties in list order). */
export function held(rows: readonly EarnedRow[]): EarnedRow[] {
  return rows
    .filter((row) => isAchievementId(row.achievement))
    .sort(
      (a, b) => a.earned_at - b.earned_at || ACHIEVEMENTS.indexOf(a.achievement) - ACHIEVEMENTS.indexOf(b.achievement),
    );
}

/** As the win panel announces them. */
export function announced(rows: readonly EarnedRow[], gameId: string): Announced[] {
  return held(rows)
    .filter((row) => row.game_id === gameId)
    .map((row) => ({ id: row.achievement, ...ACHIEVEMENT_TEXT[row.achievement] }));
}

/** Every achievement in list order: held ones with date and game, open ones with progress from the aggregates. */
export function achievementViews(rows: StatsRows): AchievementView[] {
  const earned = new Map(held(rows.achievements).map((row) => [row.achievement, row]));
  const wins = rows.layouts.reduce((n, t) => n + t.won, 0);
  const cleanWins = rows.layouts.reduce((n, t) => n + t.clean_wins, 0);
  const layoutsWon = builtinsAmong(rows.layouts.filter((t) => t.won > 0).map((t) => t.layout));
  const bands = BANDS.filter((band) => earned.has(bandAchievement(band))).length;
  const count = (done: number, goal: number, unit: ProgressUnit): Progress => ({
    done: Math.min(done, goal),
    goal,
    unit,
  });
  const progressOf = (id: AchievementId): Progress | null => {
    switch (id) {
      case 'wins-10':
      case 'wins-100':
      case 'wins-1000':
        return count(wins, GOALS[id], 'wins');
      case 'clean-10':
        return count(cleanWins, GOALS[id], 'clean wins');
      case 'every-band':
        return count(bands, BANDS.length, 'bands');
      case 'every-family':
        return count(familiesWon(layoutsWon).size, FAMILIES.length, 'families');
      case 'every-layout':
        return count(layoutsWon.length, BUILTIN_IDS.size, 'layouts');
      case 'streak-7':
        return count(rows.streak, GOALS[id], 'days');
      case 'daily-7':
      case 'daily-30':
        return count(rows.dailyStreak, GOALS[id], 'days');
      default:
        return null;
    }
  };
  return ACHIEVEMENTS.map((id): AchievementView => {
    const row = earned.get(id);
    return {
      id,
      ...ACHIEVEMENT_TEXT[id],
      earned: row !== undefined,
      earnedAt: row?.earned_at ?? null,
      game: row
        ? {
            id: row.game_id,
            layout: row.layout,
            seed: row.seed,
            mode: row.mode,
            url: dealUrl(row.layout, row.seed, row.mode),
          }
        : null,
      progress: row ? null : progressOf(id),
    };
  });
}
