import { prepareMigratedCopy } from '../../apps/server/src/testing/test-databases.js';

/** Vitest global setup: one migrated database per run, which each suite's server database is a copy of. */
export default function setup(): Promise<() => Promise<void>> {
  return prepareMigratedCopy(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
}
