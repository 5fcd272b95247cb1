/**
 * The move log between board and server: kept in localStorage until the server has it, sent in idempotent
 * batches; never drops a move. docs/client.md, "Server sync"; docs/contract-board.md, "Client ⇄ API".
 */
import { applyMoves, isBoardMove, isSameMove, newGame, type Deal, type Move, type Status } from '../engine/index.ts';
import { MAX_PLAY_MS, type DealKey, type MovesAnswer } from '../shared/api.ts';

export type { DealKey, MovesAnswer };

/** What the save indicator says. */
export type SyncStatus =
  | 'idle' // nothing played yet
  | 'saved' // the server has every move
  | 'saving'
  | 'offline' // no answer
  | 'busy' // 429 or 5xx
  | 'refused'; // a bug of ours: kept, retried later

/** The save indicator's catalog keys (docs/i18n.md); idle says nothing. */
export const STATUS_KEYS: Record<SyncStatus, string | null> = {
  idle: null,
  saved: 'client.sync.saved',
  saving: 'client.sync.saving',
  offline: 'client.sync.offline',
  busy: 'client.sync.busy',
  refused: 'client.sync.refused',
};

export interface SyncHooks {
  created(id: string): void;
  status(status: SyncStatus): void;
  saved(answer: MovesAnswer, complete: boolean): void; // complete: the server has the whole log
  conflict(log: readonly Move[], message: string): void;
}

/** Strings kept across page loads (localStorage); failures are quiet. */
export interface KeptStore {
  keys(): string[];
  get(key: string): string | null;
  set(key: string, value: string): void;
  remove(key: string): void;
}

/** What the module needs from the browser; tests pass their own. */
export interface SyncEnv {
  readonly fetch: typeof fetch;
  readonly store: KeptStore | null;
  readonly now: () => number; // ms epoch
  readonly random: () => number; // [0, 1), for jitter
  readonly online: () => boolean;
  readonly setTimer: (run: () => void, ms: number) => unknown;
  readonly clearTimer: (timer: unknown) => void;
}

/** A game's log as kept in storage. */
interface Kept {
  readonly v: 1;
  readonly gameId: string | null; // null until the server made the game
  readonly log: readonly Move[];
  readonly acked: number;
  readonly savedAt: number; // ms epoch
  readonly status?: Status; // absent in older logs
  readonly playMs?: number; // absent in older logs
}

export interface Sync {
  readonly deal: DealKey;
  readonly key: string;
  readonly batchMs: number;
  readonly challenge: string | null;
  gameId: string | null;
  log: readonly Move[];
  acked: number;
  position: Status; // after `log`
  playMs: number | null; // the player's clock after `log`
  status: SyncStatus;
  won: boolean;
  inFlight: boolean;
  again: boolean; // send again when the request in flight returns
  failures: number; // in a row
  restarts: number; // games made again after a 404/403, against loops
  timer: unknown;
  flight: Promise<void> | null;
  dueAt: number | null; // ms epoch
  readonly hooks: SyncHooks;
  readonly env: SyncEnv;
}

export const BATCH_MS = 8000;
export const MAX_WAITING = 40; // send at once when this many moves wait
export const MAX_BATCH = 200; // keepalive bodies must stay under 64 KB
const BACKOFF_MS = 1000; // doubles up to MAX_BACKOFF_MS
const MAX_BACKOFF_MS = 60_000;
const KEEP_DAYS = 30;

const KEY_PREFIX = 'mahjong:moves:';

export const storageKey = (deal: DealKey): string => `${KEY_PREFIX}${deal.layout}/${deal.seed}/${deal.mode}`;

/** The deal of a storage key, or null for a key that is not ours. */
function dealOfKey(key: string): DealKey | null {
  if (!key.startsWith(KEY_PREFIX)) return null;
  const [layout, seed, mode, ...rest] = key.slice(KEY_PREFIX.length).split('/');
  if (!layout || !seed || (mode !== 'relaxed' && mode !== 'classic') || rest.length > 0) return null;
  return { layout, seed, mode };
}

/** True when `long` starts with the moves of `short`. Hints are compared by count: the server lists them last. */
function extendsLog(short: readonly Move[], long: readonly Move[]): boolean {
  if (short.length > long.length) return false;
  const a = short.filter(isBoardMove);
  const b = long.slice(0, short.length).filter(isBoardMove);
  return a.length === b.length && a.every((m, i) => isSameMove(m, b[i]!));
}

