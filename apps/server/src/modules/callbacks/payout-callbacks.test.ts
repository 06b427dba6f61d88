import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type CallbackRow, endpoints, PAYOUT_STATE } from '@paydesk/contract';
import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  merchants,
  orderCallbackAttempts,
  orderCallbacks,
  payouts,
  resources,
  suppliers,
  users,
} from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, startTestApp, type TestApp } from '../../testing/harness.js';
import { signedPayoutRequest } from '../../testing/payout-fixtures.js';
import { sleep, waitFor } from '../../testing/wait.js';
import { signParams } from '../orders/signature.js';
import { schedulePayoutCallback } from './payout-notification.js';

/** The payout callback's fields as docs/merchant-api.md lists them (its `payout-callback-fields` table). */
const GUIDE_FIELDS = (() => {
  const doc = readFileSync(fileURLToPath(new URL('../../../../../docs/merchant-api.md', import.meta.url)), 'utf8');
  const table = doc.slice(doc.indexOf('<!-- check: payout-callback-fields -->')).split('\n\n')[0]!.split('\n').slice(3);
  return table.map((line) => /^\| `(\w+)` \|/.exec(line)?.[1]).filter((name): name is string => Boolean(name));
})();

/**
 * Issue 20 item 7: a payout's notification when it ends (completed, rejected, cancelled) goes through the
 * collection callbacks' outbox and dispatcher: written with the final state, signed with the merchant's
 * key, retried on the schedule, recorded, replayable, listed with its kind; its outcome never moves the
 * payout.
 */
const payoutApi = endpoints.payouts;
const callbackApi = endpoints.callbacks;
const S = PAYOUT_STATE;

/** A merchant's receiver: keeps every request's form fields; a path answers as its script says (the last repeats). */
class Receiver {
  readonly requests: Array<{ path: string; params: URLSearchParams }> = [];
  private readonly scripts = new Map<string, Array<'success' | 'fail'>>();
  private readonly served = new Map<string, number>();
  private server!: Server;
  base = '';

