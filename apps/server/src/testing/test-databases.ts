import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase, type Database, openDatabase } from '../db/client.js';

/**
 * Migrated databases shared by a test run. Creating and migrating a database is most of what a test
 * file's start costs (PGlite builds its cluster in WebAssembly, then runs every migration), and
 * every server file and browser suite starts at least one. The run's global setup migrates one
 * database per kind, once: PGlite's files dumped to a temporary file, a PostgreSQL database kept as a
 * template. A test's database is then a copy of it, and `openDatabase` finds nothing left to migrate.
 * Without the setup (a file run by hand with another config, the fuzz CLI) each database is created
 * and migrated as before.
 */

/** Where the global setup leaves the migrated copies; test workers inherit the variables. */
const SNAPSHOT_ENV = 'PAYDESK_TEST_PGLITE_SNAPSHOT';
const TEMPLATE_ENV = 'PAYDESK_TEST_PG_TEMPLATE';

/** Prepares the migrated copy this run's tests start from; answers its teardown. */
export async function prepareMigratedCopy(kind: 'pglite' | 'postgres'): Promise<() => Promise<void>> {
  if (kind === 'pglite') {
    const database = await openDatabase({});
    const file = join(tmpdir(), `paydesk-test-${process.pid}-${randomBytes(4).toString('hex')}.tar`);
    try {
      const dump = await database.pglite!.dumpDataDir('none');
      writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    } finally {
      await database.close();
    }
    process.env[SNAPSHOT_ENV] = file;
    return async () => {
      delete process.env[SNAPSHOT_ENV];
      rmSync(file, { force: true });
    };
  }
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const template = await createScratchDatabase(base);
  try {
    // Migrated, then closed: a database is copied only while no one is connected to it.
    const database = await openDatabase({ url: template.url, onIdleError: () => undefined });
    await database.close();
  } catch (error) {
    await template.drop();
    throw error;
  }
  process.env[TEMPLATE_ENV] = new URL(template.url).pathname.slice(1);
  return async () => {
    delete process.env[TEMPLATE_ENV];
    await template.drop();
  };
}

let snapshot: { file: string; blob: Blob } | null = null;

/** The migrated PGlite files of this run, read once per worker; undefined without the setup. */
function pgliteSnapshot(): Blob | undefined {
  const file = process.env[SNAPSHOT_ENV];
  if (!file) return undefined;
  if (snapshot?.file !== file) snapshot = { file, blob: new Blob([readFileSync(file)]) };
  return snapshot.blob;
}

/**
 * A fresh database for a test: PGlite in memory, or a scratch PostgreSQL database beside `baseUrl`
 * (dropped by `drop`); a copy of the run's migrated one where the global setup made it.
 */
export async function openTestDatabase(
  baseUrl: string | undefined,
): Promise<{ database: Database; url?: string; drop: () => Promise<void> }> {
  if (baseUrl) {
    const scratch = await createScratchDatabase(baseUrl, { template: process.env[TEMPLATE_ENV] });
    try {
      // The scratch database is dropped with `force` at the end: connections it ends are expected.
      const database = await openDatabase({ url: scratch.url, onIdleError: () => undefined });
      return { database, url: scratch.url, drop: scratch.drop };
    } catch (error) {
      await scratch.drop();
      throw error;
    }
  }
  return { database: await openDatabase({ pgliteSnapshot: pgliteSnapshot() }), drop: async () => undefined };
}
