import { endpoints } from '@paydesk/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeTelegram, startFakeTelegram } from '../../../../../tools/fake-telegram/fake-telegram.js';
import { startTestApp, type TestApp } from '../../testing/harness.js';
import { signedPayoutRequest } from '../../testing/payout-fixtures.js';
import { sleep, waitFor } from '../../testing/wait.js';

/**
 * BotConstantReminder (issue 21 item 5): on its schedule, the staff groups get the counts of waiting
 * work in their language; merchant and supplier groups never do; off, nothing is sent.
 */
const TOKEN = '123456:reminders-test-token-00001';
let telegram: FakeTelegram;
let t: TestApp;

beforeAll(async () => {
  telegram = await startFakeTelegram({ tokens: [TOKEN] });
  t = await startTestApp({
    config: { telegramApiRoot: telegram.url },
    jobs: { telegramReminderEverySeconds: 1, telegramRetryDelaySeconds: 1 },
  });
  const admin = await t.loginWithToken2('admin');
  for (const group of [
    { chatId: '-3001', name: 'Staff en', partyKind: 'staff', language: 'en-US' },
    { chatId: '-3002', name: 'Staff tw', partyKind: 'staff', language: 'zh-TW' },
    { chatId: '-3003', name: 'Merchant', partyKind: 'merchant', partyId: 1 },
  ]) {
    expect((await t.call(endpoints.bots.groupAdd, group, admin)).body.code).toBe(200);
  }
  // One payout waiting in the claim queue.
  const created = await t.call(endpoints.payouts.create, signedPayoutRequest({ amount: '100000' }));
  expect(created.body.code, JSON.stringify(created.body)).toBe(200);
  await t.setSetting('BotToken', TOKEN);
});
afterAll(async () => {
  await t.close();
  await telegram.close();
});
beforeEach(() => telegram.reset());

describe('reminders of waiting work', () => {
  it('counts the waiting work from the tables', async () => {
    expect(await t.app.services.reminders.waitingWork()).toEqual({
      lockedOrders: 0,
      payoutsToClaim: 1,
      payoutsForStaff: 0,
      failedCallbacks: 0,
    });
  });

  it('off: no reminder goes out', async () => {
    await t.setSetting('BotConstantReminder', false);
    await sleep(2_500);
    expect(telegram.sent).toEqual([]);
  });

  it("on: each staff group gets the counts in its language, on the schedule; a party's group none", async () => {
    await t.setSetting('BotConstantReminder', true);
    const sent = await waitFor(
      'reminders to both staff groups',
      async () => [...telegram.sent],
      (s) => s.some((m) => m.chatId === '-3001') && s.some((m) => m.chatId === '-3002'),
    );
    const en = sent.find((m) => m.chatId === '-3001')!;
    expect(en.text).toContain('[Waiting work]');
    expect(en.text).toContain('Payouts waiting for a claim: 1');
    expect(en.text).toContain('Failed callbacks: 0');
    expect(sent.find((m) => m.chatId === '-3002')!.text).toContain('待認領代付：1');
    expect(sent.some((m) => m.chatId === '-3003')).toBe(false);
    await t.setSetting('BotConstantReminder', false);
  });
});
