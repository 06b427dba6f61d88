import { Code, codeCatalogue, endpoints, note, ORDER_STATE, type OrderRow } from '@paydesk/contract';
import { parse } from 'csv-parse/sync';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServices, type Services } from '../../app.js';
import { rowsOf } from '../../db/raw-rows.js';
import { orders } from '../../db/schema.js';
import { SYSTEM_ACTOR } from '../../platform/audit.js';
import { formatPlatformTime } from '../../platform/time.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, snapshot, startTestApp, type TestApp } from '../../testing/harness.js';
import { signParams } from './signature.js';

/**
 * The system settings the collection order engine reads (issue 21 item 2), each with the behaviour it
 * changes: LimitMode (the merchant's daily limit counts paid orders, or paid and open ones, exact
 * under concurrency), KYC (the product's KYC lower limit requires userName), NeedNameCheck (every
 * order carries a well-formed payer name), CardCountry (card-to-card payer cards of one country),
 * IsNewPayUrl (the payUrl's form), CompleteTimeFilter (the list's time range on completion time),
 * OrderTimeoutMinutes (an allocation's expiry, which the merchant, the payer page and the timeout job
 * follow) and IsSupplierRemoveBalanceOnOrderFinished (the supplier's hold at allocation, or its
 * available balance debited at payment; the ledger check stays clean either way).
 */
const { orders: api } = endpoints;
let t: TestApp;
let superadmin: Auth;
const owners = new Map<string, Auth>();
let merchant: { id: number; userId: number };

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return rowsOf<T>(await t.database.db.execute(query));
}

beforeAll(async () => {
  t = await startTestApp();
  superadmin = await t.loginWithToken2('superadmin');
  owners.set('supplier1', await t.login('supplier1'));
  owners.set('agent1', await t.login('agent1'));
  const [m] = await rows<{ id: number; user_id: number }>(
    sql`select id, user_id from merchants where merchant_no = ${DEMO_MERCHANT_API.mchId}`,
  );
  merchant = { id: Number(m!.id), userId: Number(m!.user_id) };
});
afterAll(() => t.close());

let n = 0;
/** A signed create of merchant1 (product 1001 unless `over` says otherwise). */
function signed(amount: number, over: Record<string, string> = {}) {
  n += 1;
  const params: Record<string, string> = {
    mchId: DEMO_MERCHANT_API.mchId,
    productId: '1001',
    mchOrderNo: `SET${n}`,
    amount: String(amount),
    ...over,
  };
  return { ...params, sign: signParams(params, DEMO_MERCHANT_API.secret, 'HMAC-SHA256') };
}
const create = (amount: number, over: Record<string, string> = {}) => t.call(api.create, signed(amount, over));

async function createOk(amount: number, over: Record<string, string> = {}) {
  const res = await create(amount, over);
  expect(res.body.code, JSON.stringify(res.body)).toBe(Code.success);
  return res.body.data as { orderCode: string; payUrl: string; state: number };
}

async function expectRefused(amount: number, code: number, over: Record<string, string> = {}) {
  const before = await snapshot(t.database);
  const res = await create(amount, over);
  expect(res.body.code, JSON.stringify(res.body)).toBe(code);
  expect(await snapshot(t.database)).toBe(before);
  return res;
}

/** The supplier (or its agent) whose account took the order confirms it: the order is paid. */
async function confirm(orderCode: string) {
  const [o] = await t.database.db.select().from(orders).where(eq(orders.orderCode, orderCode));
  const res = await t.call(api.confirmOrder, { orderCode }, owners.get(o!.isProxy ? 'agent1' : 'supplier1')!);
  expect(res.body.code, JSON.stringify(res.body)).toBe(Code.success);
}

async function setPartyProduct(productId: number, set: { dailyLimit?: number | null; kycLowerLimit?: number | null }) {
  if ('dailyLimit' in set) {
    await t.database.db.execute(
      sql`update party_products set daily_limit = ${set.dailyLimit} where user_id = ${merchant.userId} and product_id = ${productId}`,
    );
  }
  if ('kycLowerLimit' in set) {
    await t.database.db.execute(
      sql`update party_products set kyc_lower_limit = ${set.kycLowerLimit} where user_id = ${merchant.userId} and product_id = ${productId}`,
    );
  }
}

