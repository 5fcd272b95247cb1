/**
 * The games API: create, play, verify by replay (docs/contracts.md, "JSON API" and "Moves"). Forged logs must be
 * 409 and change nothing; another player's game is 403; an unknown one 404.
 */
import { describe, expect, onTestFinished, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  availablePairs,
  canMatch,
  isTileFree,
  newGame,
  replay,
  type Deal,
  type Game,
} from '../../../src/engine/index.ts';
import * as shuffle from '../../../src/engine/shuffle.ts';
import { SHUFFLES_PER_MINUTE, shuffleCostMs } from '../../../src/server/services/games.ts';
import { build, createGame, newPlayer, postMoves, solutionMoves, query, testClock } from '../helper.ts';

/** The stored game row, straight from the database. */
const rowOf = async (app: FastifyInstance, id: string) =>
  (await query(app, 'SELECT * FROM games WHERE id = ?', id))[0] as Record<string, unknown>;

function startOf(deal: Deal): Game {
  const g = newGame(deal);
  if (!g.ok) throw new Error(g.message);
  return g.value;
}

describe('POST /api/games', () => {
  test('201 with the id and the deal; the game is stored for this player', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const res = await app.inject({
      method: 'POST',
      url: '/api/games',
      headers: { cookie },
      payload: { layout: 'turtle', seed: 'abc' },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(Object.keys(body)).toEqual(['id', 'layout', 'seed', 'mode', 'generator', 'difficulty', 'tiles', 'solution']);
    expect(body).toMatchObject({ layout: 'turtle', seed: 'abc', mode: 'relaxed' });
    expect(body.tiles).toHaveLength(144);
    const deal = await app.inject({ url: '/api/deals/turtle/abc' });
    const { id: _id, ...rest } = body;
    expect(rest).toEqual(deal.json());
    const row = await rowOf(app, body.id);
    expect(row).toMatchObject({ status: 'playing', result: null, move_count: 0, tiles_left: 144, finished_at: null });
  });

  test('asked again before any move (its answer was lost), the same fresh game answers; after a move, a new one', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const first = await createGame(app, cookie, { layout: 'garden', seed: 'lost-answer' });
    const again = await createGame(app, cookie, { layout: 'garden', seed: 'lost-answer' });
    expect(again.id).toBe(first.id);
    expect(await query(app, 'SELECT COUNT(*) AS n FROM games')).toEqual([{ n: 1 }]);
    expect((await postMoves(app, cookie, first.id, solutionMoves(first).slice(0, 1))).statusCode).toBe(200);
    const next = await createGame(app, cookie, { layout: 'garden', seed: 'lost-answer' });
    expect(next.id).not.toBe(first.id);
    const other = await createGame(app, await newPlayer(app), { layout: 'garden', seed: 'lost-answer' });
    expect(other.id).not.toBe(next.id); // another player's game is never handed out
  });

  test('a classic game', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie, { layout: 'garden', seed: 'xyz', mode: 'classic' });
    expect(game.mode).toBe('classic');
  });

  test.each([
    ['no body', undefined, 400],
    ['unknown layout', { layout: 'nosuch', seed: 'abc' }, 404],
    ['bad seed', { layout: 'turtle', seed: 'a b' }, 400],
    ['long seed', { layout: 'turtle', seed: 'a'.repeat(33) }, 400],
    ['bad mode', { layout: 'turtle', seed: 'abc', mode: 'hard' }, 400],
    ['extra key', { layout: 'turtle', seed: 'abc', admin: true }, 400],
    ['wrong type', { layout: 'turtle', seed: 42 }, 400],
    ['array', [1, 2], 400],
  ])('%s → %i with {"error","code"}', async (_name, payload, status) => {
    const app = await build();
    const cookie = await newPlayer(app);
    const res = await app.inject({
      method: 'POST',
      url: '/api/games',
      headers: { cookie },
      payload: payload as object,
    });
    expect(res.statusCode).toBe(status);
    expect(Object.keys(res.json())).toEqual(['error', 'code']);
    expect(res.json().error).toEqual(expect.any(String));
    expect(res.json().code).toBe(status === 404 ? 'ERR_UNKNOWN_LAYOUT' : 'ERR_VALIDATION');
    expect(((await query(app, 'SELECT COUNT(*) AS n FROM games'))[0] as { n: number }).n).toBe(0);
  });

  test('malformed JSON → 400, a text body → 400, XML → 415, a huge body → 413', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const bad = await app.inject({
      method: 'POST',
      url: '/api/games',
      headers: { cookie, 'content-type': 'application/json' },
      payload: '{"layout":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('error');
    const text = await app.inject({
      method: 'POST',
      url: '/api/games',
      headers: { cookie, 'content-type': 'text/plain' },
      payload: 'hi',
    });
    expect(text.statusCode).toBe(400);
    expect(text.json()).toHaveProperty('error');
    const xml = await app.inject({
      method: 'POST',
      url: '/api/games',
      headers: { cookie, 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(xml.statusCode).toBe(415);
    expect(xml.json()).toHaveProperty('error');
    const huge = await app.inject({
      method: 'POST',
      url: '/api/games',
      headers: { cookie },
      payload: { layout: 'turtle', seed: 'abc', pad: 'x'.repeat(100_000) },
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toHaveProperty('error');
  });
});

describe('POST /api/games/:id/moves', () => {
  test('plays the whole solution in one batch: won, finished with the server clock, in one transaction', async () => {
    let clock = 1_700_000_000_000;
    const app = await build({ now: () => clock });
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie);
    clock += 95_000;
    const res = await postMoves(app, cookie, game.id, solutionMoves(game));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 'won', left: 0, hints: 0, shuffles: 0, undos: 0, moves: 72, timeMs: 95_000 });
    expect(body.faces).toHaveLength(144);
    expect(body.faces.every((f: unknown) => f === null)).toBe(true);
    expect(await rowOf(app, game.id)).toMatchObject({
      status: 'won',
      result: 'won',
      started_at: 1_700_000_000_000,
      finished_at: 1_700_000_095_000,
      move_count: 72,
      tiles_left: 0,
    });
    // Moves on a finished game are refused.
    const again = await postMoves(app, cookie, game.id, [{ type: 'hint' }]);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatch(/finished/);
  });

  test('batches add up; the answer matches the engine; undo, redo, hint and shuffle are counted', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie);
    const moves = solutionMoves(game);
    const first = await postMoves(app, cookie, game.id, moves.slice(0, 3));
    expect(first.json()).toMatchObject({ status: 'playing', left: 138, moves: 3 });
    const batch = [{ type: 'undo' }, { type: 'redo' }, { type: 'hint' }, { type: 'shuffle' }];
    const second = await postMoves(app, cookie, game.id, batch);
    expect(second.statusCode).toBe(200);
    const expected = replay(game, [...moves.slice(0, 3), ...batch] as never);
    if (!expected.ok) throw new Error(expected.message);
    expect(second.json()).toMatchObject({
      faces: expected.value.faces,
      left: 138,
      hints: 1,
      shuffles: 1,
      undos: 1,
      moves: 7,
    });
    expect(await rowOf(app, game.id)).toMatchObject({
      move_count: 7,
      hints: 1,
      shuffles: 1,
      undos: 1,
      tiles_left: 138,
    });
  });

  describe('budgets come before the work: a refused batch searches nothing and changes nothing', () => {
    /** Counts the shuffle searches the server runs (engine shuffleFaces), for this test. */
    const countSearches = () => {
      const spy = vi.spyOn(shuffle, 'shuffleFaces');
      onTestFinished(() => spy.mockRestore());
      return spy;
    };
    const shuffles = (n: number) => Array.from({ length: n }, () => ({ type: 'shuffle' }));

    test(`past ${SHUFFLES_PER_MINUTE} shuffles a minute: 429 with Retry-After before any search`, async () => {
      const clock = testClock(1_750_000_000_000);
      const app = await build({ now: clock.now });
      const cookie = await newPlayer(app);
      const game = await createGame(app, cookie);
      const searches = countSearches();
      for (let i = 0; i < SHUFFLES_PER_MINUTE / 20; i++)
        expect((await postMoves(app, cookie, game.id, shuffles(20))).statusCode).toBe(200);
      expect(searches).toHaveBeenCalledTimes(SHUFFLES_PER_MINUTE);
      const before = await rowOf(app, game.id);
      const refused = await postMoves(app, cookie, game.id, [solutionMoves(game)[0], ...shuffles(20)]);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json()).toEqual({ error: expect.stringMatching(/shuffles a minute/), code: 'ERR_RATE_LIMITED' });
      expect(searches).toHaveBeenCalledTimes(SHUFFLES_PER_MINUTE); // none for the refused batch
      expect(await rowOf(app, game.id)).toEqual(before);
    });

    test("shuffles are charged to the network's CPU budget before they are searched, whatever the cookie", async () => {
      const clock = testClock(1_750_000_000_000);
      const batch = Math.ceil(20 * shuffleCostMs(144)); // 20 shuffles of the turtle, as charged
      const app = await build({ now: clock.now, cpu: { clientBurstMs: 2 * batch } });
      const searches = countSearches();
      const games: { cookie: string; id: string; first: unknown }[] = [];
      for (let i = 0; i < 3; i++) {
        const cookie = await newPlayer(app); // a new player each time: the shuffle budget per player is fresh
        const game = await createGame(app, cookie);
        games.push({ cookie, id: game.id, first: solutionMoves(game)[0] });
      }
      for (const { cookie, id } of games.slice(0, 2))
        expect((await postMoves(app, cookie, id, shuffles(20))).statusCode).toBe(200);
      expect(searches).toHaveBeenCalledTimes(40);
      const { cookie, id, first } = games[2]!;
      const before = await rowOf(app, id);
      const refused = await postMoves(app, cookie, id, [first, ...shuffles(20)]);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toMatch(/^[1-5]$/);
      expect(refused.json()).toEqual({
        error: expect.stringMatching(/\(shuffle\); try again in \d s/),
        code: 'ERR_CPU',
      });
      expect(searches).toHaveBeenCalledTimes(40);
      expect(await rowOf(app, id)).toEqual(before);
      // Matches, hints and checks cost no search and are not charged: a normal player plays on meanwhile.
      const played = await postMoves(app, cookie, id, [first, { type: 'hint' }, { type: 'check', heard: 'yes' }]);
      expect(played.statusCode).toBe(200);
      clock.advance(5_000); // the burst window is over
      expect((await postMoves(app, cookie, id, shuffles(20))).statusCode).toBe(200);
      expect(searches).toHaveBeenCalledTimes(60);
    });
  });

  describe('"can this still be won?" (check moves)', () => {
    const post = (app: FastifyInstance, cookie: string, id: string, at: number, moves: unknown[]) =>
      app.inject({ method: 'POST', url: `/api/games/${id}/moves`, headers: { cookie }, payload: { at, moves } });

    test('counted per game, not logged; the board, status and counters are as without them', async () => {
      const app = await build();
      const cookie = await newPlayer(app);
      const game = await createGame(app, cookie);
      const moves = solutionMoves(game);
      const batch = [moves[0], { type: 'check', heard: 'yes' }, moves[1], { type: 'check', heard: 'no' }];
      const res = await post(app, cookie, game.id, 0, batch);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'playing', left: 140, hints: 0, moves: 4 });
      const row = await rowOf(app, game.id);
      expect(row).toMatchObject({ move_count: 4, checks: 2, checks_no: 1, hints: 0, tiles_left: 140 });
      expect(JSON.parse(row.moves_json as string)).toEqual(moves.slice(0, 2));
      // A batch sent again (its answer was lost) counts nothing twice.
      const again = await post(app, cookie, game.id, 0, batch);
      expect(again.statusCode).toBe(200);
      expect(await rowOf(app, game.id)).toMatchObject({ move_count: 4, checks: 2, checks_no: 1 });
      // A check alone travels like a hint; the win still needs every pair, and comes with the checks counted.
      const alone = await post(app, cookie, game.id, 4, [{ type: 'check', heard: 'unknown' }]);
      expect(alone.json()).toMatchObject({ status: 'playing', moves: 5 });
      const rest = await post(app, cookie, game.id, 5, moves.slice(2));
      expect(rest.json()).toMatchObject({ status: 'won', moves: 75, hints: 0, shuffles: 0, undos: 0 });
      expect(await rowOf(app, game.id)).toMatchObject({ result: 'won', checks: 3, checks_no: 1 });
    });

    test('a conflict answers with a log that replays to the same position and counts', async () => {
      const app = await build();
      const cookie = await newPlayer(app);
      const game = await createGame(app, cookie);
      const moves = solutionMoves(game);
      await post(app, cookie, game.id, 0, [moves[0], { type: 'check', heard: 'no' }, { type: 'hint' }]);
      const other = await post(app, cookie, game.id, 0, [moves[1]]); // another tab's different first move
      expect(other.statusCode).toBe(409);
      const log = other.json().log;
      expect(log).toEqual([moves[0], { type: 'check', heard: 'no' }, { type: 'hint' }]);
      const replayed = replay(game, log);
      expect(replayed.ok && replayed.value.hints).toBe(1);
    });

    test.each([
      ['no answer', [{ type: 'check' }]],
      ['an unknown answer', [{ type: 'check', heard: 'maybe' }]],
      ['an extra key', [{ type: 'check', heard: 'no', status: 'won' }]],
    ])('%s is 400 and changes nothing', async (_name, moves) => {
      const app = await build();
      const cookie = await newPlayer(app);
      const game = await createGame(app, cookie);
      const res = await postMoves(app, cookie, game.id, moves);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/^body/);
      expect(await rowOf(app, game.id)).toMatchObject({ move_count: 0, checks: 0 });
    });

    test('at most MAX_CHECKS a game: the next is 409 and changes nothing', async () => {
      const app = await build();
      const cookie = await newPlayer(app);
      const game = await createGame(app, cookie);
      const checks = Array.from({ length: 500 }, () => ({ type: 'check', heard: 'no' }));
      expect((await post(app, cookie, game.id, 0, checks)).statusCode).toBe(200);
      const more = await post(app, cookie, game.id, 500, [{ type: 'check', heard: 'no' }]);
      expect(more.statusCode).toBe(409);
      expect(more.json().code).toBe('ERR_TOO_MANY_CHECKS');
      expect(await rowOf(app, game.id)).toMatchObject({ move_count: 500, checks: 500, checks_no: 500 });
    });
  });

  test('the stored log replays the same after a restart of the cache (a second app on the same rows)', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie);
    const moves = solutionMoves(game);
    await postMoves(app, cookie, game.id, [...moves.slice(0, 5), { type: 'shuffle' }]);
    const stored = JSON.parse((await rowOf(app, game.id)).moves_json as string);
    expect(stored).toHaveLength(6);
    const replayed = replay(game, stored);
    expect(replayed.ok).toBe(true);
  });

  describe('forged logs are 409 and store nothing', () => {
    async function setup() {
      const app = await build();
      const cookie = await newPlayer(app);
      const game = await createGame(app, cookie);
      return { app, cookie, game, start: startOf(game) };
    }

    async function expectRefused(app: FastifyInstance, cookie: string, id: string, moves: unknown[], pattern: RegExp) {
      const before = await rowOf(app, id);
      const res = await postMoves(app, cookie, id, moves);
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatch(pattern);
      expect(await rowOf(app, id)).toEqual(before);
      return res.json();
    }

    test('a match of a tile that is not free', async () => {
      const { app, cookie, game, start } = await setup();
      const blocked = start.faces.findIndex((_, i) => !isTileFree(start, i));
      const mate = start.faces.findIndex((f, j) => j !== blocked && canMatch(f!, start.faces[blocked]!));
      const body = await expectRefused(app, cookie, game.id, [{ type: 'match', a: blocked, b: mate }], /not free/);
      expect(body).toMatchObject({ code: 'ERR_NOT_FREE', index: 0 });
    });

    test('two free tiles with different faces', async () => {
      const { app, cookie, game, start } = await setup();
      const free = start.faces.map((_, i) => i).filter((i) => isTileFree(start, i));
      let pair: [number, number] | undefined;
      for (const a of free)
        for (const b of free) if (!pair && a !== b && !canMatch(start.faces[a]!, start.faces[b]!)) pair = [a, b];
      const body = await expectRefused(
        app,
        cookie,
        game.id,
        [{ type: 'match', a: pair![0], b: pair![1] }],
        /does not match/,
      );
      expect(body.code).toBe('ERR_NO_MATCH');
    });

    test('an illegal move late in a batch throws the whole batch away', async () => {
      const { app, cookie, game } = await setup();
      const moves = solutionMoves(game);
      const body = await expectRefused(app, cookie, game.id, [...moves.slice(0, 10), moves[3]!], /already removed/);
      expect(body).toMatchObject({ code: 'ERR_REMOVED', index: 10 });
    });

    test('a replayed old move (sent again in a later request)', async () => {
      const { app, cookie, game } = await setup();
      const moves = solutionMoves(game);
      expect((await postMoves(app, cookie, game.id, moves.slice(0, 2))).statusCode).toBe(200);
      await expectRefused(app, cookie, game.id, [moves[0]], /already removed/);
    });

    test('a tile index past the layout', async () => {
      const { app, cookie, game } = await setup();
      await expectRefused(app, cookie, game.id, [{ type: 'match', a: 0, b: 500 }], /no tile 500/);
    });

    test('a tile matched with itself, undo with nothing to undo, redo with nothing to redo', async () => {
      const { app, cookie, game, start } = await setup();
      const [a] = availablePairs(start)[0]!;
      await expectRefused(app, cookie, game.id, [{ type: 'match', a, b: a }], /itself/);
      await expectRefused(app, cookie, game.id, [{ type: 'undo' }], /nothing to undo/);
      await expectRefused(app, cookie, game.id, [{ type: 'redo' }], /nothing to redo/);
    });

    test('a forged win with too few moves is not a win', async () => {
      const { app, cookie, game } = await setup();
      const res = await postMoves(app, cookie, game.id, solutionMoves(game).slice(0, 70));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'playing', left: 4, finishedAt: null, timeMs: null });
      expect(await rowOf(app, game.id)).toMatchObject({ result: null, finished_at: null });
      const stats = await app.inject({ url: '/api/stats', headers: { cookie } });
      expect(stats.json()).toMatchObject({ played: 1, won: 0 });
    });
  });

  describe('schema bounds: 400 before the engine sees anything', () => {
    test.each([
      ['a huge index', [{ type: 'match', a: 0, b: 1e12 }]],
      ['a negative index', [{ type: 'match', a: -1, b: 2 }]],
      ['a fractional index', [{ type: 'match', a: 1.5, b: 2 }]],
      ['a string index', [{ type: 'match', a: '1', b: 2 }]],
      ['an unknown move', [{ type: 'win' }]],
      ['an extra key', [{ type: 'hint', won: true }]],
      ['no moves', []],
      ['501 moves', Array.from({ length: 501 }, () => ({ type: 'hint' }))],
      ['21 shuffles', Array.from({ length: 21 }, () => ({ type: 'shuffle' }))],
      ['not an array', { type: 'hint' }],
    ])('%s', async (_name, moves) => {
      const app = await build();
      const cookie = await newPlayer(app);
      const game = await createGame(app, cookie);
      const res = await postMoves(app, cookie, game.id, moves);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: expect.stringMatching(/^body/), code: 'ERR_VALIDATION' });
      expect((await rowOf(app, game.id)).move_count).toBe(0);
    });

    test('500 moves in one request are accepted', async () => {
      const app = await build();
      const cookie = await newPlayer(app);
      const game = await createGame(app, cookie);
      const res = await postMoves(
        app,
        cookie,
        game.id,
        Array.from({ length: 500 }, () => ({ type: 'hint' })),
      );
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ hints: 500, moves: 500 });
    });
  });

  test("another player's game is 403 and stays as it was", async () => {
    const app = await build();
    const owner = await newPlayer(app);
    const other = await newPlayer(app);
    const game = await createGame(app, owner);
    const res = await postMoves(app, other, game.id, solutionMoves(game));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'this game belongs to another player', code: 'ERR_NOT_YOUR_GAME' });
    expect((await rowOf(app, game.id)).move_count).toBe(0);
  });

  test('a tampered cookie is a new player: 403, not the owner', async () => {
    const app = await build();
    const owner = await newPlayer(app);
    const game = await createGame(app, owner);
    const [, value] = owner.split('=');
    const [id, sig] = value!.split('.');
    const forged = `mj_player=${id!.slice(0, -1)}${id!.endsWith('A') ? 'B' : 'A'}.${sig}`;
    const res = await postMoves(app, forged, game.id, [{ type: 'hint' }]);
    expect(res.statusCode).toBe(403);
    const unsigned = await postMoves(app, `mj_player=${id}`, game.id, [{ type: 'hint' }]);
    expect(unsigned.statusCode).toBe(403);
  });

  test('an unknown game is 404; a malformed id is 400', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const res = await postMoves(app, cookie, 'AAAAAAAAAAAAAAAA', [{ type: 'hint' }]);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'there is no such game', code: 'ERR_GAME_NOT_FOUND' });
    const bad = await postMoves(app, cookie, '..%2F..%2Fetc', [{ type: 'hint' }]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/^params\.id/);
  });

  test('a stuck position is reported as stuck, and undo gets out of it', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    // Greedy play from the last available pair strands some garden deals: find one.
    for (let n = 0; n < 50; n++) {
      const game = await createGame(app, cookie, { layout: 'garden', seed: `stuck-${n}` });
      let state = startOf(game);
      const log: { type: 'match'; a: number; b: number }[] = [];
      for (let pairs = availablePairs(state); pairs.length > 0; pairs = availablePairs(state)) {
        const [a, b] = pairs[pairs.length - 1]!;
        log.push({ type: 'match', a, b });
        const next = replay(game, log);
        if (!next.ok) throw new Error(next.message);
        state = next.value;
      }
      if (state.left === 0) continue;
      const res = await postMoves(app, cookie, game.id, log);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'stuck', left: state.left });
      expect(await rowOf(app, game.id)).toMatchObject({ status: 'stuck', result: null });
      const undo = await postMoves(app, cookie, game.id, [{ type: 'undo' }]);
      expect(undo.json()).toMatchObject({ status: 'playing', undos: 1 });
      return;
    }
    throw new Error('no stuck garden deal found in 50 seeds');
  });

  test('a write by another server process since the cache was filled: the stored log wins', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie);
    const moves = solutionMoves(game);
    await postMoves(app, cookie, game.id, moves.slice(0, 1));
    // Another process appends a move: this process's cached state is now one move behind.
    await query(
      app,
      'UPDATE games SET moves_json = ?, move_count = 2, tiles_left = 140 WHERE id = ?',
      JSON.stringify(moves.slice(0, 2)),
      game.id,
    );
    const res = await postMoves(app, cookie, game.id, moves.slice(2, 3));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ left: 138, moves: 3 });
  });

  test('saveMoves writes only when move_count is what was read (a concurrent writer loses with 409)', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie);
    const save = (expectedCount: number) =>
      app.gamesStore.saveMoves({
        id: game.id, expectedCount, movesJson: '[{"type":"hint"}]', boards: '', moveCount: 1, status: 'playing',
        tilesLeft: 144, hints: 1, checks: 0, checksNo: 0, shuffles: 0, undos: 0, now: Date.now(), won: false, pacedAt: 0, unranked: null, rankedMs: null, dailyDay: null, onTable: false,
    playMs: null,
      }); // prettier-ignore
    expect(await save(0)).toBe(true);
    expect(await save(0)).toBe(false);
  });
});
