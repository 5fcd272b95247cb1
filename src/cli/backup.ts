/**
 * `backup PATH [--force]`: a consistent copy of the server's database (DATABASE_PATH, default
 * data/mahjong.db) through SQLite's online backup API (better-sqlite3 `db.backup`), safe while
 * the server runs and writes.
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
import { chmodSync, closeSync, existsSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { parseFlags, UsageError, type Env } from './args.ts';
import type { Output } from './commands.ts';

export const DEFAULT_DATABASE = 'data/mahjong.db';

/** The copy could not be made for a reason other than the input (disk full, a broken source): exit 1. */
export class BackupFailure extends Error {}

/** A path in a message: whole (args.ts `quote` shortens user text), quoted, escaped to one line. */
const quote = (path: string): string => JSON.stringify(path);

const reason = (error: unknown): string =>
  (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));

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

/** Checks the target and reserves a temporary file beside it; returns the temporary path. */
function prepareTarget(target: string, source: string, force: boolean): string {
  if (resolve(target) === resolve(source)) throw new UsageError('the backup cannot be the database itself');
  if (existsSync(target)) {
    if (statSync(target).isDirectory()) throw new UsageError(`${quote(target)} is a directory; give a file name`);
    if (!force) throw new UsageError(`${quote(target)} exists; add --force to replace it`);
  }
  const folder = dirname(target);
  if (!existsSync(folder)) throw new UsageError(`there is no folder ${quote(folder)}`);
  if (!statSync(folder).isDirectory()) throw new UsageError(`${quote(folder)} is not a folder`);
  const temporary = `${target}.partial-${process.pid}`;
  try {
    closeSync(openSync(temporary, 'wx')); // the real test of "can we write there" (access() lies to root)
  } catch (error) {
    throw new UsageError(`cannot write to ${quote(folder)}: ${reason(error)}`);
  }
  return temporary;
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
    chmodSync(temporary, 0o600); // like the database: every player's games (issue 9)
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
