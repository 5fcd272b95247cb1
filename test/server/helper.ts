/**
 * Test helpers: `build()` makes an app on a fresh ':memory:' database, awaits
 * ready() and closes it after the test (the demo's `build(t)`).
 */
import { afterEach } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppOptions } from '../../src/server/app.ts';
import type { Deal } from '../../src/engine/index.ts';

const open: FastifyInstance[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((app) => app.close()));
});

export const TEST_SECRET = 'test-secret-test-secret-test-secret-0123';

/** A ready app on a fresh in-memory database, closed after the current test. */
export async function build(opts: Partial<AppOptions> = {}): Promise<FastifyInstance> {
  const app = buildApp({
    databasePath: ':memory:',
    cookieSecret: TEST_SECRET,
    logger: false,
    ...opts,
    dealer: { workers: 0, ...opts.dealer }, // deal in process: no worker start per test (worker-pool.test.ts covers the pool)
  });
  open.push(app);
  await app.ready();
  return app;
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
export function postMoves(app: FastifyInstance, cookie: string, id: string, moves: unknown) {
  return app.inject({ method: 'POST', url: `/api/games/${id}/moves`, headers: { cookie }, payload: { moves } });
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
      payload: { at, moves: batch },
    });
    if (res.statusCode !== 200) throw new Error(`paced moves: ${res.statusCode} ${res.body}`);
    at += batch.length;
  }
  return res!;
}
