import { describe, expect, it } from 'vitest';
import { ROLES, STAFF_ROLES } from '../common/roles.js';
import { TEXT_LOCALES } from '../common/server-texts.js';
import {
  canWriteSetting,
  isSettingKey,
  SETTING_AREAS,
  SETTING_GROUPS,
  SETTING_KEYS,
  SETTINGS,
  type SettingDef,
  type SettingKey,
  settingBodySchema,
  settingReadAnswer,
  settingValueSchema,
} from './registry.js';
import {
  SETTING_AREA_TEXTS,
  SETTING_CHOICE_TEXTS,
  SETTING_FIELD_TEXTS,
  SETTING_GROUP_TEXTS,
  SETTING_TEXTS,
  SETTING_UNIT_TEXTS,
} from './texts.js';

/** Spec section 7's list of system config keys, exactly as issue 21 gives it. */
const SPEC_KEYS =
  'redWalletCount, enableService, OrderTimeoutMinutes, EnableIpChangedCheck, EnablePayPassword, KYC, NeedNameCheck, MessageDelay, MonitorLiveTime, OrderStatisticsTimeFormat, ShowLogo, DataClearCycle, BotToken, SecurityFreqParameters, GlobalSecuritySetting, EnableSystemCheck, FixSecurityChainSupplementLimit, AutoCreateRelateSupplier, AutoCreateRelateMerchant, AllowOneMonitorAccountMoreUser, UsdtAuto, BotConstantReminder, BotAutoSendFundRecord, TransferBotToken, LimitMode, CompleteTimeFilter, SupplierUnifyQueryGroup, CanTimeoutSupplement, CanClearMerchantBalance, IsSupplierRemoveBalanceOnOrderFinished, ShowUserStatisticInfo, IsNewPayUrl, HighPerfOrderQuery, AlipayToAlipayByHandSubmitName, CardCountry, TimeoutCallbackTime, ApiUrl, ContactInfo, SysFlag, AllowPictureQueryOrder, CompleteCheckOrderTime, SendSmsMessageUrl'.split(
    ', ',
  );

const entries = SETTING_KEYS.map((key) => [key, SETTINGS[key] as SettingDef] as const);

