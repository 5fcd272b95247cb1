/**
 * What one client can add to the database (issue 9, item 6): hints are counted, not logged
 * (`move_count` still counts every accepted move, hints included); hints and games per day are
 * capped; the database size is on /healthz?detail=1.
 */
import { describe, expect, test } from 'vitest';
import { GAMES_PER_DAY, MAX_HINTS } from '../../src/server/services/games.ts';
import { build, createGame, newPlayer, postMoves, solutionMoves } from './helper.ts';

const row = (app: Awaited<ReturnType<typeof build>>, id: string) =>
  app.db.prepare('SELECT moves_json, move_count, hints FROM games WHERE id = ?').get(id) as {
    moves_json: string;
    move_count: number;
    hints: number;
  };

describe('hints', () => {
  test('counted, not logged; move_count counts every accepted move, hints included', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie);
    const [m1, m2] = solutionMoves(game);
    const res = await postMoves(app, cookie, game.id, [{ type: 'hint' }, m1, { type: 'hint' }, { type: 'hint' }, m2]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ hints: 3, moves: 5, left: 140 });
    const stored = row(app, game.id);
    expect(JSON.parse(stored.moves_json)).toEqual([m1, m2]);
    expect(stored).toMatchObject({ move_count: 5, hints: 3 });
    // A later batch, also after the cache let the game go (a second app on the same rows would do the same).
    const more = await postMoves(app, cookie, game.id, [{ type: 'hint' }]);
    expect(more.json()).toMatchObject({ hints: 4, moves: 6 });
  });

  test(`hint spam: at most ${MAX_HINTS} a game (409), and the log does not grow`, async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie);
    for (let i = 0; i < MAX_HINTS / 500; i++)
      expect((await postMoves(app, cookie, game.id, Array(500).fill({ type: 'hint' }))).statusCode).toBe(200);
    const refused = await postMoves(app, cookie, game.id, [{ type: 'hint' }]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(/at most \d+ hints/);
    expect(row(app, game.id)).toMatchObject({ moves_json: '[]', hints: MAX_HINTS, move_count: MAX_HINTS });
  });
});

describe('games per player per day', () => {
  test('past the cap a new game is 429 with Retry-After until the next UTC day', async () => {
    let clock = Date.UTC(2026, 0, 1, 23, 0, 0);
    const app = await build({ now: () => clock, gamesPerDay: 3 });
    const cookie = await newPlayer(app);
    for (let i = 0; i < 3; i++) await createGame(app, cookie, { layout: 'garden', seed: `d${i}` });
    const refused = await app.inject({
      method: 'POST',
      url: '/api/games',
      headers: { cookie },
      payload: { layout: 'garden', seed: 'd9' },
    });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBe(3600);
    expect(refused.json().error).toMatch(/at most 3 new games a day/);
    clock += 3600_000;
    await createGame(app, cookie, { layout: 'garden', seed: 'd9' });
    expect(GAMES_PER_DAY).toBeGreaterThanOrEqual(100);
  });
});
