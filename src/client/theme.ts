/**
 * The theme, tile-set and language pickers on every page, as a small module of its own: a choice applies at once
 * and sets the cookie the server would. How they work with and without script: docs/client.md, "The pickers".
 */
import { isTheme, THEME_COOKIE, THEME_MAX_AGE } from '../shared/theme.ts';
import { isTileSet, TILES_COOKIE, TILES_MAX_AGE } from '../shared/tilesets.ts';

/** Sets `data-theme` from the system's scheme while the page follows it. */
function followSystem(root: HTMLElement, dark: MediaQueryList): void {
  if (root.hasAttribute('data-theme-auto')) root.dataset.theme = dark.matches ? 'dark' : 'light';
}

/** Applies a choice (auto, light, dark, contrast) and keeps it in the cookie. */
export function applyTheme(doc: Document, choice: string, dark: MediaQueryList): void {
  const root = doc.documentElement;
  const auto = !isTheme(choice);
  const secure = doc.location.protocol === 'https:' ? '; secure' : '';
  doc.cookie = auto
    ? `${THEME_COOKIE}=; path=/; max-age=0; samesite=lax${secure}`
    : `${THEME_COOKIE}=${choice}; path=/; max-age=${THEME_MAX_AGE}; samesite=lax${secure}`;
  root.toggleAttribute('data-theme-auto', auto);
  if (auto) followSystem(root, dark);
  else root.dataset.theme = choice;
  doc
    .querySelector('meta[name="color-scheme"]')
    ?.setAttribute('content', auto ? 'light dark' : choice === 'dark' ? 'dark' : 'light');
}

function cookie(doc: Document, name: string): string | undefined {
  for (const part of doc.cookie.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** Applies a tile set (an unknown name is ignored) and keeps it in the cookie; every picker follows. */
export function applyTiles(doc: Document, set: string): void {
  if (!isTileSet(set)) return;
  const secure = doc.location.protocol === 'https:' ? '; secure' : '';
  doc.cookie = `${TILES_COOKIE}=${set}; path=/; max-age=${TILES_MAX_AGE}; samesite=lax${secure}`;
  doc.documentElement.dataset.tiles = set;
  for (const select of doc.querySelectorAll<HTMLSelectElement>('form.tiles-form select')) select.value = set;
  for (const use of doc.querySelectorAll<HTMLElement>('.tiles-use[data-set]'))
    use.toggleAttribute('data-in-use', use.dataset.set === set);
}

/** A page not rendered for this player (kept by the service worker, the offline page) takes their choices. */
function takeCookies(doc: Document, dark: MediaQueryList): void {
  const root = doc.documentElement;
  const tiles = cookie(doc, TILES_COOKIE);
  if (isTileSet(tiles) && root.dataset.tiles !== tiles) applyTiles(doc, tiles);
  const theme = cookie(doc, THEME_COOKIE);
  if (isTheme(theme) && (root.dataset.theme !== theme || root.hasAttribute('data-theme-auto'))) {
    applyTheme(doc, theme, dark);
    for (const select of doc.querySelectorAll<HTMLSelectElement>('form.theme-form select')) select.value = theme;
  }
}

function start(doc: Document): void {
  const root = doc.documentElement;
  const dark = doc.defaultView!.matchMedia('(prefers-color-scheme: dark)');
  takeCookies(doc, dark);
  followSystem(root, dark);
  dark.addEventListener('change', () => followSystem(root, dark));
  for (const form of doc.querySelectorAll<HTMLFormElement>('form.theme-form')) {
    const select = form.querySelector('select');
    if (!select) continue;
    select.addEventListener('change', () => applyTheme(doc, select.value, dark));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      applyTheme(doc, select.value, dark);
    });
  }
  for (const form of doc.querySelectorAll<HTMLFormElement>('form.tiles-form')) {
    const select = form.querySelector('select');
    if (!select) continue;
    select.addEventListener('change', () => applyTiles(doc, select.value));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      applyTiles(doc, select.value);
    });
  }
  for (const use of doc.querySelectorAll<HTMLElement>('.tiles-use[data-set]')) {
    use.querySelector('form')?.addEventListener('submit', (e) => {
      e.preventDefault();
      applyTiles(doc, use.dataset.set ?? '');
    });
  }
}

for (const form of document.querySelectorAll<HTMLFormElement>('form.lang-form')) {
  const select = form.querySelector('select');
  select?.addEventListener('change', () => form.requestSubmit());
}

start(document);
