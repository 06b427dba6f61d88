import { Code, codeCatalogue, type Endpoint, endpoints, PAYOUT_STATE, PAYOUT_TEXTS } from '@paydesk/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchants, partyProducts, payouts, resources, suppliers, users } from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, snapshot, startTestApp, type TestApp } from '../../testing/harness.js';
import { signed } from '../../testing/merchant-api.js';
import { signedPayoutRequest } from '../../testing/payout-fixtures.js';
import { accountCode } from '../ledger/accounts.js';
import { LedgerService } from '../ledger/ledger.service.js';

/**
 * Issue 20 items 1, 2 and 5, what payouts.test.ts leaves to this file: the create's checks that it
 * shares with the collections' (service switch, merchant, IP whitelist, amount limits, the daily limit)
 * asked of the payout calls themselves, and a USDT payout (3016) from the wallet address to the
 * transaction hash, with its ledger effect.
 */
const api = endpoints.payouts;
const S = PAYOUT_STATE;
const USDT_ADDRESS = `T${'A'.repeat(33)}`;
let t: TestApp;
let ledger: LedgerService;
let merchantId = 0;
let merchantUserId = 0;
let supplierId = 0;
let supplier: Auth;
let admin: Auth;

const balance = (code: string) => ledger.balanceOf(t.database.db, code);
const setMerchant = (values: Partial<typeof merchants.$inferInsert>) =>
  t.database.db.update(merchants).set(values).where(eq(merchants.id, merchantId));
/** merchant1's own terms for a product (limits, fee), as user product config sets them. */
async function merchantTerms(productId: number, values: Partial<typeof partyProducts.$inferInsert>) {
  const now = t.clock.now();
  await t.database.db
    .insert(partyProducts)
    .values({ userId: merchantUserId, productId, enabled: true, updatedAt: now, ...values })
    .onConflictDoUpdate({
      target: [partyProducts.userId, partyProducts.productId],
      set: { ...values, updatedAt: now },
    });
}
const payoutsNamed = (mchOrderNo: string) =>
  t.database.db
    .select()
    .from(payouts)
    .where(and(eq(payouts.merchantId, merchantId), eq(payouts.merchantOrderNo, mchOrderNo)));

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimitFactor: 1000 } });
  ledger = new LedgerService({ db: t.database.db, clock: t.clock });
  const db = t.database.db;
  const [m] = await db.select().from(merchants).where(eq(merchants.merchantNo, DEMO_MERCHANT_API.mchId));
  merchantId = m!.id;
  merchantUserId = m!.userId;
  const [s] = await db
    .select({ id: suppliers.id, userId: suppliers.userId })
    .from(suppliers)
    .innerJoin(users, eq(users.id, suppliers.userId))
    .where(eq(users.account, 'supplier1'));
  supplierId = s!.id;
  const now = t.clock.now();
  // USDT payouts: merchant1 at 1.00 % + 2.00, supplier1 at 0.50 % from a wallet of its own.
  await merchantTerms(3016, { feeRate: 100, perTransactionFee: 200 });
  await db
    .insert(partyProducts)
    .values({ userId: s!.userId, productId: 3016, enabled: true, commissionRate: 50, updatedAt: now })
    .onConflictDoNothing();
  await db.insert(resources).values({
    supplierId,
    productId: 3016,
    kind: 'usdtPayout',
    name: 'supplier1 USDT wallet',
    state: 0,
    details: { address: `T${'B'.repeat(33)}` },
    createdAt: now,
    updatedAt: now,
  });
  supplier = await t.login('supplier1');
  admin = await t.loginWithToken2('admin');
});
afterAll(() => t.close());

const PAYOUT_FIELDS = (() => {
  const { sign: _s, mchId: _m, ...fields } = signedPayoutRequest({ mchOrderNo: 'PAYCHK1' });
  return fields;
})();

