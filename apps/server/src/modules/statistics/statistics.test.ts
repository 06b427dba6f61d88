import { endpoints, STATISTICS_TEXTS, type StatisticsAnswer } from '@paydesk/contract';
import dayjs from 'dayjs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/raw-rows.js';
import { orders, payouts, users } from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, startTestApp, type TestApp } from '../../testing/harness.js';
import { givePayoutAccounts, signedPayoutRequest } from '../../testing/payout-fixtures.js';
import { signParams } from '../orders/signature.js';

/**
 * Issue 22 item 2: statisticsV2, its payout twin and simplestatisticsV2 read the rollups, scoped by
 * role (a merchant its own, a supplier its team's, staff all), each role seeing the money it may.
 */
const api = endpoints.statistics;
let t: TestApp;
const auth: Record<string, Auth> = {};
const userIdOf: Record<string, number> = {};
let today: string;

beforeAll(async () => {
  t = await startTestApp();
  for (const account of ['superadmin', 'admin', 'service', 'supplier1', 'agent1', 'merchant1', 'support']) {
    auth[account] = await t.login(account);
    const [u] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.account, account));
    userIdOf[account] = u!.id;
  }
  await givePayoutAccounts(t);
  today = dayjs(t.clock.now()).tz(t.config.timeZone).format('YYYY-MM-DD');
});
afterAll(() => t.close());

const todayRange = () => ({ startTime: `${today} 00:00:00`, endTime: `${today} 23:59:59` });
async function stats(who: string, input: Record<string, unknown> = {}, endpoint = api.statisticsV2) {
  const res = await t.call(endpoint, { ...todayRange(), ...input }, auth[who]);
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data as StatisticsAnswer;
}

let n = 0;
async function paidOrder(amount: number, confirm: boolean): Promise<{ fee: number; commission: number }> {
  n += 1;
  const params = {
    mchId: DEMO_MERCHANT_API.mchId,
    productId: '1001',
    mchOrderNo: `STAT${n}`,
    amount: String(amount),
    notifyUrl: 'http://127.0.0.1:9/notify',
  };
  const res = await t.call(endpoints.orders.create, {
    ...params,
    sign: signParams(params, DEMO_MERCHANT_API.secret, 'HMAC-SHA256'),
  });
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  if (confirm) {
    const by = await t.loginWithToken2('superadmin');
    expect((await t.call(endpoints.orders.confirmOrder, { orderCode: res.body.data.orderCode }, by)).body.code).toBe(
      200,
    );
  }
  const [o] = await t.database.db.select().from(orders).where(eq(orders.orderCode, res.body.data.orderCode));
  return { fee: o!.fee, commission: o!.commission ?? 0 };
}

