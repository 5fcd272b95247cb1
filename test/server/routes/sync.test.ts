/**
 * The server's side of the page's sync: move batches that say where they start (`at`) are
 * idempotent by move count, real conflicts answer the server's log, and the limits of play count per
 * player, so many players behind one address never meet them.
 */
import { describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { FLOOD_LIMITS, LIMITS } from '../../../src/server/plugins/security.ts';
import { BACKEND, build, createGame, newPlayer, solutionMoves, query } from '../helper.ts';

const post = (app: FastifyInstance, cookie: string, id: string, payload: unknown, remoteAddress?: string) =>
  app.inject({
    method: 'POST',
    url: `/api/games/${id}/moves`,
    headers: { cookie },
    payload: payload as object,
    remoteAddress,
  });

const rowOf = async (app: FastifyInstance, id: string) =>
  (await query(app, 'SELECT move_count, moves_json, result, finished_at FROM games WHERE id = ?', id))[0] as {
    move_count: number;
    moves_json: string;
    result: string | null;
    finished_at: number | null;
  };

/** A fresh app, a player, and a turtle game of theirs with its solution as moves. */
async function started() {
  const app = await build();
  const cookie = await newPlayer(app);
  const game = await createGame(app, cookie);
  return { app, cookie, game, moves: solutionMoves(game) };
}

describe('batches that say where they start', () => {
  test('a batch sent twice, or again after a newer one, changes nothing and answers the same position', async () => {
    const { app, cookie, game, moves } = await started();

    const first = await post(app, cookie, game.id, { at: 0, moves: moves.slice(0, 3) });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ moves: 3, left: 138 });
    const again = await post(app, cookie, game.id, { at: 0, moves: moves.slice(0, 3) });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());

    const newer = await post(app, cookie, game.id, { at: 3, moves: moves.slice(3, 5) });
    expect(newer.json()).toMatchObject({ moves: 5, left: 134 });
    const late = await post(app, cookie, game.id, { at: 0, moves: moves.slice(0, 3) }); // the lost answer's retry
    expect(late.statusCode).toBe(200);
    expect(late.json()).toMatchObject({ moves: 5, left: 134, log: moves.slice(0, 5) }); // with the moves past it
    // With hints between the moves (counted, not logged) a repeat from further back is still a repeat.
    await post(app, cookie, game.id, { at: 5, moves: [{ type: 'hint' }, moves[5], { type: 'hint' }, moves[6]] });
    const hinted = await post(app, cookie, game.id, { at: 5, moves: [{ type: 'hint' }, moves[5]] });
    expect(hinted.statusCode).toBe(200);
    expect(hinted.json()).toMatchObject({ moves: 9, hints: 2 });
    const other = await post(app, cookie, game.id, { at: 5, moves: [{ type: 'hint' }, moves[7]] });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ code: 'ERR_CONFLICT', moves: 9 });
    expect((await rowOf(app, game.id)).move_count).toBe(9);
  });

  test('a batch that overlaps what the server has sends only the rest', async () => {
    const { app, cookie, game, moves } = await started();
    await post(app, cookie, game.id, { at: 0, moves: moves.slice(0, 4) });
    const res = await post(app, cookie, game.id, {
      at: 2,
      moves: [...moves.slice(2, 4), { type: 'hint' }, ...moves.slice(4, 6)],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ moves: 7, hints: 1, left: 144 - 12 });
    expect(JSON.parse((await rowOf(app, game.id)).moves_json)).toHaveLength(6); // hints are counted, not logged
    expect((await rowOf(app, game.id)).move_count).toBe(7);
  });

  test('the winning batch repeated after the win answers "won" with the same time; nothing is written twice', async () => {
    let clock = 1_000_000;
    const app = await build({ now: () => clock });
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie);
    const moves = solutionMoves(game);
    clock += 60_000;
    const won = await post(app, cookie, game.id, { at: 0, moves });
    expect(won.json()).toMatchObject({ status: 'won', timeMs: 60_000 });
    clock += 5_000;
    const again = await post(app, cookie, game.id, { at: 0, moves });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ status: 'won', timeMs: 60_000, finishedAt: won.json().finishedAt });
    const tail = await post(app, cookie, game.id, { at: moves.length - 2, moves: moves.slice(-2) });
    expect(tail.json()).toMatchObject({ status: 'won', timeMs: 60_000 });
    // A move past the end of a finished game is refused, with the server's log.
    const past = await post(app, cookie, game.id, { at: moves.length, moves: [{ type: 'undo' }] });
    expect(past.statusCode).toBe(409);
    expect(past.json()).toMatchObject({ code: 'ERR_GAME_FINISHED', moves: moves.length });
    expect(past.json().log).toHaveLength(moves.length);
  });

  test('a win answers the best time before it on that layout and mode (null for a first win)', async () => {
    let clock = 5_000_000;
    const app = await build({ now: () => clock });
    const cookie = await newPlayer(app);
    const times: (number | null)[] = [];
    for (const [seed, ms] of [
      ['b1', 90_000],
      ['b2', 60_000],
      ['b3', 75_000],
    ] as const) {
      const game = await createGame(app, cookie, { layout: 'garden', seed });
      clock += ms;
      const won = await post(app, cookie, game.id, { at: 0, moves: solutionMoves(game) });
      expect(won.json()).toMatchObject({ status: 'won', timeMs: ms });
      times.push(won.json().previousBestMs);
    }
    expect(times).toEqual([null, 90_000, 60_000]);
    const classic = await createGame(app, cookie, { layout: 'garden', seed: 'b4', mode: 'classic' });
    const won = await post(app, cookie, classic.id, { at: 0, moves: solutionMoves(classic) });
    expect(won.json().previousBestMs).toBeNull(); // classic is its own record
  });

  test('other moves where the server has some: 409 ERR_CONFLICT with the server log, nothing stored', async () => {
    const { app, cookie, game, moves } = await started();
    await post(app, cookie, game.id, { at: 0, moves: moves.slice(0, 2) }); // tab one
    const other = await post(app, cookie, game.id, { at: 1, moves: [{ type: 'undo' }, { type: 'hint' }] }); // tab two
    expect(other.statusCode).toBe(409);
    expect(other.json()).toEqual({
      error: expect.stringMatching(/another tab or window/),
      code: 'ERR_CONFLICT',
      moves: 2,
      log: moves.slice(0, 2),
    });
    expect((await rowOf(app, game.id)).move_count).toBe(2);
  });

  test('a batch that starts past the stored log: 409 ERR_MOVE_GAP with the count to send from', async () => {
    const { app, cookie, game, moves } = await started();
    const res = await post(app, cookie, game.id, { at: 2, moves: moves.slice(2, 4) });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'ERR_MOVE_GAP', moves: 0, log: [] });
    expect((await rowOf(app, game.id)).move_count).toBe(0);
  });

  test('an illegal move is 409 with the engine code, its index in the batch as sent, and the server log', async () => {
    const { app, cookie, game, moves } = await started();
    await post(app, cookie, game.id, { at: 0, moves: moves.slice(0, 2) });
    const res = await post(app, cookie, game.id, { at: 1, moves: [moves[1], moves[2], moves[0]] });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'ERR_REMOVED', index: 2, moves: 2 });
    expect((await rowOf(app, game.id)).move_count).toBe(2);
  });

  test.each([
    ['negative', -1],
    ['fraction', 1.5],
    ['a string', '3'],
    ['too large', 5001],
  ])('at %s is 400', async (_name, at) => {
    const app = await build();
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie);
    const res = await post(app, cookie, game.id, { at, moves: [{ type: 'hint' }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^body\.at: /);
  });
});

