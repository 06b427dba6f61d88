import { and, gte, isNotNull, isNull, lt, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { formatPlatformTime, parsePlatformTime } from './time.js';

/**
 * A list's time range filter (startTime, endTime in the platform time zone, either may be missing) on
 * the rows' creation time; with `byDoneAt` (the CompleteTimeFilter setting) on the completion time of
 * the rows that have one and on the creation time of the others. Undefined when no range is given.
 */
export function timeRangeWhere(
  f: { startTime?: string | null | undefined; endTime?: string | null | undefined },
  timeZone: string,
  columns: { createdAt: AnyPgColumn; doneAt: AnyPgColumn },
  byDoneAt: boolean,
): SQL | undefined {
  const start = f.startTime ? parsePlatformTime(f.startTime, timeZone) : undefined;
  const end = f.endTime ? parsePlatformTime(f.endTime, timeZone) : undefined;
  if (!start && !end) return undefined;
  // The end is a second: everything before the next one (an order at 23:59:59.5 is in "today").
  const endBefore = end ? new Date(end.getTime() + 1000) : undefined;
  const inRange = (column: AnyPgColumn) =>
    and(start ? gte(column, start) : undefined, endBefore ? lt(column, endBefore) : undefined);
  if (!byDoneAt) return inRange(columns.createdAt);
  return or(
    and(isNotNull(columns.doneAt), inRange(columns.doneAt)),
    and(isNull(columns.doneAt), inRange(columns.createdAt)),
  );
}

/** HighPerfOrderQuery: how far back the order and payout lists search when no time range is given. */
export const FAST_QUERY_DAYS = 31;

/**
 * The filters a list searches with under HighPerfOrderQuery: without a start or an end, the last
 * FAST_QUERY_DAYS days (from the start of the day FAST_QUERY_DAYS days before `now`, so the window is
 * whole days and its totals come from the rollups); with either, as given. Off: as given.
 */
export function fastQueryFilters<
  F extends { startTime?: string | null | undefined; endTime?: string | null | undefined },
>(f: F, on: boolean, now: Date, timeZone: string): F {
  if (!on || f.startTime || f.endTime) return f;
  const day = formatPlatformTime(new Date(now.getTime() - FAST_QUERY_DAYS * 86_400_000), timeZone).slice(0, 10);
  return { ...f, startTime: `${day} 00:00:00` };
}
