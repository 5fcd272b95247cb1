/**
 * Limits shared through Redis (REDIS_URL, plugins/counters.ts): two app instances on one
 * throwaway redis-server (test/support/redis.ts) count one limit together; with Redis killed they go
 * on serving with per-process limits, say so once in the log and on /healthz?detail=1; with Redis
 * back they share again.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { LIMITS } from '../../../src/server/plugins/security.ts';
import { freePort } from '../../support/ports.ts';
import { REDIS_MISSING, startRedis, type TestRedis } from '../../support/redis.ts';
import { build } from '../helper.ts';

interface Line {
  level: number;
  msg: string;
}

/** An app on Redis whose log lines are kept. */
async function appOn(url: string, extra: Parameters<typeof build>[0] = {}) {
  const lines: Line[] = [];
  const app = await build({
    redisUrl: url,
    logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line) as Line) } },
    ...extra,
  });
  return { app, lines };
}

const stats = (app: FastifyInstance, remoteAddress: string) => app.inject({ url: '/api/stats', remoteAddress });

/** Waits until the app counts in Redis (true) or per process (false), up to 10 s. */
async function until(app: FastifyInstance, inRedis: boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((app.countersState().store === 'redis') !== inRedis) {
    if (Date.now() > deadline) throw new Error(`the app never counted ${inRedis ? 'in Redis' : 'per process'}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(REDIS_MISSING !== undefined)('limits shared through Redis', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  test('two app instances on one Redis: the N+1th request over both is 429 with the usual body', async () => {
    const [a, b] = await Promise.all([appOn(redis.url), appOn(redis.url)]);
    expect(a.app.countersState().store).toBe('redis'); // the app waited for Redis before serving
    const max = LIMITS.stats.max;
    for (let i = 0; i < max; i++) expect((await stats(i % 2 ? a.app : b.app, '198.51.100.7')).statusCode).toBe(200);
    for (const app of [a.app, b.app]) {
      const over = await stats(app, '198.51.100.7');
      expect(over.statusCode).toBe(429);
      expect(over.json()).toMatchObject({
        code: 'ERR_RATE_LIMITED',
        error: expect.stringMatching(/^too many requests/),
      });
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect((await stats(a.app, '198.51.100.8')).statusCode).toBe(200); // another client has its own count
  });

  test('the new-deal budget is one budget over both instances', async () => {
    const newDeals = { perMinute: 3, perHour: 100, globalPerMinute: 100 };
    const [a, b] = await Promise.all([
      appOn(redis.url, { dealer: { newDeals } }),
      appOn(redis.url, { dealer: { newDeals } }),
    ]);
    const deal = (app: FastifyInstance, seed: string) =>
      app.inject({ url: `/api/deals/garden/${seed}`, remoteAddress: '203.0.113.40' });
    expect((await deal(a.app, 'r1')).statusCode).toBe(200);
    expect((await deal(b.app, 'r2')).statusCode).toBe(200);
    expect((await deal(a.app, 'r3')).statusCode).toBe(200);
    const over = await deal(b.app, 'r4');
    expect(over.statusCode).toBe(429);
    expect(over.json().error).toMatch(/at most 3 new deals a minute/);
  });

  test('Redis hung (SIGSTOP): every request still answers within a command timeout, per process; resumed: shared', async () => {
    const { app, lines } = await appOn(redis.url);
    const before = lines.length; // a slow first connect on a busy machine may have logged its own
    redis.pause();
    try {
      const times: number[] = [];
      for (let i = 0; i < 20; i++) {
        const started = Date.now();
        expect((await stats(app, '192.0.2.90')).statusCode).toBe(200);
        times.push(Date.now() - started);
      }
      expect(Math.max(...times)).toBeLessThan(2000); // the first pays one command timeout (300 ms), the rest none
      expect(times.slice(1).reduce((a, b) => a + b, 0)).toBeLessThan(2000);
      expect(app.countersState()).toMatchObject({ store: 'process', problem: expect.stringMatching(/timed out/i) });
      expect(lines.slice(before).filter((l) => l.msg.startsWith('limits: Redis cannot be reached'))).toHaveLength(1);
    } finally {
      redis.resume();
    }
    await until(app, true);
  });

  test('Redis unreachable from the start: the app starts, serves, and says so', async () => {
    const closed = `redis://127.0.0.1:${await freePort()}`; // nothing listens there
    const started = Date.now();
    const { app, lines } = await appOn(closed);
    expect(Date.now() - started).toBeLessThan(5000); // it waited at most START_WAIT_MS for Redis
    expect((await stats(app, '192.0.2.91')).statusCode).toBe(200);
    const health = await app.inject({ url: '/healthz?detail=1' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ ok: true, limits: { store: 'process', configured: 'redis' } });
    expect(lines.filter((l) => l.msg.startsWith('limits: Redis cannot be reached'))).toHaveLength(1);
  });

  test('Redis killed: still serving, limits per process, logged once, /healthz degraded; back: shared again', async () => {
    const [a, b] = await Promise.all([appOn(redis.url), appOn(redis.url)]);
    const healthy = await a.app.inject({ url: '/healthz?detail=1' });
    expect(healthy.json()).toMatchObject({ ok: true, limits: { store: 'redis', configured: 'redis' } });
    expect(healthy.json().degraded).toBeUndefined();

    // What each app logged since the kill (a slow first connect on a busy machine may have logged its own).
    const before = [a.lines.length, b.lines.length];
    const since = (i: number, prefix: string) =>
      [a, b][i]!.lines.slice(before[i]).filter((l) => l.msg.startsWith(prefix));
    await redis.kill();
    const started = Date.now();
    const statuses: number[] = [];
    for (let i = 0; i < 2 * LIMITS.stats.max; i++)
      statuses.push((await stats(i % 2 ? a.app : b.app, '192.0.2.60')).statusCode);
    expect(Date.now() - started).toBeLessThan(10_000); // no hang: a dead Redis costs at most a command timeout
    // Per process: each instance allows the whole limit by itself, never a 500.
    expect(statuses.filter((s) => s === 200)).toHaveLength(2 * LIMITS.stats.max);
    expect((await stats(a.app, '192.0.2.60')).statusCode).toBe(429);

    const degraded = await a.app.inject({ url: '/healthz?detail=1' });
    expect(degraded.statusCode).toBe(200); // degraded, not down: the balancer keeps sending players
    expect(degraded.json()).toMatchObject({
      ok: true,
      limits: { store: 'process', configured: 'redis', problem: expect.stringMatching(/^Redis cannot be reached/) },
      degraded: [expect.stringMatching(/^limits are per process/)],
    });
    for (const i of [0, 1]) expect(since(i, 'limits: Redis cannot be reached')).toHaveLength(1);

    await redis.restart();
    await Promise.all([until(a.app, true), until(b.app, true)]);
    for (const i of [0, 1]) expect(since(i, 'limits: counting in Redis')).toHaveLength(1); // back, once
    const max = LIMITS.stats.max;
    for (let i = 0; i < max; i++) expect((await stats(i % 2 ? a.app : b.app, '192.0.2.61')).statusCode).toBe(200);
    expect((await stats(b.app, '192.0.2.61')).statusCode).toBe(429);
    expect((await a.app.inject({ url: '/healthz?detail=1' })).json().degraded).toBeUndefined();
  });
});
