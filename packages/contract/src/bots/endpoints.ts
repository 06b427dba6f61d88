import { z } from 'zod';
import { defineEndpoint } from '../common/endpoint.js';
import { emptyToNull, idSchema, pageOf, pagingShape, queryBoolean, textFilter } from '../common/paging.js';
import type { Role } from '../common/roles.js';
import { TEXT_LOCALES } from '../common/server-texts.js';
import { BOT_MESSAGE_KEYS, IN_APP_MESSAGE_KEYS, isChannelKey, MESSAGE_TEMPLATE_CHANNELS } from './messages.js';

/**
 * Telegram bots (spec section 2, system management; issue 21 item 5): the whitelist of Telegram users
 * the bots answer, and the bot groups (which chat receives which merchant's or supplier's notices, or
 * a staff group's reminders). The system managers change them with the second-level password, audited;
 * technical maintenance reads them (the pages' read-only twins).
 */
const BASE = '/v1.0/telegram';

/** Who reads the lists: the system pages' roles and their read-only twin. */
export const BOT_READERS = [
  'superAdmin',
  'admin',
  'customerService',
  'technicalMaintenance',
] as const satisfies readonly Role[];
/** Who changes them: the system pages' roles (spec section 2). */
export const BOT_MANAGERS = ['superAdmin', 'admin', 'customerService'] as const satisfies readonly Role[];

/** Telegram's numeric ids as digits: a user's is positive, a group's chat id negative. */
const telegramUserIdSchema = z
  .string()
  .trim()
  .max(16)
  .regex(/^[1-9]\d{0,15}$/, 'a Telegram user id: its digits (e.g. 123456789)');
const chatIdSchema = z
  .string()
  .trim()
  .max(17)
  .regex(/^-?[1-9]\d{0,15}$/, "a Telegram chat id: its digits, a group's with a leading minus (e.g. -1001234567890)");
const nameSchema = z.string().trim().min(1).max(64);
/** Empty form fields arrive as null (spec section 5): a missing remark is ''. */
const remarkSchema = z.preprocess(
  (v) => (v === null || v === undefined ? '' : typeof v === 'string' ? v.trim() : v),
  z.string().max(200, 'remark is at most 200 characters'),
);

