import { z } from 'zod';
import { DEFAULT_CALLBACK_WINDOW_HOURS } from '../callbacks/endpoints.js';
import type { Role } from '../common/roles.js';

/**
 * The typed registry of system settings (spec section 7: GET getX / POST setX under /v1.0/system-config/;
 * DESIGN section 10). One entry per key, by the spec's exact key name: its type, default, group on the
 * global config page, the business area that uses it (and whether that area reads it today), and who
 * may read and change it. The texts (labels, descriptions, group, area and unit names in three
 * languages) are in texts.ts.
 *
 * A value is stored in system_settings.value (jsonb) as the plain value: a boolean for a switch, a
 * number for an integer, a string for a choice or text, an object for a structured value; a secret is
 * sealed at rest by the server and never answered, only whether it is set.
 */

/** Units of integer settings and of the fields of structured ones. */
export const SETTING_UNITS = ['seconds', 'minutes', 'hours', 'days', 'count', 'minorUnits'] as const;
export type SettingUnit = (typeof SETTING_UNITS)[number];

/** A whole number with its unit and its range (both ends allowed). */
export interface IntegerSettingType {
  readonly kind: 'integer';
  readonly unit: SettingUnit;
  readonly min: number;
  readonly max: number;
}

/** The types a setting may have. */
export type SettingType =
  | { readonly kind: 'switch' }
  | IntegerSettingType
  | { readonly kind: 'choice'; readonly options: readonly [string, ...string[]] }
  | { readonly kind: 'text'; readonly maxLength: number; readonly pattern?: RegExp }
  /** Sealed at rest, never answered (only 'set' or 'not set'); null clears it. */
  | { readonly kind: 'secret'; readonly maxLength: number; readonly pattern?: RegExp }
  /** An object of whole-number fields (the security parameters of spec section 3). */
  | {
      readonly kind: 'structured';
      readonly fields: Readonly<Record<string, IntegerSettingType>>;
    };
export type SettingKind = SettingType['kind'];

type StructuredValue<F> = { -readonly [K in keyof F]: number };

/** The value a setting of type T holds. */
export type SettingValueOf<T extends SettingType> = T extends { kind: 'switch' }
  ? boolean
  : T extends { kind: 'integer' }
    ? number
    : T extends { kind: 'choice'; options: readonly (infer O)[] }
      ? O
      : T extends { kind: 'text' }
        ? string
        : T extends { kind: 'secret' }
          ? string | null
          : T extends { kind: 'structured'; fields: infer F }
            ? StructuredValue<F>
            : never;

/** The groups of the global config page, in the page's order. */
export const SETTING_GROUPS = [
  'service',
  'orders',
  'callbacks',
  'payouts',
  'funds',
  'accounts',
  'security',
  'monitors',
  'bots',
  'display',
  'statistics',
  'integration',
  'retention',
] as const;
export type SettingGroup = (typeof SETTING_GROUPS)[number];

/** The business areas that use settings (the config page says which area uses each key). */
export const SETTING_AREAS = [
  'orders',
  'payouts',
  'callbacks',
  'funds',
  'accounts',
  'auth',
  'console',
  'statistics',
  'records',
  'security',
  'bots',
  'system',
] as const;
export type SettingArea = (typeof SETTING_AREAS)[number];

/** Who may read settings: the roles of /systemConfig, technicalMaintenance read-only. */
const READERS = ['superAdmin', 'admin', 'customerService', 'technicalMaintenance'] as const satisfies readonly Role[];
/** Keys that stop the service, move money, hold credentials or decide trust: superAdmin alone. */
const SUPER_ADMIN = ['superAdmin'] as const satisfies readonly Role[];
/** Operating keys: the administrators. */
const ADMINS = ['superAdmin', 'admin'] as const satisfies readonly Role[];
/** What customers are told (contact, display): customer service too. */
const WITH_SERVICE = ['superAdmin', 'admin', 'customerService'] as const satisfies readonly Role[];

