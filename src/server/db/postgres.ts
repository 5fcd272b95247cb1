/**
 * PostgreSQL plumbing: the pool, transactions, and the runner for migrations/postgres/ (same rules as
 * migrate.ts). Restarts, advisory lock and integers: docs/storage.md, "PostgreSQL".
 */
import pg from 'pg';
import { notApplied, type AppliedMigration, type Migration } from './migrate.ts';

const INT8_OID = 20;

/** bigint as a number: ms times and counts are safe integers. */
const TYPES = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

export interface PoolOptions {
  url: string;
  max?: number; // DATABASE_POOL_MAX
}

export function createPool(opts: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: opts.url,
    max: opts.max ?? 10,
    types: TYPES,
    connectionTimeoutMillis: 10_000, // fail the request, do not hang it
    idleTimeoutMillis: 30_000,
  });
  // A broken idle connection (a restart) emits here; the pool drops it.
  pool.on('error', () => {});
  // A client told to end while out of the pool emits on itself; unheard, that would end the process.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

export type Queryable = pg.Pool | pg.PoolClient;

/** SQLSTATEs and socket errors of an unreachable database, not of a bad query. */
const UNAVAILABLE_CODE =
  /^(08...|57P0[1-3]|53300|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN)$/;
/** node-postgres' lost-connection errors (no code). */
const UNAVAILABLE_MESSAGE =
  /^(Connection terminated|Connection ended unexpectedly|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect)/;

/** Whether the database is unreachable just now (restart, failover, network, pool timeout): retry later. */
export function isUnavailable(error: unknown): boolean {
  for (
    let e = error, depth = 0;
    e && typeof e === 'object' && depth < 3;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && UNAVAILABLE_CODE.test(code)) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
  }
  return false;
}

/** Runs `work` in one transaction on one connection. */
export async function transaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  begin = 'BEGIN',
): Promise<T> {
  const client = await pool.connect();
  let broken: unknown;
  const lost = (error: Error): void => void (broken ??= error); // the session ended between statements
  client.on('error', lost);
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
    } catch (rollbackError) {
      broken = rollbackError; // unusable: the pool must not hand it out again
    }
    throw error;
  } finally {
    client.removeListener('error', lost);
    client.release(broken as Error | undefined);
  }
}

export const MIGRATION_LOCK = 7_150_001; // advisory lock key; the restore takes it too

/** Also made by a restore (src/cli/backup-postgres.ts). */
export const SCHEMA_MIGRATIONS_DDL = `CREATE TABLE IF NOT EXISTS schema_migrations (
        version    integer PRIMARY KEY,
        name       text NOT NULL,
        checksum   text NOT NULL,
        applied_at bigint NOT NULL
      )`;

/** Applies pending migrations under the advisory lock; returns their names. */
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
          await client.query(m.sql); // the simple query protocol runs several statements
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
