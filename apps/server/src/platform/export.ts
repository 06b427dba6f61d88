import { EXPORT_ROW_LIMIT } from '@paydesk/contract';
import { type AnyColumn, gt, type SQL, sql } from 'drizzle-orm';

/**
 * Reads an export's filtered set in batches keyed by id, so memory stays flat whatever its size.
 * `fetch(cursor, limit)` answers the next batch after the cursor (the previous batch's last id), in
 * the list's order; the set ends at an empty batch or at EXPORT_ROW_LIMIT rows.
 */
export async function* keysetRows<T extends { id: number }>(
  fetch: (cursor: number | null, limit: number) => Promise<T[]>,
  batchSize = 1000,
): AsyncGenerator<T> {
  yield* keysetRowsAfter<T>((last, limit) => fetch(last ? last.id : null, limit), batchSize);
}

/**
 * keysetRows for a list sorted by another column than the id: `fetch(last, limit)` answers the batch
 * after the previous batch's last row (null first), e.g. with `afterInOrder`.
 */
export async function* keysetRowsAfter<T>(
  fetch: (last: T | null, limit: number) => Promise<T[]>,
  batchSize = 1000,
): AsyncGenerator<T> {
  let last: T | null = null;
  let sent = 0;
  while (sent < EXPORT_ROW_LIMIT) {
    const batch = await fetch(last, Math.min(batchSize, EXPORT_ROW_LIMIT - sent));
    if (batch.length === 0) return;
    yield* batch;
    sent += batch.length;
    last = batch[batch.length - 1]!;
  }
}

/**
 * "After this row" in a list ordered by a sort column (ascending or descending) then by id ascending:
 * the condition for the next keyset batch. Without a sort column the order is the id's.
 */
export function afterInOrder(
  sort: { expr: SQL | AnyColumn; value: unknown } | null,
  descending: boolean,
  id: { column: AnyColumn; value: number },
): SQL | undefined {
  if (!sort) return gt(id.column, id.value);
  const beyond = descending ? sql`${sort.expr} < ${sort.value}` : sql`${sort.expr} > ${sort.value}`;
  return sql`(${beyond} or (${sort.expr} = ${sort.value} and ${id.column} > ${id.value}))`;
}
