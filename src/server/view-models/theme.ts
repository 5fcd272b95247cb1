/**
 * The colour theme of every page (docs/server.md, "Themes"): the `theme` cookie, else `data-theme-auto`, which
 * the stylesheet resolves by `prefers-color-scheme`. The cookie is not signed: it only changes how pages look.
 */
import { isTheme, THEME_COOKIE, THEME_MAX_AGE, THEMES, type ThemeName } from '../../shared/theme.ts';
import { sameOriginPath } from './location.ts';

export { THEME_COOKIE, THEME_MAX_AGE, THEMES, type ThemeName };
/** What the theme form offers: a theme, or `auto` (follow the system; no cookie). */
export const THEME_CHOICES = ['auto', ...THEMES] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

export interface Theme {
  readonly name: ThemeName; // data-theme as rendered
  readonly auto: boolean; // no cookie
}

/** The theme a `theme` cookie asks for; anything else means auto. */
export function themeOf(cookie: string | undefined): Theme {
  return isTheme(cookie) ? { name: cookie, auto: false } : { name: 'light', auto: true };
}

export const choiceOf = (theme: Theme): ThemeChoice => (theme.auto ? 'auto' : theme.name);

/** A same-site path to go back to after the form: a path on this site, else the home page. */
export function backPath(raw: unknown): string {
  return typeof raw === 'string' && raw.length <= 512 ? sameOriginPath(raw) : '/';
}
