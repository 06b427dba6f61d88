import {
  allowedPayoutActions,
  endpoints,
  PAYOUT_PROCESS_STATE,
  PAYOUT_STATE,
  PAYOUT_STATES,
  type PayoutRow,
} from '@paydesk/contract';
import { parse } from 'csv-parse/sync';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchants, partyProducts, payouts, resources, users } from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, startTestApp, type TestApp } from '../../testing/harness.js';
import { givePayoutAccounts } from '../../testing/payout-fixtures.js';
import { accountCode } from '../ledger/accounts.js';
import { LedgerService } from '../ledger/ledger.service.js';
import { signParams } from '../orders/signature.js';

/**
 * Issue 20 item 6, the payout lists: data scope by role (staff all, a merchant its own, a supplier its
 * own and its agents'), every filter of spec section 3, the totals over the filtered set, sorting, the
 * CSV export (the same rows as the list), the supplier's claim queue and the state list.
 */
const api = endpoints.payouts;
const S = PAYOUT_STATE;
const P = PAYOUT_PROCESS_STATE;
let t: TestApp;
let ledger: LedgerService;
const auth: Record<string, Auth> = {};
const supplierIds: Record<string, number> = {};
let merchantId = 0;
let otherMerchantId = 0;

/** The payouts made below, by name. */
const made: Record<string, { id: number; orderCode: string; amount: number; mchOrderNo: string }> = {};

async function createPayout(name: string, amount: number, payee: Record<string, string> = {}) {
  const p: Record<string, string> = {
    mchId: DEMO_MERCHANT_API.mchId,
    productId: '2001',
    mchOrderNo: `LIST-${name}`,
    amount: String(amount),
    userName: `Payee ${name}`,
    cardNumber: '50100234567890',
    ifscCode: 'HDFC0001234',
    bankName: 'HDFC Bank',
    bankBranch: 'Koramangala',
    address: '12 MG Road, Bengaluru',
    ...payee,
  };
  const res = await t.call(api.create, { ...p, sign: signParams(p, DEMO_MERCHANT_API.secret, 'HMAC-SHA256') });
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  const [row] = await t.database.db.select().from(payouts).where(eq(payouts.orderCode, res.body.data.orderCode));
  made[name] = { id: row!.id, orderCode: row!.orderCode, amount, mchOrderNo: p.mchOrderNo! };
  t.clock.advance(60_000);
}

async function ok(res: Promise<{ body: { code: number } }>) {
  const { body } = await res;
  expect(body.code, JSON.stringify(body)).toBe(200);
}

async function list(who: string, query: Record<string, unknown> = {}) {
  const res = await t.call(api.getList, { pageIndex: 1, pageSize: 100, ...query }, auth[who]);
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { list: PayoutRow[]; total: number; summary: Record<string, number> };
}
const names = (rows: PayoutRow[]) =>
  rows.map((r) => Object.entries(made).find(([, m]) => m.id === r.id)?.[0] ?? `other:${r.id}`);

