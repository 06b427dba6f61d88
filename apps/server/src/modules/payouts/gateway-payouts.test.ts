import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { endpoints, PAYOUT_STATE, REASON_TEXTS } from '@paydesk/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeGateway, startFakeGateway } from '../../../../../tools/fake-gateway/fake-gateway.js';
import {
  auditLog,
  merchants,
  orderCallbacks,
  payoutEvents,
  payouts,
  resources,
  suppliers,
  users,
} from '../../db/schema.js';
import { SYSTEM_ACTOR } from '../../platform/audit.js';
import { DEMO_GATEWAY, DEMO_GATEWAY_ACCOUNTS, demoGatewayAccount, demoGatewayUrl } from '../../seed/demo-gateway.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, snapshot, startTestApp, type TestApp } from '../../testing/harness.js';
import { waitFor } from '../../testing/wait.js';
import { accountCode } from '../ledger/accounts.js';
import { signParams } from '../orders/signature.js';
import { webhookSignature } from './gateway/webhook.js';
import { GatewayDispatcher, GatewayPayouts } from './gateway-payouts.js';
import { gatewayWebhookPath } from './gateway-webhook.routes.js';

/**
 * Issue 20 item 5: payouts of the gateway products (2003 gateway payout, 2002 India auto payout) paid
 * through a gateway account of their product against the fake gateway: assigned and sent by the system with the payout's code as the idempotency key, moved by
 * the signed webhook or a status poll, completed with the ledger's paid transfer and the merchant's
 * callback, or a processing exception with the gateway's reason; never claimed by hand.
 */
const S = PAYOUT_STATE;
const api = endpoints.payouts;
/** The demo's gateway account (seed/demo-resources.ts) holds the fake's demo credentials. */
const CREDS = {
  keyId: DEMO_GATEWAY.keyId,
  keySecret: DEMO_GATEWAY.keySecret,
  webhookSecret: DEMO_GATEWAY.webhookSecret,
};
const POLL_MS = 30_000;
const RETRY_MS = 5_000;

let t: TestApp;
let fake: FakeGateway;
let gateway: GatewayPayouts;
let resourceId = 0;
/** The demo's gateway account of India auto payout (2002), at the same fake from its own business account. */
let autoResourceId = 0;
const AUTO_ACCOUNT_NUMBER = DEMO_GATEWAY_ACCOUNTS.find((a) => a.productId === 2002)!.accountNumber;
let merchantId = 0;
let supplierId = 0;
let webhookUrl = '';
const auth: Record<string, Auth> = {};

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const appUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const [m] = await db.select().from(merchants).where(eq(merchants.merchantNo, DEMO_MERCHANT_API.mchId));
  merchantId = m!.id;
  const [s] = await db
    .select({ id: suppliers.id, userId: suppliers.userId })
    .from(suppliers)
    .innerJoin(users, eq(users.id, suppliers.userId))
    .where(eq(users.account, 'supplier1'));
  supplierId = s!.id;
  fake = await startFakeGateway({ ...CREDS, behaviour: { stepMs: 30, slowMs: 4_000 } });
  // The demo's seed gives merchant1 the gateway product (a fee) and supplier1 a gateway account on it
  // (1.00 % commission), pointing at the fake of `npm start`: here it points at this test's fake.
  const account = await demoGatewayAccount(db, demoGatewayUrl(t.config.demoGatewayPort));
  expect(account).toMatchObject({ supplierId, state: 0, details: { keyId: CREDS.keyId } });
  resourceId = account!.id;
  await t.app.services.resources.update(
    { all: true },
    {
      id: resourceId,
      productId: 2003,
      name: account!.name,
      details: { baseUrl: fake.url, keyId: CREDS.keyId, accountNumber: DEMO_GATEWAY.accountNumber },
    },
    SYSTEM_ACTOR,
  );
  webhookUrl = `${appUrl}${gatewayWebhookPath(resourceId)}`;
  fake.setWebhookUrl(webhookUrl);
  const auto = await demoGatewayAccount(db, demoGatewayUrl(t.config.demoGatewayPort), 2002);
  expect(auto).toMatchObject({ supplierId, state: 0, kind: 'gatewayPayout', details: { keyId: CREDS.keyId } });
  autoResourceId = auto!.id;
  await t.app.services.resources.update(
    { all: true },
    {
      id: autoResourceId,
      productId: 2002,
      name: auto!.name,
      details: { baseUrl: fake.url, keyId: CREDS.keyId, accountNumber: AUTO_ACCOUNT_NUMBER },
    },
    SYSTEM_ACTOR,
  );
  // Its payouts' webhooks go to its own route (a webhook moves only the payouts of the account it names).
  fake.setWebhookUrl(`${appUrl}${gatewayWebhookPath(autoResourceId)}`, AUTO_ACCOUNT_NUMBER);
  // The sends and polls of these tests, with a short timeout (the app's own has the default one).
  gateway = new GatewayPayouts({
    db,
    clock: t.clock,
    payouts: t.app.services.payouts,
    secretKey: t.app.services.resources.deps.secretKey,
    privateNetworks: true,
    // Short, yet long enough for a loaded 2-core CI machine (300 ms timed sends out there); a slow
    // payee (slowMs) answers well after it.
    timeoutMs: 2_000,
    pollMs: POLL_MS,
    retryMs: [RETRY_MS],
  });
  auth.supplier1 = await t.login('supplier1');
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

