/** Each achievement's catalog keys (docs/server.md, "Achievements"); rules: src/server/stores/achievements.ts. */
export interface AchievementKeys {
  readonly name: string;
  readonly rule: string;
}

export const ACHIEVEMENT_KEYS = {
  'first-win': { name: 'client.achievement.firstWin', rule: 'client.achievement.firstWinRule' },
  'first-clean-win': { name: 'client.achievement.firstClean', rule: 'client.achievement.firstCleanRule' },
  'first-classic-win': { name: 'client.achievement.firstClassic', rule: 'client.achievement.firstClassicRule' },
  'wins-10': { name: 'client.achievement.wins10', rule: 'client.achievement.wins10Rule' },
  'clean-10': { name: 'client.achievement.clean10', rule: 'client.achievement.clean10Rule' },
  'wins-100': { name: 'client.achievement.wins100', rule: 'client.achievement.wins100Rule' },
  'wins-1000': { name: 'client.achievement.wins1000', rule: 'client.achievement.wins1000Rule' },
  'band-easy': { name: 'client.achievement.bandEasy', rule: 'client.achievement.bandEasyRule' },
  'band-medium': { name: 'client.achievement.bandMedium', rule: 'client.achievement.bandMediumRule' },
  'band-hard': { name: 'client.achievement.bandHard', rule: 'client.achievement.bandHardRule' },
  'band-expert': { name: 'client.achievement.bandExpert', rule: 'client.achievement.bandExpertRule' },
  'every-band': { name: 'client.achievement.everyBand', rule: 'client.achievement.everyBandRule' },
  'expert-no-hints': { name: 'client.achievement.expertNoHints', rule: 'client.achievement.expertNoHintsRule' },
  'every-family': { name: 'client.achievement.everyFamily', rule: 'client.achievement.everyFamilyRule' },
  'every-layout': { name: 'client.achievement.everyLayout', rule: 'client.achievement.everyLayoutRule' },
  'streak-7': { name: 'client.achievement.streak7', rule: 'client.achievement.streak7Rule' },
  'daily-first': { name: 'client.achievement.dailyFirst', rule: 'client.achievement.dailyFirstRule' },
  'daily-7': { name: 'client.achievement.daily7', rule: 'client.achievement.daily7Rule' },
  'daily-30': { name: 'client.achievement.daily30', rule: 'client.achievement.daily30Rule' },
} as const satisfies Readonly<Record<string, AchievementKeys>>;

/** An achievement's keys; undefined for an unknown id. */
export const achievementText = (id: string): AchievementKeys | undefined =>
  Object.hasOwn(ACHIEVEMENT_KEYS, id) ? (ACHIEVEMENT_KEYS as Readonly<Record<string, AchievementKeys>>)[id] : undefined;

/** What an open achievement's progress counts, and its message ("Layouts: 31 of 42"). */
export const PROGRESS_KEYS = {
  wins: 'stats.progressWins',
  'clean wins': 'stats.progressCleanWins',
  layouts: 'stats.progressLayouts',
  families: 'stats.progressFamilies',
  bands: 'stats.progressBands',
  days: 'stats.progressDays',
} as const;
