/** Binds the page's input to the controller (as chessground's events.ts); `bind` returns the unbind. */
import type { Dir } from './state.ts';

export interface Controller {
  pick(slot: number): void;
  act(action: string): void; // hint, shuffle, undo, undo:N, …
  focusStep(dir: Dir, from: number | null): void; // from: the tile with DOM focus
  visibility(hidden: boolean): void;
  tick(): void; // once a second
  fit(): void;
  zoom(to: 'in' | 'out' | 'fit' | 'toggle' | number, anchor?: Point, held?: Point): void; // as render.ts zoomTo
  tileWidth(): number; // CSS px
  boardPoint(at: Point): Point; // tile widths
  leave(): void;
  online(): void;
}

export interface Point {
  readonly x: number; // client CSS px
  readonly y: number;
}

const DOUBLE_TAP_MS = 350;
const TAP_MS = 300;
const TAP_SLOP = 12; // px a tap may move
const DOUBLE_TAP_SLOP = 30; // px between the two taps

const ARROWS: Record<string, Dir> = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down' };

/** Keys that act without a tile in focus; lower-case `key` values. */
const SHORTCUTS: Record<string, string> = {
  h: 'hint',
  s: 'shuffle',
  z: 'undo',
  y: 'redo',
  n: 'new',
  p: 'pause',
  '+': 'zoom-in',
  '=': 'zoom-in',
  '-': 'zoom-out',
  '0': 'zoom-fit',
};

const isTyping = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

export function bind(doc: Document, board: HTMLElement, ctrl: Controller): () => void {
  const win = doc.defaultView!;
  const unbinds: (() => void)[] = [];
  const on = <K extends string>(
    target: EventTarget,
    type: K,
    fn: (e: Event) => void,
    opts?: AddEventListenerOptions,
  ): void => {
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
    // play-on carries its move in data-move.
    const action = el.dataset.do ?? (el.dataset.move ? `${el.dataset.action}:${el.dataset.move}` : el.dataset.action!);
    if (el.getAttribute('aria-disabled') === 'true') return;
    if (action === 'new' && el instanceof HTMLAnchorElement) return;
    e.preventDefault();
    // The menu sheet closes first, so the answer can show and take focus.
    const sheet = el.closest<HTMLElement>('[popover]');
    if (sheet?.matches(':popover-open')) sheet.hidePopover();
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
    if (!action || (k.shiftKey && key !== '+')) return; // + takes Shift on many keyboards
    k.preventDefault();
    ctrl.act(action);
  });

  const view = board.parentElement;
  if (view) bindZoomGestures(view, ctrl, on);

  on(doc, 'visibilitychange', () => ctrl.visibility(doc.visibilityState === 'hidden'));
  on(win, 'pagehide', () => ctrl.leave());
  on(win, 'online', () => ctrl.online());
  on(win, 'resize', () => ctrl.fit());

  // The view sizes with the page's grid.
  const observer = new ResizeObserver(() => ctrl.fit());
  if (view) observer.observe(view);
  unbinds.push(() => observer.disconnect());

  const timer = win.setInterval(() => ctrl.tick(), 1000);
  unbinds.push(() => win.clearInterval(timer));

  return () => {
    for (const unbind of unbinds.splice(0)) unbind();
  };
}

type On = (target: EventTarget, type: string, fn: (e: Event) => void, opts?: AddEventListenerOptions) => void;

const spread = (t: TouchList): number => Math.hypot(t[0]!.clientX - t[1]!.clientX, t[0]!.clientY - t[1]!.clientY);
const middle = (t: TouchList): Point => ({
  x: (t[0]!.clientX + t[1]!.clientX) / 2,
  y: (t[0]!.clientY + t[1]!.clientY) / 2,
});

/** Pinch and double tap on the board's view; taps on tiles stay picks: docs/client.md, "Zoom and pan (phones)". */
function bindZoomGestures(view: HTMLElement, ctrl: Controller, on: On): void {
  let pinch: { spread: number; tile: number; held: Point } | null = null;
  let tap: { t: number; x: number; y: number; empty: boolean } | null = null; // while it may be a tap
  let lastTap: { t: number; x: number; y: number } | null = null; // on empty space
  let frame: { tile: number; at: Point } | null = null;
  const win = view.ownerDocument.defaultView!;
  on(
    view,
    'touchstart',
    (e) => {
      const touches = (e as TouchEvent).touches;
      if (touches.length === 2) {
        pinch = {
          spread: Math.max(1, spread(touches)),
          tile: ctrl.tileWidth(),
          held: ctrl.boardPoint(middle(touches)),
        };
        tap = lastTap = null;
      } else if (touches.length === 1) {
        const onTile = (e.target as Element | null)?.closest?.('button.tile') ?? null;
        tap = { t: e.timeStamp, x: touches[0]!.clientX, y: touches[0]!.clientY, empty: onTile === null };
        if (!tap.empty) lastTap = null;
      } else tap = null;
    },
    { passive: true },
  );
  on(
    view,
    'touchmove',
    (e) => {
      const touches = (e as TouchEvent).touches;
      if (
        tap &&
        touches.length === 1 &&
        Math.hypot(touches[0]!.clientX - tap.x, touches[0]!.clientY - tap.y) > TAP_SLOP
      )
        tap = null;
      if (!pinch || touches.length !== 2) return;
      if (e.cancelable) e.preventDefault(); // no pan while pinching
      if (!frame)
        win.requestAnimationFrame(() => {
          if (frame && pinch) ctrl.zoom(frame.tile, frame.at, pinch.held);
          frame = null;
        });
      frame = { tile: (pinch.tile * spread(touches)) / pinch.spread, at: middle(touches) };
    },
    { passive: false },
  );
  on(
    view,
    'touchend',
    (e) => {
      const { touches, changedTouches } = e as TouchEvent;
      if (touches.length < 2) pinch = null;
      const ended = changedTouches[0];
      if (!tap || touches.length > 0 || !ended || e.timeStamp - tap.t > TAP_MS) {
        tap = null;
        return;
      }
      const here = { t: e.timeStamp, x: ended.clientX, y: ended.clientY };
      const empty = tap.empty;
      tap = null;
      if (!empty) return; // its click picks the tile
      if (
        lastTap &&
        here.t - lastTap.t < DOUBLE_TAP_MS &&
        Math.hypot(here.x - lastTap.x, here.y - lastTap.y) < DOUBLE_TAP_SLOP
      ) {
        lastTap = null;
        if (e.cancelable) e.preventDefault(); // no click: the board moved
        ctrl.zoom('toggle', here);
      } else lastTap = here;
    },
    { passive: false },
  );
  on(view, 'touchcancel', () => {
    pinch = null;
    tap = null;
  });
}
