/**
 * `restore PATH [--force]`: puts a `backup` back, on the backend the server would use (PostgreSQL: into an empty
 * database, backup-postgres.ts). Nothing changes until every check passed; the steps: docs/operations.md,
 * "Backups", and docs/cli.md, "Copying a SQLite database".
 */
import { chmodSync, existsSync, mkdirSync, openSync, readSync, closeSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { notApplied, readMigrations, type AppliedMigration } from '../server/db/migrate.ts';
import { MIGRATIONS_DIR, openDatabase } from '../server/plugins/database.ts';
import { parseFlags, UsageError, type Env } from './args.ts';
import { DEFAULT_DATABASE } from './backup.ts';
import { DamagedBackup, isGzip, verifyBackup } from './backup-format.ts';
import { restorePostgres } from './backup-postgres.ts';
import type { Output } from './commands.ts';
import { BackupFailure, quote, reason } from './backup-files.ts';

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

function kindOf(path: string): 'sqlite' | 'postgres' | 'other' {
  const head = Buffer.alloc(16);
  const fd = openSync(path, 'r');
  let read: number;
  try {
    read = readSync(fd, head, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  if (read === 16 && head.equals(SQLITE_MAGIC)) return 'sqlite';
  if (isGzip(head.subarray(0, read))) return 'postgres';
  return 'other';
}

function checkSource(source: string): void {
  if (!existsSync(source)) throw new UsageError(`there is no backup at ${quote(source)}`);
  if (statSync(source).isDirectory()) throw new UsageError(`${quote(source)} is a directory, not a backup`);
  try {
    closeSync(openSync(source, 'r'));
  } catch (error) {
    throw new UsageError(`cannot read ${quote(source)}: ${reason(error)}`);
  }
}

/** Opens a SQLite backup read-only for `use`, removing the empty `-wal`/`-shm` files that makes. */
async function withBackup<T>(source: string, use: (db: Database.Database) => T | Promise<T>): Promise<T> {
  const beside = ['-wal', '-shm'].map((suffix) => `${source}${suffix}`).filter((file) => !existsSync(file));
  let db: Database.Database | undefined;
  try {
    try {
      db = new Database(source, { readonly: true, fileMustExist: true });
    } catch (error) {
      throw new UsageError(`cannot open ${quote(source)}: ${reason(error)}`);
    }
    return await use(db);
  } finally {
    db?.close();
    for (const file of beside)
      if (existsSync(file) && (file.endsWith('-shm') || statSync(file).size === 0)) rmSync(file, { force: true });
  }
}

/** Checks a SQLite backup whole; returns its migrations. */
function checkSqliteBackup(source: string, db: Database.Database): AppliedMigration[] {
  try {
    const check = db.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new UsageError(`${quote(source)} is damaged: integrity_check says ${String(check)}`);
    const table = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'").get();
    if (!table) throw new UsageError(`${quote(source)} is a SQLite database but not a backup of this game`);
    return db
      .prepare('SELECT version, name, checksum FROM schema_migrations ORDER BY version')
      .all() as AppliedMigration[];
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT')
      throw new UsageError(`${quote(source)} is damaged: ${(error as Error).message}`);
    throw new UsageError(`cannot read ${quote(source)}: ${reason(error)}`);
  }
}

/** Makes sure no process holds `target` and folds its WAL in; a non-SQLite file is left as it is. */
function releaseTarget(target: string): void {
  let db: Database.Database | undefined;
  try {
    db = new Database(target, { fileMustExist: true, timeout: 0 });
    // SQLITE_BUSY while another connection holds it in WAL mode.
    if (db.pragma('journal_mode = DELETE', { simple: true }) !== 'delete')
      throw Object.assign(new Error('still in WAL mode'), { code: 'SQLITE_BUSY' });
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
      throw new UsageError(`${quote(target)} is in use by another process (a running server?); stop it first`);
    if (code !== 'SQLITE_NOTADB' && code !== 'SQLITE_CORRUPT')
      throw new UsageError(`cannot open the database ${quote(target)}: ${reason(error)}`);
  } finally {
    db?.close();
  }
}

/** `<target>.replaced-<UTC time>`, a name not taken yet. */
function asideName(target: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  let name = `${target}.replaced-${stamp}`;
  for (let n = 2; existsSync(name); n++) name = `${target}.replaced-${stamp}-${n}`;
  return name;
}

interface SqliteRestoreResult {
  restored: string;
  backend: 'sqlite';
  from: string;
  replaced: string | null; // where the database it replaced was kept
  migrations: number | null; // the latest migration of the restored database
  applied: string[]; // applied now over an older backup
  games: number;
  ms: number;
}

async function restoreSqlite(source: string, target: string, force: boolean): Promise<SqliteRestoreResult> {
  if (resolve(source) === resolve(target)) throw new UsageError('the backup is the database itself');
  return withBackup(source, (from) => restoreSqliteFrom(from, source, target, force));
}

async function restoreSqliteFrom(
  from: Database.Database,
  source: string,
  target: string,
  force: boolean,
): Promise<SqliteRestoreResult> {
  const started = performance.now();
  const migrations = checkSqliteBackup(source, from);
  try {
    notApplied(readMigrations(MIGRATIONS_DIR), migrations);
  } catch (error) {
    throw new UsageError(`${quote(source)} was made by another version of this program: ${reason(error)}`);
  }
  const exists = existsSync(target);
  if (exists) {
    if (statSync(target).isDirectory()) throw new UsageError(`DATABASE_PATH ${quote(target)} is a directory`);
    if (!force) throw new UsageError(`there is a database at ${quote(target)}; add --force to replace it`);
    releaseTarget(target); // refuses while a server holds it, even with --force
  }
  const folder = dirname(target);
  try {
    mkdirSync(folder, { recursive: true }); // as the server makes it on start
  } catch (error) {
    throw new UsageError(`cannot make the folder ${quote(folder)}: ${reason(error)}`);
  }
  const temporary = `${target}.partial-${process.pid}`;
  try {
    closeSync(openSync(temporary, 'wx', 0o600));
  } catch (error) {
    throw new UsageError(`cannot write to ${quote(folder)}: ${reason(error)}`);
  }
  try {
    await from.backup(temporary);
    // As the server at start: WAL on, newer migrations applied.
    const opened = openDatabase(temporary);
    let check: unknown;
    let games: number;
    let latest: number | null;
    try {
      games = (opened.db.prepare('SELECT COUNT(*) AS n FROM games').get() as { n: number }).n;
      latest = (opened.db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null }).v;
      opened.db.pragma('journal_mode = DELETE'); // one self-contained file until the server opens it
      check = opened.db.pragma('quick_check', { simple: true });
    } finally {
      opened.db.close();
    }
    if (check !== 'ok') throw new BackupFailure(`the restored copy did not pass quick_check: ${String(check)}`);
    chmodSync(temporary, 0o600);
    let replaced: string | null = null;
    if (exists) {
      replaced = asideName(target);
      renameSync(target, replaced);
    }
    for (const suffix of ['-wal', '-shm', '-journal']) rmSync(target + suffix, { force: true });
    renameSync(temporary, target);
    return {
      restored: target,
      backend: 'sqlite',
      from: source,
      replaced,
      migrations: latest,
      applied: opened.applied,
      games,
      ms: Math.round(performance.now() - started),
    };
  } catch (error) {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(temporary + suffix, { force: true });
    if (error instanceof UsageError || error instanceof BackupFailure) throw error;
    throw new BackupFailure(`the restore failed: ${reason(error)}`);
  }
}

/** `restore PATH [--force]`. */
export async function restoreCommand(argv: readonly string[], env: Env): Promise<Output> {
  const positional = argv.filter((word) => !word.startsWith('-'));
  const flags = parseFlags(
    'restore',
    argv.filter((word) => word.startsWith('-')),
    { force: 'switch' },
  );
  if (positional.length === 0) throw new UsageError('restore needs the PATH of a backup');
  if (positional.length > 1) throw new UsageError(`restore takes one PATH, not ${positional.length}`);
  const source = positional[0]!;
  checkSource(source);
  const kind = kindOf(source);
  if (kind === 'other')
    throw new UsageError(`${quote(source)} is not a backup (neither a SQLite database nor a PostgreSQL backup)`);
  if (env.DATABASE_URL) {
    if (kind === 'sqlite')
      throw new UsageError(
        `${quote(source)} is a SQLite backup; to restore it, unset DATABASE_URL and set DATABASE_PATH`,
      );
    if (flags.has('force'))
      throw new UsageError('--force is for SQLite: a PostgreSQL backup is restored into an empty database only');
    let header;
    try {
      header = await verifyBackup(source);
    } catch (error) {
      if (error instanceof DamagedBackup) throw new UsageError(`${quote(source)} cannot be restored: ${error.message}`);
      throw new UsageError(`cannot read ${quote(source)}: ${reason(error)}`);
    }
    return { stdout: JSON.stringify(await restorePostgres(env.DATABASE_URL, source, header)), warnings: [] };
  }
  if (kind === 'postgres')
    throw new UsageError(
      `${quote(source)} is a PostgreSQL backup; to restore it, set DATABASE_URL to an empty PostgreSQL database`,
    );
  const target = env.DATABASE_PATH || DEFAULT_DATABASE;
  return { stdout: JSON.stringify(await restoreSqlite(source, target, flags.has('force'))), warnings: [] };
}