/** Product `productId` for merchant1 (3.00 % fee) and supplier1 (1.50 % commission). */
async function enableForMerchantAndSupplier1(productId: number) {
  const [s] = await rows<{ user_id: number }>(
    sql`select s.user_id from suppliers s join users u on u.id = s.user_id where u.account = 'supplier1'`,
  );
  const base = { perTransactionFee: 0, dailyLimit: null, minAmount: null, maxAmount: null, kycLowerLimit: null };
  await t.app.services.products.saveUserProduct(
    { userId: merchant.userId, productId, enabled: true, feeRate: 300, commissionRate: 0, ...base },
    SYSTEM_ACTOR,
  );
  await t.app.services.products.saveUserProduct(
    { userId: Number(s!.user_id), productId, enabled: true, feeRate: 0, commissionRate: 150, ...base },
    SYSTEM_ACTOR,
  );
}

/** merchant1's product 1001 today, read from the tables: paid (folded and not) and open now. */
async function merchantDay(): Promise<{ paid: number; open: number }> {
  const day = t.app.services.orders.today();
  const [r] = await rows<{ paid: string; open: string }>(sql`
    select (coalesce((select sum(amount) from party_daily where user_id = ${merchant.userId} and product_id = 1001 and day = ${day}), 0)
          + coalesce((select sum(amount) from party_daily_deltas where user_id = ${merchant.userId} and product_id = 1001 and day = ${day}), 0))::bigint as paid,
           coalesce((select sum(amount) from orders where merchant_user_id = ${merchant.userId} and product_id = 1001
                       and state in (${ORDER_STATE.created}, ${ORDER_STATE.allocated})), 0)::bigint as open`);
  return { paid: Number(r!.paid), open: Number(r!.open) };
}

describe('LimitMode: what the merchant’s daily limit counts', () => {
  afterAll(async () => {
    await t.setSetting('LimitMode', undefined);
    await setPartyProduct(1001, { dailyLimit: null });
  });

  it('relaxed (the default) counts the paid orders only: open orders leave the limit untouched', async () => {
    expect(await t.app.services.settings.get('LimitMode')).toBe('relaxed');
    const { paid } = await merchantDay();
    await setPartyProduct(1001, { dailyLimit: paid + 30_000 });
    await createOk(20_001);
    await createOk(20_002);
    await createOk(30_000);
    expect((await merchantDay()).open).toBeGreaterThanOrEqual(70_003);
    await expectRefused(30_001, Code.dailyLimitReached);
  });

  it('strict counts the paid and the open orders: what is left is accepted, one unit more refused', async () => {
    await t.setSetting('LimitMode', 'strict');
    const day = await merchantDay();
    const limit = day.paid + day.open + 25_000;
    await setPartyProduct(1001, { dailyLimit: limit });
    const over = await expectRefused(25_001, Code.dailyLimitReached);
    expect(over.body.msg).toBe(codeCatalogue[Code.dailyLimitReached].message);
    const body = signed(25_000);
    const exact = await t.call(api.create, body);
    expect(exact.body.code, JSON.stringify(exact.body)).toBe(Code.success);
    await expectRefused(10_000, Code.dailyLimitReached);
    // The same request again answers the same order, though the limit is used up (its amount is in it).
    const again = await t.call(api.create, body);
    expect(again.body.code, JSON.stringify(again.body)).toBe(Code.success);
    expect(again.body.data.orderCode).toBe(exact.body.data.orderCode);

    // Paid, the order moves from open to paid: the count stays, the limit stays used up.
    await confirm(exact.body.data.orderCode);
    expect(await merchantDay()).toEqual({ paid: day.paid + 25_000, open: day.open });
    await expectRefused(10_001, Code.dailyLimitReached);

    // An open order rejected leaves the count: its amount is free again, not one unit more.
    const [open] = await t.database.db
      .select()
      .from(orders)
      .where(sql`${orders.merchantUserId} = ${merchant.userId} and ${orders.state} = ${ORDER_STATE.allocated}`)
      .limit(1);
    const rejected = await t.call(api.reject, { orderCode: open!.orderCode, rejectReason: 'test' }, superadmin);
    expect(rejected.body.code, JSON.stringify(rejected.body)).toBe(Code.success);
    await expectRefused(open!.amount + 1, Code.dailyLimitReached);
    await createOk(open!.amount + 0);

    // Relaxed again: only the paid volume counts, so the same merchant may open more.
    await t.setSetting('LimitMode', 'relaxed');
    await createOk(10_002);
  });

  it('strict stays exact under concurrency: 20 creates on two server processes with room for exactly 10', async () => {
    await t.setSetting('LimitMode', 'strict');
    const other: Services = buildServices({ config: t.config, database: t.database, clock: t.clock });
    const day = await merchantDay();
    // Any 10 of the amounts fit (10 x 20_019 = 200_190), no 11 do (11 x 20_000 = 220_000).
    const room = 200_190;
    await setPartyProduct(1001, { dailyLimit: day.paid + day.open + room });
    const amounts = Array.from({ length: 20 }, (_, i) => 20_000 + i);
    const via = note('viaApi', { ip: '127.0.0.1' });
    const results = await Promise.allSettled(
      amounts.map((amount, i) => {
        n += 1;
        const engine = i % 2 === 0 ? t.app.services.orders : other.orders;
        return engine.createFor(
          merchant.id,
          { mchId: DEMO_MERCHANT_API.mchId, productId: '1001', mchOrderNo: `RACE${n}`, amount: String(amount) },
          { baseUrl: 'http://127.0.0.1', via },
        );
      }),
    );
    const accepted = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(accepted).toHaveLength(10);
    for (const r of refused) expect((r.reason as { code?: number }).code).toBe(Code.dailyLimitReached);
    const after = await merchantDay();
    expect(after.paid + after.open - day.paid - day.open).toBeLessThanOrEqual(room);
    expect(after.open - day.open).toBe(accepted.reduce((s, r) => s + Number(amounts[results.indexOf(r)]), 0));
    // Relaxed: the same 20 all pass (nothing of them is paid).
    await t.setSetting('LimitMode', 'relaxed');
    const relaxed = await Promise.all(amounts.map((amount) => create(amount + 100)));
    for (const res of relaxed) expect(res.body.code, JSON.stringify(res.body)).toBe(Code.success);
  });
});

