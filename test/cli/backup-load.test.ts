/**
 * Backups under load, on both backends: the real server as a child process with 24
 * players finishing and abandoning games concurrently (each its own address through TRUST_PROXY, its own
 * cookie, move batches of 1–6 that say where they start, as the page sends them), `backup` run while they
 * play, `restore` into a fresh database, a new server started on it. The restored world must be consistent:
 * every game's stored log replays to its stored status and counters, a win has its finish and its records
 * (the deal's winners, the player's stats), every view its count, and everything acknowledged before the
 * backup began is in it. Then the players go on playing on the restored server.
 *
 * Loopback only; bounded: a few hundred requests a backend, well under a minute each.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, test } from 'vitest';
import { replay, statusOf, type Deal, type Move } from '../../src/engine/index.ts';
import { freshDatabaseUrl, postgresSkip } from '../support/postgres.ts';
import { Player, startServer, type ServerProcess } from '../server/process.ts';
import { runCli } from './run.ts';

const PLAYERS = 24;
const WINS_BEFORE_BACKUP = 10; // the backup starts once this many wins were acknowledged
const COOKIE_SECRET = 'backup-Load-0123456789-abcdefghijkLMNOP'; // the same on both servers: players stay signed in

const dir = mkdtempSync(path.join(tmpdir(), 'mahjong-backup-load-'));
const servers: ServerProcess[] = [];
afterAll(() => {
  for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

interface Acked {
  moves: number; // the move count of the last acknowledged batch
  won: boolean;
  at: number; // performance.now() when that answer arrived
}

interface GameRow {
  id: string;
  player_id: string;
  deal_id: number;
  seed: string;
  mode: string;
  status: string;
  result: string | null;
  moves_json: string;
  move_count: number;
  tiles_left: number;
  finished_at: number | null;
}

/** Reads the restored database, either backend; numbers as numbers. */
interface Reader {
  all<T>(sql: string): Promise<T[]>;
  close(): Promise<void>;
}

function sqliteReader(file: string): Reader {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  return {
    all: async <T>(sql: string) => db.prepare(sql).all() as T[],
    close: async () => {
      db.close();
    },
  };
}

