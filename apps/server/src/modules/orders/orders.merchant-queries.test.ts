import {
  Code,
  codeCatalogue,
  type Endpoint,
  endpoints,
  MERCHANT_QUERY_TEXTS,
  ORDER_STATE,
  queryBalanceAnswer,
  queryOrderAnswer,
  type SettingKey,
  type SettingValue,
} from '@paydesk/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerAccounts, merchants } from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, snapshot, startTestApp, type TestApp } from '../../testing/harness.js';
import { signed } from '../../testing/merchant-api.js';
import { accountCode } from '../ledger/accounts.js';

/**
 * The merchant API's signed query calls (issue 20 item 2): a collection order by mchOrderNo or
 * orderCode, and the balance, signed like create; only the merchant's own order answers.
 */
const { orders: api, merchants: merchantApi, ledger } = endpoints;
let t: TestApp;
let merchantId = 0;
let service: Auth;
let supplier: Auth;
let admin: Auth;

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimitFactor: 1000 } });
  const [m] = await t.database.db.select().from(merchants).where(eq(merchants.merchantNo, DEMO_MERCHANT_API.mchId));
  merchantId = m!.id;
  service = await t.loginWithToken2('service');
  supplier = await t.login('supplier1');
  admin = await t.loginWithToken2('superadmin');
});
afterAll(() => t.close());

let n = 0;
/** A new order of merchant1 through the signed create; `notify`: with a notify URL (so a callback). */
async function createOrder(notify = true) {
  n += 1;
  const params = {
    mchId: DEMO_MERCHANT_API.mchId,
    productId: '1001',
    mchOrderNo: `QRY${n}`,
    amount: String(20_000 + n * 100 + 3),
    ...(notify ? { notifyUrl: 'http://127.0.0.1:9/notify' } : {}),
  };
  const res = await t.call(api.create, signed(params));
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { orderCode: string; mchOrderNo: string; amount: number };
}

const queryOrder = (keys: Record<string, string>, over: Record<string, string> = {}) =>
  t.call(api.query, signed({ mchId: DEMO_MERCHANT_API.mchId, ...keys, ...over }));
const queryBalance = () => t.call(api.queryBalance, signed({ mchId: DEMO_MERCHANT_API.mchId }));

/** Both keys of an order answer the same, and the answer is the contract's. */
async function answerOf(order: { orderCode: string; mchOrderNo: string }) {
  const byNo = await queryOrder({ mchOrderNo: order.mchOrderNo });
  expect(byNo.body.code, JSON.stringify(byNo.body)).toBe(200);
  const byCode = await queryOrder({ orderCode: order.orderCode });
  expect(byCode.body).toEqual(byNo.body);
  return queryOrderAnswer.strict().parse(byNo.body.data);
}

let utrs = 0;
/** A UTR no other order of the run confirmed. */
function nextUtr() {
  utrs += 1;
  return `7${String(Date.now()).slice(-8)}${String(utrs).padStart(3, '0')}`;
}

const setting = <K extends SettingKey>(key: K, value: SettingValue<K> | undefined) => t.setSetting(key, value);
const setMerchant = (values: Partial<typeof merchants.$inferInsert>) =>
  t.database.db.update(merchants).set(values).where(eq(merchants.id, merchantId));

