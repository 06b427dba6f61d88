import { EXPORT_ROW_LIMIT } from '@paydesk/contract';

/**
 * Reads an export's filtered set in batches keyed by id, so memory stays flat whatever its size.
 * `fetch(cursor, limit)` answers the next batch after the cursor (the previous batch's last id), in
 * the list's order; the set ends at an empty batch or at EXPORT_ROW_LIMIT rows.
 */
export async function* keysetRows<T extends { id: number }>(
  fetch: (cursor: number | null, limit: number) => Promise<T[]>,
  batchSize = 1000,
): AsyncGenerator<T> {
  let cursor: number | null = null;
  let sent = 0;
  while (sent < EXPORT_ROW_LIMIT) {
    const batch = await fetch(cursor, Math.min(batchSize, EXPORT_ROW_LIMIT - sent));
    if (batch.length === 0) return;
    yield* batch;
    sent += batch.length;
    cursor = batch[batch.length - 1]!.id;
  }
}