beforeAll(async () => {
  t = await startTestApp();
  ledger = new LedgerService({ db: t.database.db, clock: t.clock });
  const db = t.database.db;
  const [m] = await db.select().from(merchants).where(eq(merchants.merchantNo, DEMO_MERCHANT_API.mchId));
  merchantId = m!.id;
  const now = t.clock.now();
  Object.assign(supplierIds, (await givePayoutAccounts(t)).supplierIds);
  // Another merchant's payouts (written directly: only whose they are matters here), one of a gateway
  // product (2002), which no supplier claims by hand.
  const [otherUser] = await db
    .insert(users)
    .values({ account: 'listmerchant2', nickname: 'List merchant 2', role: 'merchant', passwordHash: 'x' })
    .returning({ id: users.id });
  const [other] = await db
    .insert(merchants)
    .values({
      userId: otherUser!.id,
      merchantNo: '99902',
      name: 'List merchant 2',
      secretSealed: 'x',
      secretRotatedAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: merchants.id });
  otherMerchantId = other!.id;
  for (const [name, productId, amount] of [
    ['other2001', 2001, 70_000],
    ['other2002', 2002, 80_000],
  ] as const) {
    const [row] = await db
      .insert(payouts)
      .values({
        orderCode: `P9990200000${productId}`,
        merchantId: otherMerchantId,
        merchantUserId: otherUser!.id,
        merchantOrderNo: `LIST-${name}`,
        requestHash: 'x',
        productId,
        amount,
        fee: 700,
        state: S.awaiting,
        userName: `Payee ${name}`,
        cardNumber: '99887766',
        ifscCode: 'SBIN0004321',
        createdAt: t.clock.now(),
        updatedAt: t.clock.now(),
      })
      .returning({ id: payouts.id, orderCode: payouts.orderCode });
    made[name] = { id: row!.id, orderCode: row!.orderCode, amount, mchOrderNo: `LIST-${name}` };
    t.clock.advance(60_000);
  }
  for (const account of ['supplier1', 'agent1', 'merchant1', 'service', 'maintenance'])
    auth[account] = await t.login(account);
  auth.admin = await t.loginWithToken2('admin');

  await createPayout('a', 120_000, { userName: 'Ravi Kumar', cardNumber: '11112222', ifscCode: 'ICIC0000001' });
  await createPayout('b', 50_000);
  await createPayout('c', 123_456);
  await createPayout('d', 30_000);
  await createPayout('e', 40_000);
  // a: claimed by supplier1, submitted, confirmed (completed); b: claimed by agent1 (in progress);
  // c and e: awaiting; d: cancelled by the merchant.
  await ok(t.call(api.claimOrder, { orderId: made.a!.id }, auth.supplier1));
  await ok(t.call(api.submit, { orderId: made.a!.id, utr: 'UTRLIST000001' }, auth.supplier1));
  await ok(t.call(api.confirm, { orderId: made.a!.id }, auth.admin));
  await ok(t.call(api.claimOrder, { orderId: made.b!.id }, auth.agent1));
  await ok(t.call(api.cancel, { orderId: made.d!.id }, auth.merchant1));
});
afterAll(() => t.close());

