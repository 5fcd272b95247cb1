/**
 * The play page's script: reads #deal-data, rebuilds the game with the engine, adopts the
 * server-rendered board, and wires input (events.ts), drawing (render.ts), the server (api.ts) and the
 * solver's worker together. Without this script the page still shows the board (server markup + CSS).
 */
import type { Move } from '../engine/index.ts';
import { makeSounds, play as playSound, setSound } from './sound.ts';
import { formatTime } from '../shared/display.ts';
import { ENV, registerServiceWorker } from './env.ts';
import { keepDeal, openOffline } from './shell.ts';
import { leave, openSync, record, sendKept, sendNow } from './sync.ts';
import { bind, type Controller } from './events.ts';
import { fit, makeDom, readData, render, renderClock, zoomTo, type State } from './render.ts';
import { clampZoom, zoomIn, zoomOut, zoomToggle } from './zoom.ts';
import {
  elapsedMs,
  firstFree,
  isInProgress,
  makeState,
  moveFocus,
  newGameUrl,
  pickTile,
  playMove,
  refresh,
  shareUrl,
  showCheck,
  showHint,
  startClock,
  stopClock,
  type DealData,
} from './state.ts';
import type { WorkerAnswer, WorkerRequest } from './worker.ts';

declare const __WORKER_FILE__: string; // hashed worker file name, set by scripts/build-client.ts
declare const __FACES_FILE__: string; // hashed faces.svg name, set by scripts/build-client.ts

/** Actions that work while the game is paused (none touches the hidden board). */
const PAUSE_SAFE = new Set([
  'pause',
  'timer',
  'sound',
  'new',
  'new!',
  'stay',
  'share',
  'deselect',
  'zoom-in',
  'zoom-out',
  'zoom-fit',
]);

const FOCUS_BOARD = 'mahjong:focus-board'; // sessionStorage: "New game" was pressed; focus the new board

const sameFaces = (a: readonly unknown[] | undefined, b: readonly unknown[]): boolean =>
  Array.isArray(a) && a.length === b.length && a.every((f, i) => (f ?? null) === (b[i] ?? null));