/** True when `log` replays on the deal (a stored log from another version may not). */
function replays(deal: Deal, log: readonly Move[]): boolean {
  const start = newGame(deal);
  return start.ok && applyMoves(start.value, log).ok;
}

function readKept(env: SyncEnv, key: string): Kept | null {
  try {
    const raw = env.store?.get(key);
    if (!raw) return null;
    const kept = JSON.parse(raw) as Kept;
    if (kept?.v !== 1 || !Array.isArray(kept.log) || !Number.isInteger(kept.acked)) return null;
    if (env.now() - kept.savedAt > KEEP_DAYS * 86_400_000) return null;
    return kept;
  } catch {
    return null;
  }
}

/** Stores the log while the server lacks some of it; removes it once the server has it all. */
function keep(sync: Sync): void {
  const store = sync.env.store;
  if (!store) return;
  try {
    if (sync.acked >= sync.log.length) store.remove(sync.key);
    else {
      const kept: Kept = {
        v: 1,
        gameId: sync.gameId,
        log: sync.log,
        acked: sync.acked,
        savedAt: sync.env.now(),
        status: sync.position,
        ...(sync.playMs === null ? {} : { playMs: sync.playMs }),
      };
      store.set(sync.key, JSON.stringify(kept));
    }
  } catch {
    // storage full or forbidden: the moves still go to the server
  }
}

/** A sync of a game whose server has `acked` moves of `log`. */
function makeSync(
  deal: DealKey,
  game: {
    readonly id: string | null;
    readonly log: readonly Move[];
    readonly acked: number;
    readonly position?: Status | undefined;
    readonly playMs?: number | undefined;
  },
  hooks: SyncHooks,
  env: SyncEnv,
  options: SyncOptions = {},
): Sync {
  const { layout, seed, mode } = deal;
  return {
    deal: { layout, seed, mode },
    key: options.key ?? storageKey(deal),
    batchMs: options.batchMs ?? BATCH_MS,
    challenge: options.challenge ?? null,
    gameId: game.id,
    log: game.log,
    acked: Math.min(game.acked, game.log.length),
    position: game.position ?? 'playing',
    playMs: game.playMs ?? null,
    status: game.log.length === 0 ? 'idle' : game.acked < game.log.length ? 'saving' : 'saved',
    won: false,
    inFlight: false,
    again: false,
    failures: 0,
    restarts: 0,
    timer: null,
    flight: null,
    dueAt: null,
    hooks,
    env,
  };
}

/** A race's or a challenge's game: its own stored log, and for a challenge the id it answers. */
export interface SyncOptions {
  readonly key?: string;
  readonly batchMs?: number;
  readonly challenge?: string; // the challenge it answers
}

/** The sync of a deal's game: the server's unfinished game or a longer stored log (sent at once). */
export function openSync(
  deal: Deal,
  server: { readonly id: string; readonly log: readonly Move[] } | null,
  hooks: SyncHooks,
  env: SyncEnv,
  options: SyncOptions = {},
): Sync {
  const serverLog = server?.log ?? [];
  let game: Parameters<typeof makeSync>[1] = { id: server?.id ?? null, log: serverLog, acked: serverLog.length };
  const kept = readKept(env, options.key ?? storageKey(deal));
  if (kept && replays(deal, kept.log)) {
    if (kept.gameId !== null && kept.gameId !== server?.id) {
      // A game the page does not show: its server copy decides.
      game = { id: kept.gameId, log: kept.log, acked: kept.acked, position: kept.status, playMs: kept.playMs };
    } else if (kept.log.length > serverLog.length && extendsLog(serverLog, kept.log)) {
      game = {
        id: server?.id ?? null,
        log: kept.log,
        acked: serverLog.length,
        position: kept.status,
        playMs: kept.playMs,
      };
    }
  }
  const sync = makeSync(deal, game, hooks, env, options);
  keep(sync);
  if (sync.acked < sync.log.length) send(sync);
  return sync;
}

const QUIET: SyncHooks = { created() {}, status() {}, saved() {}, conflict() {} };

/** A game stored in this browser that the server does not have whole yet. */
export interface WaitingGame {
  readonly key: string;
  readonly deal: DealKey;
  readonly gameId: string | null; // null: played offline from the start
  readonly moves: number;
  readonly waiting: number; // not acknowledged
  readonly status: Status;
  readonly savedAt: number;
}

