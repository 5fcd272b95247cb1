/**
 * The theme switch on every page (views/partials/theme.eta), loaded as its own small module.
 *
 * Without a `theme` cookie the server renders `data-theme="light" data-theme-auto` and the stylesheet
 * follows `prefers-color-scheme` (src/server/views/theme.ts); this script makes `data-theme` say the
 * scheme shown, and keeps saying it when the system switches. Choosing in the form applies at once:
 * the cookie the server would set is set here (the same name, path and lifetime), and nothing reloads.
 * Without script the form posts to /theme, which sets the cookie and comes back.
 *
 * The language picker (views/partials/lang.eta) is a form too: the page must come again from the server in
 * the new language, so a choice submits it at once (without script, its button does).
 */
const THEMES = ['light', 'dark', 'contrast'];
const COOKIE = 'theme'; // src/server/views/theme.ts THEME_COOKIE
const MAX_AGE = 400 * 24 * 3600; // seconds, as THEME_MAX_AGE

/** Sets `data-theme` from the system's scheme while the page follows it. */
function followSystem(root: HTMLElement, dark: MediaQueryList): void {
  if (root.hasAttribute('data-theme-auto')) root.dataset.theme = dark.matches ? 'dark' : 'light';
}

/** Applies a choice of the form (auto, light, dark, contrast) and keeps it in the cookie. */
export function applyTheme(doc: Document, choice: string, dark: MediaQueryList): void {
  const root = doc.documentElement;
  const auto = !THEMES.includes(choice);
  const secure = doc.location.protocol === 'https:' ? '; secure' : '';
  doc.cookie = auto
    ? `${COOKIE}=; path=/; max-age=0; samesite=lax${secure}`
    : `${COOKIE}=${choice}; path=/; max-age=${MAX_AGE}; samesite=lax${secure}`;
  root.toggleAttribute('data-theme-auto', auto);
  if (auto) followSystem(root, dark);
  else root.dataset.theme = choice;
  doc
    .querySelector('meta[name="color-scheme"]')
    ?.setAttribute('content', auto ? 'light dark' : choice === 'dark' ? 'dark' : 'light');
}

function start(doc: Document): void {
  const root = doc.documentElement;
  const dark = doc.defaultView!.matchMedia('(prefers-color-scheme: dark)');
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
}

for (const form of document.querySelectorAll<HTMLFormElement>('form.lang-form')) {
  const select = form.querySelector('select');
  select?.addEventListener('change', () => form.requestSubmit());
}

start(document);
