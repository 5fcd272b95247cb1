/**
 * The fleet test: three server processes on one database and one Redis, behind haproxy on
 * loopback (test/support/fleet.ts). Players play whole games through the balancer, their requests
 * landing on different processes (X-Served-By); one process is killed with SIGKILL mid-load and the
 * others keep serving; every win answered 200 is in the database; games go on on the survivors.
 * Then two processes take one write to one game at once: the loser gets a 409 with the server's log,
 * and the client's protocol (adopt the server's log, go on from its `moves` with `at`) finishes it.
 *
 * Backend: PostgreSQL, a fresh database on the run's throwaway cluster (test/support/postgres.ts).
 * Where PostgreSQL is missing (never in CI) the processes share one SQLite file in WAL mode instead,
 * which works on one machine, and the test says so.
 *
 * Players follow the client's retry rules (src/client/sync.ts): every batch says where it starts
 * (`at`), so sending it again after a lost answer (the killed process, a 502) changes nothing twice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, test } from 'vitest';
import { availablePairs, newGame, type Deal, type Move } from '../../../src/engine/index.ts';
import { HAPROXY_MISSING, SERVED_BY, startFleet, type Fleet } from '../../support/fleet.ts';
import { freshDatabaseUrl, postgresSkip } from '../../support/postgres.ts';
import { REDIS_MISSING, startRedis, type TestRedis } from '../../support/redis.ts';
const COOKIE_SECRET = 'fleet-Secret-0123456789-abcdefghijkLMNOP'; // one for every process: a player is signed in on all

const PLAYERS = 24;
const SEEDS = ['fleet0', 'fleet1', 'fleet2'];
const BATCH = 4; // moves a request: 18 requests a turtle game
const KILL_AFTER_WINS = 6; // kill -9 one process once this many wins were acknowledged
const RETRIES = 20; // per batch, 150 ms apart: a lost answer is sent again

interface Answer {
  status: number;
  json: Record<string, unknown>;
  by: string | null; // the process that answered, through the balancer
}

/** A player with a cookie jar and an address of their own (X-Forwarded-For, trusted from loopback). */
class FleetPlayer {
  cookie: string | undefined;
  constructor(private readonly address: string) {}

  async request(base: string, method: string, url: string, body?: unknown): Promise<Answer> {
    // Only a GET makes a player (a POST without the cookie is refused): fetch one first.
    if (!this.cookie && method !== 'GET') await this.request(base, 'GET', '/api/stats');
    const headers: Record<string, string> = { 'x-forwarded-for': this.address };
    if (this.cookie) headers.cookie = this.cookie;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(base + url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const match = /mj_player=[^;]+/.exec(res.headers.get('set-cookie') ?? '');
    if (match) this.cookie = match[0];
    const text = await res.text();
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      json = { body: text.slice(0, 200) }; // haproxy's own 502/503 page
    }
    return { status: res.status, json, by: res.headers.get(SERVED_BY) };
  }
}

const matches = (pairs: readonly (readonly [number, number])[]): Move[] =>
  pairs.map(([a, b]) => ({ type: 'match', a, b }));
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const missing = REDIS_MISSING ?? HAPROXY_MISSING;

/** Every game's result and finish time, read from the database itself. */
async function storedGames(
  databaseUrl: string | undefined,
  databasePath: string,
): Promise<Map<string, { result: string | null; finishedAt: number | null }>> {
  type Row = { id: string; result: string | null; finished_at: number | string | null };
  let rows: Row[];
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      rows = (await client.query<Row>('SELECT id, result, finished_at FROM games')).rows;
    } finally {
      await client.end();
    }
  } else {
    const db = new Database(databasePath, { readonly: true, fileMustExist: true });
    try {
      rows = db.prepare('SELECT id, result, finished_at FROM games').all() as Row[];
    } finally {
      db.close();
    }
  }
  return new Map(
    rows.map((r) => [r.id, { result: r.result, finishedAt: r.finished_at === null ? null : Number(r.finished_at) }]),
  );
}

