/** The play page's script, composition only (docs/client.md, "Modules"). */
import type { Move } from '../engine/index.ts';
import type { MovesAnswer } from '../shared/api.ts';
import { makeAsk } from './ask.ts';
import { keptClock } from './clock.ts';
import { watchChrome } from './bar.ts';
import { watchMore } from './cue.ts';
import { t } from './i18n.ts';
import { FOCUS_BOARD, makeController } from './controller.ts';
import { ENV, nextTask, registerServiceWorker, WINS_CHANNEL } from './env.ts';
import { bind } from './events.ts';
import { bootTutorial } from './lesson-boot.ts';
import { makeDom, readData, render, type State } from './render.ts';
import { fit } from './viewport.ts';
import { keepDeal, openOffline } from './shell.ts';
import { makeSounds } from './sound.ts';
import { firstFree, isInProgress, makeState, refresh, startClock, stopClock, type DealData } from './state.ts';
import { openSync, sendKept } from './sync.ts';

declare const __WORKER_FILE__: string; // set by scripts/build-client.ts
const WORKER_URL = new URL(__WORKER_FILE__, import.meta.url);

const RACE_BATCH_MS = 1000;

const sameFaces = (a: readonly unknown[] | undefined, b: readonly unknown[]): boolean =>
  Array.isArray(a) && a.length === b.length && a.every((f, i) => (f ?? null) === (b[i] ?? null));

/** The win answer's parts the win panel shows. */
const verifiedOf = ({ timeMs, previousBestMs, ranked, unranked, dailyRank, next, achievements }: MovesAnswer) => ({
  timeMs,
  previousBestMs,
  ranked,
  unranked,
  dailyRank,
  next,
  achievements,
});

async function start(doc: Document, data: DealData, message = ''): Promise<void> {
  const wrap = doc.querySelector('.board-wrap');
  const counters = doc.querySelector<HTMLElement>('.counters');
  const sounds = makeSounds();
  const prefs = {
    paused: wrap?.hasAttribute('data-paused') ?? false,
    timerOn: counters?.dataset.timer !== 'off',
    highlightOn: doc.documentElement.dataset.highlight !== 'off',
    soundOn: sounds.on,
  };
  const headless = makeState(data, Date.now(), prefs);
  await nextTask(); // the state, then the page's parts, each a task
  const s: State = Object.assign(headless, {
    dom: makeDom(doc, headless),
    moveFocus: false,
    zoom: null,
    fitTile: 0,
    flying: { n: 0, slots: [], timer: null },
  });
  const draw = (): void => render(s, Date.now());

  /** Shows the game of `log` (the server's, or one kept on this device), keeping your clock. */
  function adopt(log: readonly Move[]): void {
    const shown = makeState({ deal: s.deal, game: { id: s.gameId ?? '', log, startedAt: Date.now() } }, Date.now());
    Object.assign(s, {
      game: shown.game,
      selected: null,
      hint: null,
      hintPending: false,
      leaving: [],
      moving: [],
      mismatch: null,
      check: { kind: 'idle' },
    });
    refresh(s);
    if (s.status === 'won') stopClock(s, Date.now());
    else startClock(s, Date.now());
  }

  const server = data.game ? { id: data.game.id, log: data.game.log } : null;
  // A race's or a challenge's game has its own kept log.
  const race = doc.querySelector<HTMLElement>('#race')?.dataset.race;
  const challenge = doc.querySelector<HTMLElement>('#challenge')?.dataset.challenge;
  const sync = openSync(
    s.deal,
    server,
    {
      created: (id) => {
        s.gameId = id;
      },
      status: (status) => {
        s.saving = status;
        if (status === 'offline' || status === 'busy') s.wentOffline = true;
        draw();
      },
      saved: (answer, complete) => {
        if (answer.status === 'won' && s.status === 'won' && !s.verified) {
          s.verified = verifiedOf(answer);
          if (answer.record) s.record = answer.record;
          try {
            new BroadcastChannel(WINS_CHANNEL).postMessage({ layout: s.deal.layout }); // for open stats pages
          } catch {
            // no BroadcastChannel
          }
        } else if (complete && !sameFaces(answer.faces, s.game.faces)) {
          // Same moves, another board: a newer engine was deployed.
          s.message = t('client.updated');
        }
        draw();
      },
      conflict: (log, why) => {
        adopt(log);
        if (sync.won) s.verified = { timeMs: null, ranked: null, unranked: null };
        s.message = t('client.conflict'); // the server's English reason goes to the console
        console.warn(why);
        draw();
      },
    },
    ENV,
    race
      ? { key: `mahjong:race:${race}`, batchMs: RACE_BATCH_MS }
      : challenge
        ? { key: `mahjong:challenge:${challenge}`, challenge }
        : {},
  );
  if (sync.log.length !== s.game.log.length) {
    adopt(sync.log); // kept moves the server lacks, being sent
    if (sync.playMs !== null) s.clock.base = Math.max(s.clock.base, sync.playMs);
    s.message = t('client.welcomeKept');
  }
  // The server heard only the last move's time: take the clock this browser showed (clock.ts).
  const shown = keptClock(ENV.store, sync.key, s.gameId, Date.now());
  if (shown !== null && isInProgress(s)) s.clock.base = Math.max(s.clock.base, shown);
  s.saving = sync.status;
  const kept = sendKept(sync.key, ENV); // other deals' waiting games

  const ctrl = makeController(s, { sync, kept, sounds, ask: makeAsk(WORKER_URL), draw, now: Date.now });
  if (message && !s.message) s.message = message;
  await nextTask(); // then the first drawing and the board live, in a task of their own
  fit(s);
  try {
    if (sessionStorage.getItem(FOCUS_BOARD)) {
      sessionStorage.removeItem(FOCUS_BOARD);
      s.focus = firstFree(s);
      s.moveFocus = true;
    }
  } catch {
    // no session storage
  }
  draw();
  s.dom.board.classList.add('live');
  bind(doc, s.dom.board, ctrl);
  // For tests and the curious.
  (globalThis as { __mahjong?: unknown }).__mahjong = { state: s, sync, sendNow: () => ctrl.online() };
}

/** The page's chrome watched for fit and scroll cues (bar.ts, cue.ts). */
function watchPage(doc: Document): void {
  const bar = doc.querySelector<HTMLElement>('.controls');
  if (bar) watchChrome(bar, doc.querySelector<HTMLElement>('.counters'));
  for (const box of doc.querySelectorAll<HTMLElement>('#win-panel, .play-side, #game-menu')) watchMore(box);
}

// The board first, each later job in its own task (docs/client.md, "Measures").
const given = readData(document) as DealData | { deal: null } | null;
if (given?.deal) {
  const deal = given.deal;
  await nextTask(); // the script's evaluation, then the game's state, each a task
  await start(document, given);
  await nextTask();
  bootTutorial(document); // on a first visit the lesson is on top of the board, drawn by the server
  await nextTask();
  watchPage(document);
  await nextTask();
  // Kept for offline play (shell.ts).
  const name = document.querySelector('.play-name')?.textContent?.trim() || deal.layout;
  keepDeal(deal, name);
} else if (given) {
  // The offline page: deal it here.
  const opened = await openOffline(document, WORKER_URL);
  if (opened) {
    await start(document, opened.data, opened.message);
    watchPage(document);
  }
}
registerServiceWorker();