/** The games waiting in storage, newest first, leaving out the storage key `except`. */
export function waitingGames(env: SyncEnv, except = ''): WaitingGame[] {
  let keys: string[];
  try {
    keys = env.store?.keys() ?? [];
  } catch {
    return [];
  }
  const games: WaitingGame[] = [];
  for (const key of keys) {
    const deal = key === except ? null : dealOfKey(key);
    const kept = deal && readKept(env, key);
    if (!deal || !kept || kept.acked >= kept.log.length) continue;
    const { gameId, log, acked, savedAt } = kept;
    games.push({
      key,
      deal,
      gameId,
      moves: log.length,
      waiting: log.length - acked,
      status: kept.status ?? 'playing',
      savedAt,
    });
  }
  return games.sort((a, b) => b.savedAt - a.savedAt);
}

/**
 * Sends the logs other pages left in storage (games finished offline, tabs closed before their batch), except
 * the open page's key `except`. Returns their syncs (tests await them).
 */
export function sendKept(except: string, env: SyncEnv, hooks: SyncHooks = QUIET): Sync[] {
  const syncs: Sync[] = [];
  for (const game of waitingGames(env, except)) {
    const kept = readKept(env, game.key)!;
    const sync = makeSync(
      game.deal,
      { id: kept.gameId, log: kept.log, acked: kept.acked, position: kept.status, playMs: kept.playMs },
      hooks,
      env,
    );
    send(sync);
    syncs.push(sync);
  }
  return syncs;
}

function setStatus(sync: Sync, status: SyncStatus): void {
  if (sync.status === status) return;
  sync.status = status;
  sync.hooks.status(status);
}

function clearTimer(sync: Sync): void {
  if (sync.timer !== null) sync.env.clearTimer(sync.timer);
  sync.timer = null;
  sync.dueAt = null;
}

/** Sends in `ms` unless a send is due sooner. */
function sendIn(sync: Sync, ms: number): void {
  const due = sync.env.now() + ms;
  if (sync.dueAt !== null && sync.dueAt <= due) return;
  clearTimer(sync);
  sync.dueAt = due;
  sync.timer = sync.env.setTimer(() => {
    sync.timer = null;
    sync.dueAt = null;
    send(sync);
  }, ms);
}

/** The page played a move (`log` is the whole log): stores it, sends it now or within BATCH_MS. Mutates. */
export function record(sync: Sync, log: readonly Move[], status: Status, playMs: number): void {
  sync.log = log;
  sync.position = status;
  sync.playMs = Math.max(0, Math.round(playMs));
  keep(sync);
  if (sync.status === 'idle' || sync.status === 'saved') setStatus(sync, 'saving');
  if (sync.gameId === null || status === 'won' || log.length - sync.acked >= MAX_WAITING) send(sync);
  else if (sync.failures === 0) sendIn(sync, sync.batchMs);
}

/** Sends what is waiting now (a win, the page hidden, the network back). */
export function sendNow(sync: Sync): void {
  if (sync.acked < sync.log.length) send(sync);
}

/** The page is going away: sends what waits with `keepalive`. */
export function leave(sync: Sync): void {
  if (sync.gameId === null || sync.acked >= sync.log.length) return;
  const at = sync.acked;
  void sync.env
    .fetch(`/api/games/${encodeURIComponent(sync.gameId)}/moves`, request(batchBody(sync, at)))
    .catch(() => {});
}

/** A batch of the log from `at`, with the player's own clock. */
const batchBody = (sync: Sync, at: number) => ({
  at,
  moves: sync.log.slice(at, at + MAX_BATCH),
  ...(sync.playMs === null ? {} : { playMs: Math.min(sync.playMs, MAX_PLAY_MS) }),
});

const request = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json' },
  body: JSON.stringify(body),
  credentials: 'same-origin',
  keepalive: true, // outlives the page
});

interface Refusal {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly body: Record<string, unknown>;
  readonly retryAfterMs: number | null;
}

type Reply = { readonly ok: true; readonly body: unknown } | { readonly ok: false; readonly refusal: Refusal | null }; // null: no answer

async function post(sync: Sync, url: string, body: unknown): Promise<Reply> {
  let res: Response;
  try {
    res = await sync.env.fetch(url, request(body));
  } catch {
    return { ok: false, refusal: null }; // no answer, or cut off mid-answer
  }
  const data = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (res.ok && data) return { ok: true, body: data };
  const retryAfter = Number(res.headers.get('retry-after'));
  return {
    ok: false,
    refusal: {
      status: res.status,
      code: typeof data?.code === 'string' ? data.code : '',
      message: typeof data?.error === 'string' ? data.error : `HTTP ${res.status}`,
      body: data ?? {},
      retryAfterMs: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : null,
    },
  };
}

