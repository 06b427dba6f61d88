import { sql } from 'drizzle-orm';
import type { Database } from './client.js';
import { rowsOf } from './raw-rows.js';

/**
 * The embedded database's autovacuum. PGlite runs PostgreSQL in one process without its background
 * workers, so nothing vacuums or analyzes its tables: every update's dead row stays (a ledger balance
 * is rewritten at every transfer, an order at every state change) and the planner has no statistics,
 * so it takes a table of a million orders for one of a few rows. `upkeep` does what autovacuum does,
 * with autovacuum's default thresholds, for the tables (ours and the job queue's) that need it.
 * PostgreSQL runs its own autovacuum; where it is turned off, its DBA vacuums (see `autovacuumOff`).
 */

/** Autovacuum's defaults: a table is vacuumed past 50 + 20 % dead rows, analyzed past 50 + 10 % changed. */
const DUE = sql`
  select format('%I.%I', schemaname, relname) as name,
         n_dead_tup > 50 + 0.2 * n_live_tup as vacuum
    from pg_stat_user_tables
   where n_dead_tup > 50 + 0.2 * n_live_tup or n_mod_since_analyze > 50 + 0.1 * n_live_tup
   order by schemaname, relname`;

export interface UpkeepResult {
  /** Tables vacuumed (and analyzed with it). */
  vacuumed: string[];
  /** Tables analyzed only. */
  analyzed: string[];
}

/** Vacuums and analyzes the tables past autovacuum's thresholds, one at a time (outside a transaction). */
export async function upkeep(database: Database): Promise<UpkeepResult> {
  const { db } = database;
  // The counts of the last second's changes are still this backend's own until flushed.
  await db.execute(sql`select pg_stat_force_next_flush()`);
  const due = rowsOf<{ name: string; vacuum: boolean }>(await db.execute(DUE));
  const result: UpkeepResult = { vacuumed: [], analyzed: [] };
  for (const table of due) {
    // The name comes from the catalog, quoted by format('%I'): safe to splice.
    await db.execute(sql.raw(`${table.vacuum ? 'vacuum (analyze)' : 'analyze'} ${table.name}`));
    (table.vacuum ? result.vacuumed : result.analyzed).push(table.name);
  }
  return result;
}

/** How often the embedded database's upkeep looks for tables to vacuum (autovacuum's naptime). */
export const UPKEEP_EVERY_MS = 60_000;

/**
 * Runs `upkeep` every `everyMs` (first after `everyMs`). `stop` waits for a run in progress, so the
 * database is not closed under a VACUUM.
 */
export function scheduleUpkeep(
  database: Database,
  everyMs: number,
  report: { done(result: UpkeepResult, ms: number): void; failed(error: unknown): void },
): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    const started = Date.now();
    running = upkeep(database)
      .then((result) => report.done(result, Date.now() - started), report.failed)
      .finally(() => {
        running = null;
      });
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

/** Whether a PostgreSQL server has autovacuum turned off (nothing then keeps statistics or dead rows). */
export async function autovacuumOff(database: Database): Promise<boolean> {
  if (database.kind !== 'postgres') return false;
  const [row] = rowsOf<{ setting: string }>(
    await database.db.execute(sql`select setting from pg_settings where name = 'autovacuum'`),
  );
  return row?.setting === 'off';
}
