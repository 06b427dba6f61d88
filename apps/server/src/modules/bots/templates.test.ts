import { BOT_MESSAGE_KEYS, Code, endpoints, IN_APP_MESSAGE_KEYS, note, TEXT_LOCALES } from '@paydesk/contract';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Auth, startTestApp, type TestApp } from '../../testing/harness.js';

/**
 * Message templates (issue 21 item 5): every bot message in three languages, replaced by the staff's
 * own text (its variables only; token2; audited) and reset to the default; the bots use what is set.
 */
const { bots } = endpoints;
let t: TestApp;
let admin: Auth;
let maintenance: Auth;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.loginWithToken2('admin');
  maintenance = await t.loginWithToken2('maintenance');
});
afterAll(() => t.close());

describe('message templates', () => {
  it('exports the catalogue as filtered, as CSV', async () => {
    /** The export's records (texts hold line breaks, so read it as CSV, not by lines). */
    const records = async (query: Record<string, string>, who: Auth) => {
      const res = await t.app.inject({ url: bots.templateExport.path, query, cookies: { token: who.token ?? '' } });
      expect(res.statusCode).toBe(200);
      return parse(res.body.replace(/^\uFEFF/, ''), { columns: true }) as Array<Record<string, string>>;
    };
    const all = await records({}, maintenance);
    expect(Object.keys(all[0]!).slice(0, 4)).toEqual(['channel', 'key', 'language', 'text']);
    expect(all).toHaveLength((BOT_MESSAGE_KEYS.length + IN_APP_MESSAGE_KEYS.length) * TEXT_LOCALES.length);
    const inAppEnglish = await records({ channel: 'inApp', language: 'en-US' }, maintenance);
    expect(inAppEnglish).toHaveLength(IN_APP_MESSAGE_KEYS.length);
    expect(inAppEnglish.every((r) => r.channel === 'inApp' && r.language === 'en-US')).toBe(true);
    const keyword = await records({ keyword: 'FUNDRECORD', language: 'zh-CN' }, admin);
    expect(keyword.map((r) => [r.channel, r.key, r.language])).toEqual([['bot', 'fundRecord', 'zh-CN']]);
  });

  it('lists every message in every language with its variables, defaults first', async () => {
    const res = await t.call(bots.templateList, {}, maintenance);
    expect(res.body.data.list).toHaveLength(
      (BOT_MESSAGE_KEYS.length + IN_APP_MESSAGE_KEYS.length) * TEXT_LOCALES.length,
    );
    const inApp = res.body.data.list.find(
      (r: { key: string; language: string }) => r.key === 'proposalRejected' && r.language === 'zh-TW',
    );
    expect(inApp).toMatchObject({ channel: 'inApp', custom: false });
    expect(inApp.text).toContain('已被 {{account}} 拒絕');
    expect(inApp.variables).toEqual(['id', 'proposalKind', 'partyKind', 'party', 'account', 'reason']);
    const fund = res.body.data.list.find(
      (r: { key: string; language: string }) => r.key === 'fundRecord' && r.language === 'zh-CN',
    );
    expect(fund).toMatchObject({ custom: false, updatedBy: null });
    expect(fund.variables).toContain('amount');
    expect(fund.text).toBe(fund.defaultText);
  });

  it('a new text with its own variables is used by the bots; an unknown variable is refused; reset restores', async () => {
    const bad = await t.call(
      bots.templateUpdate,
      { key: 'orderNotFound', language: 'en-US', text: 'No {{orderCode}} for {{party}}' },
      admin,
    );
    expect(bad.body).toMatchObject({
      code: Code.invalidInput,
      data: { reason: 'templateUnknownVariable', issues: [{ path: 'text', message: 'unknown variables: {{party}}' }] },
    });
    const templates = t.app.services.messageTemplates;
    expect(await templates.render('orderNotFound', 'en-US', { orderCode: 'C1' })).toBe('No order C1 found');

    const set = await t.call(
      bots.templateUpdate,
      { key: 'orderNotFound', language: 'en-US', text: ' Sorry, {{orderCode}} is not one of yours ' },
      admin,
    );
    expect(set.body.data).toMatchObject({
      custom: true,
      text: 'Sorry, {{orderCode}} is not one of yours',
      updatedBy: 'admin',
    });
    expect(await templates.render('orderNotFound', 'en-US', { orderCode: 'C1' })).toBe('Sorry, C1 is not one of yours');
    // Other languages keep their defaults.
    expect(await templates.render('orderNotFound', 'zh-CN', { orderCode: 'C1' })).toBe('找不到订单 C1');

    expect((await t.call(bots.templateReset, { key: 'orderNotFound', language: 'en-US' }, maintenance)).body.code).toBe(
      Code.forbidden,
    );
    const reset = await t.call(bots.templateReset, { key: 'orderNotFound', language: 'en-US' }, admin);
    expect(reset.body.data).toMatchObject({ custom: false, text: 'No order {{orderCode}} found' });
    expect(await templates.render('orderNotFound', 'en-US', { orderCode: 'C1' })).toBe('No order C1 found');

    const audit = (
      (await t.database.db.execute(
        sql`select action, before, after from audit_log where action like 'bots.template%' order by id`,
      )) as unknown as { rows: Array<Record<string, unknown>> }
    ).rows;
    expect(audit).toMatchObject([
      { action: 'bots.templateUpdate', before: { custom: false }, after: { custom: true } },
      {
        action: 'bots.templateReset',
        before: { custom: true },
        after: { custom: false, text: 'No order {{orderCode}} found' },
      },
    ]);
  });

  it('changes need the second-level password', async () => {
    const noToken2 = await t.login('admin');
    const res = await t.call(bots.templateUpdate, { key: 'help', language: 'en-US', text: 'x' }, noToken2);
    expect(res.body.code).toBe(1024);
  });
});

