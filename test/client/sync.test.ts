/**
 * The page's sync (src/client/sync.ts) against the real server (app.inject behind a fetch), with the
 * network, the clock and the storage in the test's hands: batches, the win at once, retries after 429,
 * 503 and dropped connections without a lost or doubled move, conflicts, a lost game, and the log kept
 * across a reload.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Move } from '../../src/engine/index.ts';
import {
  BATCH_MS,
  leave,
  openSync,
  record,
  sendKept,
  waitingGames,
  sendNow,
  storageKey,
  STATUS_KEYS,
  type KeptStore,
  type MovesAnswer,
  type Sync,
  type SyncEnv,
  type SyncStatus,
} from '../../src/client/sync.ts';
import { build, createGame, newPlayer, solutionMoves, type Created } from '../server/helper.ts';
import { t } from '../../src/client/i18n.ts';

/** Timers the test fires by hand, on a clock it moves. */
class Clock {
  now = 1_700_000_000_000;
  private timers = new Map<number, { at: number; run: () => void }>();
  private next = 1;
  set = (run: () => void, ms: number): number => {
    const id = this.next++;
    this.timers.set(id, { at: this.now + ms, run });
    return id;
  };
  clear = (id: unknown): void => void this.timers.delete(id as number);
  /** When the earliest timer is due, ms from now; null when none. */
  due(): number | null {
    const ats = [...this.timers.values()].map((t) => t.at);
    return ats.length ? Math.min(...ats) - this.now : null;
  }
  /** Moves the clock by `ms`, running the timers that fall due. */
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const [id, t] = [...this.timers.entries()].sort((a, b) => a[1].at - b[1].at)[0] ?? [];
      if (id === undefined || t!.at > end) break;
      this.timers.delete(id);
      this.now = t!.at;
      t!.run();
    }
    this.now = end;
  }
}

type Fault = 'drop' | 'drop-after' | 429 | 503 | null; // drop: no answer; drop-after: the server got it, the answer is lost

interface World {
  app: FastifyInstance;
  cookie: string;
  clock: Clock;
  kept: Map<string, string>;
  env: SyncEnv;
  sent: { url: string; body: { at?: number; moves?: Move[] }; keepalive: boolean }[];
  faults: Fault[]; // the next requests' fates, in order
  online: boolean;
  statuses: SyncStatus[];
  saved: MovesAnswer[];
  conflicts: { log: readonly Move[]; why: string }[];
}

let w: World;

beforeEach(async () => {
  const app = await build();
  const cookie = await newPlayer(app);
  const clock = new Clock();
  const kept = new Map<string, string>();
  const store: KeptStore = {
    keys: () => [...kept.keys()],
    get: (k) => kept.get(k) ?? null,
    set: (k, v) => void kept.set(k, v),
    remove: (k) => void kept.delete(k),
  };
  const world = {
    app,
    cookie,
    clock,
    kept,
    sent: [],
    faults: [],
    online: true,
    statuses: [],
    saved: [],
    conflicts: [],
  } as unknown as World;
  const fetchFn = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = String(input);
    const body = JSON.parse(String(init?.body ?? '{}'));
    world.sent.push({ url, body, keepalive: init?.keepalive === true });
    const fault = world.faults.shift() ?? null;
    if (fault === 'drop') throw new TypeError('Failed to fetch');
    if (fault === 429)
      return new Response(JSON.stringify({ error: 'too many requests', code: 'ERR_RATE_LIMITED' }), {
        status: 429,
        headers: { 'retry-after': '7' },
      });
    if (fault === 503) return new Response(JSON.stringify({ error: 'restarting' }), { status: 503 });
    const res = await app.inject({
      method: 'POST',
      url,
      headers: { cookie: world.cookie, 'content-type': 'application/json' },
      payload: init?.body as string,
    });
    if (fault === 'drop-after') throw new TypeError('Failed to fetch');
    return new Response(res.body, {
      status: res.statusCode,
      headers: {
        'content-type': 'application/json',
        ...(res.headers['retry-after'] ? { 'retry-after': String(res.headers['retry-after']) } : {}),
      },
    });
  };
  world.env = {
    fetch: fetchFn as typeof fetch,
    store,
    now: () => clock.now,
    random: () => 0.5,
    online: () => world.online,
    setTimer: clock.set,
    clearTimer: clock.clear,
  };
  w = world;
});

