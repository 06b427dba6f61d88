import { endpoints } from '@paydesk/contract';
import dayjs from 'dayjs';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/raw-rows.js';
import { merchants, orders, suppliers, users } from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, startTestApp, type TestApp } from '../../testing/harness.js';
import { signed } from '../../testing/merchant-api.js';
import { signedPayoutRequest } from '../../testing/payout-fixtures.js';
import { counted } from '../../testing/statement-count.js';

/**
 * The order list's totals from the rollups (issue 22 item 5; statistics/rollup-totals.ts): whenever
 * the filters are what the rollups are keyed by and the range is whole hours, the count and the
 * amount, fee and commission of the filtered set come from the rollup levels, and they must be what
 * the rows say, for every role and range shape (whole days, hours at either end, hours only,
 * unbounded), folded or not.
 */
let t: TestApp;
const auth: Record<string, Auth> = {};
let supplier1: { id: number; userId: number };
let merchantId: number;

const WALL = 'YYYY-MM-DD HH:mm:ss';
let today: dayjs.Dayjs;

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimitFactor: 1000 } });
  for (const account of ['admin', 'merchant1', 'supplier1']) auth[account] = await t.login(account);
  const [s] = await t.database.db
    .select({ id: suppliers.id, userId: suppliers.userId })
    .from(suppliers)
    .innerJoin(users, eq(users.id, suppliers.userId))
    .where(eq(users.account, 'supplier1'));
  supplier1 = s!;
  const [m] = await t.database.db.select().from(merchants).where(eq(merchants.merchantNo, DEMO_MERCHANT_API.mchId));
  merchantId = m!.id;
  today = dayjs.utc(dayjs(t.clock.now()).tz(t.config.timeZone).format('YYYY-MM-DD'), 'YYYY-MM-DD');
  const codes: string[] = [];
  for (let n = 1; n <= 8; n++) {
    const res = await t.call(
      endpoints.orders.create,
      signed({
        mchId: DEMO_MERCHANT_API.mchId,
        productId: '1001',
        mchOrderNo: `TOTALS${n}`,
        amount: String(20_000 + n * 101),
      }),
    );
    expect(res.body.code, JSON.stringify(res.body)).toBe(200);
    codes.push(res.body.data.orderCode);
  }
  // Spread over time (yesterday evening, the day before, last week) and outcomes (paid with a
  // commission, reversed, marked), written directly: the triggers keep the rollups either way.
  const at = (d: dayjs.Dayjs) => sql`(${d.format(WALL)}::timestamp at time zone ${t.config.timeZone})`;
  const moves: Array<[number, dayjs.Dayjs]> = [
    [0, today.subtract(1, 'day').add(21, 'hour').add(17, 'minute')],
    [1, today.subtract(1, 'day').add(3, 'hour')],
    [2, today.subtract(2, 'day').add(23, 'hour').add(59, 'minute').add(59, 'second').add(500, 'millisecond')],
    [3, today.subtract(6, 'day').add(12, 'hour')],
  ];
  for (const [i, d] of moves) {
    await t.database.db
      .update(orders)
      .set({ createdAt: at(d) as unknown as Date })
      .where(eq(orders.orderCode, codes[i]!));
  }
  await t.database.db
    .update(orders)
    .set({ state: 3, commission: sql`${orders.amount} / 100` })
    .where(inArray(orders.orderCode, [codes[0]!, codes[2]!, codes[5]!]));
  await t.database.db.update(orders).set({ state: 8, commission: 77 }).where(eq(orders.orderCode, codes[3]!));
  await t.database.db.update(orders).set({ mark: 2 }).where(eq(orders.orderCode, codes[6]!));
});
afterAll(() => t.close());

/** What the rows say for a creation-time range [from, to) of wall-clock times and extra conditions. */
async function fromRows(from: string | null, to: string | null, where = sql`true`) {
  const tz = t.config.timeZone;
  const [row] = rowsOf<{ n: string; amount: string; fee: string; commission: string }>(
    await t.database.db.execute(sql`
      select count(*)::text as n, coalesce(sum(amount), 0)::text as amount, coalesce(sum(fee), 0)::text as fee,
             coalesce(sum(commission), 0)::text as commission
        from orders
       where ${from ? sql`created_at >= (${from}::timestamp at time zone ${tz})` : sql`true`}
         and ${to ? sql`created_at < (${to}::timestamp at time zone ${tz})` : sql`true`}
         and ${where}`),
  );
  return {
    total: Number(row!.n),
    amount: Number(row!.amount),
    fee: Number(row!.fee),
    commission: Number(row!.commission),
  };
}

