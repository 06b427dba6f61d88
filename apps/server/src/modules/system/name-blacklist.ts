import { type BlacklistKind, type BlacklistRow, normalizeBlacklistName } from '@paydesk/contract';
import { and, desc, eq, ilike, inArray, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { nameBlacklist, users } from '../../db/schema.js';
import { type Actor, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import { isUniqueViolation } from '../../platform/db-errors.js';
import { conflict, notFound } from '../../platform/errors.js';
import { escapeLike } from '../../platform/like.js';

type Filters = { name?: string | null | undefined; kind?: BlacklistKind | null | undefined };

/**
 * The name blacklist (issue 21 item 6): payer names refused at collection order create, payee names
 * at payout create, compared as `normalizeBlacklistName` folds them (one indexed lookup per create
 * that carries a name).
 */
export class NameBlacklist {
  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  /** Whether `name` is blacklisted as a payer (collections) or a payee (payouts). */
  async blocks(
    given: string | number | null | undefined,
    as: 'payer' | 'payee',
    db: DbOrTx = this.deps.db,
  ): Promise<boolean> {
    const name = given === null || given === undefined ? '' : String(given);
    if (!name.trim()) return false;
    const [hit] = await db
      .select({ id: nameBlacklist.id })
      .from(nameBlacklist)
      .where(and(eq(nameBlacklist.normalized, normalizeBlacklistName(name)), inArray(nameBlacklist.kind, [as, 'both'])))
      .limit(1);
    return hit !== undefined;
  }

  async list(input: Filters & { pageIndex: number; pageSize: number }) {
    const where = this.where(input);
    const [rows, total] = await Promise.all([
      this.select(where)
        .limit(input.pageSize)
        .offset((input.pageIndex - 1) * input.pageSize),
      this.deps.db.$count(nameBlacklist, where),
    ]);
    return { list: rows.map(toRow), total, pageIndex: input.pageIndex, pageSize: input.pageSize };
  }

  async *export(input: Filters) {
    for (const row of await this.select(this.where(input))) yield toRow(row);
  }

  async add(input: { name: string; kind: BlacklistKind; remark: string }, actor: Actor): Promise<BlacklistRow> {
    const now = this.deps.clock.now();
    const name = input.name.trim().replace(/\s+/g, ' ');
    try {
      const id = await this.deps.db.transaction(async (tx) => {
        const [created] = await tx
          .insert(nameBlacklist)
          .values({
            name,
            normalized: normalizeBlacklistName(name),
            kind: input.kind,
            remark: input.remark,
            createdAt: now,
            createdBy: actor.userId,
          })
          .returning({ id: nameBlacklist.id });
        await writeAudit(
          tx,
          actor,
          {
            action: 'nameBlacklist.add',
            target: `blacklist:${created!.id}`,
            after: { name, kind: input.kind, remark: input.remark },
          },
          now,
        );
        return created!.id;
      });
      const [row] = await this.select(eq(nameBlacklist.id, id));
      return toRow(row!);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('this name is already on the blacklist');
      throw error;
    }
  }

  async delete(id: number, actor: Actor): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.db.transaction(async (tx) => {
      const [row] = await tx.delete(nameBlacklist).where(eq(nameBlacklist.id, id)).returning();
      if (!row) throw notFound('no such blacklist entry');
      await writeAudit(
        tx,
        actor,
        {
          action: 'nameBlacklist.delete',
          target: `blacklist:${row.id}`,
          before: { name: row.name, kind: row.kind, remark: row.remark },
        },
        now,
      );
    });
  }

  private where(input: Filters): SQL | undefined {
    return and(
      input.name ? ilike(nameBlacklist.name, `%${escapeLike(input.name)}%`) : undefined,
      input.kind ? eq(nameBlacklist.kind, input.kind) : undefined,
    );
  }

  private select(where: SQL | undefined) {
    return this.deps.db
      .select({ row: nameBlacklist, createdBy: users.account })
      .from(nameBlacklist)
      .leftJoin(users, eq(users.id, nameBlacklist.createdBy))
      .where(where)
      .orderBy(desc(nameBlacklist.id));
  }
}

function toRow(r: { row: typeof nameBlacklist.$inferSelect; createdBy: string | null }): BlacklistRow {
  return {
    id: r.row.id,
    name: r.row.name,
    kind: r.row.kind as BlacklistKind,
    remark: r.row.remark,
    createdAt: r.row.createdAt.toISOString(),
    createdBy: r.createdBy,
  };
}
