/** The service worker (/sw.js): the game without a network (docs/client.md, "Offline and installable"). */
import { dealApiUrl, DEALS_CACHE } from '../shared/display.ts';
import type { KeepDeal } from './shell.ts';

interface Build {
  readonly version: string; // the build's hash
  readonly precache: readonly string[];
}
declare const BUILD: Build; // prepended by routes/offline.ts

// The worker scope as used here (the DOM lib has no worker types).
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface ExtendableMessageEvent extends ExtendableEvent {
  readonly data: unknown;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Response | Promise<Response>): void;
}
interface Scope {
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: ExtendableMessageEvent) => void): void;
  skipWaiting(): Promise<void>;
  readonly clients: { claim(): Promise<void> };
  readonly location: Location;
}
const sw = globalThis as unknown as Scope;

const PREFIX = 'mahjong-';
const CACHE = `${PREFIX}${BUILD.version}`;
const DEALS_KEPT = 60;
const OFFLINE_PAGE = '/offline';
const KEPT_PAGES = new Set(['/', '/stats', '/daily', '/layouts/editor']); // as last seen
const PRECACHE = new Set(BUILD.precache);
const LANG_NOTE = '/__kept-language'; // body: the kept pages' language
const LANGUAGE_PAGES = ['/', OFFLINE_PAGE, '/manifest.webmanifest'];
const SEED_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'; // services/seeds.ts

sw.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(BUILD.precache.map((path) => new Request(path, { cache: 'reload' }))))
      .then(() => sw.skipWaiting()),
  );
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names.filter((n) => n.startsWith(PREFIX) && n !== CACHE && n !== DEALS_CACHE).map((n) => caches.delete(n)),
        ),
      )
      .then(() => sw.clients.claim()),
  );
});

sw.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== sw.location.origin || url.pathname === '/sw.js' || url.pathname.startsWith('/api/')) return;
  if (request.mode === 'navigate') event.respondWith(page(request, url, event));
  else if (url.pathname.startsWith('/static/build/') || PRECACHE.has(url.pathname))
    event.respondWith(cacheFirst(request));
});

// A play page's deal, kept for its link offline (shell.ts keepDeal posts it; shell.ts keptDeal reads it there).
sw.addEventListener('message', (event) => {
  const message = event.data as Partial<KeepDeal> | null;
  const deal = message?.deal;
  if (message?.kind !== 'keep-deal' || typeof message.name !== 'string' || !deal) return;
  if (typeof deal.layout !== 'string' || typeof deal.seed !== 'string' || typeof deal.mode !== 'string') return;
  event.waitUntil(keepDeal(message as KeepDeal));
});

async function keepDeal({ deal, name }: KeepDeal): Promise<void> {
  try {
    const cache = await caches.open(DEALS_CACHE);
    const key = dealApiUrl(deal.layout, deal.seed, deal.mode);
    if (await cache.match(key)) return;
    const body = JSON.stringify({ deal, name });
    await cache.put(key, new Response(body, { headers: { 'content-type': 'application/json' } }));
    const keys = await cache.keys(); // in insertion order
    for (const old of keys.slice(0, Math.max(0, keys.length - DEALS_KEPT))) await cache.delete(old);
  } catch {
    // storage refused
  }
}

async function cacheFirst(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  return (await cache.match(request, { ignoreSearch: true })) ?? fetch(request);
}

/** A random seed as the server's "New game" makes (8 letters and digits). */
function randomSeed(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let seed = '';
  for (const byte of bytes) if (byte < 248 && seed.length < 8) seed += SEED_ALPHABET[byte % 62]; // 248 = 4 × 62: unbiased
  return seed.length === 8 ? seed : randomSeed();
}

/** Notes the language pages come in; on a change, keeps the language pages anew in it. */
async function keepLanguage(cache: Cache, lang: string): Promise<void> {
  const noted = await cache.match(LANG_NOTE);
  const was = noted ? await noted.text() : null;
  if (was === lang) return;
  await cache.put(LANG_NOTE, new Response(lang));
  if (was === null) return;
  await Promise.all([...KEPT_PAGES].map((path) => cache.delete(path)));
  await Promise.all(
    LANGUAGE_PAGES.map((path) =>
      fetch(new Request(path, { cache: 'reload' }))
        .then((r) => (r.ok ? cache.put(path, r) : undefined))
        .catch(() => undefined),
    ),
  );
}

async function page(request: Request, url: URL, event: ExtendableEvent): Promise<Response> {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    const lang = response.headers.get('content-language');
    if (response.ok && lang) event.waitUntil(keepLanguage(cache, lang));
    if (response.ok && KEPT_PAGES.has(url.pathname) && url.search === '')
      await cache.put(url.pathname, response.clone());
    return response;
  } catch {
    // offline
  }
  const path = url.pathname;
  if (/^\/play\/[^/]+$/.test(path)) return Response.redirect(`${url.origin}${path}/${randomSeed()}${url.search}`, 302);
  const kept = /^\/play\//.test(path) ? undefined : await cache.match(path);
  return (
    kept ??
    (await cache.match(OFFLINE_PAGE)) ??
    new Response('You are offline.', { status: 503, headers: { 'content-type': 'text/plain; charset=utf-8' } })
  );
}
