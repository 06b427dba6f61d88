import {
  Code,
  endpoints,
  getSettingEndpoint,
  SETTING_KEYS,
  SETTINGS,
  type SettingEntry,
  setSettingEndpoint,
} from '@paydesk/contract';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServices } from '../../app.js';
import { auditLog, systemSettings } from '../../db/schema.js';
import { type Auth, snapshot, startTestApp, type TestApp } from '../../testing/harness.js';

/**
 * The global config calls (issue 21 item 1): every key of the registry read and written by its getX
 * and setX, with its type, range, roles and token2; audited with before and after; secrets sealed and
 * never answered; and a change heard by every server process within a second.
 */
const { systemConfig } = endpoints;
let t: TestApp;
const ACCOUNTS = ['superadmin', 'admin', 'service', 'maintenance', 'support', 'supplier1', 'merchant1'] as const;
type Account = (typeof ACCOUNTS)[number];
const auth = {} as Record<Account, Auth>;
const BOT_TOKEN = '123456789:AAHk-abcdefghijklmnopqrstuvwxyz012345';

beforeAll(async () => {
  t = await startTestApp();
  for (const account of ACCOUNTS) auth[account] = await t.loginWithToken2(account);
});
afterAll(() => t.close());

const listOf = async (who: Auth): Promise<SettingEntry[]> => {
  const res = await t.call(systemConfig.list, {}, who);
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data.list;
};

const lastAudit = async (key: string) =>
  (
    await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'systemConfig.set'), eq(auditLog.target, `setting:${key}`)))
      .orderBy(desc(auditLog.id))
      .limit(1)
  )[0];

describe('reading the settings', () => {
  it('answers every key of the registry with its default to the staff of the config page', async () => {
    const list = await listOf(auth.superadmin);
    expect(list.map((e) => e.key)).toEqual(SETTING_KEYS);
    const byKey = new Map(list.map((e) => [e.key, e]));
    expect(byKey.get('enableService')).toMatchObject({ enable: true, changed: false, writable: true });
    expect(byKey.get('OrderTimeoutMinutes')).toMatchObject({ value: 15, changed: false });
    expect(byKey.get('SecurityFreqParameters')?.value).toEqual(SETTINGS.SecurityFreqParameters.default);
    expect(byKey.get('BotToken')).toMatchObject({ set: false });
    expect(byKey.get('BotToken')).not.toHaveProperty('value');
    // One getX per key answers what the list says.
    for (const key of ['enableService', 'OrderTimeoutMinutes', 'LimitMode', 'BotToken'] as const) {
      const res = await t.call(getSettingEndpoint(key), {}, auth.maintenance);
      const { key: _k, changed: _c, updatedAt: _u, updatedBy: _b, writable: _w, ...answer } = byKey.get(key)!;
      expect(res.body.data).toEqual(answer);
    }
  });

  it('says which keys each role may change: admin not the superAdmin ones, technical maintenance none', async () => {
    const writable = async (who: Auth) => (await listOf(who)).filter((e) => e.writable).map((e) => e.key);
    expect(await writable(auth.superadmin)).toEqual(SETTING_KEYS);
    const admin = await writable(auth.admin);
    expect(admin).toContain('OrderTimeoutMinutes');
    expect(admin).not.toContain('enableService');
    expect(admin).not.toContain('BotToken');
    expect(await writable(auth.service)).toEqual(['ShowLogo', 'ContactInfo']);
    expect(await writable(auth.maintenance)).toEqual([]);
  });

  it('is refused to the roles without the config page', async () => {
    for (const who of [auth.support, auth.supplier1, auth.merchant1]) {
      expect((await t.call(systemConfig.list, {}, who)).status).toBe(403);
      expect((await t.call(systemConfig.getOrderTimeoutMinutes, {}, who)).status).toBe(403);
    }
    expect((await t.call(systemConfig.list, {})).status).toBe(401);
  });
});

