import { defineConfig } from 'vitest/config';

/**
 * Projects, in two groups run one after the other.
 *
 * Group 0 runs most files two at a time (CI has 2 cores, and vitest would use one lane by default; the browser
 * and process tests spend much of their time waiting on a page, a child process or a timer):
 * - `sqlite`: every test on the embedded default (SQLite);
 * - `postgres`: the server tests that exercise SQL once more with MAHJONG_TEST_BACKEND=postgres
 *   (test/server/helper.ts `build()` then gives each app a database of the run's throwaway PostgreSQL). The
 *   other server files need one backend only: they test HTTP, caching, headers, processes or the client, and
 *   reach storage through the same stores, whose every behaviour test/server/stores/store-contract.test.ts
 *   runs on both.
 * The files of both share one module cache per worker (`isolate: false`): the app and its dependencies are
 * imported once per worker instead of once per file, which saves about 80 s of CPU a run (of some 1,100). A
 * shared test module therefore registers its clean-ups through test/support/cleanup.ts, never as hooks at its
 * own top level, and a test that changes a module's state puts it back.
 *
 * Group 1 (`alone`) runs last, one file at a time: the files whose assertions are about the machine's own
 * behaviour under a load they make themselves (stalled sockets shed, a heap attack bounded, no long task in
 * the page, a worker stopped at its deadline, a fleet process killed mid-load, a fleet restarted under load).
 * Beside other tests they would measure the neighbours instead.
 */
const ON_POSTGRES = [
  'routes/api',
  'routes/fair-play',
  'routes/transfer',
  'routes/sync',
  'routes/games',
  'routes/layouts',
  'routes/pages',
  'routes/deals',
  'routes/editor',
  'stores/stats',
  'stores/deals-store',
  'hostile/forgery',
  'hostile/hostile',
  'ops/page-writes',
  'stores/achievements',
  'routes/replays',
  'ops/metrics',
  'routes/difficulty',
  'routes/race',
  'routes/coach-api-stats',
  'routes/layout-names',
  'routes/challenge',
].map((name) => `test/server/${name}.test.ts`);

const ALONE = [
  'test/client/measure-browser.test.ts',
  'test/server/ops/connections.test.ts',
  'test/server/hostile/memory-attack.test.ts',
  'test/server/ops/memory.test.ts',
  'test/server/ops/worker-pool.test.ts',
  'test/server/ops/fleet.test.ts',
  'test/server/ops/fleet-restarts.test.ts',
  'test/server/ops/fleet-race.test.ts',
  'test/server/hostile/stall.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    expect: { poll: { timeout: 10_000 } }, // a page that answers within a second on a quiet machine may need more on CI
    // The build as new as src/ (child servers and the CLI run it), then one throwaway PostgreSQL for the run.
    globalSetup: ['test/support/dist-setup.ts', 'test/support/postgres-setup.ts'],
    // Per test file: the browser's messages in English (src/client/i18n.ts); the clean-ups shared modules ask for.
    setupFiles: ['test/support/english.ts', 'test/support/cleanup.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'sqlite', include: ['test/**/*.test.ts'], exclude: ALONE, maxWorkers: 2, isolate: false },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: ON_POSTGRES,
          env: { MAHJONG_TEST_BACKEND: 'postgres' },
          maxWorkers: 2,
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'alone', include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
