/**
 * A database that cannot store (a full disk, a read-only file: docs/operations.md, "Health") answers every write
 * 503 `ERR_UNAVAILABLE` with Retry-After, in the shape of the route family (JSON under /api/, the error page
 * elsewhere), never a 500 "our bug"; `/healthz` says 503 too, and once the fault is gone writes go through again.
 * SQLite makes the faults for real (a page cap makes it full, `query_only` makes it read-only); PostgreSQL's codes
 * (53100 disk full, 25006 read-only) are thrown by the store, since its cluster is shared by the run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, test } from 'vitest';
import { STORAGE_RETRY_S } from '../../../src/server/errors.ts';
import { build, createGame, newPlayer } from '../helper.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'mahjong-faults-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const newGame = (app: FastifyInstance, cookie: string, seed: string) =>
  app.inject({ method: 'POST', url: '/api/games', headers: { cookie }, payload: { layout: 'turtle', seed } });

/** A page's form post that writes: a replay link of a game (a row in `replays`). */
const shareReplay = (app: FastifyInstance, cookie: string, game: string) =>
  app.inject({
    method: 'POST',
    url: '/replay',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    payload: `game=${game}`,
  });

function expectUnavailable(res: LightMyRequestResponse, kind: 'api' | 'page'): void {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(503);
  expect(res.headers['retry-after']).toBe(String(STORAGE_RETRY_S));
  if (kind === 'api') {
    expect(res.json()).toMatchObject({ code: 'ERR_UNAVAILABLE' });
    expect(res.json().error).toMatch(/cannot store anything just now/);
    expect(res.json().error).not.toMatch(/our side/);
  } else {
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toMatch(/database cannot store anything just now/);
    expect(res.body).not.toMatch(/something went wrong on our side/);
  }
}

describe('a database that cannot store answers 503 with Retry-After', () => {
  test.each([
    ['full (SQLITE_FULL: a page cap at its size)', 'full'],
    ['read-only (SQLITE_READONLY)', 'readonly'],
  ] as const)('%s', async (_, fault) => {
    const app = await build({ databasePath: path.join(dir, `${fault}.db`), dealer: { workers: 0 } });
    const cookie = await newPlayer(app);
    const games: string[] = []; // games to share while the fault lasts: each share writes a row
    for (let i = 0; i < 5; i++) games.push((await createGame(app, cookie, { layout: 'turtle', seed: `g${i}` })).id);
    const db = app.db!;
    const pages = db.pragma('page_count', { simple: true }) as number;
    if (fault === 'full') {
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    } else db.pragma('query_only = 1');

    // Enough new games to need a new page at least once (a full database takes what fits in its free space).
    let api: LightMyRequestResponse | undefined;
    for (let i = 0; i < 200 && api?.statusCode !== 503; i++) {
      api = await newGame(app, cookie, `fault-${i}`);
      expect(api.statusCode, api.body.slice(0, 300)).not.toBe(500);
    }
    expectUnavailable(api!, 'api');
    let page: LightMyRequestResponse | undefined;
    for (const id of games) {
      page = await shareReplay(app, cookie, id);
      expect(page.statusCode, page.body.slice(0, 300)).not.toBe(500);
      if (page.statusCode === 503) break;
    }
    // A page that stores a new deal when it shows one (a full database takes what fits in its free pages).
    for (let i = 0; i < 50 && page?.statusCode !== 503; i++) {
      page = await app.inject({ url: `/play/turtle/page-${i}`, headers: { cookie } });
      expect(page.statusCode, page.body.slice(0, 300)).not.toBe(500);
    }
    expectUnavailable(page!, 'page');
    const health = await app.inject({ url: '/healthz' });
    expect(health.statusCode).toBe(503);

    // The fault lifted (space freed, the file writable again): writes go through at once.
    if (fault === 'full') db.pragma(`max_page_count = ${pages * 1000}`);
    else db.pragma('query_only = 0');
    expect((await newGame(app, cookie, 'after')).statusCode).toBe(201);
  });

  test.each([
    ['53100', 'PostgreSQL: disk full'],
    ['25006', 'PostgreSQL: read-only transaction'],
    ['SQLITE_IOERR_WRITE', 'SQLite: an I/O error'],
  ])('%s (%s)', async (code) => {
    const app = await build({ dealer: { workers: 0 } });
    const cookie = await newPlayer(app);
    const repo = app.gamesStore;
    const create = repo.create;
    repo.create = () => Promise.reject(Object.assign(new Error('could not extend file'), { code }));
    try {
      expectUnavailable(await newGame(app, cookie, 'fault'), 'api');
    } finally {
      repo.create = create;
    }
    expect((await newGame(app, cookie, 'after')).statusCode).toBe(201);
  });

  test('any other failure is still our bug: 500 without Retry-After', async () => {
    const app = await build({ dealer: { workers: 0 } });
    const cookie = await newPlayer(app);
    const repo = app.gamesStore;
    repo.create = () => Promise.reject(Object.assign(new Error('a bug'), { code: 'SQLITE_CONSTRAINT_CHECK' }));
    const res = await newGame(app, cookie, 'bug');
    expect(res.statusCode).toBe(500);
    expect(res.headers['retry-after']).toBeUndefined();
  });
});
