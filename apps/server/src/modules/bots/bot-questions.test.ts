import { endpoints } from '@paydesk/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeTelegram, startFakeTelegram } from '../../../../../tools/fake-telegram/fake-telegram.js';
import { payouts } from '../../db/schema.js';
import { startTestApp, type TestApp } from '../../testing/harness.js';
import { signedPayoutRequest } from '../../testing/payout-fixtures.js';
import { waitFor } from '../../testing/wait.js';
import { parseCommand, UPDATES_CURSOR } from './bot-questions.js';

/**
 * Questions to the bot (issue 21 item 5): a whitelisted user asks /balance or /order in a bot group and
 * gets what that group's party may see; anyone else, or any other chat, gets nothing.
 */
const TOKEN = '123456:questions-test-token-00001';
const ALLOWED = 42;
const STRANGER = 99;
let telegram: FakeTelegram;
let t: TestApp;
let payoutCode: string;
let merchantName: string;

const readCursor = async () =>
  Number(
    (
      (await t.database.db.execute(
        sql`select position from telegram_cursors where name = ${UPDATES_CURSOR}`,
      )) as unknown as { rows: Array<{ position: string }> }
    ).rows[0]?.position ?? 0,
  );
/** Says something in a chat and waits until the bot has read it; answers what the bot then sent. */
async function say(chatId: number, fromId: number, text: string) {
  const id = telegram.pushUpdate({ chatId, fromId, text });
  await waitFor('the bot to read the update', readCursor, (c) => c > id);
  // An answer is a job of its own: give it a moment to go out.
  await new Promise((r) => setTimeout(r, 1_000));
  return [...telegram.sent];
}

beforeAll(async () => {
  telegram = await startFakeTelegram({ tokens: [TOKEN] });
  t = await startTestApp({ config: { telegramApiRoot: telegram.url }, jobs: { telegramPollEverySeconds: 1 } });
  const created = await t.call(endpoints.payouts.create, signedPayoutRequest({ amount: '100000' }));
  expect(created.body.code, JSON.stringify(created.body)).toBe(200);
  payoutCode = created.body.data.orderCode;
  const [payout] = await t.database.db.select().from(payouts).where(eq(payouts.orderCode, payoutCode));
  const admin = await t.loginWithToken2('admin');
  const parties = (await t.call(endpoints.bots.groupParties, {}, admin)).body.data;
  merchantName = parties.merchants.find((m: { id: number }) => m.id === payout!.merchantId).name;
  for (const group of [
    { chatId: '-4001', name: 'Merchant', partyKind: 'merchant', partyId: payout!.merchantId, language: 'en-US' },
    { chatId: '-4002', name: 'Supplier', partyKind: 'supplier', partyId: parties.suppliers[0].id, language: 'zh-CN' },
  ]) {
    expect((await t.call(endpoints.bots.groupAdd, group, admin)).body.code).toBe(200);
  }
  const listed = await t.call(endpoints.bots.whitelistAdd, { telegramUserId: String(ALLOWED), name: 'Ops' }, admin);
  expect(listed.body.code).toBe(200);
  await t.setSetting('BotToken', TOKEN);
});
afterAll(async () => {
  await t.close();
  await telegram.close();
});
beforeEach(() => telegram.reset());

describe('questions to the bot', () => {
  it('reads commands, with or without the bot name', () => {
    expect(parseCommand('/balance')).toEqual({ command: 'balance', arg: '' });
    expect(parseCommand('/order@paydesk_bot  P123 ')).toEqual({ command: 'order', arg: 'P123' });
    expect(parseCommand('hello')).toBeNull();
  });

  it('a user not on the whitelist, or a chat without a bot group, gets no answer', async () => {
    expect(await say(-4001, STRANGER, '/balance')).toEqual([]);
    expect(await say(-4999, ALLOWED, '/balance')).toEqual([]);
  });

  it("a whitelisted user gets the merchant group's balance, as a reply", async () => {
    const sent = await say(-4001, ALLOWED, '/balance');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ chatId: '-4001' });
    expect(sent[0]!.replyTo).not.toBeNull();
    expect(sent[0]!.text).toContain(`[Balance] ${merchantName}`);
    expect(sent[0]!.text).toMatch(/Available: -?\d+\.\d{2}\nFrozen: \d+\.\d{2}/);
  });

  it("an order of the group's party is answered; in another party's group it reads as not found", async () => {
    const own = await say(-4001, ALLOWED, `/order ${payoutCode}`);
    expect(own).toHaveLength(1);
    expect(own[0]!.text).toContain(`[Payout] ${payoutCode}`);
    expect(own[0]!.text).toContain('Amount: 1000.00');
    expect(own[0]!.text).toContain('State: Awaiting');
    telegram.reset();
    const other = await say(-4002, ALLOWED, `/order ${payoutCode}`);
    expect(other.map((m) => m.text)).toEqual([`找不到订单 ${payoutCode}`]);
  });
});
