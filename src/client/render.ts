/**
 * Draws a state onto the play page: board, counters, clock, switches, notices; the win panel and the deal's record
 * are win-panel.ts's, fitting and zooming viewport.ts's. Idempotent, writing only changed attributes; sizes and animations are board.css's (docs/client.md, "Modules").
 */
import { FACES, type Face } from '../engine/index.ts';
import { boxOf, type Box } from '../shared/box.ts';
import { formatTime } from '../shared/display.ts';
import { canRestart, elapsedMs, knowTileLabel, tileLabel, type HeadlessState } from './state.ts';
import { setAttr, setText } from './dom.ts';
import { renderRecord, renderWin } from './win-panel.ts';
import { reveal } from './viewport.ts';
import { t } from './i18n.ts';
import { renderChallenge } from './challenge.ts';
import { STATUS_KEYS } from './sync.ts';
import { canZoomIn } from './zoom.ts';

export interface Dom {
  readonly board: HTMLElement;
  readonly scroller: HTMLElement; // #board-view: scrolls while zoomed
  readonly box: Box; // the board's box, in tile widths
  readonly tiles: HTMLButtonElement[]; // by slot
  readonly counters: readonly HTMLElement[]; // [data-counter]
  readonly clock: HTMLElement | null; // #clock
  readonly counterBox: HTMLElement | null;
  readonly wrap: HTMLElement | null;
  readonly actions: readonly HTMLButtonElement[];
  readonly message: HTMLElement | null; // live region
  readonly notice: HTMLElement;
  readonly winPanel: HTMLElement | null;
  readonly syncStatus: HTMLElement | null;
  readonly record: HTMLElement | null; // #deal-stats
  readonly reducedMotion: MediaQueryList;
}

/** The shuffle's flight: the tiles flying (data-moving) and the timer that lands them. */
export interface Flying {
  n: number; // flights so far; alternating animation names restart a flight
  slots: number[];
  timer: ReturnType<typeof setTimeout> | null;
}

export interface State extends HeadlessState {
  dom: Dom;
  flying: Flying;
  moveFocus: boolean; // focus s.focus on the next render
  zoom: number | null; // tile width when zoomed, CSS px; null: fitted
  fitTile: number; // fitted tile width, CSS px
}

/** Reads the page data from `#deal-data`. */
export function readData(doc: Document): unknown {
  const el = doc.getElementById('deal-data');
  return el?.textContent ? JSON.parse(el.textContent) : null;
}

/** The face of a tile the server did not render (board.css draws it by data-face). */
function faceSpan(doc: Document): HTMLSpanElement {
  const span = doc.createElement('span');
  span.className = 'face';
  return span;
}

const isFace = (v: string | undefined): v is Face => (FACES as readonly string[]).includes(v ?? '');

/** Adopts the server's board markup (and creates what is missing) for state `s`. */
export function makeDom(doc: Document, s: HeadlessState): Dom {
  const board = doc.getElementById('board');
  if (!board) throw new Error('no #board on the page');
  const existing = new Map<number, HTMLButtonElement>();
  for (const el of board.querySelectorAll<HTMLButtonElement>('button.tile[data-slot]')) {
    existing.set(Number(el.dataset.slot), el);
    const label = el.getAttribute('aria-label');
    if (label && el.dataset.face) knowTileLabel(el.dataset.face, el.hasAttribute('data-free'), label);
  }
  const named = board.getAttribute('aria-label');
  if (existing.size > 0 && named) boardNames.set([...existing.values()].filter((el) => !el.hidden).length, named);
  const { minX, minY, depth } = s.game.geom.extent;
  const tiles = s.deal.tiles.map((t, slot) => {
    let el = existing.get(slot);
    if (!el) {
      el = doc.createElement('button');
      el.type = 'button';
      el.className = 'tile';
      el.dataset.slot = String(slot);
      el.dataset.face = t.face;
      el.hidden = true;
      el.style.setProperty('--x', String(t.x - minX));
      el.style.setProperty('--y', String(t.y - minY));
      el.style.setProperty('--z', String(t.z));
      el.append(faceSpan(doc));
      board.append(el); // CSS z-index paints, not DOM order
    }
    return el;
  });
  const box = boxOf(s.deal.tiles, minX, minY);
  if (!board.style.getPropertyValue('--bw')) {
    // The offline page: extent and box as the server writes them.
    const { width, height } = s.game.geom.extent;
    const vars: [string, number][] = [
      ['--w', width],
      ['--h', height],
      ['--d', depth],
      ['--ox', box.ox],
      ['--oy', box.oy],
      ['--bw', box.bw],
      ['--bh', box.bh],
    ];
    for (const [name, value] of vars) board.style.setProperty(name, String(value));
  }
  let notice = doc.getElementById('notice');
  if (!notice) {
    notice = doc.createElement('div');
    notice.id = 'notice';
    notice.className = 'notice';
    notice.setAttribute('role', 'status'); // carries the message while shown
    notice.hidden = true;
    board.after(notice);
  }
  return {
    board,
    scroller: board.parentElement ?? board,
    box,
    tiles,
    counters: [...doc.querySelectorAll<HTMLElement>('[data-counter]')],
    clock: doc.getElementById('clock'),
    counterBox: doc.querySelector<HTMLElement>('.counters'),
    wrap: board.closest<HTMLElement>('.board-wrap'),
    actions: [...doc.querySelectorAll<HTMLButtonElement>('button[data-action]')],
    message: doc.getElementById('message'),
    notice,
    winPanel: doc.getElementById('win-panel'),
    syncStatus: doc.getElementById('sync-status'),
    record: doc.getElementById('deal-stats'),
    reducedMotion: doc.defaultView!.matchMedia('(prefers-reduced-motion: reduce)'),
  };
}

