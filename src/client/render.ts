/**
 * Draws a state onto the play page: the only module that touches the DOM (as chessground's render.ts).
 *
 * Implementation notes: the server renders one button per tile on the board; `makeDom` adopts them
 * and creates the missing ones (hidden), so undo can bring back a tile removed before the page loaded.
 * `render` is idempotent and writes an attribute only when its value changes, so calling it after
 * every event costs little. Pixel positions are CSS's job (board.css); the script only sets --tile.
 * Zoom (zoom.ts): the board sits in a view, `.board-scroll`; zoomed, the view keeps the room the
 * fitted board had (or the screen's room under it, if more) and scrolls, so one finger pans it with the
 * browser's own scrolling, which hands over to the page's at the view's edges.
 */
import type { Face } from '../engine/index.ts';
import { formatTime, isCleanWin } from '../shared/display.ts';
import { elapsedMs, newGameUrl, tileLabel, type HeadlessState, type Verified } from './state.ts';
import { STATUS_TEXT } from './sync.ts';
import { canZoomIn } from './zoom.ts';

export interface Dom {
  readonly board: HTMLElement;
  readonly scroller: HTMLElement; // .board-scroll, the board's view: it scrolls when the board is zoomed
  readonly box: Box; // the board's box, in tile widths
  readonly tiles: HTMLButtonElement[]; // by slot
  readonly counters: readonly HTMLElement[]; // [data-counter]
  readonly actions: readonly HTMLButtonElement[]; // [data-action]
  readonly message: HTMLElement | null; // the live region #message
  readonly notice: HTMLElement; // calm notices with buttons: no moves, lost win
  readonly winPanel: HTMLElement | null; // #win-panel
  readonly syncStatus: HTMLElement | null; // #sync-status, the save indicator
  readonly sprite: string; // URL of faces.svg
  readonly reducedMotion: MediaQueryList;
}

export interface State extends HeadlessState {
  dom: Dom;
  moveFocus: boolean; // move DOM focus to s.focus on the next render
  zoom: number | null; // tile width when zoomed, in CSS px; null: the board fits its room (zoom.ts)
  fitTile: number; // tile width of the fitted board, in CSS px (set by fit)
  room: number; // height the screen has for the board under its top, in CSS px (set by fit)
}

const SVG = 'http://www.w3.org/2000/svg';

/** Reads the page data from `#deal-data`. */
export function readData(doc: Document): unknown {
  const el = doc.getElementById('deal-data');
  return el?.textContent ? JSON.parse(el.textContent) : null;
}

function faceSvg(doc: Document, sprite: string, face: Face): SVGSVGElement {
  const svg = doc.createElementNS(SVG, 'svg');
  svg.setAttribute('class', 'face');
  svg.setAttribute('viewBox', '0 0 60 80');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const use = doc.createElementNS(SVG, 'use');
  use.setAttribute('href', `${sprite}#${face}`);
  svg.append(use);
  return svg;
}

const DEPTH = 0.13; // tile thickness and layer shift, in tile widths (board.css)
const LIFT = 0.08; // room for a lifted or selected tile's shift up-left, in tile widths
const SHADOW = 0.12; // room for the drop shadow down-right, in tile widths

/** Where tiles go in the board and how large it is, all in tile widths (see board.css). */
export interface Box {
  readonly ox: number; // added to every tile's left
  readonly oy: number; // added to every tile's top
  readonly bw: number; // board width
  readonly bh: number; // board height
}

/** The exact box of every slot of the deal (removed or not, so the board does not move as tiles go). */
export function boxOf(s: HeadlessState): Box {
  const { minX, minY } = s.game.geom.extent;
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const t of s.deal.tiles) {
    const x = (t.x - minX) / 2 - t.z * DEPTH;
    const y = ((t.y - minY) * 2) / 3 - t.z * DEPTH;
    left = Math.min(left, x);
    top = Math.min(top, y);
    right = Math.max(right, x + 1 + DEPTH);
    bottom = Math.max(bottom, y + 4 / 3 + DEPTH);
  }
  const round = (v: number): number => Math.round(v * 1000) / 1000;
  return {
    ox: round(LIFT - left),
    oy: round(LIFT - top),
    bw: round(right - left + LIFT + SHADOW),
    bh: round(bottom - top + LIFT + SHADOW),
  };
}