let n = 0;
/** merchant1 asks for a gateway payout to `payee` (the fake's outcome is a word of the name). */
async function createPayout(payee = 'Asha Rao', amount = 25_000, productId = 2003) {
  n += 1;
  const p: Record<string, string> = {
    mchId: DEMO_MERCHANT_API.mchId,
    productId: String(productId),
    mchOrderNo: `GW${Date.now()}${n}`,
    amount: String(amount),
    notifyUrl: 'http://127.0.0.1:9/notify',
    userName: payee,
    cardNumber: '50100234567890',
    ifscCode: 'HDFC0001234',
    bankName: 'HDFC Bank',
    bankBranch: 'Koramangala',
    address: '12 MG Road, Bengaluru',
  };
  const res = await t.call(api.create, { ...p, sign: signParams(p, DEMO_MERCHANT_API.secret, 'HMAC-SHA256') });
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return payoutOf(res.body.data.orderCode as string);
}

async function payoutOf(orderCode: string) {
  const [row] = await t.database.db.select().from(payouts).where(eq(payouts.orderCode, orderCode));
  return row!;
}

const settledTo = (orderCode: string, state: number) =>
  waitFor(
    `payout ${orderCode} in state ${state}`,
    () => payoutOf(orderCode),
    (p) => p.state === state,
    10_000,
  );

const fakePayoutsOf = (orderCode: string) => [...fake.payouts.values()].filter((p) => p.idempotencyKey === orderCode);

const timeline = async (id: number) =>
  (
    await t.database.db
      .select({ kind: payoutEvents.kind, from: payoutEvents.fromState, to: payoutEvents.toState })
      .from(payoutEvents)
      .where(eq(payoutEvents.payoutId, id))
      .orderBy(asc(payoutEvents.id))
  ).map((e) => `${e.kind} ${e.from}->${e.to}`);

const balance = (code: string) => t.app.services.ledger.balanceOf(t.database.db, code);

/** A webhook of the payout as the fake would send it, signed with `secret`. */
function webhookOf(p: { gatewayId: string; orderCode: string; amount: number }, secret: string, utr = '998877665544') {
  const body = JSON.stringify({
    entity: 'event',
    event: 'payout.processed',
    contains: ['payout'],
    payload: {
      payout: {
        entity: { id: p.gatewayId, status: 'processed', amount: p.amount, reference_id: p.orderCode, utr },
      },
    },
  });
  return { body, signature: webhookSignature(body, secret) };
}

const postWebhook = (body: string, signature: string | undefined) =>
  t.app.inject({
    method: 'POST',
    url: gatewayWebhookPath(resourceId),
    headers: { 'content-type': 'application/json', ...(signature ? { 'x-razorpay-signature': signature } : {}) },
    payload: body,
  });