describe('KYC: the KYC lower limit of the merchant’s product', () => {
  beforeAll(() => setPartyProduct(1001, { kycLowerLimit: 50_000 }));
  afterAll(async () => {
    await t.setSetting('KYC', undefined);
    await setPartyProduct(1001, { kycLowerLimit: null });
  });

  it('on (the default): from the limit up the payer’s name is required (2010), below it not', async () => {
    expect(await t.app.services.settings.get('KYC')).toBe(true);
    const res = await expectRefused(50_000, Code.kycRequired);
    expect(res.status).toBe(422);
    expect(res.body.msg).toBe(codeCatalogue[Code.kycRequired].message);
    await createOk(50_000, { userName: 'Asha Rao' });
    await createOk(49_999);
  });

  it('off: the limit is not checked', async () => {
    await t.setSetting('KYC', false);
    await createOk(60_001);
  });
});

describe('NeedNameCheck: every order carries a well-formed payer name', () => {
  afterAll(() => t.setSetting('NeedNameCheck', undefined));

  it('off (the default): no name, or any name the API takes, is accepted', async () => {
    await createOk(11_001);
    await createOk(11_002, { userName: 'R2-D2 #7' });
  });

  it('on: letters, spaces and dots of any script, at most 128; else 2014 and nothing kept', async () => {
    await t.setSetting('NeedNameCheck', true);
    for (const userName of [undefined, 'R2-D2 #7', 'Asha_Rao', ' . ', 'Ravi@example']) {
      const res = await expectRefused(11_003, Code.payerNameInvalid, userName === undefined ? {} : { userName });
      expect(res.status).toBe(422);
      expect(res.body.msg).toBe('payer name (userName) required: letters, spaces and dots, at most 128 characters');
    }
    let amount = 11_010;
    for (const userName of ['Ravi K. Sharma', 'राज कुमार', '李小龙', 'Zoë Ångström', 'A'.repeat(128)]) {
      amount += 1;
      await createOk(amount, { userName });
    }
    // 129 characters is refused by the request's own rule (400), as always.
    expect((await create(11_020, { userName: 'A'.repeat(129) })).body.code).toBe(Code.invalidInput);
  });
});

