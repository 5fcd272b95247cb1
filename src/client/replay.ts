/**
 * The replay page's script (views/replay.eta; docs/server.md, "Replays"): without it every step is a link; with
 * it steps replay in place with the engine (using the stored shuffle boards), with keys and a Play button.
 */
import {
  applyMoves,
  availablePairs,
  isFree,
  newGame,
  parseBoards,
  presenceOf,
  statusOf,
  type Deal,
  type Face,
  type Game,
  type KnownBoards,
  type Move,
} from '../engine/index.ts';
import { tileLabel } from '../shared/i18n.ts';
import { frameOf, frameText, isLostAt, replayUrl, type Span } from '../shared/replay.ts';
import { fitChrome, watchChrome } from './bar.ts';
import { setText } from './dom.ts';
import { watchMore } from './cue.ts';
import { registerServiceWorker } from './env.ts';
import { t } from './i18n.ts';

interface ReplayData {
  readonly token: string;
  readonly move: number;
  readonly log: readonly Move[];
  readonly boards: string;
  readonly lost: readonly Span[];
  readonly loss?: { readonly at: number; readonly reason: string; readonly tiles: readonly number[] } | null; // why the win was lost
  readonly deal: Deal;
}

const PLAY_EVERY_MS = 700; // a move shown this long while playing
const CHECKPOINT = 32; // a step back replays at most this many moves

