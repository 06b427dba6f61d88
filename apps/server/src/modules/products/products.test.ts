import { Code, endpoints, PRODUCTS } from '@paydesk/contract';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, users } from '../../db/schema.js';
import type { Actor } from '../../platform/audit.js';
import { AppError } from '../../platform/errors.js';
import { type Auth, downloadCsv, snapshot, startTestApp, type TestApp } from '../../testing/harness.js';
import { ProductsService } from './products.service.js';

const { products: api } = endpoints;
let t: TestApp;
let service: ProductsService;
const auth: Record<string, Auth> = {};
const ids: Record<string, number> = {};

const SEEDED = ['superadmin', 'admin', 'service', 'maintenance', 'support', 'supplier1', 'agent1', 'merchant1'];

beforeAll(async () => {
  t = await startTestApp();
  service = new ProductsService({ db: t.database.db, clock: t.clock });
  for (const account of SEEDED) auth[account] = await t.login(account);
  const options = await t.call(endpoints.users.getUserOptions, {}, auth.admin);
  for (const o of options.body.data as Array<{ id: number; account: string }>) ids[o.account] = o.id;
});
afterAll(() => t.close());

/** A fresh console account of a party role; with `parent`, an agent of that supplier. */
let counter = 0;
async function party(role: 'merchant' | 'supplier', parent?: number): Promise<number> {
  counter += 1;
  const account = `${role}${parent ? 'agent' : ''}x${counter}`;
  const res = await t.call(
    endpoints.users.addUser,
    { nickname: account, account, password: 'party1234', access: role },
    auth.admin,
  );
  expect(res.body.code).toBe(200);
  const id = res.body.data.id as number;
  if (parent) await t.database.db.update(users).set({ parentId: parent }).where(eq(users.id, id));
  return id;
}

const settings = (over: Record<string, unknown> = {}) => ({
  enabled: true,
  feeRate: 0,
  perTransactionFee: 0,
  commissionRate: 0,
  dailyLimit: null,
  minAmount: null,
  maxAmount: null,
  kycLowerLimit: null,
  ...over,
});

const save = (userId: number, productId: number, over: Record<string, unknown> = {}, as: Auth = auth.admin!) =>
  t.call(api.saveUserProduct, { userId, productId, ...settings(over) }, as);

/** Calls a change that must be refused: the 422 with its reason, and nothing changed anywhere. */
async function expectRefused(
  run: () => Promise<{ body: { code: number; msg: string; data: unknown } }>,
  reason: string,
) {
  const before = await snapshot(t.database);
  const res = await run();
  expect(res.body.code).toBe(Code.businessRule);
  expect(res.body.data).toMatchObject({ reason });
  expect(await snapshot(t.database)).toBe(before);
  return res.body;
}

const lastAudit = async (action: string, target: string) => {
  const [row] = await t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.target, target)))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return row;
};

