import {
  Code,
  endpoints,
  MERCHANT_API_TEXTS,
  ORDER_STATE,
  type SettingKey,
  type SettingValue,
} from '@paydesk/contract';
import { parse } from 'csv-parse/sync';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ledgerAccounts,
  ledgerTransfers,
  merchants,
  orderCallbacks,
  orderEvents,
  orders,
  partyProducts,
  resources,
  suppliers,
  users,
} from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { DEMO_ACCOUNTS } from '../../seed/seed.js';
import { type Auth, snapshot, startTestApp, type TestApp } from '../../testing/harness.js';
import { revenueAccountCode } from '../ledger/accounts.js';
import { signParams } from './signature.js';

const { orders: api, ledger } = endpoints;
let t: TestApp;
const as = new Map<string, Auth>();
const auth = (account: string) => as.get(account)!;
let merchantId = 0;
let merchantName = '';
const supplierIdOf = new Map<string, number>();

/** Fresh sessions with token2 for every demo account (token2 lasts 15 minutes of the test clock). */
async function signInAll() {
  for (const demo of DEMO_ACCOUNTS) as.set(demo.account, await t.loginWithToken2(demo.account));
}

beforeAll(async () => {
  t = await startTestApp();
  await signInAll();
  const [m] = await t.database.db.select().from(merchants);
  merchantId = m!.id;
  merchantName = m!.name;
  for (const s of await t.database.db
    .select({ id: suppliers.id, account: users.account })
    .from(suppliers)
    .innerJoin(users, eq(users.id, suppliers.userId))) {
    supplierIdOf.set(s.account, s.id);
  }
});
afterAll(() => t.close());

let orderNo = 0;
/** A signed create request of merchant1 (demo credentials), with `over` applied before signing. */
function signed(
  over: Record<string, unknown> = {},
  secret: string = DEMO_MERCHANT_API.secret,
  signType: 'HMAC-SHA256' | 'MD5' = 'HMAC-SHA256',
) {
  orderNo += 1;
  const params: Record<string, unknown> = {
    mchId: DEMO_MERCHANT_API.mchId,
    productId: '1001',
    mchOrderNo: `T${Date.now()}${orderNo}`,
    amount: String(10_000 + orderNo * 100 + 7),
    notifyUrl: 'http://127.0.0.1:9/notify',
    subject: 'Top-up',
    ...over,
  };
  return { ...params, mchOrderNo: String(params.mchOrderNo), sign: signParams(params, secret, signType) };
}

async function create(over: Record<string, unknown> = {}) {
  return t.call(api.create, signed(over));
}

async function createOk(over: Record<string, unknown> = {}) {
  const res = await create(over);
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data as {
    orderCode: string;
    amount: number;
    state: number;
    payUrl: string;
    payee: Record<string, unknown>;
  };
}

const orderOf = async (orderCode: string) =>
  (await t.database.db.select().from(orders).where(eq(orders.orderCode, orderCode)))[0]!;
const balance = async (code: string) =>
  (await t.database.db.select().from(ledgerAccounts).where(eq(ledgerAccounts.code, code)))[0]?.balance ?? 0;

async function expectLedgerOk() {
  const res = await t.call(ledger.ledgerCheck, {}, auth('superadmin'));
  expect(res.body.data).toEqual({ ok: true, violations: [] });
}

const engine = () => t.app.services.orders;

/** Each order's first allocation posted its supplier's hold. */
async function expectHeld(rows: Array<{ orderCode: string }>) {
  for (const r of rows) {
    const [hold] = await t.database.db
      .select()
      .from(ledgerTransfers)
      .where(eq(ledgerTransfers.idempotencyKey, `${r.orderCode}:hold:1`));
    expect(hold?.type).toBe('orderHold');
  }
}

/** How many switched-on receiving accounts product 1001 has. */
const openAccounts = async () =>
  (
    await t.database.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(resources)
      .where(sql`${resources.productId} = 1001 and ${resources.state} = 0 and ${resources.deletedAt} is null`)
  )[0]!.n;

/** Sets (or, with undefined, removes) a system setting and makes the engine read it now. */
const setting = <K extends SettingKey>(key: K, value: SettingValue<K> | undefined) => t.setSetting(key, value);