/** Adopts the server's board markup (and creates what is missing) for state `s`. */
export function makeDom(doc: Document, s: HeadlessState, fallbackSprite: string): Dom {
  const board = doc.getElementById('board');
  if (!board) throw new Error('no #board on the page');
  const existing = new Map<number, HTMLButtonElement>();
  for (const el of board.querySelectorAll<HTMLButtonElement>('button.tile[data-slot]'))
    existing.set(Number(el.dataset.slot), el);
  const href = board.querySelector('use')?.getAttribute('href');
  const sprite = href ? href.slice(0, href.indexOf('#') >>> 0) : fallbackSprite;
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
      el.append(faceSvg(doc, sprite, t.face));
      board.append(el); // paint order comes from CSS z-index, not DOM order
    }
    return el;
  });
  if (!board.style.getPropertyValue('--w')) {
    const { width, height } = s.game.geom.extent;
    board.style.setProperty('--w', String(width));
    board.style.setProperty('--h', String(height));
    board.style.setProperty('--d', String(depth));
  }
  const box = boxOf(s);
  board.style.setProperty('--ox', String(box.ox));
  board.style.setProperty('--oy', String(box.oy));
  board.style.setProperty('--bw', String(box.bw));
  board.style.setProperty('--bh', String(box.bh));
  let notice = doc.getElementById('notice');
  if (!notice) {
    notice = doc.createElement('div');
    notice.id = 'notice';
    notice.className = 'notice';
    notice.setAttribute('role', 'status'); // it carries the message while shown (render clears #message)
    notice.hidden = true;
    board.after(notice);
  }
  return {
    board,
    scroller: board.parentElement ?? board,
    box,
    tiles,
    counters: [...doc.querySelectorAll<HTMLElement>('[data-counter]')],
    actions: [...doc.querySelectorAll<HTMLButtonElement>('button[data-action]')],
    message: doc.getElementById('message'),
    notice,
    winPanel: doc.getElementById('win-panel'),
    syncStatus: doc.getElementById('sync-status'),
    sprite,
    reducedMotion: doc.defaultView!.matchMedia('(prefers-reduced-motion: reduce)'),
  };
}

const setAttr = (el: Element, name: string, value: string | null): void => {
  if (value === null) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
  } else if (el.getAttribute(name) !== value) el.setAttribute(name, value);
};

const setText = (el: Element, text: string): void => {
  if (el.textContent !== text) el.textContent = text;
};

