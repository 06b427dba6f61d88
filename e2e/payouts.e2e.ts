import { endpoints, PAYOUT_STATE } from '@paydesk/contract';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiCall, apiLogin } from './support/api.js';
import { signIn } from './support/console.js';
import { consoleSuite } from './support/suite.js';

/**
 * Issue 20, payouts as their users meet them: a merchant creates a payout in the console (second-level
 * password, the spec's texts on a bad field), and a supplier claims it from its claim queue on a phone
 * and pays it (the UTR with a receipt image), an admin confirms, and the merchant reads it completed
 * with the receipt; the merchant uploads payouts as a CSV file (issue 20 item 3).
 */
const suite = consoleSuite();
const PHONE = { width: 360, height: 740 };
/** A 1x1 PNG: the picture of the bank's receipt the supplier attaches to its UTR. */
const RECEIPT_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

async function secondLevel(page: Page) {
  const dialog = page.locator('.ant-modal', { hasText: 'Second-level password' });
  await dialog.waitFor();
  await dialog.locator('#secondLevel_password').fill('demo1234');
  await dialog.locator('#secondLevel_logInReason').fill('pay a supplier');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

describe('payouts in the console', () => {
  let orderCode = '';

  it('merchant1 creates a payout in the console: the second-level password first, the spec’s text on a bad IFSC', async () => {
    const page = await suite.newPage('en-US');
    await signIn(page, suite.server.url, 'merchant1', suite.secretOf('merchant1'));
    await page.goto(`${suite.server.url}/payProxyOrder/list/merchant`);
    await page.getByTestId('payout-create').click();
    await secondLevel(page);
    const form = page.getByTestId('payout-create-form');
    await form.waitFor();
    await page.getByTestId('payout-create-mchOrderNo').fill('E2E-PAYOUT-1');
    await page.getByTestId('payout-create-amount').fill('1200');
    await page.getByTestId('payout-create-userName').fill('Asha Rao');
    await page.getByTestId('payout-create-cardNumber').fill('50100234567890');
    await page.getByTestId('payout-create-ifscCode').fill('HDFC1234567');
    await page.getByTestId('payout-create-bankBranch').fill('Koramangala');
    await page.getByTestId('payout-create-address').fill('12 MG Road, Bengaluru');
    await page.getByTestId('payout-create-submit').click();
    await form.getByText('invalid IFSC format').waitFor();
    await page.getByTestId('payout-create-ifscCode').fill('HDFC0001234');
    await page.getByTestId('payout-create-submit').click();
    await form.waitFor({ state: 'hidden' });

    // The new payout is in the merchant's list, awaiting, its money held.
    const merchant = await apiLogin(suite.server.url, 'merchant1', suite.secretOf('merchant1'));
    const list = await apiCall(
      suite.server.url,
      endpoints.payouts.getList,
      { pageIndex: 1, pageSize: 10, merchantOrderId: 'E2E-PAYOUT-1' },
      merchant,
    );
    expect(list.data.list).toHaveLength(1);
    expect(list.data.list[0]).toMatchObject({ amount: 120_000, state: PAYOUT_STATE.awaiting });
    orderCode = list.data.list[0].orderCode;
    await page.getByText(orderCode).first().waitFor();
    await page.context().close();
  });

  it('supplier1 claims it from its queue on a phone, pays and submits the UTR with a receipt; admin confirms; merchant1 reads it completed with the receipt', async () => {
    expect(orderCode).not.toBe('');
    const context = await suite.browser.newContext({ locale: 'en-US', viewport: PHONE });
    const page = await context.newPage();
    await signIn(page, suite.server.url, 'supplier1', suite.secretOf('supplier1'));
    await page.goto(`${suite.server.url}/payProxyOrder/list/supplier`);
    await page.getByTestId('payout-tabs').getByRole('tab', { name: /queue/i }).click();
    const card = page.getByTestId(`payout-queue-card-${orderCode}`);
    await card.waitFor();
    // The payee's details to copy, on a card that fits the phone.
    await card.getByText('50100234567890').waitFor();
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    await page.getByTestId(`payout-queue-claim-${orderCode}`).click();
    await card.waitFor({ state: 'detached' });

    // In its list now, in progress: it pays the payee and submits the UTR.
    await page.getByTestId('payout-tabs').getByRole('tab', { name: 'Payouts', exact: true }).click();
    const submit = page.getByTestId(`payout-submit-${orderCode}`);
    await submit.waitFor();
    await submit.click();
    await page.getByTestId('payout-submit-utr').fill('432112345678');
    // With a picture of the bank's receipt, previewed in the dialog, which still fits the phone.
    await page
      .getByTestId('payout-submit-receipt')
      .locator('input[type=file]')
      .setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: Buffer.from(RECEIPT_PNG, 'base64') });
    await page.getByAltText(`Receipt to send with payout ${orderCode}`).waitFor();
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    await page.getByTestId('payout-submit-send').click();
    await submit.waitFor({ state: 'detached' });
    await context.close();

    // An admin confirms it (the console's confirm needs the second-level password; the API stands in here).
    const admin = await apiLogin(suite.server.url, 'admin', suite.secretOf('admin'), true);
    const found = await apiCall(
      suite.server.url,
      endpoints.payouts.getList,
      { pageIndex: 1, pageSize: 1, orderCode },
      admin,
    );
    const confirmed = await apiCall(
      suite.server.url,
      endpoints.payouts.confirm,
      { orderId: found.data.list[0].id },
      admin,
    );
    expect(confirmed.code, confirmed.msg).toBe(200);

    const merchant = await suite.newPage('en-US');
    await signIn(merchant, suite.server.url, 'merchant1', suite.secretOf('merchant1'));
    await merchant.goto(`${suite.server.url}/payProxyOrder/list/merchant`);
    const row = merchant.locator('tr', { hasText: orderCode });
    await row.getByText('Completed').waitFor();
    // The merchant sees the receipt the supplier attached in the payout's detail.
    await merchant.getByTestId(`payout-detail-${orderCode}`).click();
    const receipt = merchant
      .getByTestId('payout-detail-receipt')
      .getByAltText(`Payment receipt of payout ${orderCode}`);
    await receipt.waitFor();
    expect(await receipt.getAttribute('src')).toBe(`data:image/png;base64,${RECEIPT_PNG}`);
    await merchant.context().close();
  });

  it('merchant1 uploads a payout CSV from its list: the second-level password, a result per row, the list shows the new payout', async () => {
    const page = await suite.newPage('en-US');
    await signIn(page, suite.server.url, 'merchant1', suite.secretOf('merchant1'));
    await page.goto(`${suite.server.url}/payProxyOrder/list/merchant`);
    await page.getByTestId('payout-upload-open').click();
    const file = [
      'mchOrderNo,productId,amount,userName,cardNumber,ifscCode,bankBranch,address',
      'E2E-UPLOAD-1,2001,110000,Asha Rao,50100234567890,HDFC0001234,Koramangala,12 MG Road',
      'E2E-UPLOAD-2,2001,110000,Asha Rao,50100234567890,HDFC1234567,Koramangala,12 MG Road',
    ].join('\r\n');
    await page
      .getByTestId('payout-upload-file')
      .locator('input[type="file"]')
      .setInputFiles({ name: 'payouts.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
    await page.getByTestId('payout-upload-send').click();
    await secondLevel(page);
    await page
      .getByTestId('payout-upload-summary')
      .getByText('2 rows: 1 created, 0 already existed, 1 refused')
      .waitFor();
    expect(await page.getByTestId('payout-upload-result-2').textContent()).toBe('Created');
    expect(await page.getByTestId('payout-upload-message-3').textContent()).toContain('invalid IFSC format');
    await page.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await page.locator('tr', { hasText: 'E2E-UPLOAD-1' }).getByText('Awaiting').waitFor();
    await page.context().close();
  });
});