describe('merchant API: signature and checks', () => {
  it('creates an allocated order with an HMAC-SHA256 signature and answers what the payer pays to', async () => {
    const data = await createOk({ amount: '12345' });
    expect(data.state).toBe(ORDER_STATE.allocated);
    expect(data.amount).toBe(12_345);
    expect(data.payUrl).toMatch(new RegExp(`/pay/${data.orderCode}$`));
    expect(data.payee.kind).toBe('upi');
    expect(String(data.payee.upiLink)).toContain('am=123.45');
    const order = await orderOf(data.orderCode);
    // 3.50 % of 123.45 = 4.32 (floored)
    expect(order.fee).toBe(432);
    expect(order.holdOpen).toBe(true);
  });

  it('accepts a form-encoded body signed the same way', async () => {
    const body = signed({ amount: '12399' });
    const res = await t.app.inject({
      method: 'POST',
      url: api.create.path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(body as Record<string, string>).toString(),
    });
    expect(res.json().code, res.body).toBe(200);
  });

  it('refuses a wrong key, a tampered amount and a missing sign, and keeps nothing', async () => {
    const before = await snapshot(t.database);
    const wrongKey = await t.call(api.create, signed({}, 'not-the-secret'));
    expect(wrongKey.body.code).toBe(Code.badSignature);
    expect(wrongKey.status).toBe(403);
    const tampered = { ...signed({ amount: '20000' }), amount: '20001' };
    expect((await t.call(api.create, tampered)).body.code).toBe(Code.badSignature);
    const { sign: _s, ...unsigned } = signed();
    const missing = await t.call(api.create, unsigned);
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe(Code.invalidInput);
    expect(await snapshot(t.database)).toBe(before);
  });

  it('names what is wrong: each missing field is required, a value of another type is refused, nothing kept', async () => {
    const before = await snapshot(t.database);
    const empty = await t.call(api.create, {});
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ code: Code.invalidInput, msg: 'mchId: required' });
    expect(empty.body.data.issues).toEqual(
      ['mchId', 'productId', 'mchOrderNo', 'amount', 'sign'].map((path) => ({ path, message: 'required' })),
    );
    const nested = await t.call(api.create, { ...signed(), extra: { userId: { id: 1 } } });
    expect(nested.body).toMatchObject({ code: Code.invalidInput, msg: 'extra: must be text or a number' });
    const badNo = await t.call(api.create, signed({ mchOrderNo: 'no spaces' }));
    expect(badNo.body.msg).toBe(`mchOrderNo: ${MERCHANT_API_TEXTS.mchOrderNo}`);
    expect(await snapshot(t.database)).toBe(before);
  });

  it('checks MD5 signatures for a merchant switched to MD5', async () => {
    await t.database.db.update(merchants).set({ signType: 'MD5' }).where(eq(merchants.id, merchantId));
    try {
      expect((await t.call(api.create, signed({}, DEMO_MERCHANT_API.secret, 'HMAC-SHA256'))).body.code).toBe(
        Code.badSignature,
      );
      const res = await t.call(api.create, signed({ amount: '15000' }, DEMO_MERCHANT_API.secret, 'MD5'));
      expect(res.body.code, JSON.stringify(res.body)).toBe(200);
    } finally {
      await t.database.db.update(merchants).set({ signType: 'HMAC-SHA256' }).where(eq(merchants.id, merchantId));
    }
  });

  it('is idempotent on mchOrderNo: the same content gives the same order, other content 2005', async () => {
    const body = signed({ amount: '16000' });
    const first = await t.call(api.create, body);
    const again = await t.call(api.create, body);
    expect(again.body.data.orderCode).toBe(first.body.data.orderCode);
    const other = signed({ mchOrderNo: body.mchOrderNo, amount: '16100' });
    const clash = await t.call(api.create, other);
    expect(clash.body.code).toBe(Code.duplicateOrderNo);
    expect(
      (
        await t.database.db
          .select()
          .from(orders)
          .where(eq(orders.merchantOrderNo, String(body.mchOrderNo)))
      ).length,
    ).toBe(1);
  });

  it('refuses an address outside the whitelist, a disabled merchant, a product not enabled, amounts out of range', async () => {
    await t.database.db
      .update(merchants)
      .set({ ipWhitelist: ['192.0.2.0/24'] })
      .where(eq(merchants.id, merchantId));
    expect((await create()).body.code).toBe(Code.ipNotWhitelisted);
    const fromInside = await t.call(api.create, signed({ amount: '17000' }), { ip: '192.0.2.7' });
    expect(fromInside.body.code).toBe(200);
    await t.database.db.update(merchants).set({ ipWhitelist: [], enabled: false }).where(eq(merchants.id, merchantId));
    expect((await create()).body.code).toBe(Code.merchantUnavailable);
    await t.database.db.update(merchants).set({ enabled: true }).where(eq(merchants.id, merchantId));
    expect((await create({ productId: '1002' })).body.code).toBe(Code.productUnavailable);
    expect((await create({ productId: '2001' })).body.code).toBe(Code.productUnavailable);
    const low = await create({ amount: '9999' });
    expect(low.body.code).toBe(Code.amountOutOfRange);
    expect(low.body.msg).toContain('between 10000 and 5000000');
    expect((await create({ amount: '5000001' })).body.code).toBe(Code.amountOutOfRange);
  });

  it('product 1045 takes amounts in 1/10000 and refuses ones that would lose precision', async () => {
    const [merchantUser] = await t.database.db.select().from(merchants).where(eq(merchants.id, merchantId));
    await t.database.db
      .insert(partyProducts)
      .values({ userId: merchantUser!.userId, productId: 1045, enabled: true, feeRate: 100, updatedAt: new Date() });
    expect((await create({ productId: '1045', amount: '1500001' })).body.code).toBe(Code.amountPrecision);
    // 1045 has no receiving account in the demo: kept as allocation failed (2008, with the order code).
    const res = await create({ productId: '1045', amount: '1500000' });
    expect(res.body.code).toBe(Code.allocationFailed);
    const order = await orderOf(res.body.data.orderCode);
    expect(order.amount).toBe(15_000);
    expect(order.apiAmount).toBe(1_500_000);
    expect(order.state).toBe(ORDER_STATE.allocationFailed);
  });
});