  async start() {
    this.server = createServer((req, res) => void this.answer(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  script(path: string, answers: Array<'success' | 'fail'>) {
    this.scripts.set(path, answers);
    return `${this.base}${path}`;
  }

  private async answer(req: IncomingMessage, res: ServerResponse) {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const path = (req.url ?? '').split('?')[0]!;
    this.requests.push({ path, params: new URLSearchParams(raw) });
    const n = this.served.get(path) ?? 0;
    this.served.set(path, n + 1);
    const script = this.scripts.get(path) ?? ['success'];
    const ok = script[Math.min(n, script.length - 1)] === 'success';
    res.writeHead(ok ? 200 : 500, { 'content-type': 'text/plain' });
    res.end(ok ? 'SUCCESS' : 'busy');
  }

  to(path: string) {
    return this.requests.filter((r) => r.path === path);
  }

  async stop() {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const receiver = new Receiver();
let t: TestApp;
const auth: Record<string, Auth> = {};

beforeAll(async () => {
  await receiver.start();
  t = await startTestApp({ jobs: { callbackScheduleMs: [0, 40, 80, 120, 7_200_000], callbackTimeoutMs: 10_000 } });
  const db = t.database.db;
  const [supplier] = await db
    .select({ id: suppliers.id, userId: suppliers.userId })
    .from(suppliers)
    .innerJoin(users, eq(users.id, suppliers.userId))
    .where(eq(users.account, 'supplier1'));
  const now = t.clock.now();
  // supplier1 (bank payouts, 2001, enabled in the demo) pays from an enabled payout account.
  await db.insert(resources).values({
    supplierId: supplier!.id,
    productId: 2001,
    kind: 'bankPayout',
    name: 'supplier1 payout account',
    state: 0,
    details: { accountName: 'supplier1', cardNumber: '123456789012', ifsc: 'HDFC0001234', bankName: 'HDFC Bank' },
    createdAt: now,
    updatedAt: now,
  });
  auth.supplier1 = await t.login('supplier1');
  auth.merchant1 = await t.login('merchant1');
  auth.admin = await t.loginWithToken2('admin');
});
afterAll(async () => {
  await t?.close();
  await receiver.stop();
});

/** merchant1 asks for a bank payout, notified at `notifyUrl`. */
async function createPayout(notifyUrl: string, amount = 20_000) {
  const res = await t.call(payoutApi.create, signedPayoutRequest({ amount: String(amount), notifyUrl }));
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  const [row] = await t.database.db.select().from(payouts).where(eq(payouts.orderCode, res.body.data.orderCode));
  return row!;
}

async function ok(what: Promise<{ body: { code: number } }>) {
  const res = await what;
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res;
}

/** Claimed by supplier1, paid with `utr` and confirmed by an admin: completed. */
async function complete(id: number, utr: string) {
  await ok(t.call(payoutApi.claimOrder, { orderId: id }, auth.supplier1));
  await ok(t.call(payoutApi.submit, { orderId: id, utr }, auth.supplier1));
  await ok(t.call(payoutApi.confirm, { orderId: id }, auth.admin));
}

const callbacksOf = (orderCode: string) =>
  t.database.db
    .select()
    .from(orderCallbacks)
    .where(eq(orderCallbacks.orderCode, orderCode))
    .orderBy(asc(orderCallbacks.id));
const attemptsOf = (callbackIds: number[]) =>
  t.database.db
    .select()
    .from(orderCallbackAttempts)
    .where(inArray(orderCallbackAttempts.callbackId, callbackIds))
    .orderBy(asc(orderCallbackAttempts.id));
const settled = (orderCode: string, state = 'succeeded') =>
  waitFor(
    `the callback of ${orderCode}`,
    () => callbacksOf(orderCode),
    (rows) => rows.length > 0 && rows.every((r) => r.state !== 'pending') && rows.at(-1)!.state === state,
    20_000,
  );

/** The payout's timeline as `who` reads it in the detail: kind and note template of each entry. */
async function timelineOf(id: number, who: Auth | undefined) {
  const res = await ok(t.call(payoutApi.getDetail, { orderId: id }, who));
  const detail = (res.body as unknown as { data: { timeline: Array<{ kind: string; noteTemplate: unknown }> } }).data;
  return detail.timeline;
}
const kindsOf = async (id: number, who: Auth | undefined) => (await timelineOf(id, who)).map((e) => e.kind);

/** The signature a merchant checks: `sign` over every other field with its key. */
function signatureValid(params: URLSearchParams): boolean {
  const fields = Object.fromEntries([...params].filter(([k]) => k !== 'sign'));
  return params.get('sign') === signParams(fields, DEMO_MERCHANT_API.secret, 'HMAC-SHA256');
}

describe('a payout’s notification', () => {
  it('a completed payout is notified once, signed, with its public fields; the payout stays completed', async () => {
    const payout = await createPayout(receiver.script('/completed', ['success']));
    // Nothing is sent while the payout is under way.
    await ok(t.call(payoutApi.claimOrder, { orderId: payout.id }, auth.supplier1));
    expect(await callbacksOf(payout.orderCode)).toEqual([]);
    await ok(t.call(payoutApi.submit, { orderId: payout.id, utr: 'UTRPCB000001' }, auth.supplier1));
    await ok(t.call(payoutApi.confirm, { orderId: payout.id }, auth.admin));

    const [callback] = await settled(payout.orderCode);
    expect(callback).toMatchObject({ payoutId: payout.id, orderId: null, trigger: 'auto', attempts: 1 });
    const [request] = receiver.to('/completed');
    expect(receiver.to('/completed')).toHaveLength(1);
    const [done] = await t.database.db.select().from(payouts).where(eq(payouts.id, payout.id));
    expect(signatureValid(request!.params)).toBe(true);
    expect(Object.fromEntries(request!.params)).toEqual({
      mchId: DEMO_MERCHANT_API.mchId,
      mchOrderNo: payout.merchantOrderNo,
      orderCode: payout.orderCode,
      orderType: 'payout',
      productId: '2001',
      amount: '20000',
      fee: String(payout.fee),
      state: String(S.completed),
      stateName: 'completed',
      utr: 'UTRPCB000001',
      completeTime: done!.completedAt!.toISOString(),
      notificationId: `N${payout.orderCode}`,
      sign: request!.params.get('sign'),
    });
    // Every field sent is one the merchant guide describes (docs/merchant-api.md, "The payout callback").
    for (const key of request!.params.keys()) expect(GUIDE_FIELDS, key).toContain(key);
    // Delivered or not, the payout's state is its own.
    expect(done!.state).toBe(S.completed);
    const [attempt] = await attemptsOf([callback!.id]);
    expect(attempt).toMatchObject({ attemptNo: 1, succeeded: true, responseStatus: 200, orderCode: payout.orderCode });
  });

  it('a rejected and a cancelled payout are notified too, with their state and reason', async () => {
    const rejected = await createPayout(receiver.script('/rejected', ['success']));
    await ok(t.call(payoutApi.reject, { orderId: rejected.id, rejectReason: 'Account closed' }, auth.admin));
    const cancelled = await createPayout(receiver.script('/cancelled', ['success']));
    await ok(t.call(payoutApi.cancel, { orderId: cancelled.id }, auth.merchant1));
    await settled(rejected.orderCode);
    await settled(cancelled.orderCode);

    const r = receiver.to('/rejected')[0]!.params;
    expect(signatureValid(r)).toBe(true);
    expect(Object.fromEntries(r)).toMatchObject({
      orderCode: rejected.orderCode,
      orderType: 'payout',
      state: String(S.rejected),
      stateName: 'rejected',
      rejectReason: 'Account closed',
    });
    expect(r.has('utr')).toBe(false);
    expect(r.has('completeTime')).toBe(false);
    for (const key of r.keys()) expect(GUIDE_FIELDS, key).toContain(key);
    const c = receiver.to('/cancelled')[0]!.params;
    expect(signatureValid(c)).toBe(true);
    expect(Object.fromEntries(c)).toMatchObject({
      orderCode: cancelled.orderCode,
      state: String(S.cancelled),
      stateName: 'cancelled',
    });
  });

  it('is retried on the schedule when the merchant fails, every attempt recorded; the payout does not move', async () => {
    const payout = await createPayout(receiver.script('/retried', ['fail', 'fail', 'success']));
    await complete(payout.id, 'UTRPCB000002');
    const [callback] = await settled(payout.orderCode);
    expect(callback!.attempts).toBe(3);
    const attempts = await attemptsOf([callback!.id]);
    expect(attempts.map((a) => [a.attemptNo, a.succeeded, a.responseStatus])).toEqual([
      [1, false, 500],
      [2, false, 500],
      [3, true, 200],
    ]);
    // Every delivery carries the same notification id.
    expect(new Set(receiver.to('/retried').map((r) => r.params.get('notificationId')))).toEqual(
      new Set([`N${payout.orderCode}`]),
    );
    const [row] = await t.database.db.select().from(payouts).where(eq(payouts.id, payout.id));
    expect(row!.state).toBe(S.completed);
    // The outcome is in the payout's story for the merchant and staff, after the completion it tells of;
    // the supplier's story leaves the merchant's callbacks out.
    const merchantTimeline = await timelineOf(payout.id, auth.merchant1);
    expect(merchantTimeline.map((e) => e.kind).slice(-2)).toEqual(['completed', 'callbackSucceeded']);
    expect(merchantTimeline.at(-1)!.noteTemplate).toEqual({
      key: 'callbackSucceeded',
      values: { callbackId: callback!.id, attempt: 3 },
    });
    expect((await kindsOf(payout.id, auth.admin)).at(-1)).toBe('callbackSucceeded');
    const supplierKinds = await kindsOf(payout.id, auth.supplier1);
    expect(supplierKinds.at(-1)).toBe('completed');
    expect(supplierKinds.some((k) => k.startsWith('callback'))).toBe(false);
  });

  it('replay sends it again as a new callback; the lists show its kind, and filter by it', async () => {
    const payout = await createPayout(receiver.script('/replayed', ['success']));
    await complete(payout.id, 'UTRPCB000003');
    const [first] = await settled(payout.orderCode);

    const list = await ok(t.call(callbackApi.getList, { orderCode: payout.orderCode, pageIndex: 1 }, auth.admin));
    const row = (list.body as unknown as { data: { list: CallbackRow[] } }).data.list[0]!;
    expect(row).toMatchObject({
      id: first!.id,
      orderType: 'payout',
      orderState: S.completed,
      orderLocked: false,
      merchantNo: DEMO_MERCHANT_API.mchId,
      state: 'succeeded',
    });

    const replayed = await ok(t.call(callbackApi.replay, { id: first!.id }, auth.admin));
    const again = await settled(payout.orderCode);
    expect(again.map((c) => [c.trigger, c.state])).toEqual([
      ['auto', 'succeeded'],
      ['replay', 'succeeded'],
    ]);
    expect((replayed.body as unknown as { data: { callbackId: number } }).data.callbackId).toBe(again[1]!.id);
    expect(receiver.to('/replayed')).toHaveLength(2);
    expect(signatureValid(receiver.to('/replayed')[1]!.params)).toBe(true);
    // The replay is in the timeline with who sent it, and its delivery after it.
    const timeline = await timelineOf(payout.id, auth.admin);
    expect(timeline.map((e) => e.kind).slice(-3)).toEqual([
      'callbackSucceeded',
      'callbackReplayed',
      'callbackSucceeded',
    ]);
    expect(timeline.at(-2)).toMatchObject({ actor: 'admin' });

    const payoutsOnly = await ok(t.call(callbackApi.getList, { orderType: 'payout', pageIndex: 1 }, auth.admin));
    const rows = (payoutsOnly.body as unknown as { data: { list: CallbackRow[] } }).data.list;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.orderType === 'payout')).toBe(true);
    const collections = await ok(
      t.call(callbackApi.getList, { orderType: 'collection', orderCode: payout.orderCode, pageIndex: 1 }, auth.admin),
    );
    expect((collections.body as unknown as { data: { total: number } }).data.total).toBe(0);

    const detail = await ok(
      t.call(callbackApi.getDetailList, { orderCode: payout.orderCode, pageIndex: 1 }, auth.admin),
    );
    const attempts = (detail.body as unknown as { data: { list: Array<{ orderType: string; succeeded: boolean }> } })
      .data.list;
    expect(attempts).toHaveLength(2);
    expect(attempts.every((a) => a.orderType === 'payout' && a.succeeded)).toBe(true);
    const noCollections = await ok(
      t.call(
        callbackApi.getDetailList,
        { orderType: 'collection', orderCode: payout.orderCode, pageIndex: 1 },
        auth.admin,
      ),
    );
    expect((noCollections.body as unknown as { data: { total: number } }).data.total).toBe(0);

    // A settled payout callback may be deleted from the lists, like a collection order's.
    await ok(t.call(callbackApi.delete, { ids: [first!.id] }, auth.admin));
    const after = await ok(t.call(callbackApi.getList, { orderCode: payout.orderCode, pageIndex: 1 }, auth.admin));
    expect((after.body as unknown as { data: { list: CallbackRow[] } }).data.list.map((r) => r.id)).toEqual([
      again[1]!.id,
    ]);
  });

  it('one written in a payout transaction that rolls back is never delivered', async () => {
    const payout = await createPayout(receiver.script('/rolled-back', ['success']));
    await expect(
      t.database.db.transaction(async (tx) => {
        await schedulePayoutCallback(tx, payout, t.clock.now());
        throw new Error('the payout’s change failed after its notification was written');
      }),
    ).rejects.toThrow('the payout’s change failed');
    // Several polls later: nothing was sent, nothing is recorded.
    await sleep(1_500);
    expect(receiver.to('/rolled-back')).toHaveLength(0);
    expect(await callbacksOf(payout.orderCode)).toEqual([]);

    // A refused transition (an awaiting payout cannot be confirmed) writes none either.
    expect((await t.call(payoutApi.confirm, { orderId: payout.id }, auth.admin)).body.code).not.toBe(200);
    expect(await callbacksOf(payout.orderCode)).toEqual([]);
  });

  it('a merchant without callbacks gets none, and no row is kept', async () => {
    const db = t.database.db;
    await db.update(merchants).set({ callbackEnabled: false }).where(eq(merchants.merchantNo, DEMO_MERCHANT_API.mchId));
    try {
      const payout = await createPayout(receiver.script('/off', ['success']));
      await ok(t.call(payoutApi.cancel, { orderId: payout.id }, auth.merchant1));
      await sleep(600);
      expect(await callbacksOf(payout.orderCode)).toEqual([]);
      expect(receiver.to('/off')).toHaveLength(0);
      // Its story ends there, and says why (a payout without a callback never looks as if one were due).
      const timeline = await timelineOf(payout.id, auth.merchant1);
      expect(timeline.slice(-2).map((e) => e.kind)).toEqual(['cancelled', 'callbackSkipped']);
      expect(timeline.at(-1)!.noteTemplate).toEqual({ key: 'callbacksOff', values: {} });
    } finally {
      await db
        .update(merchants)
        .set({ callbackEnabled: true })
        .where(eq(merchants.merchantNo, DEMO_MERCHANT_API.mchId));
    }
  });
});
