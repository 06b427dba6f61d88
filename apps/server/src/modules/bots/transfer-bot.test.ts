import { Code, endpoints } from '@paydesk/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeTelegram, startFakeTelegram } from '../../../../../tools/fake-telegram/fake-telegram.js';
import { type Auth, startTestApp, type TestApp } from '../../testing/harness.js';
import { sleep, waitFor } from '../../testing/wait.js';
import { FUND_CURSOR } from './fund-notices.js';

/**
 * The transfer bot (/system/transferBot): with TransferBotToken set, the balance changes reach the
 * parties' groups through the transfer bot's token; without it, through the main bot's, as before. The
 * page's calls: the status (never the token), the groups' flag, and a test message through the fake.
 */
const MAIN = '123456:transfer-bot-test-main-token-01';
const TRANSFER = '654321:transfer-bot-test-transfer-tok-01';
const { bots, systemConfig } = endpoints;
let telegram: FakeTelegram;
let t: TestApp;
let merchantId: number;
let superadmin: Auth;
let admin: Auth;
let maintenance: Auth;
const groupIds: Record<string, number> = {};

const rows = async <T>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
const cursor = async () =>
  Number(
    (await rows<{ position: string }>(sql`select position from telegram_cursors where name = ${FUND_CURSOR}`))[0]
      ?.position ?? -1,
  );
const lastEntry = async () =>
  Number((await rows<{ id: string }>(sql`select max(id) as id from ledger_entries`))[0]?.id ?? 0);

async function adjust(amount: number, key: string) {
  await t.database.db.transaction((tx) =>
    t.app.services.ledger.transfer(tx, {
      idempotencyKey: key,
      type: 'manualAdjustment',
      note: 'test',
      postings: [
        { account: `merchant:${merchantId}:available`, amount },
        { account: 'platform:adjustments', amount: -amount },
      ],
    }),
  );
}

const SETTLE_MS = 60_000;

/** Posts a change and waits for the scan to pass it; answers the messages sent meanwhile. */
async function postAndSettle(amount: number, key: string, expected: number) {
  telegram.reset();
  await adjust(amount, key);
  const entry = await lastEntry();
  // The scan and the send queue are background jobs: on a loaded 2-core CI machine running every
  // suite at once they take far longer than alone, so wait up to SETTLE_MS rather than the default 15 s.
  await waitFor('the scan to pass the entry', cursor, (c) => c >= entry, SETTLE_MS);
  const sent = await waitFor(
    `${expected} messages`,
    async () => [...telegram.sent],
    (s) => s.length >= expected,
    SETTLE_MS,
  );
  await sleep(1_000);
  expect(telegram.sent).toHaveLength(expected);
  return sent;
}

beforeAll(async () => {
  telegram = await startFakeTelegram({ tokens: [MAIN, TRANSFER] });
  t = await startTestApp({
    config: { telegramApiRoot: telegram.url, timeZone: 'Asia/Kolkata' },
    jobs: { telegramScanEverySeconds: 1, telegramSettleMs: 0, telegramRetryDelaySeconds: 1 },
  });
  [{ id: merchantId }] = (await rows<{ id: number }>(sql`select id from merchants order by id limit 1`)) as [
    { id: number },
  ];
  superadmin = await t.loginWithToken2('superadmin');
  admin = await t.loginWithToken2('admin');
  maintenance = await t.loginWithToken2('maintenance');
  for (const group of [
    { chatId: '-4001', name: 'Merchant money', partyKind: 'merchant', partyId: merchantId, language: 'en-US' },
    { chatId: '-4002', name: 'Merchant ops', partyKind: 'merchant', partyId: merchantId, language: 'zh-CN' },
    { chatId: '-4003', name: 'Staff', partyKind: 'staff' },
  ]) {
    const added = await t.call(bots.groupAdd, group, admin);
    expect(added.body.data.transferNotices).toBe(true);
    groupIds[group.chatId] = added.body.data.id;
  }
  await t.setSetting('BotToken', MAIN);
  await t.setSetting('BotAutoSendFundRecord', true);
  // The first scan places the cursor at the ledger's end (changes from then on are sent): wait for it,
  // or a change posted before it would count as history.
  await waitFor('the first fund scan', cursor, (c) => c >= 0, SETTLE_MS);
});
afterAll(async () => {
  await t.close();
  await telegram.close();
});
beforeEach(() => telegram.reset());

