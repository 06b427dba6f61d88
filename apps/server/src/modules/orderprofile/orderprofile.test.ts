import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Code,
  endpoints,
  ORDER_PROFILE_TEXTS,
  ORDER_STATE,
  type OrderProfile,
  RESOURCE_STATE,
} from '@paydesk/contract';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchants, orderCallbacks, orders, partyProducts, resources } from '../../db/schema.js';
import { formatPlatformTime } from '../../platform/time.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, downloadCsv, startTestApp, type TestApp } from '../../testing/harness.js';
import { signParams } from '../orders/signature.js';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * Orders with known timings, made through the real merchant API and order actions while the test
 * clock moves: a create that finds no account and a reselect `allocateMs` later set the time to
 * allocate, a confirmation after `payMs` the payment, a delivery attempt after the callback delay its first success. The analysis must
 * find exactly these counts and percentile_cont's percentiles.
 */
const { orders: orderApi, orderProfile: api } = endpoints;
let t: TestApp;
let superadmin: Auth;
let admin: Auth;
let merchant1: Auth;
let merchantId = 0;
let receiver: Server;
let base = '';
/** Paths whose first answer is an HTTP 500 (later ones SUCCESS); every other path answers SUCCESS. */
const failFirst = new Set<string>();
const served = new Map<string, number>();

const zone = () => t.config.timeZone;
const fmt = (at: Date) => formatPlatformTime(at, zone());
const hourOf = (at: Date) => dayjs(at).tz(zone()).hour();

/** Moves the test clock to one minute past the next hour of the platform time zone. */
function toNextHour() {
  const now = dayjs(t.clock.now()).tz(zone());
  const next = now.startOf('hour').add(1, 'hour').add(1, 'minute');
  t.clock.advance(next.valueOf() - now.valueOf());
}