describe('data scope', () => {
  it('staff see every payout, newest first; a merchant its own; a supplier its own and its agents’', async () => {
    const all = ['e', 'd', 'c', 'b', 'a', 'other2002', 'other2001'];
    for (const who of ['admin', 'service', 'maintenance']) expect(names((await list(who)).list), who).toEqual(all);
    expect(names((await list('merchant1')).list)).toEqual(['e', 'd', 'c', 'b', 'a']);
    // Its list is its own (SupplierUnifyQueryGroup off, the default); its agents' are the team page's.
    expect(names((await list('supplier1')).list)).toEqual(['a']);
    expect(names((await list('supplier1', { isProxy: true })).list)).toEqual(['b']);
    expect(names((await list('supplier1', { isProxy: false })).list)).toEqual(['a']);
    // An agent sees its own: its parent's are not its team.
    expect(names((await list('agent1')).list)).toEqual(['b']);
    expect(names((await list('agent1', { isProxy: true })).list)).toEqual([]);
  });

  it('SupplierUnifyQueryGroup on: a supplier’s list, its totals and its export are its whole team’s', async () => {
    const off = await list('supplier1');
    await t.setSetting('SupplierUnifyQueryGroup', true);
    try {
      const on = await list('supplier1');
      expect(names(on.list)).toEqual(['b', 'a']);
      expect(on.total).toBe(2);
      expect(on.summary.amount).toBe((off.summary.amount ?? 0) + made.b!.amount);
      const csv = await t.app.inject({ url: api.exportList.path, cookies: { token: auth.supplier1!.token ?? '' } });
      const rows = parse(csv.body, { columns: true, bom: true }) as Array<Record<string, string>>;
      expect(rows.map((r) => Number(r.id))).toEqual([made.b!.id, made.a!.id]);
      // The filters keep their meaning, and an agent's team is itself.
      expect(names((await list('supplier1', { isProxy: false })).list)).toEqual(['a']);
      expect(names((await list('supplier1', { isProxy: true })).list)).toEqual(['b']);
      expect(names((await list('agent1')).list)).toEqual(['b']);
    } finally {
      await t.setSetting('SupplierUnifyQueryGroup', undefined);
    }
  });

  it('a merchant’s rows hide the supplier and the commission, and every row carries the caller’s actions', async () => {
    const mine = await list('merchant1', { orderCode: made.c!.orderCode });
    expect(mine.list[0]).toMatchObject({ supplierId: null, commission: null, allowedActions: ['cancel'] });
    const staff = await list('admin');
    for (const row of staff.list) {
      expect(row.allowedActions).toEqual(allowedPayoutActions('admin', { state: row.state, claimedByCaller: false }));
    }
    const supplier = await list('supplier1');
    expect(supplier.list.find((r) => r.id === made.a!.id)?.allowedActions).toEqual([]);
    // Its agent's payout is in its team view, but the agent acts on it (the action endpoints are not
    // team views): the supplier is offered nothing the server would refuse.
    const team = await list('supplier1', { isProxy: true });
    expect(team.list.find((r) => r.id === made.b!.id)?.allowedActions).toEqual([]);
    expect((await t.call(api.submit, { orderId: made.b!.id, utr: 'UTRTEAM0001' }, auth.supplier1)).status).toBe(404);
    expect((await list('agent1')).list[0]?.allowedActions).toEqual(['cancelClaim', 'submit', 'reject', 'markAbnormal']);
    expect(supplier.list.find((r) => r.id === made.a!.id)?.commission).toBe(1_200);
  });

  it('the export answers only the caller’s rows too', async () => {
    const csv = await t.app.inject({ url: api.exportList.path, cookies: { token: auth.merchant1!.token ?? '' } });
    const rows = parse(csv.body, { columns: true, bom: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => Number(r.id))).toEqual(['e', 'd', 'c', 'b', 'a'].map((n) => made[n]!.id));
  });
});

