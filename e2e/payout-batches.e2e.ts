import { endpoints } from '@paydesk/contract';
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseOption, signIn } from './support/console.js';
import { DEMO_MERCHANT, signOf } from './support/merchant.js';
import { consoleSuite } from './support/suite.js';

/**
 * Issue 20 item 8 as staff meet it: merchant1's server creates two bank payouts through the signed
 * API; admin makes a batch of exactly those in /payoutBatch/list (the form's account, template, time
 * and amount bounds, with what it would take shown before creating) and proposes it, and is not
 * offered approving its own proposal; superadmin, a second staff account, approves it through the
 * second-level password, and the batch's payouts are preparing on supplier1's account.
 */
const suite = consoleSuite();
const url = (path: string) => `${suite.server.url}${path}`;

/** Amounts no demo payout has (the demo's are whole thousands): the batch's bounds take exactly these. */
const AMOUNTS = [10_117, 10_219];

/** POST /v1.0/api/payout/create as merchant1's server does it, signed; answers the payout's code. */
async function createPayout(amount: number, n: number): Promise<string> {
  const params: Record<string, string> = {
    mchId: DEMO_MERCHANT.mchId,
    productId: '2001',
    mchOrderNo: `E2EBATCH${Date.now()}${n}`,
    amount: String(amount),
    userName: `Batch Payee ${n}`,
    cardNumber: `50100${String(n).padStart(7, '0')}`,
    ifscCode: 'HDFC0001234',
    bankName: 'HDFC Bank',
    bankBranch: 'Koramangala',
    address: '12 MG Road, Bengaluru',
  };
  const res = await fetch(url(endpoints.payouts.create.path), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...params, sign: signOf(params) }),
  });
  const body = (await res.json()) as { code: number; msg: string; data: { orderCode: string } };
  expect(body.code, body.msg).toBe(200);
  return body.data.orderCode;
}

/** Enters the second-level password in the dialog a token2 action opens (see orders.e2e.ts). */
async function secondLevel(page: Page) {
  const dialog = page.locator('.ant-modal', { has: page.locator('#secondLevel_password') });
  await dialog.locator('#secondLevel_password').waitFor();
  await dialog.locator('#secondLevel_password').fill('demo1234');
  await dialog.locator('#secondLevel_logInReason').fill('browser test: approve a batch');
  await dialog.getByRole('button', { name: 'OK' }).click();
}

const rowOf = (page: Page, batchId: number): Locator =>
  page.getByTestId(`batch-row-${batchId}`).locator('xpath=ancestor::tr');

const pages: Page[] = [];
afterAll(async () => {
  for (const page of pages) await page.context().close();
});