async function postgresReader(url: string): Promise<Reader> {
  const INT8 = 20;
  const client = new pg.Client({
    connectionString: url,
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === INT8 ? Number : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  await client.connect();
  return {
    all: async <T>(sql: string) => (await client.query(sql)).rows as T[],
    close: () => client.end(),
  };
}

interface Backend {
  name: 'sqlite' | 'postgres';
  skip: string;
  /** The environment of a server and of the CLI on a new database: [the first, the one restored into]. */
  databases(): Promise<[Record<string, string>, Record<string, string>]>;
  reader(env: Record<string, string>): Promise<Reader>;
}

const BACKENDS: Backend[] = [
  {
    name: 'sqlite',
    skip: '',
    databases: async () => [
      { DATABASE_PATH: path.join(dir, 'live.db') },
      { DATABASE_PATH: path.join(dir, 'restored.db') },
    ],
    reader: async (env) => sqliteReader(env.DATABASE_PATH!),
  },
  {
    name: 'postgres',
    skip: postgresSkip(),
    // Both empty: the first server migrates its own; the restore makes the other's tables.
    databases: async () => [{ DATABASE_URL: await freshDatabaseUrl() }, { DATABASE_URL: await freshDatabaseUrl() }],
    reader: (env) => postgresReader(env.DATABASE_URL!),
  },
];

describe.each(BACKENDS)('$name', (backend) => {
  test.skipIf(backend.skip)(
    'a backup taken while games are played restores to a consistent world',
    { timeout: 180_000 },
    async () => {
      const [liveDb, restoredDb] = await backend.databases();
      const env = { TRUST_PROXY: 'loopback', COOKIE_SECRET, ...liveDb };
      const first = await startServer(path.join(dir, 'unused.db'), env);
      servers.push(first);

      const acked = new Map<string, Acked>(); // game id → what the server acknowledged
      const owner = new Map<string, { player: Player; deal: Deal }>();
      const players: Player[] = [];
      let wins = 0;
      let stop = false;
      let reached!: () => void;
      const enoughWins = new Promise<void>((resolve) => (reached = resolve));

      async function play(i: number): Promise<void> {
        // A network of its own, so the per-client budgets (an IPv4 /24) see 24 clients, not one.
        const player = new Player(first.base, { 'x-forwarded-for': `10.${i + 1}.0.7` });
        players.push(player);
        for (let round = 0; !stop; round++) {
          // A new seed each game: its deal is made and stored while the backup may be running.
          const created = await player.request('POST', '/api/games', { layout: 'turtle', seed: `load${i}r${round}` });
          if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.json)}`);
          const deal = created.json as unknown as Deal & { id: string };
          owner.set(deal.id, { player, deal });
          acked.set(deal.id, { moves: 0, won: false, at: performance.now() });
          const moves: Move[] = deal.solution.map(([a, b]) => ({ type: 'match', a, b }));
          // Every fourth player leaves each game half played: unfinished games are in the backup too.
          const until = i % 4 === 3 ? moves.length / 2 : moves.length;
          const size = 1 + (i % 6);
          for (let at = 0; at < until && !stop; at += size) {
            const res = await player.request('POST', `/api/games/${deal.id}/moves`, {
              at,
              moves: moves.slice(at, Math.min(at + size, until)),
            });
            if (res.status !== 200) throw new Error(`moves: ${res.status} ${JSON.stringify(res.json)}`);
            const won = res.json.status === 'won';
            acked.set(deal.id, { moves: res.json.moves as number, won, at: performance.now() });
            if (won && ++wins === WINS_BEFORE_BACKUP) reached();
            await new Promise((resolve) => setTimeout(resolve, 5 + (i % 7)));
          }
        }
      }

      const load = Promise.all(Array.from({ length: PLAYERS }, (_, i) => play(i)));
      await Promise.race([enoughWins, load]);
      const backupFile = path.join(dir, `${backend.name}.backup`);
      const backupStart = performance.now();
      const backup = await runCli(['backup', backupFile], { env: { PATH: process.env.PATH ?? '', ...liveDb } });
      const backupEnd = performance.now();
      const writesDuring = [...acked.values()].filter((a) => a.at > backupStart && a.at < backupEnd).length;
      await new Promise((resolve) => setTimeout(resolve, 300)); // a little more play after it
      stop = true;
      await load;
      expect(backup.stderr).toBe('');
      expect(backup.status).toBe(0);
      expect(writesDuring, 'moves were acknowledged while the backup ran').toBeGreaterThan(0);
      first.child.kill('SIGTERM');
      expect((await first.exited).code).toBe(0);

      const restore = await runCli(['restore', backupFile], { env: { PATH: process.env.PATH ?? '', ...restoredDb } });
      expect(restore.stderr).toBe('');
      expect(restore.status).toBe(0);
      const second = await startServer(path.join(dir, 'unused2.db'), { ...env, ...restoredDb });
      servers.push(second);
      expect((await fetch(`${second.base}/healthz`)).status).toBe(200);
      for (const player of players) player.base = second.base;

      const db = await backend.reader(restoredDb);
      try {
        const rows = await db.all<GameRow>(
          `SELECT g.id, g.player_id, g.deal_id, d.seed, d.mode, g.status, g.result, g.moves_json, g.move_count,
                  g.tiles_left, g.finished_at
           FROM games g JOIN deals d ON d.id = g.deal_id`,
        );
        expect(rows.length).toBeGreaterThan(PLAYERS);
        const byId = new Map(rows.map((r) => [r.id, r]));
        // Everything acknowledged before the backup began is in it.
        let before = 0;
        for (const [id, a] of acked) {
          if (a.at >= backupStart) continue;
          before++;
          const row = byId.get(id);
          expect(row, `game ${id} was acknowledged before the backup`).toBeDefined();
          expect(row!.move_count).toBeGreaterThanOrEqual(a.moves);
          if (a.won) expect(row!.result).toBe('won');
        }
        expect(before).toBeGreaterThan(WINS_BEFORE_BACKUP);
        // Each game's log and counters were written together: it replays to what it says.
        for (const row of rows) {
          const { deal } = owner.get(row.id)!;
          expect([row.seed, row.mode]).toEqual([deal.seed, 'relaxed']);
          const game = replay(deal, JSON.parse(row.moves_json) as Move[]);
          expect(game.ok).toBe(true);
          if (!game.ok) continue;
          expect(game.value.log.length).toBe(row.move_count);
          expect(game.value.left).toBe(row.tiles_left);
          expect(statusOf(game.value)).toBe(row.status);
          expect(row.result === 'won').toBe(row.status === 'won');
          expect(row.finished_at !== null).toBe(row.status === 'won');
        }
        // A deal's record counts its viewers and its winners, written with the view and the win.
        const records = await db.all<{ deal_id: number; opened: number; won: number }>(
          'SELECT deal_id, opened, won FROM deal_records',
        );
        const views = await db.all<{ deal_id: number }>('SELECT deal_id FROM first_shown');
        for (const record of records) {
          expect(record.opened).toBe(views.filter((v) => v.deal_id === record.deal_id).length);
          const winners = new Set(
            rows.filter((r) => r.deal_id === record.deal_id && r.result === 'won').map((r) => r.player_id),
          );
          expect(record.won).toBe(winners.size);
        }
        // Every game's deal was shown first (a view may have no game yet: the backup can fall between them).
        const recorded = new Set(records.map((r) => r.deal_id));
        for (const row of rows) expect(recorded.has(row.deal_id), `deal ${row.deal_id} has its record`).toBe(true);

        // Each player's stats, from the restored server, agree with the restored games.
        for (const player of players) {
          const stats = await player.request('GET', '/api/stats');
          expect(stats.status).toBe(200);
          const mine = [...owner].filter(([id, o]) => o.player === player && byId.has(id)).map(([id]) => byId.get(id)!);
          expect(stats.json.played).toBe(mine.length);
          expect(stats.json.won).toBe(mine.filter((r) => r.result === 'won').length);
        }
      } finally {
        await db.close();
      }

      // Everyone plays on from where the restored database says they are, and new deals and games are made.
      const restoredRows = new Map<string, number>(); // unfinished games of the restored database → their move count
      const reread = await backend.reader(restoredDb);
      try {
        for (const r of await reread.all<{ id: string; move_count: number; result: string | null }>(
          'SELECT id, move_count, result FROM games',
        ))
          if (r.result === null) restoredRows.set(r.id, r.move_count);
      } finally {
        await reread.close();
      }
      await Promise.all(
        [...restoredRows.keys()].slice(0, 12).map(async (id) => {
          const { player, deal } = owner.get(id)!;
          const at = restoredRows.get(id)!;
          const rest: Move[] = deal.solution.slice(at).map(([a, b]) => ({ type: 'match', a, b }));
          const res = await player.request('POST', `/api/games/${id}/moves`, { at, moves: rest });
          expect(res.status).toBe(200);
          expect(res.json.status).toBe('won');
        }),
      );
      const fresh = await players[0]!.request('POST', '/api/games', { layout: 'turtle', seed: 'after-restore' });
      expect(fresh.status).toBe(201);

      second.child.kill('SIGTERM');
      expect((await second.exited).code).toBe(0);
    },
  );
});
