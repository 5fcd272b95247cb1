/**
 * The play page without a network. The service worker (sw.ts) answers a deal link it cannot fetch with
 * the offline page (`GET /offline`: the play page's markup with an empty board and no deal); this module
 * makes it the deal of the link the browser shows:
 *
 * 1. the deal this browser was given by the server for that link, if it opened it online before
 *    (`keepDeal` puts every deal a play page shows into the Cache API), so a link keeps its board even
 *    after the generator changes (docs/contracts.md, "Pages");
 * 2. else the deal made here, in the solver's worker, by the same engine and generator the server runs
 *    (src/engine/deal.ts): the same link gives the same board (test/client/offline-browser.test.ts
 *    compares them).
 *
 * It then writes the page's texts and links for that deal (what views/play.eta renders on the server),
 * and hands the deal to the play page's script as if the server had sent it. Moves go to the sync's
 * queue like any game's (kept in localStorage, sent when the network is back). Touches the DOM of the
 * page's heading, links and message only; the board itself is render.ts's.
 */
import { MODES, SEED_PATTERN, type Deal, type Mode } from '../engine/index.ts';
import { dealApiUrl, dealUrl, newDealUrl } from '../shared/display.ts';
import { parsePrefs, readPrefsCookie } from '../shared/prefs.ts';
import type { DealData } from './state.ts';
import { t } from './i18n.ts';
import type { WorkerAnswer, WorkerRequest } from './worker.ts';

const DEALS_CACHE = 'mahjong-deals'; // Cache API store of deals shown online; kept across deployments (deals never change)
const DEALS_KEPT = 60; // the most recent deals kept (keyed by their deal API URL); older ones are dropped

/** Keeps the deal a play page shows, and its layout's name, for offline visits of its link (no Cache API, or full: nothing kept). */
export async function keepDeal(deal: Deal, name: string): Promise<void> {
  try {
    const cache = await globalThis.caches?.open(DEALS_CACHE);
    if (!cache) return;
    const key = dealApiUrl(deal.layout, deal.seed, deal.mode);
    if (await cache.match(key)) return;
    await cache.put(
      key,
      new Response(JSON.stringify({ deal, name }), { headers: { 'content-type': 'application/json' } }),
    );
    const keys = await cache.keys(); // in insertion order
    for (const old of keys.slice(0, Math.max(0, keys.length - DEALS_KEPT))) await cache.delete(old);
  } catch {
    // storage refused (private windows, quota): offline visits deal the link here instead
  }
}

async function keptDeal(layout: string, seed: string, mode: Mode): Promise<{ deal: Deal; name: string } | null> {
  try {
    const found = await (await globalThis.caches?.open(DEALS_CACHE))?.match(dealApiUrl(layout, seed, mode));
    const kept = found ? ((await found.json()) as { deal?: Deal; name?: string }) : null;
    return kept?.deal && typeof kept.name === 'string' ? { deal: kept.deal, name: kept.name } : null;
  } catch {
    return null;
  }
}

/** The deal a play link names, or null when the path is no deal link. */
export function parseDealPath(path: string, search: string): { layout: string; seed: string; mode: Mode } | null {
  const m = /^\/play\/([^/]+)\/([^/]+)$/.exec(path);
  if (!m) return null;
  let layout: string;
  let seed: string;
  try {
    layout = decodeURIComponent(m[1]!);
    seed = decodeURIComponent(m[2]!);
  } catch {
    return null;
  }
  const asked = new URLSearchParams(search).get('mode');
  const mode: Mode = (MODES as readonly string[]).includes(asked ?? '') ? (asked as Mode) : 'relaxed';
  return SEED_PATTERN.test(seed) ? { layout, seed, mode } : null;
}

/** Deals in a worker of its own (a classic deal runs the solver: up to tens of ms, more on big layouts). */
function dealInWorker(workerUrl: URL, layout: string, seed: string, mode: Mode): Promise<WorkerAnswer> {
  return new Promise((resolve) => {
    const worker = new Worker(workerUrl, { type: 'module' });
    worker.onmessage = (e: MessageEvent<WorkerAnswer>) => {
      worker.terminate();
      resolve(e.data);
    };
    worker.onerror = () => {
      worker.terminate();
      resolve({ id: 1, kind: 'error', message: 'the dealer could not start' });
    };
    worker.postMessage({ id: 1, kind: 'deal', layout, seed, mode } satisfies WorkerRequest);
  });
}

