/**
 * The deal workers shared fairly (docs/operations.md, "Sharing the deal workers"): classic deals of built-in
 * layouts go ahead of every other task and keep a worker of their own, whatever other clients queue (reviews,
 * band searches); each client has at most MAX_QUEUED_PER_CLIENT worker tasks of any kind in the making (429).
 * Reviews and band searches here come from a worker that holds its thread for a while on each
 * (test/fixtures/slow-review-worker.ts).
 */
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, test } from 'vitest';
import { layoutById } from '../../../src/engine/builtins.ts';
import { deal } from '../../../src/engine/index.ts';
import { dealKey } from '../../../src/server/schemas/common.ts';
import { MAX_QUEUED_PER_CLIENT } from '../../../src/server/services/dealer.ts';
import type { ReviewTask } from '../../../src/server/services/deal-worker.ts';
import { DealPool, laneOf } from '../../../src/server/services/worker-pool.ts';
import { build, createGame, newPlayer } from '../helper.ts';

const slowWorker = {
  filename: fileURLToPath(new URL('../../fixtures/slow-review-worker.ts', import.meta.url)),
  execArgv: ['--import', import.meta.resolve('tsx')],
};

const pools: DealPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

const turtle = deal(layoutById('turtle')!, 'sharing');
if (!turtle.ok) throw new Error(turtle.message);
const review: ReviewTask = {
  kind: 'review',
  dealJson: JSON.stringify(turtle.value.deal),
  movesJson: '[]',
  boards: '',
};

describe('lanes', () => {
  test('built-in classic deals are first; reviews, band searches and custom layouts share the rest', () => {
    expect(laneOf(dealKey('turtle', 'a', 'classic'))).toBe('first');
    expect(laneOf(review)).toBe('shared');
    expect(laneOf({ layout: 'turtle', mode: 'relaxed', band: 'hard', seeds: ['a'] })).toBe('shared');
    expect(laneOf({ ...dealKey('c-0123456789ab', 'a', 'classic'), slots: [[0, 0, 0]] })).toBe('shared');
  });

  test('one worker: a deal queued behind reviews starts before them', async () => {
    const pool = new DealPool({ size: 1, timeoutMs: 20_000, maxQueue: 8, entry: slowWorker });
    pools.push(pool);
    const done: string[] = [];
    const track = <T>(name: string, job: Promise<T>): Promise<T> => job.finally(() => done.push(name));
    const jobs = [
      track('r1', pool.run(review)),
      track('r2', pool.run(review)),
      track('r3', pool.run(review)),
      track('deal', pool.run(dealKey('turtle', 'first', 'classic'))),
    ];
    expect(pool.stats().queued).toBe(4);
    for (const result of await Promise.all(jobs)) expect(result.ok).toBe(true);
    expect(done).toEqual(['r1', 'deal', 'r2', 'r3']);
  });

  test('two workers: reviews use one at most, a deal gets the other at once', async () => {
    const pool = new DealPool({ size: 2, timeoutMs: 20_000, maxQueue: 8, entry: slowWorker });
    pools.push(pool);
    await pool.start();
    const done: string[] = [];
    const reviews = Array.from({ length: 3 }, (_, i) => pool.run(review).finally(() => done.push(`r${i}`)));
    const dealt = await pool.run(dealKey('turtle', 'meanwhile', 'classic'));
    expect(dealt.ok).toBe(true);
    expect(done.length).toBeLessThanOrEqual(1); // answered while the reviews (1.5 s each, one at a time) go on
    expect(pool.stats().queued).toBeGreaterThanOrEqual(1);
    await Promise.all(reviews);
  });

  test('each lane has its own bounded queue: reviews filling theirs leave room for deals', async () => {
    const pool = new DealPool({ size: 2, timeoutMs: 20_000, maxQueue: 2, entry: slowWorker });
    pools.push(pool);
    const reviews = Array.from({ length: 3 }, () => pool.run(review)); // one running, two waiting
    await expect(pool.run(review)).rejects.toMatchObject({ code: 'ERR_BUSY' });
    expect((await pool.run(dealKey('turtle', 'room', 'classic'))).ok).toBe(true);
    await Promise.all(reviews);
  });
});

/** `n` unfinished games of one player with their replay links. */
async function replayLinks(app: FastifyInstance, n: number): Promise<string[]> {
  const cookie = await newPlayer(app);
  const links: string[] = [];
  for (let i = 0; i < n; i++) {
    const game = await createGame(app, cookie, { layout: 'turtle', seed: `shared-${i}` });
    const res = await app.inject({ method: 'POST', url: `/api/games/${game.id}/replay`, headers: { cookie } });
    links.push((res.json() as { url: string }).url);
  }
  return links;
}

describe('the app', () => {
  test('slow reviews of other clients fill the workers: a built-in classic deal is still answered at once', async () => {
    const app = await build({ dealer: { workers: 2, workerEntry: slowWorker } });
    const links = await replayLinks(app, 6);
    // Six networks view a replay each: six reviews of 1.5 s, run one at a time on one worker.
    const views = links.map((url, i) => app.inject({ url, remoteAddress: `198.51.${i}.7` }));
    await new Promise((r) => setTimeout(r, 100));
    expect(app.dealer.workers()!.queued).toBeGreaterThanOrEqual(4);
    const classic = await app.inject({ url: '/api/deals/turtle/not-waiting?mode=classic', remoteAddress: '192.0.2.1' });
    expect(classic.statusCode).toBe(200);
    expect(app.dealer.workers()!.queued).toBeGreaterThanOrEqual(3); // still there: the deal did not wait for them
    for (const view of await Promise.all(views)) expect(view.statusCode).toBe(200);
  });

  test(`one network has at most ${MAX_QUEUED_PER_CLIENT} worker tasks of any kind in the making (429)`, async () => {
    const app = await build({ dealer: { workers: 2, workerEntry: slowWorker } });
    const links = await replayLinks(app, 3);
    const mine = [0, 1].map((i) => app.inject({ url: links[i]!, remoteAddress: `203.0.113.${i + 1}` }));
    await new Promise((r) => setTimeout(r, 100));
    // A third review, a band search and a classic deal from the same /24: refused at once, nothing queued.
    const queued = app.dealer.workers()!.queued + app.dealer.workers()!.running;
    for (const url of [links[2]!, '/play/turtle?difficulty=hard', '/api/deals/turtle/third?mode=classic']) {
      const res = await app.inject({ url, remoteAddress: '203.0.113.9' });
      expect(res.statusCode, `${url} ${res.body.slice(-1500)}`).toBe(429);
      expect(res.body).toMatch(/at most 2 classic deals, band searches or reviews/i);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(app.dealer.workers()!.queued + app.dealer.workers()!.running).toBe(queued);
    // Another network is served meanwhile.
    const theirs = await app.inject({ url: links[2]!, remoteAddress: '192.0.2.50' });
    expect(theirs.statusCode).toBe(200);
    for (const res of await Promise.all(mine)) expect(res.statusCode).toBe(200);
  });
});
