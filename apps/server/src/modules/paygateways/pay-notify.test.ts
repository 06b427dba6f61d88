import { Code, endpoints, ORDER_STATE } from '@paydesk/contract';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  ledgerAccounts,
  ledgerTransfers,
  orderCallbacks,
  orderEvents,
  orders,
  payScriptCalls,
} from '../../db/schema.js';
import { webhookSignature } from '../../platform/signed-webhook.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, snapshot, startTestApp, type TestApp } from '../../testing/harness.js';
import { signed } from '../../testing/merchant-api.js';
import { accountCode } from '../ledger/accounts.js';
import { payNotifyPath } from './pay-notify.routes.js';

/**
 * Collection notifications of pay gateways (issue 21): POST /v1.0/pay/notify/:gatewayId, signed with
 * the gateway's webhook secret, read by the active version of the pay script the gateway names, and
 * applied to the order through the order engine, once.
 */
const api = endpoints.payGateways;
const SECRET = 'notify-webhook-secret-01';
const PARSER = `function parseNotification(n) {
  const b = JSON.parse(n.body);
  if (b.boom) throw new Error('cannot read this notification');
  if (n.headers['x-upstream'] !== 'upi-gw') throw new Error('not from the upstream');
  return { orderCode: b.order, amount: b.amount, utr: b.utr || null, status: b.ok ? 'paid' : 'failed' };
}`;

let t: TestApp;
let admin: Auth;
let superadmin: Auth;
let scriptId = 0;
let gatewayId = 0;
const GATEWAY_NAME = 'UPI notify (test)';

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.loginWithToken2('admin');
  superadmin = await t.loginWithToken2('superadmin');
  const script = await t.call(
    endpoints.payScripts.createPayScript,
    { name: 'Notify parser', code: PARSER, hosts: [] },
    superadmin,
  );
  expect(script.body.code, JSON.stringify(script.body)).toBe(Code.success);
  scriptId = script.body.data.id;
});
afterAll(() => t?.close());

let orderNo = 0;
async function createOrder() {
  orderNo += 1;
  const res = await t.call(
    endpoints.orders.create,
    signed({
      mchId: DEMO_MERCHANT_API.mchId,
      productId: '1001',
      mchOrderNo: `PN${Date.now()}${orderNo}`,
      amount: String(30_000 + orderNo * 100 + 7),
      notifyUrl: 'http://127.0.0.1:9/notify',
      subject: 'Top-up',
    }),
  );
  expect(res.body.code, JSON.stringify(res.body)).toBe(Code.success);
  return res.body.data as { orderCode: string; amount: number; state: number };
}

const orderOf = async (orderCode: string) =>
  (await t.database.db.select().from(orders).where(eq(orders.orderCode, orderCode)))[0]!;
const balance = async (code: string) =>
  (await t.database.db.select().from(ledgerAccounts).where(eq(ledgerAccounts.code, code)))[0]?.balance ?? 0;
const eventsOf = async (orderId: number) =>
  t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId)).orderBy(asc(orderEvents.id));
const transfersOf = async (orderCode: string) =>
  t.database.db.select().from(ledgerTransfers).where(eq(ledgerTransfers.orderCode, orderCode));
const callbacksOf = async (orderId: number) =>
  t.database.db.select().from(orderCallbacks).where(eq(orderCallbacks.orderId, orderId));

async function expectLedgerOk() {
  const res = await t.call(endpoints.ledger.ledgerCheck, {}, superadmin);
  expect(res.body.data).toEqual({ ok: true, violations: [] });
}

/** Every table but the call records (a signed notification's run is recorded, whatever else happens). */
const withoutCalls = (s: string) =>
  s
    .split(' ')
    .filter((part) => !part.startsWith('pay_script_calls:'))
    .join(' ');

