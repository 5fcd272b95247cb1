/** The migration runner and the database plugin's pragmas. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import Database from 'better-sqlite3';
import { migrate, readMigrations } from '../../../src/server/db/migrate.ts';
import { MIGRATIONS_DIR, openDatabase } from '../../../src/server/plugins/database.ts';

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'mj-migrations-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const tables = (db: Database.Database): string[] =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map(
    (r) => r.name,
  );

describe('migrations', () => {
  test('from an empty database: every file applied in order, recorded, and a second run applies nothing', () => {
    const { db, applied } = openDatabase(':memory:');
    const files = readMigrations(MIGRATIONS_DIR);
    expect(files.length).toBeGreaterThan(0);
    expect(applied).toEqual(files.map((m) => m.name));
    expect(tables(db)).toEqual(expect.arrayContaining(['deals', 'games', 'players', 'schema_migrations', 'settings']));
    const recorded = db.prepare('SELECT version, name, checksum FROM schema_migrations ORDER BY version').all();
    expect(recorded).toEqual(files.map((m) => ({ version: m.version, name: m.name, checksum: m.checksum })));
    expect(migrate(db, files)).toEqual([]);
    db.close();
  });

  test('a file database: WAL, synchronous=NORMAL, foreign keys, busy timeout; its folder is created', () => {
    const path = join(tempDir(), 'nested', 'dir', 'test.db');
    const { db } = openDatabase(path);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
    const again = openDatabase(path); // reopening migrates nothing
    expect(again.applied).toEqual([]);
    again.db.close();
  });

  test('foreign keys are enforced: a game needs a real player and deal', () => {
    const { db } = openDatabase(':memory:');
    expect(() =>
      db
        .prepare(
          "INSERT INTO games (id, player_id, deal_id, status, tiles_left, started_at, updated_at) VALUES ('g', 'nobody', 1, 'playing', 2, 0, 0)",
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
    db.close();
  });

  test('a failing migration rolls back entirely and is not recorded', () => {
    const dir = tempDir();
    writeFileSync(join(dir, '001_one.sql'), 'CREATE TABLE one (x INTEGER);');
    writeFileSync(join(dir, '002_two.sql'), 'CREATE TABLE two (x INTEGER); INSERT INTO nowhere VALUES (1);');
    const db = new Database(':memory:');
    expect(() => migrate(db, readMigrations(dir))).toThrow(/nowhere/);
    expect(tables(db)).toEqual(['one', 'schema_migrations']);
    expect(db.prepare('SELECT name FROM schema_migrations').all()).toEqual([{ name: '001_one.sql' }]);
    db.close();
  });

  test('an applied migration that changed, or vanished, stops the start', () => {
    const dir = tempDir();
    writeFileSync(join(dir, '001_one.sql'), 'CREATE TABLE one (x INTEGER);');
    const db = new Database(':memory:');
    migrate(db, readMigrations(dir));
    writeFileSync(join(dir, '001_one.sql'), 'CREATE TABLE one (x INTEGER, y INTEGER);');
    expect(() => migrate(db, readMigrations(dir))).toThrow(/changed after it was applied/);
    rmSync(join(dir, '001_one.sql'));
    expect(() => migrate(db, readMigrations(dir))).toThrow(/file is gone/);
    db.close();
  });

  test('files must be named NNN_name.sql with unique numbers', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'one.sql'), '');
    expect(() => readMigrations(dir)).toThrow(/NNN_name\.sql/);
    const dup = tempDir();
    writeFileSync(join(dup, '001_a.sql'), '');
    writeFileSync(join(dup, '001_b.sql'), '');
    expect(() => readMigrations(dup)).toThrow(/two migrations are numbered 1/);
  });
});
