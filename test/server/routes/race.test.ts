/**
 * Live races (services/races.ts, routes/pages/race.ts; docs/contracts.md, "Live races"): opening a room, joining
 * it, progress from verified moves only, the order by the server's clock, the grace of a dropped racer, the
 * bounds (players per room, rooms per client, requests a second, streams, idle rooms) and bad input.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AppOptions } from '../../../src/server/app.ts';
import { build, createGame, newPlayer, postMoves, query, solutionMoves, testClock } from '../helper.ts';
import type { Deal } from '../../../src/engine/index.ts';
import { Redis } from 'ioredis';
import { REDIS_MISSING, startRedis, type TestRedis } from '../../support/redis.ts';
import { RedisRaceStore } from '../../../src/server/services/race-redis.ts';

const LAYOUT = 'turtle';
const SEED = 'race-seed';

/** Opens a race as `cookie`'s player; returns its id. */
async function openRace(app: FastifyInstance, cookie: string, body: object = { layout: LAYOUT, seed: SEED }) {
  const res = await app.inject({ method: 'POST', url: '/races', headers: { cookie }, payload: body });
  expect(res.statusCode, res.body).toBe(303);
  const id = /^\/race\/([A-Za-z0-9_-]{12})$/.exec(res.headers.location as string)?.[1];
  expect(id).toBeDefined();
  return id!;
}

const join = (app: FastifyInstance, cookie: string, id: string) =>
  app.inject({ method: 'POST', url: `/race/${id}/join`, headers: { cookie } });

const startRace = (app: FastifyInstance, cookie: string, id: string) =>
  app.inject({ method: 'POST', url: `/race/${id}/start`, headers: { cookie } });

/** Its maker starts the race, and the clock runs past the countdown (3 s). */
async function started(app: FastifyInstance, clock: { advance(ms: number): void }, cookie: string, id: string) {
  const res = await startRace(app, cookie, id);
  expect(res.statusCode, res.body).toBe(303);
  clock.advance(3000);
}

