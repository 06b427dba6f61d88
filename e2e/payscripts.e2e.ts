import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signIn } from './support/console.js';
import { createDemoOrder } from './support/merchant.js';
import { consoleSuite } from './support/suite.js';

/**
 * Issue 21 item 4 as its users meet it: technical support test-runs the demo's pay script, saves a
 * new version through the second-level password and activates it, gives it the UPI product, and a
 * payer's page of a new UPI order shows what the script renders; the run is in the call records.
 * Technical maintenance sees both pages read-only. axe finds nothing serious on either page at 360 px
 * wide, nor in the test-run dialog.
 */
const suite = consoleSuite();
const url = (path: string) => `${suite.server.url}${path}`;
const PHONE = { width: 360, height: 740 };

async function seriousViolations(page: Page, where: string) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${where}: ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Enters the second-level password in the dialog a token2 action opens. */
async function secondLevel(page: Page) {
  const dialog = page.locator('.ant-modal', { has: page.locator('#secondLevel_password') });
  await dialog.locator('#secondLevel_password').waitFor();
  await dialog.locator('#secondLevel_password').fill('demo1234');
  await dialog.locator('#secondLevel_logInReason').fill('browser test: pay script');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

describe('dynamic pay scripts in the console', () => {
  it('support tests, edits, activates and assigns a script; the payer page shows it; the run is recorded', async () => {
    const page = await suite.newPage('en-US');
    await signIn(page, suite.server.url, 'support', suite.secretOf('support'));
    await page.goto(url('/system/dynamicPayScript'));
    const row = page.locator('tr', { hasText: 'UPI intent link' });
    await row.waitFor();
    const id = (await row.getAttribute('data-row-key')) ?? '';
    expect(id).toMatch(/^\d+$/);

    // Test run of the demo script on the sample order.
    await page.getByTestId(`payscript-test-${id}`).click();
    await page.getByTestId('payscript-run').click();
    await expect.poll(() => page.getByTestId('payscript-result-outcome').textContent()).toBe('OK');
    expect(await page.getByTestId('payscript-result-output').textContent()).toContain('upi://pay?pa=account%40bank');
    expect(await seriousViolations(page, 'test-run dialog')).toEqual([]);
    await page.getByTestId('payscript-run-close').click();

    // A new version, saved and made active at once (second-level password first).
    await page.getByTestId(`payscript-edit-${id}`).click();
    await secondLevel(page);
    const code = page.getByTestId('payscript-editor-code');
    await code.waitFor();
    await code.fill(
      "function render(order) { return { instructions: 'Pay ' + (order.amount / 100).toFixed(2) + ' to ' + order.payee.vpa, payUrl: 'upi://pay?pa=' + order.payee.vpa }; }",
    );
    await page.getByTestId('payscript-editor-activate').check();
    await page.getByTestId('payscript-editor-save').click();
    await page.getByText('Version 2 saved').waitFor();
    await expect.poll(() => page.getByTestId(`payscript-active-${id}`).textContent()).toBe('v2');

    // The UPI product uses it.
    await page.getByTestId(`payscript-more-${id}`).click();
    await page.getByTestId(`payscript-products-${id}`).click();
    const select = page.getByTestId('payscript-products-select');
    await select.click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '1001' }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('payscript-products-save').click();
    await page.getByText('The products using this script are saved').waitFor();

    // A payer's page of a new UPI order shows what the script renders, above the account.
    const order = await createDemoOrder(suite.server.url, { amount: '34500' });
    const vpa = order.payee?.vpa ?? '';
    expect(vpa).not.toBe('');
    const payer = await suite.browser.newContext({ viewport: PHONE, isMobile: true, locale: 'en-US' });
    const payPage = await payer.newPage();
    await payPage.goto(url(`/pay/${order.orderCode}`));
    await payPage.getByTestId('pay-script').waitFor();
    expect(await payPage.getByTestId('pay-script-instructions').textContent()).toBe(`Pay 345.00 to ${vpa}`);
    expect(await payPage.getByTestId('pay-script-link').getAttribute('href')).toBe(`upi://pay?pa=${vpa}`);
    expect(await payPage.getByTestId('pay-payee').isVisible()).toBe(true);
    expect(await seriousViolations(payPage, 'payer page')).toEqual([]);
    await payer.close();

    // Both runs are call records.
    await page.goto(url('/system/dynamicPayScriptRecord'));
    const records = page.getByTestId('payscript-record-list');
    await records.locator('tr', { hasText: order.orderCode }).waitFor();
    expect(await records.locator('tr', { hasText: 'Test run' }).count()).toBeGreaterThan(0);
    await page.context().close();
  }, 240_000);

  it('technical maintenance reads both pages and changes nothing; both pass axe at 360 px', async () => {
    const context = await suite.browser.newContext({ locale: 'zh-CN', viewport: PHONE, isMobile: true });
    const page = await context.newPage();
    try {
      await signIn(page, suite.server.url, 'maintenance', suite.secretOf('maintenance'));
      await page.goto(url('/system/dynamicPayScript/readonly'));
      await page.getByTestId('payscript-list').getByText('UPI intent link').first().waitFor();
      expect(await page.getByTestId('payscript-new').count()).toBe(0);
      expect(await page.locator('[data-testid^="payscript-edit-"]').count()).toBe(0);
      const problems = await seriousViolations(page, 'scripts (phone)');
      await page.goto(url('/system/dynamicPayScriptRecord/readonly'));
      await page.getByTestId('payscript-record-list').waitFor();
      await page
        .locator('.ant-spin-spinning')
        .first()
        .waitFor({ state: 'detached' })
        .catch(() => undefined);
      problems.push(...(await seriousViolations(page, 'records (phone)')));
      expect(problems, problems.join('\n')).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