afterEach(() => {
  w = undefined as unknown as World;
});

const hooks = () => ({
  created: () => {},
  status: (s: SyncStatus) => void w.statuses.push(s),
  saved: (a: MovesAnswer) => void w.saved.push(a),
  conflict: (log: readonly Move[], why: string) => void w.conflicts.push({ log, why }),
});

/** Waits for the requests on the way. */
async function idle(sync: Sync): Promise<void> {
  while (sync.flight) await sync.flight;
}

/** Runs due timers and the requests they start until nothing is due within `ms`. */
async function pass(sync: Sync, ms: number): Promise<void> {
  const end = w.clock.now + ms;
  for (;;) {
    await idle(sync);
    const due = w.clock.due();
    if (due === null || w.clock.now + due > end) break;
    w.clock.advance(due);
  }
  w.clock.now = end;
  await idle(sync);
}

const row = (id: string) =>
  w.app.db!.prepare('SELECT move_count, moves_json, result, play_ms FROM games WHERE id = ?').get(id) as {
    move_count: number;
    moves_json: string;
    result: string | null;
    play_ms: number | null;
  };

async function started(): Promise<{ game: Created; moves: Move[] }> {
  const game = await createGame(w.app, w.cookie, { layout: 'garden', seed: 'sync' });
  return { game, moves: solutionMoves(game) };
}

describe('batches', () => {
  test('the first move makes the game at once; later moves wait up to BATCH_MS and go together', async () => {
    const { game: deal, moves } = await started();
    const sync = openSync(deal, null, hooks(), w.env);
    expect(sync.status).toBe('idle');
    record(sync, moves.slice(0, 1), 'playing', 0);
    await idle(sync);
    expect(w.sent.map((r) => r.url)).toEqual(['/api/games', `/api/games/${sync.gameId}/moves`]);
    expect(w.sent[1]!.body).toEqual({ at: 0, moves: moves.slice(0, 1), playMs: 0 });
    for (let i = 1; i < 4; i++) {
      record(sync, moves.slice(0, i + 1), 'playing', i * 2000.4); // your clock, sent whole
      w.clock.advance(2000);
      await idle(sync);
    }
    expect(w.sent).toHaveLength(2);
    expect(sync.status).toBe('saving');
    await pass(sync, BATCH_MS);
    expect(w.sent).toHaveLength(3);
    expect(w.sent[2]!.body).toEqual({ at: 1, moves: moves.slice(1, 4), playMs: 6001 }); // the clock at the last move
    expect(sync.status).toBe('saved');
    expect(row(sync.gameId!).move_count).toBe(4);
    expect(row(sync.gameId!).play_ms).toBe(6001); // the player's own time, kept for their stats
    expect(w.kept.size).toBe(0); // the server has it all: nothing left in storage
  });

  test('the winning move goes at once, and the answer says won', async () => {
    const { game: deal, moves } = await started();
    const sync = openSync(deal, null, hooks(), w.env);
    record(sync, moves.slice(0, -1), 'playing', 0);
    record(sync, moves, 'won', 0);
    await idle(sync);
    expect(sync.won).toBe(true);
    expect(w.saved.at(-1)).toMatchObject({ status: 'won' });
    expect(row(sync.gameId!).result).toBe('won');
  });

  test('leaving sends what waits with keepalive; the log stays stored until a later visit sees the server has it', async () => {
    const { game: deal, moves } = await started();
    const server = { id: (await createGame(w.app, w.cookie, { layout: 'garden', seed: 'sync' })).id, log: [] };
    const sync = openSync(deal, server, hooks(), w.env);
    record(sync, moves.slice(0, 2), 'playing', 9000);
    leave(sync);
    await new Promise((r) => setTimeout(r, 50));
    expect(w.sent).toEqual([
      {
        url: `/api/games/${server.id}/moves`,
        body: { at: 0, moves: moves.slice(0, 2), playMs: 9000 },
        keepalive: true,
      },
    ]);
    expect(row(server.id).move_count).toBe(2);
    expect(w.kept.has(storageKey(deal))).toBe(true);
    // The next visit: the server rendered the two moves; the stored copy is no longer needed.
    const next = openSync(deal, { id: server.id, log: moves.slice(0, 2) }, hooks(), w.env);
    expect(next.log).toEqual(moves.slice(0, 2));
    expect(w.kept.size).toBe(0);
  });
});

