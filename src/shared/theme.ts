/**
 * The colour themes (docs/contracts.md, "Themes"): their ids and the `theme` cookie that keeps a player's choice,
 * for the server (src/server/view-models/theme.ts renders `<html data-theme>`) and the theme script (src/client/theme.ts
 * switches without a reload) alike.
 */
export const THEMES = ['light', 'dark', 'contrast'] as const;
export type ThemeName = (typeof THEMES)[number];

export const THEME_COOKIE = 'theme';
export const THEME_MAX_AGE = 400 * 24 * 3600; // seconds; the longest a browser keeps a cookie

export const isTheme = (value: string | undefined): value is ThemeName =>
  (THEMES as readonly string[]).includes(value ?? '');
