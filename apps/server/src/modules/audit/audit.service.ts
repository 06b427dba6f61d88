import type { Role } from '@paydesk/contract';
import { and, count, desc, eq, gte, ilike, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { auditLog } from '../../db/schema.js';
import { verifyAuditChain } from '../../platform/audit.js';
import { parsePlatformTime } from '../../platform/time.js';
import { escapeLike } from '../auth/auth.service.js';

/** Reading the audit log; writing happens in each service's own transaction (platform/audit.ts). */
export class AuditService {
  constructor(
    private readonly db: Db,
    private readonly timeZone: string,
  ) {}

  async getList(input: {
    pageIndex: number;
    pageSize: number;
    account?: string | null | undefined;
    action?: string | null | undefined;
    startTime?: string | null | undefined;
    endTime?: string | null | undefined;
  }) {
    const where = and(
      input.account ? eq(auditLog.account, input.account) : undefined,
      input.action ? ilike(auditLog.action, `%${escapeLike(input.action)}%`) : undefined,
      input.startTime ? gte(auditLog.at, parsePlatformTime(input.startTime, this.timeZone)) : undefined,
      input.endTime ? lte(auditLog.at, parsePlatformTime(input.endTime, this.timeZone)) : undefined,
    );
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

  verifyChain() {
    return verifyAuditChain(this.db);
  }
}
