/**
 * Migration 014 (play on's own mark, docs/coach.md) on a SQLite database with games in it: the `unranked` column
 * is swapped for one whose CHECK also takes 'play-on', inside the runner's transaction with foreign keys on, and
 * every game keeps its mark; `play_on_from` is new and empty.
 */
import Database from 'better-sqlite3';
import { expect, test } from 'vitest';
import { migrate, readMigrations } from '../../../src/server/db/migrate.ts';
import { MIGRATIONS_DIR } from '../../../src/server/plugins/database.ts';

test('014_play_on keeps every game and its mark, and takes play-on', () => {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  const files = readMigrations(MIGRATIONS_DIR);
  migrate(
    db,
    files.filter((m) => m.version < 14),
  );
  db.prepare("INSERT INTO players (id, created_at) VALUES ('p', 0)").run();
  db.prepare(
    "INSERT INTO deals (id, layout, seed, mode, generator, deal_json, created_at) VALUES (1, 'turtle', 's', 'relaxed', '1', '{}', 0)",
  ).run();
  const insert = db.prepare(
    "INSERT INTO games (id, player_id, deal_id, status, tiles_left, started_at, updated_at, unranked) VALUES (?, 'p', 1, 'playing', 144, 0, 0, ?)",
  );
  for (const [id, unranked] of [
    ['a', 'fast'],
    ['b', 'legacy'],
    ['c', null],
  ] as const)
    insert.run(id, unranked);
  expect(() => insert.run('d', 'play-on')).toThrow(/CHECK/);
  db.prepare("INSERT INTO replays (token, game_id, created_at) VALUES ('t', 'a', 0)").run(); // a row that points at a game

  expect(migrate(db, files)).toEqual(files.filter((m) => m.version >= 14).map((m) => m.name));
  expect(db.prepare('SELECT id, unranked, play_on_from FROM games ORDER BY id').all()).toEqual([
    { id: 'a', unranked: 'fast', play_on_from: null },
    { id: 'b', unranked: 'legacy', play_on_from: null },
    { id: 'c', unranked: null, play_on_from: null },
  ]);
  insert.run('d', 'play-on');
  expect(() => insert.run('e', 'other')).toThrow(/CHECK/);
  expect(db.pragma('foreign_key_check')).toEqual([]);
  expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  db.close();
});