describe('allocation', () => {
  it('gives each open order of the same amount its own account, holds the supplier’s money, then fails', async () => {
    const amount = '23456';
    const accounts = await openAccounts();
    expect(accounts).toBeGreaterThanOrEqual(2);
    const made: string[] = [];
    for (let i = 0; i < accounts; i += 1) made.push((await createOk({ amount })).orderCode);
    const rows = await Promise.all(made.map(orderOf));
    expect(new Set(rows.map((r) => r.resourceId)).size).toBe(accounts);
    await expectHeld(rows);
    const extra = await create({ amount });
    expect(extra.body.code).toBe(Code.allocationFailed);
    expect(extra.body.msg).toBe('allocation failed');
    const info = await t.call(api.getOrderAllocateInfo, { orderCode: extra.body.data.orderCode }, auth('admin'));
    const outcomes = info.body.data.attempts[0].candidates.map((c: { outcome: string }) => c.outcome);
    expect(outcomes.filter((o: string) => o === 'sameAmountOpen')).toHaveLength(accounts);
    // Freeing them makes room again.
    for (const code of made)
      expect((await t.call(api.reject, { orderCode: code, rejectReason: 'test' }, auth('admin'))).body.code).toBe(200);
    await expectLedgerOk();
  });

  it('skips a disabled supplier and a supplier whose balance does not cover the amount', async () => {
    const agent = supplierIdOf.get('agent1')!;
    await t.database.db.update(suppliers).set({ enabled: false }).where(eq(suppliers.id, agent));
    try {
      const order = await orderOf((await createOk({ amount: '31000' })).orderCode);
      expect(order.supplierId).toBe(supplierIdOf.get('supplier1'));
    } finally {
      await t.database.db.update(suppliers).set({ enabled: true }).where(eq(suppliers.id, agent));
    }
    // 30,000.00 is above agent1's 20,000.00 balance: only supplier1's accounts can take it.
    const big = await orderOf((await createOk({ amount: '3000000' })).orderCode);
    expect(big.supplierId).toBe(supplierIdOf.get('supplier1'));
    const info = await t.call(api.getOrderAllocateInfo, { orderCode: big.orderCode }, auth('admin'));
    const agentRow = info.body.data.attempts[0].candidates.find(
      (c: { supplierName: string }) => c.supplierName === 'Agent One',
    );
    expect(agentRow.outcome).toBe('balanceShort');
  });
  it('USDT 3015: orders of one amount share the wallet, each with its own floating usdtCount', async () => {
    const [wallet] = await t.database.db
      .select()
      .from(resources)
      .where(sql`${resources.productId} = 3015 and ${resources.state} = 0 and ${resources.deletedAt} is null`);
    expect(wallet, 'the demo has a switched-on USDT wallet').toBeTruthy();
    // The merchant and the wallet's supplier take product 3015.
    const [merchant] = await t.database.db.select().from(merchants).where(eq(merchants.id, merchantId));
    const [supplier] = await t.database.db.select().from(suppliers).where(eq(suppliers.id, wallet!.supplierId));
    for (const userId of [merchant!.userId, supplier!.userId]) {
      await t.database.db
        .insert(partyProducts)
        .values({ userId, productId: 3015, enabled: true, updatedAt: new Date() })
        .onConflictDoUpdate({ target: [partyProducts.userId, partyProducts.productId], set: { enabled: true } });
    }
    // 150.00 USDT twice: the payer of each sends its own amount in micro-units, so both can be open.
    const first = await createOk({ productId: '3015', amount: '15000' });
    const second = await createOk({ productId: '3015', amount: '15000' });
    const rows = [await orderOf(first.orderCode), await orderOf(second.orderCode)];
    for (const row of rows) {
      expect(row.state).toBe(ORDER_STATE.allocated);
      expect(row.resourceId).toBe(wallet!.id);
      expect(row.usdtAddress).toBe(wallet!.details.address);
    }
    expect(rows.map((r) => r.usdtCount)).toEqual([150_000_001, 150_000_002]);
    expect(first.payee).toMatchObject({ kind: 'usdtWallet', address: wallet!.details.address, usdtCount: 150_000_001 });
    expect(second.payee).toMatchObject({ usdtCount: 150_000_002 });
    for (const code of [first.orderCode, second.orderCode])
      expect((await t.call(api.reject, { orderCode: code, rejectReason: 'test' }, auth('admin'))).body.code).toBe(200);
    await expectLedgerOk();
  });
});

