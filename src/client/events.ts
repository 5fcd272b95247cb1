/**
 * Binds the page's input to the controller (as chessground's events.ts): tile clicks and taps, the
 * control buttons, keyboard shortcuts, page visibility (the clock), the once-a-second clock tick, and
 * size changes (a ResizeObserver on the board's container and the body, plus window resize and load).
 * `bind` returns a function that removes every listener, observer and timer it set up.
 */
import type { Dir } from './state.ts';

export interface Controller {
  pick(slot: number): void; // a tile was clicked, tapped, or pressed with Enter/Space
  act(action: string): void; // hint, shuffle, undo, redo, check, new, share, undo:N, deselect
  focusStep(dir: Dir, from: number | null): void; // an arrow key; from: the tile that has DOM focus, if any
  visibility(hidden: boolean): void;
  tick(): void; // once a second
  fit(): void; // the space for the board changed
  leave(): void; // the page is going away: send what is queued
  online(): void; // the browser has a network again
}

const ARROWS: Record<string, Dir> = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down' };

/** Keys that act without a tile in focus; lower-case `key` values. */
const SHORTCUTS: Record<string, string> = { h: 'hint', s: 'shuffle', z: 'undo', y: 'redo', n: 'new', p: 'pause' };

const isTyping = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

export function bind(doc: Document, board: HTMLElement, ctrl: Controller): () => void {
  const win = doc.defaultView!;
  const unbinds: (() => void)[] = [];
  const on = <K extends string>(target: EventTarget, type: K, fn: (e: Event) => void, opts?: AddEventListenerOptions): void => {
    target.addEventListener(type, fn, opts);
    unbinds.push(() => target.removeEventListener(type, fn, opts));
  };

  on(board, 'click', (e) => {
    const tile = (e.target as Element).closest<HTMLElement>('button.tile[data-slot]');
    if (tile && board.contains(tile)) ctrl.pick(Number(tile.dataset.slot));
  });

  on(doc, 'click', (e) => {
    const el = (e.target as Element).closest<HTMLElement>('[data-action], [data-do]');
    if (!el || el.closest('#board')) return;
    const action = el.dataset.do ?? el.dataset.action!;
    if (el.getAttribute('aria-disabled') === 'true') return;
    if (action === 'new' && el instanceof HTMLAnchorElement) return; // a plain link works as it is
    e.preventDefault();
    ctrl.act(action);
  });

  on(doc, 'keydown', (e) => {
    const k = e as KeyboardEvent;
    if (k.defaultPrevented || k.altKey || k.metaKey || isTyping(k.target)) return;
    const dir = ARROWS[k.key];
    const onBoard = k.target === doc.body || k.target === doc.documentElement || board.contains(k.target as Node);
    if (dir && onBoard && !k.ctrlKey && !k.shiftKey) {
      k.preventDefault();
      const focused = (k.target as Element).closest?.<HTMLElement>('button.tile[data-slot]');
      ctrl.focusStep(dir, focused ? Number(focused.dataset.slot) : null);
      return;
    }
    const key = k.key.toLowerCase();
    if (k.ctrlKey) {
      if (key === 'z') ctrl.act(k.shiftKey ? 'redo' : 'undo');
      else if (key === 'y') ctrl.act('redo');
      else return;
      k.preventDefault();
      return;
    }
    if (key === 'escape') {
      ctrl.act('deselect');
      return;
    }
    const action = SHORTCUTS[key];
    if (!action || k.shiftKey) return;
    k.preventDefault();
    ctrl.act(action);
  });

  on(doc, 'visibilitychange', () => ctrl.visibility(doc.visibilityState === 'hidden'));
  on(win, 'pagehide', () => ctrl.leave());
  on(win, 'online', () => ctrl.online());
  on(win, 'resize', () => ctrl.fit());

  // The container's width, and the page around the board: stylesheets that arrive after the script
  // (module scripts need not wait for them) or a notice that wraps change the room the board has.
  const observer = new ResizeObserver(() => ctrl.fit());
  if (board.parentElement) observer.observe(board.parentElement);
  observer.observe(doc.body);
  on(win, 'load', () => ctrl.fit());
  unbinds.push(() => observer.disconnect());

  const timer = win.setInterval(() => ctrl.tick(), 1000);
  unbinds.push(() => win.clearInterval(timer));

  return () => {
    for (const unbind of unbinds.splice(0)) unbind();
  };
}