function start(doc: Document, given: DealData, message = ''): void {
  const now = Date.now();
  const elapsed = Number(doc.getElementById('deal-stats')?.dataset.elapsed);
  const data: DealData = Number.isFinite(elapsed) ? { ...given, elapsedMs: elapsed } : given; // offline: no server clock
  const headless = makeState(data, now);
  const sprite = new URL(__FACES_FILE__, import.meta.url).pathname;
  const s: State = Object.assign(headless, {
    dom: makeDom(doc, headless, sprite),
    moveFocus: false,
    zoom: null,
    fitTile: 0,
    room: 0,
  });
  const draw = (): void => render(s, Date.now());

  /** Shows the game of `log` (the server's, or one kept on this device), keeping the clock. */
  function adopt(log: readonly Move[]): void {
    const shown = makeState({ deal: s.deal, game: { id: s.gameId ?? '', log, startedAt: Date.now() } }, Date.now());
    const clock = s.clock;
    Object.assign(s, {
      game: shown.game,
      clock,
      selected: null,
      hint: null,
      hintPending: false,
      leaving: [],
      check: { kind: 'idle' },
    });
    refresh(s);
    if (s.status === 'won') stopClock(s, Date.now());
    else startClock(s, Date.now());
  }
  const clockRuns = data.elapsedMs !== undefined; // the server's time: pause and hidden pages do not stop it

  const server = data.game ? { id: data.game.id, log: data.game.log } : null;
  const sync = openSync(
    s.deal,
    server,
    {
      created: (id) => {
        s.gameId = id;
      },
      status: (status) => {
        s.saving = status;
        draw();
      },
      saved: (answer, complete) => {
        if (answer.status === 'won' && s.status === 'won' && !s.verified) {
          const { timeMs, previousBestMs, ranked, unranked, dailyRank, next } = answer;
          s.verified = { timeMs, previousBestMs, ranked, unranked, dailyRank, next };
          const time = formatTime(answer.timeMs ?? elapsedMs(s.clock, Date.now()));
          s.message = `Board cleared in ${time}. Your win is recorded: the server checked every move.`;
        } else if (complete && !sameFaces(answer.faces, s.game.faces)) {
          // The server replayed the same moves to another board: a newer engine was deployed.
          s.message =
            'The game was updated on the server. Reload the page to go on with its board; every move is saved.';
        }
        draw();
      },
      conflict: (log, why) => {
        adopt(log);
        if (sync.won) s.verified = { timeMs: null };
        s.message = `${why.charAt(0).toUpperCase()}${why.slice(1)}. The board now shows the server's position; every move it accepted is kept.`;
        draw();
      },
    },
    ENV,
  );
  const kept = sendKept(sync.key, ENV); // games other deals' pages left waiting (finished offline, closed too soon)
  if (sync.log.length !== s.game.log.length) {
    adopt(sync.log); // moves kept on this device that the server did not have yet: shown, and being sent
    s.message = 'Welcome back: your moves were kept on this device and are being saved.';
  }
  s.saving = sync.status;

  // Pause and the timer switch: kept in the mj_prefs cookie, which the server renders (routes/pages/play.ts).
  const wrap = s.dom.board.closest<HTMLElement>('.board-wrap') ?? s.dom.board.parentElement!; // not the board's view
  const counters = doc.querySelector<HTMLElement>('.counters');
  let paused = wrap.hasAttribute('data-paused');
  if (paused && !clockRuns) stopClock(s, Date.now());
  function savePrefs(): void {
    const words = [counters?.dataset.timer === 'off' ? 'timer-off' : '', paused ? 'paused' : ''].filter(Boolean);
    doc.cookie = `mj_prefs=${words.join('.') || 'none'}; path=/; max-age=${400 * 86_400}; samesite=lax`;
  }
  function switchButton(action: string, on: boolean, text: string): void {
    const b = doc.querySelector<HTMLElement>(`.controls [data-action="${action}"]`);
    if (!b) return;
    b.setAttribute('aria-pressed', String(on));
    b.textContent = text;
  }
  function setPaused(on: boolean): void {
    paused = on;
    wrap.toggleAttribute('data-paused', on);
    if (!clockRuns) {
      if (on) stopClock(s, Date.now());
      else if (s.gameId !== null || s.game.log.length > 0) startClock(s, Date.now());
    }
    switchButton('pause', on, on ? 'Resume' : 'Pause');
    s.message = on
      ? clockRuns
        ? "Paused: the board is hidden. The clock goes on: times are the server's, from when it first showed you this deal."
        : 'Paused: the board is hidden and the clock stopped.'
      : '';
    savePrefs();
    renderClock(s, Date.now());
  }

  const sounds = makeSounds();
  const soundSwitch = doc.querySelector<HTMLButtonElement>('[data-action="sound"]');
  /** The switch says whether sound is on (aria-pressed and its text). */
  function renderSoundSwitch(): void {
    if (!soundSwitch) return;
    soundSwitch.setAttribute('aria-pressed', String(sounds.on));
    soundSwitch.textContent = sounds.on ? 'Sound on' : 'Sound off';
  }
  renderSoundSwitch();

  /** Plays a move locally and hands the log to the sync. */
  function play(move: Move): boolean {
    const error = playMove(s, move, Date.now());
    if (error) {
      s.message = error.charAt(0).toUpperCase() + error.slice(1) + '.';
      draw();
      return false;
    }
    record(sync, s.game.log, s.status);
    draw();
    return true;
  }

  // One worker per kind of question, so a long "can this still be won?" never delays a hint. Asking
  // again while an older question of the same kind is still being worked on ends that work.
  const workers = new Map<'hint' | 'check', { worker: Worker; waiting: number | null }>();
  let nextId = 1;
  let hintAt = -1; // log length of the position the pending hint is for
  function ask(kind: 'hint' | 'check', done: (a: WorkerAnswer) => void): void {
    let entry = workers.get(kind);
    if (entry && entry.waiting !== null) {
      entry.worker.terminate();
      entry = undefined;
    }
    if (!entry) {
      const worker = new Worker(new URL(__WORKER_FILE__, import.meta.url), { type: 'module' });
      entry = { worker, waiting: null };
      workers.set(kind, entry);
    }
    const id = nextId++;
    const current = entry;
    current.waiting = id;
    current.worker.onmessage = (e: MessageEvent<WorkerAnswer>) => {
      if (e.data.id !== current.waiting) return;
      current.waiting = null;
      done(e.data);
    };
    current.worker.postMessage({ id, kind, deal: s.deal, log: s.game.log } satisfies WorkerRequest);
  }

  async function share(): Promise<void> {
    const url = shareUrl(s, location.origin);
    try {
      if (typeof navigator.share === 'function' && matchMedia('(pointer: coarse)').matches) {
        await navigator.share({ title: 'Mahjong solitaire: can you clear this board?', url });
        return;
      }
      await navigator.clipboard.writeText(url);
      s.message = 'Link copied: anyone who opens it gets this same board.';
    } catch {
      s.message = `Share this link: ${url}`;
    }
    draw();
  }

  const ctrl: Controller = {
    pick(slot) {
      if (paused) return;
      const picked = pickTile(s, slot, Date.now());
      if (picked.kind === 'move') {
        record(sync, s.game.log, s.status);
        playSound(sounds, s.status === 'won' ? 'win' : 'match');
      } else if (picked.kind === 'select') playSound(sounds, 'select');
      draw();
    },
    act(action) {
      if (paused && !PAUSE_SAFE.has(action)) return; // the board is hidden: nothing acts on it
      if (action.startsWith('undo:')) {
        if (s.status === 'won') return;
        const n = Number(action.slice(5));
        for (let i = 0; i < n && s.game.past.length > 0; i++) play({ type: 'undo' });
        s.message = `Back to the last winnable position (${n} move${n === 1 ? '' : 's'} undone).`;
        draw();
        return;
      }
      switch (action) {
        case 'shuffle':
        case 'undo':
        case 'redo':
          if (s.status === 'won') return; // the server has recorded the win: the game is over
          if (play({ type: action }) && action === 'shuffle') playSound(sounds, 'shuffle');
          return;
        case 'pause':
          if (s.status === 'won' && !paused) return;
          setPaused(!paused);
          if (!paused) s.moveFocus = true;
          draw();
          return;
        case 'timer': {
          if (!counters) return;
          const off = counters.dataset.timer !== 'off';
          counters.dataset.timer = off ? 'off' : 'on';
          switchButton('timer', !off, off ? 'Show timer' : 'Hide timer');
          savePrefs();
          return;
        }
        case 'sound':
          setSound(sounds, !sounds.on);
          renderSoundSwitch();
          return;
        case 'hint': {
          const at = s.game.log.length;
          if (s.status === 'won' || (s.hintPending && hintAt === at)) return;
          hintAt = at;
          s.hintPending = true;
          s.message = 'Looking for a good pair…';
          draw();
          ask('hint', (a) => {
            if (a.kind !== 'hint') {
              s.hintPending = false;
              return;
            }
            const move = showHint(s, a.pair, at, a.winning);
            if (move) record(sync, s.game.log, s.status);
            s.moveFocus = move !== null;
            draw();
          });
          return;
        }
        case 'check': {
          if (s.status === 'won' || s.check.kind === 'running') return;
          const at = s.game.log.length;
          s.check = { kind: 'running', at };
          s.message = 'Asking the solver whether this board can still be cleared…';
          draw();
          ask('check', (a) => {
            if (a.kind !== 'check') s.check = { kind: 'idle' };
            else if (showCheck(s, a.result, a.undoSteps, at)) record(sync, s.game.log, s.status); // counted on the server
            draw();
          });
          return;
        }
        case 'new':
        case 'new!':
          if (action === 'new' && isInProgress(s) && !s.confirmingNew) {
            s.confirmingNew = true; // ask first: the notice offers "New game" (new!) and "Keep playing"
            draw();
            s.dom.notice.querySelector<HTMLElement>('[data-do="stay"]')?.focus();
            return;
          }
          leave(sync);
          try {
            sessionStorage.setItem(FOCUS_BOARD, '1'); // the next page puts focus back on its board
          } catch {
            // no session storage: the new page starts at its top, as any page
          }
          location.assign(newGameUrl(s));
          return;
        case 'share':
          void share();
          return;
        case 'zoom-in':
        case 'zoom-out':
        case 'zoom-fit':
          ctrl.zoom(action === 'zoom-in' ? 'in' : action === 'zoom-out' ? 'out' : 'fit');
          return;
        case 'stay':
          s.confirmingNew = false;
          s.moveFocus = true;
          draw();
          return;
        case 'deselect':
          s.confirmingNew = false;
          s.selected = null;
          s.hint = null;
          s.message = ''; // "… selected." or the hint's pair go with them
          draw();
          return;
      }
    },
    focusStep(dir, from) {
      if (paused) return;
      if (from !== null && s.focus === null) s.focus = from; // tabbed in: the first arrow moves from there
      moveFocus(s, dir);
      s.moveFocus = true;
      draw();
    },
    visibility(hidden) {
      if (hidden) sendNow(sync); // a phone may end a page in the background without a pagehide
      if (!clockRuns) {
        if (hidden) stopClock(s, Date.now());
        else if (!paused && (s.gameId !== null || s.game.log.length > 0)) startClock(s, Date.now());
      }
      renderClock(s, Date.now());
    },
    tick() {
      renderClock(s, Date.now());
    },
    fit() {
      fit(s);
      draw(); // the zoom buttons say what they can do at the new size
    },
    zoom(to, anchor) {
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
      zoomTo(s, next, anchor);
      draw();
    },
    tileWidth() {
      return s.zoom ?? s.fitTile;
    },
    leave() {
      leave(sync);
    },
    online() {
      sendNow(sync);
      for (const other of kept) sendNow(other); // at once, not after their retries' backoff
    },
  };

  if (message && !s.message) s.message = message;
  fit(s);
  draw();
  s.dom.board.classList.add('live');
  try {
    if (sessionStorage.getItem(FOCUS_BOARD)) {
      sessionStorage.removeItem(FOCUS_BOARD);
      s.focus = firstFree(s);
      s.moveFocus = true;
      draw();
    }
  } catch {
    // no session storage: nothing to carry over
  } // the script is running: CSS may rely on it
  bind(doc, s.dom.board, ctrl);
  // For tests and curious players: the state, the sync, and a way to send what waits without the batch delay.
  (globalThis as { __mahjong?: unknown }).__mahjong = { state: s, sync, sendNow: () => sendNow(sync) };
}

registerServiceWorker();
const given = readData(document) as DealData | { deal: null } | null;
if (given?.deal) {
  start(document, given);
  // Kept for playing this link again without a network (shell.ts); the heading starts with the layout's name.
  const name = document.querySelector('.play-title h1')?.firstChild?.textContent?.trim() || given.deal.layout;
  void keepDeal(given.deal, name);
} else if (given) {
  // The offline page (the service worker's answer to a deal link without a network): deal it here.
  void openOffline(document, new URL(__WORKER_FILE__, import.meta.url)).then(
    (opened) => opened && start(document, opened.data, opened.message),
  );
}