describe('a gateway payout', () => {
  it('is assigned, sent with its code as the key, and completed by the signed webhook: paid out, merchant notified', async () => {
    const frozen = await balance(accountCode('merchant', merchantId, 'frozen'));
    const supplierAvailable = await balance(accountCode('supplier', supplierId, 'available'));
    const payout = await createPayout('Asha Rao');
    expect(payout.state).toBe(S.awaiting);

    await gateway.runOnce();
    const sent = await payoutOf(payout.orderCode);
    expect(sent).toMatchObject({ state: S.inProgress, resourceId, supplierId, commission: 250 });
    const [atFake] = fakePayoutsOf(payout.orderCode);
    expect(sent.gatewayId).toBe(atFake!.id);
    expect(atFake).toMatchObject({ amount: 25_000, referenceId: payout.orderCode, payee: { name: 'Asha Rao' } });

    const done = await settledTo(payout.orderCode, S.completed);
    expect(done.utr).toBe(atFake!.utr);
    expect(done.gatewayDueAt).toBeNull();
    expect(await timeline(payout.id)).toEqual([
      'created null->0',
      'claimed 0->1',
      'gatewaySent 1->2',
      'completed 2->3',
    ]);
    // Confirm's ledger effect: the hold paid out, the supplier credited amount plus commission.
    expect(await balance(accountCode('merchant', merchantId, 'frozen'))).toBe(frozen);
    expect(await balance(accountCode('supplier', supplierId, 'available'))).toBe(supplierAvailable + 25_000 + 250);
    const callbacks = await t.database.db.select().from(orderCallbacks).where(eq(orderCallbacks.payoutId, payout.id));
    expect(callbacks).toHaveLength(1);
    const audit = await t.database.db
      .select({ action: auditLog.action, account: auditLog.account })
      .from(auditLog)
      .where(eq(auditLog.target, `payout:${payout.orderCode}`))
      .orderBy(asc(auditLog.id));
    expect(audit).toEqual([
      { action: 'payouts.claim', account: 'system' },
      { action: 'payouts.submit', account: 'system' },
      { action: 'payouts.confirm', account: 'system' },
    ]);
    // The webhook again (the gateway retries): nothing moves twice.
    const again = webhookOf(
      { gatewayId: done.gatewayId!, orderCode: done.orderCode, amount: done.amount },
      CREDS.webhookSecret,
      done.utr!,
    );
    const before = await snapshot(t.database);
    expect((await postWebhook(again.body, again.signature)).statusCode).toBe(200);
    expect(await snapshot(t.database)).toBe(before);
  });

  it('the gateway’s failure makes it a processing exception with the gateway’s reason, funds still held', async () => {
    const frozen = await balance(accountCode('merchant', merchantId, 'frozen'));
    const payout = await createPayout('Ravi Fail');
    await gateway.runOnce();
    const failed = await settledTo(payout.orderCode, S.processingException);
    expect(failed.exceptionReason).toContain('Beneficiary bank rejected the transfer');
    expect(await timeline(payout.id)).toEqual([
      'created null->0',
      'claimed 0->1',
      'gatewaySent 1->2',
      'markedAbnormal 2->9',
    ]);
    expect(await balance(accountCode('merchant', merchantId, 'frozen'))).toBe(frozen + payout.amount + payout.fee);
    // Staff resolve it as today: rejected gives the merchant its funds back.
    const admin = await t.loginWithToken2('admin');
    const res = await t.call(api.resolve, { orderId: payout.id, to: 'rejected', reason: 'gateway failed' }, admin);
    expect(res.body.code, JSON.stringify(res.body)).toBe(200);
    expect(await balance(accountCode('merchant', merchantId, 'frozen'))).toBe(frozen);
  });

  it('a send without an answer is retried with the same key and completes without a second payout at the gateway', async () => {
    fake.setWebhookUrl(undefined);
    try {
      const payout = await createPayout('Asha Slow');
      await gateway.runOnce();
      const waiting = await payoutOf(payout.orderCode);
      expect(waiting).toMatchObject({ state: S.preparing, gatewayId: null, gatewayAttempts: 1 });
      expect(await timeline(payout.id)).toEqual(['created null->0', 'claimed 0->1', 'gatewayUnanswered 1->1']);
      // Not due again before its retry delay.
      await gateway.runOnce();
      expect(fakePayoutsOf(payout.orderCode)).toHaveLength(1);
      await waitFor(
        'the gateway to pay it',
        async () => fakePayoutsOf(payout.orderCode)[0]?.status,
        (s) => s === 'processed',
      );
      t.clock.advance(RETRY_MS);
      await gateway.runOnce();
      const done = await payoutOf(payout.orderCode);
      expect(done.state).toBe(S.completed);
      expect(fakePayoutsOf(payout.orderCode)).toHaveLength(1);
      expect(done.utr).toBe(fakePayoutsOf(payout.orderCode)[0]!.utr);
      expect(done.gatewayId).toBe(fakePayoutsOf(payout.orderCode)[0]!.id);
    } finally {
      fake.setWebhookUrl(webhookUrl);
    }
  });

  it('a webhook with a wrong signature moves nothing; the status poll completes a payout whose webhook was lost', async () => {
    fake.setWebhookUrl(undefined);
    try {
      const payout = await createPayout('Meera Iyer');
      await gateway.runOnce();
      const sent = await payoutOf(payout.orderCode);
      expect(sent.state).toBe(S.inProgress);
      const forged = webhookOf(
        { gatewayId: sent.gatewayId!, orderCode: sent.orderCode, amount: sent.amount },
        'not-the-webhook-secret',
      );
      const before = await snapshot(t.database);
      const wrong = await postWebhook(forged.body, forged.signature);
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toMatchObject({ code: 2001 });
      expect((await postWebhook(forged.body, undefined)).statusCode).toBe(401);
      // The right signature of another account's secret is refused the same way on this account.
      const other = await t.app.inject({
        method: 'POST',
        url: gatewayWebhookPath(999_999),
        headers: { 'content-type': 'application/json', 'x-razorpay-signature': forged.signature },
        payload: forged.body,
      });
      expect(other.statusCode).toBe(401);
      expect(await snapshot(t.database)).toBe(before);

      await waitFor(
        'the gateway to pay it',
        async () => fakePayoutsOf(payout.orderCode)[0]?.status,
        (s) => s === 'processed',
      );
      // Not asked before its poll is due; then the poll completes it.
      await gateway.runOnce();
      expect((await payoutOf(payout.orderCode)).state).toBe(S.inProgress);
      t.clock.advance(POLL_MS);
      await gateway.runOnce();
      const done = await payoutOf(payout.orderCode);
      expect(done).toMatchObject({ state: S.completed, utr: fakePayoutsOf(payout.orderCode)[0]!.utr });
    } finally {
      fake.setWebhookUrl(webhookUrl);
    }
  });

  it('every move it makes is published to the live lists after commit: assigned, sent, completed by the webhook, failed', async () => {
    const published: Array<{ topic: string; data: unknown; audience: unknown }> = [];
    const spy = vi.spyOn(t.app.realtime, 'publish').mockImplementation(async (topic, data, audience) => {
      published.push({ topic, data, audience });
    });
    fake.setWebhookUrl(undefined);
    try {
      const payout = await createPayout('Nisha Rao');
      await gateway.runOnce();
      const sent = await payoutOf(payout.orderCode);
      expect(sent.state).toBe(S.inProgress);
      const staff = ['superAdmin', 'admin', 'customerService', 'technicalMaintenance'];
      const parties = [payout.merchantUserId, sent.supplierUserId!];
      const of = (orderCode: string) =>
        published.filter((e) => e.topic === 'payouts' && (e.data as { orderCode: string }).orderCode === orderCode);
      // Created, then assigned (out of the queue: every supplier hears) and sent in one round.
      await vi.waitFor(() => expect(of(payout.orderCode)).toHaveLength(3));
      expect(of(payout.orderCode).slice(1)).toEqual([
        {
          topic: 'payouts',
          data: { orderCode: payout.orderCode, state: S.preparing },
          audience: { userIds: parties, roles: [...staff, 'supplier'] },
        },
        {
          topic: 'payouts',
          data: { orderCode: payout.orderCode, state: S.inProgress },
          audience: { userIds: parties, roles: staff },
        },
      ]);

      await waitFor(
        'the gateway to pay it',
        async () => fakePayoutsOf(payout.orderCode)[0]?.status,
        (status) => status === 'processed',
      );
      const hook = webhookOf(
        { gatewayId: sent.gatewayId!, orderCode: sent.orderCode, amount: sent.amount },
        CREDS.webhookSecret,
        fakePayoutsOf(payout.orderCode)[0]!.utr ?? '998877665544',
      );
      expect((await postWebhook(hook.body, hook.signature)).statusCode).toBe(200);
      expect((await payoutOf(payout.orderCode)).state).toBe(S.completed);
      await vi.waitFor(() =>
        expect(of(payout.orderCode).at(-1)).toEqual({
          topic: 'payouts',
          data: { orderCode: payout.orderCode, state: S.completed },
          audience: { userIds: parties, roles: staff },
        }),
      );

      // The gateway's failure (sent and refused in one round): the exception is published too.
      const failing = await createPayout('Ravi Fail');
      await gateway.runOnce();
      await waitFor(
        'the gateway to fail it',
        async () => fakePayoutsOf(failing.orderCode)[0]?.status,
        (status) => status === 'failed',
      );
      t.clock.advance(POLL_MS);
      await gateway.runOnce();
      expect((await payoutOf(failing.orderCode)).state).toBe(S.processingException);
      await vi.waitFor(() =>
        expect(of(failing.orderCode).at(-1)?.data).toEqual({
          orderCode: failing.orderCode,
          state: S.processingException,
        }),
      );
    } finally {
      spy.mockRestore();
      fake.setWebhookUrl(webhookUrl);
    }
  });

  it('is refused by claimOrder with its own reason, in three languages', async () => {
    const payout = await createPayout('Kiran Das');
    const res = await t.call(api.claimOrder, { orderId: payout.id }, auth.supplier1);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      msg: 'a gateway payout is sent to its gateway by the system and cannot be claimed by hand',
      data: { reason: 'gatewayPayout' },
    });
    expect(REASON_TEXTS.gatewayPayout['en-US']).toBe(res.body.msg);
    expect(REASON_TEXTS.gatewayPayout['zh-CN']).toBeTruthy();
    expect(REASON_TEXTS.gatewayPayout['zh-TW']).toBeTruthy();
    const detail = await t.call(api.getDetail, { orderId: payout.id }, auth.supplier1);
    expect(detail.body.data.payout.allowedActions).not.toContain('claim');
    // The dispatcher, in its loop, sends it and the webhook completes it.
    const dispatcher = new GatewayDispatcher(gateway, { pollMs: 50, batchSize: 10 });
    dispatcher.start();
    try {
      await settledTo(payout.orderCode, S.completed);
    } finally {
      await dispatcher.stop();
    }
  });

  it('a gateway URL on a private network is not called unless the configuration allows it', async () => {
    const strict = new GatewayPayouts({
      db: t.database.db,
      clock: t.clock,
      payouts: t.app.services.payouts,
      secretKey: t.app.services.resources.deps.secretKey,
      privateNetworks: false,
    });
    const payout = await createPayout('Dev Patel');
    await strict.runOnce();
    const refused = await payoutOf(payout.orderCode);
    expect(refused.state).toBe(S.processingException);
    expect(refused.exceptionReason).toMatch(/may not be called: .*private network/);
    expect(fakePayoutsOf(payout.orderCode)).toHaveLength(0);
    // Never taken by its gateway: resolved "to in progress", it goes back to be sent (with its own key),
    // and a dispatcher that may call the gateway pays it; left in progress, nothing would move it.
    const admin = await t.loginWithToken2('admin');
    const resolved = await t.call(
      api.resolve,
      { orderId: payout.id, to: 'inProgress', reason: 'network allowed now' },
      admin,
    );
    expect(resolved.body.data, JSON.stringify(resolved.body)).toMatchObject({ state: S.preparing });
    await gateway.runOnce();
    expect(fakePayoutsOf(payout.orderCode).map((p) => p.idempotencyKey)).toEqual([payout.orderCode]);
    expect((await settledTo(payout.orderCode, S.completed)).utr).toBe(fakePayoutsOf(payout.orderCode)[0]!.utr);
    const [event] = await t.database.db
      .select()
      .from(payoutEvents)
      .where(and(eq(payoutEvents.payoutId, payout.id), eq(payoutEvents.kind, 'markedAbnormal')));
    expect(event?.actorAccount).toBe('system');
  });
});

