/**
 * The service worker (served at /sw.js, scope /): the game without a network (docs/contracts.md, "Offline and
 * installable").
 *
 * - On install it keeps this build's app shell in a cache named after the build (`mahjong-<version>`):
 *   the home page, the offline play page (/offline), the web app manifest and icons, the styles, the face
 *   sheets of every tile set and theme (so a set can be switched offline), the page scripts and the worker
 *   (which holds the engine). The server writes `BUILD` (the version and that list, both from the build's
 *   manifest of hashed names) in front of this script, so a
 *   new deployment is a new /sw.js: it installs beside the old one, takes over at once and, on activate,
 *   deletes every older `mahjong-` cache. Deals kept by play pages (`mahjong-deals`, shell.ts) stay:
 *   a deal never changes.
 * - Pages are network first: online, every page comes from the server, so a page's script always
 *   matches the server it talks to (hashed asset names; a newer page simply asks for newer files). The
 *   home, stats and daily pages are kept as the server last sent them, and the layout editor (its script
 *   reads a draft from the address, and draws and checks it without the network). Without a network: a deal link
 *   gets the offline play page (the script deals it in the browser, shell.ts); `/play/<layout>` gets a
 *   new random seed, as the server would; a kept page is shown as kept; anything else gets the offline
 *   page, which says it needs the network.
 * - Pages come in the player's language (docs/i18n.md), which the server says in `Content-Language`. The
 *   language the kept pages are in is noted in the cache (LANG_NOTE); when a page arrives in another one
 *   (the player chose another language), the kept pages are dropped and the home page, the offline page
 *   and the manifest are fetched again, so offline play goes on in the language chosen.
 * - Hashed assets (/static/build/…) are cache first: their name changes with their bytes.
 * - The API is never cached: moves wait in the sync's own queue (sync.ts) and go when the network is back.
 */

interface Build {
  readonly version: string; // the build's hash
  readonly precache: readonly string[]; // paths kept at install
}
declare const BUILD: Build; // written before this script by the server (routes/offline.ts)

// The service worker's global scope, as far as this script uses it (the DOM lib has no worker types).
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Response | Promise<Response>): void;
}
interface Scope {
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  skipWaiting(): Promise<void>;
  readonly clients: { claim(): Promise<void> };
  readonly location: Location;
}
const sw = globalThis as unknown as Scope;

const PREFIX = 'mahjong-';
const CACHE = `${PREFIX}${BUILD.version}`;
const DEALS_CACHE = 'mahjong-deals'; // shell.ts: deals shown online, kept across builds
const OFFLINE_PAGE = '/offline';
const KEPT_PAGES = new Set(['/', '/stats', '/daily', '/layouts/editor']); // pages kept as last seen, for use offline
const PRECACHE = new Set(BUILD.precache);
const LANG_NOTE = '/__kept-language'; // a cache entry whose body is the language of the kept pages
const LANGUAGE_PAGES = ['/', OFFLINE_PAGE, '/manifest.webmanifest']; // kept at install, in the player's language
const SEED_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'; // as the server's (services/seeds.ts)

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

async function cacheFirst(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  return (await cache.match(request, { ignoreSearch: true })) ?? fetch(request);
}

/** A random seed like the server's "New game" redirect makes (8 letters and digits). */
function randomSeed(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let seed = '';
  for (const byte of bytes) if (byte < 248 && seed.length < 8) seed += SEED_ALPHABET[byte % 62]; // 248 = 4 × 62: unbiased
  return seed.length === 8 ? seed : randomSeed();
}

/**
 * Notes the language pages now come in; when it changed, drops the pages kept in the old one and keeps the
 * home and offline pages and the manifest anew (failures leave them out: the next visit keeps them).
 */
async function keepLanguage(cache: Cache, lang: string): Promise<void> {
  const noted = await cache.match(LANG_NOTE);
  const was = noted ? await noted.text() : null;
  if (was === lang) return;
  await cache.put(LANG_NOTE, new Response(lang));
  if (was === null) return; // the pages kept at install came with this request's cookies: this language
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
    if (response.ok && lang) event.waitUntil(keepLanguage(cache, lang)); // not before the page: after it
    if (response.ok && KEPT_PAGES.has(url.pathname) && url.search === '')
      await cache.put(url.pathname, response.clone());
    return response;
  } catch {
    // no network (or the server is down): the pages this browser can show by itself
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