describe('concurrent creates (a batch shares one transaction)', () => {
  const rejectAll = async (codes: string[]) => {
    for (const orderCode of codes)
      expect((await t.call(api.reject, { orderCode, rejectReason: 'test' }, auth('admin'))).body.code).toBe(200);
  };

  it('orders of one amount arriving together each get their own account; those left over fail, saying why', async () => {
    const accounts = await openAccounts();
    const results = await Promise.all(Array.from({ length: accounts + 2 }, () => create({ amount: '24680' })));
    const ok = results.filter((r) => r.body.code === 200).map((r) => r.body.data.orderCode as string);
    const failed = results.filter((r) => r.body.code === Code.allocationFailed);
    expect(ok).toHaveLength(accounts);
    expect(failed).toHaveLength(2);
    const rows = await Promise.all(ok.map(orderOf));
    expect(new Set(rows.map((r) => r.resourceId)).size).toBe(accounts);
    expect(rows.every((r) => r.state === ORDER_STATE.allocated && r.holdOpen)).toBe(true);
    await expectHeld(rows);
    for (const f of failed) {
      const info = await t.call(api.getOrderAllocateInfo, { orderCode: f.body.data.orderCode }, auth('admin'));
      const candidates = info.body.data.attempts[0].candidates as Array<{ outcome: string; resourceName: string }>;
      expect(candidates.filter((c) => c.outcome === 'sameAmountOpen')).toHaveLength(accounts);
      expect(candidates.every((c) => c.resourceName !== '')).toBe(true);
    }
    await rejectAll(ok);
    await expectLedgerOk();
  });

  it('settings that go stale between the checks and the batch are read in the batch, and nothing stalls', async () => {
    // Each reading of the clock moves it past the settings cache's life: the batch's transaction reads
    // the settings again. Read on the pool instead, that waited on the embedded database (one
    // connection) for the very transaction it ran in, and every later query hung behind them.
    const now = t.clock.now.bind(t.clock);
    const spy = vi.spyOn(t.clock, 'now').mockImplementation(() => {
      t.clock.advance(6_000);
      return now();
    });
    try {
      const hung = Symbol('hung');
      const res = await Promise.race([create(), new Promise((r) => setTimeout(() => r(hung), 5_000))]);
      expect(res, 'the create never answered').not.toBe(hung);
      expect((res as Awaited<ReturnType<typeof create>>).body.code).toBe(200);
      await rejectAll([(res as Awaited<ReturnType<typeof create>>).body.data.orderCode]);
    } finally {
      spy.mockRestore();
    }
  });

  it("an order's creation time is when its create arrived, its allocation the batch's time, in the timeline too", async () => {
    // Each reading of the clock moves it a second: the batch reads it after the create's arrival.
    const now = t.clock.now.bind(t.clock);
    const spy = vi.spyOn(t.clock, 'now').mockImplementation(() => {
      t.clock.advance(1_000);
      return now();
    });
    let orderCode = '';
    try {
      const res = await create();
      expect(res.body.code).toBe(200);
      orderCode = res.body.data.orderCode;
    } finally {
      spy.mockRestore();
    }
    const [order] = await t.database.db.select().from(orders).where(eq(orders.orderCode, orderCode));
    expect(order!.allocatedAt!.getTime()).toBeGreaterThan(order!.createdAt.getTime());
    const events = await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order!.id));
    const timeOf = (kind: string) => events.find((e) => e.kind === kind)!.createdAt.getTime();
    expect(timeOf('created')).toBe(order!.createdAt.getTime());
    expect(timeOf('allocated')).toBe(order!.allocatedAt!.getTime());
    await rejectAll([orderCode]);
  });

  it('signed calls arriving together each get their own answer (their first read is shared)', async () => {
    const calls = [
      signed({ amount: '24680' }),
      signed({ mchId: '99999' }),
      signed({}, 'not-the-secret'),
      signed({ productId: '9999' }),
      signed({ amount: '24690' }),
    ];
    const results = await Promise.all(calls.map((body) => t.call(api.create, body)));
    expect(results.map((r) => r.body.code)).toEqual([
      200,
      Code.merchantUnavailable,
      Code.badSignature,
      Code.productUnavailable,
      200,
    ]);
    expect(results[0]!.body.data.mchOrderNo).toBe(calls[0]!.mchOrderNo);
    expect(results[4]!.body.data.mchOrderNo).toBe(calls[4]!.mchOrderNo);
    await rejectAll([results[0]!.body.data.orderCode, results[4]!.body.data.orderCode]);
  });

  it('one request sent several times at once makes one order; other content under its mchOrderNo is 2005', async () => {
    const request = signed({ amount: '13579' });
    const other = signed({ mchOrderNo: request.mchOrderNo, amount: '13580' });
    const sent = [request, request, other, request];
    const results = await Promise.all(sent.map((body) => t.call(api.create, body)));
    const codes = new Set(results.filter((r) => r.body.code === 200).map((r) => r.body.data.orderCode));
    expect(codes.size).toBe(1);
    // Whichever content came first made the order; the other content is refused, every repeat answers it.
    const winner = results.find((r) => r.body.code === 200)!;
    const winnerBody = sent[results.indexOf(winner)]!;
    expect(results.map((r) => r.body.code)).toEqual(
      sent.map((body) => (body.sign === winnerBody.sign ? 200 : Code.duplicateOrderNo)),
    );
    const made = await t.database.db
      .select()
      .from(orders)
      .where(eq(orders.merchantOrderNo, String(request.mchOrderNo)));
    expect(made).toHaveLength(1);
    const holds = await t.database.db
      .select()
      .from(ledgerTransfers)
      .where(sql`${ledgerTransfers.orderCode} = ${made[0]!.orderCode} and ${ledgerTransfers.type} = 'orderHold'`);
    expect(holds).toHaveLength(1);
    await rejectAll([made[0]!.orderCode]);
    await expectLedgerOk();
  });

  it('orders whose holds together exceed the only supplier’s balance: the first takes it, the next fails', async () => {
    const supplier1 = supplierIdOf.get('supplier1')!;
    const others = [...supplierIdOf.values()].filter((id) => id !== supplier1);
    const available = `supplier:${supplier1}:available`;
    const ledgerOf = t.app.services.ledger;
    const move = (amount: number, key: string) =>
      t.database.db.transaction((tx) =>
        ledgerOf.transfer(tx, {
          idempotencyKey: key,
          type: 'adjustment',
          note: 'test: supplier1 holds 20,000.00',
          postings: [
            { account: 'platform:adjustments', amount: -amount },
            { account: available, amount },
          ],
        }),
      );
    const before = await balance(available);
    await move(2_000_000 - before, `test:set-balance:${Date.now()}`);
    await t.database.db.update(suppliers).set({ enabled: false }).where(sql`${suppliers.id} in ${others}`);
    try {
      const [a, b] = await Promise.all([create({ amount: '1500000' }), create({ amount: '1500100' })]);
      const codes = [a!.body.code, b!.body.code].sort();
      expect(codes).toEqual([200, Code.allocationFailed].sort());
      const failed = a!.body.code === 200 ? b! : a!;
      const info = await t.call(api.getOrderAllocateInfo, { orderCode: failed.body.data.orderCode }, auth('admin'));
      const outcomes = (info.body.data.attempts[0].candidates as Array<{ outcome: string; supplierName: string }>)
        .filter((c) => c.outcome !== 'supplierDisabled' && c.outcome !== 'parentDisabled')
        .map((c) => c.outcome);
      expect(new Set(outcomes)).toEqual(new Set(['balanceShort']));
      const made = (a!.body.code === 200 ? a! : b!).body.data.orderCode as string;
      expect(await balance(available)).toBe(2_000_000 - (await orderOf(made)).amount);
      await rejectAll([made]);
    } finally {
      await t.database.db.update(suppliers).set({ enabled: true }).where(sql`${suppliers.id} in ${others}`);
      await move(before - 2_000_000, `test:restore-balance:${Date.now()}`);
    }
    await expectLedgerOk();
  });
});

