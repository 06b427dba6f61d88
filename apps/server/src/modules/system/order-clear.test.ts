import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Code, endpoints, ORDER_STATE, type OrderClearRun, PAYOUT_STATE } from '@paydesk/contract';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/raw-rows.js';
import {
  auditLog,
  orderAllocations,
  orderCallbackAttempts,
  orderCallbacks,
  orderClearRuns,
  orderEvents,
  orders,
  payoutEvents,
  payoutReceipts,
  payouts,
  payScriptCalls,
  payScripts,
} from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, downloadCsv, startTestApp, type TestApp } from '../../testing/harness.js';
import { givePayoutAccounts, signedPayoutRequest } from '../../testing/payout-fixtures.js';
import { signParams } from '../orders/signature.js';
import { OrderClear } from './order-clear.js';

/**
 * The order clear (DataClearCycle, issue 21 item 6) on real orders and payouts made through the
 * merchant API and the console's actions: finished ones older than the cycle lose their details,
 * newer and open ones keep them, and nothing the money is made of (ledger, daily totals, audit log)
 * changes; the ledger check stays clean.
 */
const { orders: orderApi, payouts: payoutApi, orderClear: api } = endpoints;
const DAY = 86_400_000;
let t: TestApp;
let receiver: Server;
let base = '';
const auth: Record<string, Auth> = {};

async function signIn() {
  auth.superadmin = await t.loginWithToken2('superadmin');
  auth.superadminNoToken2 = await t.login('superadmin');
  auth.admin = await t.loginWithToken2('admin');
  auth.maintenance = await t.loginWithToken2('maintenance');
  auth.service = await t.loginWithToken2('service');
  auth.merchant1 = await t.login('merchant1');
  auth.supplier1 = await t.login('supplier1');
}

let seq = 0;
async function createOrder(): Promise<{ id: number; orderCode: string }> {
  seq += 1;
  const params: Record<string, unknown> = {
    mchId: DEMO_MERCHANT_API.mchId,
    productId: '1001',
    mchOrderNo: `CLEAR${process.pid}x${seq}`,
    amount: String(20_000 + seq * 100 + 3),
    notifyUrl: `${base}/notify`,
    subject: 'Top-up',
    userName: 'Ravi Kumar',
    clientIp: '203.0.113.9',
  };
  const res = await t.call(orderApi.create, {
    ...params,
    sign: signParams(params, DEMO_MERCHANT_API.secret, 'HMAC-SHA256'),
  });
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  // The name a payer types on the payer page (AlipayToAlipayByHandSubmitName) is personal too.
  const [row] = await t.database.db
    .update(orders)
    .set({ payerName: 'Ravi Kumar' })
    .where(eq(orders.orderCode, res.body.data.orderCode))
    .returning();
  return { id: row!.id, orderCode: row!.orderCode };
}

/** Delivers the first attempt of every pending callback of these orders or payouts (the receiver answers SUCCESS). */
async function deliverAll(where: SQL) {
  const pending = await t.database.db
    .select({ id: orderCallbacks.id })
    .from(orderCallbacks)
    .where(and(where, eq(orderCallbacks.state, 'pending')))
    .orderBy(asc(orderCallbacks.id));
  for (const c of pending)
    expect(await t.app.services.callbacks.deliver({ callbackId: c.id, attemptNo: 1 })).toBe('succeeded');
}

/** A collection order paid and notified (callback succeeded): state 3, with a pay script call record. */
async function paidOrder() {
  const order = await createOrder();
  const paid = await t.call(orderApi.confirmOrder, { orderCode: order.orderCode }, auth.admin!);
  expect(paid.body.data?.state, JSON.stringify(paid.body)).toBe(ORDER_STATE.paidNotifying);
  await deliverAll(eq(orderCallbacks.orderId, order.id));
  const [script] = await t.database.db.select().from(payScripts).limit(1);
  await t.database.db.insert(payScriptCalls).values({
    scriptId: script!.id,
    version: 1,
    kind: 'render',
    source: 'payerPage',
    orderCode: order.orderCode,
    ok: true,
    input: { order: { orderCode: order.orderCode, userName: 'Ravi Kumar' } },
    output: null,
    durationMs: 3,
    fetches: [],
    logs: [],
    createdAt: t.clock.now(),
  });
  return order;
}

