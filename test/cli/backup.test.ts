/**
 * `backup PATH [--force]`: an online backup of DATABASE_PATH, run as a user runs it
 * (`node dist/cli/main.js backup …`, the build, from a temporary folder). The copy is whole, one
 * file, passes its checks, and opens as the server's database; bad input exits 2 with one line
 * on stderr and leaves nothing behind (run in this process through src/cli/run.ts, but for the
 * default database path, which is relative to the working folder).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, test } from 'vitest';
import { openDatabase } from '../../src/server/plugins/database.ts';
import { Player, startServer } from '../server/process.ts';
import { runCli, runInProcess, type Run } from './run.ts';

const DIR = mkdtempSync(path.join(tmpdir(), 'mahjong-backup-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

function backup(databasePath: string | undefined, ...args: string[]): Promise<Run> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '' };
  if (databasePath !== undefined) env.DATABASE_PATH = databasePath;
  // From the temporary folder, so the default data/mahjong.db is surely not a real one.
  return runCli(['backup', ...args], { cwd: DIR, env });
}

/** The same in this process (every path absolute): for the table of bad input. */
const backupInProcess = (databasePath: string | undefined, ...args: string[]): Promise<Run> =>
  databasePath === undefined
    ? backup(databasePath, ...args) // the default path is relative to the working folder: a child in DIR
    : runInProcess(['backup', ...args], { env: { DATABASE_PATH: databasePath } });

const folder = (name: string): string => {
  const dir = path.join(DIR, name);
  mkdirSync(dir, { recursive: true });
  return dir;
};

/** A migrated database with a few rows, the connection kept open so recent commits sit in the WAL. */
function sourceDatabase(dir: string): { path: string; db: Database.Database } {
  const file = path.join(dir, 'mahjong.db');
  const { db } = openDatabase(file);
  db.prepare("INSERT INTO settings (key, value) VALUES ('cookie_secret', 'kept')").run();
  db.prepare('INSERT INTO players (id, nickname, created_at) VALUES (?, ?, ?)').run('p1', 'Mei', 1);
  return { path: file, db };
}

describe('backup', () => {
  test(
    'copies a live database, WAL included, into one checked file; --force replaces an old backup',
    { timeout: 30_000 },
    async () => {
      const dir = folder('live');
      const source = sourceDatabase(dir);
      try {
        const target = path.join(dir, 'copy.db');
        const run = await backup(source.path, target);
        expect(run.stderr).toBe('');
        expect(run.status).toBe(0);
        expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
        expect(JSON.parse(run.stdout)).toMatchObject({
          backup: target,
          source: source.path,
          pages: expect.any(Number),
          bytes: expect.any(Number),
          check: 'ok',
        });

        const copy = new Database(target, { readonly: true, fileMustExist: true });
        expect(copy.prepare('SELECT nickname FROM players').all()).toEqual([{ nickname: 'Mei' }]);
        expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
        copy.close();

        source.db.prepare('INSERT INTO players (id, nickname, created_at) VALUES (?, ?, ?)').run('p2', null, 2);
        expect((await backup(source.path, target)).status).toBe(2);
        const forced = await backup(source.path, '--force', target);
        expect(forced.status).toBe(0);
        const again = new Database(target, { readonly: true });
        expect(again.prepare('SELECT COUNT(*) AS n FROM players').get()).toEqual({ n: 2 });
        again.close();
        expect(
          readdirSync(dir)
            .filter((f) => f.startsWith('copy.db'))
            .sort(),
        ).toEqual(['copy.db']); // no partial files
      } finally {
        source.db.close();
      }
    },
  );

  test('of the running server, under play: the copy restores as a server database', { timeout: 60_000 }, async () => {
    const dir = folder('server');
    const databasePath = path.join(dir, 'mahjong.db');
    const server = await startServer(databasePath);
    try {
      const player = new Player(server.base);
      const game = await player.request('POST', '/api/games', { layout: 'turtle', seed: 'backup' });
      const solution = (game.json.solution as [number, number][]).map(([a, b]) => ({ type: 'match', a, b }));
      const playing = player.request('POST', `/api/games/${game.json.id as string}/moves`, { moves: solution });
      const target = path.join(dir, 'backup.db');
      const run = await backup(databasePath, target);
      expect(run.status).toBe(0);
      expect((await playing).json.status).toBe('won');

      const restored = openDatabase(target); // what a server does on start: WAL on, migrations checked
      expect(restored.applied).toEqual([]);
      const games = restored.db.prepare('SELECT COUNT(*) AS n FROM games').get() as { n: number };
      expect(games.n).toBe(1);
      restored.db.close();
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  const bad = folder('bad');
  const source = path.join(bad, 'mahjong.db');
  openDatabase(source).db.close();
  const existing = path.join(bad, 'existing.db');
  writeFileSync(existing, 'an older backup');
  const notADatabase = path.join(bad, 'notes.txt');
  writeFileSync(notADatabase, 'hello, this is not SQLite\n'.repeat(100));

  const BAD: readonly (readonly [string, string | undefined, readonly string[], RegExp])[] = [
    ['no path', source, [], /^mahjong: backup needs a target PATH$/],
    ['two paths', source, [path.join(bad, 'a.db'), path.join(bad, 'b.db')], /takes one PATH, not 2/],
    ['an unknown flag', source, [path.join(bad, 'a.db'), '--overwrite'], /unknown flag "--overwrite"/],
    ['--force with a value', source, [path.join(bad, 'a.db'), '--force=yes'], /--force takes no value/],
    ['an existing target', source, [existing], /exists; add --force to replace it/],
    ['a directory as target', source, [bad, '--force'], /is a directory; give a file name/],
    ['a missing folder', source, [path.join(bad, 'nowhere', 'a.db')], /there is no folder/],
    ['a file as folder', source, [path.join(existing, 'a.db')], /is not a folder/],
    ['an unwritable folder', source, ['/sys/mahjong-backup.db'], /cannot write to "\/sys"/],
    ['the database itself', source, [source, '--force'], /cannot be the database itself/],
    [
      'a missing database',
      path.join(bad, 'missing.db'),
      [path.join(bad, 'a.db')],
      /no database at ".*missing\.db"; set DATABASE_PATH/,
    ],
    [
      'no DATABASE_PATH and no data/mahjong.db',
      undefined,
      [path.join(bad, 'a.db')],
      /no database at "data\/mahjong\.db"/,
    ],
    ['a directory as database', bad, [path.join(bad, 'a.db')], /is a directory$/],
    ['a file that is not a database', notADatabase, [path.join(bad, 'a.db')], /notes\.txt" is not a SQLite database/],
  ];

  describe.concurrent('bad input: exit 2, one line on stderr, nothing written', () => {
    test.each(BAD)('%s', { timeout: 30_000 }, async (_label, databasePath, args, message) => {
      // The source's own -wal/-shm come and go with the concurrent cases that open it.
      const listing = () =>
        readdirSync(bad)
          .filter((f) => !f.startsWith('mahjong.db'))
          .sort();
      const before = listing();
      const run = await backupInProcess(databasePath, ...args);
      expect(run.status).toBe(2);
      expect(run.stdout).toBe('');
      const lines = run.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^mahjong: /);
      expect(lines[0]).toMatch(message);
      expect(run.stderr).not.toMatch(/\n\s+at |Error:/);
      expect(listing()).toEqual(before);
    });
  });
});
