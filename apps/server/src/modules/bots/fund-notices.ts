import { BOT_BUCKET_TEXTS, BOT_TRANSFER_TYPE_TEXTS, minorToMajorText, type TextLocale } from '@paydesk/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/raw-rows.js';
import { merchants, suppliers, telegramCursors, telegramGroups } from '../../db/schema.js';
import type { Clock } from '../../platform/clock.js';
import type { SettingsStore } from '../../platform/settings.js';
import { formatPlatformTime } from '../../platform/time.js';
import type { BotSender, BotTokenKey } from './bot-sender.js';
import type { MessageTemplates } from './templates.js';

/**
 * The bot that posts the fund notices: the transfer bot when its token is set, else the main bot when
 * its token is, else none.
 */
export async function fundNoticeBot(settings: SettingsStore): Promise<BotTokenKey | null> {
  if ((await settings.get('TransferBotToken')) !== null) return 'TransferBotToken';
  if ((await settings.get('BotToken')) !== null) return 'BotToken';
  return null;
}

/** The cursor of the balance changes sent so far (telegram_cursors.name). */
export const FUND_CURSOR = 'fundRecord';
/** Ledger entries a scan reads at most. */
const SCAN_BATCH = 500;
/**
 * How old an entry must be before a scan takes it (5 s): a transaction that took an entry id and
 * commits later than one with a higher id commits within this, so the cursor never passes an entry
 * still to commit.
 */
export const DEFAULT_FUND_SETTLE_MS = 5_000;

interface EntryRow {
  id: number | string;
  amount: number | string;
  balance_after: number | string;
  created_at: Date | string;
  owner_kind: 'merchant' | 'supplier' | 'platform';
  owner_id: number | null;
  bucket: string;
  type: string;
  order_code: string | null;
}

/**
 * BotAutoSendFundRecord (issue 21 item 5): each balance change of a merchant or supplier (a ledger
 * entry on one of its accounts, what its fund records list) is sent to that party's bot groups. It
 * reads the ledger after the fact, from a cursor, in a job of its own: the money transactions know
 * nothing of it and never wait for Telegram. While the switch is off (or no bot token is set) the
 * cursor follows the ledger, so turning it on sends the changes from then on, not the history.
 *
 * The transfer bot (TransferBotToken) posts them when its token is set, the main bot (BotToken)
 * otherwise; only the groups with `transferNotices` on get them.
 */