describe('product catalogue', () => {
  it('every role reads the catalogue in its order with the database’s enablement and limits', async () => {
    for (const account of SEEDED) {
      const res = await t.call(api.getProductList, {}, auth[account]);
      expect(res.body.code).toBe(200);
      expect(res.body.data.map((p: { id: number }) => p.id)).toEqual(PRODUCTS.map((p) => p.id));
    }
    const res = await t.call(api.getProductList, {}, auth.merchant1);
    expect(res.body.data.find((p: { id: number }) => p.id === 1045)).toMatchObject({
      name: 'Collection (API amount in 1/10000)',
      direction: 'collection',
      resourceKind: 'upi',
      apiUnitsPerMinor: 100,
      floatingAmount: false,
      enabled: true,
      minAmount: 10_000,
      maxAmount: 5_000_000,
    });
    expect(res.body.data.find((p: { id: number }) => p.id === 3015)).toMatchObject({ floatingAmount: true });
  });

  it('admins change a product’s enablement and limits, audited; min above max is refused and changes nothing', async () => {
    const res = await t.call(
      api.updateProduct,
      { id: 5002, enabled: false, minAmount: 20_000, maxAmount: 3_000_000 },
      auth.admin,
    );
    expect(res.body.code).toBe(200);
    expect(res.body.data).toMatchObject({ id: 5002, enabled: false, minAmount: 20_000, maxAmount: 3_000_000 });
    const list = await t.call(api.getProductList, {}, auth.supplier1);
    expect(list.body.data.find((p: { id: number }) => p.id === 5002)).toMatchObject({
      enabled: false,
      minAmount: 20_000,
      maxAmount: 3_000_000,
    });
    const audit = await lastAudit('products.updateProduct', 'product:5002');
    expect(audit).toMatchObject({
      account: 'admin',
      before: { enabled: true, minAmount: 10_000, maxAmount: 5_000_000 },
      after: { enabled: false, minAmount: 20_000, maxAmount: 3_000_000 },
    });

    await expectRefused(
      () => t.call(api.updateProduct, { id: 5002, enabled: true, minAmount: 30_000, maxAmount: 29_999 }, auth.admin),
      'minAboveMax',
    );
    const unknown = await t.call(
      api.updateProduct,
      { id: 9999, enabled: true, minAmount: 1, maxAmount: 2 },
      auth.admin,
    );
    expect(unknown.body.code).toBe(Code.notFound);
    for (const account of ['service', 'maintenance', 'merchant1', 'supplier1']) {
      const denied = await t.call(
        api.updateProduct,
        { id: 5002, enabled: true, minAmount: 1, maxAmount: 2 },
        auth[account],
      );
      expect(denied.body.code).toBe(Code.forbidden);
    }
    const back = await t.call(
      api.updateProduct,
      { id: 5002, enabled: true, minAmount: 10_000, maxAmount: 5_000_000 },
      auth.superadmin,
    );
    expect(back.body.code).toBe(200);
  });
});

