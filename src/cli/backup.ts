/**
 * `backup PATH [--force]`: a consistent copy of the SQLite database through the online backup API, safe while the
 * server writes; with DATABASE_URL a PostgreSQL snapshot (backup-postgres.ts). Steps: docs/operations.md,
 * "Backups"; docs/cli.md, "Copying a SQLite database".
 */
import { chmodSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { parseFlags, UsageError, type Env } from './args.ts';
import { backupPostgres } from './backup-postgres.ts';
import { BackupFailure, prepareTarget, quote, reason } from './backup-files.ts';
import type { Output } from './commands.ts';

export { BackupFailure } from './backup-files.ts';

export const DEFAULT_DATABASE = 'data/mahjong.db';

/** Opens the source (a UsageError when missing or not SQLite), read-write to clean up its WAL files on close. */
function openSource(path: string): Database.Database {
  if (!existsSync(path))
    throw new UsageError(`no database at ${quote(path)}; set DATABASE_PATH, or start the server once`);
  if (statSync(path).isDirectory()) throw new UsageError(`the database ${quote(path)} is a directory`);
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { fileMustExist: true });
    db.pragma('schema_version'); // fails on a file that is not a database
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
    // A backup is one self-contained file: back to a rollback journal (the server turns WAL on again).
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