const LEAVE_MS = 260; // length of the tile-leave animation in board.css

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
    return;
  }
  el.hidden = false;
  el.classList.remove('leaving');
  setAttr(el, 'aria-hidden', null);
  if (el.dataset.face !== face) {
    el.dataset.face = face;
    el.querySelector('use')?.setAttribute('href', `${s.dom.sprite}#${face}`);
  }
  setAttr(el, 'data-free', s.free[slot] ? '' : null);
  setAttr(el, 'data-hint', s.hint && (s.hint[0] === slot || s.hint[1] === slot) ? '' : null);
  setAttr(el, 'aria-label', tileLabel(s, slot));
  setAttr(el, 'aria-pressed', s.selected === slot ? 'true' : 'false');
  el.classList.toggle('selected', s.selected === slot);
  setAttr(el, 'tabindex', slot === tabbable ? '0' : '-1');
  if (s.wobble === slot && !el.classList.contains('wobble')) {
    el.classList.add('wobble');
    const stop = (): void => {
      el.classList.remove('wobble');
      if (s.wobble === slot) s.wobble = null;
    };
    el.addEventListener('animationend', stop, { once: true });
    setTimeout(stop, 600); // no animation under prefers-reduced-motion: no animationend either
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

/** Updates only the time counters (called every second). */
export function renderClock(s: State, now: number): void {
  for (const el of s.dom.counters) if (el.dataset.counter === 'time') setText(el, counterText(s, 'time', now));
}

function button(doc: Document, action: string, text: string): HTMLButtonElement {
  const b = doc.createElement('button');
  b.type = 'button';
  b.dataset.do = action;
  b.textContent = text;
  return b;
}

/**
 * The notice over the board: no moves, the solver at work, or a lost win with the undo back to it.
 * Returns whether it is shown.
 */
function renderNotice(s: State): boolean {
  const doc = s.dom.board.ownerDocument;
  let key = '';
  let text = '';
  const buttons: [string, string][] = [];
  if (s.confirmingNew) {
    key = 'confirm-new';
    text = 'Start a new game? This one stays unfinished: you can come back to it from the home page.';
    buttons.push(['new!', 'New game'], ['stay', 'Keep playing']);
  } else if (s.check.kind === 'running') {
    key = 'running';
    text = 'Asking the solver…';
  } else if (s.check.kind === 'no') {
    const n = s.check.undoSteps;
    key = `no:${n}:${s.game.log.length}`;
    text = s.message;
    if (n !== null) buttons.push([`undo:${n}`, `Undo ${n} move${n === 1 ? '' : 's'}`]);
    buttons.push(['shuffle', 'Shuffle']);
  } else if (s.status === 'stuck') {
    key = `stuck:${s.game.log.length}`;
    text = 'No moves left. Shuffle the tiles or undo a few moves.';
    buttons.push(['shuffle', 'Shuffle'], ['undo', 'Undo']);
  } // a yes or "cannot tell" needs no buttons: the message line says it
  const el = s.dom.notice;
  if (el.dataset.key === key) return key !== '';
  el.dataset.key = key;
  el.hidden = key === '';
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
  setText(el, STATUS_TEXT[s.saving]);
}

/**
 * The win panel: shown on the win; it says the win is recorded only once the server said so ("Saving
 * your win…" until then, or that it waits for the network), with the server's time when it has it.
 */
function renderWin(s: State, now: number): void {
  const panel = s.dom.winPanel;
  if (!panel) return;
  const won = s.status === 'won';
  const key = won ? `${s.verified ? 'verified' : s.saving}` : '';
  if (panel.dataset.key === key) return;
  const opening = panel.hidden && won;
  panel.dataset.key = key;
  panel.hidden = !won;
  if (!won) return;
  // The server's panel has the heading, the two summaries and the links; the script adds the result.
  const doc = panel.ownerDocument;
  let line = panel.querySelector<HTMLElement>('[data-win="time"]');
  if (!line) {
    line = doc.createElement('p');
    line.className = 'win-time';
    line.dataset.win = 'time';
    const heading = panel.querySelector('h1, h2, h3');
    if (heading) heading.after(line);
    else panel.prepend(line);
  }
  const saving = panel.querySelector<HTMLElement>('[data-win="saving"]');
  const verified = panel.querySelector<HTMLElement>('[data-win="verified"]');
  if (saving) {
    saving.hidden = s.verified !== null;
    setText(
      saving,
      s.saving === 'offline' || s.saving === 'busy' || s.saving === 'refused'
        ? 'Your win is kept on this device and will be saved as soon as the server can be reached.'
        : 'Saving your win…',
    );
  }
  if (verified) verified.hidden = s.verified === null;
  const best = panel.querySelector<HTMLElement>('[data-win="best"]');
  if (best) {
    const text = s.verified ? bestText(s.verified.timeMs, s.verified.previousBestMs, s.deal.mode) : '';
    best.hidden = text === '';
    setText(best, text);
  }
  const rank = panel.querySelector<HTMLElement>('[data-win="rank"]');
  if (rank) {
    const text = s.verified ? rankText(s.verified) : '';
    rank.hidden = text === '';
    rank.dataset.ranked = String(s.verified?.ranked ?? '');
    setText(rank, text);
  }
  const next = panel.querySelector<HTMLAnchorElement>('[data-win="next"]');
  if (next) {
    const to = s.verified?.next; // else it stays "Another layout"
    if (to) {
      next.href = to.url;
      setText(next, `Try ${to.name}: not played yet`);
    }
  }
  const clean = isCleanWin(s.game);
  const { hints, shuffles, undos } = s.game;
  const time = s.verified?.timeMs ?? elapsedMs(s.clock, now);
  line.dataset.clean = String(clean);
  line.textContent =
    `Time ${formatTime(time)}. ` +
    (clean
      ? 'A clean win: no hints, shuffles or undos.'
      : `Not a clean win (${plural(hints, 'hint')}, ${plural(shuffles, 'shuffle')}, ${plural(undos, 'undo')}).`);
  if (!panel.querySelector('a[href="/stats"]')) panel.append(link(doc, '/stats', 'Your stats'));
  if (!panel.querySelector('a[href^="/play/"]')) panel.append(' ', link(doc, newGameUrl(s), 'New deal'));
  if (opening) panel.querySelector<HTMLElement>('a[href^="/play/"], a')?.focus();
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What the win panel says of the win's rank: its place on the daily table, or why it is not ranked. */
export function rankText(v: Pick<Verified, 'ranked' | 'unranked' | 'dailyRank'>): string {
  if (v.ranked === undefined || v.ranked === null) return '';
  if (!v.ranked)
    return v.unranked === 'legacy'
      ? 'Not ranked: this game began before ranked times did.'
      : 'Not ranked: its moves reached the server faster than a person plays them (all at once). It still counts in your stats.';
  if (v.dailyRank) return `Ranked #${v.dailyRank} on the daily table of its day (your best time there).`;
  return "Ranked: the time from when you first saw this deal. It counts on the deal's record.";
}

/** What the win panel says of the player's best on this layout (and mode): the server's times. */
export function bestText(timeMs: number | null, previousBestMs: number | null | undefined, mode: string): string {
  const where = mode === 'classic' ? 'this layout, classic' : 'this layout';
  if (timeMs === null || previousBestMs === undefined) return '';
  if (previousBestMs === null) return `Your first win on ${where}.`;
  if (timeMs < previousBestMs)
    return previousBestMs - timeMs >= 1000
      ? `A new personal best on ${where}: ${formatTime(previousBestMs - timeMs)} faster than your ${formatTime(previousBestMs)}.`
      : `A new personal best on ${where}, just under your ${formatTime(previousBestMs)}.`;
  return `Your best on ${where} stays ${formatTime(previousBestMs)}.`;
}

function link(doc: Document, href: string, text: string): HTMLAnchorElement {
  const a = doc.createElement('a');
  a.href = href;
  a.textContent = text;
  return a;
}

/** Draws the whole state. Cheap when little changed. */
export function render(s: State, now: number): void {
  const { board } = s.dom;
  setAttr(board, 'data-status', s.status);
  setAttr(board, 'aria-label', `Board, ${s.game.left} tiles left`);
  board.classList.toggle('thinking', s.hintPending);
  const tabbable = s.focus !== null && s.free[s.focus] ? s.focus : s.free.indexOf(true);
  for (let slot = 0; slot < s.dom.tiles.length; slot++) renderTile(s, slot, tabbable >= 0 ? tabbable : null);
  for (const el of s.dom.counters) setText(el, counterText(s, el.dataset.counter ?? '', now));
  for (const b of s.dom.actions) {
    const action = b.dataset.action;
    const off =
      (action === 'undo' && s.game.past.length === 0) ||
      (action === 'redo' && s.game.future.length === 0) ||
      (action !== 'new' && action !== 'share' && action !== 'sound' && s.status === 'won') ||
      (action === 'hint' && s.hintPending) ||
      (action === 'check' && s.check.kind === 'running');
    const zoomOff =
      ((action === 'zoom-out' || action === 'zoom-fit') && s.zoom === null) ||
      (action === 'zoom-in' && !canZoomIn(s.zoom, s.fitTile));
    setAttr(b, 'aria-disabled', (action?.startsWith('zoom-') ? zoomOff : off) ? 'true' : null);
  }
  const notice = renderNotice(s);
  // One message: while the notice over the board says it (with its buttons), the line above stays empty.
  if (s.dom.message) setText(s.dom.message, notice ? '' : s.message);
  renderSync(s);
  renderWin(s, now);
  // Keyboard focus follows s.focus when asked to, and never stays on a tile that has left the board.
  const active = board.ownerDocument.activeElement;
  const lost =
    active instanceof HTMLElement && active.matches('.tile') && s.game.faces[Number(active.dataset.slot)] == null;
  if ((s.moveFocus || lost) && s.focus !== null && s.free[s.focus]) {
    s.dom.tiles[s.focus]!.focus({ preventScroll: true });
    reveal(s, s.hint && s.hint[0] === s.focus ? s.hint : [s.focus]); // a hint: both tiles when they fit
  }
  s.moveFocus = false;
}

/**
 * Height the page needs under the board: the boxes after it in flow (help line, footer) and its
 * ancestors' bottom padding and borders, up to a third of the viewport.
 */
function spaceBelow(board: HTMLElement): number {
  const win = board.ownerDocument.defaultView!;
  const px = (v: string): number => parseFloat(v) || 0;
  let below = 0;
  for (let el: Element = board; el.parentElement && el !== board.ownerDocument.body; el = el.parentElement) {
    for (let sib = el.nextElementSibling; sib; sib = sib.nextElementSibling) {
      const cs = win.getComputedStyle(sib);
      if (cs.display === 'none' || cs.position === 'fixed' || cs.position === 'absolute') continue;
      below += sib.getBoundingClientRect().height + px(cs.marginTop) + px(cs.marginBottom);
    }
    const cs = win.getComputedStyle(el.parentElement);
    if (cs.display !== 'contents') below += px(cs.paddingBottom) + px(cs.borderBottomWidth); // contents: no box
  }
  return Math.min(win.innerHeight / 3, below);
}

/**
 * Measures the room for the board: the width of its view and the viewport height left below the view's
 * top, keeping tiles at least `min` px wide (the page scrolls rather than shrink tiles past that). The
 * fitted size is the board's size unless it is zoomed past it; a zoom the new room fits is dropped.
 */
export function fit(s: State, min = 22): void {
  const { board, scroller } = s.dom;
  const win = board.ownerDocument.defaultView!;
  const cs = win.getComputedStyle(scroller);
  const view = scroller.getBoundingClientRect(); // not clientWidth: a zoomed view's scroll bar takes no room from the fit
  const width = view.width - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  const top = view.top + win.scrollY + (parseFloat(cs.paddingTop) || 0);
  const height = win.innerHeight - top - spaceBelow(board) - 2;
  const byWidth = width / s.dom.box.bw;
  const byHeight = height / s.dom.box.bh;
  s.fitTile = Math.max(min, Math.floor(Math.min(byWidth, byHeight) * 10) / 10);
  s.room = Math.max(0, Math.floor(height));
  if (s.zoom !== null && s.zoom <= s.fitTile * 1.04) {
    s.zoom = null;
    scroller.scrollLeft = scroller.scrollTop = 0;
  }
  sizeBoard(s);
}

/** Sets --tile for the zoom (or the fitted size) and the view's height while zoomed. */
function sizeBoard(s: State): void {
  const { board, scroller } = s.dom;
  const tile = s.zoom ?? s.fitTile;
  const value = `${tile}px`;
  if (board.style.getPropertyValue('--tile') !== value) board.style.setProperty('--tile', value);
  setAttr(scroller, 'data-zoomed', s.zoom === null ? null : '');
  const fitted = s.fitTile * s.dom.box.bh;
  const height = s.zoom === null ? '' : `${Math.round(Math.max(fitted, Math.min(s.room, tile * s.dom.box.bh)))}px`;
  if (scroller.style.height !== height) scroller.style.height = height;
}

/**
 * Zooms to a tile width (null: the fitted board), keeping the board's point under `anchor` (client
 * px: the fingers of a pinch, a double tap) or under the middle of the view where it was.
 */
export function zoomTo(s: State, zoom: number | null, anchor?: { readonly x: number; readonly y: number }): void {
  if (zoom === s.zoom) return;
  const { board, scroller } = s.dom;
  const win = board.ownerDocument.defaultView!;
  const view = scroller.getBoundingClientRect();
  const ax = anchor?.x ?? view.left + view.width / 2;
  const ay = anchor?.y ?? (Math.max(view.top, 0) + Math.min(view.bottom, win.innerHeight)) / 2;
  const before = board.getBoundingClientRect();
  const from = s.zoom ?? s.fitTile;
  const bx = (ax - before.left) / from; // the anchored point, in tile widths from the board's corner
  const by = (ay - before.top) / from;
  if (zoom === null) scroller.scrollLeft = scroller.scrollTop = 0;
  s.zoom = zoom;
  sizeBoard(s);
  if (zoom === null) return;
  const after = board.getBoundingClientRect();
  scroller.scrollLeft += after.left + bx * zoom - ax;
  scroller.scrollTop += after.top + by * zoom - ay;
}

/**
 * Brings tiles into view (SPEC §3.4: a focused tile is always scrolled or panned into view): the zoomed
 * view pans as little as it can to show them all with a margin (the first alone when they do not fit
 * together), then the page scrolls as little as it can to show the first.
 */
export function reveal(s: State, slots: readonly number[]): void {
  const els = slots
    .map((slot) => s.dom.tiles[slot])
    .filter((el): el is HTMLButtonElement => el !== undefined && !el.hidden);
  if (els.length === 0) return;
  if (s.zoom !== null) {
    const { scroller } = s.dom;
    const view = scroller.getBoundingClientRect();
    const margin = s.zoom * 0.25;
    const rects = els.map((el) => el.getBoundingClientRect());
    const union = (rs: DOMRect[]) => ({
      left: Math.min(...rs.map((r) => r.left)) - margin,
      right: Math.max(...rs.map((r) => r.right)) + margin,
      top: Math.min(...rs.map((r) => r.top)) - margin,
      bottom: Math.max(...rs.map((r) => r.bottom)) + margin,
    });
    let box = union(rects);
    if (box.right - box.left > scroller.clientWidth || box.bottom - box.top > scroller.clientHeight)
      box = union(rects.slice(0, 1));
    const shift = (lo: number, hi: number, from: number, to: number): number =>
      lo < from ? lo - from : hi > to ? Math.min(hi - to, lo - from) : 0;
    scroller.scrollLeft += shift(box.left, box.right, view.left, view.left + scroller.clientWidth);
    scroller.scrollTop += shift(box.top, box.bottom, view.top, view.top + scroller.clientHeight);
  }
  els[0]!.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}
