/**
 * What the play page's script knows of the first game's lesson; the lesson itself (tutorial.ts) is a script
 * fetched only when it opens, so a returning player's page loads none of it.
 */
import type { Format } from '../shared/i18n.ts';
import { makePrefsCookie, readPrefsCookie, withTutorialDone } from '../shared/prefs.ts';
import { t } from './i18n.ts';

declare const __TUTORIAL_FILE__: string; // set by scripts/build-client.ts

export const readPrefs = (doc: Document): string | undefined => readPrefsCookie(doc.cookie);

/** Keeps the lesson shut for good in this browser. */
export function markTutorialDone(doc: Document): void {
  const value = withTutorialDone(readPrefs(doc));
  doc.cookie = makePrefsCookie(value);
}

type Opener = (doc: Document, template: HTMLTemplateElement, done: () => void, t: Format) => void;

/** Opens the lesson on a first visit, and from How to play. */
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
  // After load and an idle moment: never competing with the board's first paint and tap.
  const win = doc.defaultView;
  const idle = (): void => void (win?.requestIdleCallback ? win.requestIdleCallback(open, { timeout: 1500 }) : open());
  if (doc.readyState === 'complete') idle();
  else win?.addEventListener('load', idle, { once: true });
}