describe('filters, sorting and totals', () => {
  it.each([
    ['merchantId', () => ({ merchantId: otherMerchantId }), ['other2002', 'other2001']],
    ['merchantId (merchant1)', () => ({ merchantId }), ['e', 'd', 'c', 'b', 'a']],
    ['supplierId', () => ({ supplierId: supplierIds.agent1 }), ['b']],
    ['productId', () => ({ productId: 2002 }), ['other2002']],
    ['merchantOrderId (part of it)', () => ({ merchantOrderId: 'list-OTHER' }), ['other2002', 'other2001']],
    ['orderCode', () => ({ orderCode: made.c!.orderCode }), ['c']],
    ['payoutStatus', () => ({ payoutStatus: S.awaiting }), ['e', 'c', 'other2002', 'other2001']],
    ['payoutStatus completed', () => ({ payoutStatus: S.completed }), ['a']],
    ['processState queued', () => ({ processState: P.queued }), ['e', 'c', 'other2002', 'other2001']],
    ['processState with the supplier', () => ({ processState: P.withSupplier }), ['b']],
    ['processState finished (completed and cancelled)', () => ({ processState: P.finished }), ['d', 'a']],
    ['processState waiting for staff', () => ({ processState: P.withStaff }), []],
    ['utr (part of it)', () => ({ utr: 'utrlist' }), ['a']],
    ['ifscCode', () => ({ ifscCode: 'ICIC' }), ['a']],
    ['cardNumber', () => ({ cardNumber: '99887766' }), ['other2002', 'other2001']],
    ['userName (any case)', () => ({ userName: 'ravi' }), ['a']],
    ['amount (major units)', () => ({ amount: '1234.56' }), ['c']],
    ['isProxy for staff: claimed by an agent', () => ({ isProxy: 'true' }), ['b']],
    ['isProxy for staff: claimed by a top-level supplier', () => ({ isProxy: 'false' }), ['a']],
  ])('%s', async (_name, query, expected) => {
    expect(names((await list('admin', query())).list)).toEqual(expected);
  });

  it('times: from and to, in the platform’s time zone', async () => {
    const [c] = await t.database.db.select().from(payouts).where(eq(payouts.id, made.c!.id));
    const fmt = (d: Date) =>
      new Intl.DateTimeFormat('sv-SE', {
        timeZone: t.config.timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      }).format(d);
    const from = fmt(c!.createdAt);
    // d was made a minute after c (the clock advances 60 s between them), e a minute after d.
    const to = fmt(new Date(c!.createdAt.getTime() + 61_000));
    expect(names((await list('admin', { startTime: from, endTime: to })).list)).toEqual(['d', 'c']);
  });

  it('CompleteTimeFilter: on, a completed payout is found by its completion time, the others by creation', async () => {
    const [a] = await t.database.db.select().from(payouts).where(eq(payouts.id, made.a!.id));
    const fmt = (d: Date, ms: number) =>
      new Intl.DateTimeFormat('sv-SE', {
        timeZone: t.config.timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      }).format(new Date(d.getTime() + ms));
    const created = { startTime: fmt(a!.createdAt, -1_000), endTime: fmt(a!.createdAt, 1_000) };
    const completed = { startTime: fmt(a!.completedAt!, -1_000), endTime: fmt(a!.completedAt!, 1_000) };
    expect(a!.completedAt!.getTime() - a!.createdAt.getTime()).toBeGreaterThan(60_000);
    expect(names((await list('merchant1', created)).list)).toEqual(['a']);
    expect(names((await list('merchant1', completed)).list)).toEqual([]);
    await t.setSetting('CompleteTimeFilter', true);
    try {
      expect(names((await list('merchant1', created)).list)).toEqual([]);
      expect(names((await list('merchant1', completed)).list)).toEqual(['a']);
      // A payout not completed is still found by its creation time.
      const [c] = await t.database.db.select().from(payouts).where(eq(payouts.id, made.c!.id));
      const cCreated = { startTime: fmt(c!.createdAt, -1_000), endTime: fmt(c!.createdAt, 1_000) };
      expect(names((await list('merchant1', cCreated)).list)).toEqual(['c']);
      const csv = await t.app.inject({
        url: `${api.exportList.path}?${new URLSearchParams(completed).toString()}`,
        cookies: { token: auth.merchant1!.token ?? '' },
      });
      const rows = parse(csv.body, { columns: true, bom: true }) as Array<Record<string, string>>;
      expect(rows.map((r) => Number(r.id))).toEqual([made.a!.id]);
    } finally {
      await t.setSetting('CompleteTimeFilter', undefined);
    }
  });

  it('sorts by amount both ways, and by completion time', async () => {
    const mine = (rows: PayoutRow[]) => names(rows).filter((n) => !n.startsWith('other'));
    expect(mine((await list('merchant1', { sortBy: 'amount', sortOrder: 'asc' })).list)).toEqual([
      'd',
      'e',
      'b',
      'a',
      'c',
    ]);
    expect(mine((await list('merchant1', { sortBy: 'amount', sortOrder: 'desc' })).list)).toEqual([
      'c',
      'a',
      'b',
      'e',
      'd',
    ]);
    expect(mine((await list('merchant1', { sortBy: 'completedAt', sortOrder: 'desc' })).list)[0]).toBe('a');
  });

  it('pages, with totals of amount and fee over the whole filtered set (commission but for a merchant)', async () => {
    const all = await list('admin');
    const page = await list('admin', { pageSize: 2, pageIndex: 2 });
    expect(page.total).toBe(7);
    expect(page.list.map((r) => r.id)).toEqual(all.list.slice(2, 4).map((r) => r.id));
    const sum = (key: 'amount' | 'fee') => all.list.reduce((s, r) => s + r[key], 0);
    expect(page.summary).toEqual({ amount: sum('amount'), fee: sum('fee'), commission: 1_200 + 500 });
    const awaiting = await list('merchant1', { payoutStatus: S.awaiting });
    expect(awaiting.summary).toEqual({
      amount: 123_456 + 40_000,
      fee: awaiting.list.reduce((s, r) => s + r.fee, 0),
    });
  });

  it('refuses unbounded or unknown input with 400', async () => {
    for (const query of [
      { pageSize: 501 },
      { payoutStatus: 10 },
      { productId: 1001 },
      { sortBy: 'fee' },
      { orderCode: 'X'.repeat(41) },
      { startTime: '2026-13' },
      { batchId: 0 },
      { processState: 5 },
    ]) {
      const res = await t.call(api.getList, { pageIndex: 1, ...query }, auth.admin);
      expect(res.status, JSON.stringify(query)).toBe(400);
    }
  });
});

