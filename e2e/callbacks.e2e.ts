import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { endpoints } from '@paydesk/contract';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiAuth, apiCall, apiLogin } from './support/api.js';
import { signIn } from './support/console.js';
import { createDemoOrder, DEMO_MERCHANT, signOf } from './support/merchant.js';
import { consoleSuite } from './support/suite.js';

/**
 * Issue 6 item 5 in the console: a merchant's server creates an order whose notifyUrl points at a
 * local receiver, the supplier confirms it, and admin finds its callback in /system/orderCallback
 * (refused deletion while it is pending, replays arriving live, the attempts drawer), then sends a test
 * callback of the order from /system/orderSendTest to the receiver and reads the exchange.
 *
 * The server runs its background jobs as `npm start` does: a receiver path answering 500 keeps a
 * callback pending (retried 15 s later), another answering SUCCESS sees it delivered, and admin finds
 * it succeeded with its attempt in /system/orderCallbackDetail.
 */
const suite = consoleSuite({ jobs: true });
const url = (path: string) => `${suite.server.url}${path}`;

// ---- the merchant's callback receiver: answers SUCCESS to every POST and remembers it ----

interface Received {
  path: string;
  contentType: string | undefined;
  params: Record<string, string>;
}
const received: Received[] = [];
let receiver: Server;
let receiverBase = '';

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => {
      raw += chunk.toString('utf8');
    });
    req.on('end', () => {
      received.push({
        path: (req.url ?? '').split('?')[0]!,
        contentType: req.headers['content-type'],
        params: Object.fromEntries(new URLSearchParams(raw)),
      });
      // A merchant whose handler is broken on /fail paths: the callback stays pending (retried).
      if ((req.url ?? '').includes('/fail')) res.writeHead(500, { 'content-type': 'text/plain' }).end('error');
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('SUCCESS');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  receiver?.closeAllConnections();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

// ---- set-up through the API, as the merchant's server and the supplier do it ----

/** POST /v1.0/api/order/create, signed with HMAC-SHA256, with the receiver as notifyUrl. */
async function createOrder(amount: string, notifyUrl: string): Promise<string> {
  const order = await createDemoOrder(suite.server.url, { amount, notifyUrl, subject: 'Callback test' });
  expect(order.state).toBe(1); // allocated
  return order.orderCode;
}

let staffAuth: ApiAuth | undefined;
/** superadmin's API session (the browser signs in as admin: their authenticator steps stay apart). */
async function staff(): Promise<ApiAuth> {
  staffAuth ??= await apiLogin(suite.server.url, 'superadmin', suite.secretOf('superadmin'));
  return staffAuth;
}

/** The supplier whose account took the order confirms the payment through the API. */
async function confirmAsSupplier(orderCode: string) {
  const detail = await apiCall(suite.server.url, endpoints.orders.getDetail, { orderCode }, await staff());
  expect(detail.code, detail.msg).toBe(200);
  const supplierName = (detail.data.order as { supplierName: string | null }).supplierName;
  expect(['Supplier One', 'Agent One']).toContain(supplierName);
  const account = supplierName === 'Agent One' ? 'agent1' : 'supplier1';
  const auth = await apiLogin(suite.server.url, account, suite.secretOf(account));
  const res = await apiCall(suite.server.url, endpoints.orders.confirmOrder, { orderCode }, auth);
  expect(res.code, res.msg).toBe(200);
  expect(res.data.state).toBe(6); // paid, notifying
}

// ---- the console ----

let admin: Page | undefined;
/** One signed-in admin page for the file (each sign-in spends one of admin's authenticator steps). */
async function adminPage(): Promise<Page> {
  if (!admin) {
    admin = await suite.newPage('en-US');
    await signIn(admin, suite.server.url, 'admin', suite.secretOf('admin'));
  }
  return admin;
}
afterAll(async () => {
  await admin?.context().close();
});

const callbackRows = (page: Page, orderCode: string): Locator =>
  page.getByTestId('callback-list').locator('tr.ant-table-row', { hasText: orderCode });

let paidOrder = '';

describe('merchant callbacks in the console', () => {
  it('admin finds a paid order’s callback, is not offered deleting it while pending, and sees replays arrive live', async () => {
    const notifyUrl = `${receiverBase}/notify/fail`;
    paidOrder = await createOrder('32101', notifyUrl);
    await confirmAsSupplier(paidOrder);

    const page = await adminPage();
    await page.goto(url('/system/orderCallback'));
    const rows = callbackRows(page, paidOrder);
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    const row = rows.first();
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('Delivering');
    expect(text).toContain('Payment');
    expect(text).toContain('Paid, notifying');
    expect(text).toContain(notifyUrl);
    expect(text).toContain('Merchant One (10001)');
    const id = ((await row.locator('[data-testid^="callback-row-"]').getAttribute('data-testid')) ?? '').replace(
      'callback-row-',
      '',
    );
    expect(Number(id)).toBeGreaterThan(0);

    // Its attempts: the merchant answered 500, so it stays pending and is retried on the schedule.
    await page.getByTestId(`callback-attempts-${id}`).click();
    const drawer = page.getByTestId('callback-attempts');
    await drawer.getByText(`Attempts of callback #${id}`).waitFor();
    expect(await drawer.textContent()).toContain(`N${paidOrder}`);
    await page.locator('.ant-drawer-close').click();
    await drawer.waitFor({ state: 'hidden' });

    // A callback still being delivered cannot be deleted (the server refuses it): it is not offered.
    await page.getByTestId(`callback-replay-${id}`).waitFor();
    expect(await page.getByTestId(`callback-delete-${id}`).count()).toBe(0);
    expect(await rows.count()).toBe(1);

    // Another staff member replays it through the API: the row arrives without a reload.
    await page.waitForTimeout(1500); // the realtime socket connects and subscribes
    const replay = await apiCall(suite.server.url, endpoints.callbacks.replay, { id: Number(id) }, await staff());
    expect(replay.code, replay.msg).toBe(200);
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
    const replayed = page.getByTestId(`callback-row-${replay.data.callbackId}`).locator('xpath=ancestor::tr');
    expect(await replayed.textContent()).toContain('Replay');

    // Admin replays from the console after confirming.
    await page.getByTestId(`callback-replay-${id}`).click();
    const answered = page.waitForResponse((r) => r.url().includes(endpoints.callbacks.replay.path));
    await page.getByTestId('callback-ok').click();
    // The server's answer first (its message says why when it is not 200), then what the admin reads.
    const answer = (await (await answered).json()) as { code: number; msg: string };
    expect(answer.code, answer.msg).toBe(200);
    await page.getByText(/Replayed: new callback #\d+/).waitFor();
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(3);

    // The filter finds exactly this order's callbacks; the CSV link carries it.
    await page.getByTestId('filter-orderCode').fill(paidOrder);
    await page.getByTestId('list-search').click();
    await expect
      .poll(() => page.getByTestId('callback-list').locator('tr.ant-table-row').count(), { timeout: 15_000 })
      .toBe(3);
    const href = (await page.getByTestId('export-csv').getAttribute('href')) ?? '';
    expect(href).toContain(`orderCode=${paidOrder}`);
    const csv = await page.evaluate(async (h) => (await fetch(h, { credentials: 'include' })).text(), href);
    expect(csv.split('\n')[0]).toContain('orderCode');
    expect(csv.split('\n').filter((line) => line.includes(paidOrder))).toHaveLength(3);
  });

  it('admin sends a test callback of the order to the receiver and sees status 200 and the answer', async () => {
    expect(paidOrder).not.toBe('');
    const page = await adminPage();
    await page.goto(url('/system/orderSendTest'));
    await page.getByTestId('sendtest-source-order').click();
    const target = `${receiverBase}/notify/test`;
    await page.getByTestId('sendtest-url').fill(target);
    await page.getByTestId('sendtest-orderCode').fill(paidOrder);
    await page.getByTestId('sendtest-send').click();
    const result = page.getByTestId('sendtest-result');
    await result.waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('sendtest-exchange-status').textContent()).toBe('200');
    expect(await page.getByTestId('sendtest-exchange-response').textContent()).toBe('SUCCESS');
    expect(await page.getByTestId('sendtest-exchange-signed-with').textContent()).toBe('merchant 10001 (HMAC-SHA256)');
    expect(await page.getByTestId('sendtest-verdict').textContent()).toContain('would count as delivered');
    const shown = (await page.getByTestId('sendtest-exchange-request').textContent()) ?? '';
    expect(shown).toContain(`orderCode=${paidOrder}`);
    expect(shown).toContain(`notificationId=N${paidOrder}`);

    // The receiver got exactly that form, signed with merchant1's key.
    const got = received.filter((r) => r.path === '/notify/test');
    expect(got).toHaveLength(1);
    expect(got[0]!.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    const { sign: signature, ...fields } = got[0]!.params;
    expect(fields.orderCode).toBe(paidOrder);
    expect(fields.mchId).toBe(DEMO_MERCHANT.mchId);
    expect(signature).toBe(signOf(fields));
    expect(shown).toBe(
      Object.entries(got[0]!.params)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n'),
    );
  });

  it('a paid order’s callback is delivered by the background jobs: succeeded in the list, its attempt in the detail', async () => {
    const orderCode = await createOrder('32203', `${receiverBase}/notify/ok`);
    await confirmAsSupplier(orderCode);
    // The merchant's server received the signed notification once.
    await expect
      .poll(() => received.filter((r) => r.params.orderCode === orderCode).length, { timeout: 20_000 })
      .toBe(1);

    const page = await adminPage();
    await page.goto(url('/system/orderCallback'));
    await page.getByTestId('filter-orderCode').fill(orderCode);
    await page.getByTestId('list-search').click();
    const row = callbackRows(page, orderCode).first();
    await expect.poll(async () => (await row.textContent()) ?? '', { timeout: 15_000 }).toContain('Succeeded');
    expect(await row.textContent()).toContain('Callback succeeded');

    await page.goto(url('/system/orderCallbackDetail'));
    await page.getByTestId('filter-orderCode').fill(orderCode);
    await page.getByTestId('list-search').click();
    const attempts = page.locator('tr.ant-table-row', { hasText: orderCode });
    await expect.poll(() => attempts.count(), { timeout: 15_000 }).toBe(1);
    const text = (await attempts.first().textContent()) ?? '';
    expect(text).toContain('200');
    expect(text).toContain('Yes');
  });
});
