/**
 * The dialect adapter the stores are written over (src/server/db/sql.ts), on both databases: one SQL text with
 * `?` placeholders, the dialect's fragments answering alike, changed-row counts, unique violations, and
 * transactions (committed, rolled back on a throw; on SQLite, statements from outside wait for an open one).
 */
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { postgresSql, sqliteSql, type Sql } from '../../../src/server/db/sql.ts';
import { createPool } from '../../../src/server/db/postgres.ts';
import { freshDatabaseUrl, postgresSkip } from '../../support/postgres.ts';

const TABLE = 'CREATE TABLE t (id integer PRIMARY KEY, name text NOT NULL UNIQUE, at bigint)';

const BACKENDS: [string, () => Promise<{ sql: Sql; close(): Promise<void> }>][] = [
  [
    'sqlite',
    async () => {
      const db = new Database(':memory:');
      db.exec(TABLE);
      return { sql: sqliteSql(db), close: async () => void db.close() };
    },
  ],
  [
    'postgres',
    async () => {
      const pool = createPool({ url: await freshDatabaseUrl(), max: 3 });
      await pool.query(TABLE);
      return { sql: postgresSql(pool), close: () => pool.end() };
    },
  ],
];

describe.each(BACKENDS)('%s', (name, open) => {
  const skip = name === 'postgres' && postgresSkip() !== '';

  test.skipIf(skip)('one text for both: placeholders, fragments, counts, unique violations', async () => {
    const { sql, close } = await open();
    try {
      const d = sql.dialect;
      for (const [id, label] of [
        [1, 'b'],
        [2, 'a'],
        [3, 'B'],
      ] as const)
        expect(await sql.run('INSERT INTO t (id, name, at) VALUES (?, ?, ?)', [id, label, 86_400_000 * id])).toBe(1);
      expect(await sql.run('INSERT INTO t (id, name) VALUES (?, ?) ON CONFLICT DO NOTHING', [4, 'a'])).toBe(0);
      const error = await sql.run('INSERT INTO t (id, name) VALUES (?, ?)', [5, 'a']).catch((e: unknown) => e);
      expect(sql.isUniqueViolation(error)).toBe(true);
      expect(sql.isUniqueViolation(new Error('other'))).toBe(false);
      // Byte order, as SQLite compares: upper case first.
      expect(
        (await sql.all<{ name: string }>(`SELECT name FROM t ORDER BY name${d.binary}`)).map((r) => r.name),
      ).toEqual(['B', 'a', 'b']);
      const among = await sql.all<{ id: number }>(`SELECT id FROM t WHERE ${d.among('id')} ORDER BY id`, [
        sql.list([3, 1, 9]),
      ]);
      expect(among).toEqual([{ id: 1 }, { id: 3 }]);
      const notAmong = await sql.all<{ id: number }>(`SELECT id FROM t WHERE ${d.among('id', true)} ORDER BY id`, [
        sql.list([]),
      ]);
      expect(notAmong.map((r) => r.id)).toEqual([1, 2, 3]);
      const row = await sql.one<{ big: number; day: string }>(
        `SELECT ${d.greatest('at', '?')} AS big, ${d.utcDay('at')} AS day FROM t WHERE id = ?`,
        [100, 2],
      );
      expect(row).toEqual({ big: 172_800_000, day: '1970-01-03' });
      const skipped = await sql.all<{ id: number }>(`SELECT id FROM t ORDER BY id ${d.offsetOnly}`, [1]);
      expect(skipped.map((r) => r.id)).toEqual([2, 3]);
      expect(await sql.one('SELECT id FROM t WHERE id = ?', [99])).toBeUndefined();
    } finally {
      await close();
    }
  });

  test.skipIf(skip)('a transaction commits when its work returns, rolls back when it throws', async () => {
    const { sql, close } = await open();
    try {
      const count = async () => (await sql.one<{ n: number }>('SELECT COUNT(*) AS n FROM t'))!.n;
      expect(
        await sql.transaction(async (tx) => {
          await tx.run('INSERT INTO t (id, name) VALUES (?, ?)', [1, 'kept']);
          return 'done';
        }),
      ).toBe('done');
      await expect(
        sql.transaction(async (tx) => {
          await tx.run('INSERT INTO t (id, name) VALUES (?, ?)', [2, 'gone']);
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      expect(await count()).toBe(1);
      // A read of one state, and writes racing each other: each transaction whole.
      await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          sql.transaction(async (tx) => {
            const n = (await tx.one<{ n: number }>('SELECT COUNT(*) AS n FROM t'))!.n;
            await tx.run('INSERT INTO t (id, name) VALUES (?, ?)', [10 + i, `race-${i}`]);
            return n;
          }),
        ),
      );
      expect(
        await sql.transaction(
          async (tx) => (await tx.one<{ n: number }>('SELECT COUNT(*) AS n FROM t'))!.n,
          'snapshot',
        ),
      ).toBe(7);
    } finally {
      await close();
    }
  });
});

test('SQLite: a statement from outside waits for the open transaction, so a rollback cannot take it along', async () => {
  const db = new Database(':memory:');
  db.exec(TABLE);
  const sql = sqliteSql(db);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const tx = sql
    .transaction(async (t) => {
      await t.run('INSERT INTO t (id, name) VALUES (?, ?)', [1, 'inside']);
      await held;
      throw new Error('rolled back');
    })
    .catch((e: unknown) => e);
  const outside = sql.run('INSERT INTO t (id, name) VALUES (?, ?)', [2, 'outside']);
  release();
  expect(await tx).toBeInstanceOf(Error);
  expect(await outside).toBe(1);
  expect(db.prepare('SELECT name FROM t').all()).toEqual([{ name: 'outside' }]);
  // Inside a transaction the caller opened on the connection: a savepoint.
  db.exec('BEGIN');
  await sql.transaction(async (t) => void (await t.run('INSERT INTO t (id, name) VALUES (?, ?)', [3, 'nested'])));
  db.exec('ROLLBACK');
  expect(db.prepare('SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 1 });
  db.close();
});