describe.skipIf(missing !== undefined)('a fleet of three processes behind haproxy', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mahjong-fleet-db-'));
  const databasePath = path.join(dir, 'fleet.db');
  let redis: TestRedis | undefined;
  let fleet: Fleet | undefined;
  afterAll(async () => {
    await fleet?.stop();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test(
    'whole games spread over the processes; kill -9 one mid-load; no acknowledged win lost; a write race is a 409 the client recovers from',
    { timeout: 90_000 },
    async () => {
      redis = await startRedis();
      const databaseUrl = postgresSkip() === '' ? await freshDatabaseUrl() : undefined;
      if (!databaseUrl)
        console.warn(`\n*** the fleet runs on one SQLite file: PostgreSQL is missing (${postgresSkip()}) ***\n`);
      fleet = await startFleet({
        size: 3,
        databasePath,
        env: {
          COOKIE_SECRET,
          REDIS_URL: redis.url,
          TRUST_PROXY: 'loopback',
          ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        },
      });
      const { base, apps } = fleet;
      const victim = apps[1]!; // app2

      const detail = (await (await fetch(`${base}/healthz?detail=1`)).json()) as Record<string, unknown>;
      expect(detail).toMatchObject({ backend: databaseUrl ? 'postgres' : 'sqlite', limits: { store: 'redis' } });

      const deals = new Map<string, Deal>();
      for (const seed of SEEDS)
        deals.set(seed, (await (await fetch(`${base}/api/deals/turtle/${seed}`)).json()) as Deal);

      const wins = new Map<string, { player: FleetPlayer; finishedAt: number }>(); // acknowledged: game id → …
      const servedBy = new Map<string, Set<string>>(); // game id → processes that answered its requests
      const afterKill = new Set<string>(); // processes that answered once the victim was dead and marked down
      let failures = 0; // answers that were not the game's (a 502 from the balancer, a cut connection)
      let killedAt: number | undefined;
      let kill!: () => void;
      const killNow = new Promise<void>((resolve) => (kill = resolve));

      /** Sends until a real answer comes (a 2xx or a 4xx of the app), as the client's retry does. */
      async function send(player: FleetPlayer, method: string, url: string, body?: unknown): Promise<Answer> {
        for (let attempt = 0; ; attempt++) {
          let answer: Answer | undefined;
          try {
            answer = await player.request(base, method, url, body);
          } catch {
            answer = undefined; // the connection was cut (the killed process was mid-answer)
          }
          if (answer && answer.status < 500) {
            if (killedAt !== undefined && Date.now() - killedAt > 1000 && answer.by) afterKill.add(answer.by);
            return answer;
          }
          failures++;
          if (attempt >= RETRIES) throw new Error(`${method} ${url}: no answer after ${RETRIES} tries`);
          await pause(150);
        }
      }

      const players = Array.from({ length: PLAYERS }, (_, i) => new FleetPlayer(`198.51.100.${i + 1}`));
      async function play(i: number, round: number): Promise<void> {
        const player = players[i]!;
        const deal = deals.get(SEEDS[(i + round) % SEEDS.length]!)!;
        const created = await send(player, 'POST', '/api/games', { layout: 'turtle', seed: deal.seed });
        if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.json)}`);
        const id = created.json.id as string;
        const by = new Set<string>([created.by!]);
        servedBy.set(id, by);
        const moves = matches(deal.solution);
        let at = 0;
        while (at < moves.length) {
          const res = await send(player, 'POST', `/api/games/${id}/moves`, { at, moves: moves.slice(at, at + BATCH) });
          if (res.status !== 200) throw new Error(`moves: ${res.status} ${JSON.stringify(res.json)}`);
          if (res.by) by.add(res.by);
          at = res.json.moves as number;
          if (res.json.status === 'won') {
            wins.set(id, { player, finishedAt: res.json.finishedAt as number });
            if (wins.size === KILL_AFTER_WINS) kill();
          }
        }
      }

      const load = Promise.all(players.map((_, i) => play(i, 0)));
      await Promise.race([killNow, load]);
      victim.child.kill('SIGKILL');
      killedAt = Date.now();
      const winsAtKill = wins.size;
      expect((await victim.exited).signal).toBe('SIGKILL');
      await load; // every player finishes their game on the survivors…
      await Promise.all(players.map((_, i) => play(i, 1))); // …and plays another there

      // The kill was mid-load, and every game was won in the end.
      expect(winsAtKill).toBeLessThan(PLAYERS);
      expect(wins.size).toBe(2 * PLAYERS);
      // Requests of one game landed on different processes, all three served, and only the survivors after.
      for (const [id, by] of servedBy) expect(by.size, `game ${id} was served by one process only`).toBeGreaterThan(1);
      expect(new Set([...servedBy.values()].flatMap((s) => [...s]))).toEqual(new Set(['app1', 'app2', 'app3']));
      expect([...afterKill].sort()).toEqual(['app1', 'app3']);
      expect(failures).toBeLessThanOrEqual(PLAYERS); // only requests cut by the kill, each once or so

      // Every acknowledged win is in the database, with the time it was answered with…
      const inDatabase = await storedGames(databaseUrl, databasePath);
      for (const [id, win] of wins)
        expect(inDatabase.get(id), `win ${id}`).toEqual({ result: 'won', finishedAt: win.finishedAt });
      // …and the players see it from any process.
      const [someId, some] = [...wins][0]!;
      const stats = await send(some.player, 'GET', '/api/stats');
      expect(stats.json.history).toContainEqual(expect.objectContaining({ id: someId, result: 'won' }));

      // A write race: two processes take a different first move of one game at once. One wins, the other
      // answers 409 with the server's log, and the client goes on from it.
      const [first, second] = [apps[0]!, apps[2]!];
      const deal = deals.get(SEEDS[0]!)!;
      const player = new FleetPlayer('203.0.113.77');
      const created = await send(player, 'POST', '/api/games', { layout: 'turtle', seed: deal.seed });
      const id = created.json.id as string;
      const start = newGame(deal);
      if (!start.ok) throw new Error(start.message);
      const solutionFirst = matches(deal.solution.slice(0, 1));
      const other = availablePairs(start.value).find(
        ([a, b]) => !(new Set([a, b]).has(deal.solution[0]![0]) || new Set([a, b]).has(deal.solution[0]![1])),
      )!;
      expect(other).toBeDefined();
      const [a, b] = await Promise.all([
        player.request(first.base, 'POST', `/api/games/${id}/moves`, { at: 0, moves: solutionFirst }),
        player.request(second.base, 'POST', `/api/games/${id}/moves`, { at: 0, moves: matches([other]) }),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const loser = a.status === 409 ? a : b;
      expect(loser.json).toMatchObject({ code: 'ERR_CONFLICT', moves: 1, log: expect.any(Array) });
      // The client adopts the server's log (src/client/sync.ts adoptServerLog) and plays on from there:
      // past the solution's first move, or undoing the other one first.
      const [stored] = loser.json.log as { type: string; a?: number; b?: number }[];
      const onSolution = stored?.a === deal.solution[0]![0] && stored?.b === deal.solution[0]![1];
      const rest = onSolution ? matches(deal.solution.slice(1)) : [{ type: 'undo' } as Move, ...matches(deal.solution)];
      const finished = await player.request(base, 'POST', `/api/games/${id}/moves`, { at: 1, moves: rest });
      expect(finished.status).toBe(200);
      expect(finished.json.status).toBe('won');
    },
  );
});