describe('payment and the ledger', () => {
  it('the supplier confirms: merchant gets amount less fee, suppliers their commission, the platform the rest', async () => {
    const { orderCode } = await createOk({ amount: '40000' });
    const order = await orderOf(orderCode);
    const s = order.supplierId!;
    const before = {
      merchant: await balance(`merchant:${merchantId}:available`),
      frozen: await balance(`supplier:${s}:frozen`),
      revenue: await t.app.services.ledger.revenue(t.database.db),
    };
    const owner = order.isProxy ? 'agent1' : 'supplier1';
    const other = await t.call(api.confirmOrder, { orderCode }, auth('merchant1'));
    expect(other.status).toBe(403);
    const res = await t.call(api.confirmOrder, { orderCode }, auth(owner));
    expect(res.body.data).toEqual({ orderCode, state: ORDER_STATE.paidNotifying });
    const paid = await orderOf(orderCode);
    expect(paid.fee).toBe(1400); // 3.50 % of 400.00
    expect(await balance(`merchant:${merchantId}:available`)).toBe(before.merchant + 40_000 - 1400);
    expect(await balance(`supplier:${s}:frozen`)).toBe(before.frozen - 40_000);
    // The platform's share went to the revenue account of the order's code (one of its shards).
    expect(await t.app.services.ledger.revenue(t.database.db)).toBe(before.revenue + 1400 - paid.commission!);
    // supplier1 3.00 % (an agent 2.00 % and its parent the 1.00 % difference): 12.00 in all.
    expect(paid.commission).toBe(1200);
    const [callback] = await t.database.db.select().from(orderCallbacks).where(eq(orderCallbacks.orderId, paid.id));
    expect(callback?.state).toBe('pending');
    expect(callback?.notificationId).toBe(`N${orderCode}`);
    // Confirming twice is a lost race (the order was confirmable and someone acted first): 409, nothing moves.
    const again = await t.call(api.confirmOrder, { orderCode }, auth(owner));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: Code.conflict, data: { reason: 'orderChanged' } });
    expect(again.body.msg).toMatch(/someone else acted/);
    await expectLedgerOk();
  });

  it('supplement needs token2, confirms with a UTR once, and the same UTR cannot confirm another order', async () => {
    const a = await createOk({ amount: '41000' });
    const b = await createOk({ amount: '41100' });
    const noToken2 = await t.call(
      api.replenishmentOrder,
      { orderCode: a.orderCode, utr: '512345678901' },
      { token: auth('service').token },
    );
    expect(noToken2.body.code).toBe(Code.token2Required);
    const ok = await t.call(api.replenishmentOrder, { orderCode: a.orderCode, utr: '512345678901' }, auth('service'));
    expect(ok.body.data.state).toBe(ORDER_STATE.paidNotifying);
    const row = await orderOf(a.orderCode);
    expect(row.supplemented).toBe(true);
    expect(row.utr).toBe('512345678901');
    const before = await snapshot(t.database);
    const reused = await t.call(
      api.replenishmentOrder,
      { orderCode: b.orderCode, utr: '512345678901' },
      auth('service'),
    );
    expect(reused.body.code).toBe(Code.conflict);
    expect(reused.body.msg).toBe('this UTR already confirmed another order');
    expect(await snapshot(t.database)).toBe(before);
    await expectLedgerOk();
  });

  it('reject and free resource release the hold; timeouts too, and supplement after timeout follows CanTimeoutSupplement', async () => {
    const rejected = await createOk({ amount: '42000' });
    const r = await orderOf(rejected.orderCode);
    const frozenBefore = await balance(`supplier:${r.supplierId}:frozen`);
    const res = await t.call(
      api.reject,
      { orderCode: rejected.orderCode, rejectReason: 'payer cancelled' },
      auth('admin'),
    );
    expect(res.body.data.state).toBe(ORDER_STATE.rejected);
    expect(await balance(`supplier:${r.supplierId}:frozen`)).toBe(frozenBefore - 42_000);
    expect((await orderOf(rejected.orderCode)).rejectReason).toBe('payer cancelled');

    const freed = await createOk({ amount: '42100' });
    expect((await t.call(api.freeResource, { orderCode: freed.orderCode }, auth('admin'))).body.data.state).toBe(
      ORDER_STATE.timedOut,
    );

    const late = await createOk({ amount: '42200' });
    t.clock.advance(16 * 60_000);
    expect(await engine().expireDue()).toBeGreaterThanOrEqual(1);
    await signInAll();
    expect((await orderOf(late.orderCode)).state).toBe(ORDER_STATE.timedOut);
    expect((await orderOf(late.orderCode)).holdOpen).toBe(false);
    const refusedLate = await t.call(
      api.replenishmentOrder,
      { orderCode: late.orderCode, utr: '612345678901' },
      auth('admin'),
    );
    expect(refusedLate.body.code).toBe(Code.businessRule);
    expect(refusedLate.body.msg).toContain('CanTimeoutSupplement');
    await setting('CanTimeoutSupplement', true);
    const accepted = await t.call(
      api.replenishmentOrder,
      { orderCode: late.orderCode, utr: '612345678901' },
      auth('admin'),
    );
    expect(accepted.body.data.state).toBe(ORDER_STATE.paidNotifying);
    await setting('CanTimeoutSupplement', undefined);
    await expectLedgerOk();
  });

  it('reverse: superAdmin with token2 only; posts the exact opposite of the payment and releases the hold', async () => {
    const { orderCode } = await createOk({ amount: '43000' });
    const order = await orderOf(orderCode);
    const owner = order.isProxy ? 'agent1' : 'supplier1';
    const before = {
      merchant: await balance(`merchant:${merchantId}:available`),
      available: await balance(`supplier:${order.supplierId}:available`),
      frozen: await balance(`supplier:${order.supplierId}:frozen`),
    };
    await t.call(api.confirmOrder, { orderCode }, auth(owner));
    expect((await t.call(api.reverseOrder, { orderCode }, auth('admin'))).status).toBe(403);
    expect((await t.call(api.reverseOrder, { orderCode }, { token: auth('superadmin').token })).body.code).toBe(
      Code.token2Required,
    );
    const res = await t.call(api.reverseOrder, { orderCode }, auth('superadmin'));
    expect(res.body.data.state).toBe(ORDER_STATE.reversed);
    expect(await balance(`merchant:${merchantId}:available`)).toBe(before.merchant);
    // Back to where it was before the order, hold included.
    expect(await balance(`supplier:${order.supplierId}:frozen`)).toBe(before.frozen - 43_000);
    expect(await balance(`supplier:${order.supplierId}:available`)).toBe(before.available + 43_000);
    const [callback] = await t.database.db.select().from(orderCallbacks).where(eq(orderCallbacks.orderId, order.id));
    expect(callback?.state).toBe('cancelled');
    await expectLedgerOk();
  });
});

