/**
 * The colour theme of every page (docs/contracts.md, "Themes"): light, dark or high contrast, chosen by the `theme`
 * cookie, else by the system's `prefers-color-scheme`.
 *
 * The server renders `<html data-theme="light|dark|contrast">`. Without a cookie it cannot know the
 * system's choice (a first request carries no such header in most browsers), so it renders
 * `data-theme="light" data-theme-auto`: the stylesheet then follows `prefers-color-scheme` by a media
 * query on `[data-theme-auto]` (no flash, and no script needed), and the theme script sets
 * `data-theme` to the scheme shown. The cookie is not signed: it only changes how pages look.
 */
import { isTheme, THEME_COOKIE, THEME_MAX_AGE, THEMES, type ThemeName } from '../../shared/theme.ts';
import { sameOriginPath } from './location.ts';

export { THEME_COOKIE, THEME_MAX_AGE, THEMES, type ThemeName };
/** What the theme form offers: a theme, or `auto` (follow the system; no cookie). */
export const THEME_CHOICES = ['auto', ...THEMES] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

export interface Theme {
  readonly name: ThemeName; // the value of data-theme as rendered
  readonly auto: boolean; // no cookie: the stylesheet follows prefers-color-scheme
}

/** The theme a `theme` cookie asks for; anything but light, dark or contrast means auto. */
export function themeOf(cookie: string | undefined): Theme {
  return isTheme(cookie) ? { name: cookie, auto: false } : { name: 'light', auto: true };
}

/** The theme form's choice for a theme (the selected option). */
export const choiceOf = (theme: Theme): ThemeChoice => (theme.auto ? 'auto' : theme.name);

/** A same-site path to go back to after the form: a path on this site, else the home page. */
export function backPath(raw: unknown): string {
  return typeof raw === 'string' && raw.length <= 512 ? sameOriginPath(raw) : '/';
}