export class FundNotices {
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      settings: SettingsStore;
      sender: BotSender;
      templates: MessageTemplates;
      timeZone: string;
      settleMs?: number | undefined;
    },
  ) {}

  /** One pass: answers how many messages it enqueued. */
  async scan(): Promise<number> {
    const { db, settings } = this.deps;
    const bot = await fundNoticeBot(settings);
    const on = (await settings.get('BotAutoSendFundRecord')) && bot !== null;
    const [cursor] = await db.select().from(telegramCursors).where(eq(telegramCursors.name, FUND_CURSOR));
    if (!on || !cursor) {
      await this.moveToEnd(cursor?.position);
      return 0;
    }
    const cutoff = new Date(this.deps.clock.now().getTime() - (this.deps.settleMs ?? DEFAULT_FUND_SETTLE_MS));
    const rows = rowsOf<EntryRow>(
      await db.execute(sql`
        select e.id, e.amount, e.balance_after, e.created_at, a.owner_kind, a.owner_id, a.bucket, t.type, t.order_code
        from ledger_entries e
        join ledger_accounts a on a.id = e.account_id
        join ledger_transfers t on t.id = e.transfer_id
        where e.id > ${cursor.position} and e.created_at <= ${cutoff.toISOString()}
        order by e.id
        limit ${SCAN_BATCH}`),
    );
    if (rows.length === 0) return 0;
    const parties = rows.filter((r) => r.owner_kind !== 'platform' && r.owner_id !== null);
    const groups = await this.groupsOf(parties);
    const names = await this.namesOf(parties);
    let enqueued = 0;
    for (const row of parties) {
      const key = `${row.owner_kind}:${row.owner_id}`;
      for (const group of groups.get(key) ?? []) {
        const language = group.language as TextLocale;
        const type = BOT_TRANSFER_TYPE_TEXTS[row.type as keyof typeof BOT_TRANSFER_TYPE_TEXTS]?.[language] ?? row.type;
        const bucket = BOT_BUCKET_TEXTS[row.bucket as 'available' | 'frozen']?.[language] ?? row.bucket;
        const amount = Number(row.amount);
        const text = await this.deps.templates.render('fundRecord', language, {
          party: names.get(key) ?? key,
          type: `${type} (${bucket})`,
          amount: `${amount > 0 ? '+' : ''}${minorToMajorText(amount)}`,
          balance: minorToMajorText(Number(row.balance_after)),
          orderCode: row.order_code,
          time: formatPlatformTime(new Date(row.created_at), this.deps.timeZone),
        });
        if (await this.deps.sender.enqueue({ bot: bot!, chatId: group.chatId, text, about: `fundRecord:${row.id}` }))
          enqueued += 1;
      }
    }
    const last = Number(rows.at(-1)!.id);
    await db
      .update(telegramCursors)
      .set({ position: last, updatedAt: this.deps.clock.now() })
      .where(and(eq(telegramCursors.name, FUND_CURSOR), eq(telegramCursors.position, cursor.position)));
    return enqueued;
  }

  /** The cursor to the ledger's last entry (created when missing; written only when it moves). */
  private async moveToEnd(current: number | undefined): Promise<void> {
    const [last] = rowsOf<{ id: number | string | null }>(
      await this.deps.db.execute(sql`select max(id) as id from ledger_entries`),
    );
    const position = Number(last?.id ?? 0);
    if (current === position) return;
    await this.deps.db
      .insert(telegramCursors)
      .values({ name: FUND_CURSOR, position, updatedAt: this.deps.clock.now() })
      .onConflictDoUpdate({ target: telegramCursors.name, set: { position, updatedAt: this.deps.clock.now() } });
  }

  private async groupsOf(rows: EntryRow[]) {
    const byKind = (kind: string) => [...new Set(rows.filter((r) => r.owner_kind === kind).map((r) => r.owner_id!))];
    const found = [];
    for (const kind of ['merchant', 'supplier'] as const) {
      const ids = byKind(kind);
      if (ids.length === 0) continue;
      found.push(
        ...(await this.deps.db
          .select()
          .from(telegramGroups)
          .where(
            and(
              eq(telegramGroups.partyKind, kind),
              inArray(telegramGroups.partyId, ids),
              eq(telegramGroups.enabled, true),
              eq(telegramGroups.transferNotices, true),
            ),
          )),
      );
    }
    const map = new Map<string, typeof found>();
    for (const g of found) {
      const key = `${g.partyKind}:${g.partyId}`;
      map.set(key, [...(map.get(key) ?? []), g]);
    }
    return map;
  }

  private async namesOf(rows: EntryRow[]): Promise<Map<string, string>> {
    const ids = (kind: string) => [...new Set(rows.filter((r) => r.owner_kind === kind).map((r) => r.owner_id!))];
    const m = ids('merchant');
    const s = ids('supplier');
    const [ms, ss] = await Promise.all([
      m.length
        ? this.deps.db
            .select({ id: merchants.id, name: merchants.name })
            .from(merchants)
            .where(inArray(merchants.id, m))
        : [],
      s.length
        ? this.deps.db
            .select({ id: suppliers.id, name: suppliers.name })
            .from(suppliers)
            .where(inArray(suppliers.id, s))
        : [],
    ]);
    return new Map([
      ...ms.map((x) => [`merchant:${x.id}`, x.name] as [string, string]),
      ...ss.map((x) => [`supplier:${x.id}`, x.name] as [string, string]),
    ]);
  }
}
