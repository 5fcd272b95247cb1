/**
 * PostgreSQL plumbing (issue 15): the connection pool, transactions, and the migration runner for
 * migrations/postgres/, under the same rules as SQLite's (migrate.ts): files NNN_name.sql in order, one
 * transaction each, a checksum stored per file, a start refused when an applied file changed or went.
 *
 * Implementation notes:
 * - Several processes may start at once against one database (a fleet rolling out): the runner holds a
 *   session advisory lock while it reads and applies, so one migrates and the others then find it done.
 * - Integers: bigint columns (ms times) and COUNT(*) come back as JS numbers, not strings: every value
 *   we store is far below 2^53. numeric is not used.
 */
import pg from 'pg';
import { notApplied, type AppliedMigration, type Migration } from './migrate.ts';

const INT8_OID = 20;

/** Type parsers for this pool: bigint as a number (times in ms and counts are safe integers). */
const TYPES = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

export interface PoolOptions {
  url: string; // postgres://user:password@host:port/database
  max?: number; // connections at most (DATABASE_POOL_MAX)
}

/** A pool with our type parsers. Connecting happens on first use. */
export function createPool(opts: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: opts.url,
    max: opts.max ?? 10,
    types: TYPES,
    connectionTimeoutMillis: 10_000, // a pool exhausted or a database away: fail the request, do not hang it
    idleTimeoutMillis: 30_000,
  });
  // An idle connection that breaks (database restart) emits here; the pool drops it and makes a new one.
  pool.on('error', () => {});
  return pool;
}

export type Queryable = pg.Pool | pg.PoolClient;

/** Runs `work` in one transaction on one connection of the pool: committed when it returns, rolled back when it throws. */
export async function transaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  begin = 'BEGIN',
): Promise<T> {
  const client = await pool.connect();
  let broken: unknown;
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
    } catch (rollbackError) {
      broken = rollbackError; // the connection is unusable: the pool must not hand it out again
    }
    throw error;
  } finally {
    client.release(broken as Error | undefined);
  }
}

export const MIGRATION_LOCK = 7_150_001; // pg_advisory_lock key: "mahjong migrations" (the restore takes it too)

/** The table of applied migrations (made by the runner; a restore makes it the same way: src/cli/restore-postgres.ts). */
export const SCHEMA_MIGRATIONS_DDL = `CREATE TABLE IF NOT EXISTS schema_migrations (
        version    integer PRIMARY KEY,
        name       text NOT NULL,
        checksum   text NOT NULL,
        applied_at bigint NOT NULL
      )`;

/** Applies every migration not applied yet, one transaction each, under an advisory lock; returns the names applied now. */
export async function migratePostgres(pool: pg.Pool, migrations: readonly Migration[]): Promise<string[]> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query(SCHEMA_MIGRATIONS_DDL);
      const rows = await client.query<AppliedMigration>('SELECT version, name, checksum FROM schema_migrations');
      const done: string[] = [];
      for (const m of notApplied(migrations, rows.rows)) {
        await client.query('BEGIN');
        try {
          await client.query(m.sql); // several statements: the simple query protocol runs them in order
          await client.query(
            'INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES ($1, $2, $3, $4)',
            [m.version, m.name, m.checksum, Date.now()],
          );
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw new Error(`migration ${m.name} failed: ${(error as Error).message}`, { cause: error });
        }
        done.push(m.name);
      }
      return done;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}
