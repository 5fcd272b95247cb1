/** SQLite as `fastify.db`, migrated on start (pragmas: docs/operations.md, "Durability"). */
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { migrate, readMigrations } from '../db/migrate.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db?: Database.Database;
    backend: 'sqlite' | 'postgres';
    databaseProbe: DatabaseProbe;
  }
}

/** What /healthz asks of either backend. */
export interface DatabaseProbe {
  version(): Promise<number | null>; // a real read
  write(now: number): Promise<void>;
  size(): Promise<object>;
  unavailable(error: unknown): boolean;
}

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../migrations/', import.meta.url));

export interface DatabaseOptions {
  path: string;
  migrationsDir?: string;
}

export function openDatabase(
  path: string,
  migrationsDir = MIGRATIONS_DIR,
): { db: Database.Database; applied: string[] } {
  if (path !== ':memory:') {
    mkdirSync(dirname(path), { recursive: true });
    // Every player's games: readable by the server's user only.
    closeSync(openSync(path, 'a', 0o600));
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  }
  const db = new Database(path);
  try {
    if (path !== ':memory:') db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    const applied = migrate(db, readMigrations(migrationsDir));
    return { db, applied };
  } catch (error) {
    db.close();
    throw error;
  }
}

export interface DatabaseSize {
  bytes: number;
  walBytes: number;
  freeBytes: number;
}

export function databaseSize(db: Database.Database): DatabaseSize {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const pages = db.pragma('page_count', { simple: true }) as number;
  const free = db.pragma('freelist_count', { simple: true }) as number;
  let walBytes = 0;
  if (!db.memory) {
    try {
      walBytes = statSync(`${db.name}-wal`).size;
    } catch {
      walBytes = 0;
    }
  }
  return { bytes: pages * pageSize, walBytes, freeBytes: free * pageSize };
}

const SIZE_LOG_EVERY_MS = 60 * 60_000;

async function databasePlugin(fastify: FastifyInstance, opts: DatabaseOptions): Promise<void> {
  const { db, applied } = openDatabase(opts.path, opts.migrationsDir);
  if (applied.length > 0) fastify.log.info({ applied }, 'database migrated');
  fastify.decorate('db', db);
  fastify.decorate('backend', 'sqlite' as const);
  const probe = db.prepare<[], { version: number | null }>('SELECT MAX(version) AS version FROM schema_migrations');
  const write = db.prepare<[string]>("INSERT OR REPLACE INTO settings (key, value) VALUES ('health_probe', ?)");
  fastify.decorate('databaseProbe', {
    async version() {
      return probe.get()!.version;
    },
    async write(now: number) {
      write.run(String(now));
    },
    async size() {
      return databaseSize(db);
    },
    unavailable: () => false, // its errors are the disk's
  });
  const logSize = (): void => {
    try {
      fastify.log.info({ database: databaseSize(db) }, 'database size');
    } catch (error) {
      fastify.log.error({ err: error }, 'could not read the database size');
    }
  };
  let timer: NodeJS.Timeout | undefined;
  fastify.addHook('onReady', async () => {
    logSize();
    timer = setInterval(logSize, SIZE_LOG_EVERY_MS);
    timer.unref();
  });
  fastify.addHook('onClose', () => {
    clearInterval(timer);
    db.close();
  });
}

export default fp(databasePlugin, { name: 'database' });
