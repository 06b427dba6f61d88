import type {
  BotGroupKind,
  EndpointParsed,
  endpoints,
  TelegramGroupRow,
  TelegramWhitelistRow,
  TextLocale,
} from '@paydesk/contract';
import { and, asc, count, desc, eq, ilike, inArray, lt, or, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { merchants, suppliers, telegramGroups, telegramWhitelist } from '../../db/schema.js';
import { type Actor, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import { violatedConstraint } from '../../platform/db-errors.js';
import { conflict, invalid, notFound, refused } from '../../platform/errors.js';
import { keysetRowsAfter } from '../../platform/export.js';
import { escapeLike } from '../../platform/like.js';

type E = typeof endpoints.bots;
type WhitelistFields = Omit<EndpointParsed<E['whitelistUpdate']>, 'id'>;
type GroupFields = Omit<EndpointParsed<E['groupUpdate']>, 'id'>;
type WhitelistDbRow = typeof telegramWhitelist.$inferSelect;
type GroupDbRow = typeof telegramGroups.$inferSelect;

const whitelistRow = (r: WhitelistDbRow): TelegramWhitelistRow => ({
  id: r.id,
  telegramUserId: r.telegramUserId,
  name: r.name,
  enabled: r.enabled,
  remark: r.remark,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

type WhitelistFilters = { keyword?: string | null | undefined };
type GroupFilters = { keyword?: string | null | undefined; partyKind?: BotGroupKind | null | undefined };

function whitelistWhere(input: WhitelistFilters): SQL | undefined {
  if (!input.keyword) return undefined;
  const like = `%${escapeLike(input.keyword)}%`;
  return or(ilike(telegramWhitelist.name, like), ilike(telegramWhitelist.telegramUserId, like));
}

function groupWhere(input: GroupFilters): SQL | undefined {
  const like = input.keyword ? `%${escapeLike(input.keyword)}%` : null;
  return and(
    like ? or(ilike(telegramGroups.name, like), ilike(telegramGroups.chatId, like)) : undefined,
    input.partyKind ? eq(telegramGroups.partyKind, input.partyKind) : undefined,
  );
}

/**
 * The Telegram whitelist and the bot groups (spec section 2; issue 21 item 5): who the bots answer,
 * and which chat speaks for which merchant or supplier (or is a staff group). Every change is audited
 * with its before and after in the same transaction. The bots read these (`whitelisted`, `groupOfChat`,
 * `groupsOf`).
 */
export class BotsAdminService {
  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  async whitelistList(input: WhitelistFilters & { pageIndex: number; pageSize: number }) {
    const where = whitelistWhere(input);
    const [rows, [total]] = await Promise.all([
      this.deps.db
        .select()
        .from(telegramWhitelist)
        .where(where)
        .orderBy(desc(telegramWhitelist.id))
        .limit(input.pageSize)
        .offset((input.pageIndex - 1) * input.pageSize),
      this.deps.db.select({ n: count() }).from(telegramWhitelist).where(where),
    ]);
    return { list: rows.map(whitelistRow), total: total?.n ?? 0, pageIndex: input.pageIndex, pageSize: input.pageSize };
  }

  /** The filtered whitelist, newest first, in keyset batches (the CSV export). */
  async *whitelistExport(input: WhitelistFilters): AsyncGenerator<TelegramWhitelistRow> {
    const where = whitelistWhere(input);
    yield* keysetRowsAfter<TelegramWhitelistRow>(async (last, limit) =>
      (
        await this.deps.db
          .select()
          .from(telegramWhitelist)
          .where(and(where, last ? lt(telegramWhitelist.id, last.id) : undefined))
          .orderBy(desc(telegramWhitelist.id))
          .limit(limit)
      ).map(whitelistRow),
    );
  }

  whitelistAdd(fields: WhitelistFields, actor: Actor): Promise<TelegramWhitelistRow> {
    return this.writeWhitelist(async (tx, now) => {
      const [row] = await tx
        .insert(telegramWhitelist)
        .values({ ...fields, createdAt: now, updatedAt: now })
        .returning();
      const after = whitelistRow(row!);
      await writeAudit(tx, actor, { action: 'bots.whitelistAdd', target: `telegramUser:${row!.id}`, after }, now);
      return after;
    });
  }

  whitelistUpdate(id: number, fields: WhitelistFields, actor: Actor): Promise<TelegramWhitelistRow> {
    return this.writeWhitelist(async (tx, now) => {
      const [old] = await tx.select().from(telegramWhitelist).where(eq(telegramWhitelist.id, id)).for('update');
      if (!old) throw notFound('no such whitelist entry');
      const [row] = await tx
        .update(telegramWhitelist)
        .set({ ...fields, updatedAt: now })
        .where(eq(telegramWhitelist.id, id))
        .returning();
      const after = whitelistRow(row!);
      await writeAudit(
        tx,
        actor,
        { action: 'bots.whitelistUpdate', target: `telegramUser:${id}`, before: whitelistRow(old), after },
        now,
      );
      return after;
    });
  }

  async whitelistDelete(id: number, actor: Actor): Promise<{ id: number }> {
    return this.deps.db.transaction(async (tx) => {
      const now = this.deps.clock.now();
      const [old] = await tx.delete(telegramWhitelist).where(eq(telegramWhitelist.id, id)).returning();
      if (!old) throw notFound('no such whitelist entry');
      await writeAudit(
        tx,
        actor,
        { action: 'bots.whitelistDelete', target: `telegramUser:${id}`, before: whitelistRow(old) },
        now,
      );
      return { id };
    });
  }

  /** Whether this Telegram user may talk to the bots (listed and enabled). */
  async whitelisted(telegramUserId: string, db: DbOrTx = this.deps.db): Promise<boolean> {
    const [row] = await db
      .select({ id: telegramWhitelist.id })
      .from(telegramWhitelist)
      .where(and(eq(telegramWhitelist.telegramUserId, telegramUserId), eq(telegramWhitelist.enabled, true)));
    return row !== undefined;
  }

  private async writeWhitelist<T>(work: (tx: Tx, now: Date) => Promise<T>): Promise<T> {
    try {
      return await this.deps.db.transaction((tx) => work(tx, this.deps.clock.now()));
    } catch (error) {
      if (violatedConstraint(error) === 'telegram_whitelist_user_uq')
        throw conflict('this Telegram user is already on the whitelist', 'telegramUserListed');
      throw error;
    }
  }

  // ---- bot groups ----

  async groupList(input: GroupFilters & { pageIndex: number; pageSize: number }) {
    const where = groupWhere(input);
    const [rows, [total]] = await Promise.all([
      this.deps.db
        .select()
        .from(telegramGroups)
        .where(where)
        .orderBy(desc(telegramGroups.id))
        .limit(input.pageSize)
        .offset((input.pageIndex - 1) * input.pageSize),
      this.deps.db.select({ n: count() }).from(telegramGroups).where(where),
    ]);
    return {
      list: await this.groupRows(rows),
      total: total?.n ?? 0,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
    };
  }

  /** The filtered bot groups, newest first, in keyset batches (the CSV export). */
  async *groupExport(input: GroupFilters): AsyncGenerator<TelegramGroupRow> {
    const where = groupWhere(input);
    yield* keysetRowsAfter<TelegramGroupRow>(async (last, limit) =>
      this.groupRows(
        await this.deps.db
          .select()
          .from(telegramGroups)
          .where(and(where, last ? lt(telegramGroups.id, last.id) : undefined))
          .orderBy(desc(telegramGroups.id))
          .limit(limit),
      ),
    );
  }

  async groupParties() {
    const [m, s] = await Promise.all([
      this.deps.db
        .select({ id: merchants.id, name: merchants.name, merchantNo: merchants.merchantNo })
        .from(merchants)
        .orderBy(asc(merchants.id)),
      this.deps.db.select({ id: suppliers.id, name: suppliers.name }).from(suppliers).orderBy(asc(suppliers.id)),
    ]);
    return { merchants: m, suppliers: s };
  }

  groupAdd(fields: GroupFields, actor: Actor): Promise<TelegramGroupRow> {
    return this.writeGroup(fields, async (tx, now) => {
      const [row] = await tx
        .insert(telegramGroups)
        .values({ ...fields, createdAt: now, updatedAt: now })
        .returning();
      const [after] = await this.groupRows([row!], tx);
      await writeAudit(tx, actor, { action: 'bots.groupAdd', target: `botGroup:${row!.id}`, after }, now);
      return after!;
    });
  }

  groupUpdate(id: number, fields: GroupFields, actor: Actor): Promise<TelegramGroupRow> {
    return this.writeGroup(fields, async (tx, now) => {
      const [old] = await tx.select().from(telegramGroups).where(eq(telegramGroups.id, id)).for('update');
      if (!old) throw notFound('no such bot group');
      const [row] = await tx
        .update(telegramGroups)
        .set({ ...fields, updatedAt: now })
        .where(eq(telegramGroups.id, id))
        .returning();
      const [before, after] = await this.groupRows([old, row!], tx);
      await writeAudit(tx, actor, { action: 'bots.groupUpdate', target: `botGroup:${id}`, before, after }, now);
      return after!;
    });
  }

  /** Whether a merchant's or supplier's group gets its balance changes (the transfer bot page). */
  async groupTransferNotices(id: number, transferNotices: boolean, actor: Actor): Promise<TelegramGroupRow> {
    return this.deps.db.transaction(async (tx) => {
      const now = this.deps.clock.now();
      const [old] = await tx.select().from(telegramGroups).where(eq(telegramGroups.id, id)).for('update');
      if (!old) throw notFound('no such bot group');
      if (old.partyKind === 'staff')
        throw refused(
          'a staff group gets no balance changes: only merchant and supplier groups do',
          'transferNoticesStaffGroup',
        );
      const [row] = await tx
        .update(telegramGroups)
        .set({ transferNotices, updatedAt: now })
        .where(eq(telegramGroups.id, id))
        .returning();
      const [before, after] = await this.groupRows([old, row!], tx);
      await writeAudit(
        tx,
        actor,
        {
          action: 'bots.groupTransferNotices',
          target: `botGroup:${id}`,
          before: { name: before!.name, transferNotices: old.transferNotices },
          after: { name: after!.name, transferNotices },
        },
        now,
      );
      return after!;
    });
  }

  /** A group by id (any state), or not found. */
  async group(id: number, db: DbOrTx = this.deps.db): Promise<TelegramGroupRow> {
    const [row] = await db.select().from(telegramGroups).where(eq(telegramGroups.id, id));
    if (!row) throw notFound('no such bot group');
    return (await this.groupRows([row], db))[0]!;
  }

  async groupDelete(id: number, actor: Actor): Promise<{ id: number }> {
    return this.deps.db.transaction(async (tx) => {
      const now = this.deps.clock.now();
      const [old] = await tx.delete(telegramGroups).where(eq(telegramGroups.id, id)).returning();
      if (!old) throw notFound('no such bot group');
      const [before] = await this.groupRows([old], tx);
      await writeAudit(tx, actor, { action: 'bots.groupDelete', target: `botGroup:${id}`, before }, now);
      return { id };
    });
  }

  /** The enabled group of a chat, or null. */
  async groupOfChat(chatId: string, db: DbOrTx = this.deps.db): Promise<GroupDbRow | null> {
    const [row] = await db
      .select()
      .from(telegramGroups)
      .where(and(eq(telegramGroups.chatId, chatId), eq(telegramGroups.enabled, true)));
    return row ?? null;
  }

  /** The enabled groups of a party (or every staff group), oldest first. */
  async groupsOf(kind: BotGroupKind, partyId: number | null, db: DbOrTx = this.deps.db): Promise<GroupDbRow[]> {
    return db
      .select()
      .from(telegramGroups)
      .where(
        and(
          eq(telegramGroups.partyKind, kind),
          eq(telegramGroups.enabled, true),
          partyId === null ? undefined : eq(telegramGroups.partyId, partyId),
        ),
      )
      .orderBy(asc(telegramGroups.id));
  }

  private async writeGroup<T>(fields: GroupFields, work: (tx: Tx, now: Date) => Promise<T>): Promise<T> {
    try {
      return await this.deps.db.transaction(async (tx) => {
        if (fields.partyKind !== 'staff' && fields.partyId !== null) {
          const table = fields.partyKind === 'merchant' ? merchants : suppliers;
          const [party] = await tx.select({ id: table.id }).from(table).where(eq(table.id, fields.partyId));
          if (!party)
            throw invalid(
              [{ path: 'partyId', message: 'the chosen merchant or supplier does not exist' }],
              'telegramPartyMissing',
            );
        }
        return work(tx, this.deps.clock.now());
      });
    } catch (error) {
      if (violatedConstraint(error) === 'telegram_groups_chat_uq')
        throw conflict('this Telegram chat already has a bot group', 'telegramChatTaken');
      throw error;
    }
  }

  private async groupRows(rows: GroupDbRow[], db: DbOrTx = this.deps.db): Promise<TelegramGroupRow[]> {
    const ids = (kind: string) => [
      ...new Set(rows.filter((r) => r.partyKind === kind && r.partyId !== null).map((r) => r.partyId!)),
    ];
    const merchantIds = ids('merchant');
    const supplierIds = ids('supplier');
    const [m, s] = await Promise.all([
      merchantIds.length
        ? db
            .select({ id: merchants.id, name: merchants.name })
            .from(merchants)
            .where(inArray(merchants.id, merchantIds))
        : [],
      supplierIds.length
        ? db
            .select({ id: suppliers.id, name: suppliers.name })
            .from(suppliers)
            .where(inArray(suppliers.id, supplierIds))
        : [],
    ]);
    const names = new Map<string, string>([
      ...m.map((x) => [`merchant:${x.id}`, x.name] as const),
      ...s.map((x) => [`supplier:${x.id}`, x.name] as const),
    ]);
    return rows.map((r) => ({
      id: r.id,
      chatId: r.chatId,
      name: r.name,
      partyKind: r.partyKind as BotGroupKind,
      partyId: r.partyId,
      partyName: r.partyId === null ? null : (names.get(`${r.partyKind}:${r.partyId}`) ?? null),
      language: r.language as TextLocale,
      enabled: r.enabled,
      transferNotices: r.transferNotices,
      remark: r.remark,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    }));
  }
}
