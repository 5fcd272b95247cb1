/**
 * A page view without a player cookie writes nothing: a crawler, a link preview or a
 * balancer's probe costs reads only. 1,200 cookieless views of every kind of page (a shared deal, new
 * deals from many networks, the "new game" redirect, today's and a past daily deal, a custom layout, the
 * home, stats and layout pages, replays of a finished game and of one in progress) leave the database
 * exactly as it was: on SQLite the file and its WAL keep
 * their size, and on both backends every table keeps its rows, byte for byte (a hash of each table's
 * content). Before the page stopped writing, each of these views stored a view row (and each new seed a deal).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, expect, test } from 'vitest';
import { BACKEND, build, createGame, newPlayer, postMoves, query, solutionMoves } from '../helper.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'mahjong-views-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every table's rows, hashed: any insert, update or delete changes it. */
async function contents(app: FastifyInstance): Promise<Record<string, string>> {
  const tables =
    app.backend === 'postgres'
      ? (await query<{ name: string }>(app, "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'")).map(
          (r) => r.name,
        )
      : (
          await query<{ name: string }>(
            app,
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
          )
        ).map((r) => r.name);
  const out: Record<string, string> = {};
  for (const table of tables.sort()) {
    const rows = await query(app, `SELECT * FROM ${table}`);
    const text = rows.map((r) => JSON.stringify(r)).sort();
    out[table] = `${rows.length} rows ${createHash('sha256').update(text.join('\n')).digest('hex').slice(0, 16)}`;
  }
  return out;
}

/** SQLite's file and WAL sizes, in bytes. */
function fileSizes(databasePath: string): { db: number; wal: number } {
  const size = (file: string): number => {
    try {
      return statSync(file).size;
    } catch {
      return 0;
    }
  };
  return { db: size(databasePath), wal: size(`${databasePath}-wal`) };
}

test('1,200 page views without a cookie leave the database as it was', { timeout: 120_000 }, async () => {
  const databasePath = path.join(dir, 'views.db');
  // Hundreds of costly pages (replays) a second: more than the process's share of each second for them.
  const app = await build({ databasePath, now: () => Date.UTC(2026, 11, 10, 12), cpu: { processPerWindowMs: 60_000 } });
  // Things to look at: a shared deal someone played, a custom layout, a player's daily game.
  const cookie = await newPlayer(app);
  await createGame(app, cookie, { layout: 'turtle', seed: 'shared' });
  // Replays: of a finished game (its review kept when the link was made) and of a game in progress.
  const replayOf = async (seed: string, pairs: number): Promise<string> => {
    const game = await createGame(app, cookie, { layout: 'garden', seed });
    const moves = solutionMoves(game).slice(0, pairs);
    expect((await postMoves(app, cookie, game.id, moves)).statusCode).toBe(200);
    return (await app.inject({ method: 'POST', url: `/api/games/${game.id}/replay`, headers: { cookie } })).json()
      .url as string;
  };
  const finished = await replayOf('replayed', 20);
  const going = await replayOf('replaying', 5);
  const upload = await app.inject({
    method: 'POST',
    url: '/layouts',
    headers: { cookie, 'content-type': 'multipart/form-data; boundary=XyZ' },
    payload:
      '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="row.map"\r\n\r\n' +
      '<mahjongg><map name="Row"><tile x="0" y="0" z="0"/><tile x="1" y="0" z="0"/><tile x="2" y="0" z="0"/><tile x="3" y="0" z="0"/></map></mahjongg>\r\n--XyZ--\r\n',
  });
  expect(upload.statusCode).toBe(303);
  const custom = String(upload.headers.location).replace('/layouts/', '');
  await new Promise((r) => setTimeout(r, 200)); // the pruner's first run at start is done
  const before = await contents(app);
  const sizes = BACKEND === 'sqlite' ? fileSizes(databasePath) : undefined;

  const urls: string[] = [];
  for (let i = 0; i < 100; i++)
    urls.push(
      '/play/turtle/shared',
      '/play/turtle/shared?mode=classic',
      `/play/garden/new-${i}`, // a new deal: made and shown, not stored
      `/play/${custom}/seed-${i}`,
      '/play/turtle', // the "new game" redirect
      '/daily',
      '/daily/2026-12-05', // a past daily: made and shown, not stored
      `/layouts/${custom}`,
      '/',
      '/stats',
      `${finished}?move=${i % 21}`,
      `${going}?move=${i % 6}`,
    );
  const statuses = new Map<number, number>();
  for (const [i, url] of urls.entries()) {
    // New deals come from many networks (each has its own budget of new deals), as a crawl would.
    const res = await app.inject({ url, remoteAddress: `10.${i % 200}.0.1` });
    statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBeLessThan(400);
  }
  expect(urls).toHaveLength(1200);
  expect(statuses.get(302)).toBe(100);
  expect(await contents(app)).toEqual(before);
  if (sizes) expect(fileSizes(databasePath)).toEqual(sizes);

  // The same pages with a cookie do write: the views, the new deals (what the player is shown is kept).
  await app.inject({ url: '/play/garden/new-1', headers: { cookie } });
  expect(await contents(app)).not.toEqual(before);
});