describe('marks, locks, scope', () => {
  it('a suspicious mark locks the order: actions are refused until an admin unlocks it', async () => {
    const { orderCode } = await createOk({ amount: '44000' });
    const order = await orderOf(orderCode);
    const marked = await t.call(api.updateOrderMark, { id: order.id, orderMark: 1 }, auth('service'));
    expect(marked.body.data).toEqual({ orderCode, mark: 1, locked: true });
    const refused = await t.call(api.reject, { orderCode, rejectReason: 'x' }, auth('admin'));
    expect(refused.body.code).toBe(Code.businessRule);
    expect(refused.body.msg).toContain('locked');
    expect((await t.call(api.unlockOrder, { orderCodes: [orderCode] }, auth('service'))).status).toBe(403);
    expect((await t.call(api.unlockOrder, { orderCodes: [orderCode] }, auth('admin'))).body.data).toEqual({ count: 1 });
    expect((await t.call(api.reject, { orderCode, rejectReason: 'x' }, auth('admin'))).body.code).toBe(200);
  });

  it('a merchant sees only its orders, a supplier its own and its team’s; outsiders get 404', async () => {
    const list = await t.call(api.getList, { pageIndex: 1, pageSize: 500 }, auth('merchant1'));
    expect(list.body.data.total).toBeGreaterThan(0);
    expect(list.body.data.list.every((r: { merchantId: number }) => r.merchantId === merchantId)).toBe(true);
    const supplierList = await t.call(api.getList, { pageIndex: 1, pageSize: 500 }, auth('supplier1'));
    const supplierIds = new Set(supplierList.body.data.list.map((r: { supplierId: number }) => r.supplierId));
    expect(
      [...supplierIds].every((id) => id === supplierIdOf.get('supplier1') || id === supplierIdOf.get('agent1')),
    ).toBe(true);
    const agentOnly = await t.call(api.getList, { pageIndex: 1, pageSize: 500, isProxy: true }, auth('supplier1'));
    expect(agentOnly.body.data.list.every((r: { isProxy: boolean }) => r.isProxy)).toBe(true);
    const agentList = await t.call(api.getList, { pageIndex: 1, pageSize: 500 }, auth('agent1'));
    expect(
      agentList.body.data.list.every((r: { supplierId: number }) => r.supplierId === supplierIdOf.get('agent1')),
    ).toBe(true);
    const parentOrder = supplierList.body.data.list.find(
      (r: { supplierId: number }) => r.supplierId === supplierIdOf.get('supplier1'),
    );
    expect((await t.call(api.getDetail, { orderCode: parentOrder.orderCode }, auth('agent1'))).status).toBe(404);
    expect(list.body.data.summary.amount).toBeGreaterThan(0);
  });

  it('each party sees its own side of an order: fields, ledger entries, people and notes', async () => {
    const { orderCode } = await createOk({ amount: '47000' });
    const taken = await orderOf(orderCode);
    const owner = taken.isProxy ? 'agent1' : 'supplier1';
    expect((await t.call(api.confirmOrder, { orderCode }, auth(owner))).body.code).toBe(200);
    const detail = async (account: string) => {
      const res = await t.call(api.getDetail, { orderCode }, auth(account));
      expect(res.body.code, JSON.stringify(res.body)).toBe(200);
      return res.body.data as {
        order: Record<string, unknown>;
        timeline: Array<{ kind: string; actor: string | null; note: string; noteTemplate: unknown }>;
        transfers: Array<{ type: string; noteTemplate: unknown; entries: Array<{ account: string; amount: number }> }>;
      };
    };
    const accounts = (d: Awaited<ReturnType<typeof detail>>) =>
      d.transfers.flatMap((tr) => tr.entries.map((e) => e.account));
    const event = (d: Awaited<ReturnType<typeof detail>>, kind: string) => d.timeline.find((e) => e.kind === kind)!;

    // Staff: everything, the platform's revenue and the supplier's people included.
    const staff = await detail('admin');
    expect(staff.order.supplierName).not.toBeNull();
    expect(staff.order.commission).toBe(1410); // 3.00 % of 470.00
    expect(accounts(staff)).toEqual(
      expect.arrayContaining([revenueAccountCode(orderCode), `merchant:${merchantId}:available`]),
    );
    expect(event(staff, 'paid')).toMatchObject({
      actor: owner,
      note: `confirmed by ${owner}`,
      // The console renders the template in its language.
      noteTemplate: { key: 'confirmedBy', values: { account: owner } },
    });
    expect(event(staff, 'allocated').note).not.toBe('');
    expect(event(staff, 'allocated').noteTemplate).toBeNull(); // names only: nothing to translate
    expect(staff.transfers.find((tr) => tr.type === 'orderHold')?.noteTemplate).toEqual({
      key: 'orderHold',
      values: { orderCode },
    });

    // The merchant: its fee and its own account only; nothing of who took the order.
    const merchant = await detail('merchant1');
    expect(merchant.order).toMatchObject({ fee: 1645, commission: null, supplierId: null, supplierName: null });
    expect(merchant.order).toMatchObject({ resourceId: null, resourceName: null });
    expect(accounts(merchant)).toEqual([`merchant:${merchantId}:available`]);
    expect(merchant.transfers.map((tr) => tr.type)).toEqual(['orderPaid']);
    expect(event(merchant, 'created').note).toMatch(/merchant API/);
    expect(event(merchant, 'created').noteTemplate).toMatchObject({ key: 'viaApi' });
    expect(event(merchant, 'allocated')).toMatchObject({ note: '', noteTemplate: null });
    expect(event(merchant, 'paid')).toMatchObject({ actor: null, note: '', noteTemplate: null });
    expect(merchant.transfers[0]!.noteTemplate).toEqual({ key: 'orderPaid', values: { orderCode } });
    // (The payee is what the merchant's payer pays to: the create's answer gives it to the merchant too.)
    const { payee: _payee, ...merchantView } = merchant as typeof merchant & { payee: unknown };
    expect(JSON.stringify(merchantView)).not.toMatch(/supplier:|platform:|agent1|supplier1|Supplier One|Agent One/);

    // The supplier team: its commission and its own accounts; not the merchant's fee, money or address.
    const supplier = await detail('supplier1');
    expect(supplier.order.fee).toBeNull();
    expect(supplier.order.commission).toBe(1410);
    expect(accounts(supplier).length).toBeGreaterThan(0);
    expect(accounts(supplier).every((a) => a.startsWith('supplier:'))).toBe(true);
    expect(event(supplier, 'paid').actor).toBe(owner);
    expect(event(supplier, 'created').note).toBe('');
    expect(JSON.stringify(supplier)).not.toMatch(/merchant:|platform:/);
    if (taken.isProxy) {
      // An agent sees its own accounts, not its parent's share.
      const agent = await detail('agent1');
      expect(accounts(agent).every((a) => a.startsWith(`supplier:${supplierIdOf.get('agent1')}:`))).toBe(true);
    }

    // Both parties read the payment's note in their fund records: it names no one.
    const [payment] = await t.database.db
      .select()
      .from(ledgerTransfers)
      .where(eq(ledgerTransfers.idempotencyKey, `${orderCode}:pay`));
    expect(payment!.note).toBe(`order ${orderCode} paid`);
    expect(payment!.noteTemplate).toEqual({ key: 'orderPaid', values: { orderCode } });

    // Lists, totals and the export hide the same fields.
    const byMerchant = await t.call(api.getList, { pageIndex: 1, pageSize: 5, orderCode }, auth('merchant1'));
    expect(byMerchant.body.data.list[0]).toMatchObject({ commission: null, supplierName: null, fee: 1645 });
    expect(Object.keys(byMerchant.body.data.summary).sort()).toEqual(['amount', 'fee']);
    // The head of the team reads it on its list, or on its team page when its agent took it.
    const bySupplier = await t.call(
      api.getList,
      { pageIndex: 1, pageSize: 5, orderCode, isProxy: taken.isProxy },
      auth('supplier1'),
    );
    expect(bySupplier.body.data.list[0]).toMatchObject({ fee: null, commission: 1410 });
    expect(Object.keys(bySupplier.body.data.summary).sort()).toEqual(['amount', 'commission']);
    const csv = await t.app.inject({
      url: `${api.exportList.path}?orderCode=${orderCode}&isProxy=${taken.isProxy}`,
      cookies: { token: auth('supplier1').token! },
    });
    const [cells] = parse(csv.body, { columns: true, bom: true }) as Record<string, string>[];
    expect(cells).toMatchObject({ orderCode, fee: '', commission: '1410' });
  });

  it('getLastOrder answers the newest order in scope, and merchants may not poll it', async () => {
    const { orderCode } = await createOk({ amount: '45000' });
    expect((await t.call(api.getLastOrder, {}, auth('admin'))).body.data.orderCode).toBe(orderCode);
    expect((await t.call(api.getLastOrder, {}, auth('merchant1'))).status).toBe(403);
    // A supplier polls its team's newest order (its own and its agents'); an agent only its own.
    const [taken] = await t.database.db
      .select({ supplierId: orders.supplierId })
      .from(orders)
      .where(eq(orders.orderCode, orderCode));
    expect((await t.call(api.getLastOrder, {}, auth('supplier1'))).body.data.orderCode).toBe(orderCode);
    const byAgent = (await t.call(api.getLastOrder, {}, auth('agent1'))).body.data;
    if (taken!.supplierId === supplierIdOf.get('agent1')) expect(byAgent.orderCode).toBe(orderCode);
    else expect(byAgent?.orderCode).not.toBe(orderCode);
  });

  it('the payer page reads the order with its currency and merchant name, and takes a UTR; no supplier, id or secret', async () => {
    const { orderCode } = await createOk({ amount: '46000' });
    const view = await t.call(api.payerOrder, { orderCode });
    expect(view.body.data).toMatchObject({ amount: 46_000, currency: 'INR', merchantName });
    expect(JSON.stringify(view.body.data)).not.toMatch(/Supplier One|Agent One|secret/i);
    // Nothing about the merchant but its name: no id, merchant number or setting.
    expect(Object.keys(view.body.data).sort()).toEqual(
      ['amount', 'currency', 'expiresAt', 'merchantName', 'now', 'orderCode', 'payee', 'payerUtr', 'productId']
        .concat(['payerName', 'payerNameRequired', 'returnUrl', 'state', 'subject'])
        .sort(),
    );
    const submitted = await t.call(api.payerSubmitUtr, { orderCode, utr: '712345678901' });
    expect(submitted.body.data).toEqual({ orderCode, payerUtr: '712345678901', payerName: null });
    expect((await t.call(api.payerOrder, { orderCode: 'C0000000000000000000' })).status).toBe(404);
  });
});