describe('POST /v1.0/api/order/query', () => {
  it('answers a created order: waiting for the payer, no UTR, no payment, no callback', async () => {
    const order = await createOrder();
    const answer = await answerOf(order);
    expect(answer).toMatchObject({
      orderCode: order.orderCode,
      mchOrderNo: order.mchOrderNo,
      productId: 1001,
      amount: order.amount,
      state: ORDER_STATE.allocated,
      stateName: 'allocated',
      utr: null,
      paidTime: null,
      notificationId: null,
    });
    // 3.50 % of the amount, floored, in the same units as the amount (1/100 for 1001).
    expect(answer.fee).toBe(Math.floor((order.amount * 350) / 10_000));
    expect(new Date(answer.createTime).toISOString()).toBe(answer.createTime);
  });

  it('answers an order paid with a UTR: its UTR, payment time and the callback’s notification id', async () => {
    const order = await createOrder();
    const utr = nextUtr();
    const paid = await t.call(api.replenishmentOrder, { orderCode: order.orderCode, utr }, service);
    expect(paid.body.code, JSON.stringify(paid.body)).toBe(200);
    const answer = await answerOf(order);
    expect(answer).toMatchObject({
      state: ORDER_STATE.paidNotifying,
      stateName: 'paidNotifying',
      utr,
      notificationId: `N${order.orderCode}`,
    });
    expect(answer.paidTime).toBe(t.clock.now().toISOString());
  });

  it('answers an order the supplier confirmed for a merchant without callbacks: paid, no UTR, no notification', async () => {
    const order = await createOrder(false);
    const confirmed = await t.call(api.confirmOrder, { orderCode: order.orderCode }, supplier);
    expect(confirmed.body.code, JSON.stringify(confirmed.body)).toBe(200);
    expect(await answerOf(order)).toMatchObject({
      state: ORDER_STATE.paid,
      stateName: 'paid',
      utr: null,
      notificationId: null,
    });
  });

  it('takes the same call as a form, signed alike', async () => {
    const order = await createOrder();
    const res = await t.app.inject({
      method: 'POST',
      url: api.query.path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(signed({ mchId: DEMO_MERCHANT_API.mchId, mchOrderNo: order.mchOrderNo })).toString(),
    });
    expect(res.json()).toMatchObject({ code: 200, data: { orderCode: order.orderCode } });
  });

  it('answers another merchant’s order exactly as an unknown one: 2012', async () => {
    const order = await createOrder();
    const created = await t.call(
      merchantApi.create,
      { name: 'Query Shop', mode: 'newAccount', account: 'queryshop', password: 'shop2024' },
      admin,
    );
    expect(created.body.code, JSON.stringify(created.body)).toBe(200);
    const other = created.body.data as { merchantNo: string; secret: string };
    const asOther = (keys: Record<string, string>) =>
      t.call(api.query, signed({ mchId: other.merchantNo, ...keys }, 'HMAC-SHA256', other.secret));
    const unknown = await queryOrder({ orderCode: 'C26010100000000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      code: Code.orderNotFound,
      msg: codeCatalogue[Code.orderNotFound].message,
      data: null,
    });
    expect((await asOther({ orderCode: order.orderCode })).body).toEqual(unknown.body);
    expect((await asOther({ mchOrderNo: order.mchOrderNo })).body).toEqual(unknown.body);
    expect((await queryOrder({ mchOrderNo: 'QRY-NEVER' })).body).toEqual(unknown.body);
    // Its own balance is its own: nothing yet.
    const balance = await t.call(api.queryBalance, signed({ mchId: other.merchantNo }, 'HMAC-SHA256', other.secret));
    expect(balance.body.data).toMatchObject({ available: 0, frozen: 0 });
  });

  it('refuses neither key, and both, with 400 and says why', async () => {
    const order = await createOrder();
    const before = await snapshot(t.database);
    const neither: Record<string, string> = {};
    for (const keys of [neither, { mchOrderNo: order.mchOrderNo, orderCode: order.orderCode }]) {
      const res = await queryOrder(keys);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: Code.invalidInput,
        msg: `orderCode: ${MERCHANT_QUERY_TEXTS.oneKey}`,
        data: { issues: [{ path: 'orderCode', message: MERCHANT_QUERY_TEXTS.oneKey }] },
      });
    }
    expect(await snapshot(t.database)).toBe(before);
  });

  it('is rate-limited like create', () => {
    expect(api.query.rateLimit).toEqual(api.create.rateLimit);
    expect(api.queryBalance.rateLimit).toEqual(api.create.rateLimit);
  });
});

describe('POST /v1.0/api/balance/query', () => {
  it('answers the ledger’s balances of the merchant, in 1/100, before and after a paid order', async () => {
    const ledgerBalance = async (bucket: 'available' | 'frozen') =>
      (
        await t.database.db
          .select()
          .from(ledgerAccounts)
          .where(eq(ledgerAccounts.code, accountCode('merchant', merchantId, bucket)))
      )[0]?.balance ?? 0;
    const before = queryBalanceAnswer.strict().parse((await queryBalance()).body.data);
    expect(before).toMatchObject({
      available: await ledgerBalance('available'),
      frozen: await ledgerBalance('frozen'),
    });
    expect(before.currency).toBe('INR');
    expect(before.time).toBe(t.clock.now().toISOString());

    const order = await createOrder();
    await t.call(api.replenishmentOrder, { orderCode: order.orderCode, utr: nextUtr() }, service);
    const { fee } = await answerOf(order);
    const after = (await queryBalance()).body.data as { available: number; frozen: number };
    expect(after.available).toBe(before.available + order.amount - fee);
    expect(after).toMatchObject({ available: await ledgerBalance('available'), frozen: await ledgerBalance('frozen') });
    const check = await t.call(ledger.ledgerCheck, {}, admin);
    expect(check.body.data).toEqual({ ok: true, violations: [] });
  });
});

describe.each([
  ['order/query', () => api.query, { mchOrderNo: 'QRY-ANY' }],
  ['balance/query', () => api.queryBalance, {}],
] as const)('%s: the signed-call checks', (_name, endpointOf, keys) => {
  const send = (over: Record<string, string> = {}, signature?: string) => {
    const params = { mchId: DEMO_MERCHANT_API.mchId, ...keys, ...over };
    return t.call(endpointOf() as Endpoint, signature ? { ...params, sign: signature } : signed(params));
  };

  it('bad signature: 2001', async () => {
    const res = await send({}, 'B'.repeat(64));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: Code.badSignature, msg: codeCatalogue[Code.badSignature].message });
  });

  it('disabled merchant: 2002', async () => {
    await setMerchant({ enabled: false });
    try {
      expect((await send()).body.code).toBe(Code.merchantUnavailable);
    } finally {
      await setMerchant({ enabled: true });
    }
    expect((await send({ mchId: '99999' })).body.code).toBe(Code.merchantUnavailable);
  });

  it('IP not whitelisted: 2003', async () => {
    await setMerchant({ ipWhitelist: ['192.0.2.0/24'] });
    try {
      expect((await send()).body.code).toBe(Code.ipNotWhitelisted);
    } finally {
      await setMerchant({ ipWhitelist: [] });
    }
  });

  it('service closed: 2011', async () => {
    await setting('enableService', false);
    try {
      const res = await send();
      expect(res.status).toBe(503);
      expect(res.body.code).toBe(Code.serviceClosed);
    } finally {
      await setting('enableService', undefined);
    }
  });
});