describe('CardCountry: the country of payer cards card-to-card orders accept', () => {
  beforeAll(async () => {
    // Card-to-card (1002) for merchant1 and for supplier1, whose demo card account serves it.
    await enableForMerchantAndSupplier1(1002);
  });
  afterAll(() => t.setSetting('CardCountry', undefined));

  const card = { productId: '1002', userName: 'Asha Rao', cardNumber: '4000001234567899' };

  it('IN (the default): a card given with its IFSC code, an Indian card, is accepted', async () => {
    expect(await t.app.services.settings.get('CardCountry')).toBe('IN');
    await createOk(21_001, { ...card, ifscCode: 'HDFC0001234' });
  });

  it('another country: an Indian card (IFSC) is refused with 2015; a card of unknown country and other channels are not', async () => {
    await t.setSetting('CardCountry', 'KE');
    const res = await expectRefused(21_002, Code.cardCountryRefused, { ...card, ifscCode: 'HDFC0001234' });
    expect(res.status).toBe(422);
    expect(res.body.msg).toContain('this channel accepts cards of KE');
    await createOk(21_003, card);
    await createOk(21_004, { ifscCode: 'HDFC0001234', userName: 'Asha Rao' });
    await t.setSetting('CardCountry', 'IN');
    await createOk(21_005, { ...card, ifscCode: 'HDFC0001234' });
  });
});

describe('AlipayToAlipayByHandSubmitName: the payer types their name with the UTR (Alipay, 5002)', () => {
  beforeAll(async () => {
    // Alipay (5002) for merchant1 and supplier1, with one Alipay account of supplier1 switched on.
    await enableForMerchantAndSupplier1(5002);
    const supplier1 = owners.get('supplier1')!;
    const made = await t.call(
      endpoints.resources.create,
      { productId: 5002, name: 'Alipay by hand', details: { accountName: 'Li Wei' } },
      supplier1,
    );
    expect(made.body.code, JSON.stringify(made.body)).toBe(Code.success);
    const on = await t.call(
      endpoints.resources.enableResource,
      { resourceId: made.body.data.id, productId: 5002, enable: true },
      supplier1,
    );
    expect(on.body.code, JSON.stringify(on.body)).toBe(Code.success);
  });
  afterAll(() => t.setSetting('AlipayToAlipayByHandSubmitName', undefined));

  const payer = (orderCode: string) => t.call(api.payerOrder, { orderCode }).then((r) => r.body.data);
  const timeline = async (orderCode: string) =>
    rows<{ note: string | null }>(
      sql`select e.note from order_events e join orders o on o.id = e.order_id where o.order_code = ${orderCode} and e.kind = 'payerUtr'`,
    );

  it('off (the default): the payer page asks no name, and a name sent along is not kept', async () => {
    const { orderCode } = await createOk(31_001, { productId: '5002' });
    expect(await payer(orderCode)).toMatchObject({ productId: 5002, payerNameRequired: false, payerName: null });
    const res = await t.call(api.payerSubmitUtr, { orderCode, utr: '2026112731001', payerName: '李伟' });
    expect(res.body.data).toEqual({ orderCode, payerUtr: '2026112731001', payerName: null });
  });

  it('on: an Alipay order asks it, refuses the UTR without it (nothing kept), and keeps it for the supplier to match', async () => {
    await t.setSetting('AlipayToAlipayByHandSubmitName', true);
    const { orderCode } = await createOk(31_002, { productId: '5002' });
    expect(await payer(orderCode)).toMatchObject({ payerNameRequired: true, payerName: null });

    const before = await snapshot(t.database);
    const without = await t.call(api.payerSubmitUtr, { orderCode, utr: '2026112731002' });
    expect(without.status).toBe(400);
    expect(without.body.data).toMatchObject({ reason: 'payerNameRequired' });
    expect(await snapshot(t.database)).toBe(before);
    // Digits are not a name: the merchant API's payer name rule.
    expect((await t.call(api.payerSubmitUtr, { orderCode, utr: '2026112731002', payerName: '1234' })).status).toBe(400);

    const res = await t.call(api.payerSubmitUtr, { orderCode, utr: '2026112731002', payerName: '  李伟 ' });
    expect(res.body.data).toEqual({ orderCode, payerUtr: '2026112731002', payerName: '李伟' });
    expect(await payer(orderCode)).toMatchObject({ payerUtr: '2026112731002', payerName: '李伟' });
    expect(await timeline(orderCode)).toEqual([{ note: 'payer submitted UTR 2026112731002 as 李伟' }]);
    // The supplier sees it in its list, to match it against the name on the Alipay transfer.
    const list = await t.call(api.getList, { orderCode, pageIndex: 1, pageSize: 10 }, owners.get('supplier1')!);
    expect((list.body.data.list as OrderRow[])[0]).toMatchObject({ orderCode, payerName: '李伟' });
  });

  it('on: other channels ask no name', async () => {
    const { orderCode } = await createOk(31_003);
    expect(await payer(orderCode)).toMatchObject({ productId: 1001, payerNameRequired: false });
    const res = await t.call(api.payerSubmitUtr, { orderCode, utr: '712345631003' });
    expect(res.body.data).toEqual({ orderCode, payerUtr: '712345631003', payerName: null });
  });
});

