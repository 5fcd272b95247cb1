/** The offline page made into the deal of its link (docs/client.md, "Offline and installable"). */
import { MODES, SEED_PATTERN, type Deal, type Mode } from '../engine/index.ts';
import { dealApiUrl, dealUrl, DEALS_CACHE, newDealUrl } from '../shared/display.ts';
import { parsePrefs, readPrefsCookie } from '../shared/prefs.ts';
import type { DealData } from './state.ts';
import { t } from './i18n.ts';
import type { WorkerAnswer, WorkerRequest } from './worker.ts';

/**
 * Keeps a shown deal and its layout's name for offline visits. The service worker writes it (sw.ts, the last 60
 * kept), off this page's thread: the Cache API's first use and a body written on the page cost a phone's main
 * thread some 5–30 ms at load. On a first visit that is once the worker is active.
 */
export function keepDeal(deal: Deal, name: string): void {
  navigator.serviceWorker?.ready
    .then((registration) => registration.active?.postMessage({ kind: 'keep-deal', deal, name } satisfies KeepDeal))
    .catch(() => undefined);
}

/** The page's message to the service worker. */
export interface KeepDeal {
  readonly kind: 'keep-deal';
  readonly deal: Deal;
  readonly name: string;
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

/** The deal a play link names, or null. */
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

/** Deals in a worker of its own (a classic deal runs the solver). */
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

/** Writes the heading, title and links for `deal`, as views/play.eta would. */
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
  // The prefs cookie's switches, as views/play.eta renders them: the cached page has none.
  const prefs = parsePrefs(readPrefsCookie(doc.cookie), layout, seed, mode);
  if (prefs.highlight === 'off') doc.documentElement.dataset.highlight = 'off';
  const counters = doc.querySelector<HTMLElement>('.counters');
  if (counters) counters.dataset.timer = prefs.timer;
  doc.body.classList.remove('offline-page');
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

/** Makes the offline page the deal of its address: the deal data and message, or null (no built-in deal link). */
export async function openOffline(doc: Document, workerUrl: URL): Promise<{ data: DealData; message: string } | null> {
  const asked = parseDealPath(location.pathname, location.search);
  if (!asked) return null; // the page's own text stands: it needs the network
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