/** Tries again later: after Retry-After, else after a growing delay with jitter. */
function retry(sync: Sync, status: SyncStatus, retryAfterMs: number | null): void {
  sync.failures++;
  const backoff = Math.min(MAX_BACKOFF_MS, BACKOFF_MS * 2 ** Math.min(sync.failures - 1, 10));
  const jitter = 0.5 + sync.env.random();
  setStatus(sync, status);
  clearTimer(sync);
  sendIn(sync, Math.round((retryAfterMs ?? backoff) * (retryAfterMs === null ? jitter : 1) + sync.env.random() * 250));
}

/** Sends the waiting moves batch after batch, until the server has them all or a request fails. */
function send(sync: Sync): void {
  if (sync.inFlight) {
    sync.again = true;
    return;
  }
  clearTimer(sync);
  sync.inFlight = true;
  sync.flight = run(sync).finally(() => {
    sync.inFlight = false;
    sync.flight = null;
    if (sync.again) {
      sync.again = false;
      if (sync.acked < sync.log.length) send(sync); // asked for while a request was on the way
    }
  });
}

async function run(sync: Sync): Promise<void> {
  while (sync.acked < sync.log.length) {
    if (!sync.env.online()) return retry(sync, 'offline', null);
    setStatus(sync, 'saving');
    if (sync.gameId === null) {
      const { layout, seed, mode } = sync.deal;
      const made = await post(sync, '/api/games', {
        layout,
        seed,
        mode,
        ...(sync.challenge === null ? {} : { challenge: sync.challenge }),
      });
      if (!made.ok) return failed(sync, made.refusal);
      const id = (made.body as { id?: unknown }).id;
      if (typeof id !== 'string') return retry(sync, 'refused', null);
      sync.gameId = id;
      sync.acked = 0;
      keep(sync);
      sync.hooks.created(id);
      continue;
    }
    const at = sync.acked;
    const body = batchBody(sync, at);
    const batch = body.moves;
    const sent = await post(sync, `/api/games/${encodeURIComponent(sync.gameId)}/moves`, body);
    if (!sent.ok) {
      const refusal = sent.refusal;
      if (refusal?.status === 409 && refusal.code === 'ERR_MOVE_GAP' && Number(refusal.body.moves) < at) {
        sync.acked = Number(refusal.body.moves); // the server lost moves: resend
        continue;
      }
      return failed(sync, refusal);
    }
    const answer = sent.body as MovesAnswer;
    if (answer.moves > at + batch.length && answer.moves > sync.acked && Array.isArray(answer.log)) {
      // Another tab played on.
      return adoptServerLog(sync, answer.log, 'this game was played on in another tab or window', false);
    }
    sync.acked = Math.max(sync.acked, at + batch.length);
    sync.failures = 0;
    sync.restarts = 0;
    if (answer.status === 'won') sync.won = true;
    keep(sync);
    sync.hooks.saved(answer, sync.acked >= sync.log.length);
  }
  sync.failures = 0;
  setStatus(sync, 'saved');
}

/** Takes the server's log as the game's (a conflict): nothing is left to send. */
function adoptServerLog(sync: Sync, log: readonly Move[], message: string, won: boolean): void {
  sync.log = log;
  sync.acked = log.length;
  sync.failures = 0;
  sync.won = won;
  keep(sync);
  setStatus(sync, 'saved');
  sync.hooks.conflict(log, message);
}

/** A failed request: retry, start the game again, or take the server's log. */
function failed(sync: Sync, refusal: Refusal | null): void {
  // No answer is offline, whatever navigator.onLine says.
  if (refusal === null) return retry(sync, 'offline', null);
  const { status } = refusal;
  if (status === 429 || status >= 500) return retry(sync, 'busy', refusal.retryAfterMs);
  if ((status === 404 || status === 403) && sync.gameId !== null && sync.restarts < 2) {
    // Game gone or not this player's: the log becomes a new game.
    sync.restarts++;
    sync.gameId = null;
    sync.acked = 0;
    keep(sync);
    sync.again = true;
    return;
  }
  if (status === 409 && Array.isArray(refusal.body.log))
    return adoptServerLog(sync, refusal.body.log as Move[], refusal.message, refusal.code === 'ERR_GAME_FINISHED');
  retry(sync, 'refused', null);
}
