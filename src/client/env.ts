/** What the browser gives the sync (sync.ts's SyncEnv), for the play page and the other pages alike. */
import type { KeptStore, SyncEnv } from './sync.ts';

/** localStorage, or null where forbidden (some private windows). */
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

/** Tells open stats pages that a win was recorded (site.ts). */
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

/** Yields to the browser (input, a frame): the work after it runs in a task of its own. */
export const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** Registers the service worker once the page has loaded. */
export function registerServiceWorker(): void {
  const register = (): void => {
    try {
      void navigator.serviceWorker?.register('/sw.js', { scope: '/' }).catch(() => {});
    } catch {
      // online play is unaffected
    }
  };
  // not competing with the first visit
  if (document.readyState === 'complete') register();
  else addEventListener('load', register, { once: true });
}