describe('IsNewPayUrl: the payUrl answered to merchants', () => {
  afterAll(() => t.setSetting('IsNewPayUrl', undefined));

  it('on (the default) /pay/<orderCode>; off the legacy /pay?orderCode=<orderCode>, for a repeat too', async () => {
    const first = await createOk(12_001);
    expect(first.payUrl).toMatch(new RegExp(`/pay/${first.orderCode}$`));
    await t.setSetting('IsNewPayUrl', false);
    const body = signed(12_002);
    const legacy = (await t.call(api.create, body)).body.data as { orderCode: string; payUrl: string };
    expect(legacy.payUrl).toMatch(new RegExp(`/pay\\?orderCode=${legacy.orderCode}$`));
    expect(new URL(legacy.payUrl).searchParams.get('orderCode')).toBe(legacy.orderCode);
    // The payer page's data call is the same for either address.
    const view = await t.call(endpoints.orders.payerOrder, { orderCode: legacy.orderCode });
    expect(view.body.data.orderCode).toBe(legacy.orderCode);
    await t.setSetting('IsNewPayUrl', true);
    const again = (await t.call(api.create, body)).body.data as { orderCode: string; payUrl: string };
    expect(again.orderCode).toBe(legacy.orderCode);
    expect(again.payUrl).toMatch(new RegExp(`/pay/${legacy.orderCode}$`));
  });
});

describe('CompleteTimeFilter: the order list’s time range', () => {
  afterAll(() => t.setSetting('CompleteTimeFilter', undefined));

  const subject = 'Completion filter';
  const around = (at: Date) => ({
    startTime: formatPlatformTime(new Date(at.getTime() - 1_000), t.config.timeZone),
    endTime: formatPlatformTime(new Date(at.getTime() + 1_000), t.config.timeZone),
  });
  async function listed(range: { startTime: string; endTime: string }) {
    const res = await t.call(api.getList, { pageIndex: 1, pageSize: 50, description: subject, ...range }, superadmin);
    expect(res.body.code, JSON.stringify(res.body)).toBe(Code.success);
    return (res.body.data.list as OrderRow[]).map((r) => r.orderCode);
  }
  async function exported(range: { startTime: string; endTime: string }) {
    const query = new URLSearchParams({ description: subject, ...range }).toString();
    const csv = await t.app.inject({
      url: `${api.exportList.path}?${query}`,
      cookies: { token: superadmin.token ?? '' },
    });
    return (parse(csv.body, { columns: true, bom: true }) as Array<Record<string, string>>).map((r) => r.orderCode);
  }

  it('off (the default): creation time; on: a paid order by its completion time, the others by creation', async () => {
    // a: created at t1, paid at t2 (5 minutes later); b: created at t2, not paid.
    const a = await createOk(13_001, { subject });
    const [rowA] = await t.database.db.select().from(orders).where(eq(orders.orderCode, a.orderCode));
    const t1 = rowA!.createdAt;
    t.clock.advance(5 * 60_000);
    await confirm(a.orderCode);
    const b = await createOk(13_002, { subject });
    const paid = await t.database.db
      .select()
      .from(orders)
      .where(inArray(orders.orderCode, [a.orderCode]));
    const t2 = paid[0]!.paidAt!;
    expect(t2.getTime() - t1.getTime()).toBeGreaterThanOrEqual(5 * 60_000);

    expect(await listed(around(t1))).toEqual([a.orderCode]);
    expect(await listed(around(t2))).toEqual([b.orderCode]);
    await t.setSetting('CompleteTimeFilter', true);
    expect(await listed(around(t1))).toEqual([]);
    expect(await listed(around(t2))).toEqual([b.orderCode, a.orderCode]);
    // Only one end given: the same rule.
    expect(await listed({ startTime: around(t2).startTime, endTime: '' })).toEqual([b.orderCode, a.orderCode]);
    expect(await exported(around(t2))).toEqual([b.orderCode, a.orderCode]);
    await t.setSetting('CompleteTimeFilter', false);
    expect(await exported(around(t2))).toEqual([b.orderCode]);
  });
});

