/**
 * What one client can add to the database: hints are counted, not logged
 * (`move_count` still counts every accepted move, hints included); hints and games per day are
 * capped; the database size is on /healthz?detail=1.
 *
 * The daily growth budget (docs/operations.md, "Growth"): the bytes one client (an IPv4 /24) may add in a day, enforced. A client drives every kind of
 * write at its limits (uploads of 1,000-tile layouts, new deals opened, games with heavy logs, new
 * players all along) through a simulated day, until the server refuses with ERR_GROWTH; the SQLite
 * file grew by no more than the budget; a client on another network still writes; a day later the
 * first writes again. What each write costs is measured on both backends in stores/store-contract.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { GAMES_PER_DAY } from '../../../src/server/services/games.ts';
import { MAX_HINTS } from '../../../src/server/services/game-rows.ts';
import { GROWTH_PER_CLIENT } from '../../../src/server/services/growth.ts';
import { bigLayoutMap, BOUNDARY, heavyBatches, multipartFile } from '../../support/heavy.ts';
import { build, createGame, newPlayer, playerCookie, postMoves, solutionMoves } from '../helper.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'mahjong-growth-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const row = (app: Awaited<ReturnType<typeof build>>, id: string) =>
  app.db!.prepare('SELECT moves_json, move_count, hints FROM games WHERE id = ?').get(id) as {
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

describe('the bytes one client may add in a day', () => {
  test(
    'a client at its limits for a simulated day adds at most its budget; others and the next day write',
    { timeout: 120_000 },
    async () => {
      const budget = 3 * 1024 * 1024; // small, so the day's budget is spent in a few simulated minutes
      let clock = Date.UTC(2026, 11, 2, 0, 0, 0);
      const databasePath = path.join(dir, 'day.db');
      const app = await build({ databasePath, now: () => clock, growthPerClient: budget });
      const size = (): number => {
        app.db!.pragma('wal_checkpoint(TRUNCATE)');
        return (
          (app.db!.pragma('page_count', { simple: true }) as number) *
          (app.db!.pragma('page_size', { simple: true }) as number)
        );
      };
      const from = (n: number) => `203.0.113.${n}`; // one client: the /24 (a new address each time does not help)
      const get = async (url: string, cookie: string, n = 1) =>
        app.inject({ url, headers: { cookie }, remoteAddress: from(n) });
      const post = async (url: string, cookie: string, payload: unknown, n = 1) =>
        app.inject({
          method: 'POST',
          url,
          headers: { cookie, 'content-type': 'application/json' },
          payload: JSON.stringify(payload),
          remoteAddress: from(n),
        });
      const player = async (n: number) => playerCookie(await app.inject({ url: '/api/stats', remoteAddress: from(n) }));
      const before = size();
      const refusals = new Map<string, number>(); // what was refused with ERR_GROWTH
      const refused = (what: string, res: { statusCode: number; body: string }): boolean => {
        if (res.statusCode === 429 && res.body.includes('ERR_GROWTH'))
          refusals.set(what, (refusals.get(what) ?? 0) + 1);
        return res.statusCode >= 400;
      };
      let minute = 0;
      for (; minute < 240 && refusals.size < 3; minute++, clock += 60_000) {
        const cookie = await player(minute % 250); // a new player each minute, on a new address of the /24
        if (minute % 2 === 0) {
          const up = await app.inject({
            method: 'POST',
            url: '/layouts',
            headers: { cookie, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
            payload: multipartFile(bigLayoutMap(minute), `big-${minute}.map`),
            remoteAddress: from(minute % 250),
          });
          if (up.statusCode !== 303)
            refused('upload', {
              statusCode: up.statusCode,
              body: up.body.includes('one network may') ? 'ERR_GROWTH' : up.body,
            });
        }
        // New deals up to the client's budget of them (600 an hour), then games on deals it has.
        for (let i = 0; i < 20; i++)
          refused('deal page', await get(`/play/garden/m${minute}-${i}`, cookie, minute % 250));
        const made = await post('/api/games', cookie, { layout: 'turtle', seed: `g${minute % 5}` }, minute % 250);
        if (refused('game', made)) continue;
        const id = (made.json() as { id: string }).id;
        for (const moves of heavyBatches(20, 1000))
          if (refused('moves', await post(`/api/games/${id}/moves`, cookie, { moves }, minute % 250))) break;
      }
      expect([...refusals.keys()].sort()).toEqual(expect.arrayContaining(['game', 'moves']));
      // The rest of the day, hourly from an hour on (the loop's deal pages are out of the new-deals hour): everything
      // that would store is refused, pages still open.
      clock += 3600_000;
      for (; clock < Date.UTC(2026, 11, 2, 23, 0); clock += 3600_000) {
        const cookie = await player(7);
        expect((await get(`/play/garden/late-${clock}`, cookie)).statusCode).toBe(200); // shown, not stored
        const late = await post('/api/games', cookie, { layout: 'garden', seed: `late-${clock}` });
        expect(late.statusCode).toBe(429);
        expect(late.json()).toMatchObject({ code: 'ERR_GROWTH' });
        expect(Number(late.headers['retry-after'])).toBeGreaterThan(0);
      }
      const grown = size() - before;
      console.log(
        `one client's simulated day: ${minute} minutes at its limits, then refused; the file grew ${(grown / 1024).toFixed(0)} KB of a ${budget / 1024} KB budget`,
      );
      expect(grown).toBeLessThanOrEqual(budget);
      expect(grown).toBeGreaterThan(budget / 2); // the client did spend its day
      // Another network still writes; the same client does again once its day has turned.
      const other = playerCookie(await app.inject({ url: '/api/stats', remoteAddress: '198.51.100.4' }));
      const elsewhere = await app.inject({
        method: 'POST',
        url: '/api/games',
        headers: { cookie: other },
        payload: { layout: 'garden', seed: 'elsewhere' },
        remoteAddress: '198.51.100.4',
      });
      expect(elsewhere.statusCode).toBe(201);
      clock = Date.UTC(2026, 11, 3, 1, 0);
      expect((await post('/api/games', await player(3), { layout: 'garden', seed: 'next-day' })).statusCode).toBe(201);
      expect(GROWTH_PER_CLIENT).toBe(64 * 1024 * 1024); // the default, stated in docs/operations.md
    },
  );
});
