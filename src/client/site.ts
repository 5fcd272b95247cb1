/** The script of the pages without a board (docs/client.md, "Live records"); they work without it. */
import { dealUrl } from '../shared/display.ts';
import { ENV, registerServiceWorker, WINS_CHANNEL } from './env.ts';
import { locale, t } from './i18n.ts';
import { shareChallenge, shareReplay } from './share.ts';
import { sendKept, sendNow, waitingGames, type Sync, type SyncHooks, type WaitingGame } from './sync.ts';

registerServiceWorker();

// A transfer link made without PUBLIC_ORIGIN is a path: this page's origin completes it.
const transferLink = document.getElementById('transfer-link');
if (transferLink instanceof HTMLInputElement && transferLink.value.startsWith('/'))
  transferLink.value = `${location.origin}${transferLink.value}`;

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

function gameText(g: WaitingGame): string {
  const name = names[g.deal.layout] ?? g.deal.layout;
  const state = g.status === 'won' ? 'won' : g.status === 'stuck' ? 'stuck' : 'unfinished';
  const moves =
    g.waiting === g.moves
      ? t('client.waiting.moves', { n: g.moves })
      : t('client.waiting.movesOf', { n: g.waiting, total: g.moves });
  return t('client.waiting.game', { name, mode: g.deal.mode, seed: g.deal.seed, state, moves });
}

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
    head.textContent = t('client.waiting.none');
    list.replaceChildren();
    note.textContent = t('client.waiting.sent', { n: sent });
    return;
  }
  section.hidden = false;
  section.dataset.waiting = String(games.length);
  head.textContent = t('client.waiting.count', { n: games.length });
  list.replaceChildren(
    ...games.map((g) => {
      const li = document.createElement('li');
      li.append(link(dealUrl(g.deal.layout, g.deal.seed, g.deal.mode), gameText(g)));
      return li;
    }),
  );
  note.textContent = ENV.online() ? t('client.waiting.sending') : t('client.waiting.offline');
}

function link(href: string, text: string): HTMLAnchorElement {
  const a = document.createElement('a');
  a.href = href;
  a.textContent = text;
  return a;
}

/** Swaps in a fresh copy of the stats page's counted part when it changed, unless focus is inside. */
async function refreshStats(): Promise<void> {
  const live = document.querySelector<HTMLElement>('[data-live="stats"]');
  if (!live || live.contains(document.activeElement)) return;
  try {
    const res = await fetch(location.pathname + location.search, {
      headers: { accept: 'text/html' },
      credentials: 'same-origin',
      cache: 'no-store',
    });
    if (!res.ok) return;
    const fresh = new DOMParser().parseFromString(await res.text(), 'text/html').querySelector('[data-live="stats"]');
    if (!fresh || fresh.innerHTML === live.innerHTML) return;
    const held = earnedIn(live);
    live.replaceWith(document.adoptNode(fresh));
    announce([...earnedIn(fresh)].filter(([id]) => !held.has(id)).map(([, name]) => name));
  } catch {
    // offline: refresh at the next chance
  }
}

/** The achievements a copy lists as held: id → name. */
function earnedIn(root: Element): Map<string, string> {
  const held = new Map<string, string>();
  for (const el of root.querySelectorAll<HTMLElement>('[data-achievement][data-earned]'))
    held.set(el.dataset.achievement ?? '', el.querySelector('.achievement-name')?.textContent?.trim() ?? '');
  return held;
}

/** Says which achievements the games just counted earned (`#achievement-news`). */
function announce(names: readonly string[]): void {
  const news = document.getElementById('achievement-news');
  if (!news || names.length === 0) return;
  news.textContent = t('client.waiting.achievements', {
    names: new Intl.ListFormat(locale(), { type: 'conjunction' }).format(names),
  });
  news.hidden = false;
}

const hooks: SyncHooks = {
  created() {},
  status() {
    show();
  },
  saved(_answer, complete) {
    if (complete) {
      sent++;
      void refreshStats();
    }
    show();
  },
  conflict() {
    show();
  },
};

/** The history's Share replay and Challenge a friend share the link as the win panel does (share.ts). */
async function shareFromHistory(form: HTMLFormElement, kind: 'replay' | 'challenge'): Promise<void> {
  const game = form.elements.namedItem('game');
  if (!(game instanceof HTMLInputElement) || form.dataset.busy !== undefined) return;
  form.dataset.busy = '';
  const next = form.nextElementSibling;
  const note =
    next instanceof HTMLElement && next.classList.contains('replay-note') ? next : document.createElement('p');
  if (note !== next) {
    note.className = 'replay-note';
    note.setAttribute('role', 'status');
    form.after(note);
  }
  // A message that holds the link ("Share this link: …") gets it in its place.
  const say = (message: string, path: string | null): void => {
    if (path === null) return note.replaceChildren(message);
    const url = `${location.origin}${path}`;
    const a = link(path, url);
    a.dir = 'ltr';
    const at = message.indexOf(url);
    if (at >= 0) note.replaceChildren(message.slice(0, at), a, message.slice(at + url.length));
    else note.replaceChildren(...(message === '' ? [] : [message, ' ']), a);
  };
  const share = kind === 'replay' ? shareReplay : shareChallenge;
  const { path, message } = await share(game.value, form.dataset.link ?? null, (made) => {
    form.dataset.link = made;
    say('', made);
  });
  say(message, path);
  delete form.dataset.busy;
}

/** Sends every waiting game at load, and at once when the network is back. */
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
if (document.querySelector('[data-live="stats"]')) {
  document.addEventListener('submit', (e) => {
    const form = e.target;
    if (!(form instanceof HTMLFormElement)) return;
    const kind = form.classList.contains('replay-form')
      ? 'replay'
      : form.classList.contains('challenge-form')
        ? 'challenge'
        : null;
    if (kind === null) return;
    e.preventDefault();
    void shareFromHistory(form, kind);
  });
  try {
    new BroadcastChannel(WINS_CHANNEL).onmessage = () => void refreshStats();
  } catch {
    // no BroadcastChannel: coming back refreshes
  }
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void refreshStats();
  });
}
(globalThis as { __mahjong?: unknown }).__mahjong = { sending: () => sending };
