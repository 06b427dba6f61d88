import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endpoints, ORDER_STATE } from '@paydesk/contract';
import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../../db/client.js';
import { orderCallbackAttempts, orderCallbacks, orders } from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, startTestApp, type TestApp, type TestDatabaseAt } from '../../testing/harness.js';
import { sleep, waitFor } from '../../testing/wait.js';
import { signParams } from '../orders/signature.js';
import { CallbackDispatcher } from './dispatcher.js';

const { orders: orderApi } = endpoints;

/**
 * A merchant's receiver: counts the requests of each notification, how many of one order are in flight
 * at once, and answers as the test says (`hold` keeps a request unanswered until `releaseHeld`).
 */
class Receiver {
  readonly requests: Array<{ path: string; notificationId: string; orderCode: string }> = [];
  readonly maxInFlightPerOrder = new Map<string, number>();
  private readonly inFlight = new Map<string, number>();
  private readonly held: ServerResponse[] = [];
  /** What a path answers: its n-th request gets answers[n] (the last repeats); 'success' by default. */
  private readonly scripts = new Map<string, Array<'success' | 'fail' | 'hold'>>();
  private readonly served = new Map<string, number>();
  /** How long each answer takes: requests overlap when they can. */
  delayMs = 0;
  private server!: Server;
  base = '';

