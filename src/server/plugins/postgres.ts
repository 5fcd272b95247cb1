/** The PostgreSQL pool as `fastify.pg`, registered as `database` (docs/storage.md, "PostgreSQL"). */
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type pg from 'pg';
import { readMigrations } from '../db/migrate.ts';
import { createPool, isUnavailable, migratePostgres } from '../db/postgres.ts';

declare module 'fastify' {
  interface FastifyInstance {
    pg?: pg.Pool;
  }
}

export const PG_MIGRATIONS_DIR = fileURLToPath(new URL('../../../migrations/postgres/', import.meta.url));

export interface PostgresOptions {
  url: string;
  poolMax?: number;
  migrationsDir?: string;
}

export async function openPostgres(opts: PostgresOptions): Promise<{ pool: pg.Pool; applied: string[] }> {
  const pool = createPool({ url: opts.url, max: opts.poolMax });
  try {
    const applied = await migratePostgres(pool, readMigrations(opts.migrationsDir ?? PG_MIGRATIONS_DIR));
    return { pool, applied };
  } catch (error) {
    await pool.end();
    throw error;
  }
}

async function postgresPlugin(fastify: FastifyInstance, opts: PostgresOptions): Promise<void> {
  const { pool, applied } = await openPostgres(opts);
  if (applied.length > 0) fastify.log.info({ applied }, 'database migrated');
  fastify.decorate('pg', pool);
  fastify.decorate('backend', 'postgres' as const);
  fastify.decorate('databaseProbe', {
    async version() {
      return (await pool.query<{ version: number | null }>('SELECT MAX(version) AS version FROM schema_migrations'))
        .rows[0]!.version;
    },
    async write(now: number) {
      await pool.query(
        `INSERT INTO settings (key, value) VALUES ('health_probe', $1)
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
        [String(now)],
      );
    },
    async size() {
      const row = (await pool.query<{ bytes: number }>('SELECT pg_database_size(current_database()) AS bytes'))
        .rows[0]!;
      return { bytes: row.bytes, pool: { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } };
    },
    unavailable: isUnavailable,
  });
  fastify.addHook('onClose', async () => {
    if (!pool.ended) await pool.end();
  });
}

export default fp(postgresPlugin, { name: 'database' });