const LEAVE_MS = 260; // board.css tile-leave
const FLY_MS = 360; // board.css tile-fly
const CUE_MS = 300; // mismatch cue

/** Lands the shuffle's flight at once (at its end, and at the next action). */
export function land(s: State): void {
  const f = s.flying;
  if (f.timer !== null) clearTimeout(f.timer);
  f.timer = null;
  for (const slot of f.slots) {
    const el = s.dom.tiles[slot]!;
    el.removeAttribute('data-moving');
    el.style.removeProperty('--fx');
    el.style.removeProperty('--fy');
  }
  f.slots = [];
}

/** Starts the faces' flight (flip.ts; docs/client.md, "The shuffle's flight"). */
function renderFlights(s: State): void {
  const flights = s.moving;
  if (flights.length === 0) return;
  s.moving = [];
  land(s);
  if (s.dom.reducedMotion.matches) return;
  const f = s.flying;
  f.n++;
  const name = f.n % 2 ? 'a' : 'b';
  for (const { slot, dx, dy } of flights) {
    const el = s.dom.tiles[slot]!;
    el.style.setProperty('--fx', dx.toFixed(3));
    el.style.setProperty('--fy', dy.toFixed(3));
    el.dataset.moving = name;
  }
  f.slots = flights.map((flight) => flight.slot);
  f.timer = setTimeout(() => land(s), FLY_MS + 40);
}

/** The mismatch cue (data-nomatch, alternating names so a repeat restarts). */
function renderCue(s: State, slot: number, el: HTMLButtonElement): void {
  const m = s.mismatch;
  const cue = m && (m.slots[0] === slot || m.slots[1] === slot) ? (m.n % 2 ? 'a' : 'b') : null;
  if (cue === null || !m) {
    setAttr(el, 'data-nomatch', null);
    return;
  }
  if (el.dataset.nomatch === cue) return;
  el.dataset.nomatch = cue;
  setTimeout(() => {
    if (s.mismatch !== m) return;
    s.mismatch = null;
    for (const i of m.slots) s.dom.tiles[i]!.removeAttribute('data-nomatch');
  }, CUE_MS);
}

