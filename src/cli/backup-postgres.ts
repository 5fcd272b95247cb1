/**
 * Backup (one REPEATABLE READ snapshot) and restore (into an empty database, in one transaction) on PostgreSQL,
 * in backup-format.ts's format: docs/operations.md, "Backups"; docs/cli.md, "Backing up and restoring PostgreSQL".
 */
import { renameSync, rmSync, statSync } from 'node:fs';
import pg from 'pg';
import { DATABASE_URL_MESSAGE, isPostgresUrl } from '../server/config.ts';
import { notApplied, readMigrations, type AppliedMigration } from '../server/db/migrate.ts';
import { MIGRATION_LOCK, SCHEMA_MIGRATIONS_DDL } from '../server/db/postgres.ts';
import { PG_MIGRATIONS_DIR } from '../server/plugins/postgres.ts';
import { UsageError } from './args.ts';
import { BackupFailure, prepareTarget, quote } from './backup-files.ts';
import { BackupWriter, FORMAT, FORMAT_VERSION, tableLine, tablesOf, type BackupHeader } from './backup-format.ts';

const FETCH_ROWS = 500; // rows a cursor fetch

/** DATABASE_URL without its password, to print. */
export function shownUrl(raw: string): string {
  try {
    const url = new URL(raw);
    url.password = '';
    return url.toString();
  } catch {
    return 'DATABASE_URL';
  }
}

/** DATABASE_URL checked as config.ts checks it: a postgres:// URL with a database name. */
function checkUrl(raw: string): string {
  if (!isPostgresUrl(raw)) throw new UsageError(DATABASE_URL_MESSAGE);
  return raw;
}