interface RaceJson {
  ended: boolean;
  startsAt: number | null;
  players: { player: string; name: string | null; left: number; status: string; place: number | null }[];
  order: string[] | null;
}
const raceJson = async (app: FastifyInstance, cookie: string, id: string): Promise<RaceJson> => {
  const res = await app.inject({ url: `/api/races/${id}`, headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<RaceJson>();
};

/** The viewer's game in the race, read from the race page's #deal-data. */
async function myGame(app: FastifyInstance, cookie: string, id: string): Promise<{ id: string; deal: Deal }> {
  const res = await app.inject({ url: `/race/${id}`, headers: { cookie } });
  expect(res.statusCode).toBe(200);
  const json = /<script type="application\/json" id="deal-data">(.*?)<\/script>/s.exec(res.body)![1]!;
  const data = JSON.parse(json) as { deal: Deal; game: { id: string } | null };
  expect(data.game).not.toBeNull();
  return { id: data.game!.id, deal: data.deal };
}

async function raceApp(opts: Partial<AppOptions> = {}) {
  const clock = testClock(Date.UTC(2026, 11, 5, 20));
  const app = await build({ now: clock.now, tutorial: false, ...opts });
  return { app, clock };
}

describe('opening and joining a race', () => {
  test('POST /races (form or JSON) → 303 to a race page with the deal and its maker as "me"', async () => {
    const { app } = await raceApp();
    const ana = await newPlayer(app);
    const id = await app.inject({
      method: 'POST',
      url: '/races',
      headers: { cookie: ana, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `layout=${LAYOUT}&seed=${SEED}&mode=classic`,
    });
    expect(id.statusCode, id.body).toBe(303);
    const page = await app.inject({ url: id.headers.location as string, headers: { cookie: ana } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['x-robots-tag']).toBe('noindex');
    expect(page.body).toContain('id="board"');
    expect(page.body).toMatch(/<section id="race"[^>]*data-seated="true"/);
    expect(page.body).toMatch(/data-player="me" data-left="144" data-status="playing"/);
    expect(page.body).not.toContain('data-race="join"');
    const jsonId = await openRace(app, ana);
    expect((await raceJson(app, ana, jsonId)).players).toEqual([
      { player: 'me', name: null, left: 144, status: 'playing', place: null, finishedAt: null },
    ]);
  });

  test('a visitor sees the racers and a Join button; joining seats them with a game of their own', async () => {
    const { app } = await raceApp();
    const [ana, ben] = [await newPlayer(app), await newPlayer(app)];
    const id = await openRace(app, ana);
    const before = await app.inject({ url: `/race/${id}`, headers: { cookie: ben } });
    expect(before.body).toContain('data-race="join"');
    expect(before.body).toMatch(/data-player="1" data-left="144"/);
    expect(before.body).not.toContain('data-player="me"');
    expect(before.body).toMatch(/class="board-wrap"[^>]* inert/); // not racing yet: nothing to play
    const joined = await join(app, ben, id);
    expect(joined.statusCode, joined.body).toBe(303);
    expect(joined.headers.location).toBe(`/race/${id}`);
    expect((await join(app, ben, id)).statusCode).toBe(303); // again: the same seat
    const race = await raceJson(app, ben, id);
    expect(race.players.map((p) => p.player)).toEqual(['1', 'me']);
    const [a, b] = [await myGame(app, ana, id), await myGame(app, ben, id)];
    expect(a.id).not.toBe(b.id);
  });

  test('a racer with a nickname is shown by it, the others as "Player n"', async () => {
    const { app } = await raceApp();
    const [ana, ben] = [await newPlayer(app), await newPlayer(app)];
    const game = await createGame(app, ben);
    const rows = await query<{ player_id: string }>(app, 'SELECT player_id FROM games WHERE id = ?', game.id);
    expect(await app.playersStore.setNickname(rows[0]!.player_id, 'Benny', 'benny')).toBe('ok');
    const id = await openRace(app, ana);
    await join(app, ben, id);
    const page = await app.inject({ url: `/race/${id}`, headers: { cookie: ana } });
    expect(page.body).toMatch(/data-player="me"[^>]*><span class="race-name">Player 1 \(you\)<\/span>/);
    expect(page.body).toMatch(/data-player="2"[^>]*><span class="race-name">Benny<\/span>/);
  });
});

describe('progress and order come from verified moves', () => {
  test('moves update tiles left; an illegal move changes nothing; the first win is first', async () => {
    const { app, clock } = await raceApp();
    const [ana, ben] = [await newPlayer(app), await newPlayer(app)];
    const id = await openRace(app, ana);
    await join(app, ben, id);
    const [a, b] = [await myGame(app, ana, id), await myGame(app, ben, id)];
    await started(app, clock, ana, id);
    const moves = solutionMoves(a.deal);
    expect((await postMoves(app, ana, a.id, moves.slice(0, 3))).statusCode).toBe(200);
    expect((await postMoves(app, ana, a.id, [{ type: 'match', a: 0, b: 0 }])).statusCode).toBe(409);
    let race = await raceJson(app, ben, id);
    expect(race.players[0]).toMatchObject({ player: '1', left: 138, status: 'playing' });
    clock.advance(57_000); // within the grace of Ana's join, counted from the start's 3 s before
    expect((await postMoves(app, ben, b.id, moves)).json()).toMatchObject({ status: 'won' });
    race = await raceJson(app, ana, id);
    expect(race.players[1]).toMatchObject({ player: '2', left: 0, status: 'won', place: 1 });
    expect(race.ended).toBe(false); // Ana plays on for second place
    clock.advance(10_000);
    await postMoves(app, ana, a.id, moves.slice(3));
    race = await raceJson(app, ana, id);
    expect(race.ended).toBe(true);
    expect(race.order).toEqual(['2', 'me']);
    const page = await app.inject({ url: `/race/${id}`, headers: { cookie: ben } });
    expect(page.body).toMatch(/<ol id="race-order"[^>]*>\s*<li data-order="me"/);
    expect((await join(app, await newPlayer(app), id)).statusCode).toBe(409); // ERR_RACE_OVER
  });

  test('a racer unseen past the grace is gone; the race ends without them and the order stands', async () => {
    const { app, clock } = await raceApp({ races: { graceMs: 30_000 } });
    const [ana, ben, cat] = [await newPlayer(app), await newPlayer(app), await newPlayer(app)];
    const id = await openRace(app, ana);
    await join(app, ben, id);
    await join(app, cat, id);
    const b = await myGame(app, ben, id);
    const c = await myGame(app, cat, id);
    await started(app, clock, ana, id);
    await postMoves(app, cat, c.id, solutionMoves(c.deal).slice(0, 10));
    clock.advance(20_000);
    await postMoves(app, ben, b.id, solutionMoves(b.deal));
    let race = await raceJson(app, ben, id);
    expect(race.players.map((p) => p.status)).toEqual(['playing', 'won', 'playing']); // within the grace
    clock.advance(15_000);
    race = await raceJson(app, ben, id);
    expect(race.players.map((p) => p.status)).toEqual(['gone', 'won', 'gone']);
    expect(race.ended).toBe(true);
    expect(race.order).toEqual(['me', '3', '1']); // the win, then by tiles left
  });
});

// The start is the room's: the same in memory and in Redis (a fleet's), where every process reads one instant.
describe.each([['memory'], ['Redis']] as const)('the start, with rooms in %s', (store) => {
  let redis: TestRedis | undefined;
  const skip = store === 'Redis' && REDIS_MISSING !== undefined;
  beforeAll(async () => {
    if (store === 'Redis' && !skip) redis = await startRedis();
  });
  afterAll(async () => redis?.stop());
  const startApp = (races: Partial<AppOptions['races']> = {}) =>
    raceApp({ races: { requestsPerSecond: 50, ...races }, ...(redis ? { redisUrl: redis.url } : {}) });

  test.skipIf(skip)(
    'its maker starts it for everyone 3 s ahead; moves before that instant are refused; wins timed from it',
    async () => {
      const { app, clock } = await startApp();
      const [ana, ben, cat] = [await newPlayer(app), await newPlayer(app), await newPlayer(app)];
      const id = await openRace(app, ana);
      await join(app, ben, id);
      const [a, b] = [await myGame(app, ana, id), await myGame(app, ben, id)];
      const moves = solutionMoves(b.deal);

      // Before the start: the maker has the Start button, the others wait for them; no board takes input.
      let page = await app.inject({ url: `/race/${id}`, headers: { cookie: ana } });
      expect(page.body).toContain('data-race="start"');
      expect(page.body).not.toContain('data-starts-at');
      expect(page.body).toMatch(/class="board-wrap"[^>]* inert/);
      page = await app.inject({ url: `/race/${id}`, headers: { cookie: ben } });
      expect(page.body).not.toContain('data-race="start"');
      expect(page.body).toContain('Waiting for Player 1 to start the race.');
      expect((await raceJson(app, ben, id)).startsAt).toBeNull();
      const early = await postMoves(app, ben, b.id, moves.slice(0, 1));
      expect(early.statusCode).toBe(409);
      expect(early.json()).toMatchObject({ code: 'ERR_RACE_NOT_STARTED' });
      expect(early.json().error).toMatch(/has not started/);

      // Only its maker may start it (while the maker is there); a visitor neither.
      for (const who of [ben, cat]) {
        const refused = await app.inject({
          method: 'POST',
          url: `/race/${id}/start`,
          headers: { cookie: who, accept: 'text/html' },
        });
        expect(refused.statusCode).toBe(403);
        expect(refused.body).toMatch(/only the player who opened this race may start it/i);
      }
      const at = clock.now() + 3000;
      expect((await startRace(app, ana, id)).statusCode).toBe(303);
      expect((await raceJson(app, ana, id)).startsAt).toBe(at);
      expect((await raceJson(app, ben, id)).startsAt).toBe(at);
      page = await app.inject({ url: `/race/${id}`, headers: { cookie: ben } });
      expect(page.body).toMatch(new RegExp(`<section id="race"[^>]* data-starts-at="${at}" data-starts-in="3000"`));
      expect(page.body).toMatch(/class="board-wrap"[^>]* inert/); // until the page's countdown reaches 0
      expect(page.body).not.toContain('Waiting for Player 1');
      clock.advance(1000);
      expect((await startRace(app, ana, id)).statusCode).toBe(303); // again: the start stands
      expect((await raceJson(app, ana, id)).startsAt).toBe(at);

      // Still counting down: refused, and nothing stored; from the instant on, played.
      clock.advance(1999);
      const counting = await postMoves(app, ben, b.id, moves.slice(0, 1));
      expect(counting.statusCode).toBe(409);
      expect(counting.json().error).toMatch(/starts in 1 s/);
      expect((await raceJson(app, ana, id)).players[1]).toMatchObject({ left: 144 });
      clock.advance(1);
      expect((await postMoves(app, ben, b.id, moves)).json()).toMatchObject({ status: 'won' });
      clock.advance(61_000);
      await postMoves(app, ana, a.id, solutionMoves(a.deal));
      page = await app.inject({ url: `/race/${id}`, headers: { cookie: ana } });
      // Times from the start, not from the room's opening or a page's load: Ben at 0:00, Ana at 1:01.
      expect(page.body).toMatch(
        /data-order="2"[^>]*><span class="race-name">Player 2<\/span> <span class="race-result">0:00</,
      );
      expect(page.body).toMatch(
        /data-order="me"[^>]*><span class="race-name">[^<]*<\/span> <span class="race-result">1:01</,
      );
    },
  );

  test.skipIf(skip)('a full room starts by itself', async () => {
    const { app, clock } = await startApp({ playersPerRoom: 2 });
    const [ana, ben] = [await newPlayer(app), await newPlayer(app)];
    const id = await openRace(app, ana);
    expect((await raceJson(app, ana, id)).startsAt).toBeNull();
    await join(app, ben, id);
    expect((await raceJson(app, ana, id)).startsAt).toBe(clock.now() + 3000);
  });

  test.skipIf(skip)("a player who joins after the start joins late, timed from the room's start", async () => {
    const { app, clock } = await startApp();
    const [ana, cat] = [await newPlayer(app), await newPlayer(app)];
    const id = await openRace(app, ana);
    const at = clock.now() + 3000;
    await started(app, clock, ana, id);
    clock.advance(30_000);
    const before = await app.inject({ url: `/race/${id}`, headers: { cookie: cat } });
    expect(before.body).toContain('data-race="join"');
    expect(before.body).toContain('you join late');
    expect((await join(app, cat, id)).statusCode).toBe(303);
    const page = await app.inject({ url: `/race/${id}`, headers: { cookie: cat } });
    expect(page.body).toMatch(new RegExp(`data-starts-at="${at}" data-starts-in="-30000"`));
    expect(page.body).not.toMatch(/class="board-wrap"[^>]* inert/); // no countdown: playing at once
    const c = await myGame(app, cat, id);
    clock.advance(15_000);
    expect((await postMoves(app, cat, c.id, solutionMoves(c.deal))).json()).toMatchObject({ status: 'won' });
    const race = await raceJson(app, cat, id);
    expect(race.players[1]).toMatchObject({ player: 'me', status: 'won', finishedAt: at + 45_000 });
  });

  test.skipIf(skip)('with its maker gone past the grace, any racer may start it', async () => {
    const { app, clock } = await startApp({ graceMs: 30_000 });
    const [ana, ben] = [await newPlayer(app), await newPlayer(app)];
    const id = await openRace(app, ana);
    clock.advance(20_000);
    await join(app, ben, id);
    expect((await startRace(app, ben, id)).statusCode).toBe(403);
    clock.advance(11_000); // Ana unseen for 31 s
    const page = await app.inject({ url: `/race/${id}`, headers: { cookie: ben } });
    expect(page.body).toContain('data-race="start"');
    expect((await startRace(app, ben, id)).statusCode).toBe(303);
    expect((await raceJson(app, ben, id)).startsAt).toBe(clock.now() + 3000);
  });
});

describe('bounds', () => {
  test('at most playersPerRoom racers', async () => {
    const { app } = await raceApp({ races: { playersPerRoom: 2 } });
    const id = await openRace(app, await newPlayer(app));
    expect((await join(app, await newPlayer(app), id)).statusCode).toBe(303);
    const third = await app.inject({
      method: 'POST',
      url: `/race/${id}/join`,
      headers: { cookie: await newPlayer(app), accept: 'text/html' },
    });
    expect(third.statusCode).toBe(409);
    expect(third.body).toMatch(/this race has 2 players already/i);
    const page = await app.inject({ url: `/race/${id}`, headers: { cookie: await newPlayer(app) } });
    expect(page.body).not.toContain('data-race="join"');
  });

  test('rooms per client an hour, and race requests per player a second', async () => {
    const { app, clock } = await raceApp({ races: { roomsPerHour: 2, requestsPerSecond: 3 } });
    const ana = await newPlayer(app);
    await openRace(app, ana);
    clock.advance(1000);
    const id = await openRace(app, ana);
    clock.advance(1000);
    const third = await app.inject({
      method: 'POST',
      url: '/races',
      headers: { cookie: ana },
      payload: { layout: LAYOUT, seed: SEED },
    });
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toBeDefined();
    clock.advance(1000);
    const reads = [];
    for (let i = 0; i < 4; i++)
      reads.push((await app.inject({ url: `/api/races/${id}`, headers: { cookie: ana } })).statusCode);
    expect(reads).toEqual([200, 200, 200, 429]);
  });

  test('a room without a join or a move for idleMs is closed', async () => {
    const { app, clock } = await raceApp({ races: { idleMs: 60_000 } });
    const ana = await newPlayer(app);
    const id = await openRace(app, ana);
    const a = await myGame(app, ana, id);
    await started(app, clock, ana, id);
    clock.advance(47_000);
    await postMoves(app, ana, a.id, solutionMoves(a.deal).slice(0, 1)); // a move keeps it open
    clock.advance(50_000);
    expect((await app.inject({ url: `/race/${id}`, headers: { cookie: ana } })).statusCode).toBe(200);
    clock.advance(11_000);
    const closed = await app.inject({ url: `/race/${id}`, headers: { cookie: ana } });
    expect(closed.statusCode).toBe(404);
    expect(closed.body).toMatch(/there is no such race/i);
    const api = await app.inject({ url: `/api/races/${id}`, headers: { cookie: ana } });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: 'ERR_NO_RACE' });
  });
});

describe('bad input is a 4xx', () => {
  test.each([
    ['an unknown layout', { layout: 'no-such-layout', seed: SEED }, 404],
    ['a bad seed', { layout: LAYOUT, seed: 'bad seed!' }, 400],
    ['a bad mode', { layout: LAYOUT, seed: SEED, mode: 'fast' }, 400],
    ['no seed', { layout: LAYOUT }, 400],
    ['an extra field', { layout: LAYOUT, seed: SEED, players: 99 }, 400],
  ])('POST /races with %s', async (_what, body, status) => {
    const { app } = await raceApp();
    const res = await app.inject({
      method: 'POST',
      url: '/races',
      headers: { cookie: await newPlayer(app) },
      payload: body,
    });
    expect(res.statusCode).toBe(status);
  });

  test.each([
    ['GET', '/race/AAAAAAAAAAAA', 404],
    ['GET', '/race/short', 400],
    ['GET', '/race/AAAAAAAAAAAA/events', 404],
    ['POST', '/race/AAAAAAAAAAAA/join', 404],
    ['GET', '/api/races/AAAAAAAAAAAA', 404],
    ['GET', '/api/races/bad%20id!', 400],
  ] as const)('%s %s', async (method, url, status) => {
    const { app } = await raceApp();
    const res = await app.inject({ method, url, headers: { cookie: await newPlayer(app) } });
    expect(res.statusCode).toBe(status);
  });

  test('a POST without the player cookie is refused', async () => {
    const { app } = await raceApp();
    const res = await app.inject({ method: 'POST', url: '/races', payload: { layout: LAYOUT, seed: SEED } });
    expect(res.statusCode).toBe(403);
  });
});

/** Reads server-sent events from a stream until `until` holds for the events so far. */
async function readEvents(
  body: ReadableStream<Uint8Array>,
  until: (events: { event: string; data: string }[]) => boolean,
  timeoutMs = 5000,
): Promise<{ event: string; data: string }[]> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const events: { event: string; data: string }[] = [];
  let text = '';
  const deadline = Date.now() + timeoutMs;
  while (!until(events)) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    const chunk = await Promise.race([
      reader.read(),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), left)),
    ]);
    if (chunk === null || chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
    let end: number;
    while ((end = text.indexOf('\n\n')) >= 0) {
      const block = text.slice(0, end);
      text = text.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event && data !== undefined) events.push({ event, data });
    }
  }
  reader.releaseLock();
  return events;
}

