/**
 * What the browser gives the sync (sync.ts's SyncEnv): fetch, localStorage, the clock, randomness for
 * jitter, whether the network is up and timers. Shared by the play page's script and the other pages'.
 */
import type { KeptStore, SyncEnv } from './sync.ts';

/** localStorage, or null where the browser forbids it (some private windows). */
function keptStore(): KeptStore | null {
  try {
    const store = globalThis.localStorage;
    return {
      keys: () => Array.from({ length: store.length }, (_, i) => store.key(i) ?? ''),
      get: (key) => store.getItem(key),
      set: (key, value) => store.setItem(key, value),
      remove: (key) => store.removeItem(key),
    };
  } catch {
    return null;
  }
}

/** A BroadcastChannel: a play page saw the server record a win; open stats pages refresh their counts (site.ts). */
export const WINS_CHANNEL = 'mahjong:wins';

export const ENV: SyncEnv = {
  fetch: (input, init) => fetch(input, init), // unbound `fetch` throws "Illegal invocation"
  store: keptStore(),
  now: () => Date.now(),
  random: () => Math.random(),
  online: () => navigator.onLine !== false,
  setTimer: (run, ms) => setTimeout(run, ms),
  clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

/**
 * Registers the service worker (sw.js, served at the root so it controls every page) once the page has
 * loaded. It keeps the pages' shell, styles, faces, script and engine for playing without a network.
 * Browsers without service workers, or pages not in a secure context (plain http on a LAN address),
 * simply play online.
 */
export function registerServiceWorker(): void {
  const register = (): void => {
    try {
      void navigator.serviceWorker?.register('/sw.js', { scope: '/' }).catch(() => {});
    } catch {
      // no service worker here: online play is unaffected
    }
  };
  // After the page has loaded: installing fetches the app's files, which must not compete with the first visit's own.
  if (document.readyState === 'complete') register();
  else addEventListener('load', register, { once: true });
}
