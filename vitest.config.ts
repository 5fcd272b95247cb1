import { defineConfig } from 'vitest/config';

/**
 * Two projects (issue 15): every test on the embedded default (SQLite), and the server tests that exercise
 * SQL once more with MAHJONG_TEST_BACKEND=postgres (test/server/helper.ts `build()` then gives each app a
 * database of the run's throwaway PostgreSQL). The other server files need one backend only: they test
 * HTTP, caching, headers, processes or the client, and reach storage through the same stores, whose every
 * behaviour test/server/store-contract.test.ts runs on both.
 */
const ON_POSTGRES = [
  'api',
  'stats',
  'fair-play',
  'transfer',
  'sync',
  'games',
  'layouts',
  'pages',
  'forgery',
  'hostile',
  'deals',
  'deals-store',
  'page-writes',
  'editor',
  'achievements',
  'replays',
].map((name) => `test/server/${name}.test.ts`);

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['test/support/postgres-setup.ts'], // one throwaway PostgreSQL for the run
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['test/**/*.test.ts'] } },
      {
        extends: true,
        test: { name: 'postgres', include: ON_POSTGRES, env: { MAHJONG_TEST_BACKEND: 'postgres' } },
      },
    ],
  },
});
