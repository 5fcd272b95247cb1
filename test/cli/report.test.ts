import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, test } from 'vitest';
import { UsageError } from '../../src/cli/args.ts';
import { reportAnyCommand, reportCommand } from '../../src/cli/report.ts';
import { layoutById } from '../../src/engine/builtins.ts';
import {
  applyMove,
  availablePairs,
  deal,
  makeRng,
  newGame,
  type Deal,
  type Game,
  type Move,
} from '../../src/engine/index.ts';
import { buildApp } from '../../src/server/app.ts';
import { migrate, readMigrations } from '../../src/server/db/migrate.ts';
import { createGame, newPlayer, postMoves, solutionMoves } from '../server/helper.ts';
import { freshDatabaseUrl, postgresSkip } from '../support/postgres.ts';
import { ROOT } from '../support/root.ts';
import { runCli, runInProcess } from './run.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'mahjong-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const turtle = layoutById('turtle')!;
const dealOf = (seed: string, mode: 'relaxed' | 'classic'): Deal => {
  const d = deal(turtle, seed, mode);
  if (!d.ok) throw new Error(d.message);
  return d.value.deal;
};
const solution = (d: Deal): Move[] => d.solution.map(([a, b]) => ({ type: 'match', a, b }));

/** Random pairs until none is free: a stuck game (the seeds below are chosen so that it does not clear). */
function playUntilStuck(d: Deal, seed: string): { game: Game; log: Move[] } {
  const start = newGame(d);
  if (!start.ok) throw new Error(start.message);
  let game = start.value;
  const rng = makeRng(seed, 'test');
  const log: Move[] = [];
  for (let pairs = availablePairs(game); pairs.length > 0; pairs = availablePairs(game)) {
    const [a, b] = pairs[rng.int(pairs.length)]!;
    const next = applyMove(game, { type: 'match', a, b });
    if (!next.ok) throw new Error(next.message);
    game = next.value;
    log.push({ type: 'match', a, b });
  }
  if (game.left === 0) throw new Error('random play cleared the board; pick another seed');
  return { game, log };
}

/** A database with the migrations applied (all, or those before `before`) and three games in it. */
function makeDatabase(name = 'games.db', before = Infinity): string {
  const file = path.join(dir, name);
  const db = new Database(file);
  migrate(
    db,
    readMigrations(path.join(ROOT, 'migrations')).filter((m) => m.version < before),
  );
  const hasChecks = before > 8; // migration 008 adds the "can this still be won?" counts
  db.prepare('INSERT INTO players (id, created_at) VALUES (?, ?)').run('p1', 1);
  const addDeal = db.prepare(
    'INSERT INTO deals (layout, seed, mode, generator, deal_json, created_at) VALUES (?, ?, ?, ?, ?, 1)',
  );
  const addGame = db.prepare(
    `INSERT INTO games (id, player_id, deal_id, status, result, moves_json, move_count, tiles_left, hints, shuffles, undos,
       started_at, updated_at, finished_at) VALUES (?, 'p1', ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, 2, ?)`,
  );
  const setChecks = hasChecks ? db.prepare('UPDATE games SET checks = ?, checks_no = ? WHERE id = ?') : null;
  const game = (
    id: string,
    d: Deal,
    log: Move[],
    won: boolean,
    counts: { hints?: number; shuffles?: number; undos?: number; checks?: number; checksNo?: number },
  ) => {
    const dealId = Number(
      addDeal.run(d.layout, `${d.seed}-${id}`, d.mode, d.generator, JSON.stringify(d)).lastInsertRowid,
    );
    const tilesLeft = won ? 0 : 144 - 2 * log.filter((m) => m.type === 'match').length;
    addGame.run(id, dealId, won ? 'won' : 'stuck', won ? 'won' : null, JSON.stringify(log), log.length, tilesLeft,
      counts.hints ?? 0, counts.shuffles ?? 0, counts.undos ?? 0, won ? 3 : null); // prettier-ignore
    setChecks?.run(counts.checks ?? 0, counts.checksNo ?? 0, id);
  };
  const relaxed = dealOf('report-r', 'relaxed');
  const classic = dealOf('report-c', 'classic');
  game('clean', relaxed, solution(relaxed), true, {});
  const stuckRelaxed = playUntilStuck(relaxed, 'stuck-1');
  game('abandoned', relaxed, stuckRelaxed.log, false, { checks: 2, checksNo: 1 }); // asked twice, heard no, gave up
  // Stuck, every move undone, then the deal's solution after a hint: a win after getting stuck.
  const stuckClassic = playUntilStuck(classic, 'stuck-2');
  const undos: Move[] = stuckClassic.log.map(() => ({ type: 'undo' }));
  game('rescued', classic, [...stuckClassic.log, ...undos, { type: 'hint' }, ...solution(classic)], true, {
    hints: 1,
    undos: undos.length,
    checks: 1, // asked when stuck, heard no, undid and won
    checksNo: 1,
  });
  db.close();
  return file;
}

