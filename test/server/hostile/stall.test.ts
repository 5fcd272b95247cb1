/**
 * No one client stalls everyone: each costly path's attack, at the documented limits, for a bounded time,
 * against the real server (two deal workers) while normal players play (test/support/stall.ts). The normal
 * players' p99 must stay within max(250 ms, 3 × their quiet p99), and none of their requests may go unanswered
 * or answer 5xx. Each test prints its figures (docs/operations.md, "CPU budgets", quotes them).
 *
 * Attackers send from 127.0.0.2–5 (one client: budgets count by /24), or with X-Forwarded-For addresses on /24s
 * of their own where the attack is many clients. Loopback only; every loop stops by itself.
 */
import { afterEach, expect, test } from 'vitest';
import { makeDraftCode } from '../../../src/shared/draft.ts';
import { BOUNDARY, bigLayoutMap, heavyBatches, multipartFile, pacer } from '../../support/heavy.ts';
import { Attack, runStall, startStallServer, type StallReport } from '../../support/stall.ts';

const LOOPBACK = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5']; // one client: 127.0.0.0/24
const JSON_BODY = { 'content-type': 'application/json' };

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** The goal, and no normal request unanswered or 5xx. */
function expectNoStall(report: StallReport): void {
  expect(report.attack.failed, 'normal requests unanswered or 5xx during the attack').toEqual([]);
  expect(report.attack.p99, 'normal p99 during the attack, ms').toBeLessThanOrEqual(report.limitMs);
  if (report.classicAttack) {
    expect(report.classicAttack.failed, 'classic deals unanswered or 5xx during the attack').toEqual([]);
    expect(report.classicAttack.p99, 'classic deals p99 during the attack, ms').toBeLessThanOrEqual(
      report.classicLimitMs!,
    );
  }
}

/** A GNOME .map file the server refuses: 101 maps (one past MAX_MAPS) of 992 tiles each, 7 KB. */
function refusedMapFile(): string {
  const maps = Array.from(
    { length: 101 },
    (_, i) => `<map name="m${i}"><block left="0" right="30" top="0" bottom="31"/></map>`,
  );
  return `<mahjongg>\n${maps.join('\n')}\n</mahjongg>\n`;
}

/** A 1,000-tile draft's code: three layers of 31 × 19 tiles, each shifted half a tile. */
function bigDraftCode(): string {
  const slots: { x: number; y: number; z: number }[] = [];
  for (let z = 0; z < 3; z++)
    for (let y = 0; y <= 36; y += 2)
      for (let x = 0; x <= 60 && slots.length < 1000; x += 2) slots.push({ x: x + z, y: y + z, z });
  return makeDraftCode(slots.slice(0, 1000));
}

test('refused GNOME .map uploads over fresh cookies, one address at 3/s', { timeout: 90_000 }, async () => {
  const started = await startStallServer();
  close = started.close;
  const body = multipartFile(refusedMapFile(), 'many.map');
  const headers = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
  const report = await runStall({
    name: '(a) .map uploads',
    base: started.server.base,
    attack: (running, attack) =>
      attack.paced(3, 16, running, async () => {
        const from = LOOPBACK[0]!;
        const cookie = await attack.cookie('/layouts/new', { from });
        if (cookie) await attack.send('upload', 'POST', '/layouts', { from, headers: { ...headers, cookie }, body });
      }),
  });
  expectNoStall(report);
});

test(
  'hint then view the replay of heavy unfinished games, 4 addresses, while classic deals are dealt',
  { timeout: 120_000 },
  async () => {
    const started = await startStallServer();
    close = started.close;
    const { base } = started.server;
    // 20 heavy games, five for each of four /24s: 50 shuffles and 2,000 undo/redo each, each with its replay link.
    // Made from /24s of their own, so that the attack's budgets are whole when it starts.
    const setup = new Attack(base);
    const games = await Promise.all(
      Array.from({ length: 20 }, async (_, g) => {
        const maker = { 'x-forwarded-for': `198.20.${g}.7` };
        const cookie = (await setup.cookie('/api/stats', { headers: maker }))!;
        const json = { ...JSON_BODY, cookie };
        const made = await setup.retried('game', 'POST', '/api/games', {
          headers: { ...maker, ...json },
          body: JSON.stringify({ layout: 'turtle', seed: `heavy${g}` }),
        });
        const id = (JSON.parse(made!.body) as { id: string }).id;
        const answers = [made!.status];
        for (const moves of heavyBatches(50, 2000)) {
          const batch = await setup.retried('heavy', 'POST', `/api/games/${id}/moves`, {
            headers: { ...maker, ...json },
            body: JSON.stringify({ moves }),
          });
          answers.push(batch?.status ?? 0);
        }
        const shared = await setup.retried('link', 'POST', `/api/games/${id}/replay`, {
          headers: { ...maker, ...json },
          body: '{}',
        });
        answers.push(shared?.status ?? 0);
        expect(answers.filter((status) => status !== 200 && status !== 201)).toEqual([]);
        const net = g % 4;
        const url = (JSON.parse(shared!.body) as { url: string }).url;
        return { net, id, url, headers: { ...json, 'x-forwarded-for': `198.18.${net}.7` } };
      }),
    );
    const report = await runStall({
      name: '(b) replays',
      base,
      classicDeals: true,
      attack: async (running, attack) => {
        await Promise.all(
          [0, 1, 2, 3].map((net) => {
            const mine = games.filter((g) => g.net === net);
            // 300 replay pages a minute per address; each view after a hint is a new position to review.
            return attack.paced(5, 16, running, async (i) => {
              const game = mine[i % mine.length]!;
              await attack.send('hint', 'POST', `/api/games/${game.id}/moves`, {
                from: LOOPBACK[net],
                headers: game.headers,
                body: JSON.stringify({ moves: [{ type: 'hint' }] }),
              });
              await attack.send('replay', 'GET', game.url, {
                from: LOOPBACK[net],
                headers: { 'x-forwarded-for': game.headers['x-forwarded-for'] },
              });
            });
          }),
        );
      },
    });
    expectNoStall(report);
  },
);

