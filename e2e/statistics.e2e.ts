import { endpoints } from '@paydesk/contract';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiLogin } from './support/api.js';
import { signIn } from './support/console.js';
import { createDemoOrder, DEMO_MERCHANT, signOf } from './support/merchant.js';
import { consoleSuite } from './support/suite.js';

/**
 * Issue 22 item 3 as its users meet it: admin, supplier1 and merchant1 each open their collection
 * statistics page and one payout statistics page, choose the last 7 days and see the trend drawn on a
 * canvas and rows in the tables. The browser tests' demo has no order history (seed.ts seedIfEmpty):
 * merchant1's server makes two collection orders and a payout first, and supplier1 claims the payout,
 * so each role has figures of both kinds.
 */
const suite = consoleSuite();
const url = (path: string) => `${suite.server.url}${path}`;

/** POST /v1.0/api/payout/create as merchant1's server does it, signed; answers the payout's code. */
async function createPayout(amount: number): Promise<string> {
  const params: Record<string, string> = {
    mchId: DEMO_MERCHANT.mchId,
    productId: '2001',
    mchOrderNo: `E2ESTATS${Date.now()}`,
    amount: String(amount),
    userName: 'Stats Payee',
    cardNumber: '50100000000777',
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

beforeAll(async () => {
  await createDemoOrder(suite.server.url, { amount: '41234' });
  await createDemoOrder(suite.server.url, { amount: '41235' });
  const orderCode = await createPayout(15_000);
  // Staff look the payout up (superadmin: the browser signs admin in), supplier1 claims it.
  const staff = await apiLogin(suite.server.url, 'superadmin', suite.secretOf('superadmin'));
  const found = await apiCall(
    suite.server.url,
    endpoints.payouts.getList,
    { pageIndex: 1, pageSize: 1, orderCode },
    staff,
  );
  expect(found.code, found.msg).toBe(200);
  const supplier = await apiLogin(suite.server.url, 'supplier1', suite.secretOf('supplier1'));
  const claimed = await apiCall(
    suite.server.url,
    endpoints.payouts.claimOrder,
    { orderId: found.data.list[0].id },
    supplier,
  );
  expect(claimed.code, claimed.msg).toBe(200);
}, 120_000);

/** Opens a statistics page, picks "Last 7 days" in the range, searches, and checks the chart and rows. */
async function seeStatistics(page: Page, path: string) {
  await page.goto(url(path));
  await page.getByTestId('statistics-filters').waitFor();
  await page.getByTestId('filter-time').first().click();
  await page.locator('.ant-picker-presets li', { hasText: 'Last 7 days' }).first().click();
  await page.getByTestId('statistics-search').click();
  const chart = page.getByTestId('statistics-chart');
  await chart.locator('canvas').first().waitFor({ timeout: 15_000 });
  // The answer covers 7 days: seven points by day, or 168 by hour (the table pages them by 24).
  await expect
    .poll(() => page.getByTestId('statistics-series').locator('tr.ant-table-row').count(), { timeout: 15_000 })
    .toBeGreaterThan(0);
  expect(await page.getByTestId('statistics-products').locator('tr.ant-table-row').count()).toBeGreaterThan(0);
  const created = (await page.getByTestId('statistics-card-createdCount').textContent()) ?? '';
  expect(Number(created.replace(/\D/g, ''))).toBeGreaterThan(0);
}

describe('statistics pages in the console', () => {
  it('admin sees collection statistics split by merchant, and payout statistics', async () => {
    const page = await suite.newPage('en-US');
    await signIn(page, suite.server.url, 'admin', suite.secretOf('admin'));
    await seeStatistics(page, '/order/statisticsByMerhcantV2');
    expect(await page.getByTestId('statistics-parties').textContent()).toContain('merchant1');
    expect(await page.getByTestId('statistics-card-platformRevenue').count()).toBe(1);
    await seeStatistics(page, '/payProxyOrder/statistics');
    await page.context().close();
  });

  it('supplier1 sees its collection and payout statistics, with its commission and no platform revenue', async () => {
    const page = await suite.newPage('en-US');
    await signIn(page, suite.server.url, 'supplier1', suite.secretOf('supplier1'));
    await seeStatistics(page, '/order/statistics/supplierV2');
    expect(await page.getByTestId('statistics-card-commission').count()).toBe(1);
    expect(await page.getByTestId('statistics-card-platformRevenue').count()).toBe(0);
    expect(await page.getByTestId('statistics-parties').locator('tr.ant-table-row').count()).toBeGreaterThan(0);
    await seeStatistics(page, '/payProxyOrder/statistics/supplier');
    await page.context().close();
  });

  it('merchant1 sees its collection and payout statistics, with its fees and no supplier commission', async () => {
    const page = await suite.newPage('en-US');
    await signIn(page, suite.server.url, 'merchant1', suite.secretOf('merchant1'));
    await seeStatistics(page, '/order/statistics/merchant');
    expect(await page.getByTestId('statistics-card-fee').count()).toBe(1);
    expect(await page.getByTestId('statistics-card-commission').count()).toBe(0);
    await seeStatistics(page, '/payProxyOrder/statistics/merchant');
    await page.context().close();
  });
});
