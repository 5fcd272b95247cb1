/**
 * `backup PATH [--force]`: a consistent copy of the server's database (DATABASE_PATH, default
 * data/mahjong.db) through SQLite's online backup API (better-sqlite3 `db.backup`), safe while
 * the server runs and writes. With DATABASE_URL set, a snapshot of the PostgreSQL database instead
 * (backup-postgres.ts, in the format of backup-format.ts). `restore` (restore.ts) puts either back.
 *
 * Implementation notes: the source must exist and be a SQLite database. The copy goes to a temporary file next to the target, is switched from WAL to a
 * rollback journal (one self-contained file), is checked with `PRAGMA quick_check`, and is
 * then renamed over the target, so the target is either the old
 * file or a whole new backup, never half a copy. An existing target is replaced only with
 * --force. The online backup copies a few hundred pages per step and lets the server write in
 * between; if the server writes while it copies, SQLite restarts the copy from the new state,
 * so the result is always one consistent moment. Bad input is a UsageError (exit 2, one line);
 * a failure while copying is a BackupFailure (exit 1, one line).
 */
import { chmodSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { parseFlags, UsageError, type Env } from './args.ts';
import { backupPostgres } from './backup-postgres.ts';
import { BackupFailure, prepareTarget, quote, reason } from './backup-files.ts';
import type { Output } from './commands.ts';

export { BackupFailure } from './backup-files.ts';

export const DEFAULT_DATABASE = 'data/mahjong.db';

/**
 * Opens the source; a UsageError when it is missing or not a SQLite database. Not read-only: a
 * read-only connection cannot remove the -wal and -shm files it makes beside a stopped server's
 * database. We write nothing; closing as the last connection checkpoints the WAL, as the
 * server's own close does.
 */
function openSource(path: string): Database.Database {
  if (!existsSync(path))
    throw new UsageError(`no database at ${quote(path)}; set DATABASE_PATH, or start the server once`);
  if (statSync(path).isDirectory()) throw new UsageError(`the database ${quote(path)} is a directory`);
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { fileMustExist: true });
    db.pragma('schema_version'); // reads the header: fails on a file that is not a database
    return db;
  } catch (error) {
    db?.close();
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT')
      throw new UsageError(`${quote(path)} is not a SQLite database`);
    throw new UsageError(`cannot open the database ${quote(path)}: ${reason(error)}`);
  }
}

/** `backup PATH [--force]`. */
export async function backupCommand(argv: readonly string[], env: Env): Promise<Output> {
  const positional = argv.filter((word) => !word.startsWith('-'));
  const flags = parseFlags(
    'backup',
    argv.filter((word) => word.startsWith('-')),
    { force: 'switch' },
  );
  if (positional.length === 0) throw new UsageError('backup needs a target PATH');
  if (positional.length > 1) throw new UsageError(`backup takes one PATH, not ${positional.length}`);
  const target = positional[0]!;
  if (env.DATABASE_URL) {
    const result = await backupPostgres(env.DATABASE_URL, target, flags.has('force'));
    return { stdout: JSON.stringify(result), warnings: [] };
  }
  const source = env.DATABASE_PATH || DEFAULT_DATABASE;

  const db = openSource(source);
  let temporary: string | undefined;
  try {
    temporary = prepareTarget(target, source, flags.has('force'));
    const started = performance.now();
    let pages: number;
    try {
      ({ totalPages: pages } = await db.backup(temporary));
    } catch (error) {
      throw new BackupFailure(`the backup failed: ${reason(error)}`);
    }
    // The copy carries the source's WAL flag; a backup is one self-contained file, so it goes back to
    // a rollback journal (the server turns WAL on again when it opens a restored copy).
    const copy = new Database(temporary, { fileMustExist: true });
    let check: unknown;
    try {
      copy.pragma('journal_mode = DELETE');
      check = copy.pragma('quick_check', { simple: true });
    } finally {
      copy.close();
    }
    if (check !== 'ok') throw new BackupFailure(`the copy did not pass quick_check: ${String(check)}`);
    chmodSync(temporary, 0o600); // like the database: every player's games
    renameSync(temporary, target);
    temporary = undefined;
    const result = {
      backup: target,
      source,
      pages,
      bytes: statSync(target).size,
      ms: Math.round(performance.now() - started),
      check: 'ok',
    };
    return { stdout: JSON.stringify(result), warnings: [] };
  } finally {
    db.close();
    if (temporary) for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(temporary + suffix, { force: true });
  }
}