describe('statisticsV2', () => {
  it('sums today’s orders for staff: created, paid, fees, commissions, revenue, the success rate', async () => {
    const before = (await stats('admin')).totals;
    const a = await paidOrder(30_000, true);
    const b = await paidOrder(20_000, true);
    await paidOrder(10_000, false);
    const after = await stats('admin');
    expect(after.totals.createdCount - before.createdCount).toBe(3);
    expect(after.totals.createdAmount - before.createdAmount).toBe(60_000);
    expect(after.totals.successCount - before.successCount).toBe(2);
    expect(after.totals.successAmount - before.successAmount).toBe(50_000);
    expect(after.totals.fee! - before.fee!).toBe(a.fee + b.fee);
    expect(after.totals.commission! - before.commission!).toBe(a.commission + b.commission);
    expect(after.totals.platformRevenue).toBe(after.totals.fee! - after.totals.commission!);
    expect(after.totals.successRate).toBe(Math.floor((after.totals.successCount * 10_000) / after.totals.createdCount));
    // The splits add up to the totals.
    const sum = (rows: Array<{ createdAmount: number }>) => rows.reduce((s, r) => s + r.createdAmount, 0);
    expect(sum(after.byProduct)).toBe(after.totals.createdAmount);
    expect(sum(after.byParty)).toBe(after.totals.createdAmount);
    expect(sum(after.series)).toBe(after.totals.createdAmount);
    expect(after.byProduct.map((p) => p.productId)).toContain(1001);
    expect(after.groupedBy).toBe('supplier');
    const byMerchant = await stats('admin', { groupByMerchant: 'true' });
    expect(byMerchant.groupedBy).toBe('merchant');
    expect(byMerchant.byParty).toEqual([
      expect.objectContaining({
        userId: userIdOf.merchant1,
        account: 'merchant1',
        createdCount: after.totals.createdCount,
      }),
    ]);
  });

  it('gives a merchant its own figures and fees, a supplier its team’s and commissions; no one another’s', async () => {
    // Another merchant's and another supplier's bucket today, written as the triggers would.
    await t.database.db.execute(sql`
      insert into order_rollup_deltas (hour, direction, merchant_user_id, supplier_user_id, product_id, mark, state,
             created_count, created_amount, success_count, success_amount, fee, commission, failed_count,
             timed_out_count, reversed_count, reversed_amount, cancelled_count)
      values (${`${today} 10:00:00`}::timestamp, 1, 999001, 999002, 1001, 0, 3, 5, 500000, 4, 400000, 8000, 4000, 1, 0, 0, 0, 0)`);
    const staff = await stats('service');
    const merchant = await stats('merchant1');
    const supplier = await stats('supplier1');
    expect(staff.totals.createdCount).toBe(merchant.totals.createdCount + 5);
    expect(merchant.totals).toMatchObject({ commission: null, platformRevenue: null });
    expect(merchant.totals.fee).toBeGreaterThan(0);
    expect(supplier.totals).toMatchObject({ fee: null, platformRevenue: null });
    expect(supplier.totals.commission).toBeGreaterThan(0);
    expect(supplier.byParty.every((p) => [userIdOf.supplier1, userIdOf.agent1].includes(p.userId))).toBe(true);
    // A merchant's split is by itself, whatever it asks: the suppliers' accounts are not its to see.
    expect(merchant).toMatchObject({ groupedBy: 'merchant', byParty: [{ userId: userIdOf.merchant1 }] });
    expect(await stats('merchant1', { groupByMerchant: false })).toMatchObject({ groupedBy: 'merchant' });
    // Filters narrow within the scope: another merchant's id gives a merchant nothing.
    expect((await stats('merchant1', { merchantUserId: 999001 })).totals.createdCount).toBe(0);
    expect((await stats('admin', { merchantUserId: 999001 })).totals.createdCount).toBe(5);
    expect((await stats('admin', { supplierUserId: 999002, orderMark: 0 })).totals.successAmount).toBe(400_000);
    expect((await stats('admin', { supplierUserId: 999002, orderMark: 1 })).totals.successAmount).toBe(0);
    // Technical support reads no statistics.
    expect((await t.call(api.statisticsV2, todayRange(), auth.support)).status).toBe(403);
  });

  it('draws the trend by day or by hour (OrderStatisticsTimeFormat unless asked), empty points included', async () => {
    const week = {
      startTime: `${dayjs(today).subtract(6, 'day').format('YYYY-MM-DD')} 00:00:00`,
      endTime: `${today} 23:59:59`,
    };
    const byDay = await stats('admin', week);
    expect(byDay.timeFormat).toBe('day');
    expect(byDay.series.map((p) => p.time)).toHaveLength(7);
    expect(byDay.series.at(-1)!.time).toBe(today);
    await t.setSetting('OrderStatisticsTimeFormat', 'hour');
    const byHour = await stats('admin');
    expect(byHour.timeFormat).toBe('hour');
    expect(byHour.series).toHaveLength(24);
    expect(byHour.series[10]).toMatchObject({ time: `${today} 10:00` });
    expect((await stats('admin', { timeFormat: 'day' })).series).toHaveLength(1);
    await t.setSetting('OrderStatisticsTimeFormat', undefined);
  });

  it('refuses a range longer than 93 days or backwards, with its text', async () => {
    for (const range of [
      { startTime: '2026-01-01 00:00:00', endTime: '2026-06-01 00:00:00' },
      { startTime: `${today} 12:00:00`, endTime: `${today} 11:00:00` },
    ]) {
      const res = await t.call(api.statisticsV2, range, auth.admin);
      expect(res.status).toBe(400);
      expect(res.body.data.issues).toEqual([{ path: 'endTime', message: STATISTICS_TEXTS.range }]);
    }
  });

  it('the payout twin sums payouts whatever orderType says', async () => {
    const before = (await stats('admin', {}, api.payoutStatisticsV2)).totals;
    const res = await t.call(endpoints.payouts.create, signedPayoutRequest({ amount: '70000' }));
    expect(res.body.code, JSON.stringify(res.body)).toBe(200);
    const twin = await stats('admin', { orderType: 'collection' }, api.payoutStatisticsV2);
    expect(twin.orderType).toBe('payout');
    expect(twin.totals.createdAmount - before.createdAmount).toBe(70_000);
    expect((await stats('admin', { orderType: 'payout' })).totals).toEqual(twin.totals);
    const [p] = await t.database.db.select().from(payouts).where(eq(payouts.orderCode, res.body.data.orderCode));
    expect(p!.state).toBe(0);
  });
});

describe('simplestatisticsV2', () => {
  it('answers today, yesterday and the last 7 days; today equals statisticsV2 over today', async () => {
    const res = await t.call(api.simplestatisticsV2, {}, auth.admin);
    expect(res.body.data).toMatchObject({ shown: true, todayDate: today });
    const full = await stats('admin');
    expect(res.body.data.collection.today).toEqual(full.totals);
    expect(res.body.data.collection.last7Days.createdCount).toBeGreaterThanOrEqual(full.totals.createdCount);
    const rows = rowsOf<{ n: string }>(await t.database.db.execute(sql`select count(*)::text as n from orders`));
    expect(res.body.data.collection.last7Days.createdCount).toBeLessThanOrEqual(Number(rows[0]!.n) + 5);
    // Another day asked: its own today.
    const yesterday = dayjs(today).subtract(1, 'day').format('YYYY-MM-DD');
    const asked = await t.call(api.simplestatisticsV2, { todayDate: yesterday }, auth.admin);
    expect(asked.body.data.todayDate).toBe(yesterday);
    expect(asked.body.data.collection.today).toEqual(res.body.data.collection.yesterday);
    expect((await t.call(api.simplestatisticsV2, { todayDate: '27.11.2026' }, auth.admin)).status).toBe(400);
  });

  it('shows partners nothing while ShowUserStatisticInfo is off; staff still see theirs', async () => {
    await t.setSetting('ShowUserStatisticInfo', false);
    const merchant = await t.call(api.simplestatisticsV2, {}, auth.merchant1);
    expect(merchant.body.data).toMatchObject({ shown: false, collection: null, payout: null });
    expect((await t.call(api.simplestatisticsV2, {}, auth.admin)).body.data.shown).toBe(true);
    await t.setSetting('ShowUserStatisticInfo', undefined);
    const again = await t.call(api.simplestatisticsV2, {}, auth.merchant1);
    expect(again.body.data.shown).toBe(true);
    expect(again.body.data.collection.today.commission).toBeNull();
  });
});
