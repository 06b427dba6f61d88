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
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      { extends: true, test: { name: 'contract', include: ['packages/*/src/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['apps/web/src/test/setup.ts'],
        },
      },
      serverOn('pglite'),
      ...(process.env.TEST_DATABASE_URL ? [serverOn('postgres')] : []),
    ],
  },
});