async function rejectedOrder() {
  const order = await createOrder();
  const res = await t.call(orderApi.reject, { orderCode: order.orderCode, rejectReason: 'payer left' }, auth.admin!);
  expect(res.body.data?.state, JSON.stringify(res.body)).toBe(ORDER_STATE.rejected);
  return order;
}

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

async function createPayout(): Promise<{ id: number; orderCode: string }> {
  const res = await t.call(payoutApi.create, signedPayoutRequest({ amount: '50000', notifyUrl: `${base}/payout` }));
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  const [row] = await t.database.db.select().from(payouts).where(eq(payouts.orderCode, res.body.data.orderCode));
  return { id: row!.id, orderCode: row!.orderCode };
}

/** A payout claimed, paid with a UTR and a receipt image, confirmed and notified: completed. */
async function completedPayout() {
  const payout = await createPayout();
  expect((await t.call(payoutApi.claimOrder, { orderId: payout.id }, auth.supplier1!)).body.code).toBe(200);
  const submitted = await t.call(
    payoutApi.submit,
    { orderId: payout.id, utr: `UTRCLR${payout.id}00`, receipt: { mime: 'image/png', imageBase64: PNG } },
    auth.supplier1!,
  );
  expect(submitted.body.code, JSON.stringify(submitted.body)).toBe(200);
  const confirmed = await t.call(payoutApi.confirm, { orderId: payout.id }, auth.admin!);
  expect(confirmed.body.data?.state, JSON.stringify(confirmed.body)).toBe(PAYOUT_STATE.completed);
  await deliverAll(eq(orderCallbacks.payoutId, payout.id));
  return payout;
}

async function cancelledPayout() {
  const payout = await createPayout();
  expect((await t.call(payoutApi.cancel, { orderId: payout.id }, auth.merchant1!)).body.code).toBe(200);
  return payout;
}

const countOf = async (table: Parameters<typeof t.database.db.$count>[0], where: SQL) =>
  t.database.db.$count(table, where);

/** What each order still has: its timeline, allocation records, callbacks and their attempts, call records. */
async function orderDetails(order: { id: number; orderCode: string }) {
  const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
  return {
    row: row!,
    events: await countOf(orderEvents, eq(orderEvents.orderId, order.id)),
    allocations: await countOf(orderAllocations, eq(orderAllocations.orderId, order.id)),
    callbacks: await countOf(orderCallbacks, eq(orderCallbacks.orderId, order.id)),
    attempts: await countOf(orderCallbackAttempts, eq(orderCallbackAttempts.orderCode, order.orderCode)),
    calls: await countOf(payScriptCalls, eq(payScriptCalls.orderCode, order.orderCode)),
  };
}

async function payoutDetails(payout: { id: number; orderCode: string }) {
  const [row] = await t.database.db.select().from(payouts).where(eq(payouts.id, payout.id));
  return {
    row: row!,
    events: await countOf(payoutEvents, eq(payoutEvents.payoutId, payout.id)),
    receipts: await countOf(payoutReceipts, eq(payoutReceipts.payoutId, payout.id)),
    callbacks: await countOf(orderCallbacks, eq(orderCallbacks.payoutId, payout.id)),
    attempts: await countOf(orderCallbackAttempts, eq(orderCallbackAttempts.orderCode, payout.orderCode)),
  };
}

/**
 * A fingerprint of what the money is made of: the ledger's tables, the daily totals as readers see
 * them, the accounts' daily totals, and the audit log's rows (by content).
 */
async function moneyMark(auditUpTo = Number.MAX_SAFE_INTEGER): Promise<string> {
  const parts: string[] = [];
  for (const from of [
    'ledger_accounts',
    'ledger_transfers',
    'ledger_entries',
    'resource_daily',
    `(select user_id, product_id, day, sum(count) as count, sum(amount) as amount
        from (select user_id, product_id, day, count, amount from party_daily
              union all select user_id, product_id, day, count, amount from party_daily_deltas) u
       group by user_id, product_id, day)`,
    `(select id, at, user_id, account, action, target, before, after from audit_log where id <= ${auditUpTo})`,
  ]) {
    const [row] = rowsOf<{ h: string }>(
      await t.database.db.execute(
        sql.raw(`select coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as h from ${from} t`),
      ),
    );
    parts.push(row!.h);
  }
  // The amounts of every order and payout, as statistics sum them.
  const [sums] = rowsOf<{ s: string }>(
    await t.database.db.execute(
      sql`select (select coalesce(sum(amount), 0) || '/' || coalesce(sum(fee), 0) || '/' || count(*) from orders) || '|' ||
                 (select coalesce(sum(amount), 0) || '/' || coalesce(sum(fee), 0) || '/' || count(*) from payouts) as s`,
    ),
  );
  parts.push(sums!.s);
  return parts.join(' ');
}