async function listed(who: string, input: Record<string, unknown>) {
  const { result, statements } = await counted(() =>
    t.call(endpoints.orders.getList, { pageIndex: 1, pageSize: 2, ...input }, auth[who]!),
  );
  expect(result.body.code, JSON.stringify(result.body)).toBe(200);
  const data = result.body.data as { total: number; summary: Record<string, number> };
  return {
    data,
    rollups: statements.some((s) => s.includes('order_rollup_levels') || s.includes('from order_rollups')),
  };
}

const day = (d: dayjs.Dayjs) => d.format(WALL);
const lastSecond = (d: dayjs.Dayjs) => d.subtract(1, 'second').format(WALL);

describe('the order list totals from the rollups', () => {
  const ranges = () => [
    { name: 'unbounded', from: null, to: null },
    { name: 'today', from: today, to: today.add(1, 'day') },
    { name: 'the last 7 days', from: today.subtract(6, 'day'), to: today.add(1, 'day') },
    { name: 'hours then whole days', from: today.subtract(1, 'day').add(20, 'hour'), to: today.add(1, 'day') },
    { name: 'whole days then hours', from: today.subtract(2, 'day'), to: today.subtract(1, 'day').add(22, 'hour') },
    {
      name: 'hours within a day',
      from: today.subtract(1, 'day').add(2, 'hour'),
      to: today.subtract(1, 'day').add(22, 'hour'),
    },
    { name: 'from a time on', from: today.subtract(2, 'day').add(23, 'hour'), to: null },
    { name: 'up to a time', from: null, to: today.subtract(1, 'day').add(4, 'hour') },
  ];

  for (const folded of [false, true]) {
    it(`equal the rows for staff, a merchant and a supplier over every range shape (${folded ? 'folded' : 'unfolded'})`, async () => {
      if (folded) await t.app.services.rollups.fold();
      for (const r of ranges()) {
        const input = {
          ...(r.from ? { startTime: day(r.from) } : {}),
          ...(r.to ? { endTime: lastSecond(r.to) } : {}),
        };
        const from = r.from ? day(r.from) : null;
        const to = r.to ? day(r.to) : null;
        const cases: Array<[string, Record<string, unknown>, ReturnType<typeof sql>]> = [
          ['admin', {}, sql`true`],
          ['admin', { merchantId }, sql`merchant_id = ${merchantId}`],
          ['admin', { supplierId: supplier1.id }, sql`supplier_id = ${supplier1.id}`],
          [
            'admin',
            { merchantId, supplierId: supplier1.id },
            sql`merchant_id = ${merchantId} and supplier_id = ${supplier1.id}`,
          ],
          ['admin', { productId: 1001, orderMark: 2 }, sql`product_id = 1001 and mark = 2`],
          // A state is a rollup key (migration 0038): paid, reversed, and one no order is in.
          ['admin', { orderStatusId: 3 }, sql`state = 3`],
          ['admin', { orderStatusId: 8, merchantId }, sql`state = 8 and merchant_id = ${merchantId}`],
          ['admin', { orderStatusId: 5 }, sql`state = 5`],
          [
            'admin',
            { orderStatusId: 3, merchantId, supplierId: supplier1.id },
            sql`state = 3 and merchant_id = ${merchantId} and supplier_id = ${supplier1.id}`,
          ],
          ['merchant1', { orderStatusId: 3 }, sql`state = 3 and merchant_id = ${merchantId}`],
          ['supplier1', { orderStatusId: 3 }, sql`state = 3 and supplier_user_id = ${supplier1.userId}`],
          ['merchant1', {}, sql`merchant_id = ${merchantId}`],
          // Its own orders unless SupplierUnifyQueryGroup (platform/context.ts); isProxy: its agents'.
          ['supplier1', {}, sql`supplier_user_id = ${supplier1.userId}`],
          [
            'supplier1',
            { isProxy: true },
            sql`supplier_user_id in (select id from users where parent_id = ${supplier1.userId})`,
          ],
          ['supplier1', { isProxy: false }, sql`supplier_user_id = ${supplier1.userId}`],
        ];
        for (const [who, filters, where] of cases) {
          const { data, rollups } = await listed(who, { ...input, ...filters });
          const expected = await fromRows(from, to, where);
          const label = `${r.name}, ${who} ${JSON.stringify(filters)}`;
          expect(rollups, label).toBe(true);
          expect(data.total, label).toBe(expected.total);
          expect(data.summary.amount, label).toBe(expected.amount);
          if (who !== 'merchant1') expect(data.summary.commission, label).toBe(expected.commission);
          if (who !== 'supplier1') expect(data.summary.fee, label).toBe(expected.fee);
        }
      }
    });
  }

  it('sums the rows when a filter is not one the rollups hold, or a range ends inside an hour', async () => {
    for (const input of [
      { merchantOrderId: 'TOTALS1' },
      { startTime: day(today.subtract(1, 'day').add(21, 'hour').add(10, 'minute')) },
      { endTime: day(today.subtract(1, 'day').add(21, 'hour').add(30, 'minute')) },
      { isProxy: true },
    ]) {
      const { data, rollups } = await listed('admin', input);
      expect(rollups, JSON.stringify(input)).toBe(false);
      expect(data.total).toBeGreaterThanOrEqual(0);
    }
    const one = await listed('admin', { merchantOrderId: 'TOTALS1' });
    expect(one.data.total).toBe((await fromRows(null, null, sql`merchant_order_no = 'TOTALS1'`)).total);
  });

  it('the payout list alike, its two state filters included', async () => {
    for (let n = 1; n <= 3; n++) {
      const res = await t.call(
        endpoints.payouts.create,
        signedPayoutRequest({ mchOrderNo: `TOTALSP${n}`, amount: String(100_000 + n) }),
      );
      expect(res.body.code, JSON.stringify(res.body)).toBe(200);
    }
    // One completed, one cancelled (written directly: the triggers move them between state buckets).
    await t.database.db.execute(sql`update payouts set state = 3 where merchant_order_no = 'TOTALSP1'`);
    await t.database.db.execute(sql`update payouts set state = 4 where merchant_order_no = 'TOTALSP2'`);
    const tz = t.config.timeZone;
    for (const [who, input, where] of [
      ['admin', {}, sql`true`],
      [
        'admin',
        { startTime: day(today), endTime: lastSecond(today.add(1, 'day')) },
        sql`created_at >= (${day(today)}::timestamp at time zone ${tz})`,
      ],
      ['merchant1', {}, sql`merchant_id = ${merchantId}`],
      ['admin', { payoutStatus: 0 }, sql`state = 0`],
      // Finished: completed, cancelled or rejected; with a state, the two filters intersect.
      ['admin', { processState: 4 }, sql`state in (3, 4, 6)`],
      ['merchant1', { processState: 4, payoutStatus: 3 }, sql`state = 3 and merchant_id = ${merchantId}`],
      ['admin', { processState: 4, payoutStatus: 0 }, sql`false`],
    ] as const) {
      const { result, statements } = await counted(() =>
        t.call(endpoints.payouts.getList, { pageIndex: 1, pageSize: 2, ...input }, auth[who]!),
      );
      const data = result.body.data as { total: number; summary: Record<string, number> };
      const [row] = rowsOf<{ n: string; amount: string; fee: string }>(
        await t.database.db.execute(sql`
          select count(*)::text as n, coalesce(sum(amount), 0)::text as amount, coalesce(sum(fee), 0)::text as fee
            from payouts where ${where}`),
      );
      expect(
        statements.some((s) => s.includes('order_rollup_levels')),
        who,
      ).toBe(true);
      expect(data.total, who).toBe(Number(row!.n));
      expect(data.summary.amount, who).toBe(Number(row!.amount));
      expect(data.summary.fee, who).toBe(Number(row!.fee));
    }
  });
});
