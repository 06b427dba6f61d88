import { BOT_MESSAGE_KEYS, Code, endpoints, TEXT_LOCALES } from '@paydesk/contract';
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
  it('lists every message in every language with its variables, defaults first', async () => {
    const res = await t.call(bots.templateList, {}, maintenance);
    expect(res.body.data.list).toHaveLength(BOT_MESSAGE_KEYS.length * TEXT_LOCALES.length);
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
