/**
 * The play page's script: reads #deal-data, rebuilds the game with the engine, adopts the
 * server-rendered board, and wires input (events.ts), drawing (render.ts), the server (api.ts) and the
 * solver's worker together. Without this script the page still shows the board (server markup + CSS).
 */
import type { Move } from '../engine/index.ts';
import { flush, makeSync, pushMove, type MovesAnswer } from './api.ts';
import { bind, type Controller } from './events.ts';
import { fit, makeDom, readData, render, renderClock, type State } from './render.ts';
import {
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

const RELOAD_KEY = 'mahjong:resync'; // sessionStorage: time of the last resync reload, against reload loops

function start(doc: Document): void {
  const data = readData(doc) as DealData | null;
  if (!data?.deal) return;
  const now = Date.now();
  const headless = makeState(data, now);
  const sprite = new URL(__FACES_FILE__, import.meta.url).pathname;
  const s: State = Object.assign(headless, { dom: makeDom(doc, headless, sprite), moveFocus: false });
  const draw = (): void => render(s, Date.now());

  const sync = makeSync(s.deal, s.gameId, {
    created: (id) => {
      s.gameId = id;
    },
    resync: (answer, why) => resync(answer, why),
    offline: () => {
      s.message = 'Cannot reach the server; your moves are kept and will be sent when it answers.';
      draw();
    },
    online: () => {
      s.message = 'Back in touch with the server.';
      draw();
    },
  });

  /** The server disagrees: take its game (from its log when it sent one, else by reloading the page). */
  function resync(answer: MovesAnswer | null, why: string): void {
    if (answer?.log) {
      const fresh = makeState({ deal: s.deal, game: { id: sync.gameId!, log: answer.log, startedAt: Date.now() } }, Date.now());
      Object.assign(s, { game: fresh.game, selected: null, hint: null, leaving: [] });
      refresh(s);
      s.message = 'The board was brought back in step with the server.';
      draw();
      return;
    }
    const last = Number(sessionStorage.getItem(RELOAD_KEY) ?? 0);
    if (Date.now() - last < 30_000) {
      s.message = `The server did not accept the last move (${why}). Reload the page to continue.`;
      draw();
      return;
    }
    sessionStorage.setItem(RELOAD_KEY, String(Date.now()));
    location.reload();
  }

  /** Plays a move locally and queues it for the server. */
  function play(move: Move): boolean {
    const error = playMove(s, move, Date.now());
    if (error) {
      s.message = error.charAt(0).toUpperCase() + error.slice(1) + '.';
      draw();
      return false;
    }
    void pushMove(sync, move, s.game.faces);
    draw();
    return true;
  }

  // One worker per kind of question, so a long "can this still be won?" never delays a hint. Asking
  // again while an older question of the same kind is still being worked on ends that work.
  const workers = new Map<WorkerRequest['kind'], { worker: Worker; waiting: number | null }>();
  let nextId = 1;
  let hintAt = -1; // log length of the position the pending hint is for
  function ask(kind: WorkerRequest['kind'], done: (a: WorkerAnswer) => void): void {
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
      const picked = pickTile(s, slot, Date.now());
      if (picked.kind === 'move') void pushMove(sync, picked.move, s.game.faces);
      draw();
    },
    act(action) {
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
          play({ type: action });
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
            if (move) void pushMove(sync, move, s.game.faces);
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
            if (a.kind === 'check') showCheck(s, a.result, a.undoSteps, at);
            else s.check = { kind: 'idle' };
            draw();
          });
          return;
        }
        case 'new':
          void flush(sync);
          location.assign(newGameUrl(s));
          return;
        case 'share':
          void share();
          return;
        case 'deselect':
          s.selected = null;
          s.hint = null;
          draw();
          return;
      }
    },
    focusStep(dir) {
      moveFocus(s, dir);
      s.moveFocus = true;
      draw();
    },
    visibility(hidden) {
      if (hidden) stopClock(s, Date.now());
      else if (s.gameId !== null || s.game.log.length > 0) startClock(s, Date.now());
      renderClock(s, Date.now());
    },
    tick() {
      renderClock(s, Date.now());
    },
    fit() {
      fit(s);
    },
    leave() {
      void flush(sync);
    },
  };

  fit(s);
  draw();
  s.dom.board.classList.add('live'); // the script is running: CSS may rely on it
  bind(doc, s.dom.board, ctrl);
  (globalThis as { __mahjong?: unknown }).__mahjong = { state: s, sync }; // for tests and curious players
}

start(document);