describe('saving a party’s product settings', () => {
  it('saves a merchant’s fees and limits, updates the same row on a second save, audits before and after', async () => {
    const m = await party('merchant');
    const first = await save(m, 1001, {
      feeRate: 250,
      perTransactionFee: 500,
      dailyLimit: 100_000_000,
      minAmount: 20_000,
      maxAmount: 1_000_000,
      kycLowerLimit: 500_000,
    });
    expect(first.body.code).toBe(200);
    expect(first.body.data).toMatchObject({
      userId: m,
      role: 'merchant',
      parentAccount: null,
      productId: 1001,
      enabled: true,
      feeRate: 250,
      perTransactionFee: 500,
      commissionRate: 0,
      dailyLimit: 100_000_000,
      minAmount: 20_000,
      maxAmount: 1_000_000,
      kycLowerLimit: 500_000,
    });
    const target = `user:${m}:product:1001`;
    expect(await lastAudit('products.saveUserProduct', target)).toMatchObject({
      account: 'admin',
      before: null,
      after: { feeRate: 250, perTransactionFee: 500, enabled: true },
    });

    const second = await save(m, 1001, { enabled: false, feeRate: 300 }, auth.superadmin);
    expect(second.body.data).toMatchObject({ id: first.body.data.id, enabled: false, feeRate: 300, minAmount: null });
    expect(await lastAudit('products.saveUserProduct', target)).toMatchObject({
      account: 'superadmin',
      before: { feeRate: 250, enabled: true, minAmount: 20_000 },
      after: { feeRate: 300, enabled: false, minAmount: null },
    });
    const list = await t.call(api.getUserProductList, { pageIndex: 1, userId: m }, auth.admin);
    expect(list.body.data.total).toBe(1);
  });

  it('refuses fees for a supplier and a commission for a merchant', async () => {
    const m = await party('merchant');
    const s = await party('supplier');
    expect((await expectRefused(() => save(m, 1001, { commissionRate: 100 }), 'fieldNotForRole')).msg).toMatch(
      /suppliers only/,
    );
    await expectRefused(() => save(s, 1001, { feeRate: 100 }), 'fieldNotForRole');
    await expectRefused(() => save(s, 1001, { perTransactionFee: 1 }), 'fieldNotForRole');
    expect((await save(s, 1001, { commissionRate: 150 })).body.data).toMatchObject({ commissionRate: 150 });
  });

  it('refuses accounts that are not a live merchant or supplier, and unknown products', async () => {
    await expectRefused(() => save(ids.service!, 1001), 'notAParty');
    await expectRefused(() => save(ids.admin!, 1001), 'notAParty');
    await expectRefused(() => save(99_999, 1001), 'notAParty');
    const gone = await party('merchant');
    expect((await t.call(endpoints.users.deleteUser, { id: gone }, await t.loginWithToken2('admin'))).body.code).toBe(
      200,
    );
    await expectRefused(() => save(gone, 1001), 'notAParty');
    const m = await party('merchant');
    expect((await save(m, 9999)).body.code).toBe(Code.notFound);
  });

  it('keeps a party’s limits inside the product’s, and min at most max', async () => {
    const m = await party('merchant');
    // Product defaults: 100.00 to 50,000.00 (10,000 to 5,000,000 minor units).
    await expectRefused(() => save(m, 2001, { minAmount: 9_999 }), 'outsideProductLimits');
    await expectRefused(() => save(m, 2001, { maxAmount: 5_000_001 }), 'outsideProductLimits');
    await expectRefused(() => save(m, 2001, { minAmount: 6_000_000 }), 'outsideProductLimits');
    await expectRefused(() => save(m, 2001, { minAmount: 50_000, maxAmount: 40_000 }), 'minAboveMax');
    await expectRefused(() => save(m, 2001, { maxAmount: 10_000, minAmount: 10_001 }), 'minAboveMax');
    const ok = await save(m, 2001, { minAmount: 10_000, maxAmount: 5_000_000 });
    expect(ok.body.data).toMatchObject({ minAmount: 10_000, maxAmount: 5_000_000 });
  });

  it('only superAdmin and admin save; invalid input is a 400', async () => {
    const m = await party('merchant');
    for (const account of ['service', 'maintenance', 'support', 'merchant1', 'supplier1', 'agent1']) {
      expect((await save(m, 1001, {}, auth[account])).body.code).toBe(Code.forbidden);
    }
    expect((await save(m, 1001, { feeRate: 10_001 })).body.code).toBe(Code.invalidInput);
    expect((await save(m, 1001, { minAmount: 0 })).body.code).toBe(Code.invalidInput);
    expect((await save(m, 1001, { perTransactionFee: 1.5 })).body.code).toBe(Code.invalidInput);
  });
});

