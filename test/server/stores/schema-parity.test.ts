/**
 * Schema parity: SQLite's migrations/ and PostgreSQL's migrations/postgres/ are two histories of one schema.
 * Both are applied to fresh databases, read back from the catalogues (sqlite_master and its pragmas;
 * PostgreSQL's information_schema and pg_index), brought to common terms and compared: tables, columns
 * (type, nullability, default, generated expression), primary keys, foreign keys, unique constraints,
 * indexes (columns, uniqueness, partial condition) and CHECK constraints. Every difference is named; the only
 * ones allowed are listed in DELIBERATE with their reason.
 *
 * Common terms: INTEGER, bigint and smallint are `integer`; REAL and double precision are `real`; a
 * primary key column is NOT NULL (SQLite would take a NULL in a rowid table's TEXT key; the stores never
 * write one); an identity column must be a rowid alias in SQLite; generated columns compare by expression
 * (SQLite's are VIRTUAL, PostgreSQL's STORED); a CHECK compares by its condition, PostgreSQL's
 * `x = ANY (ARRAY[…])` read as the `x IN (…)` it was written as.
 */
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { migrate, readMigrations } from '../../../src/server/db/migrate.ts';
import { MIGRATIONS_DIR } from '../../../src/server/plugins/database.ts';
import { openPostgres } from '../../../src/server/plugins/postgres.ts';
import { freshDatabaseUrl, postgresSkip } from '../../support/postgres.ts';

/** One database's schema in common terms: sorted lines, one per fact, keyed by table. */
type Schema = Map<string, string[]>;

/** Differences on purpose, each with its reason: the test fails when one goes away too. */
const DELIBERATE: Record<string, string> = {
  'only in postgres: games column seq integer not null default auto':
    "PostgreSQL's stand-in for SQLite's rowid (start order, export pages)",
  'only in postgres: games unique (seq)': "as SQLite's rowid is unique",
};

/** Lowercase, without casts, quotes of identifiers, parentheses and spaces: a condition or expression as both print it. */
const squash = (text: string): string =>
  text
    .toLowerCase()
    .replace(/::[a-z ]+/g, '')
    .replace(/"/g, '')
    .replace(/[()\s]/g, '');

const TYPES: Record<string, string> = {
  integer: 'integer',
  bigint: 'integer',
  smallint: 'integer',
  text: 'text',
  real: 'real',
  'double precision': 'real',
};
const typeOf = (declared: string): string => TYPES[declared.toLowerCase()] ?? `unknown type ${declared}`;

const RUNNER_TABLES = new Set(['schema_migrations']); // the runners make it, not the migrations

function add(schema: Schema, table: string, fact: string): void {
  const facts = schema.get(table) ?? [];
  facts.push(fact);
  schema.set(table, facts);
}

/** The text inside the parentheses that open at `start` (nested ones kept). */
function parenthesised(text: string, start: number): string {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(start + 1, i);
  }
  throw new Error(`unbalanced parentheses in ${text}`);
}

/**
 * A CHECK's condition in common terms, squashed: PostgreSQL's `x = ANY (ARRAY[a, b])` as `x IN (a, b)`, and
 * `x IN ('a')` of one value as PostgreSQL prints it, `x = 'a'`.
 */
const checkFact = (condition: string): string =>
  `check ${squash(
    condition
      .replace(/(\w+) = ANY \(ARRAY\[([^\]]*)\]\)/g, '$1 IN ($2)')
      .replace(/(\w+) IN \(('[^',]*')\)/gi, '$1 = $2'),
  )}`;

