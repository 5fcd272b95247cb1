/**
 * Operating a fleet under load (docs/operations.md, "Rolling restart" and "Restarting PostgreSQL or
 * Redis"): three processes of the built server (`dist/server/server.js`, what `npm start` runs) on one
 * PostgreSQL and one Redis, behind haproxy with deploy/haproxy.cfg (test/support/fleet.ts: loopback addresses
 * and checks every 300 ms instead of 2 s), while simulated players play whole games through the page's own
 * sync module (test/support/players.ts): 200 players at a human pace (a pair every 1.5 s on average, so the
 * sync sends a batch every 8 s; three in four on the turtle, one in four on the 36-tile mushroom, so games are
 * won within the test), and a few eager players who keep requests in flight at every instant. In turn:
 *
 * 1. a rolling restart: each process gets SIGTERM, drains (haproxy takes it out on its 503s, not on a refused
 *    connection), closes, exits 0, and the same build starts again on its port; no request of any player
 *    fails;
 * 2. PostgreSQL restarted (`pg_ctl restart -m fast`): players see only 503s with Retry-After, for a few
 *    seconds at most, which the sync retries; no process exits, and all serve again by themselves;
 * 3. PostgreSQL stopped for a moment (a restart slower than the balancer's checks): every `/healthz` says 503,
 *    the balancer takes every process out and answers the same 503 with Retry-After itself, and when it is
 *    back all are ready again by themselves;
 * 4. Redis stopped and started again: limits fall back to per process (`/healthz?detail=1` says degraded)
 *    and back to Redis; no request fails;
 * 5. every move the server acknowledged is in the database, every win answered is stored won.
 *
 * The cluster is the test's own (not the run's shared one: restarting that would break other files). The
 * long version, with 200 players at a human pace and the deploy file's own timings, is `npm run bench:fleet`.
 */
import http from 'node:http';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HAPROXY_MISSING, startFleet, type Fleet } from '../../support/fleet.ts';
import { Crowd, lostMoves, readStoredGames, type Outcome } from '../../support/players.ts';
import { createDatabase, postgresMissing, startPostgres, type RunningPostgres } from '../../support/postgres.ts';
import { REDIS_MISSING, startRedis, type TestRedis } from '../../support/redis.ts';
import { FROM_DIST } from '../process.ts';

const COOKIE_SECRET = 'restart-Secret-0123456789-abcdefghijkLMNOP';
const HUMANS = 200; // a move every PACE_MS on average; the sync sends a batch at most 8 s after a move
const PACE_MS = 1500;
const EAGER = 8; // a request each move, a move every EAGER_PACE_MS: under the 120 move requests a minute one client may send
const EAGER_PACE_MS = 600;
const SHARED_SEEDS = ['shared0', 'shared1', 'shared2', 'shared3'];

const missing = REDIS_MISSING ?? HAPROXY_MISSING ?? postgresMissing();
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ok = (o: Outcome) => o.status >= 200 && o.status < 300;
const describeOutcome = (o: Outcome) =>
  `${o.kind} ${o.status}${o.error ? ` (${o.error})` : ''}${o.by ? ` by ${o.by}` : ''} at +${o.start % 100_000}`;

