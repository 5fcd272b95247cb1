/**
 * What the play page's own script knows of the first game's lesson: where its words are (the server's
 * `#tutorial-template`), whether it opens by itself (`data-first`), and the prefs cookie's word that keeps it
 * shut. The lesson itself (tutorial.ts, with its part of the engine) is a script of its own, fetched only when
 * it opens, so a returning player's page loads not a byte of it.
 */
import type { Format } from '../shared/i18n.ts';
import { makePrefsCookie, readPrefsCookie, withTutorialDone } from '../shared/prefs.ts';
import { t } from './i18n.ts';

declare const __TUTORIAL_FILE__: string; // the lesson's hashed file name, set by scripts/build-client.ts

/** The prefs cookie's value, as the page has it. */
export const readPrefs = (doc: Document): string | undefined => readPrefsCookie(doc.cookie);

/** Keeps the lesson shut for good in this browser (finished or skipped). */
export function markTutorialDone(doc: Document): void {
  const value = withTutorialDone(readPrefs(doc));
  doc.cookie = makePrefsCookie(value);
}

type Opener = (doc: Document, template: HTMLTemplateElement, done: () => void, t: Format) => void;

/** Opens the lesson when the page says it is a first visit, and from How to play at any time. */
export function bootTutorial(doc: Document): void {
  const template = doc.getElementById('tutorial-template');
  if (!(template instanceof HTMLTemplateElement)) return;
  let opening = false;
  const open = (): void => {
    if (opening || doc.getElementById('tutorial')) return;
    opening = true;
    const url = new URL(__TUTORIAL_FILE__, import.meta.url).href;
    (import(/* @vite-ignore */ url) as Promise<{ openTutorial: Opener }>)
      .then(({ openTutorial }) => openTutorial(doc, template, () => markTutorialDone(doc), t))
      .catch((error: unknown) => console.warn('the lesson could not load', error))
      .finally(() => (opening = false));
  };
  doc.addEventListener('click', (e) => {
    const button = (e.target as Element).closest?.('[data-tutorial-open]');
    if (!button) return;
    e.preventDefault();
    button.closest<HTMLElement>('[popover]')?.hidePopover?.();
    open();
  });
  if (!template.hasAttribute('data-first')) return;
  // After the page's own first work (its load, then an idle moment): the lesson's script and styles never
  // compete with the board's first paint and first tap.
  const win = doc.defaultView;
  const idle = (): void => void (win?.requestIdleCallback ? win.requestIdleCallback(open, { timeout: 1500 }) : open());
  if (doc.readyState === 'complete') idle();
  else win?.addEventListener('load', idle, { once: true });
}