async function expectLedgerClean() {
  const res = await t.call(endpoints.ledger.ledgerCheck, {}, auth.superadmin!);
  expect(res.body.data).toEqual({ ok: true, violations: [] });
}

const runs = async (): Promise<OrderClearRun[]> => {
  const res = await t.call(api.getOrderClearRuns, { pageIndex: 1 }, auth.admin!);
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data.list;
};

// The story: old orders and payouts (31 days before the clear), then newer ones.
const old: Record<string, { id: number; orderCode: string }> = {};
const recent: Record<string, { id: number; orderCode: string }> = {};
const before: Record<string, Awaited<ReturnType<typeof orderDetails>>> = {};
const beforePayout: Record<string, Awaited<ReturnType<typeof payoutDetails>>> = {};

beforeAll(async () => {
  receiver = createServer(async (req, res) => {
    for await (const _ of req) {
      // the body is not needed
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end('SUCCESS');
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  t = await startTestApp();
  await givePayoutAccounts(t);
  await signIn();
  old.paid = await paidOrder();
  old.rejected = await rejectedOrder();
  old.open = await createOrder();
  old.completed = await completedPayout();
  old.awaiting = await createPayout();
  // A month passes; then newer finished orders and payouts.
  t.clock.advance(31 * DAY);
  await signIn();
  recent.rejected = await rejectedOrder();
  recent.cancelled = await cancelledPayout();
  for (const key of ['paid', 'rejected', 'open']) before[key] = await orderDetails(old[key]!);
  before.recent = await orderDetails(recent.rejected!);
  for (const key of ['completed', 'awaiting']) beforePayout[key] = await payoutDetails(old[key]!);
  beforePayout.recent = await payoutDetails(recent.cancelled!);
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

describe('the order clear (DataClearCycle)', () => {
  it('has details to clear: the old orders and payouts carry every kind', () => {
    expect(before.paid).toMatchObject({ callbacks: 1, attempts: 1, calls: 1 });
    expect(before.paid!.events).toBeGreaterThan(1);
    expect(before.paid!.allocations).toBeGreaterThan(0);
    expect(before.paid!.row.state).toBe(ORDER_STATE.callbackSucceeded);
    expect(before.paid!.row).toMatchObject({ userName: 'Ravi Kumar', payerName: 'Ravi Kumar' });
    expect(before.open!.row.state).toBe(ORDER_STATE.allocated);
    expect(beforePayout.completed).toMatchObject({ receipts: 1, callbacks: 1, attempts: 1 });
    expect(beforePayout.completed!.row.receiptId).not.toBeNull();
    expect(beforePayout.awaiting!.row.state).toBe(PAYOUT_STATE.awaiting);
  });

  it('removes nothing while the cycle is 0: the daily job records no run, run now is refused', async () => {
    await t.setSetting('DataClearCycle', 0);
    const mark = await moneyMark();
    expect(await t.app.services.orderClear.scheduled()).toBeNull();
    const refused = await t.call(api.runOrderClear, {}, auth.superadmin!);
    expect(refused.body.code).toBe(Code.businessRule);
    expect(refused.body.data?.reason).toBe('orderClearOff');
    expect(await runs()).toEqual([]);
    expect(await orderDetails(old.paid!)).toEqual(before.paid);
    expect(await payoutDetails(old.completed!)).toEqual(beforePayout.completed);
    expect(await moneyMark()).toBe(mark);
  });

  it('run now (superAdmin, token2): finished orders and payouts older than the cycle lose their details, and only they', async () => {
    await t.setSetting('DataClearCycle', 30);
    const [last] = await t.database.db.select({ id: sql<number>`max(${auditLog.id})` }).from(auditLog);
    const auditUpTo = Number(last!.id);
    const mark = await moneyMark(auditUpTo);
    const started = await t.call(api.runOrderClear, {}, auth.superadmin!);
    expect(started.body.code, JSON.stringify(started.body)).toBe(200);
    expect(started.body.data).toMatchObject({ trigger: 'manual', startedBy: 'superadmin', cycleDays: 30 });
    await t.app.services.orderClear.settled();

    const [run] = await runs();
    expect(run).toMatchObject({
      id: started.body.data.id,
      state: 'succeeded',
      error: null,
      orders: 2,
      payouts: 1,
      orderEvents: before.paid!.events + before.rejected!.events,
      allocations: before.paid!.allocations + before.rejected!.allocations,
      callbacks: 2,
      callbackAttempts: 2,
      receipts: 1,
      payScriptCalls: 1,
      payoutEvents: beforePayout.completed!.events,
    });
    expect(new Date(run!.cutoff).getTime()).toBe(t.clock.now().getTime() - 30 * DAY);
    expect(run!.finishedAt).not.toBeNull();

    // The old finished ones: details gone, the order itself as it was (code, amounts, state, times, UTR).
    for (const key of ['paid', 'rejected']) {
      const now = await orderDetails(old[key]!);
      expect(now).toMatchObject({ events: 0, allocations: 0, callbacks: 0, attempts: 0, calls: 0 });
      const { row } = before[key]!;
      expect(now.row).toEqual({
        ...row,
        userName: null,
        payerName: null,
        clientIp: null,
        subject: null,
        detailsClearedAt: expect.any(Date),
      });
    }
    const payout = await payoutDetails(old.completed!);
    expect(payout).toMatchObject({ events: 0, receipts: 0, callbacks: 0, attempts: 0 });
    expect(payout.row).toEqual({
      ...beforePayout.completed!.row,
      userName: null,
      cardNumber: null,
      bankBranch: null,
      address: null,
      clientIp: null,
      receiptId: null,
      detailsClearedAt: expect.any(Date),
    });
    expect(payout.row.utr).toBe(`UTRCLR${old.completed!.id}00`);
    // Open ones, whatever their age, and newer finished ones keep everything.
    expect(await orderDetails(old.open!)).toEqual(before.open);
    expect(await orderDetails(recent.rejected!)).toEqual(before.recent);
    expect(await payoutDetails(old.awaiting!)).toEqual(beforePayout.awaiting);
    expect(await payoutDetails(recent.cancelled!)).toEqual(beforePayout.recent);

    // The money did not move: ledger, daily totals, statistics' sums, the audit log's rows; it gained the run's row.
    expect(await moneyMark(auditUpTo)).toBe(mark);
    const added = await t.database.db.select().from(auditLog).where(sql`${auditLog.id} > ${auditUpTo}`);
    expect(added).toEqual([
      expect.objectContaining({ action: 'orderClear.run', account: 'superadmin', target: `clear:${run!.id}` }),
    ]);
    await expectLedgerClean();

    // The order is still found by its code, with its amount; its detail page opens with an empty timeline.
    const detail = await t.call(orderApi.getDetail, { orderCode: old.paid!.orderCode }, auth.admin!);
    expect(detail.body.code, JSON.stringify(detail.body)).toBe(200);
    expect(detail.body.data.order.amount).toBe(before.paid!.row.amount);
    expect(detail.body.data.timeline).toEqual([]);
    // Its ledger transfers are all there.
    expect(detail.body.data.transfers.length).toBeGreaterThan(0);
  });

  it('a second run finds nothing more; a later one, in batches, clears what has aged since', async () => {
    const again = await t.app.services.orderClear.scheduled();
    expect(again).toMatchObject({ trigger: 'schedule', startedBy: null, state: 'succeeded', orders: 0, payouts: 0 });
    // Three more finished orders, then another month: a clear one order per transaction takes them all.
    const more = [await rejectedOrder(), await rejectedOrder(), await paidOrder()];
    t.clock.advance(31 * DAY);
    await signIn();
    const mark = await moneyMark();
    const small = new OrderClear({
      db: t.database.db,
      clock: t.clock,
      settings: t.app.services.settings,
      timeZone: t.config.timeZone,
      batch: 1,
    });
    // The cancelled payout's callback is still being delivered: it keeps its details until that ends.
    const run = await small.scheduled();
    expect(run).toMatchObject({ state: 'succeeded', orders: 4, payouts: 0, callbacks: 1, payScriptCalls: 1 });
    expect(await payoutDetails(recent.cancelled!)).toEqual(beforePayout.recent);
    await deliverAll(eq(orderCallbacks.payoutId, recent.cancelled!.id));
    expect(await small.scheduled()).toMatchObject({ orders: 0, payouts: 1, callbacks: 1, callbackAttempts: 1 });
    expect(await payoutDetails(recent.cancelled!)).toMatchObject({ events: 0, callbacks: 0, attempts: 0 });
    for (const order of [...more, recent.rejected!]) {
      expect(await orderDetails(order)).toMatchObject({ events: 0, allocations: 0, callbacks: 0, calls: 0 });
    }
    expect((await orderDetails(old.open!)).events).toBe(before.open!.events);
    expect(await moneyMark()).toBe(mark);
    await expectLedgerClean();
  });

  it('one run at a time: a running run refuses run now (409); a stale one is taken as interrupted', async () => {
    const now = t.clock.now();
    const [running] = await t.database.db
      .insert(orderClearRuns)
      .values({ trigger: 'schedule', state: 'running', cycleDays: 30, cutoff: now, startedAt: now, heartbeatAt: now })
      .returning();
    const busy = await t.call(api.runOrderClear, {}, auth.superadmin!);
    expect(busy.body.code).toBe(Code.conflict);
    expect(busy.body.data?.reason).toBe('orderClearRunning');
    expect(await t.app.services.orderClear.scheduled()).toBeNull();
    t.clock.advance(20 * 60_000);
    await signIn();
    const next = await t.call(api.runOrderClear, {}, auth.superadmin!);
    expect(next.body.code, JSON.stringify(next.body)).toBe(200);
    await t.app.services.orderClear.settled();
    const list = await runs();
    expect(list.find((r) => r.id === running!.id)).toMatchObject({ state: 'interrupted' });
    expect(list[0]).toMatchObject({ id: next.body.data.id, state: 'succeeded' });
  });

  it('lists runs with filters and exports them as CSV', async () => {
    const all = await runs();
    expect(all.length).toBeGreaterThanOrEqual(5);
    const manual = await t.call(api.getOrderClearRuns, { pageIndex: 1, trigger: 'manual' }, auth.admin!);
    expect(manual.body.data.list.every((r: OrderClearRun) => r.trigger === 'manual')).toBe(true);
    expect(manual.body.data.total).toBe(2);
    const interrupted = await t.call(api.getOrderClearRuns, { pageIndex: 1, state: 'interrupted' }, auth.admin!);
    expect(interrupted.body.data.total).toBe(1);
    const future = await t.call(api.getOrderClearRuns, { pageIndex: 1, startTime: '2999-01-01 00:00:00' }, auth.admin!);
    expect(future.body.data.total).toBe(0);
    const csv = await downloadCsv(t, api.exportOrderClearRuns, {}, auth.admin!);
    expect(csv.status).toBe(200);
    expect(csv.rows).toHaveLength(all.length);
  });

  it('permissions: superAdmin alone runs, with token2; admin and technical maintenance (the read-only twin) read', async () => {
    const count0 = (await runs()).length;
    expect((await t.call(api.runOrderClear, {}, auth.superadminNoToken2!)).body.code).toBe(Code.token2Required);
    for (const who of ['admin', 'maintenance', 'service', 'merchant1', 'supplier1']) {
      expect((await t.call(api.runOrderClear, {}, auth[who]!)).status, who).toBe(403);
    }
    expect((await t.call(api.getOrderClearRuns, { pageIndex: 1 }, auth.maintenance!)).body.code).toBe(200);
    for (const who of ['service', 'merchant1', 'supplier1']) {
      expect((await t.call(api.getOrderClearRuns, { pageIndex: 1 }, auth[who]!)).status, who).toBe(403);
    }
    expect(await runs()).toHaveLength(count0);
  });
});
