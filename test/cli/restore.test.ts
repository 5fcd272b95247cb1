/**
 * `restore PATH [--force]`, and `backup` on PostgreSQL, run as a user runs them (a child
 * process through tsx; the tables of refusals in this process through src/cli/run.ts): a backup restores to the same rows on both backends; SQLite refuses a database a
 * server holds and keeps the one it replaces; PostgreSQL restores into an empty database only, atomically;
 * bad input of every kind (a missing path, an existing target, a damaged file, the other backend's backup)
 * exits 2 with one line and changes nothing. The round trip under load is backup-load.test.ts.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase } from '../../src/server/plugins/database.ts';
import { freshDatabaseUrl, postgresSkip } from '../support/postgres.ts';
import { startServer } from '../server/process.ts';
import { runCli, runInProcess, type Run } from './run.ts';

const DIR = mkdtempSync(path.join(tmpdir(), 'mahjong-restore-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const folder = (name: string): string => {
  const dir = path.join(DIR, name);
  mkdirSync(dir, { recursive: true });
  return dir;
};

/** The CLI from the temporary folder, with only the variables given (so data/mahjong.db is surely not real). */
function cli(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return runCli(args, { cwd: DIR, env: { PATH: process.env.PATH ?? '', ...env } });
}

/**
 * The same in this process (src/cli/run.ts, as main.ts runs it), for the tables of refusals: every path in them
 * is absolute, and a child process each made them take minutes on a busy machine.
 */
const inProcess = (env: Record<string, string>, ...args: string[]): Promise<Run> => runInProcess(args, { env });

/** A migrated SQLite database with a player and a setting; closed. */
function sqliteDatabase(file: string, nickname = 'Mei'): string {
  const { db } = openDatabase(file);
  db.prepare("INSERT INTO settings (key, value) VALUES ('kept', ?)").run(nickname);
  db.prepare('INSERT INTO players (id, nickname, created_at) VALUES (?, ?, ?)').run(`p-${nickname}`, nickname, 1);
  db.close();
  return file;
}

const nicknames = (file: string): unknown[] => {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT nickname FROM players ORDER BY nickname').all();
  } finally {
    db.close();
  }
};

/** Expects a refusal: status 2, nothing on stdout, one line on stderr matching `message`, no stack. */
function refused(run: Run, message: RegExp): void {
  expect(run.stdout).toBe('');
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^mahjong: /);
  expect(lines[0]).toMatch(message);
  expect(run.stderr).not.toMatch(/\n\s+at |Error:/);
  expect(run.status).toBe(2);
}

describe('restore on SQLite', () => {
  test('a backup comes back where DATABASE_PATH points, as one checked file', { timeout: 60_000 }, async () => {
    const dir = folder('sqlite-new');
    const backupFile = path.join(dir, 'backup.db');
    expect((await cli({ DATABASE_PATH: sqliteDatabase(path.join(dir, 'live.db')) }, 'backup', backupFile)).status).toBe(
      0,
    );
    const target = path.join(dir, 'sub', 'restored.db'); // a folder that does not exist yet is made, as the server does
    const run = await cli({ DATABASE_PATH: target }, 'restore', backupFile);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      restored: target,
      backend: 'sqlite',
      from: backupFile,
      replaced: null,
      applied: [],
      games: 0,
    });
    expect(nicknames(target)).toEqual([{ nickname: 'Mei' }]);
    expect(readdirSync(path.dirname(target))).toEqual(['restored.db']); // no WAL, no partial file
    const reopened = openDatabase(target); // what the server does on start
    expect(reopened.applied).toEqual([]);
    reopened.db.close();
  });

  test('an older database is replaced only with --force, and kept beside', { timeout: 60_000 }, async () => {
    const dir = folder('sqlite-replace');
    const backupFile = path.join(dir, 'backup.db');
    await cli({ DATABASE_PATH: sqliteDatabase(path.join(dir, 'then.db'), 'Then') }, 'backup', backupFile);
    const target = sqliteDatabase(path.join(dir, 'mahjong.db'), 'Now');

    refused(await cli({ DATABASE_PATH: target }, 'restore', backupFile), /there is a database at .*; add --force/);
    expect(nicknames(target)).toEqual([{ nickname: 'Now' }]);

    const run = await cli({ DATABASE_PATH: target }, 'restore', backupFile, '--force');
    expect(run.status).toBe(0);
    const { replaced } = JSON.parse(run.stdout) as { replaced: string };
    expect(replaced).toMatch(/mahjong\.db\.replaced-\d{4}-\d\d-\d\dT/);
    expect(nicknames(target)).toEqual([{ nickname: 'Then' }]);
    expect(nicknames(replaced)).toEqual([{ nickname: 'Now' }]);
  });

  test('refused while a server holds the database, even with --force', { timeout: 60_000 }, async () => {
    const dir = folder('sqlite-held');
    const backupFile = path.join(dir, 'backup.db');
    await cli({ DATABASE_PATH: sqliteDatabase(path.join(dir, 'other.db')) }, 'backup', backupFile);
    const target = path.join(dir, 'mahjong.db');
    const server = await startServer(target);
    try {
      expect((await fetch(`${server.base}/api/deals/turtle/held`)).status).toBe(200);
      refused(
        await cli({ DATABASE_PATH: target }, 'restore', backupFile, '--force'),
        /is in use by another process \(a running server\?\); stop it first/,
      );
      expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    expect(readdirSync(dir).filter((f) => f.includes('replaced') || f.includes('partial'))).toEqual([]);
    // Once it has stopped, the same command goes through.
    expect((await cli({ DATABASE_PATH: target }, 'restore', backupFile, '--force')).status).toBe(0);
  });
});

