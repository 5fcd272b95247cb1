/**
 * What the play page's script knows of the first game's lesson; the lesson itself (tutorial.ts) is a script
 * fetched only when it opens, so a returning player's page loads none of it.
 */
import type { Format } from '../shared/i18n.ts';
import { isTutorialDone, makePrefsCookie, readPrefsCookie, withTutorialDone } from '../shared/prefs.ts';
import { nextTask } from './env.ts';
import { t } from './i18n.ts';

declare const __TUTORIAL_FILE__: string; // set by scripts/build-client.ts

export const readPrefs = (doc: Document): string | undefined => readPrefsCookie(doc.cookie);

/** Keeps the lesson shut for good in this browser. */
export function markTutorialDone(doc: Document): void {
  const value = withTutorialDone(readPrefs(doc));
  doc.cookie = makePrefsCookie(value);
}

type Opener = (
  doc: Document,
  template: HTMLTemplateElement,
  done: () => void,
  t: Format,
  drawn: HTMLDialogElement | null,
) => void;

/**
 * The lesson: taken over at once when the server drew it open (a first visit: `#tutorial` already on the page),
 * and opened from How to play at any time. If its script cannot load, the drawn lesson goes, leaving the board.
 */
export function bootTutorial(doc: Document): void {
  const template = doc.getElementById('tutorial-template');
  if (!(template instanceof HTMLTemplateElement)) return;
  let opening = false;
  const open = (drawn: HTMLDialogElement | null): void => {
    if (opening || (!drawn && doc.getElementById('tutorial'))) return;
    opening = true;
    const url = new URL(__TUTORIAL_FILE__, import.meta.url).href;
    (import(/* @vite-ignore */ url) as Promise<{ openTutorial: Opener }>)
      .then(async ({ openTutorial }) => {
        await nextTask(); // the module evaluated in one task, the dialog taken over in the next
        openTutorial(doc, template, () => markTutorialDone(doc), t, drawn);
      })
      .catch((error: unknown) => {
        console.warn('the lesson could not load', error);
        if (drawn) removeDrawn(doc);
      })
      .finally(() => (opening = false));
  };
  doc.addEventListener('click', (e) => {
    const button = (e.target as Element).closest?.('[data-tutorial-open]');
    if (!button) return;
    e.preventDefault();
    button.closest<HTMLElement>('[popover]')?.hidePopover?.();
    open(null);
  });
  const drawn = doc.getElementById('tutorial');
  if (!(drawn instanceof HTMLDialogElement)) return;
  // A page kept from before the lesson was done or skipped (the service worker's copy) still has it drawn.
  if (isTutorialDone(readPrefs(doc))) removeDrawn(doc);
  else open(drawn);
}

function removeDrawn(doc: Document): void {
  doc.getElementById('tutorial')?.remove();
  doc.querySelector('.tutorial-backdrop')?.remove();
}
