import {
  BOT_MESSAGE_KEYS,
  BOT_MESSAGE_TEXTS,
  BOT_MESSAGE_VARIABLES,
  type BotMessageKey,
  botMessage,
  Code,
  type MessageTemplateRow,
  TEXT_LOCALES,
  type TextLocale,
  unknownBotVariables,
} from '@paydesk/contract';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { messageTemplates } from '../../db/schema.js';
import { type Actor, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { accountNamesOf } from '../users/account-names.js';

/** How long a process keeps the templates it read (another process's change shows within this). */
const CACHE_MS = 5_000;

type Values = Readonly<Record<string, string | number | null | undefined>>;

/**
 * Message templates (/system/messageTemplate; issue 21 item 5): the bots' messages use the staff's
 * own text of a message in a language where there is one, the contract's default otherwise. A text
 * may use only its message's variables. Changes and resets are audited with before and after.
 */
export class MessageTemplates {
  private cache: { at: number; texts: Map<string, string> } | null = null;

  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  /** A message in a language, filled with its values, from the template in use. */
  async render(key: BotMessageKey, language: TextLocale, values: Values): Promise<string> {
    const texts = await this.customTexts();
    return botMessage(key, language, values, texts.get(`${key}:${language}`));
  }

  async list(): Promise<MessageTemplateRow[]> {
    const rows = await this.deps.db.select().from(messageTemplates);
    const accounts = await accountNamesOf(
      this.deps.db,
      rows.map((r) => r.updatedBy),
    );
    const byKey = new Map(rows.map((r) => [`${r.key}:${r.language}`, r]));
    return BOT_MESSAGE_KEYS.flatMap((key) =>
      TEXT_LOCALES.map((language) => {
        const row = byKey.get(`${key}:${language}`);
        return {
          key,
          language,
          text: row?.text ?? BOT_MESSAGE_TEXTS[key][language],
          defaultText: BOT_MESSAGE_TEXTS[key][language],
          custom: row !== undefined,
          variables: [...BOT_MESSAGE_VARIABLES[key]],
          updatedAt: row ? row.updatedAt.toISOString() : null,
          updatedBy: row?.updatedBy ? (accounts.get(row.updatedBy) ?? null) : null,
        };
      }),
    );
  }

  async update(key: BotMessageKey, language: TextLocale, text: string, actor: Actor): Promise<MessageTemplateRow> {
    const unknown = unknownBotVariables(key, text);
    if (unknown.length > 0) {
      const names = unknown.map((v) => `{{${v}}}`).join(', ');
      throw new AppError(Code.invalidInput, `unknown variables: ${names}`, {
        reason: 'templateUnknownVariable',
        issues: [{ path: 'text', message: `unknown variables: ${names}` }],
      });
    }
    await this.write(key, language, actor, 'bots.templateUpdate', async (tx, now) => {
      await tx
        .insert(messageTemplates)
        .values({ key, language, text, updatedAt: now, updatedBy: actor.userId })
        .onConflictDoUpdate({
          target: [messageTemplates.key, messageTemplates.language],
          set: { text, updatedAt: now, updatedBy: actor.userId },
        });
    });
    return this.one(key, language);
  }

  async reset(key: BotMessageKey, language: TextLocale, actor: Actor): Promise<MessageTemplateRow> {
    await this.write(key, language, actor, 'bots.templateReset', async (tx) => {
      await tx
        .delete(messageTemplates)
        .where(and(eq(messageTemplates.key, key), eq(messageTemplates.language, language)));
    });
    return this.one(key, language);
  }

  private async write(
    key: BotMessageKey,
    language: TextLocale,
    actor: Actor,
    action: 'bots.templateUpdate' | 'bots.templateReset',
    change: (tx: Parameters<Parameters<Db['transaction']>[0]>[0], now: Date) => Promise<void>,
  ): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const now = this.deps.clock.now();
      const textOf = async () =>
        (
          await tx
            .select({ text: messageTemplates.text })
            .from(messageTemplates)
            .where(and(eq(messageTemplates.key, key), eq(messageTemplates.language, language)))
        )[0]?.text ?? null;
      const before = await textOf();
      await change(tx, now);
      const after = await textOf();
      await writeAudit(
        tx,
        actor,
        {
          action,
          target: `messageTemplate:${key}:${language}`,
          before: { text: before ?? BOT_MESSAGE_TEXTS[key][language], custom: before !== null },
          after: { text: after ?? BOT_MESSAGE_TEXTS[key][language], custom: after !== null },
        },
        now,
      );
    });
    this.cache = null;
  }

  private async one(key: BotMessageKey, language: TextLocale): Promise<MessageTemplateRow> {
    return (await this.list()).find((r) => r.key === key && r.language === language)!;
  }

  private async customTexts(): Promise<Map<string, string>> {
    const now = Date.now();
    if (this.cache && now - this.cache.at < CACHE_MS) return this.cache.texts;
    const rows = await this.deps.db.select().from(messageTemplates);
    const texts = new Map(rows.map((r) => [`${r.key}:${r.language}`, r.text]));
    this.cache = { at: now, texts };
    return texts;
  }
}
