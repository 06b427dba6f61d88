import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createScratchDatabase, openDatabase } from './client.js';

const onPostgres = process.env.TEST_DB === 'postgres' && Boolean(process.env.TEST_DATABASE_URL);

describe.runIf(onPostgres)('PostgreSQL connections', () => {
  it('survive the server ending idle connections (restart, failover): no crash, the next query works', async () => {
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
    const lost: string[] = [];
    const database = await openDatabase({ url: scratch.url, onIdleError: (e) => lost.push(e.message) });
    try {
      // Several idle connections in the pool.
      await Promise.all(Array.from({ length: 5 }, () => database.db.execute(sql`select pg_sleep(0.05)`)));
      const admin = await openDatabase({ url: process.env.TEST_DATABASE_URL! });
      const dbName = new URL(scratch.url).pathname.slice(1);
      const ended = (await admin.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${dbName} and pid <> pg_backend_pid()`,
      )) as unknown as { rows: unknown[] };
      await admin.close();
      expect(ended.rows.length).toBeGreaterThan(0);
      // Every ended connection is reported to the listener instead of crashing the process.
      await expect.poll(() => lost.length).toBe(ended.rows.length);
      await expect(database.ping()).resolves.toBeUndefined();
    } finally {
      await database.close();
      await scratch.drop();
    }
  });
});