describe.skipIf(missing !== undefined)('a fleet under load: rolling restart, PostgreSQL restart, Redis restart', () => {
  let postgres: RunningPostgres | undefined;
  let redis: TestRedis | undefined;
  let fleet: Fleet | undefined;
  let crowd: Crowd | undefined;
  let databaseUrl: string;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: 10_000 });
  const outcomes: Outcome[] = [];
  const since = (t: number) => outcomes.filter((o) => o.start >= t);

  beforeAll(async () => {
    if (!existsSync(path.join(import.meta.dirname, '../../../dist/server/server.js')))
      throw new Error('dist/ is missing: run `npm run build` first (`npm test` does)');
    postgres = await startPostgres();
    databaseUrl = await createDatabase(postgres.url);
    redis = await startRedis();
    fleet = await startFleet({
      size: 3,
      databasePath: '/nonexistent/unused.db', // every process is on PostgreSQL
      nodeArgs: FROM_DIST,
      env: { COOKIE_SECRET, REDIS_URL: redis.url, TRUST_PROXY: 'loopback', DATABASE_URL: databaseUrl },
    });
    const opts = { base: fleet.base, agent, sharedSeeds: SHARED_SEEDS, onOutcome: (o: Outcome) => outcomes.push(o) };
    crowd = new Crowd({ ...opts, paceMs: PACE_MS });
    const small = HUMANS / 4;
    crowd.add(HUMANS - small, 4000);
    crowd.add(small, 4000, { layout: 'mushroom' });
    crowd.add(EAGER, 0, { eager: true, paceMs: EAGER_PACE_MS, layout: 'mushroom' }); // 36 tiles: wins within the test
    await pause(5000); // everyone is playing
  }, 90_000);

  afterAll(async () => {
    await crowd?.stop();
    agent.destroy();
    await fleet?.stop();
    await redis?.stop();
    await postgres?.stop();
  });

  test('a rolling restart, each process in turn, fails no request', { timeout: 180_000 }, async () => {
    const { names } = fleet!;
    const from = Date.now();
    for (let i = 0; i < names.length; i++) {
      const old = fleet!.apps[i]!;
      const { exited } = await fleet!.restart(i);
      expect(exited).toEqual({ code: 0, signal: null });
      // It drained first: it said so, and the balancer took it out on its 503s (Layer 7), not on a refused connection.
      expect(old.logs.some((l) => l.msg.startsWith('draining'))).toBe(true);
      expect(fleet!.balancerLog()).toMatch(
        new RegExp(`Server app/${names[i]} is DOWN, reason: Layer7 wrong status, code: 503`),
      );
      expect(old.logs.filter((l) => l.level >= 50).map((l) => l.msg)).toEqual([]);
    }
    await pause(1000);
    const during = since(from);
    expect(during.filter((o) => !ok(o)).map(describeOutcome)).toEqual([]);
    expect(during.length).toBeGreaterThan(100);
    // The restarted processes serve (each seen answering through the balancer).
    const after = Date.now();
    const deadline = after + 20_000;
    while (new Set(since(after).map((o) => o.by)).size < names.length) {
      expect(Date.now()).toBeLessThan(deadline);
      await pause(200);
    }
    expect(new Set(since(after).map((o) => o.by))).toEqual(new Set(names));
  });

  /** Waits until the balancer has every process UP again. */
  async function allUp(): Promise<void> {
    const deadline = Date.now() + 30_000;
    while (Object.values(await fleet!.state()).some((s) => s !== 'UP')) {
      expect(Date.now()).toBeLessThan(deadline);
      await pause(100);
    }
  }

  /** The failures since `from`: only 503s with Retry-After, within `withinMs`; play goes on after them. */
  async function only503s(from: number, withinMs: number): Promise<Outcome[]> {
    const lastFailure = () =>
      Math.max(
        from,
        ...since(from)
          .filter((o) => !ok(o))
          .map((o) => o.start),
      );
    const deadline = Date.now() + 20_000;
    while (since(lastFailure()).filter((o) => ok(o) && o.kind === 'moves').length <= 10) {
      expect(Date.now()).toBeLessThan(deadline);
      await pause(200);
    }
    const during = since(from);
    const failed = during.filter((o) => !ok(o));
    expect(failed.filter((o) => o.status !== 503 || o.retryAfter === null).map(describeOutcome)).toEqual([]);
    if (failed.length > 0) {
      const span = Math.max(...failed.map((o) => o.start)) - Math.min(...failed.map((o) => o.start));
      expect(span).toBeLessThan(withinMs);
    }
    // The apps told the outage from a bug: no 500s.
    for (const app of fleet!.apps)
      expect(app.logs.filter((l) => l.msg === 'request failed').map((l) => l.err)).toEqual([]);
    return failed;
  }

  test(
    'PostgreSQL restarted (pg_ctl restart -m fast): at most a few seconds of 503s with Retry-After, retried; no process exits',
    { timeout: 90_000 },
    async () => {
      const from = Date.now();
      await postgres!.restart();
      await allUp(); // every process ready again by itself
      await only503s(from, 10_000);
      for (const app of fleet!.apps) expect(app.child.exitCode).toBeNull();
    },
  );

  test(
    'PostgreSQL away for a moment: /healthz says not ready, the balancer answers 503 with Retry-After itself, all recover',
    { timeout: 90_000 },
    async () => {
      const { apps } = fleet!;
      const from = Date.now();
      const health = () =>
        Promise.all(
          apps.map(
            async (app) => (await (await fetch(`${app.base}/healthz`)).json()) as { ok: boolean; error?: string },
          ),
        );
      await postgres!.down(async () => {
        // Every process says so on /healthz, and the balancer takes them all out.
        const deadline = Date.now() + 30_000;
        while (!(await health()).every((h) => !h.ok && h.error === 'the database does not answer')) {
          expect(Date.now()).toBeLessThan(deadline);
          await pause(100);
        }
        while (Object.values(await fleet!.state()).some((s) => !s.startsWith('DOWN'))) {
          expect(Date.now()).toBeLessThan(deadline);
          await pause(100);
        }
        // Players meet the balancer's own 503.
        const fromBalancer = (o: Outcome) => o.status === 503 && o.by === null;
        while (!since(from).some(fromBalancer)) {
          expect(Date.now()).toBeLessThan(deadline);
          await pause(100);
        }
      });
      await allUp();
      expect(await health()).toEqual(apps.map(() => ({ ok: true })));
      const failed = await only503s(from, 30_000);
      expect(failed.some((o) => o.by === null && /ERR_UNAVAILABLE|Back in a moment/.test(o.error ?? ''))).toBe(true);
      for (const app of apps) expect(app.child.exitCode).toBeNull();
    },
  );

  test(
    'Redis stopped and started again: limits per process meanwhile, no request fails',
    { timeout: 60_000 },
    async () => {
      const { apps } = fleet!;
      const from = Date.now();
      const limits = async () =>
        Promise.all(
          apps.map(async (app) => {
            const detail = (await (await fetch(`${app.base}/healthz?detail=1`)).json()) as {
              ok: boolean;
              limits: { store: string };
              degraded?: string[];
            };
            return detail;
          }),
        );
      await redis!.kill('SIGTERM');
      let deadline = Date.now() + 10_000;
      for (;;) {
        const details = await limits();
        if (details.every((d) => d.limits.store === 'process')) {
          for (const d of details) {
            expect(d.ok).toBe(true); // degraded, not down: the balancer keeps every process
            expect(d.degraded?.[0]).toMatch(/^limits are per process/);
          }
          break;
        }
        expect(Date.now()).toBeLessThan(deadline);
        await pause(100);
      }
      await pause(1000); // play on per-process limits
      await redis!.restart();
      deadline = Date.now() + 10_000;
      while (!(await limits()).every((d) => d.limits.store === 'redis' && d.degraded === undefined)) {
        expect(Date.now()).toBeLessThan(deadline);
        await pause(100);
      }
      await pause(1000);
      expect(
        since(from)
          .filter((o) => !ok(o))
          .map(describeOutcome),
      ).toEqual([]);
      for (const app of apps) expect(app.child.exitCode).toBeNull();
    },
  );

  test('every acknowledged move and win is in the database', { timeout: 30_000 }, async () => {
    await crowd!.stop();
    const games = crowd!.games();
    const lost = lostMoves(games, await readStoredGames(databaseUrl));
    expect(lost.details).toEqual([]);
    expect(lost).toMatchObject({ moves: 0, wins: 0, games: 0 });
    expect(lost.acknowledged).toBeGreaterThan(500);
    expect(games.filter((g) => g.won).length).toBeGreaterThan(0);
    expect(games.reduce((n, g) => n + g.conflicts, 0)).toBe(0);
  });
});