describe.each([
  ['payout/create', () => api.create, PAYOUT_FIELDS],
  ['payout/query', () => api.query, { mchOrderNo: 'PAYCHK1' }],
] as const)('%s: the signed-call checks', (name, endpointOf, keys) => {
  const send = (over: Record<string, string> = {}) =>
    t.call(endpointOf() as Endpoint, signed({ mchId: DEMO_MERCHANT_API.mchId, ...keys, ...over }));
  // A refused create writes nothing: no payout, no hold.
  const nothingCreated = async () => {
    if (name === 'payout/create') expect(await payoutsNamed('PAYCHK1')).toEqual([]);
  };

  it('disabled merchant: 2002', async () => {
    await setMerchant({ enabled: false });
    try {
      const res = await send();
      expect(res.body).toMatchObject({
        code: Code.merchantUnavailable,
        msg: codeCatalogue[Code.merchantUnavailable].message,
      });
    } finally {
      await setMerchant({ enabled: true });
    }
    expect((await send({ mchId: '99999' })).body.code).toBe(Code.merchantUnavailable);
    await nothingCreated();
  });

  it('IP not whitelisted: 2003', async () => {
    await setMerchant({ ipWhitelist: ['192.0.2.0/24'] });
    try {
      expect((await send()).body.code).toBe(Code.ipNotWhitelisted);
    } finally {
      await setMerchant({ ipWhitelist: [] });
    }
    await nothingCreated();
  });

  it('service closed: 2011', async () => {
    await t.setSetting('enableService', false);
    try {
      const res = await send();
      expect(res.status).toBe(503);
      expect(res.body.code).toBe(Code.serviceClosed);
    } finally {
      await t.setSetting('enableService', undefined);
    }
    await nothingCreated();
  });
});

describe('a payout’s amount against the merchant’s limits', () => {
  it('outside the merchant’s minimum and maximum: 2006 with the range, nothing moves', async () => {
    await merchantTerms(2001, { minAmount: 50_000, maxAmount: 200_000 });
    try {
      const before = await snapshot(t.database);
      const low = await t.call(api.create, signedPayoutRequest({ amount: '49999' }));
      expect(low.body).toMatchObject({
        code: Code.amountOutOfRange,
        msg: 'amount must be between 50000 and 200000 (1/100 units)',
      });
      const high = await t.call(api.create, signedPayoutRequest({ amount: '200001' }));
      expect(high.body.code).toBe(Code.amountOutOfRange);
      expect(await snapshot(t.database)).toBe(before);
      const edge = await t.call(api.create, signedPayoutRequest({ amount: '200000' }));
      expect(edge.body.code, JSON.stringify(edge.body)).toBe(200);
    } finally {
      await merchantTerms(2001, { minAmount: null, maxAmount: null });
    }
  });

  it('the daily limit counts today’s payouts: up to it is taken, one unit over is 2007 and moves nothing', async () => {
    const first = await t.call(api.create, signedPayoutRequest({ amount: '30000' }));
    expect(first.body.code, JSON.stringify(first.body)).toBe(200);
    // Room for exactly 40,000 more today, whatever earlier tests made.
    const today = await t.database.db
      .select({ amount: payouts.amount, state: payouts.state })
      .from(payouts)
      .where(and(eq(payouts.merchantId, merchantId), eq(payouts.productId, 2001)));
    const made = today
      .filter((p) => p.state !== S.cancelled && p.state !== S.rejected)
      .reduce((a, p) => a + p.amount, 0);
    await merchantTerms(2001, { dailyLimit: made + 40_000 });
    try {
      const before = await snapshot(t.database);
      const over = await t.call(api.create, signedPayoutRequest({ amount: '40001' }));
      expect(over.body).toMatchObject({ code: Code.dailyLimitReached, msg: 'daily limit reached' });
      expect(await snapshot(t.database)).toBe(before);
      const exact = await t.call(api.create, signedPayoutRequest({ amount: '40000' }));
      expect(exact.body.code, JSON.stringify(exact.body)).toBe(200);
      const more = await t.call(api.create, signedPayoutRequest({ amount: '10000' }));
      expect(more.body.code).toBe(Code.dailyLimitReached);
    } finally {
      await merchantTerms(2001, { dailyLimit: null });
    }
  });
});