describe('changing a setting', () => {
  it('needs the second-level password, and the role among the key’s writers; refused calls change nothing', async () => {
    const before = await snapshot(t.database);
    const { token2: _, ...noToken2 } = auth.superadmin;
    const without = await t.call(systemConfig.setOrderTimeoutMinutes, { value: 20 }, noToken2);
    expect(without.body.code).toBe(Code.token2Required);
    expect((await t.call(systemConfig.setenableService, { enable: false }, auth.admin)).status).toBe(403);
    for (const key of SETTING_KEYS) {
      const res = await t.call(setSettingEndpoint(key), {}, auth.maintenance);
      expect(res.status, key).toBe(403);
    }
    expect(await snapshot(t.database)).toBe(before);
  });

  it('refuses a value outside its type or range with the field named, and changes nothing', async () => {
    const before = await snapshot(t.database);
    const bad: Array<[ReturnType<typeof setSettingEndpoint>, unknown]> = [
      [systemConfig.setOrderTimeoutMinutes, { value: 0 }],
      [systemConfig.setOrderTimeoutMinutes, { value: 1_441 }],
      [systemConfig.setOrderTimeoutMinutes, { value: 2.5 }],
      [systemConfig.setOrderTimeoutMinutes, { enable: true }],
      [systemConfig.setenableService, { value: false }],
      [systemConfig.setLimitMode, { value: 'loose' }],
      [systemConfig.setCardCountry, { value: 'india' }],
      [systemConfig.setApiUrl, { value: 'ftp://example.com' }],
      [systemConfig.setSysFlag, { value: ' padded ' }],
      [systemConfig.setBotToken, { value: 'not-a-token' }],
      [systemConfig.setSecurityFreqParameters, { value: { ...SETTINGS.SecurityFreqParameters.default, extra: 1 } }],
      [systemConfig.setSecurityFreqParameters, { value: { sbLeakCheckInterval: 60 } }],
    ];
    for (const [endpoint, body] of bad) {
      const res = await t.call(endpoint, body, auth.superadmin);
      expect(res.status, `${endpoint.path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.code).toBe(Code.invalidInput);
      expect(res.body.data.issues.length).toBeGreaterThan(0);
    }
    expect(await snapshot(t.database)).toBe(before);
  });

  it('writes the value, answers it, and audits who changed it from what to what', async () => {
    const res = await t.call(systemConfig.setOrderTimeoutMinutes, { value: 30 }, auth.admin);
    expect(res.body).toMatchObject({ code: 200, data: { value: 30 } });
    expect((await t.call(systemConfig.getOrderTimeoutMinutes, {}, auth.service)).body.data).toEqual({ value: 30 });
    const audit = await lastAudit('OrderTimeoutMinutes');
    expect(audit).toMatchObject({ account: 'admin', before: { value: 15 }, after: { value: 30 } });
    const entry = (await listOf(auth.superadmin)).find((e) => e.key === 'OrderTimeoutMinutes')!;
    expect(entry).toMatchObject({ value: 30, changed: true, updatedBy: 'admin' });
    expect(entry.updatedAt).not.toBeNull();

    // Structured values and switches take their own shapes.
    const freq = { ...SETTINGS.SecurityFreqParameters.default, minReliableCheckAmount: 250_000 };
    expect((await t.call(systemConfig.setSecurityFreqParameters, { value: freq }, auth.superadmin)).body.data).toEqual({
      value: freq,
    });
    expect((await t.call(systemConfig.setShowLogo, { enable: false }, auth.service)).body.data).toEqual({
      enable: false,
    });
    expect(await lastAudit('ShowLogo')).toMatchObject({ before: { enable: true }, after: { enable: false } });

    // Back to the defaults for the other tests.
    await t.call(systemConfig.setOrderTimeoutMinutes, { value: 15 }, auth.admin);
    await t.call(systemConfig.setShowLogo, { enable: true }, auth.service);
  });

  it('seals a bot token at rest and never answers or audits it, only whether it is set', async () => {
    const set = await t.call(systemConfig.setBotToken, { value: BOT_TOKEN }, auth.superadmin);
    expect(set.body).toMatchObject({ code: 200, data: { set: true } });
    const [row] = await t.database.db.select().from(systemSettings).where(eq(systemSettings.key, 'BotToken'));
    expect(JSON.stringify(row!.value)).not.toContain(BOT_TOKEN.split(':')[1]);
    // The server itself reads it back.
    expect(await t.app.services.settings.get('BotToken')).toBe(BOT_TOKEN);
    const list = await t.call(systemConfig.list, {}, auth.superadmin);
    expect(JSON.stringify(list.body)).not.toContain(BOT_TOKEN.split(':')[1]);
    expect((await t.call(systemConfig.getBotToken, {}, auth.admin)).body.data).toEqual({ set: true });
    expect(await lastAudit('BotToken')).toMatchObject({ before: { set: false }, after: { set: true } });
    expect(JSON.stringify(await lastAudit('BotToken'))).not.toContain(BOT_TOKEN.split(':')[1]);

    const cleared = await t.call(systemConfig.setBotToken, { value: null }, auth.superadmin);
    expect(cleared.body.data).toEqual({ set: false });
    expect(await t.app.services.settings.get('BotToken')).toBeNull();
  });

  it('is heard by another server process on the same database within a second', async () => {
    const other = buildServices({ config: t.config, database: t.database, clock: t.clock });
    await other.settings.start();
    try {
      expect(await other.settings.get('TimeoutCallbackTime')).toBe(SETTINGS.TimeoutCallbackTime.default);
      const res = await t.call(systemConfig.setTimeoutCallbackTime, { value: 6 }, auth.admin);
      expect(res.body.code).toBe(200);
      const changedAt = performance.now();
      await expect.poll(() => other.settings.get('TimeoutCallbackTime'), { timeout: 1_000, interval: 20 }).toBe(6);
      expect(performance.now() - changedAt).toBeLessThan(1_000);
    } finally {
      await t.call(systemConfig.setTimeoutCallbackTime, { value: SETTINGS.TimeoutCallbackTime.default }, auth.admin);
      await other.settings.stop();
    }
  });
});