describe.skipIf(postgresSkip())('backup and restore on PostgreSQL', () => {
  let source: string;
  let backupFile: string;
  beforeAll(async () => {
    source = await freshDatabaseUrl({ migrated: true });
    const client = new pg.Client({ connectionString: source });
    await client.connect();
    await client.query("INSERT INTO players (id, nickname, created_at) VALUES ('p1', 'Mei', 1), ('p2', NULL, 2)");
    await client.query("INSERT INTO settings (key, value) VALUES ('kept', 'line one\nline two, \"quoted\" ✓')");
    await client.end();
    backupFile = path.join(folder('pg'), 'backup.jsonl.gz');
    const run = await cli({ DATABASE_URL: source }, 'backup', backupFile);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ backup: backupFile, backend: 'postgres', rows: expect.any(Number) });
    expect(JSON.parse(run.stdout).source).not.toMatch(/:[^/@]+@/); // the password is not printed
  });

  const rows = async (url: string, sql: string): Promise<unknown[]> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  };

  test('restores into an empty database, the same rows and the same text', { timeout: 60_000 }, async () => {
    const target = await freshDatabaseUrl(); // empty: not even migrated
    const run = await cli({ DATABASE_URL: target }, 'restore', backupFile);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ backend: 'postgres', restored: backupFile });
    const query = 'SELECT id, nickname FROM players ORDER BY id';
    expect(await rows(target, query)).toEqual(await rows(source, query));
    expect(await rows(target, "SELECT value FROM settings WHERE key = 'kept'")).toEqual([
      { value: 'line one\nline two, "quoted" ✓' },
    ]);
    expect(await rows(target, 'SELECT version, name, checksum FROM schema_migrations ORDER BY version')).toEqual(
      await rows(source, 'SELECT version, name, checksum FROM schema_migrations ORDER BY version'),
    );
  });

  test('refuses a database that is not empty, and changes nothing in it', { timeout: 60_000 }, async () => {
    const target = await freshDatabaseUrl({ migrated: true });
    refused(await cli({ DATABASE_URL: target }, 'restore', backupFile), /is not empty .*restore into a new, empty/);
    expect(await rows(target, 'SELECT id FROM players')).toEqual([]);
  });

  test('a database that cannot be reached: exit 2 with the reason, without the password', async () => {
    const run = await cli({ DATABASE_URL: 'postgres://mahjong:s3cret@127.0.0.1:1/none' }, 'restore', backupFile);
    refused(run, /cannot connect to DATABASE_URL \(postgres:\/\/mahjong@127\.0\.0\.1:1\/none\)/);
    expect(run.stderr).not.toContain('s3cret');
  });

  describe('a damaged backup is refused before anything is written', () => {
    const dir = folder('pg-damaged');
    const lines = (): string[] => gunzipSync(readFileSync(backupFile)).toString('utf8').trimEnd().split('\n');
    /** The lines again, with a trailer that matches them (a file damaged in a way its checksum does not show). */
    const resealed = (body: string[]): Buffer => {
      const text = body.map((l) => `${l}\n`).join('');
      const end = JSON.stringify([
        'end',
        { lines: body.length, sha256: createHash('sha256').update(text).digest('hex') },
      ]);
      return gzipSync(`${text}${end}\n`);
    };
    const CASES: readonly (readonly [string, () => Buffer, RegExp])[] = [
      ['cut short', () => readFileSync(backupFile).subarray(0, 200), /cannot be restored: it is (damaged|cut short)/],
      ['without its end line', () => gzipSync(lines().slice(0, -1).join('\n') + '\n'), /it is cut short/],
      [
        'a row changed',
        () => gzipSync(lines().join('\n').replace('"Mei"', '"Eve"') + '\n'),
        /does not match its checksum/,
      ],
      [
        'a row taken out, resealed',
        () =>
          resealed(
            lines()
              .slice(0, -1)
              .filter((l) => !l.includes('"p2"')),
          ),
        /table players has 1 rows where its header says 2/,
      ],
      ['another gzip file', () => gzipSync('{"hello":"world"}\n'), /it is not a mahjong-postgres-backup file/],
      ['gzip of nothing', () => gzipSync(''), /it is empty/],
      [
        'flipped bytes',
        () => {
          const bytes = Buffer.from(readFileSync(backupFile));
          for (let i = 40; i < 60; i++) bytes[i] = bytes[i]! ^ 0xff;
          return bytes;
        },
        /cannot be restored: it is damaged|does not match|not a JSON|malformed|neither a row/,
      ],
    ];
    test.each(CASES)('%s', { timeout: 30_000 }, async (label, make, message) => {
      const file = path.join(dir, `${label.replaceAll(' ', '-')}.jsonl.gz`);
      writeFileSync(file, make());
      const target = await freshDatabaseUrl();
      refused(await inProcess({ DATABASE_URL: target }, 'restore', file), message);
      expect(
        await rows(
          target,
          "SELECT relname FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace",
        ),
      ).toEqual([]);
    });
  });
});

