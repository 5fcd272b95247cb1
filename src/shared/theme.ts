/** The colour themes' ids and cookie (docs/contracts.md, "Themes"). */
export const THEMES = ['light', 'dark', 'contrast'] as const;
export type ThemeName = (typeof THEMES)[number];

export const THEME_COOKIE = 'theme';
export const THEME_MAX_AGE = 400 * 24 * 3600; // s

export const isTheme = (value: string | undefined): value is ThemeName =>
  (THEMES as readonly string[]).includes(value ?? '');