describe('an agent’s commission and its parent’s', () => {
  it('refuses an agent’s commission above its parent’s, with the cap in the message and data', async () => {
    const parent = await party('supplier');
    const agent = await party('supplier', parent);
    expect((await save(parent, 1001, { commissionRate: 300 })).body.code).toBe(200);
    const above = await expectRefused(() => save(agent, 1001, { commissionRate: 301 }), 'commissionAboveParent');
    expect(above.msg).toBe("an agent's commission may not exceed its parent's (3.00%)");
    expect(above.data).toEqual({ reason: 'commissionAboveParent', max: 300 });
    const equal = await save(agent, 1001, { commissionRate: 300 });
    expect(equal.body.data).toMatchObject({ commissionRate: 300, parentAccount: expect.stringMatching(/^supplierx/) });
    // The parent has no settings for 1002: its agent may take no commission there.
    const none = await expectRefused(() => save(agent, 1002, { commissionRate: 1 }), 'commissionAboveParent');
    expect(none.data).toEqual({ reason: 'commissionAboveParent', max: 0 });
    expect((await save(agent, 1002, { commissionRate: 0 })).body.code).toBe(200);
  });

  it('refuses lowering a parent’s commission below one of its agents’; other products are not affected', async () => {
    const parent = await party('supplier');
    const a1 = await party('supplier', parent);
    const a2 = await party('supplier', parent);
    await save(parent, 1001, { commissionRate: 500 });
    await save(a1, 1001, { commissionRate: 200 });
    await save(a2, 1001, { commissionRate: 350 });
    const below = await expectRefused(() => save(parent, 1001, { commissionRate: 349 }), 'commissionBelowAgent');
    expect(below.msg).toBe("a supplier's commission may not go below one of its agents' (3.50%)");
    expect(below.data).toEqual({ reason: 'commissionBelowAgent', min: 350 });
    expect((await save(parent, 1001, { commissionRate: 350 })).body.code).toBe(200);
    expect((await save(parent, 1002, { commissionRate: 0 })).body.code).toBe(200);
    // A deleted agent no longer holds its parent's commission up.
    expect((await t.call(endpoints.users.deleteUser, { id: a2 }, await t.loginWithToken2('admin'))).body.code).toBe(
      200,
    );
    expect((await save(parent, 1001, { commissionRate: 200 })).body.code).toBe(200);
  });
});

describe('an agent and its parent changed at the same time', () => {
  it('never ends with the agent above its parent', async () => {
    const parent = await party('supplier');
    const agent = await party('supplier', parent);
    await save(parent, 1001, { commissionRate: 300 });
    await save(agent, 1001, { commissionRate: 100 });
    const [raise, lower] = await Promise.all([
      save(agent, 1001, { commissionRate: 300 }),
      save(parent, 1001, { commissionRate: 200 }),
    ]);
    // Whichever runs first wins; the other sees its result and is refused.
    expect([raise.body.code, lower.body.code].sort()).toEqual([200, Code.businessRule]);
    const agentRate = await service.commissionRateOf(t.database.db, agent, 1001);
    const parentRate = await service.commissionRateOf(t.database.db, parent, 1001);
    expect(agentRate).toBeLessThanOrEqual(parentRate);
  });
});

describe('service methods for other areas', () => {
  const actor: Actor = { userId: null, account: 'system', role: null, ip: null };

  it('saveCommission creates enabled settings, keeps other fields, audits, and obeys the cap', async () => {
    const parent = await party('supplier');
    const agent = await party('supplier', parent);
    expect(await service.commissionRateOf(t.database.db, agent, 1001)).toBe(0);
    expect(await service.settingsOf(t.database.db, agent, 1001)).toBeNull();

    await t.database.db.transaction((tx) =>
      service.saveCommission(tx, { userId: parent, productId: 1001, commissionRate: 400 }, actor),
    );
    expect(await service.settingsOf(t.database.db, parent, 1001)).toMatchObject({
      enabled: true,
      commissionRate: 400,
      feeRate: 0,
      dailyLimit: null,
    });
    expect(await lastAudit('products.saveCommission', `user:${parent}:product:1001`)).toMatchObject({
      before: null,
      after: { commissionRate: 400, enabled: true },
    });

    const before = await snapshot(t.database);
    const refusal = await t.database.db
      .transaction((tx) => service.saveCommission(tx, { userId: agent, productId: 1001, commissionRate: 401 }, actor))
      .catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(AppError);
    expect((refusal as AppError).data).toEqual({ reason: 'commissionAboveParent', max: 400 });
    expect(await snapshot(t.database)).toBe(before);

    await save(agent, 1001, { enabled: false, dailyLimit: 700_000, commissionRate: 100 });
    await t.database.db.transaction((tx) =>
      service.saveCommission(tx, { userId: agent, productId: 1001, commissionRate: 250 }, actor),
    );
    expect(await service.settingsOf(t.database.db, agent, 1001)).toMatchObject({
      enabled: false,
      dailyLimit: 700_000,
      commissionRate: 250,
    });
    expect(await service.commissionRateOf(t.database.db, agent, 1001)).toBe(250);

    const lower = await t.database.db
      .transaction((tx) => service.saveCommission(tx, { userId: parent, productId: 1001, commissionRate: 200 }, actor))
      .catch((e: unknown) => e);
    expect((lower as AppError).data).toEqual({ reason: 'commissionBelowAgent', min: 250 });

    const merchant = await party('merchant');
    const notForMerchant = await t.database.db
      .transaction((tx) => service.saveCommission(tx, { userId: merchant, productId: 1001, commissionRate: 1 }, actor))
      .catch((e: unknown) => e);
    expect((notForMerchant as AppError).data).toEqual({ reason: 'fieldNotForRole' });
  });
});