function renderTile(s: State, slot: number, tabbable: number | null): void {
  const el = s.dom.tiles[slot]!;
  const face = s.game.faces[slot];
  if (face == null) {
    if (s.leaving.includes(slot) && !s.dom.reducedMotion.matches && !el.hidden) {
      if (!el.classList.contains('leaving')) {
        el.classList.add('leaving');
        el.classList.remove('selected', 'wobble');
        setAttr(el, 'aria-hidden', 'true');
        setAttr(el, 'tabindex', '-1');
        setTimeout(() => {
          if (s.game.faces[slot] == null) el.hidden = true;
          el.classList.remove('leaving');
        }, LEAVE_MS);
      }
    } else {
      el.classList.remove('leaving');
      el.hidden = true;
    }
    setAttr(el, 'data-free', null);
    setAttr(el, 'data-hint', null);
    setAttr(el, 'data-nomatch', null);
    setAttr(el, 'data-reason-tile', null);
    return;
  }
  el.hidden = false;
  el.classList.remove('leaving');
  setAttr(el, 'aria-hidden', null);
  if (el.dataset.face !== face && isFace(face)) el.dataset.face = face;
  setAttr(el, 'data-free', s.free[slot] ? '' : null);
  setAttr(el, 'data-hint', s.hint && (s.hint[0] === slot || s.hint[1] === slot) ? '' : null);
  const lost = s.check.kind === 'no' ? s.check.lost : null;
  setAttr(el, 'data-reason-tile', lost?.tiles.includes(slot) ? '' : null);
  setAttr(el, 'aria-label', tileLabel(s, slot));
  setAttr(el, 'aria-pressed', s.selected === slot ? 'true' : 'false');
  el.classList.toggle('selected', s.selected === slot);
  setAttr(el, 'tabindex', slot === tabbable ? '0' : '-1');
  renderCue(s, slot, el);
  if (s.wobble === slot && !el.classList.contains('wobble')) {
    el.classList.add('wobble');
    const stop = (): void => {
      el.classList.remove('wobble');
      if (s.wobble === slot) s.wobble = null;
    };
    el.addEventListener('animationend', stop, { once: true });
    setTimeout(stop, 600); // reduced motion: no animationend
  }
}

/** The counters' texts. */
function counterText(s: State, name: string, now: number): string {
  switch (name) {
    case 'left':
      return String(s.game.left);
    case 'pairs':
      return String(s.pairs);
    case 'time':
      return formatTime(elapsedMs(s.clock, now));
    case 'hints':
      return String(s.game.hints);
    case 'shuffles':
      return String(s.game.shuffles);
    case 'undos':
      return String(s.game.undos);
    default:
      return '';
  }
}

/**
 * Your clock (#clock, a hook of docs/contracts.md, "The play page"): its text, `data-ms` (your time in ms) and
 * `data-paused`. Called every second.
 */
export function renderClock(s: State, now: number): void {
  for (const el of s.dom.counters) if (el.dataset.counter === 'time') setText(el, counterText(s, 'time', now));
  renderChallenge(s, s.dom.board.ownerDocument, now); // a challenge's ghost keeps step with the clock
  const clock = s.dom.clock;
  if (!clock) return;
  setAttr(clock, 'data-ms', String(Math.floor(elapsedMs(s.clock, now))));
  setAttr(clock, 'data-paused', s.paused ? '' : null);
}

/** The switches' `aria-pressed` (Pause names what it does next) and what they show on the page. */
function renderSwitches(s: State): void {
  for (const b of s.dom.actions) {
    const action = b.dataset.action;
    const on =
      action === 'pause'
        ? s.paused
        : action === 'timer'
          ? s.timerOn
          : action === 'sound'
            ? s.soundOn
            : action === 'highlight'
              ? s.highlightOn
              : null;
    if (on === null) continue;
    setAttr(b, 'aria-pressed', String(on));
    if (action === 'pause') setText(b, t(s.paused ? 'client.resume' : 'client.pause'));
  }
  if (s.dom.wrap) setAttr(s.dom.wrap, 'data-paused', s.paused ? '' : null);
  if (s.dom.counterBox) setAttr(s.dom.counterBox, 'data-timer', s.timerOn ? 'on' : 'off');
  setAttr(s.dom.board.ownerDocument.documentElement, 'data-highlight', s.highlightOn ? null : 'off');
}

function button(doc: Document, action: string, text: string): HTMLButtonElement {
  const b = doc.createElement('button');
  b.type = 'button';
  if (action.startsWith('play-on:')) {
    // docs/contracts.md, "Page hooks": one at a time.
    b.dataset.action = 'play-on';
    b.dataset.move = action.slice(8);
  } else b.dataset.do = action;
  b.textContent = text;
  return b;
}

