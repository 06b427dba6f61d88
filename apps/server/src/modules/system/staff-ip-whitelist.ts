import { isStaff, MERCHANT_TEXTS, type Role, type StaffIpRow } from '@paydesk/contract';
import { desc, eq, ilike, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { staffIpWhitelist, users } from '../../db/schema.js';
import { type Actor, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import { isUniqueViolation } from '../../platform/db-errors.js';
import { type AppError, conflict, invalid, notFound, refused } from '../../platform/errors.js';
import { ipAllowed, parseIpEntry } from '../../platform/ip-list.js';
import { escapeLike } from '../../platform/like.js';
import type { SettingsStore } from '../../platform/settings.js';

const TEXTS = {
  notAllowed: 'staff accounts sign in only from the IP whitelist, and this address is not on it',
  lockout: 'that would shut your own address out of sign-in: add your current address to the list first',
  taken: 'this address or range is already on the list',
} as const;

type Filters = { entry?: string | null | undefined };

/**
 * The staff sign-in whitelist (issue 21 item 6). While the StaffIpWhitelist setting is on, a staff
 * account signs in only from an address one entry holds (merchants and suppliers are not limited by
 * it). Nobody can shut themselves out from the console: the setting is not turned on, and an entry not
 * removed, when the caller's own address would then be outside the list. The way back when every
 * address is lost is the `setting` command (docs/operations.md).
 */
export class StaffIpWhitelist {
  constructor(private readonly deps: { db: Db; clock: Clock; settings: SettingsStore }) {}

  /** Whether an account of `role` may sign in from `ip` now. An empty list while on lets no staff in. */
  async allows(ip: string, role: Role, db: DbOrTx = this.deps.db): Promise<boolean> {
    if (!isStaff(role) || !(await this.deps.settings.get('StaffIpWhitelist', db))) return true;
    const entries = await this.entries(db);
    return entries.length > 0 && ipAllowed(entries, ip);
  }

  /** The refusal of a staff sign-in from outside the list. */
  refusal(): AppError {
    return refused(TEXTS.notAllowed, 'staffIpNotAllowed');
  }

  /** The setting's guard: turning it on needs the caller's own address on the list. */
  async checkTurnOn(on: boolean, actor: Actor, tx: Tx): Promise<void> {
    if (!on) return;
    const entries = await this.entries(tx);
    if (entries.length === 0 || !ipAllowed(entries, actor.ip ?? '')) throw refused(TEXTS.lockout, 'ipWhitelistLockout');
  }

  async list(input: Filters & { pageIndex: number; pageSize: number }, callerIp: string) {
    const where = this.where(input);
    const [rows, total, entries] = await Promise.all([
      this.select(where)
        .limit(input.pageSize)
        .offset((input.pageIndex - 1) * input.pageSize),
      this.deps.db.$count(staffIpWhitelist, where),
      this.entries(this.deps.db),
    ]);
    return {
      list: rows.map((r) => this.toRow(r, callerIp)),
      total,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
      callerIp,
      callerCovered: entries.length > 0 && ipAllowed(entries, callerIp),
    };
  }

  async *export(input: Filters) {
    for (const row of await this.select(this.where(input))) {
      const { coversCaller: _, ...rest } = this.toRow(row, '');
      yield rest;
    }
  }

  async add(input: { entry: string; remark: string }, actor: Actor): Promise<StaffIpRow> {
    const parsed = parseIpEntry(input.entry);
    if ('reason' in parsed) {
      const message = parsed.reason === 'invalidIp' ? MERCHANT_TEXTS.invalidIp : MERCHANT_TEXTS.ipTooWide;
      throw invalid([{ path: 'entry', message }], parsed.reason);
    }
    const now = this.deps.clock.now();
    try {
      const id = await this.deps.db.transaction(async (tx) => {
        const [created] = await tx
          .insert(staffIpWhitelist)
          .values({ entry: parsed.entry, remark: input.remark, createdAt: now, createdBy: actor.userId })
          .returning({ id: staffIpWhitelist.id });
        await writeAudit(
          tx,
          actor,
          {
            action: 'ipWhitelist.add',
            target: `ip:${parsed.entry}`,
            after: { entry: parsed.entry, remark: input.remark },
          },
          now,
        );
        return created!.id;
      });
      const [row] = await this.select(eq(staffIpWhitelist.id, id));
      return this.toRow(row!, actor.ip ?? '');
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(TEXTS.taken);
      throw error;
    }
  }

  async delete(id: number, actor: Actor): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.db.transaction(async (tx) => {
      const [row] = await tx.select().from(staffIpWhitelist).where(eq(staffIpWhitelist.id, id)).for('update');
      if (!row) throw notFound('no such whitelist entry');
      if (await this.deps.settings.get('StaffIpWhitelist', tx)) {
        const rest = (await this.entries(tx)).filter((e) => e !== row.entry);
        if (rest.length === 0 || !ipAllowed(rest, actor.ip ?? '')) throw refused(TEXTS.lockout, 'ipWhitelistLockout');
      }
      await tx.delete(staffIpWhitelist).where(eq(staffIpWhitelist.id, id));
      await writeAudit(
        tx,
        actor,
        { action: 'ipWhitelist.delete', target: `ip:${row.entry}`, before: { entry: row.entry, remark: row.remark } },
        now,
      );
    });
  }

  private async entries(db: DbOrTx): Promise<string[]> {
    return (await db.select({ entry: staffIpWhitelist.entry }).from(staffIpWhitelist)).map((r) => r.entry);
  }

  private where(input: Filters): SQL | undefined {
    return input.entry ? ilike(staffIpWhitelist.entry, `%${escapeLike(input.entry)}%`) : undefined;
  }

  private select(where: SQL | undefined) {
    return this.deps.db
      .select({ row: staffIpWhitelist, createdBy: users.account })
      .from(staffIpWhitelist)
      .leftJoin(users, eq(users.id, staffIpWhitelist.createdBy))
      .where(where)
      .orderBy(desc(staffIpWhitelist.id));
  }

  private toRow(r: { row: typeof staffIpWhitelist.$inferSelect; createdBy: string | null }, callerIp: string) {
    return {
      id: r.row.id,
      entry: r.row.entry,
      remark: r.row.remark,
      createdAt: r.row.createdAt.toISOString(),
      createdBy: r.createdBy,
      coversCaller: callerIp !== '' && ipAllowed([r.row.entry], callerIp),
    };
  }
}