describe('an India auto payout (2002)', () => {
  it('is paid as a gateway payout: assigned to the 2002 gateway account, sent to the fake, completed by its webhook', async () => {
    const frozen = await balance(accountCode('merchant', merchantId, 'frozen'));
    const supplierAvailable = await balance(accountCode('supplier', supplierId, 'available'));
    const payout = await createPayout('Lakshmi Menon', 40_000, 2002);
    expect(payout).toMatchObject({ productId: 2002, state: S.awaiting });

    await gateway.runOnce();
    const sent = await payoutOf(payout.orderCode);
    // Its own product's account, not the 2003 one; commission 1.00 % as supplier1's 2002 setting says.
    expect(sent).toMatchObject({ state: S.inProgress, resourceId: autoResourceId, supplierId, commission: 400 });
    const [atFake] = fakePayoutsOf(payout.orderCode);
    expect(atFake).toMatchObject({
      accountNumber: AUTO_ACCOUNT_NUMBER,
      amount: 40_000,
      payee: { name: 'Lakshmi Menon' },
    });
    expect(sent.gatewayId).toBe(atFake!.id);

    const done = await settledTo(payout.orderCode, S.completed);
    expect(done.utr).toBe(atFake!.utr);
    expect(await timeline(payout.id)).toEqual([
      'created null->0',
      'claimed 0->1',
      'gatewaySent 1->2',
      'completed 2->3',
    ]);
    expect(await balance(accountCode('merchant', merchantId, 'frozen'))).toBe(frozen);
    expect(await balance(accountCode('supplier', supplierId, 'available'))).toBe(supplierAvailable + 40_000 + 400);
    const callbacks = await t.database.db.select().from(orderCallbacks).where(eq(orderCallbacks.payoutId, payout.id));
    expect(callbacks).toHaveLength(1);
  });

  it('is never the supplier’s by hand: not in its claim queue, refused by claimOrder, and once sent neither submitted nor given back', async () => {
    fake.setWebhookUrl(undefined, AUTO_ACCOUNT_NUMBER);
    try {
      const payout = await createPayout('Farah Khan', 30_000, 2002);
      // supplier1 has 2002 enabled and an enabled account of it, yet the queue does not offer it.
      const queue = await t.call(api.getList, { pageIndex: 1, pageSize: 100, queue: true }, auth.supplier1);
      expect(queue.body.code, JSON.stringify(queue.body)).toBe(200);
      expect(queue.body.data.list.map((r: { orderCode: string }) => r.orderCode)).not.toContain(payout.orderCode);
      const before = await snapshot(t.database);
      const claim = await t.call(api.claimOrder, { orderId: payout.id }, auth.supplier1);
      expect(claim.status).toBe(422);
      expect(claim.body).toMatchObject({ msg: REASON_TEXTS.gatewayPayout['en-US'], data: { reason: 'gatewayPayout' } });
      expect(await snapshot(t.database)).toBe(before);

      await gateway.runOnce();
      const sent = await payoutOf(payout.orderCode);
      expect(sent).toMatchObject({ state: S.inProgress, resourceId: autoResourceId });
      const detail = await t.call(api.getDetail, { orderId: payout.id }, auth.supplier1);
      expect(detail.body.data.payout.allowedActions).not.toContain('submit');
      expect(detail.body.data.payout.allowedActions).not.toContain('cancelClaim');
      for (const [call, body] of [
        [api.submit, { orderId: payout.id, utr: 'UTRBYHAND0001' }],
        [api.cancelClaim, { orderId: payout.id }],
      ] as const) {
        const res = await t.call(call, body, auth.supplier1);
        expect(res.status).toBe(422);
        expect(res.body.data).toMatchObject({ reason: 'gatewayPayout' });
      }
      expect((await payoutOf(payout.orderCode)).state).toBe(S.inProgress);
      // The gateway pays it; its status poll completes it.
      await waitFor(
        'the gateway to pay it',
        async () => fakePayoutsOf(payout.orderCode)[0]?.status,
        (status) => status === 'processed',
      );
      t.clock.advance(POLL_MS);
      await gateway.runOnce();
      expect((await payoutOf(payout.orderCode)).state).toBe(S.completed);
    } finally {
      fake.setWebhookUrl(
        `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}${gatewayWebhookPath(autoResourceId)}`,
        AUTO_ACCOUNT_NUMBER,
      );
    }
  });

  it('the gateway’s failure makes it a processing exception with the gateway’s reason, funds still held', async () => {
    const frozen = await balance(accountCode('merchant', merchantId, 'frozen'));
    const payout = await createPayout('Suresh Fail', 25_000, 2002);
    await gateway.runOnce();
    const failed = await settledTo(payout.orderCode, S.processingException);
    expect(failed.resourceId).toBe(autoResourceId);
    expect(failed.exceptionReason).toContain('Beneficiary bank rejected the transfer');
    expect(await balance(accountCode('merchant', merchantId, 'frozen'))).toBe(frozen + payout.amount + payout.fee);
  });

  it('the upgrade turns 2002’s bank accounts into bank payout accounts and its hand claims in progress into exceptions', async () => {
    const db = t.database.db;
    const now = t.clock.now();
    // As an earlier release left them: a bank account of 2002 (kind indiaAutoPayout), a payout of it
    // claimed by hand and in progress, another already submitted.
    const [bank] = await db
      .insert(resources)
      .values({
        supplierId,
        productId: 2002,
        kind: 'indiaAutoPayout',
        name: 'Old India auto account',
        state: 0,
        details: { accountName: 'A', bankName: 'SBI', accountNumber: '55501234', ifsc: 'SBIN0000001' },
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const [merchant] = await db.select().from(merchants).where(eq(merchants.id, merchantId));
    const [supplier] = await db.select().from(suppliers).where(eq(suppliers.id, supplierId));
    const legacy = async (code: string, state: number) => {
      const [row] = await db
        .insert(payouts)
        .values({
          orderCode: code,
          merchantId,
          merchantUserId: merchant!.userId,
          merchantOrderNo: code,
          requestHash: 'x',
          productId: 2002,
          amount: 10_000,
          fee: 100,
          state,
          userName: 'Legacy Payee',
          cardNumber: '99887766',
          ifscCode: 'SBIN0004321',
          supplierId,
          supplierUserId: supplier!.userId,
          resourceId: bank!.id,
          claimedAt: now,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return row!;
    };
    const held = await legacy('P0LEGACY2002HELD', S.inProgress);
    const submitted = await legacy('P0LEGACY2002SUBM', S.submitted);

    const migration = readFileSync(
      new URL('../../../drizzle/0041_india_auto_payout_gateway.sql', import.meta.url),
      'utf8',
    ).split('--> statement-breakpoint');
    for (const statement of migration) await db.execute(sql.raw(statement));

    const [account] = await db.select().from(resources).where(eq(resources.id, bank!.id));
    expect(account).toMatchObject({ productId: 2001, kind: 'bankPayout', state: 0, details: bank!.details });
    const heldNow = await payoutOf(held.orderCode);
    expect(heldNow.state).toBe(S.processingException);
    expect(heldNow.exceptionReason).toContain('claimed by hand');
    expect(await timeline(held.id)).toEqual(['markedAbnormal 2->9']);
    // Staff settle it as any exception: rejected gives the merchant its funds back.
    const admin = await t.loginWithToken2('admin');
    const detail = await t.call(api.getDetail, { orderId: held.id }, admin);
    expect(detail.body.data.payout.allowedActions).toContain('resolve');
    expect((await payoutOf(submitted.orderCode)).state).toBe(S.submitted);
    expect(await timeline(submitted.id)).toEqual([]);
    // The demo's 2002 gateway account is a gateway account still.
    const [auto] = await db.select().from(resources).where(eq(resources.id, autoResourceId));
    expect(auto).toMatchObject({ productId: 2002, kind: 'gatewayPayout' });
  });
});