describe('in-app message templates', () => {
  const title = note('proposalRejectedTitle', { id: 9 });
  const content = note('proposalRejected', {
    id: 9,
    proposalKind: 'deposit',
    partyKind: 'merchant',
    party: 'Merchant One',
    account: 'admin',
    reason: 'wrong amount',
  });
  async function sendToMerchant() {
    const [{ id }] = (
      (await t.database.db.execute(sql`select id from users where account = 'merchant1'`)) as unknown as {
        rows: [{ id: number }];
      }
    ).rows;
    const sent = await t.database.db.transaction((tx) =>
      t.app.services.messages.notify(tx, { title, content, userIds: [id] }),
    );
    return sent!.msgId;
  }

  it('an edited text shows in a new message in that language; other languages and older messages keep theirs', async () => {
    const merchant = await t.login('merchant1');
    const before = await sendToMerchant();

    const set = await t.call(
      bots.templateUpdate,
      {
        channel: 'inApp',
        key: 'proposalRejected',
        language: 'en-US',
        text: 'Your {{proposalKind}} #{{id}} for {{party}} was turned down by {{account}}: {{reason}}',
      },
      admin,
    );
    expect(set.body.data).toMatchObject({
      channel: 'inApp',
      key: 'proposalRejected',
      custom: true,
      updatedBy: 'admin',
    });
    const zh = await t.call(
      bots.templateUpdate,
      { channel: 'inApp', key: 'proposalRejectedTitle', language: 'zh-CN', text: '{{id}} 号余额操作未通过' },
      admin,
    );
    expect(zh.body.code).toBe(200);

    const after = await sendToMerchant();
    const read = await t.call(endpoints.messages.content, { msg_id: after }, merchant);
    expect(read.body.data).toMatchObject({
      title_template: title,
      title_texts: { 'zh-CN': '9 号余额操作未通过' },
      content_template: content,
      content_texts: { 'en-US': 'Your deposit #9 for Merchant One was turned down by admin: wrong amount' },
    });
    const inbox = await t.call(endpoints.messages.init, {}, merchant);
    expect(inbox.body.data.unread.find((m: { msg_id: number }) => m.msg_id === after).title_texts).toEqual({
      'zh-CN': '9 号余额操作未通过',
    });
    const older = await t.call(endpoints.messages.content, { msg_id: before }, merchant);
    expect(older.body.data).toMatchObject({ title_texts: {}, content_texts: {} });

    const [audit] = (
      (await t.database.db.execute(
        sql`select target, after from audit_log where action = 'bots.templateUpdate' order by id desc limit 1`,
      )) as unknown as { rows: Array<Record<string, unknown>> }
    ).rows;
    expect(audit).toMatchObject({
      target: 'messageTemplate:inApp:proposalRejectedTitle:zh-CN',
      after: { custom: true },
    });

    // Reset: new messages are the default again.
    for (const [key, language] of [
      ['proposalRejected', 'en-US'],
      ['proposalRejectedTitle', 'zh-CN'],
    ] as const) {
      expect((await t.call(bots.templateReset, { channel: 'inApp', key, language }, admin)).body.data.custom).toBe(
        false,
      );
    }
    const reset = await t.call(endpoints.messages.content, { msg_id: await sendToMerchant() }, merchant);
    expect(reset.body.data).toMatchObject({ title_texts: {}, content_texts: {} });
  });

  it('refuses unknown variables and a key of the other channel', async () => {
    const unknown = await t.call(
      bots.templateUpdate,
      { channel: 'inApp', key: 'proposalApproved', language: 'en-US', text: 'Approved {{id}} of {{orderCode}}' },
      admin,
    );
    expect(unknown.body).toMatchObject({
      code: Code.invalidInput,
      data: {
        reason: 'templateUnknownVariable',
        issues: [{ path: 'text', message: 'unknown variables: {{orderCode}}' }],
      },
    });
    const wrongChannel = await t.call(
      bots.templateUpdate,
      { channel: 'inApp', key: 'fundRecord', language: 'en-US', text: 'x' },
      admin,
    );
    expect(wrongChannel.body.code).toBe(Code.invalidInput);
    const botKeyAsBot = await t.call(
      bots.templateUpdate,
      { channel: 'bot', key: 'proposalApproved', language: 'en-US', text: 'x' },
      admin,
    );
    expect(botKeyAsBot.body.code).toBe(Code.invalidInput);
    expect(
      (
        await t.call(
          bots.templateUpdate,
          { channel: 'inApp', key: 'proposalApproved', language: 'en-US', text: 'Approved #{{id}}' },
          maintenance,
        )
      ).status,
    ).toBe(403);
  });
});
