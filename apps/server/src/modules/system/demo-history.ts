import type { DemoHistoryStatus } from '@paydesk/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { systemSettings } from '../../db/schema.js';

/**
 * The demo's order history is made after the server listens (a newcomer's console answers at once),
 * and its state is kept in system_settings under this key: the console's notice reads it, and a later
 * start knows whether a stop cut it short. Every step of the history is one of the engine's own
 * transactions, so a stop between two steps leaves a consistent database; the rest is then skipped.
 */
export const DEMO_HISTORY_KEY = 'DemoHistory';

/** A history in progress writes its count every few seconds; silent this long, nobody makes it. */
const STALE_MS = 2 * 60_000;

export interface StoredDemoHistory {
  state: 'making' | 'done' | 'interrupted';
  made: number;
  planned: number;
  /** When the maker last wrote (ISO): a history whose maker died stops moving. */
  beatAt: string;
}

export async function writeDemoHistory(db: Db, value: StoredDemoHistory): Promise<void> {
  await db
    .insert(systemSettings)
    .values({ key: DEMO_HISTORY_KEY, value })
    .onConflictDoUpdate({ target: systemSettings.key, set: { value, updatedAt: new Date() } });
}

async function read(db: Db): Promise<StoredDemoHistory | null> {
  const [row] = await db.select().from(systemSettings).where(eq(systemSettings.key, DEMO_HISTORY_KEY));
  return (row?.value as StoredDemoHistory | undefined) ?? null;
}

/** What the console's notice shows. */
export async function demoHistoryStatus(db: Db): Promise<DemoHistoryStatus> {
  const stored = await read(db);
  if (!stored) return { state: 'none', made: 0, planned: 0 };
  return { state: stored.state, made: stored.made, planned: stored.planned };
}

/** Marks the history as planned (state making, nothing made): written by the first start before it listens. */
export async function planDemoHistory(db: Db, planned: number): Promise<void> {
  await writeDemoHistory(db, { state: 'making', made: 0, planned, beatAt: new Date().toISOString() });
}

/**
 * At a start that did not seed: a history still marked `making` whose maker is gone (the embedded
 * database has one process, so any; on PostgreSQL one silent for two minutes) was cut short by a stop.
 * It is marked interrupted and not made again: what was made stays, consistent, and the rest is
 * skipped (its unpaid orders time out and its undelivered callbacks fail like any others). Answers the
 * interrupted history, or null.
 */
export async function settleDemoHistory(
  db: Db,
  opts: { onlyProcess: boolean; now?: Date },
): Promise<{ made: number; planned: number } | null> {
  const stored = await read(db);
  if (stored?.state !== 'making') return null;
  const silentMs = (opts.now ?? new Date()).getTime() - new Date(stored.beatAt).getTime();
  if (!opts.onlyProcess && silentMs < STALE_MS) return null;
  await writeDemoHistory(db, { ...stored, state: 'interrupted', beatAt: new Date().toISOString() });
  return { made: stored.made, planned: stored.planned };
}