/** The notice over the board (no moves, solver at work, lost win); returns whether it is shown. */
function renderNotice(s: State): boolean {
  const doc = s.dom.board.ownerDocument;
  let key = '';
  let text = '';
  let reason: string | null = null; // data-reason
  const buttons: [string, string][] = [];
  if (s.confirmingNew) {
    key = 'confirm-new';
    text = t('client.notice.confirmNew');
    buttons.push(['new!', t('client.notice.newGame')], ['stay', t('client.notice.stay')]);
  } else if (s.confirmingRestart) {
    key = 'confirm-restart';
    text = t('client.notice.confirmRestart');
    buttons.push(['restart!', t('client.notice.restart')], ['stay', t('client.notice.stay')]);
  } else if (s.check.kind === 'running') {
    key = 'running';
    text = t('client.notice.asking');
  } else if (s.check.kind === 'no') {
    const n = s.check.undoSteps;
    key = `no:${n}:${s.game.log.length}`;
    text = s.message;
    if (n !== null) buttons.push([`undo:${n}`, t('client.notice.undoN', { n })]);
    buttons.push(['shuffle', t('client.shuffle')]);
    const lost = s.check.lost;
    if (lost) {
      reason = lost.reason;
      // Play on copies a server game.
      if (s.gameId !== null) buttons.push([`play-on:${lost.at}`, t('client.notice.playOn', { k: lost.at })]);
    }
  } else if (s.status === 'stuck') {
    key = `stuck:${s.game.log.length}`;
    text = t('client.stuck');
    buttons.push(['shuffle', t('client.shuffle')], ['undo', t('client.undo')]);
  }
  const el = s.dom.notice;
  if (el.dataset.key === key) return key !== '';
  el.dataset.key = key;
  el.hidden = key === '';
  setAttr(el, 'data-reason', reason);
  el.replaceChildren();
  if (!key) return false;
  const p = doc.createElement('p');
  p.textContent = text;
  el.append(p, ...buttons.map(([action, label]) => button(doc, action, label)));
  return true;
}

/** The save indicator near the counters: saved, saving…, offline — will save, … */
function renderSync(s: State): void {
  const el = s.dom.syncStatus;
  if (!el) return;
  setAttr(el, 'data-sync', s.saving);
  const key = STATUS_KEYS[s.saving];
  setText(el, key ? t(key) : '');
}

/** The board's name by tiles left, formatted once per count (a plural's first format is costly). */
const boardNames = new Map<number, string>();
function boardName(left: number): string {
  let name = boardNames.get(left);
  if (name === undefined) boardNames.set(left, (name = t('client.board', { left })));
  return name;
}

/** Draws the whole state. Cheap when little changed. */
export function render(s: State, now: number): void {
  const { board } = s.dom;
  setAttr(board, 'data-status', s.status);
  setAttr(board, 'aria-label', boardName(s.game.left));
  board.classList.toggle('thinking', s.hintPending);
  const tabbable = s.focus !== null && s.free[s.focus] ? s.focus : s.free.indexOf(true);
  for (let slot = 0; slot < s.dom.tiles.length; slot++) renderTile(s, slot, tabbable >= 0 ? tabbable : null);
  renderFlights(s);
  for (const el of s.dom.counters) setText(el, counterText(s, el.dataset.counter ?? '', now));
  renderClock(s, now);
  renderSwitches(s);
  for (const b of s.dom.actions) {
    const action = b.dataset.action;
    const off =
      (action === 'undo' && s.game.past.length === 0) ||
      (action === 'redo' && s.game.future.length === 0) ||
      (action === 'restart' && !canRestart(s)) ||
      (action !== 'new' &&
        action !== 'share' &&
        action !== 'share-replay' &&
        action !== 'sound' &&
        action !== 'timer' &&
        action !== 'highlight' &&
        s.status === 'won') ||
      (action === 'hint' && s.hintPending) ||
      (action === 'check' && s.check.kind === 'running');
    const zoomOff =
      ((action === 'zoom-out' || action === 'zoom-fit') && s.zoom === null) ||
      (action === 'zoom-in' && !canZoomIn(s.zoom, s.fitTile));
    setAttr(b, 'aria-disabled', (action?.startsWith('zoom-') ? zoomOff : off) ? 'true' : null);
  }
  const notice = renderNotice(s);
  // One message: the notice's, or the line's.
  if (s.dom.message) setText(s.dom.message, notice ? '' : s.message);
  renderSync(s);
  renderWin(s, now);
  renderRecord(s);
  // Focus follows s.focus when asked, and leaves removed tiles.
  const active = board.ownerDocument.activeElement;
  const lost =
    active instanceof HTMLElement && active.matches('.tile') && s.game.faces[Number(active.dataset.slot)] == null;
  if ((s.moveFocus || lost) && s.focus !== null && s.free[s.focus]) {
    s.dom.tiles[s.focus]!.focus({ preventScroll: true });
    reveal(s, s.hint && s.hint[0] === s.focus ? s.hint : [s.focus]);
  }
  s.moveFocus = false;
}
