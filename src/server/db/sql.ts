/**
 * One SQL text per statement over both databases: the stores (stores/) write their statements
 * once, with `?` placeholders, and run them through a `Sql` of either backend. What the two spell differently
 * is in `Dialect` (a few fragments) and here: placeholders ($1, $2… for PostgreSQL), booleans (0/1 for
 * SQLite), the count of changed rows, a unique key's violation, and transactions.
 *
 * Implementation notes: better-sqlite3 answers synchronously, so a statement runs at once and its promise is
 * already settled. A transaction's work is async (the same code runs on PostgreSQL), so other requests could
 * run statements between its awaits on the one connection: while a transaction is open, every statement from
 * outside it waits for its end (a queue of one), and the statements are prepared once and kept by text.
 */
import type { Database, Statement } from 'better-sqlite3';
import type pg from 'pg';
import { transaction as pgTransaction } from './postgres.ts';

export type Param = string | number | boolean | null;

/** What the two databases spell differently, as SQL fragments. */
export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  readonly binary: string; // after a text column in ORDER BY or a comparison: byte order (SQLite's own)
  readonly rowid: string; // a games row's start order: SQLite's rowid, PostgreSQL's seq
  readonly lockRow: string; // after a SELECT: lock the rows read to the transaction's end (SQLite locks the file)
  /** The larger of two values (a scalar). */
  greatest(a: string, b: string): string;
  /** `column` among the values of one placeholder (its value made by `Sql.list`); not among them with `negate`. */
  among(column: string, negate?: boolean): string;
  /** The UTC day (YYYY-MM-DD) of a time in ms. */
  utcDay(ms: string): string;
  /** Skip `?` rows and keep the rest (SQLite needs a LIMIT before an OFFSET). */
  readonly offsetOnly: string;
}

export interface Sql {
  readonly dialect: Dialect;
  one<T>(text: string, params?: readonly Param[]): Promise<T | undefined>;
  all<T>(text: string, params?: readonly Param[]): Promise<T[]>;
  /** Runs a statement that returns no rows; the number of rows it changed. */
  run(text: string, params?: readonly Param[]): Promise<number>;
  /**
   * Runs `work` in one transaction (committed when it returns, rolled back when it throws); `snapshot`: a read
   * of one consistent state, writing nothing. Not nested: `work` uses the `Sql` it is given.
   */
  transaction<T>(work: (tx: Sql) => Promise<T>, mode?: 'write' | 'snapshot'): Promise<T>;
  /** A list of values for one placeholder that `Dialect.among` reads. */
  list(values: readonly (string | number)[]): Param;
  /** Whether `error` is a unique key's violation. */
  isUniqueViolation(error: unknown): boolean;
}

const SQLITE: Dialect = {
  name: 'sqlite',
  binary: '',
  rowid: 'rowid',
  lockRow: '',
  greatest: (a, b) => `MAX(${a}, ${b})`,
  among: (column, negate = false) => `${column} ${negate ? 'NOT IN' : 'IN'} (SELECT value FROM json_each(?))`,
  utcDay: (ms) => `strftime('%Y-%m-%d', ${ms} / 1000, 'unixepoch')`,
  offsetOnly: 'LIMIT -1 OFFSET ?',
};