/** A connected client; a UsageError when the database cannot be reached. */
async function connect(raw: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: checkUrl(raw), connectionTimeoutMillis: 10_000 });
  client.on('error', () => {}); // the query in flight rejects
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw new UsageError(
      `cannot connect to DATABASE_URL (${shownUrl(raw)}): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return client;
}

const ident = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** The current schema's base tables, each after the tables its foreign keys point at. */
async function tablesInLoadOrder(client: pg.ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ name: string; parents: string[] }>(`
    SELECT c.relname AS name,
           ARRAY(SELECT DISTINCT p.relname::text FROM pg_constraint k JOIN pg_class p ON p.oid = k.confrelid
                 WHERE k.conrelid = c.oid AND k.contype = 'f' AND k.confrelid <> c.oid) AS parents
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
    ORDER BY c.relname`);
  const parents = new Map(rows.map((r) => [r.name, r.parents]));
  const order: string[] = [];
  const placed = new Set<string>();
  const place = (name: string, path: readonly string[]): void => {
    if (placed.has(name)) return;
    if (path.includes(name)) throw new BackupFailure(`the foreign keys of ${path.join(', ')} form a cycle`);
    for (const parent of parents.get(name) ?? []) if (parents.has(parent)) place(parent, [...path, name]);
    placed.add(name);
    order.push(name);
  };
  for (const { name } of rows) place(name, []);
  return order;
}

export interface PostgresBackupResult {
  backup: string;
  backend: 'postgres';
  source: string;
  tables: number;
  rows: number;
  bytes: number;
  ms: number;
  sha256: string;
}

/** `backup PATH [--force]` with DATABASE_URL. */
export async function backupPostgres(url: string, target: string, force: boolean): Promise<PostgresBackupResult> {
  checkUrl(url);
  let temporary: string | undefined = prepareTarget(target, undefined, force); // before connecting
  let client: pg.Client | undefined;
  let writer: BackupWriter | undefined;
  try {
    client = await connect(url);
    const started = performance.now();
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const tables = await tablesInLoadOrder(client);
    if (!tables.includes('schema_migrations'))
      throw new UsageError(`DATABASE_URL (${shownUrl(url)}) holds no game database (no schema_migrations table)`);
    const migrations = (
      await client.query<AppliedMigration>('SELECT version, name, checksum FROM schema_migrations ORDER BY version')
    ).rows;
    const counts: { name: string; rows: number }[] = [];
    for (const name of tables) {
      const { rows } = await client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ONLY ${ident(name)}`);
      counts.push({ name, rows: Number(rows[0]!.n) });
    }
    const about = (
      await client.query<{ now: string; version: string }>(
        'SELECT (EXTRACT(EPOCH FROM now()) * 1000)::bigint::text AS now, version()',
      )
    ).rows[0]!;
    const header: BackupHeader = {
      format: FORMAT,
      version: FORMAT_VERSION,
      createdAt: Number(about.now),
      server: about.version,
      migrations,
      tables: counts,
    };
    writer = new BackupWriter(temporary);
    await writer.line(JSON.stringify(header));
    let rows = 0;
    for (const name of tables) {
      await writer.line(tableLine(name));
      await client.query(
        `DECLARE dump NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS j FROM ONLY ${ident(name)} t`,
      );
      for (;;) {
        const batch = await client.query<{ j: string }>(`FETCH ${FETCH_ROWS} FROM dump`);
        for (const { j } of batch.rows) await writer.line(j);
        rows += batch.rows.length;
        if (batch.rows.length < FETCH_ROWS) break;
      }
      await client.query('CLOSE dump');
    }
    await client.query('COMMIT');
    const sha256 = await writer.finish();
    writer = undefined;
    renameSync(temporary, target);
    temporary = undefined;
    return {
      backup: target,
      backend: 'postgres',
      source: shownUrl(url),
      tables: tables.length,
      rows,
      bytes: statSync(target).size,
      ms: Math.round(performance.now() - started),
      sha256,
    };
  } catch (error) {
    if (error instanceof UsageError || error instanceof BackupFailure) throw error;
    throw new BackupFailure(`the backup failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    writer?.abort();
    await client?.end().catch(() => {});
    if (temporary) rmSync(temporary, { force: true });
  }
}

export interface PostgresRestoreResult {
  restored: string;
  backend: 'postgres';
  into: string;
  tables: number;
  rows: number;
  migrations: number | null; // the backup's latest
  ms: number;
}

/** `restore PATH` with DATABASE_URL, of a backup verifyBackup passed. */
export async function restorePostgres(
  url: string,
  source: string,
  header: BackupHeader,
): Promise<PostgresRestoreResult> {
  // The backup's migrations must be ours, unchanged.
  const ours = readMigrations(PG_MIGRATIONS_DIR);
  try {
    notApplied(ours, header.migrations);
  } catch (error) {
    throw new UsageError(
      `${quote(source)} was made by another version of this program: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const wanted = new Set(header.migrations.map((m) => m.version));
  const toApply = ours.filter((m) => wanted.has(m.version));

  const client = await connect(url);
  const started = performance.now();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    const { rows: present } = await client.query<{ name: string }>(`
      SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f') ORDER BY 1 LIMIT 5`);
    if (present.length > 0)
      throw new UsageError(
        `the database of DATABASE_URL (${shownUrl(url)}) is not empty (${present.map((r) => r.name).join(', ')}…); ` +
          'restore into a new, empty database (createdb)',
      );
    await client.query(SCHEMA_MIGRATIONS_DDL);
    for (const m of toApply) await client.query(m.sql);
    const made = new Set(await tablesInLoadOrder(client));
    const missing = header.tables.filter((t) => !made.has(t.name)).map((t) => t.name);
    if (missing.length > 0)
      throw new UsageError(`${quote(source)} has tables its migrations do not make: ${missing.join(', ')}`);
    // Rows migrations added are in the backup as they were.
    for (const { name } of [...header.tables].reverse()) await client.query(`DELETE FROM ${ident(name)}`);

    let rows = 0;
    for await (const { table, batches } of tablesOf(source)) {
      const columns = (
        await client.query<{ name: string }>(
          `SELECT attname AS name FROM pg_attribute
           WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
           ORDER BY attnum`,
          [ident(table)],
        )
      ).rows.map((r) => ident(r.name));
      const list = columns.join(', ');
      await client.query(`ALTER TABLE ${ident(table)} DISABLE TRIGGER USER`);
      for await (const batch of batches) {
        await client.query(
          `INSERT INTO ${ident(table)} (${list}) OVERRIDING SYSTEM VALUE
           SELECT ${list} FROM json_populate_recordset(NULL::${ident(table)}, $1::json)`,
          [`[${batch.join(',')}]`],
        );
        rows += batch.length;
      }
      await client.query(`ALTER TABLE ${ident(table)} ENABLE TRIGGER USER`);
    }
    for (const { name, rows: expected } of header.tables) {
      const { rows: found } = await client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ONLY ${ident(name)}`);
      if (Number(found[0]!.n) !== expected)
        throw new BackupFailure(`table ${name} holds ${found[0]!.n} rows after the restore, not ${expected}`);
    }
    // Identity and serial columns go on after the highest id restored.
    const { rows: sequences } = await client.query<{ tab: string; col: string; seq: string }>(`
      SELECT c.relname AS tab, a.attname AS col, pg_get_serial_sequence(quote_ident(c.relname), a.attname) AS seq
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
        AND pg_get_serial_sequence(quote_ident(c.relname), a.attname) IS NOT NULL`);
    for (const { tab, col, seq } of sequences)
      await client.query(
        `SELECT setval($1, COALESCE((SELECT MAX(${ident(col)}) FROM ${ident(tab)}), 1),
                       (SELECT MAX(${ident(col)}) FROM ${ident(tab)}) IS NOT NULL)`,
        [seq],
      );
    await client.query('COMMIT');
    return {
      restored: source,
      backend: 'postgres',
      into: shownUrl(url),
      tables: header.tables.length,
      rows,
      migrations: header.migrations.at(-1)?.version ?? null,
      ms: Math.round(performance.now() - started),
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    if (error instanceof UsageError || error instanceof BackupFailure) throw error;
    throw new BackupFailure(
      `the restore failed, nothing was written: ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}
