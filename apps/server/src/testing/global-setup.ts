import type { TestProject } from 'vitest/node';
import { prepareMigratedCopy } from './test-databases.js';

/** Vitest global setup of a server project: one migrated database its test files copy (test-databases.ts). */
export default function setup(project: TestProject): Promise<() => Promise<void>> {
  return prepareMigratedCopy(project.config.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite');
}