describe('settings registry', () => {
  it('holds every key of spec section 7 exactly once, and beyond it only keys marked as ours', () => {
    expect(SPEC_KEYS).toHaveLength(42);
    expect(new Set(SPEC_KEYS).size).toBe(42);
    for (const key of SPEC_KEYS) expect(isSettingKey(key), key).toBe(true);
    const extra = SETTING_KEYS.filter((key) => !SPEC_KEYS.includes(key));
    expect(extra).toEqual(['PayoutMaxInProgress', 'StaffIpWhitelist']);
    for (const [key, def] of entries) expect(def.beyondSpec === true, key).toBe(extra.includes(key));
    // Keys differ in more than case (the getX/setX paths carry them).
    expect(new Set(SETTING_KEYS.map((k) => k.toLowerCase())).size).toBe(SETTING_KEYS.length);
  });

  it('gives every default a value its own schema accepts, integers inside their range', () => {
    for (const [key, def] of entries) {
      expect(settingValueSchema(key).safeParse(def.default).success, key).toBe(true);
      const t = def.type;
      if (t.kind === 'integer') {
        expect(def.default as number, key).toBeGreaterThanOrEqual(t.min);
        expect(def.default as number, key).toBeLessThanOrEqual(t.max);
      }
      if (t.kind === 'structured') {
        for (const [field, ft] of Object.entries(t.fields)) {
          const v = (def.default as Record<string, number>)[field];
          expect(v, `${key}.${field}`).toBeGreaterThanOrEqual(ft.min);
          expect(v, `${key}.${field}`).toBeLessThanOrEqual(ft.max);
        }
      }
      if (t.kind === 'secret') expect(def.default, key).toBeNull();
    }
  });

  it('keeps the defaults the server uses today', () => {
    expect(SETTINGS.enableService.default).toBe(true);
    expect(SETTINGS.OrderTimeoutMinutes.default).toBe(15);
    expect(SETTINGS.CanTimeoutSupplement.default).toBe(false);
    expect(SETTINGS.IsSupplierRemoveBalanceOnOrderFinished.default).toBe(false);
    expect(SETTINGS.CanClearMerchantBalance.default).toBe(false);
    expect(SETTINGS.ShowLogo.default).toBe(true);
    expect(SETTINGS.SysFlag.default).toBe('PayDesk');
    expect(SETTINGS.TimeoutCallbackTime.default).toBe(48);
    expect(SETTINGS.AutoCreateRelateMerchant.default).toBe(true);
    expect(SETTINGS.AutoCreateRelateSupplier.default).toBe(true);
    expect(SETTINGS.PayoutMaxInProgress.default).toBe(5);
    const wired = entries.filter(([, def]) => def.wired).map(([key]) => key);
    expect(wired.sort()).toEqual(
      [
        'AllowPictureQueryOrder',
        'ApiUrl',
        'AutoCreateRelateMerchant',
        'AutoCreateRelateSupplier',
        'BotAutoSendFundRecord',
        'BotConstantReminder',
        'BotToken',
        'CanClearMerchantBalance',
        'CanTimeoutSupplement',
        'CardCountry',
        'CompleteTimeFilter',
        'IsNewPayUrl',
        'KYC',
        'LimitMode',
        'NeedNameCheck',
        'ContactInfo',
        'DataClearCycle',
        'EnableIpChangedCheck',
        'EnableSystemCheck',
        'EnablePayPassword',
        'IsSupplierRemoveBalanceOnOrderFinished',
        'OrderStatisticsTimeFormat',
        'OrderTimeoutMinutes',
        'PayoutMaxInProgress',
        'ShowLogo',
        'ShowUserStatisticInfo',
        'StaffIpWhitelist',
        'SupplierUnifyQueryGroup',
        'SysFlag',
        'TimeoutCallbackTime',
        'TransferBotToken',
        'enableService',
        'redWalletCount',
        'HighPerfOrderQuery',
        'AlipayToAlipayByHandSubmitName',
      ].sort(),
    );
  });

  it('gives every key a known group and area, and a label and description in all three languages', () => {
    for (const [key, def] of entries) {
      expect(SETTING_GROUPS, key).toContain(def.group);
      expect(SETTING_AREAS, key).toContain(def.area);
      const texts = SETTING_TEXTS[key];
      for (const locale of TEXT_LOCALES) {
        expect(texts.label[locale].trim(), `${key} label ${locale}`).not.toBe('');
        expect(texts.description[locale].trim(), `${key} description ${locale}`).not.toBe('');
      }
      const t = def.type;
      if (t.kind === 'integer') expect(SETTING_UNIT_TEXTS[t.unit], key).toBeDefined();
      if (t.kind === 'choice') {
        const options = (SETTING_CHOICE_TEXTS as Partial<Record<SettingKey, Record<string, unknown>>>)[key];
        expect(Object.keys(options ?? {}).sort(), key).toEqual([...t.options].sort());
      }
      if (t.kind === 'structured') {
        for (const [field, ft] of Object.entries(t.fields)) {
          expect(SETTING_FIELD_TEXTS[field as keyof typeof SETTING_FIELD_TEXTS], field).toBeDefined();
          expect(SETTING_UNIT_TEXTS[ft.unit], field).toBeDefined();
        }
      }
    }
    // Every group is used, and has its name in three languages.
    expect(new Set(entries.map(([, def]) => def.group))).toEqual(new Set(SETTING_GROUPS));
    for (const group of SETTING_GROUPS)
      for (const l of TEXT_LOCALES) expect(SETTING_GROUP_TEXTS[group][l]).not.toBe('');
    for (const area of SETTING_AREAS) for (const l of TEXT_LOCALES) expect(SETTING_AREA_TEXTS[area][l]).not.toBe('');
  });

  it('never answers a secret value, and lets no partner read or change settings', () => {
    const secrets = entries.filter(([, def]) => def.type.kind === 'secret').map(([key]) => key);
    expect(secrets.sort()).toEqual(['BotToken', 'TransferBotToken']);
    for (const key of secrets) {
      for (const role of ROLES) expect(settingReadAnswer(key, role), `${key} ${role}`).not.toBe('value');
      expect(settingReadAnswer(key, 'superAdmin')).toBe('setOrNot');
    }
    for (const [key, def] of entries) {
      for (const role of def.readRoles) expect(STAFF_ROLES, `${key} read`).toContain(role);
      for (const role of def.writeRoles) {
        expect(STAFF_ROLES, `${key} write`).toContain(role);
        expect(def.readRoles, `${key}: who writes it reads it`).toContain(role);
      }
      // technicalMaintenance reads only; technicalSupport has no part in the global config.
      expect(canWriteSetting(key, 'technicalMaintenance'), key).toBe(false);
      expect(settingReadAnswer(key, 'technicalSupport'), key).toBe('none');
      expect(settingReadAnswer(key, 'merchant'), key).toBe('none');
      expect(canWriteSetting(key, 'superAdmin'), key).toBe(true);
    }
    expect(settingReadAnswer('OrderTimeoutMinutes', 'technicalMaintenance')).toBe('value');
  });
});

