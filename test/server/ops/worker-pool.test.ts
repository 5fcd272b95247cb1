/** Deals made off the main thread, with a deadline and a bounded queue. */
import { dealKey } from '../../../src/server/schemas/common.ts';
import { afterEach, describe, expect, test } from 'vitest';
import { deal } from '../../../src/engine/index.ts';
import { layoutById } from '../../../src/engine/builtins.ts';
import { fileURLToPath } from 'node:url';
import { DealPool, type PoolOptions } from '../../../src/server/services/worker-pool.ts';
import { build, newPlayer } from '../helper.ts';

const pools: DealPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});
const pool = (size: number, timeoutMs: number, maxQueue: number, entry?: PoolOptions['entry']): DealPool => {
  const p = new DealPool({ size, timeoutMs, maxQueue, ...(entry ? { entry } : {}) });
  pools.push(p);
  return p;
};

// A worker whose tasks crash, stall or answer at once by seed (test/fixtures/crashing-deal-worker.mjs).
const fixtureWorker = {
  filename: fileURLToPath(new URL('../../fixtures/crashing-deal-worker.mjs', import.meta.url)),
  execArgv: [],
};

describe('DealPool', () => {
  test('deals in a worker exactly what the engine deals in process', async () => {
    const p = pool(1, 20_000, 8);
    const result = await p.run(dealKey('turtle', 'abc', 'relaxed'));
    const local = deal(layoutById('turtle')!, 'abc', 'relaxed');
    expect(result.ok && JSON.parse(result.json)).toEqual(local.ok && local.value.deal);
    const missing = await p.run(dealKey('nosuch', 'abc', 'relaxed'));
    expect(missing).toMatchObject({ ok: false, error: 'ERR_UNKNOWN_LAYOUT' });
  });

  test('a deal past its deadline is stopped; the pool goes on with a new worker', async () => {
    // A task that never ends (the fixture worker's "stall" seed), so the deadline is certain to pass whatever the
    // machine's speed; the next task gets a new worker.
    const p = pool(1, 60, 8, fixtureWorker);
    const slow = await p.run(dealKey('turtle', 'stall', 'classic')).catch((error: unknown) => error);
    expect(slow).toMatchObject({ code: 'ERR_TIMEOUT', message: 'making this deal took longer than 0.06 s' });
    expect(p.stats().tasks).toMatchObject({ timeout: 1, done: 0 });
    const after = await p.run(dealKey('turtle', 'fine', 'classic'));
    expect(after).toEqual({ ok: true, json: JSON.stringify({ layout: 'turtle', seed: 'fine' }) });
  });

  test('a crashed worker fails its task with ERR_WORKER and is replaced', async () => {
    const p = pool(1, 20_000, 8, fixtureWorker);
    const crashed = await p.run(dealKey('turtle', 'crash', 'classic')).catch((error: unknown) => error);
    expect(crashed).toMatchObject({ code: 'ERR_WORKER', message: expect.stringMatching(/^the deal worker failed: /) });
    const after = await p.run(dealKey('turtle', 'fine', 'classic'));
    expect(after).toEqual({ ok: true, json: JSON.stringify({ layout: 'turtle', seed: 'fine' }) });
  });

  test('closing refuses running and waiting tasks', async () => {
    const p = pool(1, 20_000, 8);
    // Closed at once: the first task holds the slot (its worker still booting), the second waits.
    // (Waiting for the first to be "surely running" depends on how slow the engine is; it got faster.)
    const running = p.run(dealKey('fortress', 'c1', 'classic'));
    const waiting = p.run(dealKey('turtle', 'c2', 'relaxed'));
    const refused = Promise.all([
      expect(running).rejects.toMatchObject({ code: 'ERR_WORKER' }),
      expect(waiting).rejects.toMatchObject({ code: 'ERR_WORKER' }),
    ]);
    await p.close();
    await refused;
  });

  test('a full queue refuses at once', async () => {
    const p = pool(1, 20_000, 1);
    const running = p.run(dealKey('turtle', 'q1', 'relaxed'));
    const queued = p.run(dealKey('turtle', 'q2', 'relaxed'));
    await expect(p.run(dealKey('turtle', 'q3', 'relaxed'))).rejects.toMatchObject({ code: 'ERR_BUSY' });
    expect((await running).ok && (await queued).ok).toBe(true);
  });
});

describe('the app with deal workers', () => {
  test('a deal too slow to make is a 409 with a clear message, and remembered', async () => {
    const app = await build({ dealer: { workers: 1, timeoutMs: 1 } }); // no classic deal is made and sent back by a worker in 1 ms
    const res = await app.inject({ url: '/api/deals/turtle/too-slow?mode=classic' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatch(/took longer than .* play it relaxed/);
    const page = await app.inject({ url: '/play/turtle/too-slow?mode=classic' });
    expect(page.statusCode).toBe(409);
    expect(page.body).toContain('play it relaxed');
    expect(app.db!.prepare('SELECT COUNT(*) AS n FROM deals').get()).toEqual({ n: 0 });
  });

  test('relaxed deals come from the worker and are stored', async () => {
    const app = await build({ dealer: { workers: 1 } });
    const res = await app.inject({ url: '/api/deals/turtle/from-worker', headers: { cookie: await newPlayer(app) } });
    expect(res.statusCode).toBe(200);
    expect(res.json().tiles).toHaveLength(144);
    expect(app.db!.prepare('SELECT COUNT(*) AS n FROM deals').get()).toEqual({ n: 1 });
  });
});
