/**
 * vitest globalSetup: one throwaway PostgreSQL cluster for the whole run (test/support/postgres.ts), its
 * URL provided to the test files. Without PostgreSQL the suites that need it are skipped, and the reason
 * is printed once, loudly; with CI set a missing PostgreSQL fails the run. A part that needs no database
 * server (`npm run test:engine`, MAHJONG_TEST_LIGHT set) starts none.
 */
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { openPostgres } from '../../src/server/plugins/postgres.ts';
import { databaseUrl, MIGRATED_TEMPLATE, postgresMissing, startPostgres } from './postgres.ts';

interface Shared {
  cluster: Promise<{ url: string; stop(): Promise<void> } | undefined>; // undefined: PostgreSQL is missing
  users: number;
}
// Both vitest projects (and the root) run this setup in the one main process: they share one cluster.
const SHARED = Symbol.for('mahjong.test.postgres');
const registry = globalThis as { [SHARED]?: Shared };

async function startOnce(): Promise<{ url: string; stop(): Promise<void> } | undefined> {
  const missing = postgresMissing();
  if (missing) {
    if (process.env.CI) throw new Error(`CI is set and PostgreSQL is missing: ${missing}`);
    console.warn(`\n*** PostgreSQL tests SKIPPED: ${missing} ***\n`);
    return undefined;
  }
  const cluster = await startPostgres();
  try {
    // A template with today's schema: each test's database is a copy (CREATE DATABASE … TEMPLATE).
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${MIGRATED_TEMPLATE} TEMPLATE template0`);
    const { pool } = await openPostgres({ url: databaseUrl(cluster.url, MIGRATED_TEMPLATE), poolMax: 1 });
    await pool.end();
    await admin.query(`ALTER DATABASE ${MIGRATED_TEMPLATE} WITH is_template true`);
    await admin.end();
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return cluster;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.MAHJONG_TEST_LIGHT) {
    project.provide('postgresUrl', '');
    project.provide('postgresMissing', 'not started: MAHJONG_TEST_LIGHT runs a part that needs no PostgreSQL');
    return async () => {};
  }
  const shared = (registry[SHARED] ??= { cluster: startOnce(), users: 0 });
  shared.users++;
  const cluster = await shared.cluster;
  project.provide('postgresUrl', cluster?.url ?? '');
  project.provide('postgresMissing', cluster ? '' : postgresMissing()!);
  return async () => {
    shared.users--;
    if (shared.users === 0) {
      delete registry[SHARED];
      await cluster?.stop();
    }
  };
}