describe('the live stream', () => {
  test('sends the standings as they change, coalesced, and refuses streams past the bound', async () => {
    const app = await build({ tutorial: false, races: { streamsPerPlayer: 1, pushMs: 300, countdownMs: 0 } });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const [ana, ben] = [await newPlayer(app), await newPlayer(app)];
    const id = await openRace(app, ana);
    await join(app, ben, id);
    const controller = new AbortController();
    const res = await fetch(`${url}/race/${id}/events`, { headers: { cookie: ana }, signal: controller.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const first = await readEvents(res.body!, (e) => e.length >= 1);
    expect(JSON.parse(first[0]!.data).html).toMatch(/data-player="me" data-left="144" data-status="playing"/);
    const again = await fetch(`${url}/race/${id}/events`, { headers: { cookie: ana } });
    expect(again.status).toBe(429);
    expect(await again.text()).toMatch(/a player may follow 1 races at once/i);

    // Ben plays 12 batches as fast as he can: Ana hears of them in a few updates, the last one right.
    expect((await startRace(app, ana, id)).statusCode).toBe(303);
    const b = await myGame(app, ben, id);
    const moves = solutionMoves(b.deal);
    const started = Date.now();
    for (let i = 0; i < 12; i++) expect((await postMoves(app, ben, b.id, moves.slice(i, i + 1))).statusCode).toBe(200);
    const events = await readEvents(res.body!, (e) => e.some((x) => x.data.includes('data-left=\\"120\\"')));
    const start = events.map((e) => JSON.parse(e.data) as { startsAt: number | null; startsIn: number | null });
    expect(start.find((e) => e.startsAt !== null)).toMatchObject({ startsAt: expect.any(Number) }); // the start, pushed
    const last = JSON.parse(events.at(-1)!.data) as { html: string };
    expect(last.html).toMatch(/data-player="2" data-left="120" data-status="playing"/);
    expect(events.length).toBeLessThanOrEqual(Math.ceil((Date.now() - started) / 300) + 1);
    controller.abort();
    await expect.poll(() => app.races.openStreams()).toBe(0);
  });

  test('a close ends the streams (the browser comes back to another process)', async () => {
    const app = await build({ tutorial: false });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const ana = await newPlayer(app);
    const id = await openRace(app, ana);
    const res = await fetch(`${url}/race/${id}/events`, { headers: { cookie: ana } });
    await readEvents(res.body!, (e) => e.length >= 1);
    const closed = app.close();
    const reader = res.body!.getReader();
    for (;;) if ((await reader.read()).done) break;
    await closed;
  });
});

describe.skipIf(REDIS_MISSING !== undefined)("streams counted in Redis (a fleet's)", () => {
  let redis: TestRedis | undefined;
  afterAll(async () => redis?.stop());

  test("every process's streams count; a process that died stops counting once its counts lapse", async () => {
    redis = await startRedis();
    const raw = new Redis(redis.url);
    try {
      const races = { streamsPerPlayer: 1, heartbeatMs: 200, requestsPerSecond: 50 }; // counts lapse after 600 ms
      const app = await build({ tutorial: false, redisUrl: redis.url, races });
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      const ana = await newPlayer(app);
      const id = await openRace(app, ana);
      const game = await myGame(app, ana, id);
      const [row] = await query<{ player_id: string }>(app, 'SELECT player_id FROM games WHERE id = ?', game.id);
      const key = `mahjong:race-streams:player:${row!.player_id}`;
      const events = (signal?: AbortSignal) => fetch(`${url}/race/${id}/events`, { headers: { cookie: ana }, signal });

      // Another process holds Ana's one stream, then dies: refused until its count lapses.
      await raw.hset(key, 'another-process', `1@${Date.now()}`);
      const refused = await events();
      expect(refused.status).toBe(429);
      expect(await refused.text()).toMatch(/a player may follow 1 races at once/i);
      await new Promise((resolve) => setTimeout(resolve, 700));
      const controller = new AbortController();
      // Kept until it is closed: fetch cancels the body of a response it has collected, which would close the stream.
      const held = await events(controller.signal);
      expect(held.status).toBe(200);
      expect(await raw.hexists(key, 'another-process')).toBe(0); // dropped as it lapsed

      // A live process renews its counts: past the lapse Ana's stream still counts.
      await new Promise((resolve) => setTimeout(resolve, 900));
      expect((await events()).status).toBe(429);
      expect(held.bodyUsed).toBe(false);
      controller.abort(); // closed: counted off at once
      await expect.poll(() => raw.exists(key)).toBe(0);
      const again = new AbortController();
      expect((await events(again.signal)).status).toBe(200);
      again.abort();
      await app.close();
    } finally {
      raw.disconnect();
    }
  });

  test("a heartbeat while a stream is taken writes the process's count with it, not the one before", async () => {
    redis ??= await startRedis();
    const raw = new Redis(redis.url);
    const store = new RedisRaceStore(redis.url, 60_000, Date.now, () => undefined, 60_000);
    try {
      const bounds = { player: 4, client: 64 };
      expect(await store.takeStream('ana', 'net', bounds)).toBeUndefined();
      // The second take's round trip is in flight when the heartbeat comes: the heartbeat waits for it.
      const [taken] = await Promise.all([store.takeStream('ana', 'net', bounds), store.keepStreams()]);
      expect(taken).toBeUndefined();
      const counts = Object.values(await raw.hgetall('mahjong:race-streams:player:ana'));
      expect(counts.map((c) => c.split('@')[0])).toEqual(['2']);
      // The same for a close beside a take: 2 - 1 + 1.
      await Promise.all([store.dropStream('ana', 'net'), store.takeStream('ana', 'net', bounds)]);
      await store.keepStreams();
      expect(Object.values(await raw.hgetall('mahjong:race-streams:player:ana')).map((c) => c.split('@')[0])).toEqual([
        '2',
      ]);
    } finally {
      await store.close();
      raw.disconnect();
    }
  });
});
