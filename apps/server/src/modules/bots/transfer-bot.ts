import {
  type FundNoticeSender,
  type TextLocale,
  TRANSFER_BOT_TEST_TEXTS,
  type TransferBotStatus,
} from '@paydesk/contract';
import { and, count, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { telegramGroups } from '../../db/schema.js';
import { type Actor, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import { refused } from '../../platform/errors.js';
import type { SettingsStore } from '../../platform/settings.js';
import type { TelegramClient } from '../../platform/telegram.js';
import type { BotsAdminService } from './bots-admin.service.js';
import { fundNoticeBot } from './fund-notices.js';

const SENDER_OF = { TransferBotToken: 'transferBot', BotToken: 'mainBot' } as const satisfies Record<
  string,
  FundNoticeSender
>;

/**
 * The transfer bot page (/system/transferBot; docs/architecture.md "Transfer bot"): which bot posts
 * the fund notices now, to how many groups, and a test message through it. The token itself is the
 * TransferBotToken setting (set and cleared by the setting's own call); the groups' flag is
 * BotsAdminService.groupTransferNotices.
 */
export class TransferBot {
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      settings: SettingsStore;
      telegram: TelegramClient;
      botsAdmin: BotsAdminService;
    },
  ) {}

  async status(): Promise<TransferBotStatus> {
    const { settings, db } = this.deps;
    const bot = await fundNoticeBot(settings);
    const [groups] = await db
      .select({ n: count() })
      .from(telegramGroups)
      .where(
        and(
          inArray(telegramGroups.partyKind, ['merchant', 'supplier']),
          eq(telegramGroups.enabled, true),
          eq(telegramGroups.transferNotices, true),
        ),
      );
    return {
      tokenSet: (await settings.get('TransferBotToken')) !== null,
      mainTokenSet: (await settings.get('BotToken')) !== null,
      fundNoticesOn: await settings.get('BotAutoSendFundRecord'),
      sender: bot ? SENDER_OF[bot] : null,
      receivingGroups: groups?.n ?? 0,
    };
  }

  /**
   * Sends the test message to a group at once (not through the retried queue: the page shows what
   * Telegram answered), through the bot that posts the fund notices now. Audited.
   */
  async test(groupId: number, actor: Actor): Promise<{ sender: FundNoticeSender; chatId: string; messageId: number }> {
    const group = await this.deps.botsAdmin.group(groupId);
    const bot = await fundNoticeBot(this.deps.settings);
    const token = bot ? await this.deps.settings.get(bot) : null;
    if (!bot || !token)
      throw refused('no bot token is set (neither the transfer bot token nor the bot token)', 'botTokenMissing');
    const sent = await this.deps.telegram.sendMessage(token, {
      chatId: group.chatId,
      text: TRANSFER_BOT_TEST_TEXTS[group.language as TextLocale],
    });
    const sender = SENDER_OF[bot];
    await this.deps.db.transaction((tx) =>
      writeAudit(
        tx,
        actor,
        {
          action: 'bots.transferBotTest',
          target: `botGroup:${group.id}`,
          after: { sender, chatId: group.chatId, delivered: sent.ok, ...(sent.ok ? {} : { reason: sent.reason }) },
        },
        this.deps.clock.now(),
      ),
    );
    if (!sent.ok)
      throw refused(
        `Telegram did not take the message: check the token and that the bot is in the group (${sent.reason})`,
        'telegramSendFailed',
      );
    return { sender, chatId: group.chatId, messageId: sent.value.messageId };
  }
}
