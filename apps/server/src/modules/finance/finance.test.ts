import { Code, endpoints, type FundFlowAnswer } from '@paydesk/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, payouts, suppliers, users } from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, downloadCsv, startTestApp, type TestApp } from '../../testing/harness.js';
import { givePayoutAccounts, signedPayoutRequest } from '../../testing/payout-fixtures.js';
import { signParams } from '../orders/signature.js';

/**
 * Finance › fund flow: each day's money from the ledger (a payment, a completed payout and a deposit
 * each show where and how much they moved), and the check that the rollups agree with the ledger,
 * which says so when they do not.
 */
let t: TestApp;
const auth: Record<string, Auth> = {};
const { orders: O, payouts: P, funds, finance } = endpoints;

async function flow(input: Record<string, unknown> = {}): Promise<FundFlowAnswer> {
  const res = await t.call(finance.fundFlow, input, auth.admin!);
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

async function payOrder(amount: string): Promise<string> {
  const params: Record<string, string> = {
    mchId: DEMO_MERCHANT_API.mchId,
    productId: '1001',
    mchOrderNo: `FLOW${process.pid}x${amount}`,
    amount,
  };
  const created = await t.call(O.create, {
    ...params,
    sign: signParams(params, DEMO_MERCHANT_API.secret, 'HMAC-SHA256'),
  });
  expect(created.body.code, JSON.stringify(created.body)).toBe(200);
  const { orderCode } = created.body.data;
  expect((await t.call(O.payerSubmitUtr, { orderCode, utr: `7${amount.padStart(11, '0')}` })).body.code).toBe(200);
  const [order] = await t.database.db.select().from(orders).where(eq(orders.orderCode, orderCode));
  const confirmed = await t.call(O.confirmOrder, { orderCode }, auth[order!.isProxy ? 'agent1' : 'supplier1']!);
  expect(confirmed.body.code, JSON.stringify(confirmed.body)).toBe(200);
  return orderCode;
}

beforeAll(async () => {
  t = await startTestApp();
  await givePayoutAccounts(t);
  for (const account of ['supplier1', 'agent1', 'service']) auth[account] = await t.login(account);
  auth.admin = await t.loginWithToken2('admin');
  auth.superadmin = await t.loginWithToken2('superadmin');
});
afterAll(() => t.close());

describe('fund flow', () => {
  it('a payment, a completed payout and a deposit each show in the day’s money, and rollups and ledger agree', async () => {
    const before = await flow();
    expect(before.days).toHaveLength(7);
    expect(before.days[0]!.day).toBe(before.endDay);

    const orderCode = await payOrder('73125');
    const [order] = await t.database.db.select().from(orders).where(eq(orders.orderCode, orderCode));

    const created = await t.call(P.create, signedPayoutRequest({ amount: '41000' }));
    expect(created.body.code, JSON.stringify(created.body)).toBe(200);
    const [payout] = await t.database.db
      .select()
      .from(payouts)
      .where(eq(payouts.orderCode, created.body.data.orderCode));
    expect((await t.call(P.claimOrder, { orderId: payout!.id }, auth.supplier1!)).body.code).toBe(200);
    expect((await t.call(P.submit, { orderId: payout!.id, utr: 'UTRFLOW000001' }, auth.supplier1!)).body.code).toBe(
      200,
    );
    const confirmed = await t.call(P.confirm, { orderId: payout!.id }, auth.admin!);
    expect(confirmed.body.code, JSON.stringify(confirmed.body)).toBe(200);
    const [completed] = await t.database.db.select().from(payouts).where(eq(payouts.id, payout!.id));

    const [supplier] = await t.database.db
      .select({ id: suppliers.id })
      .from(suppliers)
      .innerJoin(users, eq(users.id, suppliers.userId))
      .where(eq(users.account, 'supplier1'));
    const proposed = await t.call(
      funds.propose,
      { partyKind: 'supplier', partyId: supplier!.id, kind: 'deposit', amount: 25_000, note: 'fund flow test' },
      auth.admin!,
    );
    expect(proposed.body.code, JSON.stringify(proposed.body)).toBe(200);
    const approved = await t.call(funds.approve, { id: proposed.body.data.id }, auth.superadmin!);
    expect(approved.body.code, JSON.stringify(approved.body)).toBe(200);

    const after = await flow();
    const moved = (key: keyof FundFlowAnswer['totals']) => after.totals[key] - before.totals[key];
    expect(moved('collectionCount')).toBe(1);
    expect(moved('collections')).toBe(order!.amount);
    expect(moved('payoutCount')).toBe(1);
    expect(moved('payouts')).toBe(completed!.amount);
    expect(moved('fees')).toBe(order!.fee + completed!.fee);
    expect(moved('commissions')).toBe((order!.commission ?? 0) + (completed!.commission ?? 0));
    expect(moved('platformRevenue')).toBe(moved('fees') - moved('commissions'));
    expect(moved('deposits')).toBe(25_000);
    expect(moved('withdrawals')).toBe(0);
    // The totals are the days' sums.
    expect(after.days.reduce((sum, d) => sum + d.collections, 0)).toBe(after.totals.collections);

    expect(after.check.agree, JSON.stringify(after.check)).toBe(true);
    const collection = after.check.directions.find((d) => d.direction === 'collection')!;
    expect(collection.ledgerCount).toBeGreaterThanOrEqual(1);
    expect(collection.rollupRevenue).toBe(collection.ledgerRevenue);

    // The CSV: one row per day of the range.
    const csv = await downloadCsv(t, finance.fundFlowExport, {}, auth.admin!);
    expect(csv.status).toBe(200);
    expect(csv.header).toContain('platformRevenue');
    expect(csv.rows).toHaveLength(7);
  });

  it('says so when the rollups and the ledger disagree', async () => {
    const today = (await flow()).endDay;
    // A bucket the orders never made: what a lost or doubled rollup update would leave behind. Written
    // as a delta, and taken back by the opposite delta: the folder may move deltas into the rollups at
    // any moment, so deleting the row could miss it.
    const bogus = (sign: 1 | -1) =>
      t.database.db.execute(sql`
      insert into order_rollup_deltas (hour, direction, merchant_user_id, supplier_user_id, product_id, mark, state,
                                       created_count, created_amount, success_count, success_amount, fee,
                                       commission, failed_count, timed_out_count, reversed_count,
                                       reversed_amount, cancelled_count)
      values (${`${today} 01:00:00`}::timestamp, 1, 0, 0, 1001, 0, 3, ${sign}, ${sign * 100}, ${sign}, ${sign * 100},
              ${sign * 7}, 0, 0, 0, 0, 0, 0)`);
    await bogus(1);
    const check = (await flow()).check;
    expect(check.agree).toBe(false);
    const collection = check.directions.find((d) => d.direction === 'collection')!;
    expect(collection.rollupCount).toBe(collection.ledgerCount + 1);
    expect(collection.rollupRevenue).toBe(collection.ledgerRevenue + 7);
    await bogus(-1);
    expect((await flow()).check.agree).toBe(true);
  });

  it('reads a range of days, and refuses a bad one with its reason, for administrators only', async () => {
    const answer = await flow({ startDay: '2026-01-01', endDay: '2026-01-03' });
    expect(answer.days.map((d) => d.day)).toEqual(['2026-01-03', '2026-01-02', '2026-01-01']);
    for (const input of [
      { startDay: '2026-02-30' },
      { startDay: '2026-01-05', endDay: '2026-01-01' },
      { startDay: '2025-01-01', endDay: '2026-01-01' },
      { endDay: '27/11/2026' },
    ]) {
      const res = await t.call(finance.fundFlow, input, auth.admin!);
      expect(res.status, JSON.stringify(input)).toBe(400);
      expect(res.body.code).toBe(Code.invalidInput);
    }
    expect((await t.call(finance.fundFlow, {}, auth.service!)).status).toBe(403);
    expect((await t.call(finance.fundFlow, {}, auth.supplier1!)).status).toBe(403);
    expect((await t.call(finance.fundFlow, {}, {})).status).toBe(401);
  });
});
