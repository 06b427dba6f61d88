import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CallbackRow, Code, callbackActionRefusal, endpoints, ORDER_STATE } from '@paydesk/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createScratchDatabase } from '../../db/client.js';
import { auditLog, merchants, orderCallbackAttempts, orderCallbacks, orderEvents, orders } from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import {
  type Auth,
  downloadCsv,
  snapshot,
  startTestApp,
  type TestApp,
  type TestDatabaseAt,
} from '../../testing/harness.js';
import { sleep, waitFor } from '../../testing/wait.js';
import { signatureMatches, signParams } from '../orders/signature.js';

const { orders: orderApi, callbacks: api } = endpoints;

// ---- a merchant's callback receiver whose answers each test scripts ----

type Answer = 'success' | 'hang' | 'redirect' | { status: number; body: string };
interface Received {
  path: string;
  params: Record<string, string>;
  contentType: string | undefined;
  answered: 'success' | 'hang' | 'redirect' | number;
}

class MerchantServer {
  readonly received: Received[] = [];
  private readonly scripts = new Map<string, Answer[]>();
  private readonly served = new Map<string, number>();
  private server!: Server;
  base = '';

  async start() {
    this.server = createServer((req, res) => void this.answer(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The answers of `path`, in order; the last one repeats. Without a script a path answers SUCCESS. */
  script(path: string, answers: Answer[]) {
    this.scripts.set(path, answers);
    return `${this.base}${path}`;
  }

  private async answer(req: IncomingMessage, res: ServerResponse) {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const path = (req.url ?? '').split('?')[0]!;
    const n = this.served.get(path) ?? 0;
    this.served.set(path, n + 1);
    const script = this.scripts.get(path) ?? ['success'];
    const a = script[Math.min(n, script.length - 1)]!;
    this.received.push({
      path,
      params: Object.fromEntries(new URLSearchParams(raw)),
      contentType: req.headers['content-type'],
      answered: typeof a === 'string' ? a : a.status,
    });
    if (a === 'hang') return; // never answers: the client gives up
    if (a === 'redirect') {
      res.writeHead(302, { location: `${this.base}/elsewhere` }).end();
      return;
    }
    if (a === 'success') res.writeHead(200, { 'content-type': 'text/plain' }).end(' success\n');
    else res.writeHead(a.status, { 'content-type': 'text/plain' }).end(a.body);
  }

  to(path: string) {
    return this.received.filter((r) => r.path === path);
  }

  async stop() {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

// ---- helpers on a test app ----

/** Callback attempts at 0, 20, 40, 60, 80 ms after a callback was created, then 2 h (past a 1-hour window). */
const SCHEDULE_MS = [0, 20, 40, 60, 80, 7_200_000];
// The timeout is met only by the 'hang' answer: long enough that a loaded machine's slow exchange is not one.
const TUNING = { callbackScheduleMs: SCHEDULE_MS, callbackTimeoutMs: 1_000 };

let amountSeq = 0;
async function createOrder(t: TestApp, notifyUrl: string, over: Record<string, unknown> = {}) {
  amountSeq += 1;
  const params: Record<string, unknown> = {
    mchId: DEMO_MERCHANT_API.mchId,
    productId: '1001',
    mchOrderNo: `CB${Date.now()}${amountSeq}`,
    amount: String(20_000 + amountSeq * 100 + 3),
    notifyUrl,
    ...over,
  };
  const res = await t.call(orderApi.create, {
    ...params,
    sign: signParams(params, DEMO_MERCHANT_API.secret, 'HMAC-SHA256'),
  });
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data.orderCode as string;
}

const orderOf = async (t: TestApp, orderCode: string) =>
  (await t.database.db.select().from(orders).where(eq(orders.orderCode, orderCode)))[0]!;
const callbacksOf = async (t: TestApp, orderCode: string) =>
  t.database.db
    .select()
    .from(orderCallbacks)
    .where(eq(orderCallbacks.orderCode, orderCode))
    .orderBy(asc(orderCallbacks.id));
const attemptsOf = async (t: TestApp, callbackId: number) =>
  t.database.db
    .select()
    .from(orderCallbackAttempts)
    .where(eq(orderCallbackAttempts.callbackId, callbackId))
    .orderBy(asc(orderCallbackAttempts.attemptNo));

/** Waits until the order's callbacks are all settled (none pending) and answers them. */
const settled = (t: TestApp, orderCode: string) =>
  waitFor(
    `the callbacks of ${orderCode}`,
    () => callbacksOf(t, orderCode),
    (rows) => rows.length > 0 && rows.every((r) => r.state !== 'pending'),
  );

// ---- one app with jobs running for most cases ----

let t: TestApp;
const merchant = new MerchantServer();
const as = new Map<string, Auth>();
const auth = (account: string) => as.get(account)!;

beforeAll(async () => {
  await merchant.start();
  t = await startTestApp({ jobs: TUNING });
  // Every sign-in moves the test clock (one authenticator step each): all of them happen before any
  // callback exists, so the callbacks' schedule is read on a clock that stays put.
  for (const account of ['superadmin', 'admin', 'service']) as.set(account, await t.loginWithToken2(account));
});
afterAll(async () => {
  await t?.close();
  await merchant.stop();
});

async function pay(orderCode: string) {
  const res = await t.call(orderApi.confirmOrder, { orderCode }, auth('admin'));
  expect(res.body.data?.state, JSON.stringify(res.body)).toBe(ORDER_STATE.paidNotifying);
}

describe('delivery', () => {
  it('a paid order is delivered at once: callback succeeded, order 3, one attempt, a timeline row', async () => {
    const url = merchant.script('/n/once', ['success']);
    const orderCode = await createOrder(t, url);
    await pay(orderCode);
    const [callback] = await settled(t, orderCode);
    expect(callback).toMatchObject({
      state: 'succeeded',
      attempts: 1,
      trigger: 'auto',
      notificationId: `N${orderCode}`,
    });
    expect((await orderOf(t, orderCode)).state).toBe(ORDER_STATE.callbackSucceeded);
    const attempts = await attemptsOf(t, callback!.id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ attemptNo: 1, succeeded: true, responseStatus: 200, url, httpMethod: 'POST' });
    expect(attempts[0]!.responseBody).toBe(' success\n');
    expect(merchant.to('/n/once')).toHaveLength(1);
    expect(merchant.to('/n/once')[0]!.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    const order = await orderOf(t, orderCode);
    const events = await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id));
    expect(events.find((e) => e.kind === 'callbackSucceeded')).toMatchObject({
      fromState: ORDER_STATE.paidNotifying,
      toState: ORDER_STATE.callbackSucceeded,
    });
  });

  it('failures (HTTP 500, 200 "OK", a redirect, no answer) are retried on the schedule; delivered once, every attempt recorded', async () => {
    const url = merchant.script('/n/flaky', [
      { status: 500, body: 'ERR' },
      { status: 200, body: 'OK' },
      'redirect',
      'hang',
      'success',
    ]);
    const orderCode = await createOrder(t, url);
    await pay(orderCode);
    const [callback] = await settled(t, orderCode);
    expect(callback).toMatchObject({ state: 'succeeded', attempts: 5 });
    expect((await orderOf(t, orderCode)).state).toBe(ORDER_STATE.callbackSucceeded);
    const attempts = await attemptsOf(t, callback!.id);
    expect(attempts.map((a) => [a.attemptNo, a.succeeded, a.responseStatus])).toEqual([
      [1, false, 500],
      [2, false, 200],
      [3, false, 302],
      [4, false, null],
      [5, true, 200],
    ]);
    expect(attempts[0]!.error).toBe('HTTP 500');
    expect(attempts[1]!.error).toBe('the answer is not SUCCESS');
    expect(attempts[2]!.error).toMatch(/redirects are not followed/);
    expect(attempts[3]!.error).toBe('no answer within 1 s');
    // The redirect was not followed, and exactly one exchange ended in SUCCESS.
    expect(merchant.received.filter((r) => r.path === '/elsewhere')).toHaveLength(0);
    expect(merchant.to('/n/flaky').map((r) => r.answered)).toEqual([500, 200, 'redirect', 'hang', 'success']);
  });

  it('a notify URL at the cloud metadata address is never called, though the demo allows private networks', async () => {
    expect(t.config.callbackPrivateNetworks ?? t.config.demo).toBe(true);
    const orderCode = await createOrder(t, 'http://169.254.169.254/latest/meta-data/iam/security-credentials/');
    await pay(orderCode);
    const [callback] = await waitFor(
      `the first attempt of ${orderCode}`,
      () => callbacksOf(t, orderCode),
      (rows) => (rows[0]?.attempts ?? 0) >= 1,
    );
    const [first] = await attemptsOf(t, callback!.id);
    expect(first).toMatchObject({ attemptNo: 1, succeeded: false, responseStatus: null });
    expect(first!.error).toBe(
      'the address 169.254.169.254 is link-local or a cloud metadata service: callbacks never call it',
    );
  });

  it('the callback carries the order’s public fields, signed with the merchant’s key and sign type', async () => {
    const url = merchant.script('/n/fields', ['success']);
    const extra = JSON.stringify({ shop: 'north' });
    const orderCode = await createOrder(t, url, { extra });
    const utr = `77${Date.now()}`.slice(0, 12);
    const res = await t.call(orderApi.replenishmentOrder, { orderCode, utr }, auth('service'));
    expect(res.body.code, JSON.stringify(res.body)).toBe(200);
    await settled(t, orderCode);
    const [got] = merchant.to('/n/fields');
    const order = await orderOf(t, orderCode);
    expect(got!.params).toEqual({
      mchId: DEMO_MERCHANT_API.mchId,
      mchOrderNo: order.merchantOrderNo,
      orderCode,
      productId: '1001',
      amount: String(order.apiAmount),
      state: String(ORDER_STATE.paidNotifying),
      paidTime: order.paidAt!.toISOString(),
      utr,
      extra,
      notificationId: `N${orderCode}`,
      sign: expect.stringMatching(/^[0-9A-F]{64}$/),
    });
    expect(signatureMatches(got!.params, DEMO_MERCHANT_API.secret, 'HMAC-SHA256')).toBe(true);
    expect(signatureMatches({ ...got!.params, amount: '1' }, DEMO_MERCHANT_API.secret, 'HMAC-SHA256')).toBe(false);
    expect(signatureMatches(got!.params, 'another-secret', 'HMAC-SHA256')).toBe(false);
  });

  it('an order paid for a merchant without a notify URL is paid (9) at once, with no callback; notified by hand later it moves to 3', async () => {
    // The demo merchant has no default notify URL, and this order names none.
    const orderCode = await createOrder(t, '', { notifyUrl: undefined });
    const res = await t.call(orderApi.confirmOrder, { orderCode }, auth('admin'));
    expect(res.body.data?.state, JSON.stringify(res.body)).toBe(ORDER_STATE.paid);
    expect(await callbacksOf(t, orderCode)).toEqual([]);
    const order = await orderOf(t, orderCode);
    expect(order.state).toBe(ORDER_STATE.paid);
    const events = await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id));
    expect(events.map((e) => [e.kind, e.fromState, e.toState])).toContainEqual([
      'callbackSkipped',
      ORDER_STATE.paidNotifying,
      ORDER_STATE.paid,
    ]);
    // Still a paid order: a manual callback is refused while there is no address, and once the
    // merchant has one it is delivered and the order shows callback succeeded.
    const refusedNow = await t.call(orderApi.callback, { orderCode }, auth('admin'));
    expect(refusedNow.body.data?.reason, JSON.stringify(refusedNow.body)).toBe('callbacksOff');
    const url = merchant.script('/n/later', ['success']);
    await t.database.db.update(merchants).set({ notifyUrl: url }).where(eq(merchants.id, order.merchantId));
    try {
      const again = await t.call(orderApi.callback, { orderCode }, auth('admin'));
      expect(again.body.code, JSON.stringify(again.body)).toBe(200);
      const [delivered] = await settled(t, orderCode);
      expect(delivered).toMatchObject({ trigger: 'manual', state: 'succeeded', url });
      expect((await orderOf(t, orderCode)).state).toBe(ORDER_STATE.callbackSucceeded);
      // The notification carries the state it was sent in, as a first delivery carries 6.
      expect(merchant.to('/n/later')[0]!.params.state).toBe(String(ORDER_STATE.paid));
    } finally {
      await t.database.db.update(merchants).set({ notifyUrl: null }).where(eq(merchants.id, order.merchantId));
    }
  });

  it('the upgrade settles orders left paid, notifying with no callback in flight (paid before this release)', async () => {
    const url = merchant.script('/n/upgrade', ['success']);
    const withCallback = await createOrder(t, url);
    await pay(withCallback);
    await settled(t, withCallback);
    const stuckCode = await createOrder(t, '', { notifyUrl: undefined });
    await t.call(orderApi.confirmOrder, { orderCode: stuckCode }, auth('admin'));
    // As an earlier release left it: 'paid, notifying' with nothing to deliver.
    await t.database.db.update(orders).set({ state: ORDER_STATE.paidNotifying }).where(eq(orders.orderCode, stuckCode));
    const migration = readFileSync(
      new URL('../../../drizzle/0012_paid_without_callback.sql', import.meta.url),
      'utf8',
    ).split('--> statement-breakpoint');
    await t.database.db.execute(sql.raw(migration[migration.length - 1]!));
    const stuck = await orderOf(t, stuckCode);
    expect(stuck.state).toBe(ORDER_STATE.paid);
    const events = await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, stuck.id));
    expect(events.filter((e) => e.kind === 'callbackSkipped' && e.toState === ORDER_STATE.paid)).toHaveLength(2);
    expect((await orderOf(t, withCallback)).state).toBe(ORDER_STATE.callbackSucceeded);
  });