/** POSTs a notification as the upstream does: the raw JSON body, signed with `secret` unless told not to. */
function notify(
  body: Record<string, unknown>,
  opts: { id?: number | string; secret?: string | null; headers?: Record<string, string> } = {},
) {
  const raw = JSON.stringify(body);
  const secret = opts.secret === undefined ? SECRET : opts.secret;
  return t.app.inject({
    method: 'POST',
    url: payNotifyPath(opts.id === undefined ? gatewayId : (opts.id as number)),
    headers: {
      'content-type': 'application/json',
      'x-upstream': 'upi-gw',
      ...(secret === null ? {} : { 'x-razorpay-signature': webhookSignature(raw, secret) }),
      ...opts.headers,
    },
    payload: raw,
  });
}

describe('a collection notification gateway names its pay script', () => {
  it('is refused a script on a payout API gateway or an unknown script; the row shows the name', async () => {
    const onPayout = await t.call(
      api.createPayGateway,
      {
        kind: 'payoutApi',
        name: 'Payout API with a script',
        baseUrl: 'https://api.gateway.example',
        keyId: 'key-id-01',
        keySecret: 'key-secret-value-01',
        webhookSecret: 'webhook-secret-value-01',
        payScriptId: scriptId,
      },
      admin,
    );
    expect(onPayout.status).toBe(422);
    expect(onPayout.body.data.reason).toBe('payGatewayScriptNotNotify');
    const unknown = await t.call(
      api.createPayGateway,
      { kind: 'collectionNotify', name: GATEWAY_NAME, webhookSecret: SECRET, payScriptId: 999_999 },
      admin,
    );
    expect(unknown.status).toBe(422);
    expect(unknown.body.data.reason).toBe('payGatewayScriptUnknown');

    const created = await t.call(
      api.createPayGateway,
      { kind: 'collectionNotify', name: GATEWAY_NAME, webhookSecret: SECRET, payScriptId: scriptId },
      admin,
    );
    expect(created.body.code, JSON.stringify(created.body)).toBe(Code.success);
    expect(created.body.data).toMatchObject({ payScriptId: scriptId, payScriptName: 'Notify parser' });
    gatewayId = created.body.data.id;
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'payGateways.create'), eq(auditLog.target, `payGateway:${gatewayId}`)));
    expect(audit?.after).toMatchObject({ payScriptId: scriptId });

    const list = await t.call(api.getPayGateways, { name: GATEWAY_NAME }, admin);
    expect(list.body.data.list[0]).toMatchObject({ id: gatewayId, payScriptName: 'Notify parser' });
  });
});

