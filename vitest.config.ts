import { defineConfig } from 'vitest/config';

/**
 * One run covers every workspace. The server suites run on embedded PGlite, and a second time on real
 * PostgreSQL when TEST_DATABASE_URL is set (.ci/run sets it). Browser tests run in e2e's own config.
 */
const serverOn = (db: 'pglite' | 'postgres') => ({
  extends: true as const,
  test: {
    name: `server:${db}`,
    include: ['apps/server/src/**/*.test.ts'],
    env: { TEST_DB: db },
    // One migrated database per run, which every test file's database is a copy of.
    globalSetup: ['apps/server/src/testing/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    // Vitest's default is one worker less than the cores: a single worker on the 2-core CI machine.
    // Most suites wait on a database (PostgreSQL in its own process, or PGlite between queries), so
    // two workers roughly halve the run (measured: 843 s -> 407 s on 2 cores).
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'contract', include: ['packages/*/src/**/*.test.ts'] } },
      // The order bench's report and probes (the probes' test needs TEST_DATABASE_URL).
      { extends: true, test: { name: 'bench', include: ['bench/src/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['apps/web/src/test/setup.ts'],
          // Typing with userEvent through antd forms takes seconds on a loaded 2-core machine.
          testTimeout: 20_000,
        },
      },
      serverOn('pglite'),
      ...(process.env.TEST_DATABASE_URL ? [serverOn('postgres')] : []),
    ],
  },
});
