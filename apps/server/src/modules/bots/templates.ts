import {
  BOT_MESSAGE_KEYS,
  type BotMessageKey,
  botMessage,
  botTextVariables,
  Code,
  fillInAppText,
  IN_APP_MESSAGE_KEYS,
  type InAppMessageKey,
  type MessageTemplateChannel,
  type MessageTemplateRow,
  type NoteTemplate,
  TEXT_LOCALES,
  type TextLocale,
  templateDefault,
} from '@paydesk/contract';
import { and, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { messageTemplates } from '../../db/schema.js';
import { type Actor, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { accountNamesOf } from '../users/account-names.js';

/** How long a process keeps the templates it read (another process's change shows within this). */
const CACHE_MS = 5_000;

type Values = Readonly<Record<string, string | number | null | undefined>>;
type TemplateKey = BotMessageKey | InAppMessageKey;
const KEYS_OF: Readonly<Record<MessageTemplateChannel, readonly TemplateKey[]>> = {
  bot: BOT_MESSAGE_KEYS,
  inApp: IN_APP_MESSAGE_KEYS,
};
const idOf = (channel: string, key: string, language: string) => `${channel}:${key}:${language}`;

/**
 * Message templates (/system/messageTemplate; issue 21 item 5): the bots' messages (channel bot) and
 * the in-app inbox's system messages (channel inApp) use the staff's own text of a message in a
 * language where there is one, the contract's default otherwise. A text may use only its message's
 * variables. Changes and resets are audited with before and after.
 */
export class MessageTemplates {
  private cache: { at: number; texts: Map<string, string> } | null = null;

  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  /** A bot message in a language, filled with its values, from the template in use. */
  async render(key: BotMessageKey, language: TextLocale, values: Values): Promise<string> {
    const texts = await this.customTexts();
    return botMessage(key, language, values, texts.get(idOf('bot', key, language)));
  }

  /**
   * An in-app system message's title or content in each language where staff edited its template,
   * filled with its values (codes by their names in that language); {} when none was edited (the
   * console renders the default in its language).
   */
  async inAppTexts(template: NoteTemplate, db: DbOrTx = this.deps.db): Promise<Partial<Record<TextLocale, string>>> {
    const texts = await this.customTexts(db);
    const out: Partial<Record<TextLocale, string>> = {};
    for (const language of TEXT_LOCALES) {
      const text = texts.get(idOf('inApp', template.key, language));
      if (text !== undefined) out[language] = fillInAppText(text, language, template.values);
    }
    return out;
  }

  async list(): Promise<MessageTemplateRow[]> {
    const rows = await this.deps.db.select().from(messageTemplates);
    const accounts = await accountNamesOf(
      this.deps.db,
      rows.map((r) => r.updatedBy),
    );
    const byKey = new Map(rows.map((r) => [idOf(r.channel, r.key, r.language), r]));
    return (['bot', 'inApp'] as const).flatMap((channel) =>
      KEYS_OF[channel].flatMap((key) =>
        TEXT_LOCALES.map((language) => {
          const row = byKey.get(idOf(channel, key, language));
          const { texts, variables } = templateDefault(channel, key);
          return {
            channel,
            key,
            language,
            text: row?.text ?? texts[language],
            defaultText: texts[language],
            custom: row !== undefined,
            variables: [...variables],
            updatedAt: row ? row.updatedAt.toISOString() : null,
            updatedBy: row?.updatedBy ? (accounts.get(row.updatedBy) ?? null) : null,
          };
        }),
      ),
    );
  }

  async update(
    channel: MessageTemplateChannel,
    key: TemplateKey,
    language: TextLocale,
    text: string,
    actor: Actor,
  ): Promise<MessageTemplateRow> {
    const allowed = templateDefault(channel, key).variables;
    const unknown = botTextVariables(text).filter((v) => !allowed.includes(v));
    if (unknown.length > 0) {
      const names = unknown.map((v) => `{{${v}}}`).join(', ');
      throw new AppError(Code.invalidInput, `unknown variables: ${names}`, {
        reason: 'templateUnknownVariable',
        issues: [{ path: 'text', message: `unknown variables: ${names}` }],
      });
    }
    await this.write(channel, key, language, actor, 'bots.templateUpdate', async (tx, now) => {
      await tx
        .insert(messageTemplates)
        .values({ channel, key, language, text, updatedAt: now, updatedBy: actor.userId })
        .onConflictDoUpdate({
          target: [messageTemplates.channel, messageTemplates.key, messageTemplates.language],
          set: { text, updatedAt: now, updatedBy: actor.userId },
        });
    });
    return this.one(channel, key, language);
  }

  async reset(
    channel: MessageTemplateChannel,
    key: TemplateKey,
    language: TextLocale,
    actor: Actor,
  ): Promise<MessageTemplateRow> {
    await this.write(channel, key, language, actor, 'bots.templateReset', async (tx) => {
      await tx.delete(messageTemplates).where(this.whereOne(channel, key, language));
    });
    return this.one(channel, key, language);
  }

  private whereOne(channel: MessageTemplateChannel, key: TemplateKey, language: TextLocale) {
    return and(
      eq(messageTemplates.channel, channel),
      eq(messageTemplates.key, key),
      eq(messageTemplates.language, language),
    );
  }

  private async write(
    channel: MessageTemplateChannel,
    key: TemplateKey,
    language: TextLocale,
    actor: Actor,
    action: 'bots.templateUpdate' | 'bots.templateReset',
    change: (tx: Parameters<Parameters<Db['transaction']>[0]>[0], now: Date) => Promise<void>,
  ): Promise<void> {
    const defaultText = templateDefault(channel, key).texts[language];
    await this.deps.db.transaction(async (tx) => {
      const now = this.deps.clock.now();
      const textOf = async () =>
        (
          await tx
            .select({ text: messageTemplates.text })
            .from(messageTemplates)
            .where(this.whereOne(channel, key, language))
        )[0]?.text ?? null;
      const before = await textOf();
      await change(tx, now);
      const after = await textOf();
      await writeAudit(
        tx,
        actor,
        {
          action,
          // The bots' targets keep their form of before the in-app templates.
          target:
            channel === 'bot' ? `messageTemplate:${key}:${language}` : `messageTemplate:${channel}:${key}:${language}`,
          before: { text: before ?? defaultText, custom: before !== null },
          after: { text: after ?? defaultText, custom: after !== null },
        },
        now,
      );
    });
    this.cache = null;
  }

  private async one(
    channel: MessageTemplateChannel,
    key: TemplateKey,
    language: TextLocale,
  ): Promise<MessageTemplateRow> {
    return (await this.list()).find((r) => r.channel === channel && r.key === key && r.language === language)!;
  }

  /** The staff's texts by channel, key and language; `db` is the caller's transaction when it has one. */
  private async customTexts(db: DbOrTx = this.deps.db): Promise<Map<string, string>> {
    const now = Date.now();
    if (this.cache && now - this.cache.at < CACHE_MS) return this.cache.texts;
    const rows = await db.select().from(messageTemplates);
    const texts = new Map(rows.map((r) => [idOf(r.channel, r.key, r.language), r.text]));
    this.cache = { at: now, texts };
    return texts;
  }
}
