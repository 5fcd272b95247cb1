/**
 * Which achievements a verified win earns (docs/server.md, "Achievements"). Rules read the standing after the
 * win, so older wins count with the next one; why this is race-free: docs/storage.md, "Wins and bookkeeping".
 */
import { FAMILIES, LAYOUTS } from '../../engine/builtins.ts';
import { BANDS, type Band, type Mode } from '../../engine/index.ts';

/** Every achievement, in the order the stats page lists them. */
export const ACHIEVEMENTS = [
  'first-win',
  'first-clean-win',
  'first-classic-win',
  'wins-10',
  'clean-10',
  'wins-100',
  'wins-1000',
  'band-easy',
  'band-medium',
  'band-hard',
  'band-expert',
  'every-band',
  'expert-no-hints',
  'every-family',
  'every-layout',
  'streak-7',
  'daily-first',
  'daily-7',
  'daily-30',
] as const;
export type AchievementId = (typeof ACHIEVEMENTS)[number];

const IDS: ReadonlySet<string> = new Set(ACHIEVEMENTS);
export const isAchievementId = (id: string): id is AchievementId => IDS.has(id);

/** The achievement a win in a band earns. */
export const bandAchievement = (band: Band): AchievementId => `band-${band}`;

/** Counts needed by the count-based achievements (the stats page shows progress). */
export const GOALS = {
  'wins-10': 10,
  'clean-10': 10,
  'wins-100': 100,
  'wins-1000': 1000,
  'streak-7': 7,
  'daily-7': 7,
  'daily-30': 30,
} as const satisfies Partial<Record<AchievementId, number>>;

/** The built-in layouts' ids (a custom layout's id starts with `c-`). */
export const BUILTIN_IDS: ReadonlySet<string> = new Set(LAYOUTS.map((l) => l.id));

/** The families with at least one layout among `won`. */
export function familiesWon(won: Iterable<string>): Set<string> {
  const layouts = new Set(won);
  return new Set(FAMILIES.filter((f) => f.layouts.some((l) => layouts.has(l.id))).map((f) => f.id));
}

/** The built-in layouts among `ids`. */
export const builtinsAmong = (ids: Iterable<string>): string[] => [...ids].filter((id) => BUILTIN_IDS.has(id));

/** The win being recorded. */
export interface WinFacts {
  readonly mode: Mode;
  readonly hints: number;
  readonly clean: boolean;
  readonly band: Band | null; // null for a game begun before bands
}

/** The player's standing after the win (the win counted). */
export interface Standing {
  readonly wins: number;
  readonly cleanWins: number;
  readonly layoutsWon: readonly string[]; // built-in layout ids won at least once
  readonly bestStreak: number;
  readonly bestDailyStreak: number;
}

/** Whether `earnedBy` needs the layouts won (not when every achievement using them is held). */
export const needsLayouts = (held: ReadonlySet<string>): boolean =>
  !held.has('every-layout') || !held.has('every-family');

/** The achievements this win earns beyond `held`, in list order. Pure. */
export function earnedBy(held: ReadonlySet<string>, win: WinFacts, standing: Standing): AchievementId[] {
  const has = new Set(held);
  const earned: AchievementId[] = [];
  const check = (id: AchievementId, rule: boolean): void => {
    if (!rule || has.has(id)) return;
    has.add(id);
    earned.push(id);
  };
  check('first-win', standing.wins >= 1);
  check('first-clean-win', standing.cleanWins >= 1);
  check('first-classic-win', win.mode === 'classic');
  check('wins-10', standing.wins >= GOALS['wins-10']);
  check('clean-10', standing.cleanWins >= GOALS['clean-10']);
  check('wins-100', standing.wins >= GOALS['wins-100']);
  check('wins-1000', standing.wins >= GOALS['wins-1000']);
  for (const band of BANDS) check(bandAchievement(band), win.band === band);
  check(
    'every-band',
    BANDS.every((band) => has.has(bandAchievement(band))),
  );
  check('expert-no-hints', win.band === 'expert' && win.hints === 0);
  check('every-family', familiesWon(standing.layoutsWon).size === FAMILIES.length);
  check('every-layout', builtinsAmong(standing.layoutsWon).length === BUILTIN_IDS.size);
  check('streak-7', standing.bestStreak >= GOALS['streak-7']);
  check('daily-first', standing.bestDailyStreak >= 1);
  check('daily-7', standing.bestDailyStreak >= GOALS['daily-7']);
  check('daily-30', standing.bestDailyStreak >= GOALS['daily-30']);
  return earned.sort((a, b) => ACHIEVEMENTS.indexOf(a) - ACHIEVEMENTS.indexOf(b));
}