describe('batch payouts in the console', () => {
  it('admin batches two API payouts and proposes the batch; superadmin approves it with the second-level password', async () => {
    const codes = [await createPayout(AMOUNTS[0]!, 1), await createPayout(AMOUNTS[1]!, 2)];

    // ---- admin makes the batch ----
    const admin = await suite.newPage('en-US');
    pages.push(admin);
    await signIn(admin, suite.server.url, 'admin', suite.secretOf('admin'));
    await admin.goto(url('/payoutBatch/list'));
    await admin.getByTestId('batch-list').locator('.ant-table').waitFor();
    await admin.getByTestId('batch-create-open').click();
    const form = admin.getByTestId('batch-create-form');
    await form.waitFor();
    await chooseOption(admin, admin.getByTestId('batch-create-resourceId'), 'Demo payout HDFC');
    await chooseOption(admin, admin.getByTestId('batch-create-templateId'), 'ICICI Bank CIB bulk payment');
    await admin.getByTestId('batch-create-payoutTime').click();
    await admin.getByTestId('batch-create-tomorrow').click();
    await admin.getByTestId('batch-create-minAmount').fill('101.17');
    await admin.getByTestId('batch-create-maxAmount').fill('102.19');
    await admin.getByTestId('batch-create-maxCount').fill('500');
    // What the batch would take, before it is made: exactly the two payouts.
    await expect
      .poll(async () => (await admin.getByTestId('batch-create-preview').textContent()) ?? '', { timeout: 15_000 })
      .toBe('With these conditions the batch would take 2 payouts now, 203.36 in all');
    const created = admin.waitForResponse((r) => r.url().includes(endpoints.payoutBatches.create.path));
    await admin.getByTestId('batch-create-submit').click();
    const answer = (await (await created).json()) as { code: number; msg: string; data: { batchId: number } };
    expect(answer.code, answer.msg).toBe(200);
    const batchId = answer.data.batchId;
    await admin.getByText(`Batch #${batchId} created: 2 payouts, 203.36 in all`).waitFor();

    const row = rowOf(admin, batchId);
    await row.waitFor();
    expect(await admin.getByTestId(`batch-state-${batchId}`).textContent()).toBe('Draft');
    expect(await row.textContent()).toContain('203.36');

    // Its payouts, in the drawer: the two the merchant made.
    await admin.getByTestId(`batch-payouts-${batchId}`).click();
    const drawer = admin.getByTestId('batch-drawer');
    for (const code of codes) await drawer.getByTestId(`batch-payout-${code}`).waitFor();
    expect(await drawer.getByTestId('batch-payouts-total').textContent()).toContain('2 payouts, amount 203.36');
    await admin.locator('.ant-drawer-close').click();
    await drawer.waitFor({ state: 'hidden' });

    // Propose it.
    await admin.getByTestId(`batch-propose-${batchId}`).click();
    await admin.getByTestId('batch-ok').click();
    await admin.getByText(`Batch #${batchId} proposed for approval`).waitFor();
    await expect
      .poll(async () => admin.getByTestId(`batch-state-${batchId}`).textContent(), { timeout: 15_000 })
      .toBe('Awaiting approval');
    // The proposer is not offered approving it (another account must), only marking it abnormal.
    await admin.getByTestId(`batch-markAbnormal-${batchId}`).waitFor();
    expect(await admin.getByTestId(`batch-approve-${batchId}`).count()).toBe(0);

    // ---- superadmin approves it ----
    const checker = await suite.newPage('en-US');
    pages.push(checker);
    await signIn(checker, suite.server.url, 'superadmin', suite.secretOf('superadmin'));
    await checker.goto(url('/payoutBatch/list'));
    await rowOf(checker, batchId).waitFor();
    expect(await checker.getByTestId(`batch-propose-${batchId}`).count()).toBe(0);
    await checker.getByTestId(`batch-approve-${batchId}`).click();
    // Approving needs token2 and none is held: the second-level password is asked before the confirmation.
    await secondLevel(checker);
    await checker.getByText(`Confirm batch #${batchId} (2 payouts, 203.36 in all)?`, { exact: false }).waitFor();
    const approved = checker.waitForResponse((r) => r.url().includes(endpoints.payoutBatches.approve.path));
    await checker.getByTestId('batch-ok').click();
    const approval = (await (await approved).json()) as { code: number; msg: string };
    expect(approval.code, approval.msg).toBe(200);
    await checker.getByText(`Batch #${batchId} confirmed: 2 payouts preparing`).waitFor();
    await expect
      .poll(async () => checker.getByTestId(`batch-state-${batchId}`).textContent(), { timeout: 15_000 })
      .toBe('Confirmed');

    // The payouts now wait for the bank file on supplier1's account; the batch says who made and checked it.
    await checker.getByTestId(`batch-row-${batchId}`).click();
    const confirmed = checker.getByTestId('batch-drawer');
    await expect.poll(async () => (await confirmed.textContent()) ?? '').toContain('superadmin · ');
    expect(await confirmed.textContent()).toContain('admin · ');
    for (const code of codes) {
      const payoutRow = confirmed.getByTestId(`batch-payout-${code}`).locator('xpath=ancestor::tr');
      await expect.poll(async () => (await payoutRow.textContent()) ?? '', { timeout: 15_000 }).toContain('Preparing');
    }
    // Next is the bank file: offered to the staff now that the batch is confirmed.
    await confirmed.getByTestId(`batch-exportFile-${batchId}`).waitFor();
  });
});
