import type { Role } from '@paydesk/contract';
import { and, count, desc, eq, gte, ilike, lt, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { auditLog } from '../../db/schema.js';
import { verifyAuditChain } from '../../platform/audit.js';
import { keysetRows } from '../../platform/export.js';
import { escapeLike } from '../../platform/like.js';
import { parsePlatformTime } from '../../platform/time.js';

export interface AuditFilters {
  account?: string | null | undefined;
  action?: string | null | undefined;
  startTime?: string | null | undefined;
  endTime?: string | null | undefined;
}

/** Reading the audit log; writing happens in each service's own transaction (platform/audit.ts). */
export class AuditService {
  constructor(
    private readonly db: Db,
    private readonly timeZone: string,
  ) {}

  private whereOf(input: AuditFilters) {
    return and(
      input.account ? eq(auditLog.account, input.account) : undefined,
      input.action ? ilike(auditLog.action, `%${escapeLike(input.action)}%`) : undefined,
      input.startTime ? gte(auditLog.at, parsePlatformTime(input.startTime, this.timeZone)) : undefined,
      input.endTime ? lte(auditLog.at, parsePlatformTime(input.endTime, this.timeZone)) : undefined,
    );
  }

  async getList(input: AuditFilters & { pageIndex: number; pageSize: number }) {
    const where = this.whereOf(input);
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(auditLog)
        .where(where)
        .orderBy(desc(auditLog.id))
        .limit(input.pageSize)
        .offset((input.pageIndex - 1) * input.pageSize),
      this.db.select({ n: count() }).from(auditLog).where(where),
    ]);
    return {
      list: rows.map((r) => ({
        id: r.id,
        at: r.at.toISOString(),
        userId: r.userId,
        account: r.account,
        role: r.role as Role | null,
        action: r.action,
        target: r.target,
        before: r.before,
        after: r.after,
        ip: r.ip,
      })),
      total: total?.n ?? 0,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
    };
  }

  /** The filtered set for the CSV export, newest first, read in keyset batches. */
  async *exportRows(input: AuditFilters) {
    const where = this.whereOf(input);
    const rows = keysetRows((beforeId, limit) =>
      this.db
        .select()
        .from(auditLog)
        .where(and(where, beforeId === null ? undefined : lt(auditLog.id, beforeId)))
        .orderBy(desc(auditLog.id))
        .limit(limit),
    );
    for await (const r of rows) {
      yield {
        id: r.id,
        at: r.at.toISOString(),
        account: r.account,
        role: r.role,
        action: r.action,
        target: r.target,
        before: r.before === null ? null : JSON.stringify(r.before),
        after: r.after === null ? null : JSON.stringify(r.after),
        ip: r.ip,
      };
    }
  }

  verifyChain() {
    return verifyAuditChain(this.db);
  }
}