describe('setX body', () => {
  it('takes {enable} for a switch and {value} for every other type', () => {
    expect(settingBodySchema('enableService').safeParse({ enable: false }).success).toBe(true);
    expect(settingBodySchema('enableService').safeParse({ value: false }).success).toBe(false);
    expect(settingBodySchema('enableService').safeParse({ enable: 'false' }).success).toBe(false);
    expect(settingBodySchema('OrderTimeoutMinutes').safeParse({ value: 30 }).success).toBe(true);
    expect(settingBodySchema('OrderTimeoutMinutes').safeParse({ enable: true }).success).toBe(false);
    expect(settingBodySchema('OrderTimeoutMinutes').safeParse({ value: 30, extra: 1 }).success).toBe(false);
  });

  it('refuses a float, an integer out of range, an unknown choice and an over-long text', () => {
    expect(settingBodySchema('OrderTimeoutMinutes').safeParse({ value: 15.5 }).success).toBe(false);
    expect(settingBodySchema('OrderTimeoutMinutes').safeParse({ value: 0 }).success).toBe(false);
    expect(settingBodySchema('OrderTimeoutMinutes').safeParse({ value: 1_441 }).success).toBe(false);
    expect(settingBodySchema('OrderTimeoutMinutes').safeParse({ value: '30' }).success).toBe(false);
    expect(settingBodySchema('LimitMode').safeParse({ value: 'strict' }).success).toBe(true);
    expect(settingBodySchema('LimitMode').safeParse({ value: 'lenient' }).success).toBe(false);
    expect(settingBodySchema('SysFlag').safeParse({ value: 'x'.repeat(64) }).success).toBe(true);
    expect(settingBodySchema('SysFlag').safeParse({ value: 'x'.repeat(65) }).success).toBe(false);
    expect(settingBodySchema('ContactInfo').safeParse({ value: 'x'.repeat(501) }).success).toBe(false);
    expect(settingBodySchema('ApiUrl').safeParse({ value: 'ftp://example.com' }).success).toBe(false);
    expect(settingBodySchema('ApiUrl').safeParse({ value: 'https://api.example.com' }).success).toBe(true);
    // A base address only: it is written into the merchant guide and the console as it is.
    for (const ok of ['', 'http://10.0.0.5:8080', 'https://pay.example.com/gateway/', 'http://[::1]:3000'])
      expect(settingBodySchema('ApiUrl').safeParse({ value: ok }).success, ok).toBe(true);
    for (const bad of ['https://a.example/x?y=1', 'https://a.example/`x`', 'https://a"b.example', 'https://<b>'])
      expect(settingBodySchema('ApiUrl').safeParse({ value: bad }).success, bad).toBe(false);
    expect(settingBodySchema('CardCountry').safeParse({ value: 'in' }).success).toBe(false);
  });

  it('takes a text emptied as the console sends it (null) as the empty text, where empty is allowed', () => {
    expect(settingBodySchema('ContactInfo').parse({ value: null })).toEqual({ value: '' });
    expect(settingBodySchema('ApiUrl').parse({ value: null })).toEqual({ value: '' });
    // A text that may not be empty stays refused.
    expect(settingBodySchema('SysFlag').safeParse({ value: null }).success).toBe(false);
    expect(settingBodySchema('CardCountry').safeParse({ value: null }).success).toBe(false);
    // A number is not a text.
    expect(settingBodySchema('ContactInfo').safeParse({ value: 5 }).success).toBe(false);
  });

  it('takes the security parameters whole, the check amount in minor units (x100)', () => {
    const body = settingBodySchema('SecurityFreqParameters');
    const value = { ...SETTINGS.SecurityFreqParameters.default, minReliableCheckAmount: 250_075 };
    expect(body.safeParse({ value }).success).toBe(true);
    expect(body.safeParse({ value: { ...value, minReliableCheckAmount: 2500.75 } }).success).toBe(false);
    expect(body.safeParse({ value: { ...value, minReliableChainSize: 0 } }).success).toBe(false);
    const { sbLeakCheckInterval: _, ...missing } = value;
    expect(body.safeParse({ value: missing }).success).toBe(false);
    expect(body.safeParse({ value: { ...value, unknown: 1 } }).success).toBe(false);
  });

  it('takes a bot token or null (clear), nothing else', () => {
    const body = settingBodySchema('BotToken');
    expect(body.safeParse({ value: '123456789:AAH-abcdefghijklmnopqrstuvwxyz_0123' }).success).toBe(true);
    expect(body.safeParse({ value: null }).success).toBe(true);
    expect(body.safeParse({ value: '' }).success).toBe(false);
    expect(body.safeParse({ value: 'not a token' }).success).toBe(false);
  });
});