test('GET /layouts/editor with a 1,000-tile draft, 4 addresses × 4/s', { timeout: 90_000 }, async () => {
  const started = await startStallServer();
  close = started.close;
  const url = `/layouts/editor?layout=${bigDraftCode()}`;
  const report = await runStall({
    name: '(c) editor, 4 addresses',
    base: started.server.base,
    attack: async (running, attack) => {
      await Promise.all(
        LOOPBACK.map((from) => attack.paced(4, 8, running, () => attack.send('editor', 'GET', url, { from }))),
      );
    },
  });
  expectNoStall(report);
});

test('GET /layouts/editor with a 1,000-tile draft, 16 addresses on 16 /24s × 4/s', { timeout: 90_000 }, async () => {
  const started = await startStallServer();
  close = started.close;
  const url = `/layouts/editor?layout=${bigDraftCode()}`;
  const report = await runStall({
    name: '(c) editor, 16 /24s',
    base: started.server.base,
    attack: async (running, attack) => {
      await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          attack.paced(4, 8, running, () =>
            attack.send('editor', 'GET', url, {
              from: `127.0.0.${2 + i}`,
              headers: { 'x-forwarded-for': `198.19.${i}.7` },
            }),
          ),
        ),
      );
    },
  });
  expectNoStall(report);
});

test('move batches of 20 shuffles past the shuffle budget, 50 cookies, one address', { timeout: 90_000 }, async () => {
  const started = await startStallServer();
  close = started.close;
  const { base } = started.server;
  const from = LOOPBACK[0]!;
  const setup = new Attack(base);
  const shuffles = JSON.stringify({ moves: heavyBatches(20, 0)[0] });
  // A 1,000-tile layout (a shuffle there is a search of ~1 ms), and 50 players of one address with a game of it
  // each, each past its 60 shuffles a minute (the games and shuffles sent from /24s of their own, so that the
  // attack's budgets are whole when it starts). The setup's shuffles go in batches of 12 (24 ms of estimated
  // work) paced 100 ms apart: at most three in any quarter second, which the process's share (75 ms a quarter
  // second) takes, so the setup is not refused and waits out no Retry-After (20 a batch were one a window: 50
  // players at once spent a minute retrying, and some batches ran out of tries).
  const setupBatches = heavyBatches(60, 0, 12);
  const slot = pacer(100);
  const setupFrom = performance.now();
  const uploader = { 'x-forwarded-for': '198.22.0.7' };
  const upload = await setup.retried('upload', 'POST', '/layouts', {
    headers: {
      ...uploader,
      cookie: (await setup.cookie('/api/stats', { headers: uploader }))!,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    },
    body: multipartFile(bigLayoutMap(7), 'big.map'),
  });
  expect(upload?.status).toBe(303);
  const layout = /c-[0-9a-f]{12}/.exec(String(upload!.headers.location))![0];
  const players = await Promise.all(
    Array.from({ length: 50 }, async (_, p) => {
      const cookie = (await setup.cookie('/api/stats', { from }))!;
      const maker = { ...JSON_BODY, cookie, 'x-forwarded-for': `198.21.${p}.7` };
      const made = await setup.retried('game', 'POST', '/api/games', {
        headers: maker,
        body: JSON.stringify({ layout, seed: `shuffled${p % 5}` }),
      });
      expect(made?.status).toBe(201);
      const id = (JSON.parse(made!.body) as { id: string }).id;
      for (const moves of setupBatches) {
        await slot();
        const body = JSON.stringify({ moves });
        const shuffled = await setup.retried('shuffle', 'POST', `/api/games/${id}/moves`, { headers: maker, body });
        expect(shuffled?.status, 'a setup shuffle batch').toBe(200);
      }
      return { id, headers: { ...JSON_BODY, cookie } };
    }),
  );
  console.log(`(d) setup in ${((performance.now() - setupFrom) / 1000).toFixed(1)} s: ${setup.summary()}`);
  const report = await runStall({
    name: '(d) shuffles',
    base,
    attack: (running, attack) =>
      // 120 move batches a minute per player, 6,000 per address: 100 a second.
      attack.paced(100, 32, running, (i) => {
        const player = players[i % players.length]!;
        return attack.send('shuffles', 'POST', `/api/games/${player.id}/moves`, {
          from,
          headers: player.headers,
          body: shuffles,
        });
      }),
  });
  expectNoStall(report);
});
