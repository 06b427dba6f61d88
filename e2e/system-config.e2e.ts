import AxeBuilder from '@axe-core/playwright';
import { Code, endpoints } from '@paydesk/contract';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiCall, apiLogin } from './support/api.js';
import { signIn } from './support/console.js';
import { DEMO_MERCHANT, signOf } from './support/merchant.js';
import { consoleSuite } from './support/suite.js';

/**
 * The global settings page (issue 21 item 3) as its users meet it: superadmin pauses the service with
 * the second-level password, every page then shows the banner and the merchant API refuses new
 * orders; turned back on, both go. Technical maintenance reads the same page with no change control,
 * on a phone, and it passes axe.
 */
const suite = consoleSuite();
const url = (path: string) => `${suite.server.url}${path}`;

/** Enters the second-level password in the dialog a token2 call opens. */
async function secondLevel(page: Page) {
  const dialog = page.locator('.ant-modal', { has: page.locator('#secondLevel_password') });
  await dialog.locator('#secondLevel_password').waitFor();
  await dialog.locator('#secondLevel_password').fill('demo1234');
  await dialog.locator('#secondLevel_logInReason').fill('browser test: pause the service');
  await dialog.getByRole('button', { name: 'OK' }).click();
}

/** Turns the service switch and confirms (the popconfirm's OK). */
async function turnService(page: Page) {
  await page.getByTestId('config-switch-enableService').click();
  const ok = page.locator('.ant-popconfirm:visible').getByTestId('config-confirm');
  await ok.waitFor();
  await ok.dispatchEvent('click');
}

/** The merchant API's answer code to a new signed order. */
async function merchantCreateCode(): Promise<number> {
  const params = {
    mchId: DEMO_MERCHANT.mchId,
    productId: '1001',
    mchOrderNo: `E2ECFG${Date.now()}`,
    subject: 'Top-up',
    amount: '47811',
  };
  const res = await fetch(url(endpoints.orders.create.path), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...params, sign: signOf(params) }),
  });
  return ((await res.json()) as { code: number }).code;
}

describe('global settings', () => {
  it('superadmin pauses the service with the second-level password: the banner shows and merchants’ orders are refused; then turns it back on', async () => {
    const page = await suite.newPage('en-US');
    try {
      await signIn(page, suite.server.url, 'superadmin', suite.secretOf('superadmin'));
      await page.goto(url('/systemConfig'));
      const value = page.getByTestId('config-value-enableService');
      await expect.poll(() => value.textContent(), { timeout: 15_000 }).toBe('Current value: On');
      expect(await page.getByTestId('service-paused-banner').count()).toBe(0);

      await turnService(page);
      await secondLevel(page);
      await expect.poll(() => value.textContent(), { timeout: 15_000 }).toBe('Current value: Off');
      await expect
        .poll(() => page.getByTestId('config-changed-enableService').textContent(), { timeout: 15_000 })
        .toContain('Changed by superadmin');
      const banner = page.getByTestId('service-paused-banner');
      await banner.waitFor();
      expect(await banner.textContent()).toContain('merchants’ new orders are refused');
      expect(await merchantCreateCode()).toBe(Code.serviceClosed);
      // Every page of the console says so, and the staff work on.
      await page.goto(url('/order/list'));
      await page.getByTestId('service-paused-banner').waitFor();

      await page.goto(url('/systemConfig'));
      await turnService(page); // the second-level password is still held: no dialog this time
      await expect.poll(() => value.textContent(), { timeout: 15_000 }).toBe('Current value: On');
      await expect.poll(() => page.getByTestId('service-paused-banner').count(), { timeout: 15_000 }).toBe(0);
      expect(await merchantCreateCode()).toBe(Code.success);
    } finally {
      // Leave the server running for the next test whatever happened above.
      const boss = await apiLogin(suite.server.url, 'superadmin', suite.secretOf('superadmin'), true);
      await apiCall(suite.server.url, endpoints.systemConfig.setenableService, { enable: true }, boss);
      await page.context().close();
    }
  }, 120_000);

  it('technical maintenance reads every setting on the read-only page, with no change control, on a phone', async () => {
    const context = await suite.browser.newContext({
      locale: 'zh-CN',
      viewport: { width: 360, height: 740 },
      isMobile: true,
    });
    const page = await context.newPage();
    try {
      await signIn(page, suite.server.url, 'maintenance', suite.secretOf('maintenance'));
      await page.goto(url('/systemConfig/readonly'));
      await page.getByTestId('config-readonly').waitFor();
      await page.getByTestId('config-row-enableService').waitFor();
      expect(await page.getByTestId('config-value-OrderTimeoutMinutes').textContent()).toBe('当前值：15 分钟');
      const controls = page.locator(
        '[data-testid^="config-switch-"], [data-testid^="config-edit-"], [data-testid^="config-clear-"]',
      );
      expect(await controls.count()).toBe(0);
      // The search works here too.
      await page.getByTestId('config-search').fill('超时');
      await expect.poll(() => page.locator('[data-testid^="config-row-"]').count()).toBeGreaterThan(0);
      expect(await page.getByTestId('config-row-SysFlag').count()).toBe(0);
      await page.getByTestId('config-search').fill('');
      // Nothing wider than the phone, and no serious accessibility problem.
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
      const { violations } = await new AxeBuilder({ page }).analyze();
      const serious = violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
      expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
