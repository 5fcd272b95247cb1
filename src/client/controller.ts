/** What the play page does on each input; its only side effects besides drawing (docs/client.md, "Modules"). */
import type { Move } from '../engine/index.ts';
import { isTutorialDone, makePrefs, makePrefsCookie } from '../shared/prefs.ts';
import { readPrefs } from './lesson-boot.ts';
import { couldNotStart, type Ask } from './ask.ts';
import { shareChallenge, shareLink, shareReplay } from './share.ts';
import { dropClock, keepClock } from './clock.ts';
import { t } from './i18n.ts';
import type { Controller } from './events.ts';
import { land, renderClock, type State } from './render.ts';
import { boardPoint, fit, zoomTo } from './viewport.ts';
import { play as playSound, setSound, type Sounds } from './sound.ts';
import {
  canRestart,
  elapsedMs,
  firstFree,
  isInProgress,
  moveFocus,
  newGameUrl,
  pickTile,
  playMove,
  restart,
  shareUrl,
  showCheck,
  showHint,
  showStuck,
  startClock,
  stopClock,
} from './state.ts';
import { leave, record, sendNow, type Sync } from './sync.ts';
import { clampZoom, zoomIn, zoomOut, zoomToggle } from './zoom.ts';

/** Actions that work while the game is paused (none touches the hidden board). */
const PAUSE_SAFE = new Set([
  'pause',
  'timer',
  'sound',
  'highlight',
  'new',
  'new!',
  'stay',
  'share',
  'share-replay',
  'challenge',
  'deselect',
  'zoom-in',
  'zoom-out',
  'zoom-fit',
]);

export const FOCUS_BOARD = 'mahjong:focus-board'; // sessionStorage
const KEEP_CLOCK_TICKS = 5;

export interface Deps {
  readonly sync: Sync;
  readonly kept: readonly Sync[]; // main.ts sends them
  readonly sounds: Sounds;
  readonly ask: Ask;
  readonly draw: () => void;
  readonly now: () => number;
}

