/**
 * Win forgery: a client cannot record a win it did not play legally, cannot finish
 * faster than the server saw, and cannot touch another player's game. Every refusal stores
 * nothing; every time is the server's clock.
 */
import { describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { build, createGame, newPlayer, playPaced, postMoves, solutionMoves, query, testClock } from '../helper.ts';

const rowOf = async (app: FastifyInstance, id: string) =>
  (await query(app, 'SELECT status, result, move_count, started_at, finished_at FROM games WHERE id = ?', id))[0] as {
    status: string;
    result: string | null;
    move_count: number;
    started_at: number;
    finished_at: number | null;
  };

const wins = async (app: FastifyInstance): Promise<number> =>
  ((await query(app, "SELECT COUNT(*) AS n FROM games WHERE result = 'won'"))[0] as { n: number }).n;

describe('a win must be played legally', () => {
  test.each([
    ['the solution of another deal', 'other'],
    ['the right pairs in the wrong order', 'reversed'],
    ['every pair but one, then the last pair twice', 'repeat'],
    ['the solution with one pair swapped for a non-matching pair', 'swap'],
  ])('%s → 409, nothing stored', async (_label, how) => {
    const app = await build();
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie, { layout: 'turtle', seed: 'forge' });
    const right = solutionMoves(game);
    let forged = right;
    if (how === 'other') forged = solutionMoves(await createGame(app, cookie, { layout: 'turtle', seed: 'other' }));
    if (how === 'reversed') forged = [...right].reverse();
    if (how === 'repeat') forged = [...right.slice(0, -1), right[right.length - 2]!];
    if (how === 'swap') {
      const [first, second] = right;
      forged = [{ type: 'match', a: first!.a, b: second!.a }, ...right.slice(1)];
    }
    const res = await postMoves(app, cookie, game.id, forged);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      error: expect.any(String),
      code: expect.stringMatching(/^ERR_/),
      index: expect.any(Number),
    });
    expect(await rowOf(app, game.id)).toMatchObject({
      status: 'playing',
      result: null,
      move_count: 0,
      finished_at: null,
    });
    expect(await wins(app)).toBe(0);
  });

  test('a client cannot claim a status, a time or a result: unknown keys are 400', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie);
    for (const extra of [
      { status: 'won' },
      { timeMs: 1 },
      { finishedAt: 0 },
      { startedAt: 0 },
      { result: 'won' },
      { left: 0 },
    ]) {
      const res = await app.inject({
        method: 'POST',
        url: `/api/games/${game.id}/moves`,
        headers: { cookie },
        payload: { moves: [{ type: 'hint' }], ...extra },
      });
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
    }
    const create = await app.inject({
      method: 'POST', url: '/api/games', headers: { cookie }, payload: { layout: 'turtle', seed: 'x', startedAt: 0 },
    }); // prettier-ignore
    expect(create.statusCode).toBe(400);
    expect(await rowOf(app, game.id)).toMatchObject({ move_count: 0, result: null });
  });

  test('a won game takes no more moves, so a win cannot be replayed for a better time', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie);
    expect((await postMoves(app, cookie, game.id, solutionMoves(game))).json().status).toBe('won');
    const finished = await rowOf(app, game.id);
    for (const moves of [[{ type: 'undo' }], solutionMoves(game), [{ type: 'redo' }]]) {
      const res = await postMoves(app, cookie, game.id, moves);
      expect(res.statusCode).toBe(409);
    }
    expect(await rowOf(app, game.id)).toEqual(finished);
  });
});

describe('times are the server clock', () => {
  test('a whole game posted 1 ms after creation records 1 ms: what the server saw, nothing the client said', async () => {
    let clock = 1_750_000_000_000;
    const app = await build({ now: () => clock });
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie);
    clock += 1;
    const res = await postMoves(app, cookie, game.id, solutionMoves(game));
    expect(res.json()).toMatchObject({
      status: 'won',
      startedAt: 1_750_000_000_000,
      finishedAt: 1_750_000_000_001,
      timeMs: 1,
    });
    expect(await rowOf(app, game.id)).toMatchObject({ started_at: 1_750_000_000_000, finished_at: 1_750_000_000_001 });
    const stats = (await app.inject({ url: '/api/stats', headers: { cookie } })).json();
    expect(stats.history[0].timeMs).toBe(1);
  });

  test('on the real clock: the start is when the server created the game, the finish when it stored the win', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const before = Date.now();
    const game = await createGame(app, cookie);
    const between = Date.now();
    const res = await postMoves(app, cookie, game.id, solutionMoves(game));
    const after = Date.now();
    const body = res.json();
    expect(body.startedAt).toBeGreaterThanOrEqual(before);
    expect(body.startedAt).toBeLessThanOrEqual(between);
    expect(body.finishedAt).toBeGreaterThanOrEqual(body.startedAt);
    expect(body.finishedAt).toBeLessThanOrEqual(after);
    expect(body.timeMs).toBe(body.finishedAt - body.startedAt);
  });

  test('a game started long ago keeps its start: a new batch cannot reset the clock', async () => {
    let clock = 1_750_000_000_000;
    const app = await build({ now: () => clock });
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie);
    const moves = solutionMoves(game);
    clock += 60_000;
    await postMoves(app, cookie, game.id, moves.slice(0, 10));
    clock += 60_000;
    const res = await postMoves(app, cookie, game.id, moves.slice(10));
    expect(res.json()).toMatchObject({ status: 'won', timeMs: 120_000 });
  });
});

