import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/raw-rows.js';
import { FOLD_DAILY } from './statements.js';

/** Any fixed number: one folder at a time across every process on one database. */
const FOLDER_LOCK = 7_270_704;
/** Deltas folded per transaction. */
export const FOLD_BATCH = 5000;

/**
 * Moves the committed daily-total deltas (`party_daily_deltas`) into `party_daily`, in batches of
 * `batch`, one short transaction each, under a lock only one folder holds at a time (another folder
 * holding it leaves the work to it: answers 0). Folding changes no total a reader sees (see
 * `FOLD_DAILY`); it keeps the deltas a reader sums few. Answers the deltas folded.
 */
export async function foldDaily(db: Db, options: { batch?: number } = {}): Promise<number> {
  const batch = options.batch ?? FOLD_BATCH;
  let folded = 0;
  for (;;) {
    const n = await db.transaction(async (tx) => {
      const [lock] = rowsOf<{ ok: boolean }>(
        await tx.execute(sql`select pg_try_advisory_xact_lock(${FOLDER_LOCK}) as ok`),
      );
      if (!lock?.ok) return 0;
      const [row] = await FOLD_DAILY.rows<{ n: number }>(tx, { batch });
      return Number(row?.n ?? 0);
    });
    folded += n;
    if (n < batch) return folded;
  }
}
