/**
 * PostgreSQL plumbing: the connection pool, transactions, and the migration runner for
 * migrations/postgres/, under the same rules as SQLite's (migrate.ts): files NNN_name.sql in order, one
 * transaction each, a checksum stored per file, a start refused when an applied file changed or went.
 *
 * Implementation notes:
 * - Several processes may start at once against one database (a fleet rolling out): the runner holds a
 *   session advisory lock while it reads and applies, so one migrates and the others then find it done.
 * - Integers: bigint columns (ms times) and COUNT(*) come back as JS numbers, not strings: every value
 *   we store is far below 2^53. numeric is not used.
 * - A database restart: PostgreSQL ends every session, the pool drops the broken connections
 *   (idle ones through its error event, those in use when released with their error) and connects anew on
 *   the next query, so the app reconnects by itself. Meanwhile queries fail at once (refused, or "starting
 *   up"); `isUnavailable` tells those failures from a bug's, and the error handler answers them 503 with
 *   Retry-After (errors.ts), which the page's sync retries. A connection taken for a transaction listens
 *   for its own error event while it is out of the pool: PostgreSQL may end it between two statements, and
 *   an error event nobody listens to would end the process.
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
  // A connection may also be told to end (57P01, a restart) while it is out of the pool between queries, and
  // node-postgres then emits on the client itself: without a listener that would end the process (seen under
  // load). Its next query fails ("not queryable") and it is released with that error, so the pool drops it.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

export type Queryable = pg.Pool | pg.PoolClient;

/** SQLSTATEs and socket errors of a database that cannot be reached now, not of a bad query. */
const UNAVAILABLE_CODE =
  /^(08...|57P0[1-3]|53300|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN)$/;
/** node-postgres' own errors for a connection lost or never made (they carry no code). */
const UNAVAILABLE_MESSAGE =
  /^(Connection terminated|Connection ended unexpectedly|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect)/;

/**
 * Whether `error` says the database cannot be reached just now (a restart, a failover, the network, every
 * connection taken for longer than the pool waits): connection exceptions (08…), admin, crash and startup
 * shutdowns (57P01–57P03), too many connections (53300), refused or broken sockets, node-postgres' lost
 * connections and its pool's connect timeout. Such a request may be tried again in a few seconds.
 */
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

/** Runs `work` in one transaction on one connection of the pool: committed when it returns, rolled back when it throws. */
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
      broken = rollbackError; // the connection is unusable: the pool must not hand it out again
    }
    throw error;
  } finally {
    client.removeListener('error', lost);
    client.release(broken as Error | undefined);
  }
}

export const MIGRATION_LOCK = 7_150_001; // pg_advisory_lock key: "mahjong migrations" (the restore takes it too)

/** The table of applied migrations (made by the runner; a restore makes it the same way: src/cli/backup-postgres.ts). */
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
