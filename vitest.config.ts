import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['test/support/postgres-setup.ts'], // one throwaway PostgreSQL for the run (issue 15)
  },
});