describe('reading party product settings: scope, filters, export', () => {
  let otherMerchant: number;

  beforeAll(async () => {
    otherMerchant = await party('merchant');
    // Seeded parties: a parent's commission at 100 % is never below its agent's.
    expect((await save(ids.supplier1!, 3015, { commissionRate: 10_000 })).body.code).toBe(200);
    expect((await save(ids.agent1!, 3015, { commissionRate: 0, enabled: false })).body.code).toBe(200);
    expect((await save(ids.merchant1!, 3015, { feeRate: 120 })).body.code).toBe(200);
    expect((await save(otherMerchant, 3015, { feeRate: 130 })).body.code).toBe(200);
  });

  const listOf = async (as: Auth, filters: Record<string, unknown> = {}) => {
    const res = await t.call(api.getUserProductList, { pageIndex: 1, pageSize: 500, ...filters }, as);
    expect(res.body.code).toBe(200);
    return res.body.data as { total: number; list: Array<{ id: number; userId: number; [k: string]: unknown }> };
  };

  it('a merchant sees only its own rows; a supplier its own and its agents’; an agent only its own', async () => {
    const mine = await listOf(auth.merchant1!);
    expect(mine.list.length).toBeGreaterThan(0);
    expect(new Set(mine.list.map((r) => r.userId))).toEqual(new Set([ids.merchant1]));
    expect((await listOf(auth.merchant1!, { userId: otherMerchant })).total).toBe(0);

    const team = await listOf(auth.supplier1!);
    expect(new Set(team.list.map((r) => r.userId))).toEqual(new Set([ids.supplier1, ids.agent1]));
    expect(team.list.find((r) => r.userId === ids.agent1)).toMatchObject({ parentAccount: 'supplier1' });

    const agentOnly = await listOf(auth.agent1!);
    expect(new Set(agentOnly.list.map((r) => r.userId))).toEqual(new Set([ids.agent1]));

    for (const staff of ['superadmin', 'admin', 'service', 'maintenance']) {
      const all = await listOf(auth[staff]!, { productId: 3015 });
      expect(all.list.map((r) => r.userId)).toEqual(
        expect.arrayContaining([ids.supplier1, ids.agent1, ids.merchant1, otherMerchant]),
      );
    }
    expect((await t.call(api.getUserProductList, { pageIndex: 1 }, auth.support)).body.code).toBe(Code.forbidden);
  });

  it('filters by account, role, product and enablement, pages, and sorts', async () => {
    const suppliers = await listOf(auth.admin!, { role: 'supplier', productId: 3015 });
    expect(suppliers.list.every((r) => r.role === 'supplier' && r.productId === 3015)).toBe(true);
    expect(suppliers.list.map((r) => r.userId)).toEqual(expect.arrayContaining([ids.supplier1, ids.agent1]));
    const disabled = await listOf(auth.admin!, { productId: 3015, enabled: 'false' });
    expect(disabled.list.map((r) => r.userId)).toEqual([ids.agent1]);
    const one = await listOf(auth.admin!, { userId: otherMerchant, productId: '' });
    expect(one.list.map((r) => r.feeRate)).toEqual([130]);

    const all = await listOf(auth.admin!);
    const page2 = await t.call(api.getUserProductList, { pageIndex: 2, pageSize: 2 }, auth.admin);
    expect(page2.body.data).toMatchObject({ total: all.total, pageIndex: 2, pageSize: 2 });
    expect(page2.body.data.list.map((r: { id: number }) => r.id)).toEqual(all.list.slice(2, 4).map((r) => r.id));

    const sorted = await listOf(auth.admin!, {
      productId: 3015,
      role: 'merchant',
      sortBy: 'feeRate',
      sortOrder: 'desc',
    });
    const rates = sorted.list.map((r) => r.feeRate as number);
    expect(rates).toEqual([...rates].sort((a, b) => b - a));
  });

  it('getForUser answers every product for one’s own or one’s agent’s account, 404 for anyone else’s', async () => {
    const own = await t.call(api.getUserProductsForUser, { userId: ids.merchant1 }, auth.merchant1);
    expect(own.body.code).toBe(200);
    expect(own.body.data.map((r: { productId: number }) => r.productId)).toEqual(PRODUCTS.map((p) => p.id));
    expect(own.body.data.find((r: { productId: number }) => r.productId === 3015)).toMatchObject({
      feeRate: 120,
      enabled: true,
      account: 'merchant1',
    });

    const fresh = await party('merchant');
    const defaults = await t.call(api.getUserProductsForUser, { userId: fresh }, auth.service);
    expect(defaults.body.data[0]).toMatchObject({
      id: null,
      enabled: false,
      feeRate: 0,
      commissionRate: 0,
      minAmount: null,
      updatedAt: null,
      role: 'merchant',
    });

    expect((await t.call(api.getUserProductsForUser, { userId: ids.agent1 }, auth.supplier1)).body.code).toBe(200);
    const agentView = await t.call(api.getUserProductsForUser, { userId: ids.agent1 }, auth.maintenance);
    expect(agentView.body.data[0]).toMatchObject({ parentAccount: 'supplier1' });
    const notFound: Array<[string, number]> = [
      ['merchant1', otherMerchant],
      ['merchant1', ids.supplier1!],
      ['supplier1', ids.merchant1!],
      ['agent1', ids.supplier1!],
      ['admin', ids.service!],
      ['admin', 99_999],
    ];
    for (const [account, userId] of notFound) {
      const res = await t.call(api.getUserProductsForUser, { userId }, auth[account]);
      expect(res.body.code, `${account} -> ${userId}`).toBe(Code.notFound);
    }
  });

  it('the CSV export holds exactly the filtered list, within the caller’s scope', async () => {
    const cases: Array<[string, Record<string, string>]> = [
      ['admin', { role: 'merchant', productId: '3015' }],
      ['admin', {}],
      ['supplier1', {}],
      ['merchant1', { enabled: 'true' }],
    ];
    for (const [account, filters] of cases) {
      const list = await listOf(auth[account]!, filters);
      const csv = await downloadCsv(t, api.exportUserProductList, filters, auth[account]!);
      expect(csv.status).toBe(200);
      expect(csv.header).toBe(
        'id,userId,account,nickname,role,parentAccount,productId,enabled,feeRate,perTransactionFee,commissionRate,dailyLimit,minAmount,maxAmount,kycLowerLimit,updatedAt',
      );
      expect(csv.rows.map((r) => Number(r.split(',')[0]))).toEqual(list.list.map((r) => r.id));
    }
    const merchantCsv = await downloadCsv(
      t,
      api.exportUserProductList,
      { userId: String(otherMerchant) },
      auth.merchant1!,
    );
    expect(merchantCsv.rows).toEqual([]);
    const row = (await downloadCsv(t, api.exportUserProductList, { userId: String(otherMerchant) }, auth.admin!))
      .rows[0];
    expect(row).toMatch(
      new RegExp(`^\\d+,${otherMerchant},merchantx\\d+,merchantx\\d+,merchant,,3015,true,130,0,0,,,,,`),
    );
  });
});