/** The conditions of every CHECK (of a column or of the table) in a CREATE TABLE statement. */
function checksOf(sql: string): string[] {
  const text = sql.replace(/--[^\n]*/g, ''); // SQLite keeps the statement as written, comments too
  return [...text.matchAll(/\bCHECK\s*\(/gi)].map((m) => parenthesised(text, m.index + m[0].length - 1));
}

function sqliteSchema(db: Database.Database): Schema {
  const schema: Schema = new Map();
  const tables = db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .all() as { name: string; sql: string }[];
  for (const { name: table, sql } of tables) {
    if (RUNNER_TABLES.has(table)) continue;
    const rowid = !/WITHOUT ROWID/i.test(sql);
    const columns = db.prepare(`PRAGMA table_xinfo(${table})`).all() as {
      name: string;
      type: string;
      notnull: number;
      dflt_value: string | null;
      pk: number;
      hidden: number;
    }[];
    const pk = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
    for (const c of columns) {
      const alias = rowid && pk.length === 1 && c.pk === 1 && c.type.toUpperCase() === 'INTEGER';
      let fact = `column ${c.name} ${typeOf(c.type)}${c.notnull || c.pk ? ' not null' : ''}`;
      if (c.hidden === 2 || c.hidden === 3) {
        const at = new RegExp(`\\b${c.name}\\s+\\w+\\s+GENERATED ALWAYS AS\\s*\\(`, 'i').exec(sql);
        if (!at) throw new Error(`cannot find the expression of ${table}.${c.name}`);
        fact += ` generated ${squash(parenthesised(sql, at.index + at[0].length - 1))}`;
      } else if (c.dflt_value !== null) fact += ` default ${squash(c.dflt_value)}`;
      else if (alias) fact += ' default auto?'; // a rowid alias numbers rows when none is given
      add(schema, table, fact);
    }
    if (pk.length > 0) add(schema, table, `primary key (${pk.map((c) => c.name).join(', ')})`);
    for (const condition of checksOf(sql)) add(schema, table, checkFact(condition));
    const keys = db.prepare(`PRAGMA foreign_key_list(${table})`).all() as {
      id: number;
      table: string;
      from: string;
      to: string | null;
      on_delete: string;
    }[];
    for (const id of new Set(keys.map((k) => k.id))) {
      const parts = keys.filter((k) => k.id === id);
      const target = parts[0]!.table;
      const to = parts.map((k) => k.to ?? primaryKeyOf(db, target)).join(', ');
      add(
        schema,
        table,
        `foreign key (${parts.map((k) => k.from).join(', ')}) references ${target} (${to}) on delete ${parts[0]!.on_delete.toLowerCase()}`,
      );
    }
    const indexes = db.prepare(`PRAGMA index_list(${table})`).all() as {
      name: string;
      unique: number;
      origin: string;
    }[];
    for (const index of indexes) {
      if (index.origin === 'pk') continue;
      const cols = (
        db.prepare(`PRAGMA index_xinfo(${index.name})`).all() as { name: string | null; key: number; cid: number }[]
      )
        .filter((c) => c.key === 1)
        .map((c) => c.name ?? 'expression');
      if (index.origin === 'u') {
        add(schema, table, `unique (${cols.join(', ')})`);
        continue;
      }
      const text = (db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(index.name) as { sql: string }).sql;
      const where = /\bWHERE\b([\s\S]*)$/i.exec(text)?.[1];
      add(
        schema,
        table,
        `${index.unique ? 'unique ' : ''}index ${index.name} (${cols.join(', ')})${where ? ` where ${squash(where)}` : ''}`,
      );
    }
  }
  return schema;
}

function primaryKeyOf(db: Database.Database, table: string): string {
  return (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string; pk: number }[])
    .filter((c) => c.pk > 0)
    .map((c) => c.name)
    .join(', ');
}