describe('report', () => {
  const file = makeDatabase();

  test('counts games, wins, clean wins and getting stuck per mode and layout', () => {
    const rows = JSON.parse(reportCommand(['--json'], { DATABASE_PATH: file }));
    expect(rows).toEqual([
      {
        mode: 'classic',
        layout: 'turtle',
        games: 1,
        won: 1,
        clean_wins: 0,
        got_stuck: 1,
        shuffled: 0,
        hinted: 1,
        won_after_stuck: 1,
        abandoned_after_stuck: 0,
        asked: 1,
        heard_no: 1,
        won_after_no: 1,
        abandoned_after_no: 0,
      },
      {
        mode: 'relaxed',
        layout: 'turtle',
        games: 2,
        won: 1,
        clean_wins: 1,
        got_stuck: 1,
        shuffled: 0,
        hinted: 0,
        won_after_stuck: 0,
        abandoned_after_stuck: 1,
        asked: 1,
        heard_no: 1,
        won_after_no: 0,
        abandoned_after_no: 1,
      },
    ]);
  });

  test('a database from before migration 008 reads "can this still be won?" counts as 0', () => {
    const old = makeDatabase('before-008.db', 8);
    const rows = JSON.parse(reportCommand(['--json'], { DATABASE_PATH: old })) as Record<string, unknown>[];
    expect(rows.map((r) => [r.mode, r.games, r.got_stuck, r.asked, r.heard_no])).toEqual([
      ['classic', 1, 1, 0, 0],
      ['relaxed', 2, 1, 0, 0],
    ]);
  });

  test('prints CSV by default', () => {
    const csv = reportCommand([], { DATABASE_PATH: file }).split('\n');
    expect(csv[0]).toBe(
      'mode,layout,games,won,clean_wins,got_stuck,shuffled,hinted,won_after_stuck,abandoned_after_stuck,' +
        'asked,heard_no,won_after_no,abandoned_after_no',
    );
    expect(csv.slice(1)).toEqual(['classic,turtle,1,1,0,1,0,1,1,0,1,1,1,0', 'relaxed,turtle,2,1,1,1,0,0,0,1,1,1,0,1']);
  });

  test('a missing database is a usage error', () => {
    expect(() => reportCommand([], { DATABASE_PATH: path.join(dir, 'none.db') })).toThrow(UsageError);
  });

  test('from the command line: exit 0 with the CSV, exit 2 and one line for a missing database', async () => {
    const ok = await runCli(['report'], { env: { ...process.env, DATABASE_PATH: file } as Record<string, string> });
    expect(ok.status).toBe(0);
    expect(ok.stdout.trim().split('\n')).toHaveLength(3);
    const bad = await runCli(['report'], {
      env: { ...process.env, DATABASE_PATH: path.join(dir, 'none.db') } as Record<string, string>,
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe.skipIf(postgresSkip())('report on PostgreSQL (DATABASE_URL)', () => {
  test('reads the games a server stored there, compact deals and all; the same CSV from the command line', async () => {
    const url = await freshDatabaseUrl({ migrated: true });
    const app = buildApp({ databasePath: ':memory:', databaseUrl: url, logger: false, dealer: { workers: 0 } });
    try {
      await app.ready();
      const cookie = await newPlayer(app);
      const won = await createGame(app, cookie, { layout: 'turtle', seed: 'report-pg' });
      expect((await postMoves(app, cookie, won.id, solutionMoves(won))).json().status).toBe('won');
      await createGame(app, cookie, { layout: 'garden', seed: 'report-pg' }); // started, nothing played
    } finally {
      await app.close();
    }
    const rows = JSON.parse(await reportAnyCommand(['--json'], { DATABASE_URL: url }));
    expect(rows).toEqual([
      expect.objectContaining({ mode: 'relaxed', layout: 'garden', games: 1, won: 0, got_stuck: 0 }),
      expect.objectContaining({ mode: 'relaxed', layout: 'turtle', games: 1, won: 1, clean_wins: 1, got_stuck: 0 }),
    ]);
    const env = { ...process.env, DATABASE_URL: url, DATABASE_PATH: path.join(dir, 'none.db') };
    const ok = await runCli(['report'], { env: env as Record<string, string> });
    expect(ok.status).toBe(0);
    expect(ok.stdout.trim().split('\n')).toEqual([
      'mode,layout,games,won,clean_wins,got_stuck,shuffled,hinted,won_after_stuck,abandoned_after_stuck,asked,heard_no,won_after_no,abandoned_after_no',
      'relaxed,garden,1,0,0,0,0,0,0,0,0,0,0,0',
      'relaxed,turtle,1,1,1,0,0,0,0,0,0,0,0,0',
    ]);
  });

  test('a bad or unreachable DATABASE_URL exits 2 with one line', async () => {
    for (const DATABASE_URL of ['mysql://x/y', 'postgres://nobody@127.0.0.1:1/none']) {
      const bad = await runInProcess(['report'], { env: { ...process.env, DATABASE_URL } });
      expect(bad.status, DATABASE_URL).toBe(2);
      expect(bad.stderr.trim().split('\n'), DATABASE_URL).toHaveLength(1);
    }
  });
});