/** The play page's controller for state `s`. */
export function makeController(s: State, deps: Deps): Controller {
  const { sync, sounds, ask, draw, now } = deps;
  const doc = s.dom.board.ownerDocument;
  let hintAt = -1; // the pending hint's log length
  let ticks = 0;

  /** The player's switches, kept in the mj_prefs cookie, which the server renders. */
  function savePrefs(): void {
    const { layout, seed, mode } = s.deal;
    const prefs = {
      timer: s.timerOn ? 'on' : 'off',
      highlight: s.highlightOn ? 'on' : 'off',
      paused: s.paused,
      ...(isTutorialDone(readPrefs(doc)) ? { tutorial: 'done' as const } : {}),
    } as const;
    const value = makePrefs(prefs, layout, seed, mode);
    doc.cookie = makePrefsCookie(value);
  }

  function recordNow(): void {
    record(sync, s.game.log, s.status, elapsedMs(s.clock, now()));
    if (s.status === 'won') dropClock(sync.env.store, sync.key); // the deal's next game starts at 0:00
  }

  /** Keeps your time in this browser, so a reload goes on from it (clock.ts). */
  function keepTime(): void {
    ticks = 0;
    if (isInProgress(s)) keepClock(sync.env.store, sync.key, s.gameId, elapsedMs(s.clock, now()), now());
  }

  /** Plays a move locally and hands the log to the sync. */
  function play(move: Move): boolean {
    const error = playMove(s, move, now());
    if (error) {
      s.message = t('client.illegal'); // the engine's reason (English) is for the console
      console.warn(error);
      draw();
      return false;
    }
    recordNow();
    draw();
    whyStuck();
    return true;
  }

  /** A board with no moves left: asks the solver why, uncounted (docs/coach.md). */
  function whyStuck(): void {
    if (s.status !== 'stuck' || s.check.kind !== 'idle') return;
    const at = s.game.log.length;
    ask('check', s.deal, s.game.log, (a) => {
      if (a.kind === 'check' && showStuck(s, a.result, a.undoSteps, at, a.lost ?? null)) draw();
    });
  }

  function setPaused(on: boolean): void {
    s.paused = on;
    if (on) stopClock(s, now());
    else startClock(s, now());
    s.message = '';
    savePrefs();
  }

  /** Play on from move k as a new unranked game (docs/coach.md); unsent moves go first. */
  async function playOn(k: number): Promise<void> {
    const id = s.gameId;
    if (id === null) return;
    sendNow(sync);
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        const res = await fetch(`/api/games/${encodeURIComponent(id)}/play-on`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ move: k }),
        });
        const body = (await res.json()) as { url?: string; code?: string };
        if (res.ok && typeof body.url === 'string') {
          leave(sync);
          location.assign(body.url);
          return;
        }
        if (body.code !== 'ERR_MOVE_GAP') break;
      } catch {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    s.message = t('client.notice.playOnFailed');
    draw();
  }

  async function share(): Promise<void> {
    const url = shareUrl(s, location.origin);
    try {
      if ((await shareLink(url, t('client.shareTitle'))) === 'shared') return;
      s.message = t('client.linkCopied');
    } catch {
      s.message = t('client.shareThis', { url });
    }
    draw();
  }

  /** The game's replay link, shared as the deal's link is (share.ts). */
  async function shareReplayLink(): Promise<void> {
    if (s.gameId === null) {
      s.message = t('client.replayWait');
      draw();
      return;
    }
    const { path, message } = await shareReplay(s.gameId, s.replayUrl, (made) => {
      s.replayUrl = made;
      draw();
    });
    s.replayUrl = path;
    if (message !== '') s.message = message;
    draw();
  }

  /** The won game's challenge link, once the server has recorded the win. */
  async function challengeLink(): Promise<void> {
    if (s.gameId === null || s.status !== 'won' || s.verified === null) {
      s.message = t('client.challengeWait');
      draw();
      return;
    }
    const { path, message } = await shareChallenge(s.gameId, s.challengeUrl, (made) => {
      s.challengeUrl = made;
      draw();
    });
    s.challengeUrl = path;
    if (message !== '') s.message = message;
    draw();
  }

  function hint(): void {
    const at = s.game.log.length;
    if (s.status === 'won' || (s.hintPending && hintAt === at)) return;
    hintAt = at;
    s.hintPending = true;
    s.message = t('client.lookingHint');
    draw();
    ask('hint', s.deal, s.game.log, (a) => {
      if (a.kind !== 'hint') {
        s.hintPending = false;
        s.message = couldNotStart(a) ? t('client.solverFailed') : '';
        draw();
        return;
      }
      const move = showHint(s, a.pair, at, a.winning, now());
      if (move) recordNow();
      s.moveFocus = move !== null;
      draw();
    });
  }

  function check(): void {
    if (s.status === 'won' || s.check.kind === 'running') return;
    const at = s.game.log.length;
    s.check = { kind: 'running', at };
    s.message = t('client.check.asking');
    draw();
    ask('check', s.deal, s.game.log, (a) => {
      if (a.kind !== 'check') {
        s.check = { kind: 'idle' };
        s.message = couldNotStart(a) ? t('client.solverFailed') : t('client.check.unknown');
      } else if (showCheck(s, a.result, a.undoSteps, at, now(), a.lost ?? null)) recordNow();
      draw();
    });
  }

  const ctrl: Controller = {
    pick(slot) {
      if (s.paused) return;
      land(s);
      const picked = pickTile(s, slot, now());
      if (picked.kind === 'move') {
        recordNow();
        playSound(sounds, s.status === 'won' ? 'win' : 'match');
      } else if (picked.kind === 'select') playSound(sounds, 'select');
      draw();
      whyStuck();
    },
    act(action) {
      if (s.paused && !PAUSE_SAFE.has(action)) return;
      land(s);
      if (action.startsWith('play-on:')) {
        void playOn(Number(action.slice(8)));
        return;
      }
      if (action.startsWith('undo:')) {
        if (s.status === 'won') return;
        const n = Number(action.slice(5));
        for (let i = 0; i < n && s.game.past.length > 0; i++) play({ type: 'undo' });
        s.message = t('client.backToWinnable', { n });
        draw();
        return;
      }
      switch (action) {
        case 'shuffle':
        case 'undo':
        case 'redo':
          if (s.status === 'won') return; // recorded: the game is over
          if (play({ type: action }) && action === 'shuffle') playSound(sounds, 'shuffle');
          return;
        case 'pause':
          if (s.status === 'won' && !s.paused) return;
          setPaused(!s.paused);
          if (!s.paused) s.moveFocus = true;
          draw();
          return;
        case 'timer':
          s.timerOn = !s.timerOn;
          savePrefs();
          draw();
          return;
        case 'sound':
          setSound(sounds, !sounds.on);
          s.soundOn = sounds.on;
          draw();
          return;
        case 'highlight':
          s.highlightOn = !s.highlightOn;
          savePrefs();
          draw();
          return;
        case 'restart':
        case 'restart!':
          if (!canRestart(s)) return;
          if (action === 'restart' && !s.confirmingRestart) {
            s.confirmingNew = false;
            s.confirmingRestart = true;
            draw();
            s.dom.notice.querySelector<HTMLElement>('[data-do="stay"]')?.focus();
            return;
          }
          if (restart(s, now()).length > 0) recordNow();
          s.focus = firstFree(s);
          s.moveFocus = true;
          draw();
          return;
        case 'hint':
          return hint();
        case 'check':
          return check();
        case 'new':
        case 'new!':
          if (action === 'new' && isInProgress(s) && !s.confirmingNew) {
            s.confirmingRestart = false;
            s.confirmingNew = true;
            draw();
            s.dom.notice.querySelector<HTMLElement>('[data-do="stay"]')?.focus();
            return;
          }
          leave(sync);
          try {
            sessionStorage.setItem(FOCUS_BOARD, '1');
          } catch {
            // no session storage
          }
          location.assign(newGameUrl(s));
          return;
        case 'share':
          void share();
          return;
        case 'share-replay':
          void shareReplayLink();
          return;
        case 'challenge':
          void challengeLink();
          return;
        case 'zoom-in':
        case 'zoom-out':
        case 'zoom-fit':
          ctrl.zoom(action === 'zoom-in' ? 'in' : action === 'zoom-out' ? 'out' : 'fit');
          return;
        case 'stay':
          s.confirmingNew = false;
          s.confirmingRestart = false;
          s.moveFocus = true;
          draw();
          return;
        case 'deselect':
          s.confirmingNew = false;
          s.confirmingRestart = false;
          s.selected = null;
          s.hint = null;
          s.message = '';
          draw();
          return;
      }
    },
    focusStep(dir, from) {
      if (s.paused) return;
      if (from !== null && s.focus === null) s.focus = from; // tabbed in
      moveFocus(s, dir);
      s.moveFocus = true;
      draw();
    },
    visibility(hidden) {
      if (hidden) {
        stopClock(s, now());
        keepTime();
        sendNow(sync); // a phone may end a hidden page without a pagehide
      } else startClock(s, now());
      renderClock(s, now());
    },
    tick() {
      renderClock(s, now());
      if (s.clock.since !== null && ++ticks >= KEEP_CLOCK_TICKS) keepTime();
    },
    fit() {
      const { fitTile, zoom } = s;
      fit(s);
      // The view's first size report (and a resize that keeps the fit) changes nothing on the board.
      if (s.fitTile !== fitTile || s.zoom !== zoom) draw();
    },
    zoom(to, anchor, held) {
      const next =
        to === 'in'
          ? zoomIn(s.zoom, s.fitTile)
          : to === 'out'
            ? zoomOut(s.zoom, s.fitTile)
            : to === 'fit'
              ? null
              : to === 'toggle'
                ? zoomToggle(s.zoom, s.fitTile)
                : clampZoom(to, s.fitTile);
      zoomTo(s, next, anchor, held);
      draw();
    },
    tileWidth() {
      return s.zoom ?? s.fitTile;
    },
    boardPoint(at) {
      return boardPoint(s, at);
    },
    leave() {
      keepTime();
      leave(sync);
    },
    online() {
      sendNow(sync);
      for (const other of deps.kept) sendNow(other); // now, not after their backoff
    },
  };
  whyStuck();
  return ctrl;
}