describe('the CSV export', () => {
  it.each([
    ['admin', {}],
    ['admin', { sortBy: 'amount', sortOrder: 'asc' }],
    ['admin', { sortBy: 'completedAt', sortOrder: 'desc' }],
    ['admin', { payoutStatus: String(S.awaiting) }],
    ['supplier1', {}],
    ['supplier1', { isProxy: 'true' }],
  ] as const)('%s %j: the rows of the list, in its order, without the actions', async (who, query) => {
    const shown = await list(who, query);
    const res = await t.app.inject({
      url: api.exportList.path,
      query: { ...query },
      cookies: { token: auth[who]!.token ?? '' },
    });
    expect(res.statusCode).toBe(200);
    const rows = parse(res.body, { columns: true, bom: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => Number(r.id))).toEqual(shown.list.map((r) => r.id));
    expect(Object.keys(rows[0] ?? { id: '' })).not.toContain('allowedActions');
    if (rows[0]) expect(Number(rows[0].amount)).toBe(shown.list[0]!.amount);
  });
});

describe('the newest payout a supplier can claim now (the notifier’s poll)', () => {
  const lastClaimable = async (who: string) => {
    const res = await t.call(api.lastClaimable, {}, auth[who]);
    expect(res.body.code, JSON.stringify(res.body)).toBe(200);
    const data = res.body.data as { orderCode: string; amount: number } | null;
    return data ? (Object.entries(made).find(([, m]) => m.orderCode === data.orderCode)?.[0] ?? data.orderCode) : null;
  };
  const deposit = (account: string) =>
    ledger.balanceOf(t.database.db, accountCode('supplier', supplierIds[account]!, 'available'));
  /** Moves `amount` of the supplier's deposit to the platform's adjustments (negative: back). */
  let adjustments = 0;
  const takeDeposit = (account: string, amount: number) =>
    t.database.db.transaction((tx) =>
      ledger.transfer(tx, {
        idempotencyKey: `test-deposit:${++adjustments}`,
        type: 'adjustment',
        note: 'test: the deposit lowered for a while',
        postings: [
          { account: accountCode('supplier', supplierIds[account]!, 'available'), amount: -amount },
          { account: 'platform:adjustments', amount },
        ],
      }),
    );

  it('answers the newest payout of its claim queue: not another product’s, and nothing for merchants or staff', async () => {
    // Queue of supplier1: other2001, c, e (oldest first); e is the newest.
    expect(await lastClaimable('supplier1')).toBe('e');
    const res = await t.call(api.lastClaimable, {}, auth.supplier1);
    expect(res.body.data).toMatchObject({ orderCode: made.e!.orderCode, amount: 40_000, productId: 2001, state: 0 });
    // A newer awaiting payout of a gateway product (2002, enabled for supplier1 with a gateway account) is
    // the gateway dispatcher's, not its to claim.
    const now = t.clock.now();
    await t.database.db.insert(payouts).values({
      orderCode: 'P99902000002002B',
      merchantId: otherMerchantId,
      merchantUserId: (await t.database.db.select().from(merchants).where(eq(merchants.id, otherMerchantId)))[0]!
        .userId,
      merchantOrderNo: 'LIST-other2002b',
      requestHash: 'x',
      productId: 2002,
      amount: 1_000,
      fee: 100,
      state: S.awaiting,
      createdAt: now,
      updatedAt: now,
    });
    expect(await lastClaimable('supplier1')).toBe('e');
    expect((await t.call(api.lastClaimable, {}, auth.merchant1)).status).toBe(403);
    expect((await t.call(api.lastClaimable, {}, auth.admin)).status).toBe(403);
  });

  it('not one its deposit cannot cover, none while its hands are full, and not once claimed', async () => {
    await createPayout('f', 10_000);
    expect(await lastClaimable('supplier1')).toBe('f');
    // Its deposit lowered below every payout of its queue: nothing to claim now.
    const taken = (await deposit('supplier1')) - 9_999;
    await takeDeposit('supplier1', taken);
    try {
      expect(await lastClaimable('supplier1')).toBeNull();
    } finally {
      await takeDeposit('supplier1', -taken);
    }
    expect(await lastClaimable('supplier1')).toBe('f');
    // agent1 holds b in progress: with a limit of one payout in progress it may claim none.
    expect(await lastClaimable('agent1')).toBe('f');
    await t.setSetting('PayoutMaxInProgress', 1);
    try {
      expect(await lastClaimable('agent1')).toBeNull();
    } finally {
      await t.setSetting('PayoutMaxInProgress', undefined);
    }
    // Claimed by agent1: no longer anybody's to claim; the next newest is.
    await ok(t.call(api.claimOrder, { orderId: made.f!.id }, auth.agent1));
    expect(await lastClaimable('supplier1')).toBe('e');
    expect(await lastClaimable('agent1')).toBe('e');
  });
});

