/** One SQL text per statement for both databases (docs/storage.md, "One SQL for two databases"). */
import type { Database, Statement } from 'better-sqlite3';
import type pg from 'pg';
import { transaction as pgTransaction } from './postgres.ts';

export type Param = string | number | boolean | null;

export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  readonly binary: string; // byte order (SQLite's own)
  readonly rowid: string; // start order: SQLite's rowid, PostgreSQL's seq
  readonly lockRow: string; // lock the rows read until the end (SQLite locks the file)
  greatest(a: string, b: string): string;
  /** `column` among the values of one `Sql.list` placeholder (not among, with `negate`). */
  among(column: string, negate?: boolean): string;
  utcDay(ms: string): string;
  /** `column` among a `Sql.list` placeholder's values. */
  readonly offsetOnly: string;
}

export interface Sql {
  readonly dialect: Dialect;
  one<T>(text: string, params?: readonly Param[]): Promise<T | undefined>;
  all<T>(text: string, params?: readonly Param[]): Promise<T[]>;
  run(text: string, params?: readonly Param[]): Promise<number>;
  /** One transaction (`snapshot`: a consistent read). Not nested: `work` uses the `Sql` it gets. */
  transaction<T>(work: (tx: Sql) => Promise<T>, mode?: 'write' | 'snapshot'): Promise<T>;
  list(values: readonly (string | number)[]): Param;
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

export function sqliteSql(db: Database): Sql {
  const prepared = new Map<string, Statement>();
  const statement = (text: string): Statement => {
    let s = prepared.get(text);
    if (!s) prepared.set(text, (s = db.prepare(text)));
    return s;
  };
  const bind = (params: readonly Param[]): unknown[] => params.map((p) => (p === true ? 1 : p === false ? 0 : p));
  let open: Promise<void> | undefined; // statements from outside wait for an open transaction

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
      // Inside a transaction opened on the connection itself (a bulk load): a savepoint.
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
    list: (values) => values as unknown as Param, // node-postgres sends a JS array as an array
    isUniqueViolation: (error) => (error as { code?: string }).code === '23505',
  };
}

/** A `Sql` over a PostgreSQL pool: a transaction takes one connection. */
export const postgresSql = (pool: pg.Pool): Sql => pgSqlOver(pool, pool);
