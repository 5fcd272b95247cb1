/**
 * Test helpers: `build()` makes an app on a fresh ':memory:' database, awaits
 * ready() and closes it after the test (the demo's `build(t)`).
 *
 * Backends: the `postgres` vitest project (vitest.config.ts) sets MAHJONG_TEST_BACKEND=postgres,
 * and then `build()` gives each app a fresh PostgreSQL database of the run's throwaway cluster instead
 * (test/support/postgres.ts); a file path given as `databasePath` names one database for the test file,
 * so a test that reopens "the same file" reopens the same database. `query()` reads and writes rows on
 * either backend, for the tests that look behind the API.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp, type AppOptions } from '../../src/server/app.ts';
import type { Deal } from '../../src/engine/index.ts';
import { afterEveryFile, afterEveryTest } from '../support/cleanup.ts';
import { freshDatabaseUrl } from '../support/postgres.ts';

/** The backend this run of the file tests: set by the vitest project. */
export const BACKEND: 'sqlite' | 'postgres' = process.env.MAHJONG_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';

const databases = new Map<string, string>(); // databasePath → its PostgreSQL URL, for this file

/**
 * Where an app of this test stores: on SQLite the path as given (default ':memory:'); on PostgreSQL a
 * fresh database for ':memory:', the same one again for a path seen before.
 */
export async function storage(databasePath = ':memory:'): Promise<Pick<AppOptions, 'databasePath' | 'databaseUrl'>> {
  if (BACKEND === 'sqlite') return { databasePath };
  if (databasePath === ':memory:') {
    const reused = spare.pop();
    return { databasePath, databaseUrl: reused ? await emptied(reused) : await freshDatabaseUrl({ migrated: true }) };
  }
  if (!databases.has(databasePath)) databases.set(databasePath, await freshDatabaseUrl({ migrated: true }));
  return { databasePath, databaseUrl: databases.get(databasePath)! };
}

/**
 * Runs one SQL statement on the app's database, either backend: `?` placeholders (turned into $1, $2… for
 * PostgreSQL); returns the rows (none for a statement that returns none). Counts come back as numbers.
 */
export async function query<T = Record<string, unknown>>(
  app: FastifyInstance,
  sql: string,
  ...params: unknown[]
): Promise<T[]> {
  if (app.backend === 'postgres') {
    let n = 0;
    return (
      await app.pg!.query(
        sql.replace(/\?/g, () => `$${++n}`),
        params,
      )
    ).rows as T[];
  }
  const statement = app.db!.prepare(sql);
  if (statement.reader) return statement.all(...params) as T[];
  statement.run(...params);
  return [];
}

const open: FastifyInstance[] = [];
const spare: string[] = []; // PostgreSQL databases of this file whose app closed: emptied and used again
const lent = new Map<FastifyInstance, string>(); // app → the database it was given for ':memory:'
const cleaners = new Map<string, pg.Client>(); // database → a connection that empties it

// Through test/support/cleanup.ts: this module is loaded once per worker and serves every file it runs.
afterEveryTest(async () => {
  await Promise.all(open.splice(0).map((app) => app.close()));
  for (const url of lent.values()) spare.push(url);
  lent.clear();
});

afterEveryFile(async () => {
  await Promise.all([...cleaners.values()].map((client) => client.end()));
  cleaners.clear();
  spare.length = 0;
  databases.clear();
});

/** Empties a database used before (every table but the migrations'): as good as a fresh one, and quicker. */
async function emptied(url: string): Promise<string> {
  let client = cleaners.get(url);
  if (!client) {
    client = new pg.Client({ connectionString: url });
    await client.connect();
    cleaners.set(url, client);
  }
  const tables = await client.query<{ name: string }>(
    "SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations'",
  );
  await client.query(`TRUNCATE ${tables.rows.map((t) => t.name).join(', ')} RESTART IDENTITY CASCADE`);
  return url;
}

