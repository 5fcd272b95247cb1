/**
 * The script of the pages without a board (home, daily, stats): registers the service worker, sends
 * the games waiting in this browser (played offline, or a batch a closed tab did not send) whenever the
 * network is there, and on the stats page says what is still waiting (`#waiting`). The pages work the
 * same without it.
 */
import { dealUrl } from '../shared/display.ts';
import { ENV, registerServiceWorker } from './env.ts';
import { sendKept, sendNow, waitingGames, type Sync, type SyncHooks, type WaitingGame } from './sync.ts';

registerServiceWorker();

const section = document.getElementById('waiting');
const names = ((): Record<string, string> => {
  try {
    return JSON.parse(section?.dataset.layouts ?? '{}') as Record<string, string>;
  } catch {
    return {};
  }
})();
let sent = 0; // games sent while this page is open
let sending: Sync[] = [];

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function gameText(g: WaitingGame): string {
  const name = names[g.deal.layout] ?? g.deal.layout;
  const state = g.status === 'won' ? 'won' : g.status === 'stuck' ? 'stuck' : 'unfinished';
  const moves = g.waiting === g.moves ? plural(g.moves, 'move') : `${plural(g.waiting, 'move')} of ${g.moves}`;
  return `${name}${g.deal.mode === 'classic' ? ' (classic)' : ''}, deal ${g.deal.seed}: ${state}, ${moves} to send`;
}

/** Lists the waiting games on the stats page. */
function show(): void {
  if (!section) return;
  const games = waitingGames(ENV);
  const list = section.querySelector('ul');
  const note = section.querySelector('[data-waiting="note"]');
  const head = section.querySelector('[data-waiting="count"]');
  if (!list || !note || !head) return;
  if (games.length === 0) {
    section.hidden = sent === 0;
    section.dataset.waiting = '0';
    head.textContent = 'Nothing waiting in this browser';
    list.replaceChildren();
    note.replaceChildren(
      `${plural(sent, 'game')} sent and checked by the server. `,
      link('/stats', 'Reload'),
      ' to see them counted.',
    );
    return;
  }
  section.hidden = false;
  section.dataset.waiting = String(games.length);
  head.textContent = `${plural(games.length, 'game')} waiting in this browser`;
  list.replaceChildren(
    ...games.map((g) => {
      const li = document.createElement('li');
      li.append(link(dealUrl(g.deal.layout, g.deal.seed, g.deal.mode), gameText(g)));
      return li;
    }),
  );
  note.textContent = ENV.online()
    ? 'Sending them now: the server replays every move and counts them once it has checked them.'
    : 'You are offline: they are sent when the network is back, and counted once the server has checked every move.';
}

function link(href: string, text: string): HTMLAnchorElement {
  const a = document.createElement('a');
  a.href = href;
  a.textContent = text;
  return a;
}

const hooks: SyncHooks = {
  created() {},
  status() {
    show();
  },
  saved(_answer, complete) {
    if (complete) sent++;
    show();
  },
  conflict() {
    show();
  },
};

/** Sends every waiting game: at load, and again at once when the network comes back (not after the retry's backoff). */
function sendWaiting(): void {
  if (sending.length > 0) for (const sync of sending) sendNow(sync);
  else sending = sendKept('', ENV, hooks);
}

show();
sendWaiting();
addEventListener('online', () => {
  sendWaiting();
  show();
});
addEventListener('offline', show);
(globalThis as { __mahjong?: unknown }).__mahjong = { sending: () => sending };