describe('bad input: exit 2, one line on stderr, nothing written', () => {
  const dir = folder('bad');
  const target = path.join(dir, 'target', 'mahjong.db');
  const good = path.join(dir, 'good.db');
  sqliteDatabase(path.join(dir, 'source.db'));
  const made = new Database(path.join(dir, 'source.db'), { readonly: true });
  const copied = made.backup(good);
  afterAll(() => made.close());

  const notADatabase = path.join(dir, 'notes.txt');
  writeFileSync(notADatabase, 'hello, this is not a backup\n'.repeat(100));
  const foreign = path.join(dir, 'foreign.db');
  new Database(foreign).exec('CREATE TABLE t (x); INSERT INTO t VALUES (1);').close();
  const newer = path.join(dir, 'newer.db');
  const damaged = path.join(dir, 'damaged.db');
  const pgBackup = path.join(dir, 'pg.jsonl.gz');
  writeFileSync(pgBackup, gzipSync('{"format":"mahjong-postgres-backup"}\n'));
  beforeAll(async () => {
    await copied;
    writeFileSync(newer, readFileSync(good));
    const db = new Database(newer);
    db.prepare('INSERT INTO schema_migrations VALUES (999, ?, ?, 0)').run('999_from_the_future.sql', 'abc');
    db.close();
    const bytes = Buffer.from(readFileSync(good));
    bytes.fill(0xa5, 4096 * 2, 4096 * 6); // pages in the middle of the file
    writeFileSync(damaged, bytes);
  });

  const sqlite = { DATABASE_PATH: target };
  const postgres = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }; // refused before connecting
  const CASES: readonly (readonly [string, Record<string, string>, () => string[], RegExp])[] = [
    ['no path', sqlite, () => [], /^mahjong: restore needs the PATH of a backup$/],
    ['two paths', sqlite, () => [good, good], /restore takes one PATH, not 2/],
    ['an unknown flag', sqlite, () => [good, '--overwrite'], /unknown flag "--overwrite"/],
    ['a missing backup', sqlite, () => [path.join(dir, 'nowhere.db')], /there is no backup at ".*nowhere\.db"/],
    ['a directory', sqlite, () => [dir], /is a directory, not a backup/],
    ['not a backup', sqlite, () => [notADatabase], /notes\.txt" is not a backup \(neither a SQLite database/],
    ['a SQLite file of something else', sqlite, () => [foreign], /is a SQLite database but not a backup of this game/],
    ['a damaged SQLite backup', sqlite, () => [damaged], /damaged\.db" is damaged/],
    ['a backup from a newer version', sqlite, () => [newer], /was made by another version .*999_from_the_future/],
    ['the database itself', { DATABASE_PATH: good }, () => [good, '--force'], /the backup is the database itself/],
    [
      "PostgreSQL's backup into SQLite",
      sqlite,
      () => [pgBackup],
      /is a PostgreSQL backup; to restore it, set DATABASE_URL/,
    ],
    [
      "SQLite's backup into PostgreSQL",
      postgres,
      () => [good],
      /is a SQLite backup; to restore it, unset DATABASE_URL/,
    ],
    ['--force on PostgreSQL', postgres, () => [pgBackup, '--force'], /--force is for SQLite/],
    [
      'a PostgreSQL backup that is only a header',
      postgres,
      () => [pgBackup],
      /cannot be restored: its header is malformed/,
    ],
  ];

  describe('restore', () => {
    test.each(CASES)('%s', { timeout: 30_000 }, async (_label, env, args, message) => {
      const before = readdirSync(dir).sort();
      refused(await inProcess(env, 'restore', ...args()), message);
      expect(readdirSync(dir).sort(), before.join(' ')).toEqual(before);
      expect(existsSync(target)).toBe(false);
    });
  });

  test('backup with DATABASE_URL: an existing target, a missing folder, a bad URL', async () => {
    refused(await inProcess(postgres, 'backup', good), /exists; add --force to replace it/);
    refused(await inProcess(postgres, 'backup', path.join(dir, 'nowhere', 'b.gz')), /there is no folder/);
    refused(
      await inProcess({ DATABASE_URL: 'mysql://db/x' }, 'backup', path.join(dir, 'b.gz')),
      /DATABASE_URL is a PostgreSQL URL/,
    );
    refused(await inProcess(postgres, 'backup', path.join(dir, 'b.gz')), /cannot connect to DATABASE_URL/);
    expect(existsSync(path.join(dir, 'b.gz'))).toBe(false);
  });
});