  it('when the window is over the callback fails and the order goes to 4; a manual trigger that succeeds moves it to 3', async () => {
    // One hour: the attempts at 0..80 ms are inside it, the one at 2 h is not.
    await t.setSetting('TimeoutCallbackTime', 1);
    try {
      const url = merchant.script('/n/window', [
        { status: 503, body: 'busy' },
        { status: 503, body: 'busy' },
        { status: 503, body: 'busy' },
        { status: 503, body: 'busy' },
        { status: 503, body: 'busy' },
        'success',
      ]);
      const orderCode = await createOrder(t, url);
      await pay(orderCode);
      const [failed] = await settled(t, orderCode);
      expect(failed).toMatchObject({ state: 'failed', attempts: 5, nextAttemptAt: null });
      expect((await orderOf(t, orderCode)).state).toBe(ORDER_STATE.callbackFailed);

      const res = await t.call(orderApi.callback, { orderCode }, auth('admin'));
      expect(res.body.code, JSON.stringify(res.body)).toBe(200);
      const rows = await waitFor(
        'the manual callback',
        () => callbacksOf(t, orderCode),
        (r) => r.length === 2 && r[1]!.state !== 'pending',
      );
      expect(rows[1]).toMatchObject({ trigger: 'manual', state: 'succeeded', attempts: 1 });
      expect((await orderOf(t, orderCode)).state).toBe(ORDER_STATE.callbackSucceeded);
      const order = await orderOf(t, orderCode);
      const kinds = (await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id))).map(
        (e) => [e.kind, e.fromState, e.toState],
      );
      expect(kinds).toContainEqual(['callbackFailed', ORDER_STATE.paidNotifying, ORDER_STATE.callbackFailed]);
      expect(kinds).toContainEqual(['callbackSucceeded', ORDER_STATE.callbackFailed, ORDER_STATE.callbackSucceeded]);
    } finally {
      await t.setSetting('TimeoutCallbackTime', undefined);
    }
  });

  it('a manual callback delivered while the automatic one is in flight settles both: the other is cancelled, not sent again', async () => {
    const path = '/n/manual-overtakes';
    const url = merchant.script(path, ['hang', 'success']);
    const orderCode = await createOrder(t, url);
    await pay(orderCode);
    await waitFor(
      'the automatic attempt',
      async () => merchant.to(path).length,
      (n) => n === 1,
    );

    const res = await t.call(orderApi.callback, { orderCode }, auth('admin'));
    expect(res.body.code, JSON.stringify(res.body)).toBe(200);
    const rows = await waitFor(
      'both callbacks settled',
      () => callbacksOf(t, orderCode),
      (r) => r.length === 2 && r.every((c) => c.state !== 'pending'),
    );
    expect(rows.map((r) => [r.trigger, r.state])).toEqual([
      ['auto', 'cancelled'],
      ['manual', 'succeeded'],
    ]);
    expect((await orderOf(t, orderCode)).state).toBe(ORDER_STATE.callbackSucceeded);
    // The hung attempt ends (the client gives up) and is on record; nothing is sent after it.
    await waitFor(
      'the hung attempt on record',
      () => attemptsOf(t, rows[0]!.id),
      (a) => a.length === 1,
    );
    await sleep(200);
    expect(merchant.to(path)).toHaveLength(2);
    const order = await orderOf(t, orderCode);
    const succeeded = (await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id))).filter(
      (e) => e.kind === 'callbackSucceeded',
    );
    expect(succeeded).toHaveLength(1);
  });

  it('a reversal while an attempt is in flight stops the callback: nothing more is sent, the order stays reversed', async () => {
    const path = '/n/reversed-in-flight';
    const url = merchant.script(path, ['hang', 'success']);
    const orderCode = await createOrder(t, url);
    await pay(orderCode);
    await waitFor(
      'the first attempt to reach the merchant',
      async () => merchant.to(path).length,
      (n) => n === 1,
    );
    const res = await t.call(orderApi.reverseOrder, { orderCode }, auth('superadmin'));
    expect(res.body.data?.state, JSON.stringify(res.body)).toBe(ORDER_STATE.reversed);
    const [callback] = await waitFor(
      'the in-flight attempt to be recorded',
      () => callbacksOf(t, orderCode),
      (rows) => rows[0]!.state === 'cancelled',
    );
    await waitFor(
      'the attempt row',
      () => attemptsOf(t, callback!.id),
      (a) => a.length === 1,
    );
    // Several polls later: still one request, and the order is still reversed.
    await sleep(1500);
    expect(merchant.to(path)).toHaveLength(1);
    expect(await attemptsOf(t, callback!.id)).toHaveLength(1);
    expect((await orderOf(t, orderCode)).state).toBe(ORDER_STATE.reversed);
  });

  it('callbacks recorded while jobs were off are sent when they start; a reversed order’s pending callback never is', async () => {
    const kept = merchant.script('/n/while-off', ['success']);
    const dropped = merchant.script('/n/while-off-reversed', ['success']);
    let a = '';
    await t.app.services.jobs.stop();
    try {
      a = await createOrder(t, kept);
      const b = await createOrder(t, dropped);
      await pay(a);
      await pay(b);
      expect((await callbacksOf(t, a))[0]!.state).toBe('pending');
      expect((await t.call(orderApi.reverseOrder, { orderCode: b }, auth('superadmin'))).body.data.state).toBe(
        ORDER_STATE.reversed,
      );
      expect((await callbacksOf(t, b))[0]!.state).toBe('cancelled');
      await sleep(300);
      expect(merchant.to('/n/while-off')).toHaveLength(0);
    } finally {
      await t.app.services.jobs.start();
    }
    expect((await settled(t, a))[0]!.state).toBe('succeeded');
    expect(merchant.to('/n/while-off')).toHaveLength(1);
    await sleep(1200);
    expect(merchant.to('/n/while-off-reversed')).toHaveLength(0);
  });
});