  async start() {
    this.server = createServer((req, res) => void this.answer(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  script(path: string, answers: Array<'success' | 'fail' | 'hold'>) {
    this.scripts.set(path, answers);
    return `${this.base}${path}`;
  }

  private async answer(req: IncomingMessage, res: ServerResponse) {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const params = new URLSearchParams(raw);
    const path = (req.url ?? '').split('?')[0]!;
    const orderCode = params.get('orderCode') ?? '';
    this.requests.push({ path, notificationId: params.get('notificationId') ?? '', orderCode });
    const n = this.served.get(path) ?? 0;
    this.served.set(path, n + 1);
    const script = this.scripts.get(path) ?? ['success'];
    const answer = script[Math.min(n, script.length - 1)]!;
    const now = (this.inFlight.get(orderCode) ?? 0) + 1;
    this.inFlight.set(orderCode, now);
    this.maxInFlightPerOrder.set(orderCode, Math.max(now, this.maxInFlightPerOrder.get(orderCode) ?? 0));
    const done = () => this.inFlight.set(orderCode, (this.inFlight.get(orderCode) ?? 1) - 1);
    res.on('close', done);
    if (answer === 'hold') {
      this.held.push(res);
      return;
    }
    if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
    res.writeHead(answer === 'success' ? 200 : 500, { 'content-type': 'text/plain' });
    res.end(answer === 'success' ? 'SUCCESS' : 'busy');
  }

  to(path: string) {
    return this.requests.filter((r) => r.path === path);
  }

  async stop() {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

let amountSeq = 0;
async function createOrder(t: TestApp, notifyUrl: string) {
  amountSeq += 1;
  const params: Record<string, unknown> = {
    mchId: DEMO_MERCHANT_API.mchId,
    productId: '1001',
    mchOrderNo: `OB${Date.now()}${amountSeq}`,
    amount: String(40_000 + amountSeq * 100 + 7),
    notifyUrl,
  };
  const res = await t.call(orderApi.create, {
    ...params,
    sign: signParams(params, DEMO_MERCHANT_API.secret, 'HMAC-SHA256'),
  });
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data.orderCode as string;
}

async function pay(t: TestApp, admin: Auth, orderCode: string) {
  const res = await t.call(orderApi.confirmOrder, { orderCode }, admin);
  expect(res.body.data?.state, JSON.stringify(res.body)).toBe(ORDER_STATE.paidNotifying);
}

const callbacksOf = (t: TestApp, orderCode: string) =>
  t.database.db
    .select()
    .from(orderCallbacks)
    .where(eq(orderCallbacks.orderCode, orderCode))
    .orderBy(asc(orderCallbacks.id));
const attemptsOf = (t: TestApp, callbackIds: number[]) =>
  t.database.db
    .select()
    .from(orderCallbackAttempts)
    .where(inArray(orderCallbackAttempts.callbackId, callbackIds))
    .orderBy(asc(orderCallbackAttempts.id));

/** A database the test opens twice (a restart): a PGlite folder, or a scratch PostgreSQL database. */
async function reopenableDatabase(): Promise<{ at: TestDatabaseAt; cleanup: () => Promise<void> }> {
  if (process.env.TEST_DB === 'postgres') {
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
    return { at: { url: scratch.url }, cleanup: scratch.drop };
  }
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-outbox-'));
  return { at: { dataDir: dir }, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
}

/** `waitFor` with this file's 20 s: its outbox runs two dispatchers and restarts on a busy machine. */
const waitUpTo20s = <T>(what: string, read: () => Promise<T>, done: (value: T) => boolean) =>
  waitFor(what, read, done, 20_000);

const receiver = new Receiver();
let t: TestApp;
let admin: Auth;

beforeAll(async () => {
  await receiver.start();
  t = await startTestApp({ jobs: { callbackScheduleMs: [0, 40, 80, 120, 7_200_000], callbackTimeoutMs: 10_000 } });
  admin = await t.loginWithToken2('admin');
});
afterAll(async () => {
  await t?.close();
  await receiver.stop();
});

describe('the outbox', () => {
  it('a notification written in a transaction that rolls back is never delivered; one that commits is, at once', async () => {
    const path = '/rolled-back';
    const orderCode = await createOrder(t, receiver.script(path, ['success']));
    await pay(t, admin, orderCode);
    await waitUpTo20s(
      'the payment’s callback',
      () => callbacksOf(t, orderCode),
      (rows) => rows[0]?.state === 'succeeded',
    );
    const [order] = await t.database.db.select().from(orders).where(eq(orders.orderCode, orderCode));
    const { callbacks } = t.app.services;
    await expect(
      t.database.db.transaction(async (tx) => {
        await callbacks.schedule(tx, order!, 'manual');
        throw new Error('the change failed after its notification was written');
      }),
    ).rejects.toThrow('the change failed');
    // Poked as after a commit, and several polls later: nothing was sent, nothing is pending.
    callbacks.committed(order!);
    await sleep(1_500);
    expect(receiver.to(path)).toHaveLength(1);
    expect((await callbacksOf(t, orderCode)).map((c) => c.trigger)).toEqual(['auto']);

    // The same notification in a transaction that commits is delivered.
    await t.database.db.transaction((tx) => callbacks.schedule(tx, order!, 'manual'));
    callbacks.committed(order!);
    await waitUpTo20s(
      'the committed notification',
      async () => receiver.to(path).length,
      (n) => n === 2,
    );
  });

  it('two dispatchers never make the same attempt twice, and never two deliveries of one order at once', {
    timeout: 60_000,
  }, async () => {
    const { jobs, callbacks } = t.app.services;
    await jobs.stop();
    const codes: string[] = [];
    try {
      // Each order: an automatic and a manual callback, both due; its first request fails, its second succeeds.
      for (let i = 0; i < 10; i += 1) {
        const code = await createOrder(t, receiver.script(`/two/${i}`, ['fail', 'success']));
        await pay(t, admin, code);
        expect((await t.call(orderApi.callback, { orderCode: code }, admin)).body.code).toBe(200);
        codes.push(code);
      }
    } finally {
      receiver.delayMs = 30;
    }
    const tuning = { pollMs: 100, concurrency: 4, batchSize: 3, leaseMs: 30_000, stopGraceMs: 1_000 };
    const a = new CallbackDispatcher(callbacks, tuning);
    const b = new CallbackDispatcher(callbacks, tuning);
    try {
      a.start();
      b.start();
      for (const code of codes) {
        await waitUpTo20s(
          `the callbacks of ${code}`,
          () => callbacksOf(t, code),
          (rows) => rows.every((r) => r.state !== 'pending'),
        );
      }
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      receiver.delayMs = 0;
      await jobs.start();
    }
    for (const [i, code] of codes.entries()) {
      const rows = await callbacksOf(t, code);
      const attempts = await attemptsOf(
        t,
        rows.map((r) => r.id),
      );
      // One failed request, one delivered; the other callback cancelled by the delivery.
      expect(receiver.to(`/two/${i}`).map((r) => r.notificationId)).toEqual([`N${code}`, `N${code}`]);
      expect(attempts.map((x) => x.succeeded)).toEqual([false, true]);
      // Every attempt of a callback once: no attempt number twice.
      const keys = attempts.map((x) => `${x.callbackId}:${x.attemptNo}`);
      expect(new Set(keys).size).toBe(keys.length);
      expect(rows.map((r) => r.state).sort()).toEqual(['cancelled', 'succeeded']);
      expect(receiver.maxInFlightPerOrder.get(code)).toBe(1);
      const [order] = await t.database.db.select().from(orders).where(eq(orders.orderCode, code));
      expect(order!.state).toBe(ORDER_STATE.callbackSucceeded);
    }
  });

  it('a claim left by a process that died is taken over once it lapses: the notification is delivered once', async () => {
    const { jobs, callbacks } = t.app.services;
    const path = '/lapsed';
    await jobs.stop();
    let orderCode = '';
    try {
      orderCode = await createOrder(t, receiver.script(path, ['success']));
      await pay(t, admin, orderCode);
      // A process claims the attempt, then dies before making it.
      const claimed = await callbacks.claimDue(10, 1_500, 'gone:1');
      expect(claimed.map((c) => c.callback.orderCode)).toContain(orderCode);
    } finally {
      await jobs.start();
    }
    // The claim still holds: nobody sends.
    await sleep(700);
    expect(receiver.to(path)).toHaveLength(0);
    const [delivered] = await waitUpTo20s(
      'the lapsed claim to be delivered',
      () => callbacksOf(t, orderCode),
      (rows) => rows[0]?.state === 'succeeded',
    );
    expect(delivered).toMatchObject({ attempts: 1, claimedBy: null, claimedUntil: null, dueAt: null });
    expect(receiver.to(path)).toHaveLength(1);
  });
});

describe('a restart in the middle of a batch', () => {
  it('loses no notification: the attempt cut short is given back and the next server delivers it', {
    timeout: 90_000,
  }, async () => {
    const { at, cleanup } = await reopenableDatabase();
    const path = '/restart-mid-batch';
    const url = receiver.script(path, ['hold', 'success']);
    // The exchange may take 10 s: the server stops before, cutting it short after the 2 s grace.
    const tuning = { callbackScheduleMs: [0, 7_200_000], callbackTimeoutMs: 10_000 };
    const others: string[] = [];
    try {
      const a = await startTestApp({ at, jobs: tuning });
      let orderCode = '';
      try {
        const adminA = await a.login('admin');
        orderCode = await createOrder(a, url);
        // A batch: this order's attempt is held by the merchant, others are delivered beside it.
        for (let i = 0; i < 3; i += 1) others.push(await createOrder(a, receiver.script(`/beside/${i}`, ['success'])));
        await pay(a, adminA, orderCode);
        for (const code of others) await pay(a, adminA, code);
        await waitUpTo20s(
          'the held request',
          async () => receiver.to(path).length,
          (n) => n === 1,
        );
      } finally {
        await a.close();
      }
      const b = await startTestApp({ at, jobs: tuning });
      try {
        const [cb] = await waitUpTo20s(
          'server B to deliver',
          () => callbacksOf(b, orderCode),
          (rows) => rows[0]?.state === 'succeeded',
        );
        // The cut attempt was not recorded: the delivery is attempt 1, the same notification twice.
        expect(cb).toMatchObject({ attempts: 1, claimedBy: null });
        expect(receiver.to(path).map((r) => r.notificationId)).toEqual([`N${orderCode}`, `N${orderCode}`]);
        expect((await attemptsOf(b, [cb!.id])).map((x) => [x.attemptNo, x.succeeded])).toEqual([[1, true]]);
        for (const code of others) {
          const [other] = await waitUpTo20s(
            `the callback of ${code}`,
            () => callbacksOf(b, code),
            (rows) => rows[0]?.state === 'succeeded',
          );
          expect(other!.attempts).toBe(1);
        }
        expect((await b.database.db.select().from(orders).where(eq(orders.orderCode, orderCode)))[0]!.state).toBe(
          ORDER_STATE.callbackSucceeded,
        );
      } finally {
        await b.close();
      }
    } finally {
      await cleanup();
    }
  });
});
