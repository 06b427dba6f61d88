import { endpoints } from '@paydesk/contract';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type ApiAuth, apiCall, apiLogin } from './support/api.js';
import { signIn } from './support/console.js';
import { createDemoOrder } from './support/merchant.js';
import { consoleSuite } from './support/suite.js';

/**
 * Issue 6 items 6 and 7 as their users meet them: a merchant's server creates an order through the
 * signed API; admin, already looking at the order list, sees it appear without reloading and hears
 * of it from the new-order notifier; the supplier whose account took it confirms it from its own
 * list; customer service supplements another order with a UTR through the second-level password
 * dialog, and the detail drawer's timeline says who did it.
 */
const suite = consoleSuite();
const url = (path: string) => `${suite.server.url}${path}`;
/** POST /v1.0/api/order/create as a merchant's server does it; the order is allocated. */
async function createOrder(amount: string): Promise<string> {
  const order = await createDemoOrder(suite.server.url, { amount });
  expect(order.state).toBe(1); // allocated
  return order.orderCode;
}

let staffAuth: ApiAuth | undefined;
/** The order as staff read it (which supplier's account took it, its state); one API session for the file. */
async function orderAsStaff(orderCode: string) {
  // Each sign-in spends an authenticator step: sign in once (superadmin: the browser uses admin's steps).
  staffAuth ??= await apiLogin(suite.server.url, 'superadmin', suite.secretOf('superadmin'));
  const auth = staffAuth;
  const res = await apiCall(suite.server.url, endpoints.orders.getDetail, { orderCode }, auth);
  expect(res.code, res.msg).toBe(200);
  return res.data.order as { supplierName: string | null; state: number; utr: string | null };
}

const rowOf = (page: Page, orderCode: string): Locator =>
  page.getByTestId('order-list').locator('tr.ant-table-row', { hasText: orderCode });

/** Clicks without waiting for the pointer (a new-order toast may sit over the table's fixed column). */
async function press(target: Locator) {
  await target.waitFor();
  await target.dispatchEvent('click');
}

/** Enters the second-level password in the dialog a token2 call opens (see parties.e2e.ts). */
async function secondLevel(page: Page) {
  // (The supplement dialog mentions the second-level password too: find the dialog by its field.)
  const dialog = page.locator('.ant-modal', { has: page.locator('#secondLevel_password') });
  await dialog.locator('#secondLevel_password').waitFor();
  await dialog.locator('#secondLevel_password').fill('demo1234');
  await dialog.locator('#secondLevel_logInReason').fill('browser test: supplement');
  await dialog.getByRole('button', { name: 'OK' }).click();
}