const POSTGRES: Dialect = {
  name: 'postgres',
  binary: ' COLLATE "C"',
  rowid: 'seq',
  lockRow: ' FOR UPDATE',
  greatest: (a, b) => `GREATEST(${a}, ${b})`,
  among: (column, negate = false) => (negate ? `${column} <> ALL(?)` : `${column} = ANY(?)`),
  utcDay: (ms) => `to_char(to_timestamp(${ms} / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
  offsetOnly: 'OFFSET ?',
};

/** A `Sql` over one better-sqlite3 connection. */
export function sqliteSql(db: Database): Sql {
  const prepared = new Map<string, Statement>();
  const statement = (text: string): Statement => {
    let s = prepared.get(text);
    if (!s) prepared.set(text, (s = db.prepare(text)));
    return s;
  };
  const bind = (params: readonly Param[]): unknown[] => params.map((p) => (p === true ? 1 : p === false ? 0 : p));
  let open: Promise<void> | undefined; // the transaction in progress, if any: statements from outside wait for it

  const direct = {
    one: <T>(text: string, params: readonly Param[] = []) => statement(text).get(...bind(params)) as T | undefined,
    all: <T>(text: string, params: readonly Param[] = []) => statement(text).all(...bind(params)) as T[],
    run: (text: string, params: readonly Param[] = []) => statement(text).run(...bind(params)).changes,
  };
  const common = {
    dialect: SQLITE,
    list: (values: readonly (string | number)[]) => JSON.stringify(values),
    isUniqueViolation: (error: unknown) => (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE',
  };
  const inside: Sql = {
    ...common,
    one: async (text, params) => direct.one(text, params),
    all: async (text, params) => direct.all(text, params),
    run: async (text, params) => direct.run(text, params),
    transaction: () => Promise.reject(new Error('transactions do not nest')),
  };
  const outside = async <T>(work: () => T): Promise<T> => {
    while (open) await open;
    return work();
  };
  return {
    ...common,
    one: (text, params) => outside(() => direct.one(text, params)),
    all: (text, params) => outside(() => direct.all(text, params)),
    run: (text, params) => outside(() => direct.run(text, params)),
    async transaction(work, mode = 'write') {
      while (open) await open;
      let done!: () => void;
      open = new Promise((resolve) => (done = resolve));
      // Inside a transaction the caller opened on the connection itself (a bulk load): a savepoint, as
      // better-sqlite3 nests its own.
      const nested = db.inTransaction;
      try {
        db.exec(nested ? 'SAVEPOINT work' : mode === 'write' ? 'BEGIN IMMEDIATE' : 'BEGIN');
        try {
          const result = await work(inside);
          db.exec(nested ? 'RELEASE work' : 'COMMIT');
          return result;
        } catch (error) {
          if (nested) db.exec('ROLLBACK TO work; RELEASE work');
          else if (db.inTransaction) db.exec('ROLLBACK');
          throw error;
        }
      } finally {
        open = undefined;
        done();
      }
    },
  };
}

/** `?` placeholders numbered for PostgreSQL, kept by text. */
const numbered = new Map<string, string>();
function toPostgres(text: string): string {
  let out = numbered.get(text);
  if (out === undefined) {
    let n = 0;
    out = text.replace(/\?/g, () => `$${++n}`);
    numbered.set(text, out);
  }
  return out;
}

function pgSqlOver(q: pg.Pool | pg.PoolClient, pool: pg.Pool | undefined): Sql {
  const rows = async <T>(text: string, params: readonly Param[] = []) =>
    (await q.query(toPostgres(text), params as Param[])).rows as T[];
  return {
    dialect: POSTGRES,
    async one<T>(text: string, params?: readonly Param[]) {
      return (await rows<T>(text, params))[0];
    },
    all: rows,
    run: async (text, params = []) => (await q.query(toPostgres(text), params as Param[])).rowCount ?? 0,
    transaction: (work, mode = 'write') =>
      pool
        ? pgTransaction(
            pool,
            (client) => work(pgSqlOver(client, undefined)),
            mode === 'write' ? 'BEGIN' : 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
          )
        : Promise.reject(new Error('transactions do not nest')),
    list: (values) => values as unknown as Param, // node-postgres sends a JS array as a PostgreSQL array
    isUniqueViolation: (error) => (error as { code?: string }).code === '23505',
  };
}

/** A `Sql` over a PostgreSQL pool: each statement on any connection, a transaction on one. */
export const postgresSql = (pool: pg.Pool): Sql => pgSqlOver(pool, pool);
