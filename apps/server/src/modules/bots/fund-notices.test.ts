import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeTelegram, startFakeTelegram } from '../../../../../tools/fake-telegram/fake-telegram.js';
import { startTestApp, type TestApp } from '../../testing/harness.js';
import { sleep, waitFor } from '../../testing/wait.js';
import { FUND_CURSOR } from './fund-notices.js';

/**
 * BotAutoSendFundRecord (issue 21 item 5): a party's balance change reaches its bot group on Telegram
 * (the fake), after the money's transaction and outside it; off, nothing is sent.
 */
const TOKEN = '123456:fund-notices-test-token-0001';
let telegram: FakeTelegram;
let t: TestApp;
let merchantId: number;
let supplierId: number;

const rows = async <T>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
const cursor = async () =>
  Number(
    (await rows<{ position: string }>(sql`select position from telegram_cursors where name = ${FUND_CURSOR}`))[0]
      ?.position ?? -1,
  );
const lastEntry = async () =>
  Number((await rows<{ id: string }>(sql`select max(id) as id from ledger_entries`))[0]?.id);

/** A manual adjustment of a party's available balance, as an approved proposal posts it. */
async function adjust(kind: 'merchant' | 'supplier', id: number, amount: number, key: string) {
  await t.database.db.transaction((tx) =>
    t.app.services.ledger.transfer(tx, {
      idempotencyKey: key,
      type: 'manualAdjustment',
      note: 'test',
      postings: [
        { account: `${kind}:${id}:available`, amount },
        { account: 'platform:adjustments', amount: -amount },
      ],
    }),
  );
}

beforeAll(async () => {
  telegram = await startFakeTelegram({ tokens: [TOKEN] });
  t = await startTestApp({
    config: { telegramApiRoot: telegram.url, timeZone: 'Asia/Kolkata' },
    jobs: { telegramScanEverySeconds: 1, telegramSettleMs: 0, telegramRetryDelaySeconds: 1 },
  });
  [{ id: merchantId }] = (await rows<{ id: number }>(sql`select id from merchants order by id limit 1`)) as [
    { id: number },
  ];
  [{ id: supplierId }] = (await rows<{ id: number }>(sql`select id from suppliers order by id limit 1`)) as [
    { id: number },
  ];
  const admin = await t.loginWithToken2('admin');
  const { endpoints } = await import('@paydesk/contract');
  for (const group of [
    { chatId: '-2001', name: 'M', partyKind: 'merchant', partyId: merchantId, language: 'en-US' },
    { chatId: '-2002', name: 'S', partyKind: 'supplier', partyId: supplierId, language: 'zh-CN' },
    { chatId: '-2003', name: 'Staff', partyKind: 'staff' },
  ]) {
    expect((await t.call(endpoints.bots.groupAdd, group, admin)).body.code).toBe(200);
  }
  await t.setSetting('BotToken', TOKEN);
});
afterAll(async () => {
  await t.close();
  await telegram.close();
});
beforeEach(() => telegram.reset());

describe('balance changes to the bot groups', () => {
  it('off: nothing is sent, and the cursor follows the ledger so turning it on sends no history', async () => {
    await t.setSetting('BotAutoSendFundRecord', false);
    await adjust('merchant', merchantId, 500, 'bot-off-1');
    const entry = await lastEntry();
    await waitFor('the cursor to pass the entry', cursor, (c) => c >= entry);
    await t.setSetting('BotAutoSendFundRecord', true);
    await sleep(2_500);
    expect(telegram.sent).toEqual([]);
  });

  it("on: each change of a party reaches that party's groups alone, in the group's language", async () => {
    await t.setSetting('BotAutoSendFundRecord', true);
    await waitFor('a scan with the switch on', cursor, (c) => c >= 0);
    await adjust('merchant', merchantId, 12_345, 'bot-on-1');
    await adjust('supplier', supplierId, -250, 'bot-on-2');
    const sent = await waitFor(
      'two messages',
      async () => [...telegram.sent],
      (s) => s.length >= 2,
    );
    await sleep(1_500);
    expect(telegram.sent).toHaveLength(2);
    const toMerchant = sent.find((m) => m.chatId === '-2001')!;
    const toSupplier = sent.find((m) => m.chatId === '-2002')!;
    expect(toMerchant.text).toContain('[Balance change]');
    expect(toMerchant.text).toContain('Amount: +123.45');
    expect(toMerchant.text).toContain('Type: Manual adjustment (available)');
    expect(toMerchant.text).toMatch(/Balance: \d+\.\d{2}/);
    expect(toSupplier.text).toContain('【资金变动】');
    expect(toSupplier.text).toContain('金额：-2.50');
    expect(sent.every((m) => m.chatId !== '-2003')).toBe(true);
  });

  it('Telegram down for a while: the message is retried and arrives', async () => {
    await t.setSetting('BotAutoSendFundRecord', true);
    telegram.failNext(2);
    await adjust('merchant', merchantId, 100, 'bot-retry-1');
    const sent = await waitFor(
      'the retried message',
      async () => [...telegram.sent],
      (s) => s.length >= 1,
      30_000,
    );
    expect(sent[0]).toMatchObject({ chatId: '-2001' });
    expect(sent[0]!.text).toContain('Amount: +1.00');
    expect(telegram.failedSends).toBe(2);
  });
});