describe('collection orders in the console', () => {
  it('admin sees a new API order appear in /order/list without reloading, and the notifier tells of it', async () => {
    const admin = await suite.newPage('en-US');
    await signIn(admin, suite.server.url, 'admin', suite.secretOf('admin'));
    await admin.goto(url('/order/list'));
    await admin.getByTestId('order-list').locator('.ant-table').waitFor();
    // Let the realtime socket connect and subscribe before the order is made.
    await admin.waitForTimeout(1500);

    const orderCode = await createOrder('31234');
    const row = rowOf(admin, orderCode);
    await row.waitFor({ timeout: 15_000 });
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('312.34');
    expect(text).toContain('Allocated');
    expect(text).toContain('Merchant One');
    // The new-order notifier polls every 10 s and shows a toast while the order is pending.
    await admin.getByTestId('new-order-toast').filter({ hasText: orderCode }).first().waitFor({ timeout: 15_000 });
    await admin.context().close();
  });

  it('the supplier whose account took the order confirms it from its own list', async () => {
    const orderCode = await createOrder('31235');
    const taken = await orderAsStaff(orderCode);
    const account = taken.supplierName === 'Agent One' ? 'agent1' : 'supplier1';
    expect(['Supplier One', 'Agent One']).toContain(taken.supplierName);

    const page = await suite.newPage('en-US');
    await signIn(page, suite.server.url, account, suite.secretOf(account));
    await page.goto(url('/order/list/supplier'));
    const row = rowOf(page, orderCode);
    await row.waitFor();
    // A supplier may confirm or reject an allocated order, nothing else.
    expect(await row.getByTestId(`order-confirm-${orderCode}`).count()).toBe(1);
    expect(await row.getByTestId(`order-reject-${orderCode}`).count()).toBe(1);
    for (const action of ['supplement', 'reselect', 'freeResource', 'callback', 'reverse']) {
      expect(await row.getByTestId(`order-${action}-${orderCode}`).count()).toBe(0);
    }

    await press(row.getByTestId(`order-confirm-${orderCode}`));
    await press(page.getByTestId('order-ok'));
    await page.getByText('Receipt confirmed').waitFor();
    // The demo merchant has no notify URL: the order is paid for good, no callback in flight.
    await expect.poll(async () => (await row.textContent()) ?? '').toContain('Paid, no callback');
    expect(await row.getByTestId(`order-confirm-${orderCode}`).count()).toBe(0);
    expect((await orderAsStaff(orderCode)).state).toBe(9);
    await page.context().close();
  });

  it('customer service supplements another order with a UTR through the second-level password dialog', async () => {
    const orderCode = await createOrder('31236');
    const utr = `${Date.now()}`.slice(-12);
    const page = await suite.newPage('en-US');
    await signIn(page, suite.server.url, 'service', suite.secretOf('service'));
    await page.goto(url('/order/list/customerService'));
    const row = rowOf(page, orderCode);
    await row.waitFor();

    await press(row.getByTestId(`order-supplement-${orderCode}`));
    // Supplement needs token2 and none is held: the second-level password is asked before the form.
    await secondLevel(page);
    await page.getByTestId('order-supplement-utr').fill(utr);
    await page.getByTestId('order-supplement-submit').click();
    await page.getByText('Order supplemented').waitFor();
    await expect.poll(async () => (await row.textContent()) ?? '').toContain('Paid, no callback');

    const order = await orderAsStaff(orderCode);
    expect(order.state).toBe(9);
    expect(order.utr).toBe(utr);

    // The detail drawer: the timeline names who supplemented it, the ledger shows the payment.
    await press(row.getByTestId(`order-detail-${orderCode}`));
    const drawer = page.getByTestId('order-detail');
    const paid = drawer.getByTestId('order-timeline-entry').filter({ hasText: 'Paid' });
    await paid.first().waitFor();
    expect(await paid.first().textContent()).toContain('service');
    expect(await paid.first().textContent()).toContain(utr);
    await drawer.getByTestId('order-detail-transfers').getByText('Order paid').waitFor();
    await drawer.getByTestId('order-detail-allocation').getByText('Chosen').first().waitFor();
    await page.context().close();
  });
});

describe('the order list at 1366 px (issue 18)', () => {
  let amountSeq = 0;
  const WIDE = { width: 1366, height: 768 };
  const CREATED = { 'zh-CN': '创建时间', 'en-US': 'Created' } as const;
  it.each([
    ['admin', '/order/list', 'zh-CN', true],
    ['admin', '/order/list', 'en-US', true],
    ['service', '/order/list/customerService', 'en-US', true],
    ['supplier1', '/order/list/supplier', 'en-US', true],
    // A merchant takes no action on its orders: no actions column.
    ['merchant1', '/order/list/merchant', 'en-US', false],
  ] as const)('%s at %s (%s): creation time in view, at most two inline actions on one line', async (account, path, locale, acts) => {
    // Two open orders of amounts of their own (an account takes one open order per amount).
    for (let i = 0; i < 2; i += 1) {
      amountSeq += 1;
      await createOrder(String(31_301 + amountSeq));
    }
    const context = await suite.browser.newContext({ locale, viewport: WIDE });
    const page = await context.newPage();
    try {
      await signIn(page, suite.server.url, account, suite.secretOf(account));
      await page.goto(url(path));
      const list = page.getByTestId('order-list');
      await list.locator('tr.ant-table-row').first().waitFor();
      // The creation time's header is on screen without scrolling the table sideways.
      const header = list.locator('th', { hasText: CREATED[locale] }).first();
      const box = await header.boundingBox();
      expect(box, 'creation time column').not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(WIDE.width);
      // Each row: at most two action buttons besides 'more', all on one line.
      const bars = list.locator('[data-testid^="order-actions-"]');
      if (acts) expect(await bars.count()).toBeGreaterThan(0);
      else expect(await bars.count()).toBe(0);
      for (const bar of await bars.all()) {
        const buttons = bar.locator('button');
        const ids = await buttons.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid') ?? ''));
        expect(ids.filter((id) => !id.startsWith('order-more-')).length, ids.join(' ')).toBeLessThanOrEqual(2);
        const tops = new Set<number>();
        for (const b of await buttons.all()) tops.add(Math.round((await b.boundingBox())!.y));
        expect(tops.size, `buttons on ${tops.size} lines: ${ids.join(' ')}`).toBeLessThanOrEqual(1);
      }
    } finally {
      await context.close();
    }
  });
});