describe('POST /v1.0/pay/notify/:gatewayId', () => {
  it('a wrong or missing signature, an unknown gateway or a payout API gateway: 401 and nothing moves', async () => {
    const order = await createOrder();
    const body = { order: order.orderCode, amount: order.amount, utr: 'UTRBAD000001', ok: true };
    const before = await snapshot(t.database);
    for (const res of [
      await notify(body, { secret: 'another-secret-value' }),
      await notify(body, { secret: null }),
      await notify(body, { id: 999_999 }),
      await notify(body, { id: 'abc' }),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe(Code.badSignature);
    }
    const payoutApi = await t.call(
      api.createPayGateway,
      {
        kind: 'payoutApi',
        name: 'Payout API (notify test)',
        baseUrl: 'https://api.gateway.example',
        keyId: 'key-id-02',
        keySecret: 'key-secret-value-02',
        webhookSecret: SECRET,
      },
      admin,
    );
    const mark = await snapshot(t.database);
    expect((await notify(body, { id: payoutApi.body.data.id })).statusCode).toBe(401);
    // A body over 256 KiB is not a notification, signed or not.
    const huge = await notify({ ...body, pad: 'x'.repeat(300 * 1024) });
    expect(huge.statusCode).toBe(413);
    expect(await snapshot(t.database)).toBe(mark);
    expect((await orderOf(order.orderCode)).state).toBe(ORDER_STATE.allocated);
    expect(before).not.toBe(mark); // the payout gateway was added in between: the snapshots see changes
  });

  it('a paid notification confirms the order with its UTR: ledger, timeline, audit and callback; a repeat moves nothing', async () => {
    const order = await createOrder();
    const row = await orderOf(order.orderCode);
    const merchant = accountCode('merchant', row.merchantId, 'available');
    const merchantBefore = await balance(merchant);
    const utr = 'UTRGW0000000001';

    const res = await notify(
      { order: order.orderCode, amount: order.amount, utr, ok: true },
      { headers: { cookie: 'token=not-for-scripts', authorization: 'Bearer not-for-scripts' } },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      code: Code.success,
      data: { outcome: 'paid', orderCode: order.orderCode, state: ORDER_STATE.paidNotifying },
    });
    const paid = await orderOf(order.orderCode);
    expect(paid.state).toBe(ORDER_STATE.paidNotifying);
    expect(paid.utr).toBe(utr);
    expect(await balance(merchant)).toBe(merchantBefore + paid.amount - paid.fee);
    await expectLedgerOk();
    // The timeline and the audit say the gateway did it.
    const events = await eventsOf(paid.id);
    const paidEvent = events.find((e) => e.kind === 'paid')!;
    expect(paidEvent.actorAccount).toBe(`gateway:${GATEWAY_NAME}`);
    expect(paidEvent.noteTemplate).toEqual({ key: 'paidByGateway', values: { gateway: GATEWAY_NAME, utr } });
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'orders.gatewayPaid'), eq(auditLog.target, `order:${order.orderCode}`)));
    expect(audit?.account).toBe(`gateway:${GATEWAY_NAME}`);
    expect(audit?.after).toMatchObject({ payGatewayId: gatewayId, payGatewayName: GATEWAY_NAME, utr });
    // The merchant is told.
    const callbacks = await callbacksOf(paid.id);
    expect(callbacks).toHaveLength(1);
    expect(callbacks[0]?.state).toBe('pending');

    // The gateway sends it again: answered, nothing moves twice.
    const transfers = (await transfersOf(order.orderCode)).length;
    const again = await notify({ order: order.orderCode, amount: order.amount, utr, ok: true });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toMatchObject({ outcome: 'alreadyPaid', state: ORDER_STATE.paidNotifying });
    expect(await balance(merchant)).toBe(merchantBefore + paid.amount - paid.fee);
    expect((await transfersOf(order.orderCode)).length).toBe(transfers);
    expect(await eventsOf(paid.id)).toHaveLength(events.length);
    expect(await callbacksOf(paid.id)).toHaveLength(1);
    await expectLedgerOk();
  });

  it('another amount: 200, nothing moves and the timeline gets nothing', async () => {
    const order = await createOrder();
    const row = await orderOf(order.orderCode);
    const events = await eventsOf(row.id);
    const before = withoutCalls(await snapshot(t.database));
    const res = await notify({ order: order.orderCode, amount: order.amount + 100, utr: 'UTRGW0000000002', ok: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ outcome: 'amountMismatch', orderCode: order.orderCode });
    expect(withoutCalls(await snapshot(t.database))).toBe(before);
    expect((await orderOf(order.orderCode)).state).toBe(ORDER_STATE.allocated);
    expect(await eventsOf(row.id)).toHaveLength(events.length);
  });

  it('a failed payment or an unknown order: 200, recorded, nothing moves', async () => {
    const order = await createOrder();
    const before = withoutCalls(await snapshot(t.database));
    const failed = await notify({ order: order.orderCode, amount: order.amount, ok: false });
    expect(failed.statusCode).toBe(200);
    expect(failed.json().data).toMatchObject({ outcome: 'failed', orderCode: order.orderCode });
    const unknown = await notify({ order: 'C0000NOSUCHORDER', amount: 100, utr: 'UTRGW0000000003', ok: true });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json().data).toMatchObject({ outcome: 'unknownOrder', state: null });
    expect(withoutCalls(await snapshot(t.database))).toBe(before);
  });

  it('a switched-off gateway: 401, nothing moves; switched on again it is heard', async () => {
    const order = await createOrder();
    const off = await t.call(api.setPayGatewayEnabled, { id: gatewayId, enabled: false }, admin);
    expect(off.body.code).toBe(Code.success);
    const before = await snapshot(t.database);
    const body = { order: order.orderCode, amount: order.amount, utr: 'UTRGW0000000004', ok: true };
    const res = await notify(body);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(Code.badSignature);
    expect(await snapshot(t.database)).toBe(before);
    await t.call(api.setPayGatewayEnabled, { id: gatewayId, enabled: true }, admin);
    expect((await notify(body)).json().data.outcome).toBe('paid');
  });

  it('a script that throws, or answers what the interface does not allow: 400 with the reason, nothing moves', async () => {
    const order = await createOrder();
    const before = withoutCalls(await snapshot(t.database));
    const thrown = await notify({ boom: true, order: order.orderCode });
    expect(thrown.statusCode).toBe(400);
    expect(thrown.json()).toMatchObject({ code: Code.invalidInput });
    expect(thrown.json().msg).toContain('cannot read this notification');
    // A paid notification without a UTR is not one.
    const noUtr = await notify({ order: order.orderCode, amount: order.amount, ok: true });
    expect(noUtr.statusCode).toBe(400);
    expect(noUtr.json().msg).toContain('utr');
    expect(withoutCalls(await snapshot(t.database))).toBe(before);
    expect((await orderOf(order.orderCode)).state).toBe(ORDER_STATE.allocated);
  });

  it('every run is in the call records with source notify, the order code it read, and the headers it got', async () => {
    const res = await t.call(
      endpoints.payScripts.getPayScriptRecords,
      { scriptId, source: 'notify', pageSize: 100 },
      superadmin,
    );
    expect(res.body.code).toBe(Code.success);
    const list = res.body.data.list as Array<Record<string, unknown>>;
    expect(list.length).toBeGreaterThanOrEqual(8);
    for (const r of list) expect(r).toMatchObject({ source: 'notify', kind: 'parse', createdBy: null });
    const paid = list.find((r) => r.ok && (r.output as { status: string }).status === 'paid')!;
    expect(paid.orderCode).toMatch(/^C/);
    const input = paid.input as { headers: Record<string, string>; body: string };
    expect(input.headers['x-upstream']).toBe('upi-gw');
    expect(input.headers['x-razorpay-signature']).toMatch(/^[0-9a-f]{64}$/);
    // The caller's credentials never reach a script (nor its call record).
    expect(JSON.stringify(list)).not.toContain('not-for-scripts');
    expect(JSON.parse(input.body)).toMatchObject({ ok: true });
    expect(list.some((r) => !r.ok && String(r.error).includes('cannot read this notification'))).toBe(true);
    const [stored] = await t.database.db
      .select({ n: payScriptCalls.id })
      .from(payScriptCalls)
      .where(and(eq(payScriptCalls.scriptId, scriptId), eq(payScriptCalls.source, 'test')));
    expect(stored).toBeUndefined();
  });

  it('a timed-out order is paid too (from the supplier’s available balance, its hold released)', async () => {
    const order = await createOrder();
    t.clock.advance(16 * 60_000);
    superadmin = await t.loginWithToken2('superadmin');
    expect(await t.app.services.orders.expireDue()).toBeGreaterThanOrEqual(1);
    expect((await orderOf(order.orderCode)).state).toBe(ORDER_STATE.timedOut);
    const res = await notify({ order: order.orderCode, amount: order.amount, utr: 'UTRGW0000000005', ok: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.outcome).toBe('paid');
    const paid = await orderOf(order.orderCode);
    expect(paid.state).toBe(ORDER_STATE.paidNotifying);
    expect(paid.paidFromHold).toBe(false);
    await expectLedgerOk();
  });
});