export interface SettingDef<T extends SettingType = SettingType> {
  readonly type: T;
  readonly default: SettingValueOf<T>;
  readonly group: SettingGroup;
  readonly area: SettingArea;
  /** True only when the server reads this key today; false keys wait for their area. */
  readonly wired: boolean;
  /** A key of ours beyond spec section 7's list. */
  readonly beyondSpec?: true;
  /** Who may read it (for a secret: only whether it is set). */
  readonly readRoles: readonly Role[];
  /** Who may change it (always with token2). */
  readonly writeRoles: readonly Role[];
}

function setting<const T extends SettingType>(def: SettingDef<T>): SettingDef<T> {
  return def;
}

const SWITCH = { kind: 'switch' } as const;
function integer(unit: SettingUnit, min: number, max: number) {
  return { kind: 'integer', unit, min, max } as const;
}

/** An http(s) address, or empty when unused. */
const URL_OR_EMPTY = /^(https?:\/\/[^\s]+)?$/;
/**
 * A base address (scheme, host, optional port and path; no query, quotes or markup: it is written into
 * the merchant guide and the console as it is), or empty.
 */
export const BASE_URL_OR_EMPTY =
  /^(https?:\/\/([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?(\/[A-Za-z0-9._~%/-]*)?)?$/;
/** A Telegram bot token as BotFather gives it (`<bot id>:<secret>`). */
const BOT_TOKEN = /^\d{1,20}:[A-Za-z0-9_-]{20,80}$/;

/** The security chain's parameters (spec section 3); minReliableCheckAmount in minor units (sent x100). */
export const SECURITY_FREQ_FIELDS = {
  sbLeakCheckInterval: integer('seconds', 10, 86_400),
  minReliableChainSize: integer('count', 1, 1_000),
  minReliableCheckSize: integer('count', 1, 1_000),
  minReliableCheckTimeRange: integer('minutes', 1, 43_200),
  minReliableCheckAmount: integer('minorUnits', 0, 100_000_000_000),
} as const;

/** The global security setting (spec section 3). */
export const GLOBAL_SECURITY_FIELDS = {
  lookForwardMinutes: integer('minutes', 1, 1_440),
  perMinuteFreqCount: integer('count', 1, 10_000),
  messageMaxCacheTime: integer('minutes', 1, 43_200),
  messageInSecurityChainCacheTime: integer('minutes', 1, 43_200),
} as const;

export const SETTINGS = {
  redWalletCount: setting({
    type: integer('count', 1, 1_000),
    default: 10,
    group: 'orders',
    area: 'orders',
    wired: true,
    readRoles: READERS,
    writeRoles: ADMINS,
  }),
  enableService: setting({
    type: SWITCH,
    default: true,
    group: 'service',
    area: 'system',
    wired: true,
    readRoles: READERS,
    writeRoles: SUPER_ADMIN,
  }),
  OrderTimeoutMinutes: setting({
    type: integer('minutes', 1, 1_440),
    default: 15,
    group: 'orders',
    area: 'orders',
    wired: true,
    readRoles: READERS,
    writeRoles: ADMINS,
  }),
  EnableIpChangedCheck: setting({
    type: SWITCH,
    default: false,
    group: 'accounts',
    area: 'auth',
    wired: true,
    readRoles: READERS,
    writeRoles: SUPER_ADMIN,
  }),
  EnablePayPassword: setting({
    type: SWITCH,
    default: false,
    group: 'accounts',
    area: 'auth',
    wired: true,
    readRoles: READERS,
    writeRoles: SUPER_ADMIN,
  }),
  KYC: setting({
    type: SWITCH,
    default: true,
    group: 'orders',
    area: 'orders',
    wired: true,
    readRoles: READERS,
    writeRoles: ADMINS,
  }),
  NeedNameCheck: setting({
    type: SWITCH,
    default: false,
    group: 'orders',
    area: 'orders',
    wired: true,
    readRoles: READERS,
    writeRoles: ADMINS,
  }),
  MessageDelay: setting({
    type: integer('minutes', 0, 1_440),
    default: 10,
    group: 'monitors',
    area: 'records',
    wired: false,
    readRoles: READERS,
    writeRoles: ADMINS,
  }),
  MonitorLiveTime: setting({
    type: integer('seconds', 10, 3_600),
    default: 120,
    group: 'monitors',
    area: 'records',
    wired: false,
    readRoles: READERS,
    writeRoles: ADMINS,
  }),
  OrderStatisticsTimeFormat: setting({
    type: { kind: 'choice', options: ['day', 'hour'] },
    default: 'day',
    group: 'statistics',
    area: 'statistics',
    wired: true,
    readRoles: READERS,
    writeRoles: ADMINS,
  }),
  ShowLogo: setting({
    type: SWITCH,
    default: true,
    group: 'display',
    area: 'console',
    wired: true,
    readRoles: READERS,
    writeRoles: WITH_SERVICE,
  }),
  DataClearCycle: setting({
    type: integer('days', 0, 3_650),
    default: 0,
    group: 'retention',
    area: 'system',
    wired: true,
    readRoles: READERS,
    writeRoles: SUPER_ADMIN,
  }),
  BotToken: setting({
    type: { kind: 'secret', maxLength: 128, pattern: BOT_TOKEN },
    default: null,
    group: 'bots',
    area: 'bots',
    wired: true,
    readRoles: READERS,
    writeRoles: SUPER_ADMIN,
  }),
  SecurityFreqParameters: setting({
    type: { kind: 'structured', fields: SECURITY_FREQ_FIELDS },
    default: {
      sbLeakCheckInterval: 60,
      minReliableChainSize: 3,
      minReliableCheckSize: 3,
      minReliableCheckTimeRange: 1_440,
      minReliableCheckAmount: 100_000,
    },
    group: 'security',
    area: 'security',
    wired: false,
    readRoles: READERS,
    writeRoles: SUPER_ADMIN,
  }),
  GlobalSecuritySetting: setting({
    type: { kind: 'structured', fields: GLOBAL_SECURITY_FIELDS },
    default: {
      lookForwardMinutes: 30,
      perMinuteFreqCount: 10,
      messageMaxCacheTime: 1_440,
      messageInSecurityChainCacheTime: 10_080,
    },
    group: 'security',
    area: 'security',
    wired: false,
    readRoles: READERS,
    writeRoles: SUPER_ADMIN,
  }),
  EnableSystemCheck: setting({
    type: SWITCH,
    default: true,
    group: 'service',
    area: 'system',
    wired: true,
    readRoles: READERS,
    writeRoles: SUPER_ADMIN,
  }),
  FixSecurityChainSupplementLimit: setting({
    type: integer('count', 0, 1_000),
    default: 0,
    group: 'security',
    area: 'security',
    wired: false,
    readRoles: READERS,
    writeRoles: SUPER_ADMIN,
  }),
  AutoCreateRelateSupplier: setting({
    type: SWITCH,
    default: true,
    group: 'accounts',
    area: 'accounts',
    wired: true,
    readRoles: READERS,
    writeRoles: ADMINS,
  }),
  AutoCreateRelateMerchant: setting({
    type: SWITCH,
    default: true,
    group: 'accounts',
    area: 'accounts',
    wired: true,
    readRoles: READERS,
    writeRoles: ADMINS,
  }),
  AllowOneMonitorAccountMoreUser: setting({
    type: SWITCH,
    default: false,
    group: 'monitors',
    area: 'records',
    wired: false,
    readRoles: READERS,
    writeRoles: ADMINS,
  }),
  UsdtAuto: setting({
    type: SWITCH,
    default: false,
    group: 'monitors',
    area: 'records',
    wired: false,
    readRoles: READERS,
    writeRoles: SUPER_ADMIN,
  }),
  BotConstantReminder: setting({
    type: SWITCH,
    default: false,
    group: 'bots',
    area: 'bots',
    wired: true,
    readRoles: READERS,
    writeRoles: ADMINS,
  }),
  BotAutoSendFundRecord: setting({
    type: SWITCH,
    default: false,
    group: 'bots',
    area: 'bots',
    wired: true,
    readRoles: READERS,
    writeRoles: ADMINS,
  }),
  TransferBotToken: setting({
    type: { kind: 'secret', maxLength: 128, pattern: BOT_TOKEN },
    default: null,
    group: 'bots',
    area: 'bots',
    wired: true,
    readRoles: READERS,
    writeRoles: SUPER_ADMIN,
  }),
  LimitMode: setting({
    type: { kind: 'choice', options: ['strict', 'relaxed'] },
    default: 'relaxed',
    group: 'orders',
    area: 'orders',
    wired: true,
    readRoles: READERS,
    writeRoles: ADMINS,
  }),
  CompleteTimeFilter: setting({
    type: SWITCH,
    default: false,
    group: 'orders',
    area: 'orders',
    wired: true,
    readRoles: READERS,
    writeRoles: ADMINS,
  }),
  SupplierUnifyQueryGroup: setting({
    type: SWITCH,
    default: false,
    group: 'orders',
    area: 'orders',
    wired: true,
    readRoles: READERS,
    writeRoles: ADMINS,
  }),
  CanTimeoutSupplement: setting({
    type: SWITCH,
    default: false,
    group: 'orders',
    area: 'orders',
    wired: true,
    readRoles: READERS,
    writeRoles: ADMINS,
  }),
  CanClearMerchantBalance: setting({
    type: SWITCH,
    default: false,
    group: 'funds',
    area: 'funds',
    wired: true,
    readRoles: READERS,
    writeRoles: SUPER_ADMIN,
  }),
  IsSupplierRemoveBalanceOnOrderFinished: setting({
    type: SWITCH,
    default: false,
    group: 'funds',
    area: 'funds',
    wired: true,
    readRoles: READERS,
    writeRoles: SUPER_ADMIN,
  }),
  ShowUserStatisticInfo: setting({
    type: SWITCH,
    default: true,
    group: 'statistics',
    area: 'statistics',
    wired: true,
    readRoles: READERS,
    writeRoles: ADMINS,
  }),
  IsNewPayUrl: setting({
    type: SWITCH,
    default: true,
    group: 'integration',
    area: 'orders',
    wired: true,
    readRoles: READERS,
    writeRoles: ADMINS,
  }),
  HighPerfOrderQuery: setting({
    type: SWITCH,
    default: false,
    group: 'orders',
    area: 'orders',
    wired: true,
    readRoles: READERS,
    writeRoles: ADMINS,
  }),
  AlipayToAlipayByHandSubmitName: setting({
    type: SWITCH,
    default: false,
    group: 'orders',
    area: 'orders',
    wired: true,
    readRoles: READERS,
    writeRoles: ADMINS,
  }),
  CardCountry: setting({
    type: { kind: 'text', maxLength: 2, pattern: /^[A-Z]{2}$/ },
    default: 'IN',
    group: 'orders',
    area: 'orders',
    wired: true,
    readRoles: READERS,
    writeRoles: ADMINS,
  }),
  TimeoutCallbackTime: setting({
    type: integer('hours', 1, 168),
    default: DEFAULT_CALLBACK_WINDOW_HOURS,
    group: 'callbacks',
    area: 'callbacks',
    wired: true,
    readRoles: READERS,
    writeRoles: ADMINS,
  }),
  ApiUrl: setting({
    type: { kind: 'text', maxLength: 512, pattern: BASE_URL_OR_EMPTY },
    default: '',
    group: 'integration',
    area: 'console',
    wired: true,
    readRoles: READERS,
    writeRoles: SUPER_ADMIN,
  }),
  ContactInfo: setting({
    type: { kind: 'text', maxLength: 500 },
    default: '',
    group: 'display',
    area: 'console',
    wired: true,
    readRoles: READERS,
    writeRoles: WITH_SERVICE,
  }),
  SysFlag: setting({
    type: { kind: 'text', maxLength: 64, pattern: /^\S(.*\S)?$/ },
    default: 'PayDesk',
    group: 'display',
    area: 'console',
    wired: true,
    readRoles: READERS,
    writeRoles: ADMINS,
  }),
  AllowPictureQueryOrder: setting({
    type: SWITCH,
    default: false,
    group: 'orders',
    area: 'orders',
    wired: true,
    readRoles: READERS,
    writeRoles: ADMINS,
  }),
  CompleteCheckOrderTime: setting({
    type: integer('seconds', 5, 3_600),
    default: 30,
    group: 'monitors',
    area: 'records',
    wired: false,
    readRoles: READERS,
    writeRoles: ADMINS,
  }),
  SendSmsMessageUrl: setting({
    type: { kind: 'text', maxLength: 512, pattern: URL_OR_EMPTY },
    default: '',
    group: 'integration',
    // The monitors' alerts are what it sends: it is wired with them (the records issue).
    area: 'records',
    wired: false,
    readRoles: READERS,
    writeRoles: SUPER_ADMIN,
  }),
  PayoutMaxInProgress: setting({
    type: integer('count', 1, 10_000),
    default: 5,
    group: 'payouts',
    area: 'payouts',
    wired: true,
    beyondSpec: true,
    readRoles: READERS,
    writeRoles: ADMINS,
  }),
  StaffIpWhitelist: setting({
    type: SWITCH,
    default: false,
    group: 'accounts',
    area: 'auth',
    wired: true,
    beyondSpec: true,
    readRoles: READERS,
    writeRoles: SUPER_ADMIN,
  }),
} as const;

export type SettingKey = keyof typeof SETTINGS;
export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];
export type SettingValue<K extends SettingKey> = SettingValueOf<(typeof SETTINGS)[K]['type']>;

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTINGS, key);
}