/** An order's row as stored (state, supplier, hold, times). */
async function orderRow(orderCode: string) {
  const [o] = await t.database.db.select().from(orders).where(eq(orders.orderCode, orderCode));
  return o!;
}

describe('OrderTimeoutMinutes: how long an allocated order waits for its payment', () => {
  afterAll(() => t.setSetting('OrderTimeoutMinutes', undefined));

  const minutes = (from: Date, to: Date | null) => (to!.getTime() - from.getTime()) / 60_000;

  it('sets the expiry of new and reselected orders; the merchant, the payer page and the timeout job follow it', async () => {
    expect(await t.app.services.settings.get('OrderTimeoutMinutes')).toBe(15);
    const short = await createOk(14_001);
    const shortRow = await orderRow(short.orderCode);
    expect(shortRow.state).toBe(ORDER_STATE.allocated);
    expect(minutes(shortRow.createdAt, shortRow.expiresAt)).toBe(15);

    await t.setSetting('OrderTimeoutMinutes', 40);
    const res = await create(14_002);
    const long = res.body.data as { orderCode: string; expireTime: string };
    const longRow = await orderRow(long.orderCode);
    expect(minutes(longRow.createdAt, longRow.expiresAt)).toBe(40);
    // The merchant is told the expiry, and the payer page counts down to it.
    expect(long.expireTime).toBe(longRow.expiresAt!.toISOString());
    const payer = (await t.call(api.payerOrder, { orderCode: long.orderCode })).body.data;
    expect(payer.expiresAt).toBe(longRow.expiresAt!.toISOString());
    // An order allocated before the change keeps its own expiry.
    expect(minutes(shortRow.createdAt, (await orderRow(short.orderCode)).expiresAt)).toBe(15);

    // The timeout job: after 15 minutes the first order times out, the second waits.
    t.clock.advance(15 * 60_000 + 1_000);
    await t.app.services.orders.expireDue();
    expect((await orderRow(short.orderCode)).state).toBe(ORDER_STATE.timedOut);
    expect((await orderRow(long.orderCode)).state).toBe(ORDER_STATE.allocated);

    // Reselected now, the timed-out order gets the new 40 minutes from now.
    const reselected = await t.call(api.reselect, { orderCode: short.orderCode }, superadmin);
    expect(reselected.body.code, JSON.stringify(reselected.body)).toBe(Code.success);
    const again = await orderRow(short.orderCode);
    expect(again.state).toBe(ORDER_STATE.allocated);
    expect(minutes(t.clock.now(), again.expiresAt)).toBe(40);

    // 40 minutes after its creation the second one times out too.
    t.clock.advance(25 * 60_000);
    await t.app.services.orders.expireDue();
    expect((await orderRow(long.orderCode)).state).toBe(ORDER_STATE.timedOut);
    expect((await orderRow(short.orderCode)).state).toBe(ORDER_STATE.allocated);
  });
});