describe('the supplier’s claim queue', () => {
  it('the awaiting payouts of the products it has enabled with an enabled payout account, oldest first, with the payee’s details', async () => {
    const queue = await list('supplier1', { queue: true });
    expect(names(queue.list)).toEqual(['other2001', 'c', 'e']);
    expect(queue.list[1]).toMatchObject({
      userName: 'Payee c',
      cardNumber: '50100234567890',
      ifscCode: 'HDFC0001234',
      bankName: 'HDFC Bank',
      allowedActions: ['claim'],
    });
    // Filters still apply inside the queue.
    expect(names((await list('supplier1', { queue: true, amount: '400' })).list)).toEqual(['e']);
    // Nobody else has a claim queue.
    expect((await list('merchant1', { queue: true })).total).toBe(0);
    expect((await list('admin', { queue: true })).total).toBe(0);
  });

  it('a claimed payout leaves the queue; without an enabled payout account of the product the queue is empty', async () => {
    await ok(t.call(api.claimOrder, { orderId: made.e!.id }, auth.agent1));
    expect(names((await list('supplier1', { queue: true })).list)).toEqual(['other2001', 'c']);
    // Every one of supplier1's bank payout accounts switched off (the demo's and this file's).
    const supplierOnes = and(eq(resources.supplierId, supplierIds.supplier1!), eq(resources.productId, 2001));
    await t.database.db.update(resources).set({ state: 1 }).where(supplierOnes);
    expect((await list('supplier1', { queue: true })).total).toBe(0);
    await t.database.db.update(resources).set({ state: 0 }).where(supplierOnes);
    await t.database.db
      .update(partyProducts)
      .set({ enabled: false })
      .where(and(eq(partyProducts.productId, 2001), eq(partyProducts.enabled, true)));
    expect((await list('supplier1', { queue: true })).total).toBe(0);
  });
});

describe('the state list', () => {
  it('answers every payout state with its code', async () => {
    const res = await t.call(api.getPayoutStatusList, {}, auth.merchant1);
    expect(res.body.data.map((s: { id: number }) => s.id).sort()).toEqual([...PAYOUT_STATES].sort());
    expect(res.body.data).toContainEqual({ id: S.pendingConfirmation, name: 'pendingConfirmation' });
  });
});