describe('a USDT payout (3016)', () => {
  /** merchant1's USDT payout: the bank payout's fields without the bank's, and a wallet address. */
  const usdtParams = (over: Record<string, string> = {}) => {
    const {
      sign: _s,
      userName: _u,
      cardNumber: _c,
      ifscCode: _i,
      bankName: _b,
      bankBranch: _r,
      ...rest
    } = signedPayoutRequest();
    return { ...rest, productId: '3016', address: USDT_ADDRESS, ...over };
  };
  const usdtRequest = (over: Record<string, string> = {}) => signed(usdtParams(over));

  it('needs the wallet address alone, checked as a TRON address; bank fields are not asked', async () => {
    const before = await snapshot(t.database);
    const { address: _a, ...noAddress } = usdtParams();
    const missing = await t.call(api.create, signed(noAddress));
    expect(missing.status).toBe(400);
    expect(missing.body.data.issues).toEqual([{ path: 'address', message: PAYOUT_TEXTS.required }]);
    const bad = await t.call(api.create, usdtRequest({ address: '0x12345' }));
    expect(bad.body.data.issues).toEqual([
      { path: 'address', message: 'address must be a USDT wallet address (TRON: T and 33 letters or digits)' },
    ]);
    expect(await snapshot(t.database)).toBe(before);
  });

  it('is held, claimed from the supplier’s wallet, paid with the transaction hash and confirmed: the ledger as for a bank payout', async () => {
    const available = await balance(accountCode('merchant', merchantId, 'available'));
    const frozen = await balance(accountCode('merchant', merchantId, 'frozen'));
    const supplierAvailable = await balance(accountCode('supplier', supplierId, 'available'));
    const amount = 150_000;
    const fee = Math.floor((amount * 100) / 10_000) + 200;
    const created = await t.call(api.create, usdtRequest({ amount: String(amount) }));
    expect(created.body.code, JSON.stringify(created.body)).toBe(200);
    expect(created.body.data).toMatchObject({ productId: 3016, amount, fee, state: S.awaiting });
    expect(await balance(accountCode('merchant', merchantId, 'available'))).toBe(available - amount - fee);
    expect(await balance(accountCode('merchant', merchantId, 'frozen'))).toBe(frozen + amount + fee);
    const [row] = await t.database.db.select().from(payouts).where(eq(payouts.orderCode, created.body.data.orderCode));
    expect(row).toMatchObject({ address: USDT_ADDRESS, cardNumber: null, ifscCode: null });

    // supplier1's queue offers it (it has a wallet for 3016), and its claim takes it on that wallet.
    const queue = await t.call(api.getList, { queue: true, pageIndex: 1, pageSize: 100 }, supplier);
    expect((queue.body.data.list as Array<{ id: number }>).map((p) => p.id)).toContain(row!.id);
    const claim = await t.call(api.claimOrder, { orderId: row!.id }, supplier);
    expect(claim.body.code, JSON.stringify(claim.body)).toBe(200);
    const [claimed] = await t.database.db.select().from(payouts).where(eq(payouts.id, row!.id));
    const [wallet] = await t.database.db.select().from(resources).where(eq(resources.id, claimed!.resourceId!));
    expect(wallet).toMatchObject({ kind: 'usdtPayout', supplierId });

    const hash = 'a'.repeat(64);
    const submit = await t.call(api.submit, { orderId: row!.id, utr: hash }, supplier);
    expect(submit.body.code, JSON.stringify(submit.body)).toBe(200);
    const confirm = await t.call(api.confirm, { orderId: row!.id }, admin);
    expect(confirm.body.code, JSON.stringify(confirm.body)).toBe(200);

    const commission = Math.floor((amount * 50) / 10_000);
    expect(await balance(accountCode('merchant', merchantId, 'frozen'))).toBe(frozen);
    expect(await balance(accountCode('merchant', merchantId, 'available'))).toBe(available - amount - fee);
    expect(await balance(accountCode('supplier', supplierId, 'available'))).toBe(
      supplierAvailable + amount + commission,
    );
    expect(await ledger.check()).toEqual({ ok: true, violations: [] });

    // The merchant's query answers the hash as the payout's UTR.
    const query = await t.call(
      api.query,
      signed({ mchId: DEMO_MERCHANT_API.mchId, orderCode: created.body.data.orderCode }),
    );
    expect(query.body.data).toMatchObject({ state: S.completed, utr: hash, productId: 3016 });
  });
});
