/**
 * The first game's lesson on the page: a modal dialog from the server's template that draws lesson.ts's board
 * with the board's markup (docs/client.md, "The first game's lesson"). Its clicks and keys stay inside it.
 *
 * Modal by its own means, not `showModal()`: a backdrop takes the clicks, Tab and Shift+Tab go round the
 * dialog's own controls, Escape skips, and `aria-modal` tells assistive technology the rest is out of reach.
 * `showModal()` makes the rest of the page inert, and inertness is computed style: opening it restyled every
 * element of the play page, the 144 tiles and their layers among them (measured on a phone profile at load:
 * the lesson's task 62–70 ms with it, 23–35 ms without, of which 40–47 ms and 3–5 ms restyling).
 */
import { availablePairs, isTileFree } from '../engine/index.ts';
import { faceMessage, tileLabel, type Format } from '../shared/i18n.ts';
import { LESSON_DEAL } from '../shared/lesson.ts';
import { control, isOver, makeLesson, stepOf, STEPS, tapTile, type Lesson } from './lesson.ts';

const WOBBLE_MS = 420; // as board.css's wobble
const CONTROLS: Readonly<Record<string, readonly string[]>> = {
  hint: ['hint'],
  undo: ['undo', 'shuffle'],
  check: ['check'],
};

/**
 * Opens the lesson; `done` runs once when finished or skipped; `t` is the page's formatter. `drawn` is the
 * lesson the server drew open on a first visit (views/partials/tutorial.eta): taken over as it is, so opening
 * it restyles, lays out and paints next to nothing. Otherwise the dialog is made from `template`.
 */
