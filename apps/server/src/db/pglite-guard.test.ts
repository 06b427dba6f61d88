import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './client.js';
import { OUTSIDE_TRANSACTION_MESSAGE } from './pglite-guard.js';
import { rowsOf } from './raw-rows.js';

describe.runIf(process.env.TEST_DB !== 'postgres')('embedded database: statements beside an open transaction', () => {
  it('a statement on the database from inside a transaction fails at once instead of waiting for it for ever', async () => {
    const database = await openDatabase({});
    const { db } = database;
    try {
      await db.execute(sql`create table guard_probe (n int)`);
      const outcome = await db.transaction(async (tx) => {
        await tx.execute(sql`insert into guard_probe values (1)`);
        // The mistake: the database, not `tx`. Unguarded, this await never returns.
        const wrong = await db.execute(sql`select count(*) from guard_probe`).then(
          () => 'answered',
          // drizzle wraps the driver's error ('Failed query: ...') and keeps it as the cause.
          (error: Error) => (error.cause instanceof Error ? error.cause : error).message,
        );
        await tx.execute(sql`insert into guard_probe values (2)`);
        return wrong;
      });
      expect(outcome).toBe(OUTSIDE_TRANSACTION_MESSAGE);
      // The transaction went on and committed, and the database answers after it.
      const [row] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from guard_probe`));
      expect(row!.n).toBe(2);
    } finally {
      await database.close();
    }
  });

  it('leaves alone work outside the transaction and work the transaction left running after its end', async () => {
    const database = await openDatabase({});
    const { db } = database;
    try {
      let later: Promise<unknown> | null = null;
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      // Another request's query, sent while the transaction is open: it waits its turn and answers.
      const beside = db.transaction(async (tx) => {
        await gate;
        await tx.execute(sql`select 1`);
        // Started here, not awaited: it runs once the transaction has ended.
        later = (async () => {
          await beside;
          return db.execute(sql`select 2`);
        })();
      });
      const outside = db.execute(sql`select 3`);
      release();
      await beside;
      await expect(outside).resolves.toBeDefined();
      await expect(later).resolves.toBeDefined();
    } finally {
      await database.close();
    }
  });
});