describe('failures never lose or double a move', () => {
  test('a connection that gets no answer says offline, not busy (the server may be down, the network up)', async () => {
    const { game: deal, moves } = await started();
    const sync = openSync(deal, null, hooks(), w.env);
    w.faults = [null, 'drop'];
    record(sync, moves.slice(0, 2), 'playing', 0);
    await idle(sync);
    expect(sync.status).toBe('offline');
    expect(t(STATUS_KEYS[sync.status]!)).toBe('Offline — will save');
    await pass(sync, 2000);
    expect(sync.status).toBe('saved');
  });

  test('429 waits its Retry-After, 503 and dropped connections back off; the win is recorded once with every move', async () => {
    const { game: deal, moves } = await started();
    const sync = openSync(deal, null, hooks(), w.env);
    // Create, then: 429, 503, 503, a connection dropped before the server, one dropped after it answered.
    w.faults = [null, 429, 503, 503, 'drop', 'drop-after'];
    record(sync, moves.slice(0, 4), 'playing', 0);
    await idle(sync);
    expect(sync.status).toBe('busy');
    expect(w.clock.due()).toBe(7000 + 125); // Retry-After 7 s, and a little jitter
    await pass(sync, 7200);
    expect(sync.status).toBe('busy'); // the 503
    await pass(sync, 2000 + 4000 + 8000 + 16_000 + 4 * 125); // backoff doubles: 2 s, 4 s, 8 s, 16 s
    expect(w.sent.filter((r) => r.url.endsWith('/moves'))).toHaveLength(6);
    expect(sync.status).toBe('saved');
    expect(row(sync.gameId!).move_count).toBe(4); // the batch the server took twice counted once
    record(sync, moves, 'won', 0);
    await idle(sync);
    const stored = row(sync.gameId!);
    expect(stored.result).toBe('won');
    expect(JSON.parse(stored.moves_json)).toEqual(moves);
    expect(sync.won).toBe(true);
  });

  test('offline: nothing is tried until the network is back, then everything goes', async () => {
    const { game: deal, moves } = await started();
    const sync = openSync(deal, null, hooks(), w.env);
    w.online = false;
    record(sync, moves.slice(0, 2), 'playing', 0);
    await pass(sync, BATCH_MS);
    expect(sync.status).toBe('offline');
    expect(w.sent).toHaveLength(0);
    record(sync, moves.slice(0, 5), 'playing', 0);
    w.online = true;
    sendNow(sync); // the page's 'online' event
    await idle(sync);
    expect(sync.status).toBe('saved');
    expect(row(sync.gameId!).move_count).toBe(5);
  });

  test('a game the server lost (404) becomes a new game with the whole log', async () => {
    const { game: deal, moves } = await started();
    const sync = openSync(deal, { id: 'AAAAAAAAAAAAAAAA', log: [] }, hooks(), w.env);
    record(sync, moves.slice(0, 3), 'playing', 0);
    await pass(sync, BATCH_MS);
    expect(sync.gameId).not.toBe('AAAAAAAAAAAAAAAA');
    expect(row(sync.gameId!).move_count).toBe(3);
    expect(sync.status).toBe('saved');
  });
});

