import { endpoints } from '@paydesk/contract';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, payouts } from '../../db/schema.js';
import { formatPlatformTime } from '../../platform/time.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, downloadCsv, startTestApp, type TestApp } from '../../testing/harness.js';
import { signed } from '../../testing/merchant-api.js';
import { signedPayoutRequest } from '../../testing/payout-fixtures.js';
import { counted } from '../../testing/statement-count.js';

/**
 * HighPerfOrderQuery (issue 21): the order lists skip the exact count (answering `hasMore`, and as
 * `total` the rows up to the page plus one when another follows) and search only the last 31 days
 * unless a time range is given; the money totals are over the range searched. Off: counted, all time.
 */
let t: TestApp;
let admin: Auth;
const codes: string[] = [];

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimitFactor: 1000 } });
  admin = await t.loginWithToken2('superadmin');
  for (let n = 1; n <= 5; n++) {
    const res = await t.call(
      endpoints.orders.create,
      signed({ mchId: DEMO_MERCHANT_API.mchId, productId: '1001', mchOrderNo: `FAST${n}`, amount: String(30_000 + n) }),
    );
    expect(res.body.code, JSON.stringify(res.body)).toBe(200);
    codes.push(res.body.data.orderCode);
  }
  // Two of them were created 40 days ago.
  await t.database.db
    .update(orders)
    .set({ createdAt: sql`${orders.createdAt} - interval '40 days'` })
    .where(inArray(orders.orderCode, codes.slice(0, 2)));
});
afterAll(() => t.close());

const list = (over: Record<string, unknown> = {}) =>
  t.call(endpoints.orders.getList, { pageIndex: 1, pageSize: 2, merchantOrderId: 'FAST', ...over }, admin);

describe('HighPerfOrderQuery', () => {
  it('off: the lists count their rows and search all time', async () => {
    const res = await list();
    expect(res.body.data).toMatchObject({ total: 5, pageIndex: 1, pageSize: 2 });
    expect(res.body.data.hasMore).toBeUndefined();
    expect(res.body.data.summary.amount).toBe(150_015);
  });

  it('on: no count, pages by hasMore, the last 31 days only, totals over them', async () => {
    await t.setSetting('HighPerfOrderQuery', true);
    try {
      const first = await list();
      expect(first.body.data).toMatchObject({ pageIndex: 1, pageSize: 2, hasMore: true, total: 3 });
      expect(first.body.data.list.map((o: { orderCode: string }) => o.orderCode)).toEqual([codes[4], codes[3]]);
      // The money totals are over what was searched: the three recent orders.
      expect(first.body.data.summary.amount).toBe(30_003 + 30_004 + 30_005);
      const second = await list({ pageIndex: 2 });
      expect(second.body.data).toMatchObject({ hasMore: false, total: 3 });
      expect(second.body.data.list.map((o: { orderCode: string }) => o.orderCode)).toEqual([codes[2]]);

      // A time range given is searched as given, older orders included.
      const startTime = formatPlatformTime(new Date(t.clock.now().getTime() - 60 * 86_400_000), t.config.timeZone);
      const ranged = await list({ startTime, pageSize: 10 });
      expect(ranged.body.data).toMatchObject({ hasMore: false, total: 5 });
      expect(ranged.body.data.summary.amount).toBe(150_015);

      // The CSV export searches what the list does.
      const csv = await downloadCsv(t, endpoints.orders.exportList, { merchantOrderId: 'FAST' }, admin);
      expect(csv.status).toBe(200);
      expect(csv.rows).toHaveLength(3);
    } finally {
      await t.setSetting('HighPerfOrderQuery', undefined);
    }
  });

  it('on: the payout list alike', async () => {
    const made: string[] = [];
    for (let n = 1; n <= 3; n++) {
      const res = await t.call(
        endpoints.payouts.create,
        signedPayoutRequest({ mchOrderNo: `FASTP${n}`, amount: String(100_000 + n) }),
      );
      expect(res.body.code, JSON.stringify(res.body)).toBe(200);
      made.push(res.body.data.orderCode);
    }
    await t.database.db
      .update(payouts)
      .set({ createdAt: sql`${payouts.createdAt} - interval '40 days'` })
      .where(inArray(payouts.orderCode, made.slice(0, 1)));
    const payoutList = (over: Record<string, unknown> = {}) =>
      t.call(endpoints.payouts.getList, { pageIndex: 1, pageSize: 1, merchantOrderId: 'FASTP', ...over }, admin);
    expect((await payoutList()).body.data).toMatchObject({ total: 3 });
    await t.setSetting('HighPerfOrderQuery', true);
    try {
      const first = await payoutList();
      expect(first.body.data).toMatchObject({ hasMore: true, total: 2 });
      expect(first.body.data.summary.amount).toBe(100_002 + 100_003);
      expect((await payoutList({ pageIndex: 2 })).body.data).toMatchObject({ hasMore: false, total: 2 });
    } finally {
      await t.setSetting('HighPerfOrderQuery', undefined);
    }
  });

  it('a whole order or payout code is looked up by its index, in any case; a part of one is searched for', async () => {
    const [payout] = await t.database.db.select({ orderCode: payouts.orderCode }).from(payouts).limit(1);
    for (const [endpoint, code] of [
      [endpoints.orders.getList, codes[1]!],
      [endpoints.payouts.getList, payout!.orderCode],
    ] as const) {
      const { result, statements } = await counted(() =>
        t.call(endpoint, { pageIndex: 1, pageSize: 10, orderCode: ` ${code.toLowerCase()} ` }, admin),
      );
      expect(result.body.data.list.map((o: { orderCode: string }) => o.orderCode)).toEqual([code]);
      // Equality on the code (its unique index), not a search through every row.
      expect(statements.some((s) => /"order_code" = \$\d/.test(s))).toBe(true);
      expect(statements.some((s) => /"order_code" ilike/.test(s))).toBe(false);
      // A part of the code (its random tail) finds it by search.
      const part = await t.call(endpoint, { pageIndex: 1, pageSize: 10, orderCode: code.slice(-8) }, admin);
      expect(part.body.data.list.map((o: { orderCode: string }) => o.orderCode)).toContain(code);
    }
  });
});