export function openTutorial(
  doc: Document,
  template: HTMLTemplateElement,
  done: () => void,
  t: Format,
  drawn: HTMLDialogElement | null = null,
): void {
  const faceName = (face: string): string => t(...faceMessage(face));
  const dialog = drawn ?? (template.content.cloneNode(true) as DocumentFragment).querySelector('dialog')!;
  const board = dialog.querySelector<HTMLElement>('.tutorial-board')!;
  const say = dialog.querySelector<HTMLElement>('.tutorial-say')!;
  const lesson: Lesson = makeLesson();
  const opener = doc.activeElement instanceof HTMLElement ? doc.activeElement : null;
  const made = board.querySelectorAll<HTMLElement>('[data-lesson]');
  const tiles = LESSON_DEAL.tiles.map((slot, i) => {
    if (made[i]) return made[i];
    const el = doc.createElement('button');
    el.type = 'button';
    el.className = 'tile';
    el.dataset.lesson = String(i);
    el.style.cssText = `--x:${slot.x};--y:${slot.y};--z:${slot.z}`;
    el.append(doc.createElement('span'));
    el.firstElementChild!.className = 'face';
    board.append(el);
    return el;
  });
  let shown = -1; // the step drawn last

  function draw(): void {
    const { game } = lesson;
    tiles.forEach((el, i) => {
      const face = game.faces[i] ?? null;
      el.hidden = face === null;
      if (face === null) return;
      const free = isTileFree(game, i);
      el.dataset.face = face;
      el.toggleAttribute('data-free', free);
      el.classList.toggle('selected', lesson.selected === i);
      el.toggleAttribute('data-hint', lesson.hint?.includes(i) ?? false);
      el.setAttribute('aria-label', tileLabel(t, face, free, lesson.selected === i));
    });
    const over = isOver(lesson);
    const step = over ? 'done' : stepOf(lesson);
    dialog.dataset.step = step;
    for (const el of dialog.querySelectorAll<HTMLElement>('[data-text]')) el.hidden = el.dataset.text !== step;
    for (const el of dialog.querySelectorAll<HTMLElement>('[data-count]'))
      el.hidden = Number(el.dataset.count) !== Math.min(lesson.step, STEPS.length - 1);
    const wanted = over ? ['finish'] : (CONTROLS[step] ?? []);
    for (const el of dialog.querySelectorAll<HTMLElement>('[data-tut]')) el.hidden = !wanted.includes(el.dataset.tut!);
    if (lesson.step !== shown) {
      // A new step: its words go to a live region and focus to where the step acts.
      shown = lesson.step;
      const target = over ? 'finish' : wanted[0];
      if (target) dialog.querySelector<HTMLElement>(`[data-tut="${target}"]`)?.focus();
    }
  }

  const backdrop = (drawn && doc.querySelector<HTMLElement>('.tutorial-backdrop')) || doc.createElement('div');
  backdrop.className = 'tutorial-backdrop';

  function close(): void {
    done();
    dialog.close();
    dialog.remove();
    backdrop.remove();
    doc.removeEventListener('keydown', onKey, true);
    doc.removeEventListener('focusin', onFocus);
    opener?.focus();
  }

  /** Tab and Shift+Tab from the last or first control go round to the other end; never out to the page. */
  function trapTab(e: KeyboardEvent): void {
    const controls = [...dialog.querySelectorAll<HTMLElement>('button')].filter(
      (el) => !el.closest('[hidden]') && !(el as HTMLButtonElement).disabled,
    );
    const first = controls[0];
    const last = controls[controls.length - 1];
    if (!first || !last) return;
    const inside = dialog.contains(doc.activeElement);
    if (e.shiftKey && (!inside || doc.activeElement === first)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (!inside || doc.activeElement === last)) {
      e.preventDefault();
      first.focus();
    }
  }

  function wobble(el: HTMLElement): void {
    if (doc.defaultView?.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    el.classList.remove('wobble');
    void el.offsetWidth; // restarts the animation
    el.classList.add('wobble');
    setTimeout(() => el.classList.remove('wobble'), WOBBLE_MS);
  }

  function tap(i: number): void {
    const result = tapTile(lesson, i);
    const face = (slot: number): string => faceName(lesson.game.faces[slot] ?? LESSON_DEAL.tiles[slot]!.face);
    if (result.kind === 'covered' || result.kind === 'sides') {
      wobble(tiles[i]!);
      say.textContent = dialog.dataset[result.kind] ?? '';
    } else if (result.kind === 'nomatch')
      say.textContent = t('client.noMatch', { a: face(result.b), b: face(result.a) });
    else if (result.kind === 'selected') say.textContent = t('client.selected', { face: face(i) });
    else if (result.kind === 'matched')
      say.textContent = t('client.matchedWith', {
        a: faceName(LESSON_DEAL.tiles[result.a]!.face),
        b: faceName(LESSON_DEAL.tiles[result.b]!.face),
        left: lesson.game.left,
      });
    else say.textContent = '';
    draw();
  }

  function act(action: string): void {
    if (action === 'finish') return close();
    if (action !== 'hint' && action !== 'undo' && action !== 'shuffle' && action !== 'check') return;
    control(lesson, action);
    const h = lesson.hint;
    const a = lesson.answer;
    say.textContent =
      action === 'hint' && h
        ? t('client.hintPair', { a: faceName(lesson.game.faces[h[0]]!), b: faceName(lesson.game.faces[h[1]]!) })
        : action === 'check' && a
          ? t(`client.check.${a.kind}`, a.kind === 'noUndo' ? { n: a.n } : undefined)
          : action === 'shuffle'
            ? t('client.shuffled', { pairs: availablePairs(lesson.game).length })
            : '';
    draw();
  }

  dialog.addEventListener('click', (e) => {
    e.stopPropagation(); // the game's click handler never sees these
    const el = (e.target as Element).closest<HTMLElement>('[data-lesson], [data-tut], [data-action="tutorial-skip"]');
    if (!el) return;
    if (el.dataset.lesson !== undefined) tap(Number(el.dataset.lesson));
    else if (el.dataset.tut) act(el.dataset.tut);
    else close();
  });
  // While it is open every key is the lesson's, wherever focus is: the game's keys never act behind it.
  const onKey = (e: KeyboardEvent): void => {
    e.stopPropagation();
    if (e.key === 'Escape') {
      e.preventDefault();
      close(); // Escape skips
    } else if (e.key === 'Tab') trapTab(e);
  };
  doc.addEventListener('keydown', onKey, true);
  backdrop.addEventListener('mousedown', (e) => e.preventDefault()); // focus stays in the dialog
  backdrop.addEventListener('click', (e) => e.stopPropagation()); // and the page behind takes no click
  // Focus that left the dialog some other way comes back to it.
  const onFocus = (e: FocusEvent): void => {
    if (!dialog.contains(e.target as Node)) dialog.querySelector<HTMLElement>('button:not([hidden])')?.focus();
  };
  doc.addEventListener('focusin', onFocus);

  dialog.setAttribute('aria-modal', 'true');
  if (!backdrop.isConnected) doc.body.append(backdrop, dialog);
  draw();
  if (!dialog.open) dialog.show();
  tiles.find((el) => el.hasAttribute('data-free'))?.focus();
  dialog.dataset.live = ''; // for tests: its taps and keys now act
}
