/**
 * A live race across a fleet (docs/server.md, "Live races"): two processes on one PostgreSQL and one Redis,
 * behind haproxy. Ana races on the first process, Ben on the second: Ana starts the race on the first and both
 * streams hear the one start instant, Ben's moves before it refused by the second; Ana's stream (first process)
 * hears of Ben's verified moves (second process) through Redis; the second process is restarted mid-race (SIGTERM, drain, start)
 * and no verified move is lost; Ben finishes through the balancer, and the order stands on both processes. Ana's
 * streams across both processes count against one bound (Redis), refused past it on either.
 *
 * Where PostgreSQL is missing (never in CI) the processes share one SQLite file, as in fleet.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { Deal } from '../../../src/engine/index.ts';
import { HAPROXY_MISSING, startFleet, type Fleet } from '../../support/fleet.ts';
import { freshDatabaseUrl, postgresSkip } from '../../support/postgres.ts';
import { REDIS_MISSING, startRedis, type TestRedis } from '../../support/redis.ts';

const COOKIE_SECRET = 'fleet-race-Secret-0123456789-abcdefghijk';

/** A player with a cookie jar. */
class Racer {
  cookie = '';
  constructor(private readonly address: string) {}

  async request(base: string, method: string, url: string, body?: unknown) {
    if (!this.cookie && method !== 'GET') await this.request(base, 'GET', '/api/stats');
    const headers: Record<string, string> = { 'x-forwarded-for': this.address };
    if (this.cookie) headers.cookie = this.cookie;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(base + url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
    });
    const match = /mj_player=[^;]+/.exec(res.headers.get('set-cookie') ?? '');
    if (match) this.cookie = match[0];
    return res;
  }

  async json<T>(base: string, method: string, url: string, body?: unknown): Promise<T> {
    const res = await this.request(base, method, url, body);
    expect(res.status, `${method} ${url}`).toBeLessThan(300);
    return (await res.json()) as T;
  }
}

/** The game a racer plays in the race, from the race page's #deal-data. */
async function gameOf(racer: Racer, base: string, race: string): Promise<{ id: string; deal: Deal }> {
  const html = await (await racer.request(base, 'GET', race)).text();
  const data = JSON.parse(/id="deal-data">(.*?)<\/script>/s.exec(html)![1]!) as { deal: Deal; game: { id: string } };
  return { id: data.game.id, deal: data.deal };
}

interface RaceJson {
  ended: boolean;
  players: { player: string; left: number; status: string }[];
  order: string[] | null;
}

const missing = REDIS_MISSING ?? HAPROXY_MISSING;

