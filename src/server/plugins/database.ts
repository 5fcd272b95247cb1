/**
 * The SQLite connection (better-sqlite3) as `fastify.db`, migrated on start and
 * closed on close.
 *
 * Pragmas:
 * - journal_mode=WAL: readers never wait for the writer, and a crash leaves the
 *   database consistent.
 * - synchronous=NORMAL: in WAL mode a commit is safe from a process crash
 *   (kill -9: the WAL is in the OS cache and replayed on open) and the file can
 *   never be corrupted; only a power cut or OS crash may lose the last commits.
 *   FULL would also survive a power cut, but it fsyncs on every commit, and
 *   better-sqlite3 is synchronous: measured on this project's VM disk, FULL costs
 *   3.1 ms of blocked event loop per write against 0.16 ms for NORMAL, a twenty-
 *   fold cut in move batches per second, while every page waits behind it. For
 *   a game site that trade is right; a deployment that must survive power cuts
 *   can change this one line.
 * - foreign_keys=ON: games must point at a real player and deal.
 * - busy_timeout=5000: another process holding the write lock (a backup, a
 *   second server) makes us wait up to 5 s instead of failing at once.
 */
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { migrate, readMigrations } from '../db/migrate.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db?: Database.Database; // only with the SQLite backend (backend 'sqlite')
    backend: 'sqlite' | 'postgres'; // which database the stores use (DATABASE_URL set: postgres)
    databaseProbe: DatabaseProbe; // for /healthz, whichever the backend
  }
}

/** What /healthz asks of the database, on either backend. */
export interface DatabaseProbe {
  version(): Promise<number | null>; // the latest migration applied (a real read)
  write(now: number): Promise<void>; // a small write (one settings row)
  size(): Promise<object>; // how big the database is
  unavailable(error: unknown): boolean; // the error says the database cannot be reached just now (try again soon)
}

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../migrations/', import.meta.url));

export interface DatabaseOptions {
  path: string; // file path, or ':memory:'
  migrationsDir?: string;
}

/** Opens the database with our pragmas and applies pending migrations. */
export function openDatabase(
  path: string,
  migrationsDir = MIGRATIONS_DIR,
): { db: Database.Database; applied: string[] } {
  if (path !== ':memory:') {
    mkdirSync(dirname(path), { recursive: true });
    // Only the server's user may read the file: it holds every player's games. SQLite gives
    // its -wal and -shm files the database file's mode. An existing file made 0644 is narrowed.
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
  bytes: number; // the main file: pages × page size
  walBytes: number; // the write-ahead log beside it (0 in memory)
  freeBytes: number; // pages inside the file that are free for reuse
}

/** How big the database is now: for /healthz?detail=1 and the log. */
export function databaseSize(db: Database.Database): DatabaseSize {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const pages = db.pragma('page_count', { simple: true }) as number;
  const free = db.pragma('freelist_count', { simple: true }) as number;
  let walBytes = 0;
  if (!db.memory) {
    try {
      walBytes = statSync(`${db.name}-wal`).size;
    } catch {
      walBytes = 0; // no WAL file right now (checkpointed and removed, or not yet written)
    }
  }
  return { bytes: pages * pageSize, walBytes, freeBytes: free * pageSize };
}

const SIZE_LOG_EVERY_MS = 60 * 60_000; // the database size goes to the log at start and every hour

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
    unavailable: () => false, // a file opened in process is never away: its errors are the disk's (health.ts)
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
