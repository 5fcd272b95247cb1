/**
 * Crash test : the real server as a child process on a temp database, 40
 * players (each with a cookie jar and an address of their own, through TRUST_PROXY) playing
 * their deals to the win concurrently in batches of 1–6 moves, `kill -9` mid-load, a restart on
 * the same file. Every win the server acknowledged (a 200 with status "won") must be there with
 * the acknowledged finish time, every acknowledged batch too, every stored game must replay to its
 * stored counters (log and counters are one write), `PRAGMA integrity_check` must say ok, and the
 * players must be able to play on where the database says they are.
 *
 * Loopback only; bounded: 40 games of at most 72 batches, under a minute.
 *
 * SQLite only: it checks the file's durability (WAL replay, integrity_check); on PostgreSQL durability is the
 * server's, and killing an app process mid-load is the fleet test's job (branch issue-15-fleet).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, test } from 'vitest';
import { replay, statusOf, type Deal, type Move } from '../../../src/engine/index.ts';
import { Player, startServer, type ServerProcess } from '../process.ts';

const PLAYERS = 40;
const SEEDS = ['crash0', 'crash1', 'crash2', 'crash3'];
const KILL_AFTER_WINS = 8; // kill -9 once this many wins were acknowledged

const dir = mkdtempSync(path.join(tmpdir(), 'mahjong-crash-'));
const databasePath = path.join(dir, 'crash.db');
const servers: ServerProcess[] = [];
afterAll(() => {
  for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

interface Acked {
  moves: number; // the move count of the last acknowledged batch
  won?: { finishedAt: number; timeMs: number };
}

test('kill -9 mid-load loses no acknowledged win or move, and the file stays sound', { timeout: 120_000 }, async () => {
  const env = { TRUST_PROXY: 'loopback' };
  const first = await startServer(databasePath, env);
  servers.push(first);

  const deals = new Map<string, Deal>();
  for (const seed of SEEDS)
    deals.set(seed, (await (await fetch(`${first.base}/api/deals/turtle/${seed}`)).json()) as Deal);

  const acked = new Map<string, Acked>(); // game id → what the server acknowledged
  const owner = new Map<string, { player: Player; deal: Deal }>();
  let wins = 0;
  let killed = false;
  let kill!: () => void;
  const killedNow = new Promise<void>((resolve) => (kill = resolve));

  async function play(i: number): Promise<void> {
    // Each player has an address of their own, as the (trusted) loopback "proxy" tells the server,
    // so the per-address rate limits see 40 people, not one.
    const player = new Player(first.base, { 'x-forwarded-for': `198.51.100.${i + 1}` });
    const send = (method: string, url: string, body?: unknown) => player.request(method, url, body);
    const deal = deals.get(SEEDS[i % SEEDS.length]!)!;
    const created = await send('POST', '/api/games', { layout: 'turtle', seed: deal.seed });
    if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.json)}`);
    const id = created.json.id as string;
    owner.set(id, { player, deal });
    acked.set(id, { moves: 0 });
    const moves: Move[] = deal.solution.map(([a, b]) => ({ type: 'match', a, b }));
    const size = 1 + (i % 6);
    for (let k = 0; k < moves.length && !killed; k += size) {
      const res = await send('POST', `/api/games/${id}/moves`, { moves: moves.slice(k, k + size) });
      if (res.status !== 200) throw new Error(`moves: ${res.status} ${JSON.stringify(res.json)}`);
      const entry: Acked = { moves: res.json.moves as number };
      if (res.json.status === 'won') {
        entry.won = { finishedAt: res.json.finishedAt as number, timeMs: res.json.timeMs as number };
        if (++wins === KILL_AFTER_WINS) kill();
      }
      acked.set(id, entry);
    }
  }

  const load = Promise.allSettled(Array.from({ length: PLAYERS }, (_, i) => play(i)));
  await Promise.race([killedNow, load]);
  killed = true;
  first.child.kill('SIGKILL');
  const exit = await first.exited;
  expect(exit.signal).toBe('SIGKILL');
  const outcomes = await load;
  // Requests cut by the kill fail with a network error; nothing else may fail.
  for (const o of outcomes)
    if (o.status === 'rejected') expect(String(o.reason)).toMatch(/fetch failed|ECONNRESET|socket|other side closed/i);
  const ackedWins = [...acked.values()].filter((a) => a.won).length;
  expect(ackedWins).toBeGreaterThanOrEqual(KILL_AFTER_WINS);
  expect(ackedWins).toBeLessThan(PLAYERS); // it was mid-load

  // The commits since the last checkpoint are only in the WAL: the restart has to recover them.
  expect(existsSync(`${databasePath}-wal`)).toBe(true);
  // Restart on the same file.
  const second = await startServer(databasePath, env);
  servers.push(second);
  expect((await fetch(`${second.base}/healthz`)).status).toBe(200);

  const db = new Database(databasePath, { readonly: true, fileMustExist: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const rows = db
      .prepare('SELECT id, status, result, moves_json, move_count, tiles_left, finished_at FROM games')
      .all() as {
      id: string;
      status: string;
      result: string | null;
      moves_json: string;
      move_count: number;
      tiles_left: number;
      finished_at: number | null;
    }[];
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const [id, a] of acked) {
      const row = byId.get(id);
      expect(row, `game ${id} was acknowledged`).toBeDefined();
      expect(row!.move_count).toBeGreaterThanOrEqual(a.moves);
      if (a.won)
        expect(row).toMatchObject({ result: 'won', status: 'won', finished_at: a.won.finishedAt, move_count: 72 });
    }
    // Log and counters were written together: every row replays to what it says.
    for (const row of rows) {
      const deal = owner.get(row.id)!.deal;
      const game = replay(deal, JSON.parse(row.moves_json) as Move[]);
      expect(game.ok).toBe(true);
      if (!game.ok) continue;
      expect(game.value.log.length).toBe(row.move_count);
      expect(game.value.left).toBe(row.tiles_left);
      expect(statusOf(game.value)).toBe(row.status);
      expect(row.result === 'won').toBe(row.status === 'won');
      expect(row.finished_at !== null).toBe(row.status === 'won');
    }

    // Everyone plays on from where the database says they are, and wins.
    await Promise.all(
      rows
        .filter((r) => r.result === null)
        .map(async (row) => {
          const { player, deal } = owner.get(row.id)!;
          player.base = second.base;
          const rest: Move[] = deal.solution.slice(row.move_count).map(([a, b]) => ({ type: 'match', a, b }));
          const res = await player.request('POST', `/api/games/${row.id}/moves`, { moves: rest });
          expect(res.status).toBe(200);
          expect(res.json.status).toBe('won');
        }),
    );
    // A player's own view agrees: their stats list the acknowledged win with its server time.
    const [wonId, wonAck] = [...acked].find(([, a]) => a.won)!;
    const wonBy = owner.get(wonId)!.player;
    wonBy.base = second.base;
    const stats = await wonBy.request('GET', '/api/stats');
    expect(stats.json.history).toEqual([
      expect.objectContaining({ id: wonId, result: 'won', timeMs: wonAck.won!.timeMs }),
    ]);
  } finally {
    db.close();
  }

  second.child.kill('SIGTERM');
  expect((await second.exited).code).toBe(0);
});