describe.skipIf(missing !== undefined)('a live race across a fleet', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mahjong-fleet-race-'));
  let redis: TestRedis | undefined;
  let fleet: Fleet | undefined;
  afterAll(async () => {
    await fleet?.stop();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test(
    'racers on two processes see each other live; a restart mid-race loses no verified move',
    { timeout: 120_000 },
    async () => {
      redis = await startRedis();
      const databaseUrl = postgresSkip() === '' ? await freshDatabaseUrl() : undefined;
      fleet = await startFleet({
        size: 2,
        databasePath: path.join(dir, 'fleet.db'),
        env: {
          COOKIE_SECRET,
          REDIS_URL: redis.url,
          TRUST_PROXY: 'loopback',
          ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        },
      });
      const [one, two] = [fleet.apps[0]!.base, fleet.apps[1]!.base];
      const ana = new Racer('198.51.100.1');
      const ben = new Racer('198.51.100.2');

      const made = await ana.request(one, 'POST', '/races', { layout: 'garden', seed: 'fleet-race' });
      expect(made.status).toBe(303);
      const race = made.headers.get('location')!;
      const id = race.split('/').pop()!;
      await ben.request(two, 'GET', race);
      expect((await ben.request(two, 'POST', `${race}/join`)).status).toBe(303);

      // Ana follows the race on process one.
      const stream = await fetch(`${one}${race}/events`, {
        headers: { cookie: ana.cookie, 'x-forwarded-for': '198.51.100.1' },
      });
      expect(stream.status).toBe(200);
      const reader = stream.body!.getReader();
      let heard = '';
      const hear = async (pattern: RegExp, timeoutMs = 10_000): Promise<void> => {
        const deadline = Date.now() + timeoutMs;
        while (!pattern.test(heard)) {
          const left = deadline - Date.now();
          if (left <= 0) throw new Error(`not heard: ${pattern}; last: ${heard.slice(-400)}`);
          const chunk = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), left))]);
          if (chunk === null || chunk.done) continue;
          heard += new TextDecoder().decode(chunk.value);
        }
      };
      await hear(/data-player=\\"2\\" data-left=\\"40\\" data-status=\\"playing\\"/);

      // Ben follows it on process two; his moves wait for the start.
      const benStream = await fetch(`${two}${race}/events`, {
        headers: { cookie: ben.cookie, 'x-forwarded-for': '198.51.100.2' },
      });
      expect(benStream.status).toBe(200);
      const benReader = benStream.body!.getReader();
      let benHeard = '';
      const game = await gameOf(ben, two, race);
      const moves = game.deal.solution.map(([a, b]) => ({ type: 'match', a, b }));
      const early = await ben.request(two, 'POST', `/api/games/${game.id}/moves`, { at: 0, moves: moves.slice(0, 1) });
      expect(early.status).toBe(409);
      expect(await early.json()).toMatchObject({ code: 'ERR_RACE_NOT_STARTED' });

      // Ana starts the race on process one: both processes' players hear the same instant.
      expect((await ana.request(one, 'POST', `${race}/start`)).status).toBe(303);
      await hear(/"startsAt":\d+/);
      const startsAt = Number(/"startsAt":(\d+)/.exec(heard)![1]);
      const deadline = Date.now() + 10_000;
      while (!benHeard.includes(`"startsAt":${startsAt}`) && Date.now() < deadline) {
        const chunk = await benReader.read();
        if (chunk.done) break;
        benHeard += new TextDecoder().decode(chunk.value);
      }
      expect(benHeard).toContain(`"startsAt":${startsAt}`);
      await benReader.cancel();
      expect(startsAt).toBeGreaterThan(Date.now() - 3000);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, startsAt - Date.now() + 20)));

      // Ben plays five pairs on process two: Ana hears of them on process one.
      const first = await ben.json<{ left: number }>(two, 'POST', `/api/games/${game.id}/moves`, {
        at: 0,
        moves: moves.slice(0, 5),
      });
      expect(first.left).toBe(30);
      await hear(/data-player=\\"2\\" data-left=\\"30\\"/);

      // Process two restarts mid-race (SIGTERM, drain, start): Ben's moves and the room are all there.
      await fleet.restart(1);
      const after = await ben.json<RaceJson>(fleet.apps[1]!.base, 'GET', `/api/races/${id}`);
      expect(after.players).toEqual([
        expect.objectContaining({ player: '1', left: 40, status: 'playing' }),
        expect.objectContaining({ player: 'me', left: 30, status: 'playing' }),
      ]);

      // Ben finishes through the balancer; Ana hears of the win on process one.
      const won = await ben.json<{ status: string }>(fleet.base, 'POST', `/api/games/${game.id}/moves`, {
        at: 5,
        moves: moves.slice(5),
      });
      expect(won.status).toBe('won');
      await hear(/data-player=\\"2\\" data-left=\\"0\\" data-status=\\"won\\"/);

      // Ana finishes too: the order stands, the same on both processes.
      const mine = await gameOf(ana, one, race);
      await ana.json(one, 'POST', `/api/games/${mine.id}/moves`, { at: 0, moves });
      await hear(/race-order/);
      for (const base of [one, fleet.apps[1]!.base, fleet.base]) {
        const seen = await ana.json<RaceJson>(base, 'GET', `/api/races/${id}`);
        expect(seen).toMatchObject({ ended: true, order: ['2', 'me'] });
      }

      // Streams count fleet-wide: Ana holds one on process one, three more across both reach her bound (4), and a
      // fifth is refused on either process; closing one makes room on the other.
      const follow = (base: string, signal?: AbortSignal) =>
        fetch(`${base}${race}/events`, { headers: { cookie: ana.cookie, 'x-forwarded-for': '198.51.100.1' }, signal });
      const pause = () => new Promise((resolve) => setTimeout(resolve, 1100)); // 5 race requests a second
      const held = [new AbortController(), new AbortController(), new AbortController()];
      await pause();
      // Kept to the end: fetch cancels the body of a response it has collected, which would close that stream.
      const holding: Response[] = [];
      for (const [i, controller] of held.entries()) holding.push(await follow(i === 1 ? one : two, controller.signal));
      expect(holding.map((r) => r.status)).toEqual([200, 200, 200]);
      const past = await follow(one);
      expect(past.status).toBe(429);
      expect(await past.text()).toMatch(/a player may follow 4 races at once/i);
      expect((await follow(two)).status).toBe(429);
      held[0]!.abort(); // one on process two closes
      await pause();
      await expect.poll(async () => (await follow(one, AbortSignal.timeout(2000))).status, { timeout: 5000 }).toBe(200);
      for (const controller of held) controller.abort();
      expect(holding).toHaveLength(3);
      await reader.cancel();
    },
  );
});
