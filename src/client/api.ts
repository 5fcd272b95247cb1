/**
 * Talking to the server (docs/contract-board.md, "Client ⇄ API"): every move is played locally at once
 * and queued here; the queue is sent in batches to `POST /api/games/:id/moves`, after
 * `POST /api/games` has made the game on the first action. The server replays each move and answers
 * with its faces, which must equal the local faces after the batch's last move.
 *
 * Implementation notes: one request is in flight at a time; moves pushed meanwhile wait and go as the
 * next batch. Network failures and 5xx answers keep the queue and retry with a growing delay. A
 * disagreement (409, another 4xx, or different faces) empties the queue and asks the page to resync.
 * Requests use `keepalive` so a batch still arrives when the player leaves for a new game.
 */
import type { Deal, Face, Move, Status } from '../engine/index.ts';

export interface MovesAnswer {
  readonly status: Status;
  readonly faces: readonly (Face | null)[];
  readonly log?: readonly Move[]; // sent by servers that include it; lets the page resync without a reload
}

export interface SyncHooks {
  created(id: string): void; // the server made the game
  resync(answer: MovesAnswer | null, why: string): void; // the server disagrees; answer null when it said no
  offline(retryMs: number): void; // a request failed; trying again in retryMs
  online(): void; // the queue went through after a failure
}

export interface Sync {
  readonly deal: Deal;
  gameId: string | null;
  queue: { readonly move: Move; readonly faces: readonly (Face | null)[] }[]; // faces: local, after the move
  busy: boolean; // a request is in flight
  failures: number; // consecutive failed attempts
  timer: ReturnType<typeof setTimeout> | null; // pending retry
  readonly hooks: SyncHooks;
  readonly fetch: typeof fetch;
}

const MAX_BATCH = 200; // moves per request
const RETRY_MS = [1000, 2000, 5000, 10_000, 30_000]; // delay after the 1st, 2nd, … failure

export const makeSync = (
  deal: Deal,
  gameId: string | null,
  hooks: SyncHooks,
  fetchFn: typeof fetch = (input, init) => fetch(input, init), // unbound `fetch` throws "Illegal invocation"
): Sync => ({
  deal,
  gameId,
  queue: [],
  busy: false,
  failures: 0,
  timer: null,
  hooks,
  fetch: fetchFn,
});

/** Queues a move played locally, with the local faces after it, and starts sending. Mutates. */
export function pushMove(sync: Sync, move: Move, faces: readonly (Face | null)[]): Promise<void> {
  sync.queue.push({ move, faces });
  return flush(sync);
}

class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

async function post(sync: Sync, url: string, body: unknown): Promise<unknown> {
  const res = await sync.fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    credentials: 'same-origin',
    keepalive: true,
  });
  const data: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const error = (data as { error?: unknown } | null)?.error;
    throw new HttpError(res.status, typeof error === 'string' ? error : `HTTP ${res.status}`);
  }
  return data;
}

const sameFaces = (a: readonly (Face | null)[] | undefined, b: readonly (Face | null)[]): boolean =>
  Array.isArray(a) && a.length === b.length && a.every((f, i) => (f ?? null) === b[i]);

/** Sends what is queued, batch after batch, until the queue is empty or a request fails. */
export async function flush(sync: Sync): Promise<void> {
  if (sync.busy || sync.queue.length === 0) return;
  if (sync.timer !== null) {
    clearTimeout(sync.timer);
    sync.timer = null;
  }
  sync.busy = true;
  try {
    while (sync.queue.length > 0) {
      if (sync.gameId === null) {
        const { layout, seed, mode } = sync.deal;
        const made = (await post(sync, '/api/games', { layout, seed, mode })) as { id?: unknown };
        if (typeof made?.id !== 'string') throw new HttpError(500, 'the server made no game id');
        sync.gameId = made.id;
        sync.hooks.created(made.id);
      }
      const batch = sync.queue.slice(0, MAX_BATCH);
      const answer = (await post(sync, `/api/games/${encodeURIComponent(sync.gameId)}/moves`, {
        moves: batch.map((p) => p.move),
      })) as MovesAnswer;
      sync.queue.splice(0, batch.length);
      if (!sameFaces(answer?.faces, batch[batch.length - 1]!.faces)) {
        sync.queue = [];
        sync.hooks.resync(answer, 'the server sees a different board');
        break;
      }
    }
    if (sync.failures > 0) sync.hooks.online();
    sync.failures = 0;
  } catch (e) {
    if (e instanceof HttpError && e.status >= 400 && e.status < 500) {
      sync.queue = []; // the server refused the moves and kept its own game: take that one
      sync.failures = 0;
      sync.hooks.resync(null, e.message);
    } else {
      const delay = RETRY_MS[Math.min(sync.failures, RETRY_MS.length - 1)]!;
      sync.failures++;
      sync.timer = setTimeout(() => void flush(sync), delay);
      sync.hooks.offline(delay);
    }
  } finally {
    sync.busy = false;
  }
}