export const TEST_SECRET = 'test-secret-test-secret-test-secret-0123';

/** A ready app on a fresh in-memory database (PostgreSQL: a fresh database), closed after the current test. */
export async function build(opts: Partial<AppOptions> = {}): Promise<FastifyInstance> {
  const where = opts.databaseUrl ? { databasePath: opts.databasePath ?? ':memory:' } : await storage(opts.databasePath);
  const app = buildApp({
    cookieSecret: TEST_SECRET,
    logger: false,
    ...opts,
    ...where,
    dealer: { workers: 0, ...opts.dealer }, // deal in process: no worker start per test (ops/worker-pool.test.ts covers the pool)
  });
  open.push(app);
  // A database given for ':memory:' is this test's alone; after it, the next test may have it emptied.
  if (!opts.databaseUrl && where.databasePath === ':memory:' && where.databaseUrl) lent.set(app, where.databaseUrl);
  await app.ready();
  return app;
}

/** Closes the app's database under it (every query then fails), either backend. */
export async function closeDatabase(app: FastifyInstance): Promise<void> {
  if (app.backend === 'postgres') await app.pg!.end();
  else app.db!.close();
}

/** The `Cookie` header that sends back the player cookie a response set. */
export function playerCookie(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === 'mj_player');
  if (!cookie) throw new Error('the response set no player cookie');
  return `mj_player=${cookie.value}`;
}

/** A new player: their cookie, from a first visit. */
export async function newPlayer(app: FastifyInstance): Promise<string> {
  return playerCookie(await app.inject({ method: 'GET', url: '/api/stats' }));
}

export interface Created extends Deal {
  id: string;
}

/** Starts a game for a player; returns the 201 body. */
export async function createGame(
  app: FastifyInstance,
  cookie: string,
  body: Record<string, unknown> = { layout: 'turtle', seed: 'test-seed' },
): Promise<Created> {
  const res = await app.inject({ method: 'POST', url: '/api/games', headers: { cookie }, payload: body });
  if (res.statusCode !== 201) throw new Error(`create game: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** Posts moves to a game. */
export function postMoves(app: FastifyInstance, cookie: string, id: string, moves: unknown, extra: object = {}) {
  return app.inject({
    method: 'POST',
    url: `/api/games/${id}/moves`,
    headers: { cookie },
    payload: { moves, ...extra },
  });
}

/** The deal's solution as match moves. */
export const solutionMoves = (deal: Deal) => deal.solution.map(([a, b]) => ({ type: 'match' as const, a, b }));

/** A clock for `build({ now })` that tests move by hand. */
export function testClock(start: number) {
  let t = start;
  return {
    now: (): number => t,
    advance(ms: number): void {
      t += ms;
    },
    set(ms: number): void {
      t = ms;
    },
  };
}

/**
 * Sends moves as a person's browser does (services/fair-play.ts): the first move alone, then six
 * pairs a batch, each batch saying where it starts, `advance(gapMs)` called before each (the app's
 * clock: a person takes time). Returns the last answer.
 */
export async function playPaced(
  app: FastifyInstance,
  cookie: string,
  id: string,
  moves: readonly unknown[],
  advance: (ms: number) => void,
  gapMs = 4200,
  extra: object = {}, // more keys for every batch (e.g. the page's own clock, playMs)
) {
  const batches = [moves.slice(0, 1)];
  for (let i = 1; i < moves.length; i += 6) batches.push(moves.slice(i, i + 6));
  let at = 0;
  let res: LightMyRequestResponse | undefined;
  for (const batch of batches) {
    advance(gapMs);
    res = await app.inject({
      method: 'POST',
      url: `/api/games/${id}/moves`,
      headers: { cookie },
      payload: { at, moves: batch, ...extra },
    });
    if (res.statusCode !== 200) throw new Error(`paced moves: ${res.statusCode} ${res.body}`);
    at += batch.length;
  }
  return res!;
}
