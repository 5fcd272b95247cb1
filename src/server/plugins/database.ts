/**
 * The SQLite connection (better-sqlite3) as `fastify.db`, migrated on start and
 * closed on close.
 *
 * Pragmas:
 * - journal_mode=WAL: readers never wait for the writer, and a crash leaves the
 *   database consistent.
 * - synchronous=FULL: every commit waits for the WAL to reach the disk. With
 *   NORMAL, a power cut (not a process crash) may lose the last commits, and a
 *   lost commit here is a player's acknowledged win. Writes are small and few
 *   (a move batch every few seconds per player), so we pay the fsync.
 * - foreign_keys=ON: games must point at a real player and deal.
 * - busy_timeout=5000: another process holding the write lock (a backup, a
 *   second server) makes us wait up to 5 s instead of failing at once.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { migrate, readMigrations } from '../db/migrate.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database.Database;
  }
}

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../migrations/', import.meta.url));

export interface DatabaseOptions {
  path: string; // file path, or ':memory:'
  migrationsDir?: string;
}

/** Opens the database with our pragmas and applies pending migrations. */
export function openDatabase(path: string, migrationsDir = MIGRATIONS_DIR): { db: Database.Database; applied: string[] } {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  try {
    if (path !== ':memory:') db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    const applied = migrate(db, readMigrations(migrationsDir));
    return { db, applied };
  } catch (error) {
    db.close();
    throw error;
  }
}

async function databasePlugin(fastify: FastifyInstance, opts: DatabaseOptions): Promise<void> {
  const { db, applied } = openDatabase(opts.path, opts.migrationsDir);
  if (applied.length > 0) fastify.log.info({ applied }, 'database migrated');
  fastify.decorate('db', db);
  fastify.addHook('onClose', () => {
    db.close();
  });
}

export default fp(databasePlugin, { name: 'database' });