describe('callback info and detail, replay, delete, send test', () => {
  let orderCode = '';
  let callbackId = 0;

  beforeAll(async () => {
    const url = merchant.script('/n/pages', [{ status: 500, body: 'down' }, 'success']);
    orderCode = await createOrder(t, url);
    await pay(orderCode);
    callbackId = (await settled(t, orderCode))[0]!.id;
  });

  it('getList shows one row per callback with its attempts and last status; getDetailList the attempts', async () => {
    const list = await t.call(api.getList, { pageIndex: 1, pageNum: 10, orderCode }, auth('service'));
    expect(list.body.code).toBe(200);
    expect(list.body.data.total).toBe(1);
    expect(list.body.data.list[0]).toMatchObject({
      id: callbackId,
      orderCode,
      state: 'succeeded',
      trigger: 'auto',
      attempts: 2,
      lastStatus: 200,
      lastError: null,
      orderState: ORDER_STATE.callbackSucceeded,
      merchantNo: DEMO_MERCHANT_API.mchId,
    });
    const order = await orderOf(t, orderCode);
    const byMerchantNo = await t.call(
      api.getList,
      { pageIndex: 1, merchantOrderNo: order.merchantOrderNo },
      auth('admin'),
    );
    expect(byMerchantNo.body.data.list.map((r: { id: number }) => r.id)).toEqual([callbackId]);

    const detail = await t.call(api.getDetailList, { pageIndex: 1, orderCode }, auth('service'));
    expect(detail.body.data.total).toBe(2);
    expect(
      detail.body.data.list.map((r: { attemptNo: number; responseStatus: number }) => [r.attemptNo, r.responseStatus]),
    ).toEqual([
      [2, 200],
      [1, 500],
    ]);
    const first = await t.call(
      api.getDetailList,
      { pageIndex: 1, merchantOrderCode: order.merchantOrderNo, times: 1, httpMethod: 'post', systemFlag: 'PayDesk' },
      auth('admin'),
    );
    expect(first.body.data.list).toHaveLength(1);
    expect(first.body.data.list[0]).toMatchObject({
      attemptNo: 1,
      succeeded: false,
      error: 'HTTP 500',
      responseBody: 'down',
    });
    expect(first.body.data.list[0].requestBody).toContain(`orderCode=${orderCode}`);
  });

  it('exports both lists as CSV with the same filters', async () => {
    const callbacksCsv = await downloadCsv(t, api.exportList, { orderCode }, auth('admin'));
    expect(callbacksCsv.status).toBe(200);
    expect(callbacksCsv.header).toContain('orderCode');
    expect(callbacksCsv.rows).toHaveLength(1);
    const attemptsCsv = await downloadCsv(t, api.exportDetailList, { orderCode }, auth('service'));
    // One record per attempt (a record's text may span lines: the answer ' success\n' ends in a newline).
    expect(attemptsCsv.rows.filter((line) => /^\d+,\d+,/.test(line))).toHaveLength(2);
    expect(attemptsCsv.header.split(',')).toContain('requestBody');
  });

  it('replay makes a new delivery of the order now and records it; it is audited and shows in the timeline', async () => {
    const before = merchant.to('/n/pages').length;
    const res = await t.call(api.replay, { id: callbackId }, auth('admin'));
    expect(res.body.code, JSON.stringify(res.body)).toBe(200);
    const replayId = res.body.data.callbackId as number;
    expect(replayId).not.toBe(callbackId);
    const rows = await waitFor(
      'the replay',
      () => callbacksOf(t, orderCode),
      (r) => r.length === 2 && r[1]!.state === 'succeeded',
    );
    expect(rows[1]).toMatchObject({ id: replayId, trigger: 'replay', attempts: 1 });
    expect(merchant.to('/n/pages')).toHaveLength(before + 1);
    expect((await orderOf(t, orderCode)).state).toBe(ORDER_STATE.callbackSucceeded);
    const [audit] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'callbacks.replay'));
    expect(audit).toMatchObject({ account: 'admin', target: `order:${orderCode}` });
    const order = await orderOf(t, orderCode);
    const [event] = await t.database.db
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.kind, 'callbackReplayed')));
    expect(event?.actorAccount).toBe('admin');
  });

  it('replay of a reversed order’s callback is refused', async () => {
    const url = merchant.script('/n/replay-reversed', ['success']);
    const code = await createOrder(t, url);
    await pay(code);
    const [cb] = await settled(t, code);
    await t.call(orderApi.reverseOrder, { orderCode: code }, auth('superadmin'));
    const res = await t.call(api.replay, { id: cb!.id }, auth('admin'));
    expect(res.body.code).toBe(Code.businessRule);
    expect(res.body.data.reason).toBe('notReplayable');
  });

  it('offers on each row exactly what the server accepts (the contract’s rule): replay, delete', async () => {
    // A pending callback (jobs off), a settled one, a reversed order's and a locked order's.
    await t.app.services.jobs.stop();
    const codes: string[] = [];
    try {
      for (const name of ['pending', 'settled', 'reversed', 'locked']) {
        const code = await createOrder(t, merchant.script(`/n/offered-${name}`, ['success']));
        await pay(code);
        codes.push(code);
      }
    } finally {
      await t.app.services.jobs.start();
    }
    for (const code of codes.slice(1)) await settled(t, code);
    await t.app.services.jobs.stop();
    try {
      const pendingCode = await createOrder(t, merchant.script('/n/offered-pending2', ['success']));
      await pay(pendingCode);
      codes[0] = pendingCode;
      await t.call(orderApi.reverseOrder, { orderCode: codes[2]! }, auth('superadmin'));
      await t.database.db.update(orders).set({ locked: true }).where(eq(orders.orderCode, codes[3]!));
      const offered: string[] = [];
      for (const orderCode of codes) {
        const [row] = (await t.call(api.getList, { pageIndex: 1, orderCode }, auth('admin'))).body.data.list.filter(
          (r: CallbackRow) => r.state === 'pending' || r.trigger === 'auto',
        ) as CallbackRow[];
        expect(row, orderCode).toBeDefined();
        for (const action of ['replay', 'delete'] as const) {
          const allowed = callbackActionRefusal(action, row!) === null;
          if (allowed) offered.push(`${orderCode.slice(-2)}:${action}`);
          const before = await snapshot(t.database);
          const res =
            action === 'replay'
              ? await t.call(api.replay, { id: row!.id }, auth('admin'))
              : await t.call(api.delete, { ids: [row!.id] }, auth('admin'));
          expect(res.body.code, `${action} on ${orderCode}: ${JSON.stringify(res.body)}`).toBe(
            allowed ? Code.success : Code.businessRule,
          );
          if (!allowed) expect(await snapshot(t.database), `${action} on ${orderCode} changed something`).toBe(before);
        }
      }
      // Each rule is both offered and withheld somewhere: the walk covers all of it.
      expect(offered.filter((o) => o.endsWith('replay')).length).toBe(2);
      expect(offered.filter((o) => o.endsWith('delete')).length).toBe(3);
    } finally {
      await t.app.services.jobs.start();
      await t.database.db.update(orders).set({ locked: false }).where(eq(orders.orderCode, codes[3]!));
    }
  });

  it('delete hides settled callbacks and their attempts, refuses pending ones, and is audited', async () => {
    // With jobs off the callback of a new payment stays pending: deleting it is refused.
    await t.app.services.jobs.stop();
    let pendingCode = '';
    try {
      pendingCode = await createOrder(t, merchant.script('/n/pending', ['success']));
      await pay(pendingCode);
      const [pending] = await callbacksOf(t, pendingCode);
      expect(pending!.state).toBe('pending');
      const refusedRes = await t.call(api.delete, { ids: [pending!.id] }, auth('admin'));
      expect(refusedRes.body.code).toBe(Code.businessRule);
      expect(refusedRes.body.data.reason).toBe('callbackPending');
      expect((await callbacksOf(t, pendingCode))[0]!.deletedAt).toBeNull();
    } finally {
      await t.app.services.jobs.start();
    }
    await settled(t, pendingCode);

    const rows = await callbacksOf(t, orderCode);
    const ids = rows.map((r) => r.id);
    const published = vi.spyOn(t.app.services.realtime, 'publish');
    const res = await t.call(api.delete, { ids }, auth('admin'));
    expect(res.body.data).toEqual({ count: ids.length });
    // The callback pages hear it at once (they refetch on the 'callbacks' topic).
    expect(published.mock.calls.filter(([topic]) => topic === 'callbacks').map(([, data]) => data)).toEqual(
      rows.map((r) => ({ callbackId: r.id, orderCode: r.orderCode })),
    );
    published.mockRestore();
    expect((await t.call(api.getList, { pageIndex: 1, orderCode }, auth('admin'))).body.data.total).toBe(0);
    expect((await t.call(api.getDetailList, { pageIndex: 1, orderCode }, auth('admin'))).body.data.total).toBe(0);
    // Kept in the database, marked deleted.
    expect((await callbacksOf(t, orderCode)).every((r) => r.deletedAt !== null)).toBe(true);
    const [audit] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'callbacks.delete'));
    expect(audit?.account).toBe('admin');
    const again = await t.call(api.delete, { ids }, auth('admin'));
    expect(again.body.code).toBe(Code.notFound);
  });

  it('send test posts a signed callback now and answers the exchange', async () => {
    const url = merchant.script('/n/test-ok', ['success']);
    const paidCode = await createOrder(t, merchant.script('/n/test-order', ['success']));
    await pay(paidCode);
    await settled(t, paidCode);
    const res = await t.call(api.sendTest, { url, orderCode: paidCode }, auth('admin'));
    expect(res.body.code, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      url,
      httpMethod: 'POST',
      responseStatus: 200,
      responseBody: ' success\n',
      error: null,
      succeeded: true,
      signedWith: `merchant ${DEMO_MERCHANT_API.mchId} (HMAC-SHA256)`,
    });
    const sent = Object.fromEntries(new URLSearchParams(res.body.data.requestBody as string));
    expect(sent.orderCode).toBe(paidCode);
    expect(signatureMatches(sent, DEMO_MERCHANT_API.secret, 'HMAC-SHA256')).toBe(true);
    expect(merchant.to('/n/test-ok')[0]!.params).toEqual(sent);
    const [audit] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'callbacks.sendTest'));
    expect(audit).toMatchObject({ account: 'admin', target: url });

    // A merchant's sample: signed with its key.
    const sample = await t.call(api.sendTest, { url, mchId: DEMO_MERCHANT_API.mchId }, auth('superadmin'));
    const sampleSent = Object.fromEntries(new URLSearchParams(sample.body.data.requestBody as string));
    expect(sampleSent.mchId).toBe(DEMO_MERCHANT_API.mchId);
    expect(signatureMatches(sampleSent, DEMO_MERCHANT_API.secret, 'HMAC-SHA256')).toBe(true);

    // A failing address: the answer, truncated to 2 KiB, and why it does not count.
    const big = merchant.script('/n/test-big', [{ status: 500, body: 'x'.repeat(5000) }]);
    const failed = await t.call(api.sendTest, { url: big }, auth('admin'));
    expect(failed.body.data).toMatchObject({ responseStatus: 500, succeeded: false, error: 'HTTP 500' });
    expect(failed.body.data.responseBody).toHaveLength(2048);
    expect(failed.body.data.signedWith).toContain('test');

    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const closed = await t.call(api.sendTest, { url: `http://127.0.0.1:${closedPort}/notify` }, auth('admin'));
    expect(closed.body.data.responseStatus).toBeNull();
    expect(closed.body.data.error).toMatch(/ECONNREFUSED/);

    for (const bad of ['ftp://127.0.0.1/x', 'javascript:alert(1)', 'not a url']) {
      const res400 = await t.call(api.sendTest, { url: bad }, auth('admin'));
      expect(res400.status, bad).toBe(400);
    }
    expect((await t.call(api.sendTest, { url, orderCode: 'C00000000000000000000' }, auth('admin'))).body.code).toBe(
      Code.notFound,
    );
    expect((await t.call(api.sendTest, { url }, auth('service'))).status).toBe(403);
  });
});

