/**
 * PostgreSQL's migrations (migrations/postgres/, src/server/db/postgres.ts): the same rules as SQLite's
 * runner (migrations.test.ts): applied once each and recorded with a checksum, a start refused when an
 * applied file changed or went; several processes starting at once migrate once (advisory lock).
 */
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { readMigrations } from '../../../src/server/db/migrate.ts';
import { MIGRATIONS_DIR } from '../../../src/server/plugins/database.ts';
import { openPostgres, PG_MIGRATIONS_DIR } from '../../../src/server/plugins/postgres.ts';
import { freshDatabaseUrl, postgresSkip } from '../../support/postgres.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A copy of migrations/postgres/ to edit. */
function copyOfMigrations(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mj-pg-migrations-'));
  dirs.push(dir);
  for (const file of readdirSync(PG_MIGRATIONS_DIR)) copyFileSync(join(PG_MIGRATIONS_DIR, file), join(dir, file));
  return dir;
}

test('the SQLite runner reads its own folder only, not migrations/postgres/', () => {
  const sqlite = readMigrations(MIGRATIONS_DIR);
  const postgres = readMigrations(PG_MIGRATIONS_DIR);
  expect(postgres.length).toBeGreaterThan(0);
  const checksums = new Set(sqlite.map((m) => m.checksum));
  for (const m of postgres) expect(checksums.has(m.checksum), m.name).toBe(false);
});

describe.skipIf(postgresSkip())('PostgreSQL migrations', () => {
  test('applied once, in order, recorded with checksums; several processes starting at once migrate once', async () => {
    const url = await freshDatabaseUrl();
    const files = readMigrations(PG_MIGRATIONS_DIR);
    const starts = await Promise.all([1, 2, 3].map(() => openPostgres({ url, poolMax: 2 })));
    try {
      const applied = starts.map((s) => s.applied);
      expect(applied.filter((a) => a.length > 0)).toEqual([files.map((m) => m.name)]);
      const recorded = await starts[0]!.pool.query(
        'SELECT version, name, checksum FROM schema_migrations ORDER BY version',
      );
      expect(recorded.rows).toEqual(files.map((m) => ({ version: m.version, name: m.name, checksum: m.checksum })));
    } finally {
      await Promise.all(starts.map((s) => s.pool.end()));
    }
    const again = await openPostgres({ url });
    expect(again.applied).toEqual([]);
    await again.pool.end();
  });

  test('refuses an edited or a missing file; a failing migration leaves nothing behind', async () => {
    const url = await freshDatabaseUrl();
    const dir = copyOfMigrations();
    writeFileSync(join(dir, '099_extra.sql'), 'CREATE TABLE extra (id integer PRIMARY KEY);\n');
    await (await openPostgres({ url, migrationsDir: dir })).pool.end();
    writeFileSync(join(dir, '099_extra.sql'), 'CREATE TABLE extra (id bigint PRIMARY KEY);\n');
    await expect(openPostgres({ url, migrationsDir: dir })).rejects.toThrow(
      /099_extra.sql changed after it was applied/,
    );
    rmSync(join(dir, '099_extra.sql'));
    await expect(openPostgres({ url, migrationsDir: dir })).rejects.toThrow(
      /099_extra.sql was applied but its file is gone/,
    );

    const other = await freshDatabaseUrl();
    const broken = copyOfMigrations();
    writeFileSync(join(broken, '099_broken.sql'), 'CREATE TABLE half (id integer);\nSELECT no_such_function();\n');
    await expect(openPostgres({ url: other, migrationsDir: broken })).rejects.toThrow(/099_broken.sql failed/);
    const { pool } = await openPostgres({ url: other }); // the real ones stood; 099 left no table
    const tables = await pool.query("SELECT count(*) AS n FROM pg_tables WHERE tablename = 'half'");
    expect(tables.rows[0]).toEqual({ n: 0 });
    await pool.end();
  });
});