describe('limits of play', () => {
  test('50 players behind one address playing at human pace never meet a limit', async () => {
    const app = await build();
    const address = '203.0.113.7';
    const players = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const cookie = await newPlayer(app);
        const game = await createGame(app, cookie, { layout: 'garden', seed: 'office' });
        return { cookie, game, moves: solutionMoves(game), sent: 0 };
      }),
    );
    // A pair every 6 s, a batch every 8 s or so: two minutes of play is about 15 batches each, all within the
    // limits' one-minute windows here (no clock passes), so this asks more of the limits than real play does.
    const statuses = new Set<number>();
    for (let round = 0; round < 15; round++) {
      for (const p of players) {
        if (p.sent >= p.moves.length) continue;
        const batch = p.moves.slice(p.sent, p.sent + 1);
        const res = await post(app, p.cookie, p.game.id, { at: p.sent, moves: batch }, address);
        statuses.add(res.statusCode);
        p.sent += batch.length;
      }
    }
    expect([...statuses]).toEqual([200]);
  });

  test('one player past the per-player limit gets 429 with Retry-After and the code; the others go on', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const other = await newPlayer(app);
    const game = await createGame(app, cookie);
    const theirs = await createGame(app, other);
    const hint = { moves: [{ type: 'hint' }] };
    for (let i = 0; i < LIMITS.moves.max; i++) expect((await post(app, cookie, game.id, hint)).statusCode).toBe(200);
    const limited = await post(app, cookie, game.id, hint);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: expect.stringMatching(/^too many requests/), code: 'ERR_RATE_LIMITED' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await post(app, other, theirs.id, hint)).statusCode).toBe(200);
  });

  // One backend is enough: this one measures the rate limiter with hundreds of new players, not SQL.
  test.skipIf(BACKEND === 'postgres')(
    'a cookie-less POST is 403; the per-address flood guard stops one address past hundreds of players',
    async () => {
      const app = await build();
      const address = '198.51.100.9';
      // No cookie: a POST is refused before any limit counts it (a new player only on GET).
      const res = await app.inject({
        method: 'POST',
        url: '/api/games',
        payload: { layout: 'garden', seed: 'flood' },
        remoteAddress: address,
      });
      expect(res.statusCode).toBe(403);

      // Players with cookies, all on one address: together they may send FLOOD_LIMITS.moves.max batches a minute.
      const crowd = '198.51.100.10';
      const perPlayer = 50;
      const players = await Promise.all(
        Array.from({ length: FLOOD_LIMITS.moves.max / perPlayer }, async () => {
          const cookie = await newPlayer(app);
          return { cookie, game: await createGame(app, cookie, { layout: 'garden', seed: 'crowd' }) };
        }),
      );
      let refused = 0;
      for (const p of players)
        for (let i = 0; i < perPlayer; i++)
          if ((await post(app, p.cookie, p.game.id, { moves: [{ type: 'hint' }] }, crowd)).statusCode !== 200)
            refused++;
      expect(refused).toBe(0);
      const flood = await post(app, players[0]!.cookie, players[0]!.game.id, { moves: [{ type: 'hint' }] }, crowd);
      expect(flood.statusCode).toBe(429);
      expect(flood.json()).toEqual({
        error: expect.stringMatching(/^too many requests: at most 6000 per minute/),
        code: 'ERR_RATE_LIMITED',
      });
      expect(Number(flood.headers['retry-after'])).toBeGreaterThan(0);
      // Another address is not touched.
      expect(
        (await post(app, players[1]!.cookie, players[1]!.game.id, { moves: [{ type: 'hint' }] }, '198.51.100.11'))
          .statusCode,
      ).toBe(200);
    },
    60_000,
  );
});