describe('the timeouts job', () => {
  it('times out an allocated order once OrderTimeoutMinutes passed, without anyone calling it', async () => {
    const orderCode = await createOrder(t, merchant.script('/n/never-paid', ['success']));
    expect((await orderOf(t, orderCode)).state).toBe(ORDER_STATE.allocated);
    t.clock.advance(16 * 60_000);
    const order = await waitFor(
      'the maintenance job',
      () => orderOf(t, orderCode),
      (o) => o.state === ORDER_STATE.timedOut,
    );
    expect(order.holdOpen).toBe(false);
  });
});

// ---- a restart: the job queue lives in the database ----

describe('a restart', () => {
  it('a failure recorded by one server is delivered by the next one on the same database, once', {
    timeout: 90_000,
  }, async () => {
    let at: TestDatabaseAt;
    let cleanup: () => Promise<void>;
    if (process.env.TEST_DB === 'postgres') {
      const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
      at = { url: scratch.url };
      cleanup = scratch.drop;
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'paydesk-callbacks-'));
      at = { dataDir: dir };
      cleanup = async () => rmSync(dir, { recursive: true, force: true });
    }
    const path = '/n/restart';
    const url = merchant.script(path, [{ status: 502, body: 'restarting' }, 'success']);
    // The second attempt is due 1.5 s after the first: server A is gone by then.
    const tuning = { callbackScheduleMs: [0, 1500], callbackTimeoutMs: 1000 };
    try {
      const a = await startTestApp({ at, jobs: tuning });
      let orderCode = '';
      let callbackId = 0;
      try {
        const admin = await a.login('admin');
        orderCode = await createOrder(a, url);
        expect((await a.call(orderApi.confirmOrder, { orderCode }, admin)).body.code).toBe(200);
        const [cb] = await waitFor(
          'the first attempt',
          () => callbacksOf(a, orderCode),
          (r) => r[0]?.attempts === 1,
        );
        callbackId = cb!.id;
        expect(cb!.state).toBe('pending');
      } finally {
        await a.close();
      }
      expect(merchant.to(path)).toHaveLength(1);

      const b = await startTestApp({ at, jobs: tuning });
      try {
        const [cb] = await waitFor(
          'server B to deliver',
          () => callbacksOf(b, orderCode),
          (r) => r[0]?.state !== 'pending',
        );
        expect(cb).toMatchObject({ id: callbackId, state: 'succeeded', attempts: 2 });
        expect((await orderOf(b, orderCode)).state).toBe(ORDER_STATE.callbackSucceeded);
        expect((await attemptsOf(b, callbackId)).map((x) => [x.attemptNo, x.succeeded])).toEqual([
          [1, false],
          [2, true],
        ]);
        await sleep(1000);
        expect(merchant.to(path).map((r) => r.answered)).toEqual([502, 'success']);
      } finally {
        await b.close();
      }
    } finally {
      await cleanup();
    }
  });
});