// Each test waits on background jobs up to SETTLE_MS per change (postAndSettle).
describe('which bot posts the balance changes', { timeout: 240_000 }, () => {
  it("the main bot's token while no transfer bot token is set; the transfer bot's once it is; the main bot's again when cleared", async () => {
    const status = await t.call(bots.transferBotStatus, {}, maintenance);
    expect(status.body.data).toEqual({
      tokenSet: false,
      mainTokenSet: true,
      fundNoticesOn: true,
      sender: 'mainBot',
      receivingGroups: 2,
    });

    let sent = await postAndSettle(100, 'tb-main-1', 2);
    expect(sent.map((m) => m.token)).toEqual([MAIN, MAIN]);

    // Set through the setting's own call (superAdmin, token2); the page's status never shows it.
    expect((await t.call(systemConfig.setTransferBotToken, { value: TRANSFER }, admin)).status).toBe(403);
    const set = await t.call(systemConfig.setTransferBotToken, { value: TRANSFER }, superadmin);
    expect(set.body).toMatchObject({ code: 200, data: { set: true } });
    const after = await t.call(bots.transferBotStatus, {}, admin);
    expect(after.body.data).toMatchObject({ tokenSet: true, sender: 'transferBot' });
    expect(JSON.stringify(after.body)).not.toContain(TRANSFER.split(':')[1]);

    sent = await postAndSettle(200, 'tb-transfer-1', 2);
    expect(sent.map((m) => m.token)).toEqual([TRANSFER, TRANSFER]);
    expect(sent.find((m) => m.chatId === '-4001')!.text).toContain('Amount: +2.00');

    expect((await t.call(systemConfig.setTransferBotToken, { value: null }, superadmin)).body.data).toEqual({
      set: false,
    });
    sent = await postAndSettle(300, 'tb-main-2', 2);
    expect(sent.map((m) => m.token)).toEqual([MAIN, MAIN]);
  });

  it('a group with transfer notices off gets none; the change is audited and refused to other roles and staff groups', async () => {
    await t.setSetting('TransferBotToken', TRANSFER);
    const off = await t.call(bots.groupTransferNotices, { id: groupIds['-4002']!, transferNotices: false }, admin);
    expect(off.body.data).toMatchObject({ chatId: '-4002', transferNotices: false });
    const sent = await postAndSettle(400, 'tb-flag-1', 1);
    expect(sent[0]).toMatchObject({ token: TRANSFER, chatId: '-4001' });
    expect((await t.call(bots.transferBotStatus, {}, admin)).body.data.receivingGroups).toBe(1);

    const [audit] = await rows<Record<string, unknown>>(
      sql`select account, target, before, after from audit_log where action = 'bots.groupTransferNotices' order by id desc limit 1`,
    );
    expect(audit).toMatchObject({
      account: 'admin',
      target: `botGroup:${groupIds['-4002']}`,
      before: { transferNotices: true },
      after: { transferNotices: false },
    });
    // Editing the group on its own page keeps the flag.
    const edited = await t.call(
      bots.groupUpdate,
      {
        id: groupIds['-4002']!,
        chatId: '-4002',
        name: 'Merchant ops (renamed)',
        partyKind: 'merchant',
        partyId: merchantId,
        language: 'zh-CN',
      },
      admin,
    );
    expect(edited.body.data).toMatchObject({ name: 'Merchant ops (renamed)', transferNotices: false });

    const staff = await t.call(bots.groupTransferNotices, { id: groupIds['-4003']!, transferNotices: true }, admin);
    expect(staff.body).toMatchObject({ code: Code.businessRule, data: { reason: 'transferNoticesStaffGroup' } });
    expect(
      (await t.call(bots.groupTransferNotices, { id: groupIds['-4001']!, transferNotices: false }, maintenance)).status,
    ).toBe(403);
    const service = await t.loginWithToken2('service');
    expect((await t.call(bots.transferBotStatus, {}, service)).status).toBe(403);
    const noToken2 = await t.login('admin');
    expect(
      (await t.call(bots.groupTransferNotices, { id: groupIds['-4001']!, transferNotices: false }, noToken2)).body.code,
    ).toBe(1024);
    await t.call(bots.groupTransferNotices, { id: groupIds['-4002']!, transferNotices: true }, admin);
  });
});

describe('the test message', () => {
  it("goes to the group through the bot that posts the notices, in the group's language; audited", async () => {
    await t.setSetting('TransferBotToken', TRANSFER);
    const sent = await t.call(bots.transferBotTest, { groupId: groupIds['-4002']! }, admin);
    expect(sent.body.data).toMatchObject({ sender: 'transferBot', chatId: '-4002' });
    expect(telegram.sent).toEqual([
      expect.objectContaining({ token: TRANSFER, chatId: '-4002', text: expect.stringContaining('【测试】') }),
    ]);

    await t.setSetting('TransferBotToken', null);
    const main = await t.call(bots.transferBotTest, { groupId: groupIds['-4001']! }, superadmin);
    expect(main.body.data).toMatchObject({ sender: 'mainBot', chatId: '-4001' });
    expect(telegram.sent.at(-1)).toMatchObject({ token: MAIN, text: expect.stringContaining('[Test]') });
    const [audit] = await rows<Record<string, unknown>>(
      sql`select account, after from audit_log where action = 'bots.transferBotTest' order by id desc limit 1`,
    );
    expect(audit).toMatchObject({ account: 'superadmin', after: { sender: 'mainBot', delivered: true } });
  });

  it('says why nothing was sent: no token, a token Telegram refuses, no such group, a reader', async () => {
    await t.setSetting('TransferBotToken', '999999:a-token-the-fake-does-not-know');
    const refused = await t.call(bots.transferBotTest, { groupId: groupIds['-4001']! }, admin);
    expect(refused.body).toMatchObject({ code: Code.businessRule, data: { reason: 'telegramSendFailed' } });
    expect(JSON.stringify(refused.body)).not.toContain('a-token-the-fake-does-not-know');

    await t.setSetting('TransferBotToken', null);
    await t.setSetting('BotToken', null);
    const none = await t.call(bots.transferBotTest, { groupId: groupIds['-4001']! }, admin);
    expect(none.body).toMatchObject({ code: Code.businessRule, data: { reason: 'botTokenMissing' } });
    expect((await t.call(bots.transferBotStatus, {}, admin)).body.data).toMatchObject({
      tokenSet: false,
      mainTokenSet: false,
      sender: null,
    });
    expect((await t.call(bots.transferBotTest, { groupId: 999_999 }, admin)).body.code).toBe(Code.notFound);
    expect((await t.call(bots.transferBotTest, { groupId: groupIds['-4001']! }, maintenance)).status).toBe(403);
    expect(telegram.sent).toEqual([]);
    await t.setSetting('BotToken', MAIN);
  });
});
