import type { Role } from '@paydesk/contract';
import { and, count, desc, eq, gte, ilike, inArray, lt, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  auditLog,
  balanceProposals,
  merchants,
  messages,
  orderCallbacks,
  resources,
  savedViews,
  sessions,
  suppliers,
  users,
} from '../../db/schema.js';
import { verifyAuditChain } from '../../platform/audit.js';
import { AUDIT_SEAL_STALE_MS } from '../../platform/audit-sealer.js';
import type { Clock } from '../../platform/clock.js';
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
    private readonly clock: Clock,
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
    const names = await this.targetNames(rows.map((r) => r.target));
    return {
      list: rows.map((r) => ({
        id: r.id,
        at: r.at.toISOString(),
        userId: r.userId,
        account: r.account,
        role: r.role as Role | null,
        action: r.action,
        target: r.target,
        targetName: (r.target && names.get(r.target)) ?? null,
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

  /**
   * What each target names, as a reader knows it: `user:7` is an account, `session:s_…` the account
   * that signed in, `merchant:3` a merchant's name, `callbacks:4,5` the orders notified, and so on.
   * Read for one page at a time, one query per kind; a target whose row is gone keeps no name.
   */
  private async targetNames(targets: ReadonlyArray<string | null>): Promise<Map<string, string>> {
    const byKind = new Map<string, string[]>();
    for (const target of new Set(targets)) {
      const match = target && /^([a-z]+):(.+)$/.exec(target);
      if (!match) continue;
      byKind.set(match[1]!, [...(byKind.get(match[1]!) ?? []), match[2]!]);
    }
    const ids = (kind: string) =>
      (byKind.get(kind) ?? []).map(Number).filter((n) => Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647);
    const names = new Map<string, string>();
    const put = (kind: string, key: string | number, name: string | null) => {
      if (name) names.set(`${kind}:${key}`, name);
    };
    const db = this.db;
    const reads: Array<Promise<unknown>> = [];
    const userIds = ids('user');
    if (userIds.length > 0)
      reads.push(
        db
          .select({ id: users.id, account: users.account })
          .from(users)
          .where(inArray(users.id, userIds))
          .then((rows) => {
            for (const r of rows) put('user', r.id, r.account);
          }),
      );
    const sessionIds = byKind.get('session') ?? [];
    if (sessionIds.length > 0)
      reads.push(
        db
          .select({ id: sessions.publicId, account: users.account })
          .from(sessions)
          .innerJoin(users, eq(users.id, sessions.userId))
          .where(inArray(sessions.publicId, sessionIds))
          .then((rows) => {
            for (const r of rows) put('session', r.id, r.account);
          }),
      );
    // An order's code is its name.
    for (const code of byKind.get('order') ?? []) put('order', code, code);
    const named = [
      ['merchant', merchants],
      ['supplier', suppliers],
      ['resource', resources],
      ['view', savedViews],
    ] as const;
    for (const [kind, table] of named) {
      const list = ids(kind);
      if (list.length > 0)
        reads.push(
          db
            .select({ id: table.id, name: table.name })
            .from(table)
            .where(inArray(table.id, list))
            .then((rows) => {
              for (const r of rows) put(kind, r.id, r.name);
            }),
        );
    }
    const messageIds = ids('message');
    if (messageIds.length > 0)
      reads.push(
        db
          .select({ id: messages.id, title: messages.title })
          .from(messages)
          .where(inArray(messages.id, messageIds))
          .then((rows) => {
            for (const r of rows) put('message', r.id, r.title);
          }),
      );
    const proposalIds = ids('proposal');
    if (proposalIds.length > 0)
      reads.push(
        db
          .select({ id: balanceProposals.id, merchant: merchants.name, supplier: suppliers.name })
          .from(balanceProposals)
          .leftJoin(
            merchants,
            and(eq(balanceProposals.partyKind, 'merchant'), eq(merchants.id, balanceProposals.partyId)),
          )
          .leftJoin(
            suppliers,
            and(eq(balanceProposals.partyKind, 'supplier'), eq(suppliers.id, balanceProposals.partyId)),
          )
          .where(inArray(balanceProposals.id, proposalIds))
          .then((rows) => {
            for (const r of rows) put('proposal', r.id, r.merchant ?? r.supplier);
          }),
      );
    // A replay of callbacks names the orders they notify.
    const callbackSets = byKind.get('callbacks') ?? [];
    const callbackIds = [...new Set(callbackSets.flatMap((set) => set.split(',').map(Number)))].filter(
      (n) => Number.isSafeInteger(n) && n > 0,
    );
    if (callbackIds.length > 0)
      reads.push(
        db
          .select({ id: orderCallbacks.id, orderCode: orderCallbacks.orderCode })
          .from(orderCallbacks)
          .where(inArray(orderCallbacks.id, callbackIds))
          .then((rows) => {
            const codes = new Map(rows.map((r) => [r.id, r.orderCode]));
            for (const set of callbackSets) {
              const list = [...new Set(set.split(',').flatMap((id) => codes.get(Number(id)) ?? []))];
              put('callbacks', set, list.length > 0 ? list.join(', ') : null);
            }
          }),
      );
    await Promise.all(reads);
    return names;
  }

  verifyChain() {
    return verifyAuditChain(this.db, this.clock.now(), AUDIT_SEAL_STALE_MS);
  }
}
