import type { ErrorLogRow } from '@paydesk/contract';
import { and, count, desc, gte, ilike, lt, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { errorLogs } from '../../db/schema.js';
import type { Clock } from '../../platform/clock.js';
import { keysetRows } from '../../platform/export.js';
import { escapeLike } from '../../platform/like.js';
import type { SessionUser } from '../../platform/sessions.js';
import { parsePlatformTime } from '../../platform/time.js';

export interface ErrorLogDeps {
  db: Db;
  clock: Clock;
  timeZone: string;
}

const toRow = (r: typeof errorLogs.$inferSelect): ErrorLogRow => ({
  id: r.id,
  userId: r.userId,
  account: r.account,
  page: r.page,
  message: r.message,
  stack: r.stack,
  userAgent: r.userAgent,
  ip: r.ip,
  createdAt: r.createdAt.toISOString(),
});

/**
 * Script errors of the console (spec section 8). Saving one is not audited: it changes no business
 * state, it only records what a browser reported (and the endpoint is rate-limited per address).
 */
export class ErrorLogService {
  constructor(private readonly deps: ErrorLogDeps) {}

  async save(
    user: SessionUser,
    input: { page: string; message: string; stack?: string | null | undefined; userAgent: string },
    ip: string,
  ): Promise<void> {
    await this.deps.db.insert(errorLogs).values({
      userId: user.userId,
      account: user.account,
      page: input.page,
      message: input.message,
      stack: input.stack ?? null,
      userAgent: input.userAgent,
      ip,
      createdAt: this.deps.clock.now(),
    });
  }

  private whereOf(input: ErrorLogFilters) {
    const { timeZone } = this.deps;
    return and(
      input.account ? ilike(errorLogs.account, `%${escapeLike(input.account)}%`) : undefined,
      input.page ? ilike(errorLogs.page, `%${escapeLike(input.page)}%`) : undefined,
      input.startTime ? gte(errorLogs.createdAt, parsePlatformTime(input.startTime, timeZone)) : undefined,
      input.endTime ? lte(errorLogs.createdAt, parsePlatformTime(input.endTime, timeZone)) : undefined,
    );
  }

  async getList(input: ErrorLogFilters & { pageIndex: number; pageSize: number }) {
    const where = this.whereOf(input);
    const [rows, [total]] = await Promise.all([
      this.deps.db
        .select()
        .from(errorLogs)
        .where(where)
        .orderBy(desc(errorLogs.createdAt), desc(errorLogs.id))
        .limit(input.pageSize)
        .offset((input.pageIndex - 1) * input.pageSize),
      this.deps.db.select({ n: count() }).from(errorLogs).where(where),
    ]);
    return { list: rows.map(toRow), total: total?.n ?? 0, pageIndex: input.pageIndex, pageSize: input.pageSize };
  }

  /** The filtered set for the CSV export, newest first (by id, which follows the time of writing). */
  async *exportRows(input: ErrorLogFilters) {
    const where = this.whereOf(input);
    const rows = keysetRows((beforeId, limit) =>
      this.deps.db
        .select()
        .from(errorLogs)
        .where(and(where, beforeId === null ? undefined : lt(errorLogs.id, beforeId)))
        .orderBy(desc(errorLogs.id))
        .limit(limit),
    );
    for await (const row of rows) yield toRow(row);
  }
}

export interface ErrorLogFilters {
  account?: string | null | undefined;
  page?: string | null | undefined;
  startTime?: string | null | undefined;
  endTime?: string | null | undefined;
}