async function postgresSchema(url: string): Promise<Schema> {
  const { pool } = await openPostgres({ url, poolMax: 1 });
  try {
    const schema: Schema = new Map();
    const columns = await pool.query<{
      table_name: string;
      column_name: string;
      data_type: string;
      is_nullable: 'YES' | 'NO';
      column_default: string | null;
      is_identity: 'YES' | 'NO';
      generation_expression: string | null;
    }>(
      `SELECT table_name, column_name, data_type, is_nullable, column_default, is_identity, generation_expression
       FROM information_schema.columns WHERE table_schema = 'public'`,
    );
    for (const c of columns.rows) {
      if (RUNNER_TABLES.has(c.table_name)) continue;
      let fact = `column ${c.column_name} ${typeOf(c.data_type)}${c.is_nullable === 'NO' ? ' not null' : ''}`;
      if (c.generation_expression) fact += ` generated ${squash(c.generation_expression)}`;
      else if (c.is_identity === 'YES') fact += ' default auto';
      else if (c.column_default !== null) fact += ` default ${squash(c.column_default)}`;
      add(schema, c.table_name, fact);
    }
    const indexes = await pool.query<{
      table: string;
      name: string;
      unique: boolean;
      primary: boolean;
      constraint: boolean;
      columns: string[];
      where: string | null;
    }>(
      `SELECT t.relname AS table, i.relname AS name, x.indisunique AS unique, x.indisprimary AS primary,
              EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid AND c.contype IN ('p', 'u')) AS constraint,
              ARRAY(SELECT pg_get_indexdef(x.indexrelid, k, true) FROM generate_series(1, x.indnkeyatts) AS k ORDER BY k) AS columns,
              pg_get_expr(x.indpred, x.indrelid) AS where
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = 'public'`,
    );
    for (const index of indexes.rows) {
      if (RUNNER_TABLES.has(index.table)) continue;
      const cols = index.columns.map((c) => c.replace(/"/g, '')).join(', ');
      if (index.primary) add(schema, index.table, `primary key (${cols})`);
      else if (index.constraint) add(schema, index.table, `unique (${cols})`);
      else
        add(
          schema,
          index.table,
          `${index.unique ? 'unique ' : ''}index ${index.name} (${cols})${index.where ? ` where ${squash(index.where)}` : ''}`,
        );
    }
    const keys = await pool.query<{ table: string; columns: string[]; target: string; to: string[]; action: string }>(
      `SELECT c.conrelid::regclass::text AS table, c.confrelid::regclass::text AS target, c.confdeltype AS action,
              ARRAY(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY AS k(n, o)
                    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.o)::text[] AS columns,
              ARRAY(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY AS k(n, o)
                    JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.o)::text[] AS to
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
       WHERE c.contype = 'f' AND n.nspname = 'public'`,
    );
    const ACTIONS: Record<string, string> = {
      a: 'no action',
      c: 'cascade',
      r: 'restrict',
      n: 'set null',
      d: 'set default',
    };
    for (const k of keys.rows)
      add(
        schema,
        k.table,
        `foreign key (${k.columns.join(', ')}) references ${k.target} (${k.to.join(', ')}) on delete ${ACTIONS[k.action]}`,
      );
    const checks = await pool.query<{ table: string; definition: string }>(
      `SELECT c.conrelid::regclass::text AS table, pg_get_constraintdef(c.oid) AS definition
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
       WHERE c.contype = 'c' AND n.nspname = 'public'`,
    );
    for (const c of checks.rows)
      if (!RUNNER_TABLES.has(c.table)) add(schema, c.table, checkFact(c.definition.replace(/^CHECK\s*/, '')));
    return schema;
  } finally {
    await pool.end();
  }
}

/** Every fact one schema has and the other lacks, named; a rowid alias ('default auto?') matches an identity or none. */
function differences(sqlite: Schema, postgres: Schema): string[] {
  const found: string[] = [];
  for (const table of new Set([...sqlite.keys(), ...postgres.keys()])) {
    const a = sqlite.get(table);
    const b = postgres.get(table);
    if (!a || !b) {
      found.push(`table ${table} only in ${a ? 'sqlite' : 'postgres'}`);
      continue;
    }
    const plainB = new Set(b.map((f) => f.replace(/ default auto$/, '')));
    const setB = new Set(b);
    const setA = new Set(a.map((f) => f.replace(/ default auto\?$/, '')));
    for (const fact of a) {
      const loose = fact.endsWith(' default auto?');
      const bare = fact.replace(/ default auto\?$/, '');
      if (loose ? !plainB.has(bare) : !setB.has(fact)) found.push(`only in sqlite: ${table} ${fact}`);
    }
    for (const fact of b) {
      const auto = fact.endsWith(' default auto');
      const bare = fact.replace(/ default auto$/, '');
      const matched = auto ? a.includes(`${bare} default auto?`) : setA.has(fact);
      if (!matched) found.push(`only in postgres: ${table} ${fact}`);
    }
  }
  return found.sort();
}

describe.skipIf(postgresSkip())('schema parity of SQLite and PostgreSQL', () => {
  test('both histories, applied to fresh databases, give the same schema but for the deliberate differences', async () => {
    const db = new Database(':memory:');
    migrate(db, readMigrations(MIGRATIONS_DIR));
    const sqlite = sqliteSchema(db);
    db.close();
    const postgres = await postgresSchema(await freshDatabaseUrl());
    expect(sqlite.size).toBeGreaterThan(10);
    expect(differences(sqlite, postgres)).toEqual(Object.keys(DELIBERATE).sort());
  });

  test('the comparison names what differs (a column, its type or default, an index, a key, a check)', () => {
    const base: Schema = new Map([['t', ['column a integer not null default 0', 'index t_a (a) where a=1']]]);
    const other: Schema = new Map([
      ['t', ['column a text not null default 0', 'index t_a (a)']],
      ['u', ['column id integer not null default auto']],
    ]);
    expect(differences(base, other)).toEqual([
      'only in postgres: t column a text not null default 0',
      'only in postgres: t index t_a (a)',
      'only in sqlite: t column a integer not null default 0',
      'only in sqlite: t index t_a (a) where a=1',
      'table u only in postgres',
    ]);
    const sqliteCheck = checkFact("mode IN ('relaxed', 'classic')");
    expect(checkFact("(mode = ANY (ARRAY['relaxed'::text, 'classic'::text]))")).toBe(sqliteCheck);
    expect(checkFact("mode IN ('relaxed')")).toBe(checkFact("(mode = 'relaxed'::text)"));
    expect(checkFact("(mode = ANY (ARRAY['relaxed'::text]))")).not.toBe(sqliteCheck);
    expect(
      checksOf(
        "CREATE TABLE t (a TEXT CHECK (a IN ('x')), -- check (b)\n b INTEGER, CHECK ((a IS NULL) = (b IS NULL)))",
      ),
    ).toEqual(["a IN ('x')", '(a IS NULL) = (b IS NULL)']);
    const alias: Schema = new Map([['t', ['column id integer not null default auto?']]]);
    expect(differences(alias, new Map([['t', ['column id integer not null default auto']]]))).toEqual([]);
    expect(differences(alias, new Map([['t', ['column id integer not null']]]))).toEqual([]);
  });
});
