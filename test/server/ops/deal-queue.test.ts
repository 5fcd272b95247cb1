/**
 * The deal queue: relaxed deals never wait behind classic ones, and one client
 * has at most MAX_QUEUED_PER_CLIENT classic deals in the making; a custom layout's deals are charged to
 * the client's CPU budget before they are queued. Classic deals here come from a stand-in that holds them
 * until the test lets go (the pool itself has worker-pool.test.ts, its lanes worker-sharing.test.ts).
 */
import { describe, expect, test } from 'vitest';
import type { DealTask, DealTaskResult } from '../../../src/server/services/deal-worker.ts';
import { runDealTask } from '../../../src/server/services/deal-worker.ts';
import { MAX_QUEUED_PER_CLIENT } from '../../../src/server/services/dealer.ts';
import { seedCostMs } from '../../../src/server/services/costs.ts';
import { BOUNDARY, multipartFile } from '../../support/heavy.ts';
import { build, newPlayer } from '../helper.ts';

/** Classic deals that wait until `release()`. */
function heldClassic() {
  const waiting: (() => void)[] = [];
  return {
    classic: (task: DealTask) =>
      new Promise<DealTaskResult>((resolve) => waiting.push(() => resolve(runDealTask(task)))),
    release: () => waiting.splice(0).forEach((go) => go()),
    get held() {
      return waiting.length;
    },
  };
}

describe('the deal queue', () => {
  test('a relaxed deal is made at once while slow classic deals wait', async () => {
    const held = heldClassic();
    const app = await build({ dealer: { classic: held.classic } });
    const slow = Array.from({ length: 10 }, (_, i) =>
      app.inject({ url: `/api/deals/turtle/slow${i}?mode=classic`, remoteAddress: `198.51.${i}.1` }),
    );
    await new Promise((r) => setTimeout(r, 20));
    expect(held.held).toBe(10);
    const relaxed = await app.inject({ url: '/api/deals/turtle/quick', remoteAddress: '192.0.2.1' });
    expect(relaxed.statusCode).toBe(200);
    held.release();
    for (const res of await Promise.all(slow)) expect(res.statusCode).toBe(200);
  });

  test(`one client: at most ${MAX_QUEUED_PER_CLIENT} classic deals in the making (429), others unaffected`, async () => {
    const held = heldClassic();
    const app = await build({ dealer: { classic: held.classic } });
    const mine = [0, 1].map((i) =>
      app.inject({ url: `/api/deals/turtle/mine${i}?mode=classic`, remoteAddress: '203.0.113.5' }),
    );
    await new Promise((r) => setTimeout(r, 20));
    const third = await app.inject({ url: '/api/deals/turtle/mine2?mode=classic', remoteAddress: '203.0.113.6' }); // same /24
    expect(third.statusCode).toBe(429);
    expect(third.json().error).toMatch(/at most 2 classic deals/);
    expect(third.headers['retry-after']).toBeDefined();
    const same = app.inject({ url: '/api/deals/turtle/mine0?mode=classic', remoteAddress: '203.0.113.5' }); // shares the job
    const other = app.inject({ url: '/api/deals/turtle/theirs?mode=classic', remoteAddress: '192.0.2.9' });
    await new Promise((r) => setTimeout(r, 20));
    expect(held.held).toBe(3);
    held.release();
    for (const res of await Promise.all([...mine, same, other])) expect(res.statusCode).toBe(200);
    // Once they are made, the client may ask for more.
    const later = app.inject({ url: '/api/deals/turtle/mine2?mode=classic', remoteAddress: '203.0.113.6' });
    await new Promise((r) => setTimeout(r, 20));
    held.release();
    expect((await later).statusCode).toBe(200);
  });

  test("a custom layout's deals are charged to the client's CPU budget before they are queued", async () => {
    const app = await build({ dealer: { workers: 1 }, cpu: { clientBurstMs: 7, clientPerMinuteMs: 7 } });
    const map = `<mahjongg>\n  <map name="Row">\n${[0, 1, 2, 3].map((x) => `    <tile x="${2 * x}" y="0" z="0"/>`).join('\n')}\n  </map>\n</mahjongg>\n`;
    const up = await app.inject({
      method: 'POST',
      url: '/layouts',
      headers: { cookie: await newPlayer(app), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: multipartFile(map, 'row.map'),
      remoteAddress: '192.0.2.77', // the upload's own charges, if any, are another network's
    });
    expect(up.statusCode, up.body.slice(0, 300)).toBe(303);
    const id = /^\/layouts\/(c-[0-9a-f]{12})$/.exec(up.headers.location as string)![1]!;
    const tasks = () => Object.values(app.dealer.workers()!.tasks).reduce((a, b) => a + b, 0);
    // A classic deal of 4 tiles is charged ceil(seedCostMs) = 3 ms: two fit in 7, the third is refused unqueued.
    expect(Math.ceil(seedCostMs(4, 'classic'))).toBe(3);
    const from = '203.0.113.40';
    for (const seed of ['c1', 'c2'])
      expect((await app.inject({ url: `/api/deals/${id}/${seed}?mode=classic`, remoteAddress: from })).statusCode).toBe(
        200,
      );
    const before = tasks();
    const refused = await app.inject({ url: `/api/deals/${id}/c3?mode=classic`, remoteAddress: from });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'ERR_CPU' });
    expect(refused.json().error).toMatch(/\(deal\)/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(tasks()).toBe(before);
    // A deal already made costs nothing; a built-in layout's classic deal is not charged; another network is.
    expect((await app.inject({ url: `/api/deals/${id}/c1?mode=classic`, remoteAddress: from })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/deals/turtle/c3?mode=classic', remoteAddress: from })).statusCode).toBe(200);
    expect(
      (await app.inject({ url: `/api/deals/${id}/c3?mode=classic`, remoteAddress: '198.51.100.1' })).statusCode,
    ).toBe(200);
  });
});