export const telegramWhitelistRowSchema = z.object({
  id: z.number().int(),
  telegramUserId: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  remark: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TelegramWhitelistRow = z.infer<typeof telegramWhitelistRowSchema>;

const whitelistFields = {
  telegramUserId: telegramUserIdSchema,
  name: nameSchema,
  enabled: z.boolean().default(true),
  remark: remarkSchema,
};

/** merchant and supplier groups get that party's notices; staff groups the reminders of waiting work. */
export const BOT_GROUP_KINDS = ['merchant', 'supplier', 'staff'] as const;
export type BotGroupKind = (typeof BOT_GROUP_KINDS)[number];

export const telegramGroupRowSchema = z.object({
  id: z.number().int(),
  chatId: z.string(),
  name: z.string(),
  partyKind: z.enum(BOT_GROUP_KINDS),
  partyId: z.number().int().nullable(),
  /** The merchant's or supplier's name; null for a staff group (or a party since removed). */
  partyName: z.string().nullable(),
  /** The language of the bots' messages to this chat. */
  language: z.enum(TEXT_LOCALES),
  enabled: z.boolean(),
  /** Whether its party's balance changes (fund notices) reach it; a staff group gets none. */
  transferNotices: z.boolean(),
  remark: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TelegramGroupRow = z.infer<typeof telegramGroupRowSchema>;

/** The bot group list's filters (the list and its export). */
const groupFilterShape = {
  keyword: textFilter(64),
  partyKind: z.preprocess((v) => (v === '' ? null : v), z.enum(BOT_GROUP_KINDS).nullable().optional()),
};

const groupFields = {
  chatId: chatIdSchema,
  name: nameSchema,
  partyKind: z.enum(BOT_GROUP_KINDS),
  /** The merchant's or supplier's id; null (or absent) for a staff group. */
  partyId: idSchema.nullable().default(null),
  language: z.enum(TEXT_LOCALES).default('zh-CN'),
  enabled: z.boolean().default(true),
  remark: remarkSchema,
};
/** A merchant or supplier group names its party; a staff group names none. */
const partyNamed = (v: { partyKind: BotGroupKind; partyId: number | null }) =>
  (v.partyKind === 'staff') === (v.partyId === null);
const partyRule = {
  path: ['partyId'],
  message: 'a merchant or supplier group names its party; a staff group names none',
};

/**
 * The transfer bot (/system/transferBot; docs/architecture.md "Transfer bot"): a second Telegram bot,
 * whose token is the TransferBotToken setting, that posts the balance changes (fund notices) to the
 * parties' groups, so the main bot (BotToken) keeps the questions and reminders and the money channel
 * can be muted on its own. Without it the main bot posts them. The system managers choose which
 * groups get the notices and send a test message; technical maintenance reads the page.
 */
export const TRANSFER_BOT_READERS = ['superAdmin', 'admin', 'technicalMaintenance'] as const satisfies readonly Role[];
export const TRANSFER_BOT_MANAGERS = ['superAdmin', 'admin'] as const satisfies readonly Role[];
/** Which bot posts the fund notices now: the transfer bot, the main bot (no transfer token), or none. */
export const FUND_NOTICE_SENDERS = ['transferBot', 'mainBot'] as const;
export type FundNoticeSender = (typeof FUND_NOTICE_SENDERS)[number];

export const transferBotStatusSchema = z.object({
  /** Whether TransferBotToken is set (its value is never shown). */
  tokenSet: z.boolean(),
  /** Whether the main bot's BotToken is set. */
  mainTokenSet: z.boolean(),
  /** The BotAutoSendFundRecord switch: whether balance changes are sent at all. */
  fundNoticesOn: z.boolean(),
  /** The bot that posts the notices now; null when no token is set. */
  sender: z.enum(FUND_NOTICE_SENDERS).nullable(),
  /** Enabled merchant and supplier groups that get the notices. */
  receivingGroups: z.number().int(),
});
export type TransferBotStatus = z.infer<typeof transferBotStatusSchema>;

/** Every template's key: the bots' messages and the in-app system messages (their keys differ). */
const TEMPLATE_KEYS = [...BOT_MESSAGE_KEYS, ...IN_APP_MESSAGE_KEYS] as const;
/** Which template: its channel (bot when absent, as before the in-app ones) and its key of that channel. */
const templateId = {
  channel: z.enum(MESSAGE_TEMPLATE_CHANNELS).default('bot'),
  key: z.enum(TEMPLATE_KEYS),
  language: z.enum(TEXT_LOCALES),
};
const keyOfChannel = {
  path: ['key'],
  message: 'not a message of this channel',
};

/** One message's template in one language. */
export const messageTemplateRowSchema = z.object({
  /** bot: a Telegram bot's message; inApp: a system message of the in-app inbox. */
  channel: z.enum(MESSAGE_TEMPLATE_CHANNELS),
  key: z.enum(TEMPLATE_KEYS),
  language: z.enum(TEXT_LOCALES),
  /** The text in use: the staff's own, or the default. */
  text: z.string(),
  defaultText: z.string(),
  /** Whether the staff's own text replaces the default. */
  custom: z.boolean(),
  /** The variables the message fills ({{name}}). */
  variables: z.array(z.string()),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type MessageTemplateRow = z.infer<typeof messageTemplateRowSchema>;

/** The template page's filters (a catalogue of a few dozen rows: the console filters what it holds). */
export const messageTemplateFilterShape = {
  channel: z.preprocess(emptyToNull, z.enum(MESSAGE_TEMPLATE_CHANNELS).nullable().optional()),
  language: z.preprocess(emptyToNull, z.enum(TEXT_LOCALES).nullable().optional()),
  /** true: only the texts staff replaced; false: only the defaults. */
  custom: z.preprocess(emptyToNull, queryBoolean.nullable().optional()),
  /** Part of the message's key or of its text, whatever the case. */
  keyword: textFilter(128),
};
export type MessageTemplateFilters = {
  channel?: MessageTemplateRow['channel'] | null | undefined;
  language?: MessageTemplateRow['language'] | null | undefined;
  custom?: boolean | null | undefined;
  keyword?: string | null | undefined;
};

/** Whether a template row passes the filters: one rule for the page and its CSV export. */
export function templateMatches(
  row: MessageTemplateRow,
  f: MessageTemplateFilters,
  /** Other words a keyword may match (the console passes the message's name in the reader's language). */
  alsoNamed: readonly string[] = [],
): boolean {
  if (f.channel && row.channel !== f.channel) return false;
  if (f.language && row.language !== f.language) return false;
  if (f.custom !== null && f.custom !== undefined && row.custom !== f.custom) return false;
  const keyword = f.keyword?.trim().toLowerCase();
  if (!keyword) return true;
  return [row.key, row.text, ...alsoNamed].some((text) => text.toLowerCase().includes(keyword));
}
/** Telegram's limit of one message's text, less room for the filled variables. */
export const TEMPLATE_MAX_LENGTH = 2_000;

export const botsEndpoints = {
  whitelistList: defineEndpoint({
    method: 'GET',
    path: `${BASE}/whitelist/list`,
    summary: 'The Telegram users the bots answer, newest first',
    input: z.strictObject({ ...pagingShape, keyword: textFilter(64) }),
    output: pageOf(telegramWhitelistRowSchema),
    example: { pageIndex: 1, pageSize: 20 },
    access: BOT_READERS,
    token2: false,
    scope: 'none',
  }),
  whitelistExport: defineEndpoint({
    method: 'GET',
    path: `${BASE}/whitelist/export`,
    summary: 'The filtered Telegram whitelist as CSV, newest first',
    input: z.strictObject({ keyword: textFilter(64) }),
    output: telegramWhitelistRowSchema,
    example: {},
    access: BOT_READERS,
    token2: false,
    scope: 'none',
    produces: 'csv',
  }),
  whitelistAdd: defineEndpoint({
    method: 'POST',
    path: `${BASE}/whitelist/add`,
    summary: 'Let a Telegram user talk to the bots (audited)',
    input: z.strictObject(whitelistFields),
    output: telegramWhitelistRowSchema,
    example: { telegramUserId: '123456789', name: 'Ravi (ops)', enabled: true, remark: '' },
    access: BOT_MANAGERS,
    token2: true,
    scope: 'none',
  }),
  whitelistUpdate: defineEndpoint({
    method: 'POST',
    path: `${BASE}/whitelist/update`,
    summary: 'Change a whitelisted Telegram user (audited with before and after)',
    input: z.strictObject({ id: idSchema, ...whitelistFields }),
    output: telegramWhitelistRowSchema,
    example: { id: 1, telegramUserId: '123456789', name: 'Ravi (ops)', enabled: false, remark: '' },
    access: BOT_MANAGERS,
    token2: true,
    scope: 'none',
  }),
  whitelistDelete: defineEndpoint({
    method: 'POST',
    path: `${BASE}/whitelist/delete`,
    summary: 'Remove a Telegram user from the whitelist (audited)',
    input: z.strictObject({ id: idSchema }),
    output: z.object({ id: z.number().int() }),
    example: { id: 1 },
    access: BOT_MANAGERS,
    token2: true,
    scope: 'none',
  }),
  groupList: defineEndpoint({
    method: 'GET',
    path: `${BASE}/group/list`,
    summary: "The bot groups: which Telegram chat gets which party's notices, newest first",
    input: z.strictObject({ ...pagingShape, ...groupFilterShape }),
    output: pageOf(telegramGroupRowSchema),
    example: { pageIndex: 1, pageSize: 20 },
    access: BOT_READERS,
    token2: false,
    scope: 'none',
  }),
  groupExport: defineEndpoint({
    method: 'GET',
    path: `${BASE}/group/export`,
    summary: 'The filtered bot groups as CSV, newest first',
    input: z.strictObject(groupFilterShape),
    output: telegramGroupRowSchema,
    example: {},
    access: BOT_READERS,
    token2: false,
    scope: 'none',
    produces: 'csv',
  }),
  groupParties: defineEndpoint({
    method: 'GET',
    path: `${BASE}/group/parties`,
    summary: 'The merchants and suppliers a bot group may be for (id and name)',
    input: z.strictObject({}),
    output: z.object({
      merchants: z.array(z.object({ id: z.number().int(), name: z.string(), merchantNo: z.string() })),
      suppliers: z.array(z.object({ id: z.number().int(), name: z.string() })),
    }),
    example: {},
    access: BOT_READERS,
    token2: false,
    scope: 'none',
  }),
  groupAdd: defineEndpoint({
    method: 'POST',
    path: `${BASE}/group/add`,
    summary: "Name the Telegram chat that gets a party's notices, or a staff group (audited)",
    input: z.strictObject(groupFields).refine(partyNamed, partyRule),
    output: telegramGroupRowSchema,
    example: {
      chatId: '-1001234567890',
      name: 'Merchant A ops',
      partyKind: 'merchant',
      partyId: 1,
      enabled: true,
      remark: '',
    },
    access: BOT_MANAGERS,
    token2: true,
    scope: 'none',
  }),
  groupUpdate: defineEndpoint({
    method: 'POST',
    path: `${BASE}/group/update`,
    summary: 'Change a bot group (audited with before and after)',
    input: z.strictObject({ id: idSchema, ...groupFields }).refine(partyNamed, partyRule),
    output: telegramGroupRowSchema,
    example: {
      id: 1,
      chatId: '-1001234567890',
      name: 'Staff',
      partyKind: 'staff',
      partyId: null,
      enabled: true,
      remark: '',
    },
    access: BOT_MANAGERS,
    token2: true,
    scope: 'none',
  }),
  templateList: defineEndpoint({
    method: 'GET',
    path: `${BASE}/template/list`,
    summary:
      "The message templates (the bots' and the in-app system messages'), every message in every language, with their variables",
    input: z.strictObject({}),
    output: z.object({ list: z.array(messageTemplateRowSchema) }),
    example: {},
    access: BOT_READERS,
    token2: false,
    scope: 'none',
  }),
  templateExport: defineEndpoint({
    method: 'GET',
    path: `${BASE}/template/export`,
    summary: 'The message templates as filtered, as CSV',
    input: z.strictObject(messageTemplateFilterShape),
    output: messageTemplateRowSchema,
    example: {},
    access: BOT_READERS,
    token2: false,
    scope: 'none',
    produces: 'csv',
  }),
  templateUpdate: defineEndpoint({
    method: 'POST',
    path: `${BASE}/template/update`,
    summary: "Replace a message's text in a language (its variables only; audited with before and after)",
    input: z
      .strictObject({ ...templateId, text: z.string().trim().min(1).max(TEMPLATE_MAX_LENGTH) })
      .refine((v) => isChannelKey(v.channel, v.key), keyOfChannel),
    output: messageTemplateRowSchema,
    example: { key: 'fundRecord', language: 'en-US', text: 'Balance change of {{party}}: {{amount}}' },
    access: BOT_MANAGERS,
    token2: true,
    scope: 'none',
  }),
  templateReset: defineEndpoint({
    method: 'POST',
    path: `${BASE}/template/reset`,
    summary: "Put a message's text in a language back to the default (audited)",
    input: z.strictObject(templateId).refine((v) => isChannelKey(v.channel, v.key), keyOfChannel),
    output: messageTemplateRowSchema,
    example: { key: 'fundRecord', language: 'en-US' },
    access: BOT_MANAGERS,
    token2: true,
    scope: 'none',
  }),
  transferBotStatus: defineEndpoint({
    method: 'GET',
    path: `${BASE}/transferBot/status`,
    summary:
      'Whether the transfer bot token is set (never its value), which bot posts the fund notices, and to how many groups',
    input: z.strictObject({}),
    output: transferBotStatusSchema,
    example: {},
    access: TRANSFER_BOT_READERS,
    token2: false,
    scope: 'none',
  }),
  groupTransferNotices: defineEndpoint({
    method: 'POST',
    path: `${BASE}/group/transferNotices`,
    summary: "Whether a merchant's or supplier's group gets its balance changes (audited with before and after)",
    input: z.strictObject({ id: idSchema, transferNotices: z.boolean() }),
    output: telegramGroupRowSchema,
    example: { id: 1, transferNotices: false },
    access: TRANSFER_BOT_MANAGERS,
    token2: true,
    scope: 'none',
  }),
  transferBotTest: defineEndpoint({
    method: 'POST',
    path: `${BASE}/transferBot/test`,
    summary: 'Send a test message to a group through the bot that posts the fund notices now (audited)',
    input: z.strictObject({ groupId: idSchema }),
    output: z.object({
      sender: z.enum(FUND_NOTICE_SENDERS),
      chatId: z.string(),
      messageId: z.number().int(),
    }),
    example: { groupId: 1 },
    access: TRANSFER_BOT_MANAGERS,
    token2: true,
    scope: 'none',
    rateLimit: { max: 10, timeWindowMs: 60_000 },
  }),
  groupDelete: defineEndpoint({
    method: 'POST',
    path: `${BASE}/group/delete`,
    summary: 'Remove a bot group (audited)',
    input: z.strictObject({ id: idSchema }),
    output: z.object({ id: z.number().int() }),
    example: { id: 1 },
    access: BOT_MANAGERS,
    token2: true,
    scope: 'none',
  }),
};