function start(): void {
  const dataEl = document.getElementById('replay-data');
  const boardEl = document.getElementById('board');
  if (!dataEl || !boardEl) return;
  const data = JSON.parse(dataEl.textContent ?? '') as ReplayData;
  const first = newGame(data.deal);
  if (!first.ok) return;
  const boards = data.boards === '' ? undefined : parseBoards(data.boards, data.deal.tiles.length);
  const known: KnownBoards | undefined = boards?.ok ? boards.value : undefined;
  const { log, token, lost } = data;
  const moves = log.length;

  const kept = new Map<number, Game>([[0, first.value]]);
  const positionAt = (k: number): Game | undefined => {
    let from = k - (k % CHECKPOINT);
    while (!kept.has(from)) from -= CHECKPOINT;
    let game = kept.get(from)!;
    for (let at = from; at < k;) {
      const to = Math.min(k, at - (at % CHECKPOINT) + CHECKPOINT);
      const next = applyMoves(game, log.slice(at, to), known);
      if (!next.ok) return undefined;
      game = next.value;
      at = to;
      if (at % CHECKPOINT === 0) kept.set(at, game);
    }
    return game;
  };

  const tiles = new Map<number, HTMLButtonElement>();
  for (const el of boardEl.querySelectorAll<HTMLButtonElement>('button.tile')) tiles.set(Number(el.dataset.slot), el);
  const part = (name: string): HTMLElement | null => document.querySelector<HTMLElement>(`[data-replay="${name}"]`);
  const counter = (name: string): HTMLElement | null => document.querySelector<HTMLElement>(`[data-counter="${name}"]`);
  const steps = [...document.querySelectorAll<HTMLAnchorElement>('a[data-step]')];
  const playButton = document.querySelector<HTMLButtonElement>('button[data-action="play"]');
  const marker = document.querySelector<HTMLElement>('.replay-at');
  const bar = document.querySelector<HTMLElement>('.replay-controls');
  const counters = document.querySelector<HTMLElement>('.counters');
  const course = document.getElementById('game-menu');
  if (course) watchMore(course); // on phones, the course's sheet cues where it goes on
  let current = data.move;
  // Right to left the steps' row mirrors, and so do the arrows: → back, ← on.
  const rtl = document.documentElement.dir === 'rtl';
  let timer: number | undefined;

  /** Outlines where the pair a move took off was. */
  function ghosts(pair: readonly number[] | null): void {
    for (const old of boardEl!.querySelectorAll('.tile-ghost')) old.remove();
    for (const slot of pair ?? []) {
      const tile = tiles.get(slot);
      if (!tile) continue;
      const ghost = document.createElement('span');
      ghost.className = 'tile-ghost';
      ghost.setAttribute('aria-hidden', 'true');
      for (const v of ['--x', '--y', '--z']) ghost.style.setProperty(v, tile.style.getPropertyValue(v));
      boardEl!.append(ghost);
    }
  }

  function show(k: number): void {
    const game = positionAt(k);
    if (!game) return;
    current = k;
    const frame = frameOf(game, log, k);
    const present = presenceOf(game);
    const marks = new Map<number, string>();
    for (const slot of frame.next ?? []) marks.set(slot, 'next');
    for (const slot of frame.restored ?? []) marks.set(slot, 'restored');
    for (const [slot, el] of tiles) {
      const face: Face | null = game.faces[slot] ?? null;
      el.hidden = face === null;
      el.toggleAttribute('data-next', marks.get(slot) === 'next');
      el.toggleAttribute('data-restored', marks.get(slot) === 'restored');
      if (face === null) continue;
      const free = isFree(game.geom, present, slot);
      if (el.dataset.face !== face) el.dataset.face = face;
      el.toggleAttribute('data-free', free);
      el.setAttribute('aria-label', tileLabel(t, face, free));
    }
    ghosts(frame.removed);
    boardEl!.dataset.status = statusOf(game);
    boardEl!.setAttribute('aria-label', t('client.board', { left: game.left }));
    setText(counter('move'), `${k} / ${moves}`);
    setText(counter('left'), String(game.left));
    setText(counter('pairs'), String(availablePairs(game).length));
    setText(part('what'), frameText(t, frame));
    const lostHere = part('lost');
    if (lostHere) lostHere.hidden = !isLostAt(lost, k);
    // Why the win was lost: said, and its tiles outlined, at the first lost position (docs/coach.md).
    const loss = data.loss && data.loss.at === k ? data.loss : null;
    const why = part('reason');
    if (why) why.hidden = loss === null;
    const message = document.getElementById('message');
    if (loss) message?.setAttribute('data-reason', loss.reason);
    else message?.removeAttribute('data-reason');
    for (const [slot, el] of tiles) el.toggleAttribute('data-reason-tile', loss?.tiles.includes(slot) ?? false);
    const targets: Record<string, number> = { first: 0, prev: k - 1, next: k + 1, last: moves };
    for (const a of steps) {
      const to = targets[a.dataset.step ?? ''];
      if (to === undefined) continue; // the verdict's link stays as it is
      const off = to === k || to < 0 || to > moves;
      if (off) {
        a.removeAttribute('href');
        a.setAttribute('role', 'link');
        a.setAttribute('aria-disabled', 'true');
      } else {
        a.href = replayUrl(token, to);
        a.removeAttribute('role');
        a.removeAttribute('aria-disabled');
      }
    }
    marker?.style.setProperty('--at', `${moves === 0 ? 0 : ((100 * k) / moves).toFixed(2)}%`);
    const url = replayUrl(token, k);
    if (location.pathname + location.search !== url) history.replaceState(null, '', url);
    if (k >= moves) stop();
  }

  function stop(): void {
    if (timer === undefined) return;
    clearInterval(timer);
    timer = undefined;
    playing(false);
  }

  function play(): void {
    if (timer !== undefined) return stop();
    if (current >= moves) show(0);
    timer = window.setInterval(() => show(Math.min(moves, current + 1)), PLAY_EVERY_MS);
    playing(true);
  }

  /** Play becomes Pause and back: its sign and name (which may need the bar refitted). */
  function playing(on: boolean): void {
    if (!playButton) return;
    playButton.setAttribute('aria-pressed', String(on));
    setText(playButton.querySelector('.label'), t(on ? 'client.replay.pause' : 'client.replay.play'));
    if (bar) fitChrome(bar, counters);
  }

  const go = (k: number): void => {
    stop();
    show(Math.max(0, Math.min(moves, k)));
  };

  for (const a of document.querySelectorAll<HTMLAnchorElement>('a[data-step]')) {
    a.addEventListener('click', (e) => {
      if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || !a.href) return;
      const to = Number(new URL(a.href).searchParams.get('move'));
      if (!Number.isInteger(to)) return;
      e.preventDefault();
      go(to);
    });
  }
  if (playButton) {
    playButton.hidden = false;
    playButton.addEventListener('click', play);
  }
  if (bar) watchChrome(bar, counters); // words where they fit, else signs (bar.ts)
  document.addEventListener('keydown', (e) => {
    if (e.metaKey || e.ctrlKey || e.altKey) return;
    const target = e.target as HTMLElement | null;
    if (target?.closest('input, select, textarea, [contenteditable]')) return;
    const onControl = target?.closest('button, a[href]') !== null && target !== document.body;
    switch (e.key) {
      case 'ArrowRight':
        go(rtl ? current - 1 : current + 1);
        break;
      case 'ArrowLeft':
        go(rtl ? current + 1 : current - 1);
        break;
      case 'Home':
        go(0);
        break;
      case 'End':
        go(moves);
        break;
      case ' ':
        if (onControl) return; // a focused control answers Space itself
        play();
        break;
      default:
        return;
    }
    e.preventDefault();
  });
}

registerServiceWorker();
start();
