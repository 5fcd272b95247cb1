/** The colour theme of every page (docs/server.md, "Themes"). */
import { isTheme, THEME_COOKIE, THEME_MAX_AGE, THEMES, type ThemeName } from '../../shared/theme.ts';
import { sameOriginPath } from './location.ts';

export { THEME_COOKIE, THEME_MAX_AGE, THEMES, type ThemeName };
/** The theme form's options; `auto` follows the system. */
export const THEME_CHOICES = ['auto', ...THEMES] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

export interface Theme {
  readonly name: ThemeName;
  readonly auto: boolean; // no cookie
}

/** The theme a cookie asks for; anything else is auto. */
export function themeOf(cookie: string | undefined): Theme {
  return isTheme(cookie) ? { name: cookie, auto: false } : { name: 'light', auto: true };
}

export const choiceOf = (theme: Theme): ThemeChoice => (theme.auto ? 'auto' : theme.name);

/** The form's way back: a path on this site, else `/`. */
export function backPath(raw: unknown): string {
  return typeof raw === 'string' && raw.length <= 512 ? sameOriginPath(raw) : '/';
}