describe('conflicts', () => {
  test('another tab played on: the server log is taken and said so; what it accepted stays', async () => {
    const { game: deal, moves } = await started();
    const server = { id: (await createGame(w.app, w.cookie, { layout: 'garden', seed: 'sync' })).id, log: [] };
    const tabOne = openSync(deal, server, hooks(), w.env);
    const tabTwo = openSync(deal, server, hooks(), w.env);
    record(tabOne, moves.slice(0, 2), 'playing', 0);
    sendNow(tabOne);
    await idle(tabOne);
    record(tabTwo, [{ type: 'hint' }], 'playing', 0);
    sendNow(tabTwo);
    await idle(tabTwo);
    expect(w.conflicts).toEqual([{ log: moves.slice(0, 2), why: expect.stringMatching(/another tab or window/) }]);
    expect(tabTwo.log).toEqual(moves.slice(0, 2));
    expect(tabTwo.status).toBe('saved');
    expect(JSON.parse(row(server.id).moves_json)).toEqual(moves.slice(0, 2));
  });
});

describe('kept across a reload', () => {
  test('moves the server never got are restored from storage and sent from where the server is', async () => {
    const { game: deal, moves } = await started();
    const first = openSync(deal, null, hooks(), w.env);
    record(first, moves.slice(0, 2), 'playing', 0);
    sendNow(first);
    await idle(first);
    w.online = false; // the next moves never leave the page before it closes
    record(first, moves.slice(0, 5), 'playing', 41_000);
    leave(first);
    w.online = true;

    const id = first.gameId!;
    const again = openSync(deal, { id, log: moves.slice(0, 2) }, hooks(), w.env); // what the server rendered
    expect(again.log).toEqual(moves.slice(0, 5));
    expect(again.acked).toBe(2);
    expect(again.playMs).toBe(41_000); // your time was kept with the moves
    await idle(again);
    expect(w.sent.at(-1)!.body).toEqual({ at: 2, moves: moves.slice(2, 5), playMs: 41_000 });
    expect(row(id).move_count).toBe(5);
    expect(w.kept.size).toBe(0);
  });

  test('hints: the server lists them last (counted, not logged), and a stored log with hints between moves still extends it', async () => {
    const { game: deal, moves } = await started();
    const first = openSync(deal, null, hooks(), w.env);
    const played: Move[] = [moves[0]!, { type: 'hint' }, moves[1]!];
    record(first, played, 'playing', 0);
    sendNow(first);
    await idle(first);
    w.online = false;
    const more: Move[] = [...played, { type: 'hint' }, moves[2]!];
    record(first, more, 'playing', 0);
    w.online = true;
    const id = first.gameId!;
    const rendered: Move[] = [moves[0]!, moves[1]!, { type: 'hint' }]; // what the page gets: hints last
    const again = openSync(deal, { id, log: rendered }, hooks(), w.env);
    expect(again.log).toEqual(more);
    expect(again.acked).toBe(3);
    await idle(again);
    expect(w.sent.at(-1)!.body).toEqual({ at: 3, moves: more.slice(3), playMs: 0 });
    expect(row(id).move_count).toBe(5);
    expect(w.conflicts).toEqual([]);
  });

  test('a game never sent (closed before its first batch) is restored and made', async () => {
    const { game: deal, moves } = await started();
    const first = openSync(deal, null, hooks(), w.env);
    record(first, moves.slice(0, 3), 'playing', 0); // closed within BATCH_MS
    const again = openSync(deal, null, hooks(), w.env);
    expect(again.log).toEqual(moves.slice(0, 3));
    await idle(again);
    expect(row(again.gameId!).move_count).toBe(3);
  });

  test('a win whose answer was lost: the next visit sends it again and hears "won"', async () => {
    const { game: deal, moves } = await started();
    const first = openSync(deal, null, hooks(), w.env);
    w.faults = [null, 'drop-after'];
    record(first, moves, 'won', 0);
    await idle(first);
    expect(first.won).toBe(false);
    expect(row(first.gameId!).result).toBe('won');
    const again = openSync(deal, null, hooks(), w.env); // the server shows no unfinished game of this deal
    expect(again.log).toEqual(moves);
    await idle(again);
    expect(again.won).toBe(true);
    expect(w.saved.at(-1)).toMatchObject({ status: 'won' });
    expect(w.kept.size).toBe(0);
  });

  test('games other deals left waiting are sent from whichever deal page opens next', async () => {
    const { game: deal, moves } = await started();
    w.online = false;
    const offline = openSync(deal, null, hooks(), w.env);
    record(offline, moves, 'won', 0); // finished with no network, then the tab was closed
    await idle(offline);
    w.online = true;
    const other = await createGame(w.app, w.cookie, { layout: 'garden', seed: 'elsewhere' });
    const syncs = sendKept(storageKey(other), w.env);
    expect(syncs).toHaveLength(1);
    await idle(syncs[0]!);
    expect(syncs[0]!.won).toBe(true);
    expect(row(syncs[0]!.gameId!)).toMatchObject({ move_count: moves.length, result: 'won' });
    expect(w.kept.size).toBe(0);
    expect(sendKept(storageKey(other), w.env)).toEqual([]); // nothing left
  });

  test('a game played offline from its first move waits, listed with its status, and is made and verified from a page without a board', async () => {
    const deal = { layout: 'garden', seed: 'never-online', mode: 'relaxed' as const };
    const made = await createGame(w.app, w.cookie, deal); // to learn the deal's solution; its game stays untouched
    const moves = solutionMoves(made);
    w.online = false;
    const offline = openSync(made, null, hooks(), w.env);
    record(offline, moves.slice(0, 4), 'playing', 0);
    expect(waitingGames(w.env)).toEqual([
      { key: storageKey(deal), deal, gameId: null, moves: 4, waiting: 4, status: 'playing', savedAt: w.clock.now },
    ]);
    record(offline, moves, 'won', 0);
    expect(waitingGames(w.env)[0]).toMatchObject({ moves: moves.length, waiting: moves.length, status: 'won' });
    expect(waitingGames(w.env, storageKey(deal))).toEqual([]); // the open deal page's own game is not "another"
    w.online = true;
    const saved: boolean[] = [];
    const syncs = sendKept('', w.env, { ...hooks(), saved: (_a, complete) => void saved.push(complete) }); // the stats page
    await idle(syncs[0]!);
    expect(syncs[0]!.gameId).toBe(made.id); // the player's untouched game of this deal: no empty twin is made
    expect(row(syncs[0]!.gameId!)).toMatchObject({ move_count: moves.length, result: 'won' });
    expect(saved.at(-1)).toBe(true);
    expect(waitingGames(w.env)).toEqual([]);
  });

  test('a stored log the server went past, or one that does not replay, is dropped', async () => {
    const { game: deal, moves } = await started();
    w.kept.set(
      storageKey(deal),
      JSON.stringify({ v: 1, gameId: null, log: [{ type: 'match', a: 0, b: 0 }], acked: 0, savedAt: w.clock.now }),
    );
    expect(openSync(deal, null, hooks(), w.env).log).toEqual([]);
    w.kept.set(storageKey(deal), '{not json');
    expect(openSync(deal, null, hooks(), w.env).log).toEqual([]);
    w.kept.set(
      storageKey(deal),
      JSON.stringify({ v: 1, gameId: 'g', log: moves.slice(0, 1), acked: 0, savedAt: w.clock.now }),
    );
    expect(openSync(deal, { id: 'g', log: moves.slice(0, 3) }, hooks(), w.env).log).toEqual(moves.slice(0, 3));
    expect(w.kept.size).toBe(0);
  });
});
