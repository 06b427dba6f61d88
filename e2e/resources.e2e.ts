import { describe, expect, it } from 'vitest';
import { signIn } from './support/console.js';
import { consoleSuite } from './support/suite.js';

/**
 * Issue 5 as a supplier meets it: a card-to-card receiving account refused for a bad IFSC with the
 * spec's text, fixed, switched on; admin finds it in the admin list by supplier.
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
    await admin.getByTestId('filter-supplierId').click();
    await admin.locator('.ant-select-item-option', { hasText: '(supplier1)' }).click();
    await admin.getByTestId('list-search').click();
    const list = admin.getByTestId('resource-list');
    await list.locator('tr.ant-table-row', { hasText: 'Night desk ICICI' }).waitFor();
    const rows = await list.locator('tr.ant-table-row').allTextContents();
    expect(rows.every((r) => r.includes('Supplier One'))).toBe(true);
    await admin.context().close();
  });
});