describe('your time is the player\'s word, for their own eyes only (docs/fair-play.md, "Two clocks")', () => {
  test.each([-1, 1.5, 100 * 3_600_000 + 1, '60000', null])(
    'playMs %j is refused with a 400, nothing stored',
    async (playMs) => {
      const app = await build();
      const cookie = await newPlayer(app);
      const game = await createGame(app, cookie);
      const res = await postMoves(app, cookie, game.id, solutionMoves(game).slice(0, 1), { playMs });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'ERR_VALIDATION' });
      expect(await rowOf(app, game.id)).toMatchObject({ move_count: 0 });
    },
  );

  test("a forged 1 ms changes that player's own time only: the ranked time, the record and others stay the server's", async () => {
    const clock = testClock(Date.UTC(2026, 11, 1, 10));
    const app = await build({ now: clock.now });
    const honest = await newPlayer(app);
    const forger = await newPlayer(app);
    const record = async () =>
      ((await app.inject({ url: '/play/turtle/forged-clock', headers: { cookie: honest } })).body.match(
        /<details id="deal-stats"[\s\S]*?<\/details>/,
      ) ?? [''])[0];
    const honestGame = await createGame(app, honest, { layout: 'turtle', seed: 'forged-clock' });
    await playPaced(app, honest, honestGame.id, solutionMoves(honestGame), clock.advance, 4200, { playMs: 200_000 });
    const forgedGame = await createGame(app, forger, { layout: 'turtle', seed: 'forged-clock' });
    const won = await playPaced(app, forger, forgedGame.id, solutionMoves(forgedGame), clock.advance, 4200, {
      playMs: 1,
    });
    const answer = won.json();
    expect(answer).toMatchObject({ status: 'won', ranked: true, playMs: 1 });
    expect(answer.timeMs).toBeGreaterThanOrEqual((72 - 6) * 700); // the ranked time is the server's clock
    const [row] = (await query(app, 'SELECT ranked_ms, play_ms, own_ms FROM games WHERE id = ?', forgedGame.id)) as {
      ranked_ms: number;
      play_ms: number;
      own_ms: number;
    }[];
    expect(row).toEqual({ ranked_ms: answer.timeMs, play_ms: 1, own_ms: 1 });
    // The deal's record ranks the server's times: the forger's 0:00 is nowhere on it.
    const [honestRow] = (await query(app, 'SELECT ranked_ms FROM games WHERE id = ?', honestGame.id)) as {
      ranked_ms: number;
    }[];
    const ranked = [answer.timeMs, honestRow!.ranked_ms].sort((x, y) => x - y);
    expect(answer.record.best.map((line: { timeMs: number }) => line.timeMs)).toEqual(ranked);
    expect(await record()).not.toContain('>0:00<');
    // Only the forger's own stats show 1 ms; the honest player's show their own clock.
    const mine = (await app.inject({ url: '/api/stats', headers: { cookie: forger } })).json();
    expect(mine.history[0]).toMatchObject({ timeMs: 1, rankedMs: answer.timeMs });
    const theirs = (await app.inject({ url: '/api/stats', headers: { cookie: honest } })).json();
    expect(theirs.history[0]).toMatchObject({ timeMs: 200_000 });
    expect(theirs.byLayout.turtle.bestMs).toBe(200_000);
  });
});

describe("another player's game", () => {
  test('cannot be played, finished, or seen: 403 for moves, a fresh board on the page, absent from their stats', async () => {
    let clock = 1_750_000_000_000;
    const app = await build({ now: () => clock });
    const owner = await newPlayer(app);
    const other = await newPlayer(app);
    const game = await createGame(app, owner, { layout: 'turtle', seed: 'mine' });
    const moves = solutionMoves(game);
    await postMoves(app, owner, game.id, moves.slice(0, 5));
    const before = await rowOf(app, game.id);
    clock += 1000;

    for (const batch of [[{ type: 'undo' }], moves.slice(5), [{ type: 'hint' }]]) {
      const res = await postMoves(app, other, game.id, batch);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'this game belongs to another player', code: 'ERR_NOT_YOUR_GAME' });
    }
    expect(await rowOf(app, game.id)).toEqual(before);

    const page = await app.inject({ url: '/play/turtle/mine', headers: { cookie: other } });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain(game.id);
    expect(page.body).toContain('"game":null');
    const stats = (await app.inject({ url: '/api/stats', headers: { cookie: other } })).json();
    expect(stats.played).toBe(0);

    // The owner finishes it as if nothing happened.
    const res = await postMoves(app, owner, game.id, moves.slice(5));
    expect(res.json()).toMatchObject({ status: 'won', timeMs: 1000 });
  });
});
