import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chooseOption, signIn } from './support/console.js';
import { consoleSuite } from './support/suite.js';

/**
 * Issue 5 as its users meet it: a card-to-card receiving account refused for a bad IFSC with the
 * spec's text, fixed, switched on; admin finds it in the admin list by supplier. Then supplier1 adds
 * one account of every channel it has a page for and switches each on and off; admin adds a Kenya
 * account for it; admin filters by supplier and product and opens a detail; customer service sees
 * the same rows read-only.
 */
const suite = consoleSuite();
const url = (path: string) => `${suite.server.url}${path}`;

describe('receiving accounts', () => {
  it('supplier1 adds a card-to-card account with a bad IFSC, fixes it, switches it on; admin filters by supplier and sees it', async () => {
    const page = await suite.newPage('en-US');
    await signIn(page, suite.server.url, 'supplier1', suite.secretOf('supplier1'));
    await page.goto(url('/internationalCardToCard/list'));
    await page.getByTestId('resource-create').click();
    const form = page.getByTestId('resource-form');
    await form.getByTestId('resource-form-name').fill('Night desk ICICI');
    await form.getByTestId('resource-form-accountName').fill('Supplier One');
    await form.getByTestId('resource-form-bankName').fill('ICICI Bank');
    await form.getByTestId('resource-form-cardNumber').fill('123456789012');
    await form.getByTestId('resource-form-ifsc').fill('ICIC1234567');
    await page.getByTestId('resource-form-save').click();
    await form.getByText('invalid IFSC format').waitFor();

    await form.getByTestId('resource-form-ifsc').fill('ICIC0004321');
    await page.getByTestId('resource-form-save').click();
    await form.waitFor({ state: 'detached' });
    const row = page.getByTestId('resource-list').locator('tr.ant-table-row', { hasText: 'Night desk ICICI' });
    await row.waitFor();
    // The card number is masked in the list: only its last four digits show.
    expect(await row.textContent()).toContain('9012');
    expect(await row.textContent()).not.toContain('123456789012');

    const toggle = row.locator('[data-testid^="resource-enabled-"]');
    await expect.poll(() => toggle.isEnabled()).toBe(true);
    await toggle.click();
    await page.getByText('opened successfully').waitFor();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
    await page.context().close();

    // Admin: every supplier's accounts, filtered by supplier.
    const admin = await suite.newPage('en-US');
    await signIn(admin, suite.server.url, 'admin', suite.secretOf('admin'));
    await admin.goto(url('/internationalCardToCard/list-admin'));
    await chooseOption(admin, admin.getByTestId('filter-supplierId'), '(supplier1)');
    await admin.getByTestId('list-search').click();
    const list = admin.getByTestId('resource-list');
    await list.locator('tr.ant-table-row', { hasText: 'Night desk ICICI' }).waitFor();
    const rows = await list.locator('tr.ant-table-row').allTextContents();
    expect(rows.every((r) => r.includes('Supplier One'))).toBe(true);
    await admin.context().close();
  });

  it('supplier1 creates one account of each channel it has a supplier page for and switches each on and off; admin filters them, customer service reads them', async () => {
    const supplier = await suite.newPage('en-US');
    await signIn(supplier, suite.server.url, 'supplier1', suite.secretOf('supplier1'));

    await supplier.goto(url('/internationalCardToCard/list'));
    await switchOnAndOff(
      supplier,
      await createResource(supplier, 'E2E card', {
        accountName: 'Supplier One',
        bankName: 'HDFC Bank',
        cardNumber: '5500000000000004',
        ifsc: 'HDFC0004321',
      }),
    );

    // The bank payout page (2001): bank accounts whose payouts suppliers claim by hand.
    await supplier.goto(url('/indiaAutoPayout/list'));
    const payout = { accountName: 'Supplier One', bankName: 'SBI', ifsc: 'SBIN0000456' };
    const bank = await createResource(supplier, 'E2E bank', { ...payout, accountNumber: '44445555666' });
    await switchOnAndOff(supplier, bank);

    // A gateway: its key secret is never shown back, neither in the list nor in the edit form.
    const keySecret = 'rzp_secret_E2E_never_shown_9Qz';
    await supplier.goto(url('/razorpayPayProxy/list'));
    const gateway = await createResource(supplier, 'E2E gateway', {
      baseUrl: 'https://api.razorpay.com',
      keyId: 'rzp_live_E2E',
      keySecret,
      webhookSecret: 'rzp_hook_E2E_never_shown_7Kp',
      accountNumber: '2323230041626905',
    });
    expect(await gateway.textContent()).toContain('set');
    await gateway.locator('[data-testid^="resource-edit-"]').click();
    const editForm = modal(supplier).getByTestId('resource-form');
    expect(await editForm.getByTestId('resource-form-keySecret').inputValue()).toBe('');
    expect(await editForm.getByTestId('resource-form-webhookSecret').inputValue()).toBe('');
    expect(await editForm.getByTestId('resource-form-keyId').inputValue()).toBe('rzp_live_E2E');
    await modal(supplier).getByRole('button', { name: 'Cancel' }).click();
    await editForm.waitFor({ state: 'detached' });
    expect(await supplier.content()).not.toContain(keySecret);
    expect(await supplier.content()).not.toContain('rzp_hook_E2E_never_shown_7Kp');
    await switchOnAndOff(supplier, gateway);
    // India auto payout (2002) is paid through a gateway too: its account is a gateway account of this page.
    const auto = await createResource(
      supplier,
      'E2E auto',
      {
        baseUrl: 'https://api.razorpay.com',
        keyId: 'rzp_live_E2E_auto',
        keySecret: 'rzp_secret_E2E_auto_3Hd',
        webhookSecret: 'rzp_hook_E2E_auto_8Lm',
        accountNumber: '2323230041626906',
      },
      'India auto payout',
    );
    expect(await auto.textContent()).toContain('India auto payout');
    await switchOnAndOff(supplier, auto);

    // USDT wallets: the QR code is rendered from the address before the switch works.
    await supplier.goto(url('/uSDTFloating/list'));
    const wallet = await createResource(supplier, 'E2E wallet', { address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7' });
    await wallet.locator('[data-testid^="resource-qr-"]').waitFor();
    await switchOnAndOff(supplier, wallet);
    await supplier.goto(url('/uSDTPayProxy/list'));
    const usdtOut = await createResource(supplier, 'E2E usdt out', {
      address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
    });
    await usdtOut.locator('[data-testid^="resource-qr-"]').waitFor();
    await switchOnAndOff(supplier, usdtOut);

    // Other channels: UPI (its QR from the UPI ID), WeChat on its page, Alipay on "others"; QR images uploaded.
    await supplier.goto(url('/otherChannel/cardToCard'));
    const upi = await createResource(supplier, 'E2E upi', {
      accountName: 'Supplier One',
      bankName: 'SBI',
      cardNumber: '30001234999',
      ifsc: 'SBIN0004999',
      vpa: 'supplier.one@sbi',
    });
    await upi.locator('[data-testid^="resource-qr-"]').waitFor();
    await switchOnAndOff(supplier, upi);
    await supplier.goto(url('/otherChannel/wechat'));
    const wechat = await createResource(supplier, 'E2E wechat', { accountName: 'Li Wei' });
    await uploadQr(supplier, wechat);
    await switchOnAndOff(supplier, wechat);
    await supplier.goto(url('/otherChannel/others'));
    const alipay = await createResource(
      supplier,
      'E2E alipay',
      { accountName: 'Zhang San', paymentLink: 'https://pay.example.com/alipay/e2e' },
      'Alipay',
    );
    await uploadQr(supplier, alipay);
    await switchOnAndOff(supplier, alipay);
    // "Others" lists every other-channel product together.
    const others = await names(supplier);
    for (const name of ['E2E upi', 'E2E wechat', 'E2E alipay']) expect(others).toContain(name);
    expect(others).not.toContain('E2E card');
    await supplier.context().close();

    // Admin: Kenya has admin pages only, so admin adds supplier1's Kenya account.
    const admin = await suite.newPage('en-US');
    await signIn(admin, suite.server.url, 'admin', suite.secretOf('admin'));
    await admin.goto(url('/kenya/list-admin'));
    const kenya = await createResource(
      admin,
      'E2E kenya',
      { phone: '254712345678', accountName: 'Wanjiru' },
      undefined,
      '(supplier1)',
    );
    expect(await kenya.textContent()).toContain('Supplier One');
    await switchOnAndOff(admin, kenya);

    // Filter by supplier and product; the detail shows 0 processing orders (there are no orders yet).
    await admin.goto(url('/razorpayPayProxy/list-admin'));
    await filterBy(admin, '(supplier1)', 'India auto payout');
    const adminRows = await names(admin);
    expect(adminRows).toContain('E2E auto');
    expect(adminRows).not.toContain('E2E gateway');
    const adminTexts = await rowTexts(admin);
    expect(adminTexts.every((r) => r.includes('Supplier One') && r.includes('India auto payout'))).toBe(true);
    await rowOf(admin, 'E2E auto').locator('[data-testid^="resource-detail-"]').click();
    const drawer = admin.getByTestId('resource-detail');
    expect(await drawer.getByTestId('resource-detail-processing-count').textContent()).toBe('0');
    expect(await drawer.getByTestId('resource-detail-processing-amount').textContent()).toBe('0.00');
    expect(await drawer.textContent()).toContain('India auto payout');
    await admin.context().close();

    // Customer service: the same rows, nothing to create, edit, select or switch.
    const service = await suite.newPage('en-US');
    await signIn(service, suite.server.url, 'service', suite.secretOf('service'));
    await service.goto(url('/razorpayPayProxy/list-admin/customerService'));
    await filterBy(service, '(supplier1)', 'India auto payout');
    expect(await names(service)).toEqual(adminRows);
    await expectReadOnly(service);
    await rowOf(service, 'E2E auto').locator('[data-testid^="resource-detail-"]').click();
    expect(await service.getByTestId('resource-detail-processing-count').textContent()).toBe('0');
    await service.keyboard.press('Escape');
    await service.goto(url('/kenya/list-admin/customerService'));
    await rowOf(service, 'E2E kenya').waitFor();
    await expectReadOnly(service);
    await service.context().close();
  }, 300_000);
});

const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const modal = (page: Page) => page.locator('.ant-modal');
const list = (page: Page) => page.getByTestId('resource-list');
const rowOf = (page: Page, name: string) => list(page).locator('tr.ant-table-row', { hasText: name });

/** Adds a resource through the form (optionally choosing its product and supplier) and returns its row. */
async function createResource(
  page: Page,
  name: string,
  fields: Record<string, string>,
  product?: string,
  supplier?: string,
): Promise<Locator> {
  await page.getByTestId('resource-create').click();
  const form = modal(page).getByTestId('resource-form');
  await form.waitFor();
  if (supplier) {
    await chooseOption(page, form.getByTestId('resource-form-supplier'), supplier);
  }
  if (product) {
    await chooseOption(page, form.getByTestId('resource-form-product'), product);
  }
  await form.getByTestId('resource-form-name').fill(name);
  for (const [field, value] of Object.entries(fields)) await form.getByTestId(`resource-form-${field}`).fill(value);
  await modal(page).getByTestId('resource-form-save').click();
  await form.waitFor({ state: 'detached' });
  const row = rowOf(page, name);
  await row.waitFor();
  return row;
}

/** Switches a new (disabled) resource on, then off, once its QR (if any) has loaded. */
async function switchOnAndOff(page: Page, row: Locator) {
  const toggle = row.locator('[data-testid^="resource-enabled-"]');
  expect(await toggle.getAttribute('aria-checked')).toBe('false');
  await expect.poll(() => toggle.isEnabled()).toBe(true);
  await toggle.click();
  await page.locator('.ant-message-notice', { hasText: 'opened successfully' }).first().waitFor();
  await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
  await expect.poll(() => toggle.isEnabled()).toBe(true);
  await toggle.click();
  await page.locator('.ant-message-notice', { hasText: 'closed successfully' }).first().waitFor();
  await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
}

/** Uploads a small PNG as the row's QR image (its 'upload' action opens the picker) and waits until the row shows it. */
async function uploadQr(page: Page, row: Locator) {
  await row.locator('[data-testid^="resource-upload-"]').click();
  const picker = modal(page).getByTestId('resource-upload-file');
  await picker.waitFor();
  await modal(page).locator('.ant-upload input[type=file]').setInputFiles({
    name: 'qr.png',
    mimeType: 'image/png',
    buffer: PNG_1x1,
  });
  await page.locator('.ant-message-notice', { hasText: 'QR image uploaded' }).first().waitFor();
  await picker.waitFor({ state: 'detached' });
  await row.locator('img[data-testid^="resource-qr-"]').waitFor();
}

/** The names of the listed resources. */
async function names(page: Page): Promise<string[]> {
  await list(page).locator('tr.ant-table-row').first().waitFor();
  return list(page).locator('[data-testid^="resource-detail-"]').allTextContents();
}
const rowTexts = (page: Page) => list(page).locator('tr.ant-table-row').allTextContents();

/** Filters the list by supplier and product and waits until every row is of them. */
async function filterBy(page: Page, supplier: string, product: string) {
  await chooseOption(page, page.getByTestId('filter-supplierId'), supplier);
  await chooseOption(page, page.getByTestId('filter-productId'), product);
  await page.getByTestId('list-search').click();
  await expect
    .poll(async () => {
      const rows = await rowTexts(page);
      return rows.length > 0 && rows.every((r) => r.includes(product));
    })
    .toBe(true);
}

/** No create, bulk, edit, delete or select controls; every switch is disabled. */
async function expectReadOnly(page: Page) {
  await list(page).locator('tr.ant-table-row').first().waitFor();
  for (const selector of [
    '[data-testid="resource-create"]',
    '[data-testid="resource-bulk-enable"]',
    '[data-testid^="resource-edit-"]',
    '[data-testid^="resource-delete-"]',
    '[data-testid^="resource-select-"]',
    '[data-testid^="resource-upload-"]',
  ]) {
    expect(await page.locator(selector).count(), selector).toBe(0);
  }
  const toggles = list(page).locator('[data-testid^="resource-enabled-"]');
  expect(await toggles.count()).toBeGreaterThan(0);
  for (const toggle of await toggles.all()) expect(await toggle.isDisabled()).toBe(true);
}