beforeAll(async () => {
  receiver = createServer(async (req, res) => {
    for await (const _ of req) {
      // the body is not needed
    }
    const path = (req.url ?? '').split('?')[0]!;
    const n = served.get(path) ?? 0;
    served.set(path, n + 1);
    if (failFirst.has(path) && n === 0) res.writeHead(500).end('busy');
    else res.writeHead(200, { 'content-type': 'text/plain' }).end('SUCCESS');
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  t = await startTestApp();
  superadmin = await t.login('superadmin');
  admin = await t.login('admin');
  merchant1 = await t.login('merchant1');
  const [m] = await t.database.db.select().from(merchants).where(eq(merchants.merchantNo, DEMO_MERCHANT_API.mchId));
  merchantId = m!.id;
  // Product 1045 for merchant1: the demo has no receiving account for it, so its orders fail allocation.
  await t.database.db
    .insert(partyProducts)
    .values({ userId: m!.userId, productId: 1045, enabled: true, feeRate: 100, updatedAt: new Date() });
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

let seq = 0;
async function create(productId: '1001' | '1045', notifyPath: string): Promise<{ code: number; orderCode: string }> {
  seq += 1;
  const params: Record<string, unknown> = {
    mchId: DEMO_MERCHANT_API.mchId,
    productId,
    mchOrderNo: `PROFILE${seq}`,
    amount: productId === '1045' ? String(1_500_000 + seq * 10_000) : String(31_000 + seq * 100 + 7),
    notifyUrl: `${base}${notifyPath}`,
  };
  const res = await t.call(orderApi.create, {
    ...params,
    sign: signParams(params, DEMO_MERCHANT_API.secret, 'HMAC-SHA256'),
  });
  return { code: res.body.code, orderCode: res.body.data?.orderCode };
}

const orderRow = async (orderCode: string) =>
  (await t.database.db.select().from(orders).where(eq(orders.orderCode, orderCode)))[0]!;

async function deliver(orderCode: string, attemptNo: number) {
  const order = await orderRow(orderCode);
  const [callback] = await t.database.db
    .select()
    .from(orderCallbacks)
    .where(eq(orderCallbacks.orderId, order.id))
    .orderBy(asc(orderCallbacks.id));
  return t.app.services.callbacks.deliver({ callbackId: callback!.id, attemptNo });
}

/** Disables product 1001's enabled receiving accounts (so a create fails allocation); answers their ids. */
async function disableUpiAccounts(): Promise<number[]> {
  const rows = await t.database.db
    .update(resources)
    .set({ state: RESOURCE_STATE.disabled })
    .where(and(eq(resources.productId, 1001), eq(resources.state, RESOURCE_STATE.enabled)))
    .returning({ id: resources.id });
  return rows.map((r) => r.id);
}

const enableAccounts = (ids: number[]) =>
  t.database.db.update(resources).set({ state: RESOURCE_STATE.enabled }).where(inArray(resources.id, ids));

/**
 * One collection order of product 1001, first allocated `allocateMs` after creation (0: at creation;
 * else its create finds no account and a reselect allocates it that much later), allocated again by
 * a reselect `reselectMs` later (the first allocation's time stays the order's time to allocate; its
 * payment time runs from the latest), confirmed `payMs` later (null: left unpaid), then callback
 * attempts, each `ms` after the previous step (`ok` false: the merchant answers 500).
 */
async function order(spec: {
  allocateMs: number;
  reselectMs?: number;
  payMs: number | null;
  attempts?: Array<{ ms: number; ok: boolean }>;
}): Promise<string> {
  const path = `/n/${seq + 1}`;
  const attempts = spec.attempts ?? [];
  if (attempts[0] && !attempts[0].ok) failFirst.add(path);
  const reselect = async () => {
    const res = await t.call(orderApi.reselect, { orderCode }, admin);
    expect(res.body.data?.state, JSON.stringify(res.body)).toBe(ORDER_STATE.allocated);
  };
  const disabled = spec.allocateMs > 0 ? await disableUpiAccounts() : [];
  const { code, orderCode } = await create('1001', path);
  const created = await orderRow(orderCode);
  if (spec.allocateMs > 0) {
    await enableAccounts(disabled);
    expect(code).toBe(Code.allocationFailed);
    t.clock.advance(spec.allocateMs);
    await reselect();
  } else {
    expect(code).toBe(200);
  }
  if (spec.reselectMs) {
    t.clock.advance(spec.reselectMs);
    await reselect();
  }
  const allocated = await orderRow(orderCode);
  expect(allocated.allocatedAt!.getTime() - created.createdAt.getTime()).toBe(spec.allocateMs + (spec.reselectMs ?? 0));
  if (spec.payMs === null) return orderCode;
  t.clock.advance(spec.payMs);
  const paid = await t.call(orderApi.confirmOrder, { orderCode }, admin);
  expect(paid.body.data?.state, JSON.stringify(paid.body)).toBe(ORDER_STATE.paidNotifying);
  for (const [i, attempt] of attempts.entries()) {
    t.clock.advance(attempt.ms);
    expect(await deliver(orderCode, i + 1)).toBe(attempt.ok ? 'succeeded' : 'retrying');
  }
  return orderCode;
}

const get = (input: Record<string, unknown>, auth: Auth = superadmin) => t.call(api.getProfile, input, auth);
async function profileOf(input: Record<string, unknown>): Promise<OrderProfile> {
  const res = await get(input);
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data as OrderProfile;
}

const none = { allocationFailed: 0, timedOut: 0 };
const latencies = (allocate: number[], pay: number[], callback: number[]) => ({
  allocateP50Ms: allocate[0] ?? null,
  allocateP90Ms: allocate[1] ?? null,
  allocateP99Ms: allocate[2] ?? null,
  payP50Ms: pay[0] ?? null,
  payP90Ms: pay[1] ?? null,
  payP99Ms: pay[2] ?? null,
  callbackP50Ms: callback[0] ?? null,
  callbackP90Ms: callback[1] ?? null,
  callbackP99Ms: callback[2] ?? null,
});

describe('order profile of orders with known timings', () => {
  let start: Date;
  let firstHour: number;
  let secondHourStart: Date;
  let end: Date;

  beforeAll(async () => {
    toNextHour();
    start = new Date(Math.floor(t.clock.now().getTime() / 1000) * 1000);
    firstHour = hourOf(start);
    // First hour, product 1001: allocation 0, 2, 4, 6, 8 s (and 0 for the timed-out and the last one) ...
    await order({ allocateMs: 0, payMs: 10_000, attempts: [{ ms: 1_000, ok: true }] });
    await order({ allocateMs: 2_000, payMs: 20_000, attempts: [{ ms: 2_000, ok: true }] });
    await order({ allocateMs: 4_000, payMs: 30_000, attempts: [{ ms: 3_000, ok: true }] });
    // ... a first attempt that fails: the latency runs to the attempt that succeeded (1 s + 9 s) ...
    await order({
      allocateMs: 6_000,
      payMs: 40_000,
      attempts: [
        { ms: 1_000, ok: false },
        { ms: 9_000, ok: true },
      ],
    });
    // ... allocated, never paid ...
    await order({ allocateMs: 8_000, payMs: null });
    // ... moved to another account a minute later (its time to allocate stays 0), then freed (timed out) ...
    const freed = await order({ allocateMs: 0, reselectMs: 60_000, payMs: null });
    expect((await t.call(orderApi.freeResource, { orderCode: freed }, admin)).body.data.state).toBe(
      ORDER_STATE.timedOut,
    );
    // ... moved after 30 s and paid 50 s after that (its time to pay), but the merchant never answered
    // SUCCESS: no callback latency.
    await order({ allocateMs: 0, reselectMs: 30_000, payMs: 50_000, attempts: [{ ms: 1_000, ok: false }] });
    // Product 1045: no account, allocation failed.
    const failed = await create('1045', '/n/failed');
    expect(failed.code).toBe(Code.allocationFailed);
    expect(hourOf(t.clock.now())).toBe(firstHour);

    // The next hour, product 1001: two more.
    toNextHour();
    secondHourStart = new Date(Math.floor(t.clock.now().getTime() / 1000) * 1000);
    await order({ allocateMs: 1_000, payMs: 5_000, attempts: [{ ms: 500, ok: true }] });
    await order({ allocateMs: 3_000, payMs: 15_000, attempts: [{ ms: 1_500, ok: true }] });
    t.clock.advance(1_000);
    end = t.clock.now();
    // The clock moved up to two hours and a few minutes (two hour starts) with superadmin and merchant1
    // idle: past a session's 120 idle minutes when this ran just after an hour began. Sign in again.
    superadmin = await t.login('superadmin');
    merchant1 = await t.login('merchant1');
  });

  it('counts and percentiles per product and hour, per product, per hour and overall', async () => {
    const p = await profileOf({ startTime: fmt(start), endTime: fmt(end) });
    const secondHour = (firstHour + 1) % 24;
    expect(p.startTime).toBe(fmt(start));
    expect(p.timeZone).toBe('Asia/Kolkata');

    // allocate [0,0,0,2000,4000,6000,8000]; pay [10..50 s]; callback [1000,2000,3000,10000]
    const firstUpi = {
      created: 7,
      allocated: 7,
      paid: 5,
      allocationFailed: 0,
      timedOut: 1,
      ...latencies([2000, 6800, 7880], [30_000, 46_000, 49_600], [2500, 7900, 9790]),
    };
    const failedOnly = {
      created: 1,
      allocated: 0,
      paid: 0,
      allocationFailed: 1,
      timedOut: 0,
      ...latencies([], [], []),
    };
    // allocate [1000,3000]; pay [5000,15000]; callback [500,1500]
    const secondUpi = {
      created: 2,
      allocated: 2,
      paid: 2,
      ...none,
      ...latencies([2000, 2800, 2980], [10_000, 14_000, 14_900], [1000, 1400, 1490]),
    };
    // By product, then hour (0..23: the second hour comes first when the first one is 23).
    const upiRows = [
      { productId: 1001, productName: 'UPI collection', hour: firstHour, ...firstUpi },
      { productId: 1001, productName: 'UPI collection', hour: secondHour, ...secondUpi },
    ].sort((a, b) => a.hour - b.hour);
    expect(p.rows).toEqual([
      ...upiRows,
      { productId: 1045, productName: 'Collection (API amount in 1/10000)', hour: firstHour, ...failedOnly },
    ]);

    // Product 1001 over both hours: allocate [0,0,0,1000,2000,3000,4000,6000,8000],
    // pay [5,10,15,20,30,40,50 s], callback [500,1000,1500,2000,3000,10000].
    const upi = {
      created: 9,
      allocated: 9,
      paid: 7,
      allocationFailed: 0,
      timedOut: 1,
      ...latencies([2000, 6400, 7840], [20_000, 44_000, 49_400], [1750, 6500, 9650]),
    };
    expect(p.byProduct).toEqual([
      { productId: 1001, productName: 'UPI collection', ...upi },
      { productId: 1045, productName: 'Collection (API amount in 1/10000)', ...failedOnly },
    ]);
    expect(p.overall).toEqual({ ...upi, created: 10, allocationFailed: 1 });

    expect(p.byHour).toHaveLength(24);
    expect(p.byHour.map((h) => h.hour)).toEqual(Array.from({ length: 24 }, (_, i) => i));
    expect(p.byHour[firstHour]).toEqual({
      hour: firstHour,
      ...firstUpi,
      created: 8,
      allocationFailed: 1,
    });
    expect(p.byHour[secondHour]).toEqual({ hour: secondHour, ...secondUpi });
    const quiet = p.byHour.find((h) => h.hour !== firstHour && h.hour !== secondHour)!;
    expect(quiet).toMatchObject({ created: 0, paid: 0, allocateP50Ms: null, payP99Ms: null, callbackP90Ms: null });
  });

  it('filters by window, product and merchant', async () => {
    const second = await profileOf({ startTime: fmt(secondHourStart), endTime: fmt(end) });
    expect(second.overall).toMatchObject({ created: 2, paid: 2, allocateP50Ms: 2000, payP99Ms: 14_900 });
    expect(second.rows.map((r) => r.hour)).toEqual([(firstHour + 1) % 24]);

    const failedProduct = await profileOf({ startTime: fmt(start), endTime: fmt(end), productId: 1045 });
    expect(failedProduct.overall).toMatchObject({ created: 1, allocationFailed: 1, allocateP50Ms: null });
    expect(failedProduct.rows.map((r) => r.productId)).toEqual([1045]);

    const own = await profileOf({ startTime: fmt(start), endTime: fmt(end), merchantId });
    expect(own.overall.created).toBe(10);
    const nobody = await profileOf({ startTime: fmt(start), endTime: fmt(end), merchantId: merchantId + 1000 });
    expect(nobody.overall).toEqual({ created: 0, allocated: 0, paid: 0, ...none, ...latencies([], [], []) });
    expect(nobody.rows).toEqual([]);
    expect(nobody.byProduct).toEqual([]);
    expect(nobody.byHour).toHaveLength(24);
  });

  it('defaults to the 7 days up to now', async () => {
    const now = t.clock.now();
    const p = await profileOf({});
    expect(p.endTime).toBe(fmt(now));
    expect(p.startTime).toBe(fmt(new Date(now.getTime() - 7 * 86_400_000)));
    expect(p.overall.created).toBeGreaterThanOrEqual(10);
  });

  it('exports the product and hour rows as CSV with the same filters', async () => {
    const csv = await downloadCsv(
      t,
      api.exportProfile,
      { startTime: fmt(start), endTime: fmt(end), productId: '1001' },
      superadmin,
    );
    expect(csv.status).toBe(200);
    const header = csv.header.split(',');
    expect(header.slice(0, 4)).toEqual(['productId', 'productName', 'hour', 'created']);
    expect(header).toContain('callbackP99Ms');
    expect(csv.rows).toHaveLength(2);
    const rows = csv.rows.map((line) => Object.fromEntries(header.map((h, i) => [h, line.split(',')[i]])));
    const first = rows.find((r) => r.hour === String(firstHour));
    expect(first).toMatchObject({
      productId: '1001',
      hour: String(firstHour),
      created: '7',
      paid: '5',
      timedOut: '1',
      allocateP90Ms: '6800',
      payP50Ms: '30000',
      callbackP99Ms: '9790',
    });
  });
});

describe('refusals', () => {
  it('only superAdmin may read it: 403 for admin and merchant, the export too', async () => {
    for (const who of [admin, merchant1]) {
      const res = await get({}, who);
      expect(res.status).toBe(403);
      expect(res.body.data).toMatchObject({ reason: 'roleDenied' });
      const csv = await downloadCsv(t, api.exportProfile, {}, who);
      expect(csv.status).toBe(403);
    }
    expect((await get({})).status).toBe(200);
  });

  it('refuses a window over 31 days or ending before it starts with 400, for the answer and the export', async () => {
    const endTime = '2026-03-31 23:59:59';
    const exactly31 = await get({ startTime: '2026-02-28 23:59:59', endTime });
    expect(exactly31.status).toBe(200);
    const tooLong = await get({ startTime: '2026-02-28 23:59:58', endTime });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.code).toBe(Code.invalidInput);
    expect(tooLong.body.msg).toBe(ORDER_PROFILE_TEXTS.window);
    expect(tooLong.body.data.issues).toEqual([{ path: 'endTime', message: ORDER_PROFILE_TEXTS.window }]);
    expect(tooLong.body.data.reason).toBe('windowTooLong');
    // Only a start, long ago: the end defaults to now, so the window is too long as well.
    expect((await get({ startTime: '2020-01-01 00:00:00' })).status).toBe(400);
    const backwards = await get({ startTime: '2026-03-02 00:00:00', endTime: '2026-03-01 00:00:00' });
    expect(backwards.status).toBe(400);
    expect(backwards.body.msg).toBe(ORDER_PROFILE_TEXTS.order);
    const csv = await t.app.inject({
      url: api.exportProfile.path,
      query: { startTime: '2026-01-01 00:00:00', endTime },
      cookies: { token: superadmin.token! },
    });
    expect(csv.statusCode).toBe(400);
    expect(csv.json()).toMatchObject({ code: Code.invalidInput, msg: ORDER_PROFILE_TEXTS.window });
  });

  it('refuses malformed filters with 400', async () => {
    expect((await get({ startTime: '2026-03-01' })).status).toBe(400);
    expect((await get({ productId: 'upi' })).status).toBe(400);
    expect((await get({ hour: 3 })).status).toBe(400);
  });
});