describe('IsSupplierRemoveBalanceOnOrderFinished: when the supplier’s balance is debited', () => {
  afterAll(() => t.setSetting('IsSupplierRemoveBalanceOnOrderFinished', undefined));

  /** The order's transfers, each as its type and the supplier's postings by bucket. */
  async function supplierMoves(orderCode: string, supplierId: number) {
    const moved = await rows<{ id: string; type: string; code: string; amount: string }>(sql`
      select t.id::text as id, t.type, a.code, e.amount::text as amount
        from ledger_transfers t
        join ledger_entries e on e.transfer_id = t.id
        join ledger_accounts a on a.id = e.account_id
       where t.order_code = ${orderCode} and a.code like ${`supplier:${supplierId}:%`}
       order by t.id, a.code`);
    return moved.map((m) => `${m.type} ${m.code.split(':')[2]} ${Number(m.amount)}`);
  }
  async function balances(supplierId: number) {
    const found = await rows<{ code: string; balance: string }>(
      sql`select code, balance::text as balance from ledger_accounts where code like ${`supplier:${supplierId}:%`}`,
    );
    const of = (bucket: string) => Number(found.find((r) => r.code.endsWith(`:${bucket}`))?.balance ?? 0);
    return { available: of('available'), frozen: of('frozen') };
  }
  /** The payment's postings on the supplier's accounts: the amount from one bucket, its commission to available. */
  async function paid(supplierId: number, amount: number, fromHold: boolean) {
    const commission = (
      await t.app.services.suppliers.commissionPostings(t.database.db, { supplierId, productId: 1001, amount })
    )
      .filter((p) => p.account === `supplier:${supplierId}:available`)
      .reduce((sum, p) => sum + p.amount, 0);
    const moves = fromHold
      ? [`orderPaid available ${commission}`, `orderPaid frozen ${-amount}`]
      : [`orderPaid available ${commission - amount}`];
    return { commission, moves: moves.filter((m) => !m.endsWith(' 0')) };
  }
  async function ledgerClean() {
    expect(await t.app.services.ledger.check()).toEqual({ ok: true, violations: [] });
  }

  it('off (the default): the amount is held (available to frozen) at allocation and paid from the hold', async () => {
    expect(await t.app.services.settings.get('IsSupplierRemoveBalanceOnOrderFinished')).toBe(false);
    const { orderCode } = await createOk(15_001);
    const row = await orderRow(orderCode);
    const supplierId = row.supplierId!;
    expect(row.holdOpen).toBe(true);
    expect(await supplierMoves(orderCode, supplierId)).toEqual([
      'orderHold available -15001',
      'orderHold frozen 15001',
    ]);
    const before = await balances(supplierId);
    await confirm(orderCode);
    const payment = await paid(supplierId, 15_001, true);
    expect(await supplierMoves(orderCode, supplierId)).toEqual([
      'orderHold available -15001',
      'orderHold frozen 15001',
      ...payment.moves,
    ]);
    expect(await balances(supplierId)).toEqual({
      available: before.available + payment.commission,
      frozen: before.frozen - 15_001,
    });
    await ledgerClean();
  });

  it('on: nothing moves at allocation, nor at a timeout or reselect; the payment debits the available balance', async () => {
    await t.setSetting('IsSupplierRemoveBalanceOnOrderFinished', true);
    const { orderCode } = await createOk(15_002);
    const row = await orderRow(orderCode);
    const supplierId = row.supplierId!;
    expect(row.state).toBe(ORDER_STATE.allocated);
    expect(row.holdOpen).toBe(false);
    const before = await balances(supplierId);
    expect(await supplierMoves(orderCode, supplierId)).toEqual([]);

    // Timed out and reselected: still no hold, nothing to release.
    t.clock.advance(16 * 60_000);
    await t.app.services.orders.expireDue();
    expect((await orderRow(orderCode)).state).toBe(ORDER_STATE.timedOut);
    const reselected = await t.call(api.reselect, { orderCode }, superadmin);
    expect(reselected.body.code, JSON.stringify(reselected.body)).toBe(Code.success);
    const again = await orderRow(orderCode);
    expect(again).toMatchObject({ state: ORDER_STATE.allocated, holdOpen: false });
    expect(await supplierMoves(orderCode, again.supplierId!)).toEqual([]);
    expect(await balances(supplierId)).toEqual(before);

    const payer = again.supplierId!;
    const payerBefore = await balances(payer);
    await confirm(orderCode);
    const payment = await paid(payer, 15_002, false);
    expect(await supplierMoves(orderCode, payer)).toEqual(payment.moves);
    expect(await balances(payer)).toEqual({
      available: payerBefore.available - 15_002 + payment.commission,
      frozen: payerBefore.frozen,
    });
    await ledgerClean();
  });

  it('an order allocated while off keeps its hold when the setting turns on, and is paid from it', async () => {
    await t.setSetting('IsSupplierRemoveBalanceOnOrderFinished', false);
    const { orderCode } = await createOk(15_003);
    await t.setSetting('IsSupplierRemoveBalanceOnOrderFinished', true);
    const supplierId = (await orderRow(orderCode)).supplierId!;
    await confirm(orderCode);
    expect(await supplierMoves(orderCode, supplierId)).toEqual([
      'orderHold available -15003',
      'orderHold frozen 15003',
      ...(await paid(supplierId, 15_003, true)).moves,
    ]);
    await ledgerClean();
  });
});
