/**
 * Binds the page's input to the controller (as chessground's events.ts): tile clicks and taps, the
 * control buttons, keyboard shortcuts, page visibility (your clock), the once-a-second clock tick, size
 * changes (a ResizeObserver on the board's view) and the zoom gestures on the view: two fingers pinch, a
 * double tap on the board's empty space zooms in or back to fit (one finger pans: that is the view's own
 * scrolling). A tap on a tile is always a tile tap: two quick taps on two tiles pick both, never zoom.
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
  // To a tile width (a number, CSS px) or a step, keeping `held` (a point on the board, from boardPoint;
  // default: the one under `anchor` now) under `anchor` (client px), as far as the view can scroll.
  zoom(to: 'in' | 'out' | 'fit' | 'toggle' | number, anchor?: Point, held?: Point): void;
  tileWidth(): number; // the tiles' width now, in CSS px
  boardPoint(at: Point): Point; // the board's point under a client point, in tile widths from its corner
  leave(): void; // the page is going away: send what is queued
  online(): void; // the browser has a network again
}

export interface Point {
  readonly x: number; // client CSS px
  readonly y: number;
}

const DOUBLE_TAP_MS = 350; // the longest pause between the taps of a double tap
const TAP_MS = 300; // the longest touch that is a tap
const TAP_SLOP = 12; // px a tap's finger may move
const DOUBLE_TAP_SLOP = 30; // px between a double tap's two taps

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
    // A play-on button names its move (data-move): the action carries it, as the notice's `undo:N` does.
    const action = el.dataset.do ?? (el.dataset.move ? `${el.dataset.action}:${el.dataset.move}` : el.dataset.action!);
    if (el.getAttribute('aria-disabled') === 'true') return;
    if (action === 'new' && el instanceof HTMLAnchorElement) return; // a plain link works as it is
    e.preventDefault();
    // An action taken from the phone's menu sheet closes it first, so its answer (#message, #notice, the paused
    // board) is seen on the page instead of behind the sheet, and focus can move to that answer.
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

  // The board's view: its size is the page's (a CSS grid), so a rotation, a resized window or a stylesheet
  // that arrived after the script changes it; the fitted tile size is read from it.
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

/**
 * Pinch and double tap on the board's view. The view's CSS (`touch-action: pan-x pan-y`) leaves one
 * finger to the browser's scrolling and keeps its own pinch and double-tap zoom off the board, so these
 * never fight the page's scroll. A double tap zooms only when both taps land on the board's empty space
 * (no tile under either) close together: taps on tiles are the player's picks and reach the tiles as
 * clicks, whatever their rhythm (two tiles tapped 150 ms apart are a pair; a blocked tile tapped twice
 * wobbles twice).
 */
function bindZoomGestures(view: HTMLElement, ctrl: Controller, on: On): void {
  let pinch: { spread: number; tile: number; held: Point } | null = null; // at the start of the pinch
  let tap: { t: number; x: number; y: number; empty: boolean } | null = null; // the touch going on, while it may be a tap
  let lastTap: { t: number; x: number; y: number } | null = null; // the last tap on empty space
  let frame: { tile: number; at: Point } | null = null; // the pinch's latest size, drawn on the next frame
  const win = view.ownerDocument.defaultView!;
  on(
    view,
    'touchstart',
    (e) => {
      const touches = (e as TouchEvent).touches;
      if (touches.length === 2) {
        // The board's point under the fingers at the start stays under them while they move.
        pinch = {
          spread: Math.max(1, spread(touches)),
          tile: ctrl.tileWidth(),
          held: ctrl.boardPoint(middle(touches)),
        };
        tap = lastTap = null;
      } else if (touches.length === 1) {
        const onTile = (e.target as Element | null)?.closest?.('button.tile') ?? null;
        tap = { t: e.timeStamp, x: touches[0]!.clientX, y: touches[0]!.clientY, empty: onTile === null };
        if (!tap.empty) lastTap = null; // a tile tap in between: the next empty tap starts afresh
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
      if (e.cancelable) e.preventDefault(); // two fingers zoom; they do not also pan
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
      if (!empty) return; // a tile tap: the click that follows picks the tile
      if (
        lastTap &&
        here.t - lastTap.t < DOUBLE_TAP_MS &&
        Math.hypot(here.x - lastTap.x, here.y - lastTap.y) < DOUBLE_TAP_SLOP
      ) {
        lastTap = null;
        if (e.cancelable) e.preventDefault(); // no click after the zoom: it would land where the board moved
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
