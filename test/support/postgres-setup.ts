/**
 * vitest globalSetup: one throwaway PostgreSQL cluster for the whole run (test/support/postgres.ts), its
 * URL provided to the test files. Without PostgreSQL the suites that need it are skipped, and the reason
 * is printed once, loudly; with CI set a missing PostgreSQL fails the run.
 */
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { openPostgres } from '../../src/server/plugins/postgres.ts';
import { databaseUrl, MIGRATED_TEMPLATE, postgresMissing, startPostgres } from './postgres.ts';

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const missing = postgresMissing();
  if (missing) {
    if (process.env.CI) throw new Error(`CI is set and PostgreSQL is missing: ${missing}`);
    console.warn(`\n*** PostgreSQL tests SKIPPED: ${missing} ***\n`);
    project.provide('postgresUrl', '');
    project.provide('postgresMissing', missing);
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
  project.provide('postgresUrl', cluster.url);
  project.provide('postgresMissing', '');
  return () => cluster.stop();
}
