/** SQLite migrations: migrations/NNN_name.sql in order, checksummed (docs/storage.md, "Migrations"). */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';

const FILE_PATTERN = /^(\d{3})_([a-z0-9_]+)\.sql$/;

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
  readonly checksum: string; // sha256, hex
}

export function readMigrations(dir: string): Migration[] {
  const migrations = readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .map((file) => {
      const match = FILE_PATTERN.exec(file);
      if (!match) throw new Error(`migration file ${file} is not named NNN_name.sql`);
      const sql = readFileSync(join(dir, file), 'utf8');
      return { version: Number(match[1]), name: file, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    })
    .sort((a, b) => a.version - b.version);
  for (let i = 1; i < migrations.length; i++)
    if (migrations[i]!.version === migrations[i - 1]!.version)
      throw new Error(`two migrations are numbered ${migrations[i]!.version}`);
  return migrations;
}

export interface AppliedMigration {
  readonly version: number;
  readonly name: string;
  readonly checksum: string;
}

/** The migrations still to apply, in order; throws if an applied file is gone or changed. */
export function notApplied(migrations: readonly Migration[], applied: readonly AppliedMigration[]): Migration[] {
  const byVersion = new Map(applied.map((row) => [row.version, row] as const));
  const known = new Set(migrations.map((m) => m.version));
  for (const row of applied)
    if (!known.has(row.version)) throw new Error(`migration ${row.name} was applied but its file is gone`);
  return migrations.filter((m) => {
    const previous = byVersion.get(m.version);
    if (previous && previous.checksum !== m.checksum)
      throw new Error(`migration ${m.name} changed after it was applied; add a new migration instead`);
    return !previous;
  });
}

export function migrate(db: Database, migrations: readonly Migration[]): string[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    checksum   TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  ) STRICT`);
  const rows = db.prepare('SELECT version, name, checksum FROM schema_migrations').all() as AppliedMigration[];
  const record = db.prepare('INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)');
  const done: string[] = [];
  for (const m of notApplied(migrations, rows)) {
    db.transaction(() => {
      db.exec(m.sql);
      record.run(m.version, m.name, m.checksum, Date.now());
    }).immediate();
    done.push(m.name);
  }
  return done;
}
