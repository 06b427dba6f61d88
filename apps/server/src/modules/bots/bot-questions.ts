import {
  BOT_ORDER_STATE_TEXTS,
  BOT_PAYOUT_STATE_TEXTS,
  type BotMessageKey,
  minorToMajorText,
  type TextLocale,
} from '@paydesk/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { merchants, orders, payouts, suppliers, telegramCursors } from '../../db/schema.js';
import type { Clock } from '../../platform/clock.js';
import type { SettingsStore } from '../../platform/settings.js';
import type { TelegramClient, TelegramIncoming } from '../../platform/telegram.js';
import { formatPlatformTime } from '../../platform/time.js';
import type { LedgerService } from '../ledger/ledger.service.js';
import type { BotSender } from './bot-sender.js';
import type { BotsAdminService } from './bots-admin.service.js';
import type { MessageTemplates } from './templates.js';

/** The cursor of the updates read so far (telegram_cursors.name): the next getUpdates offset. */
export const UPDATES_CURSOR = 'updates';

type Group = NonNullable<Awaited<ReturnType<BotsAdminService['groupOfChat']>>>;

/** `/balance`, `/order <code>` (a command may carry the bot's name: `/balance@paydesk_bot`). */
export function parseCommand(text: string): { command: string; arg: string } | null {
  const match = /^\/([a-z]+)(?:@\w+)?(?:\s+(\S+))?\s*$/i.exec(text.trim());
  if (!match) return null;
  return { command: (match[1] ?? '').toLowerCase(), arg: match[2] ?? '' };
}

/**
 * The bots answer questions (issue 21 item 5): a poll of getUpdates (a job) reads what users wrote in
 * the groups; a whitelisted user in a bot group may ask `/balance` (a merchant's or supplier's group:
 * that party's balances) or `/order <code>` (an order or payout of that group's party; a staff group:
 * any). Everyone else, and every chat without a bot group, gets no answer at all. An order another
 * party owns reads as not found, as one that does not exist.
 */
export class BotQuestions {
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      settings: SettingsStore;
      telegram: TelegramClient;
      sender: BotSender;
      templates: MessageTemplates;
      admin: BotsAdminService;
      ledger: LedgerService;
      timeZone: string;
    },
  ) {}

  /** One poll: answers how many questions it answered. */
  async poll(): Promise<number> {
    const token = await this.deps.settings.get('BotToken');
    if (!token) return 0;
    const [cursor] = await this.deps.db.select().from(telegramCursors).where(eq(telegramCursors.name, UPDATES_CURSOR));
    const updates = await this.deps.telegram.getUpdates(token, { offset: cursor?.position, limit: 100 });
    if (!updates.ok || updates.value.length === 0) return 0;
    let answered = 0;
    for (const update of updates.value) {
      if (await this.answer(update)) answered += 1;
    }
    const next = Math.max(...updates.value.map((u) => u.updateId)) + 1;
    const now = this.deps.clock.now();
    await this.deps.db
      .insert(telegramCursors)
      .values({ name: UPDATES_CURSOR, position: next, updatedAt: now })
      .onConflictDoUpdate({ target: telegramCursors.name, set: { position: next, updatedAt: now } });
    return answered;
  }

  private async answer(update: TelegramIncoming): Promise<boolean> {
    if (!update.text || !update.fromId || !update.chatId) return false;
    const parsed = parseCommand(update.text);
    if (!parsed || !['balance', 'order', 'help', 'start'].includes(parsed.command)) return false;
    const group = await this.deps.admin.groupOfChat(update.chatId);
    if (!group) return false;
    if (!(await this.deps.admin.whitelisted(update.fromId))) return false;
    const language = group.language as TextLocale;
    const text =
      parsed.command === 'balance'
        ? await this.balance(group, language)
        : parsed.command === 'order' && parsed.arg
          ? await this.order(group, language, parsed.arg)
          : await this.deps.templates.render('help', language, {});
    return this.deps.sender.enqueue({
      bot: 'BotToken',
      chatId: update.chatId,
      text,
      about: `question:${parsed.command}`,
      ...(update.messageId !== null ? { replyTo: update.messageId } : {}),
    });
  }

  private async balance(group: Group, language: TextLocale): Promise<string> {
    if (group.partyKind === 'staff' || group.partyId === null)
      return await this.deps.templates.render('noParty', language, {});
    const kind = group.partyKind as 'merchant' | 'supplier';
    const table = kind === 'merchant' ? merchants : suppliers;
    const [party] = await this.deps.db.select({ name: table.name }).from(table).where(eq(table.id, group.partyId));
    const [available, frozen] = await Promise.all([
      this.deps.ledger.balanceOf(this.deps.db, `${kind}:${group.partyId}:available`),
      this.deps.ledger.balanceOf(this.deps.db, `${kind}:${group.partyId}:frozen`),
    ]);
    return await this.deps.templates.render('balance', language, {
      party: party?.name ?? `${kind} ${group.partyId}`,
      available: minorToMajorText(available),
      frozen: minorToMajorText(frozen),
      time: formatPlatformTime(this.deps.clock.now(), this.deps.timeZone),
    });
  }

  private async order(group: Group, language: TextLocale, code: string): Promise<string> {
    const mayRead = (row: { merchantId: number; supplierId: number | null }) =>
      group.partyKind === 'staff' ||
      (group.partyKind === 'merchant' && row.merchantId === group.partyId) ||
      (group.partyKind === 'supplier' && row.supplierId === group.partyId);
    const at = (d: Date | null) => (d ? formatPlatformTime(d, this.deps.timeZone) : null);
    const notFound = (key: BotMessageKey = 'orderNotFound') =>
      this.deps.templates.render(key, language, { orderCode: code });
    if (code.length > 64) return notFound();
    const [order] = await this.deps.db.select().from(orders).where(eq(orders.orderCode, code));
    if (order) {
      if (!mayRead(order)) return notFound();
      return await this.deps.templates.render('order', language, {
        orderCode: order.orderCode,
        merchantOrderNo: order.merchantOrderNo,
        amount: minorToMajorText(order.amount),
        state: BOT_ORDER_STATE_TEXTS[order.state]?.[language] ?? String(order.state),
        createdAt: at(order.createdAt),
        paidAt: at(order.paidAt),
      });
    }
    const [payout] = await this.deps.db.select().from(payouts).where(eq(payouts.orderCode, code));
    if (payout && mayRead(payout)) {
      return await this.deps.templates.render('payout', language, {
        orderCode: payout.orderCode,
        merchantOrderNo: payout.merchantOrderNo,
        amount: minorToMajorText(payout.amount),
        state: BOT_PAYOUT_STATE_TEXTS[payout.state]?.[language] ?? String(payout.state),
        createdAt: at(payout.createdAt),
      });
    }
    return notFound();
  }
}