function link(doc: Document, href: string, text: string): HTMLAnchorElement {
  const a = doc.createElement('a');
  a.href = href;
  a.textContent = text;
  return a;
}

/** Writes the page's heading, title and links for `deal` (views/play.eta's, for a page the server did not render). */
function fillPage(doc: Document, deal: Deal, name: string): void {
  const { layout, seed, mode } = deal;
  const path = dealUrl(layout, seed, mode);
  const other: Mode = mode === 'classic' ? 'relaxed' : 'classic';
  const newUrl = newDealUrl(layout, mode);
  doc.title = `${name} ${seed} · ${doc.title.split(' · ').pop() ?? ''}`; // the site's name as the page has it

  const h1 = doc.querySelector('h1.play-title');
  if (h1) {
    const nameSpan = doc.createElement('span');
    nameSpan.className = 'play-name';
    nameSpan.textContent = name;
    const seedSpan = doc.createElement('span');
    seedSpan.className = 'deal-seed';
    seedSpan.textContent = t('client.dealSeed', { seed });
    h1.replaceChildren(nameSpan, ' ', seedSpan);
    if (mode === 'classic') {
      const badge = doc.createElement('span');
      badge.className = 'badge';
      badge.textContent = t('client.classicBadge');
      h1.append(' ', badge);
    }
  }
  const share = doc.querySelector<HTMLAnchorElement>('.share-link');
  if (share) {
    share.href = path;
    share.textContent = `${location.origin}${path}`;
    share.closest<HTMLElement>('.share-line')?.removeAttribute('hidden');
  }
  const otherLink = doc.querySelector<HTMLAnchorElement>('[data-link="other-mode"]');
  if (otherLink) {
    otherLink.href = dealUrl(layout, seed, other);
    otherLink.textContent = t('client.seedAsMode', { mode: other });
  }
  const foot = doc.querySelector('.play-foot');
  foot?.replaceChildren(
    link(doc, dealUrl(layout, seed, other), t('client.seedAs', { seed, mode: other })),
    ' · ',
    link(doc, newUrl, t('client.newDeal', { mode, name })),
    ' · ',
    link(doc, '/', t('client.allLayouts')),
  );
  const again = doc.querySelector<HTMLAnchorElement>('#win-panel [data-win="new"]');
  if (again) {
    again.href = newUrl;
    again.textContent = t('client.nextGame', { name });
  }
  // The switches the server renders from the prefs cookie (views/layout.eta, play.eta): the cached page has none.
  const prefs = parsePrefs(readPrefsCookie(doc.cookie), layout, seed, mode);
  if (prefs.highlight === 'off') doc.documentElement.dataset.highlight = 'off';
  const counters = doc.querySelector<HTMLElement>('.counters');
  if (counters) counters.dataset.timer = prefs.timer;
  doc.body.classList.remove('offline-page'); // the board, counters and controls show (board.css)
  doc.querySelector('.offline-links')?.remove();
  const board = doc.getElementById('board');
  if (board) {
    board.removeAttribute('style'); // makeDom sets the layout's extent
    Object.assign(board.dataset, { layout, seed, mode, status: 'playing' });
  }
}

function say(doc: Document, text: string): void {
  const message = doc.getElementById('message');
  if (message) message.textContent = text;
}

/**
 * Makes the offline page the deal of the address it is shown at: the deal data for the play page's
 * script and the message to show, or null (not a deal link, or not a built-in layout: the page says so).
 */
export async function openOffline(doc: Document, workerUrl: URL): Promise<{ data: DealData; message: string } | null> {
  const asked = parseDealPath(location.pathname, location.search);
  if (!asked) return null; // the offline page's own text stands: this page needs the network
  const { layout, seed, mode } = asked;
  say(doc, t('client.offline.dealing'));
  let found = await keptDeal(layout, seed, mode);
  if (!found) {
    const made = await dealInWorker(workerUrl, layout, seed, mode);
    if (made.kind !== 'deal') {
      if (made.kind === 'error') console.warn(made.message);
      say(doc, t('client.offline.cannot'));
      return null;
    }
    found = { deal: made.deal, name: made.name };
  }
  const { deal, name } = found;
  fillPage(doc, deal, name);
  const message = t('client.offline.dealt');
  return { data: { deal, game: null }, message };
}