function integerSchema(t: IntegerSettingType) {
  return z.number().int().min(t.min).max(t.max);
}

function schemaOf(type: SettingType): z.ZodType {
  switch (type.kind) {
    case 'switch':
      return z.boolean();
    case 'integer':
      return integerSchema(type);
    case 'choice':
      return z.enum(type.options);
    case 'text': {
      const text = z.string().max(type.maxLength);
      return type.pattern ? text.regex(type.pattern) : text;
    }
    case 'secret': {
      const text = z.string().min(1).max(type.maxLength);
      return (type.pattern ? text.regex(type.pattern) : text).nullable();
    }
    case 'structured':
      return z.strictObject(Object.fromEntries(Object.entries(type.fields).map(([f, t]) => [f, integerSchema(t)])));
  }
}

/** The value a key may hold (bounded to what the database holds); a secret's null means not set. */
export function settingValueSchema<K extends SettingKey>(key: K): z.ZodType<SettingValue<K>> {
  return schemaOf(SETTINGS[key].type) as z.ZodType<SettingValue<K>>;
}

/**
 * The body of setX (spec section 7): {enable} for a switch, {value} for every other type; a text's
 * null (an emptied field as the console sends it) is the empty text.
 */
export function settingBodySchema<K extends SettingKey>(
  key: K,
): z.ZodType<SettingValue<K> extends boolean ? { enable: boolean } : { value: SettingValue<K> }> {
  const def = SETTINGS[key];
  const schema =
    def.type.kind === 'switch'
      ? z.strictObject({ enable: z.boolean() })
      : def.type.kind === 'text'
        ? // Spec section 5: the console sends an emptied text as null; for a text that means empty.
          z.strictObject({ value: z.preprocess((v) => (v === null ? '' : v), schemaOf(def.type)) })
        : z.strictObject({ value: schemaOf(def.type) });
  return schema as unknown as z.ZodType<
    SettingValue<K> extends boolean ? { enable: boolean } : { value: SettingValue<K> }
  >;
}

/**
 * What a role may learn of a key: its value, only whether it is set (a secret: never its value), or
 * nothing.
 */
export type SettingReadAnswer = 'value' | 'setOrNot' | 'none';
export function settingReadAnswer(key: SettingKey, role: Role): SettingReadAnswer {
  const def: SettingDef = SETTINGS[key];
  if (!def.readRoles.includes(role)) return 'none';
  return def.type.kind === 'secret' ? 'setOrNot' : 'value';
}

export function canWriteSetting(key: SettingKey, role: Role): boolean {
  const def: SettingDef = SETTINGS[key];
  return def.writeRoles.includes(role);
}
