import { Code, endpoints, ORDER_STATE } from '@paydesk/contract';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/raw-rows.js';
import { auditLog, orders, payouts, resources } from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, startTestApp, type TestApp } from '../../testing/harness.js';
import { givePayoutAccounts, signedPayoutRequest } from '../../testing/payout-fixtures.js';
import { signParams } from '../orders/signature.js';

/**
 * System maintenance (issue 21 item 6): the daily totals the order and payout work keeps agree with
 * the rules of `derived-counters.ts`; rows corrupted by hand are found by the check, corrected by fix
 * with a report of before and after, and a second fix finds nothing; neither fix nor reset touches the
 * ledger, an order or a payout; the roles and the second-level password are enforced.
 */
const api = endpoints.systemMaintenance;
let t: TestApp;
const auth: Record<string, Auth> = {};
let paidCodes: string[] = [];
let today = '';
let yesterday = '';

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return rowsOf<T>(await t.database.db.execute(query));
}

/** The ledger as it stands: its entries' count and sums, and its own invariant check. */
async function ledgerState() {
  const [entries] = await rows<{ n: string; total: string; moved: string }>(
    sql`select count(*) as n, coalesce(sum(amount), 0) as total, coalesce(sum(abs(amount)), 0) as moved from ledger_entries`,
  );
  const balances = await rows<{ code: string; balance: string }>(
    sql`select code, balance from ledger_accounts order by code`,
  );
  return { entries, balances };
}

async function ok<T>(promise: Promise<{ body: { code: number; data: T } }>): Promise<T> {
  const res = await promise;
  expect(res.body.code, JSON.stringify(res.body)).toBe(Code.success);
  return res.body.data;
}

let n = 0;
async function payOrder(amount: number): Promise<string> {
  n += 1;
  const params = {
    mchId: DEMO_MERCHANT_API.mchId,
    productId: '1001',
    mchOrderNo: `MAINT${process.pid}x${n}`,
    amount: String(amount),
  };
  const created = await ok<{ orderCode: string }>(
    t.call(endpoints.orders.create, { ...params, sign: signParams(params, DEMO_MERCHANT_API.secret, 'HMAC-SHA256') }),
  );
  const [row] = await t.database.db.select().from(orders).where(eq(orders.orderCode, created.orderCode));
  await ok(t.call(endpoints.orders.confirmOrder, { orderCode: row!.orderCode }, auth.superadmin));
  return row!.orderCode;
}

beforeAll(async () => {
  t = await startTestApp();
  await givePayoutAccounts(t);
  for (const account of ['superadmin', 'admin']) auth[account] = await t.loginWithToken2(account);
  for (const account of ['maintenance', 'service', 'merchant1']) auth[account] = await t.login(account);
  auth.adminNoToken2 = await t.login('admin');
  auth.maintenanceToken2 = await t.loginWithToken2('maintenance');
  // Payments, a reversal, payouts and a cancelled payout: every writer of the daily totals.
  paidCodes = [await payOrder(10_000), await payOrder(20_000), await payOrder(30_000)];
  await ok(t.call(endpoints.orders.reverseOrder, { orderCode: paidCodes[2]! }, auth.superadmin));
  for (const amount of [40_000, 50_000]) {
    await ok(t.call(endpoints.payouts.create, signedPayoutRequest({ amount: String(amount) })));
  }
  const [cancel] = await t.database.db.select().from(payouts).where(eq(payouts.amount, 50_000));
  await ok(t.call(endpoints.payouts.cancel, { orderId: cancel!.id }, auth.merchant1));
  today = t.app.services.orders.today();
  const y = new Date(`${today}T00:00:00Z`);
  y.setUTCDate(y.getUTCDate() - 1);
  yesterday = y.toISOString().slice(0, 10);
});
afterAll(() => t.close());

describe('the rules of the derived counters', () => {
  it('agree with what payments, a reversal, payouts and a cancellation wrote: the check finds nothing', async () => {
    const report = await ok<{ checked: number; changed: number; dryRun: boolean; toDay: string }>(
      t.call(api.checkSystemResources, {}, auth.maintenance),
    );
    expect(report).toMatchObject({ changed: 0, dryRun: true, toDay: today });
    // Today's rows at least: the account, the merchant's collections and payouts, the supplier.
    expect(report.checked).toBeGreaterThanOrEqual(4);
  });
});

describe('fixSystemResources', () => {
  it('finds corrupted rows (check and dry run write nothing), corrects them with a report, and a second fix finds nothing; the ledger is untouched', async () => {
    const [paid] = await t.database.db
      .select({ resourceId: orders.resourceId, supplierUserId: orders.supplierUserId })
      .from(orders)
      .where(eq(orders.orderCode, paidCodes[0]!));
    const [account] = await rows<{ count: number; amount: string }>(
      sql`select count, amount from resource_daily where resource_id = ${paid!.resourceId} and day = ${today}`,
    );
    const trueCount = Number(account!.count);
    const trueAmount = Number(account!.amount);
    // A processing counter off, a party's day total that no order made, a payout total lost.
    await t.database.db.execute(
      sql`update resource_daily set count = count + 3, amount = amount + 777 where resource_id = ${paid!.resourceId} and day = ${today}`,
    );
    await t.database.db.execute(
      sql`insert into party_daily (user_id, product_id, day, count, amount) values (${paid!.supplierUserId}, 1001, ${yesterday}, 2, 500)`,
    );
    const merchantUserId = Number(
      (
        await rows<{ user_id: number }>(
          sql`select user_id from merchants where merchant_no = ${DEMO_MERCHANT_API.mchId}`,
        )
      )[0]!.user_id,
    );
    await t.database.db.execute(
      sql`insert into party_daily_deltas (user_id, product_id, day, count, amount) values (${merchantUserId}, 2001, ${today}, -1, -40000)`,
    );
    const ledgerBefore = await ledgerState();
    const ordersBefore = await t.database.db.select().from(orders).orderBy(orders.id);

    type Report = {
      dryRun: boolean;
      changed: number;
      changes: Array<Record<string, unknown>>;
    };
    const expected = [
      {
        table: 'party_daily',
        day: yesterday,
        userId: paid!.supplierUserId,
        productId: 1001,
        countBefore: 2,
        countAfter: 0,
        amountBefore: 500,
        amountAfter: 0,
      },
      {
        table: 'party_daily',
        day: today,
        userId: merchantUserId,
        account: 'merchant1',
        productId: 2001,
        countBefore: 0,
        countAfter: 1,
        amountBefore: 0,
        amountAfter: 40_000,
      },
      {
        table: 'resource_daily',
        day: today,
        resourceId: paid!.resourceId,
        countBefore: trueCount + 3,
        countAfter: trueCount,
        amountBefore: trueAmount + 777,
        amountAfter: trueAmount,
      },
    ];
    const sorted = (r: Report) =>
      [...r.changes].sort((a, b) => `${a.day}${a.table}`.localeCompare(`${b.day}${b.table}`));

    const checked = await ok<Report>(t.call(api.checkSystemResources, { days: 7 }, auth.maintenance));
    expect(checked.changed).toBe(3);
    expect(sorted(checked)).toMatchObject(expected);
    const dry = await ok<Report>(t.call(api.fixSystemResources, { days: 7, dryRun: true }, auth.admin));
    expect(dry).toMatchObject({ dryRun: true, changed: 3 });
    // Still wrong: neither wrote.
    expect((await ok<Report>(t.call(api.checkSystemResources, { days: 7 }, auth.admin))).changed).toBe(3);

    const fixed = await ok<Report>(t.call(api.fixSystemResources, { days: 7 }, auth.admin));
    expect(fixed).toMatchObject({ dryRun: false, changed: 3 });
    expect(sorted(fixed)).toMatchObject(expected);
    // What the readers (allocation, limits, lists) read is right again.
    const [after] = await rows<{ count: number; amount: string }>(
      sql`select count, amount from resource_daily where resource_id = ${paid!.resourceId} and day = ${today}`,
    );
    expect([Number(after!.count), Number(after!.amount)]).toEqual([trueCount, trueAmount]);
    const [payoutTotal] = await rows<{ amount: string }>(sql`
      select (coalesce((select sum(amount) from party_daily where user_id = ${merchantUserId} and product_id = 2001 and day = ${today}), 0)
            + coalesce((select sum(amount) from party_daily_deltas where user_id = ${merchantUserId} and product_id = 2001 and day = ${today}), 0)) as amount`);
    expect(Number(payoutTotal!.amount)).toBe(40_000);

    const again = await ok<Report>(t.call(api.fixSystemResources, { days: 7 }, auth.superadmin));
    expect(again).toMatchObject({ changed: 0, changes: [] });

    expect(await ledgerState()).toEqual(ledgerBefore);
    expect(await t.database.db.select().from(orders).orderBy(orders.id)).toEqual(ordersBefore);
    const check = await ok<{ ok: boolean }>(t.call(endpoints.ledger.ledgerCheck, {}, auth.superadmin));
    expect(check.ok).toBe(true);

    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'systemMaintenance.fixResources'))
      .orderBy(auditLog.id);
    // The two fixes that wrote (the dry run is a read): the first with what it changed.
    expect(audits).toHaveLength(2);
    expect(audits[0]!.account).toBe('admin');
    expect(audits[0]!.after).toMatchObject({ changed: 3, changes: expect.arrayContaining([expect.anything()]) });
    expect(audits[1]!.after).toMatchObject({ changed: 0 });
  });

  it('a day total with no row yet (its payment lost) is written back; a reversed order counts nowhere', async () => {
    const [reversed] = await t.database.db.select().from(orders).where(eq(orders.orderCode, paidCodes[2]!));
    expect(reversed!.state).toBe(ORDER_STATE.reversed);
    const [paid] = await t.database.db.select().from(orders).where(eq(orders.orderCode, paidCodes[1]!));
    await t.database.db.execute(sql`delete from resource_daily where resource_id = ${paid!.resourceId}`);
    const fixed = await ok<{ changed: number; changes: Array<Record<string, unknown>> }>(
      t.call(api.fixSystemResources, {}, auth.superadmin),
    );
    const paidOnIt = await t.database.db
      .select()
      .from(orders)
      .where(inArray(orders.orderCode, paidCodes.slice(0, 2)));
    const onAccount = paidOnIt.filter((o) => o.resourceId === paid!.resourceId);
    expect(fixed.changes).toEqual([
      expect.objectContaining({
        table: 'resource_daily',
        resourceId: paid!.resourceId,
        countBefore: 0,
        countAfter: onAccount.length,
        amountAfter: onAccount.reduce((s, o) => s + o.amount, 0),
      }),
    ]);
  });
});

describe('resetSystemResourcePool', () => {
  it('clears every account’s last allocation (one stamped in the future too), folds the deltas, audited; money and orders untouched', async () => {
    const db = t.database.db;
    const future = new Date(t.clock.now().getTime() + 86_400_000);
    const [stamped] = await db.select({ id: resources.id }).from(resources).limit(1);
    await db.update(resources).set({ lastAllocatedAt: future }).where(eq(resources.id, stamped!.id));
    const used = await db.$count(resources, sql`${resources.lastAllocatedAt} is not null`);
    const ledgerBefore = await ledgerState();
    const ordersBefore = await db.select().from(orders).orderBy(orders.id);
    const payoutsBefore = await db.select().from(payouts).orderBy(payouts.id);

    const report = await ok<{ resourcesReset: number; futureStamps: number; deltasFolded: number }>(
      t.call(api.resetSystemResourcePool, {}, auth.superadmin),
    );
    expect(report).toMatchObject({ resourcesReset: used, futureStamps: 1 });
    expect(await db.$count(resources, sql`${resources.lastAllocatedAt} is not null`)).toBe(0);
    expect(await rows(sql`select id from party_daily_deltas`)).toEqual([]);
    expect(await ledgerState()).toEqual(ledgerBefore);
    expect(await db.select().from(orders).orderBy(orders.id)).toEqual(ordersBefore);
    expect(await db.select().from(payouts).orderBy(payouts.id)).toEqual(payoutsBefore);
    // The totals the readers see did not move: nothing to fix.
    expect((await ok<{ changed: number }>(t.call(api.checkSystemResources, {}, auth.admin))).changed).toBe(0);
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, 'systemMaintenance.resetResourcePool'));
    expect(audit!.after).toMatchObject({ resourcesReset: used, futureStamps: 1 });
    // Allocation works from a fresh rotation.
    expect(await payOrder(12_345)).toMatch(/^C/);
  });
});

describe('who may', () => {
  it('fix and reset: administrators with the second-level password; technical maintenance and customer service only check or nothing', async () => {
    expect((await t.call(api.fixSystemResources, {}, auth.adminNoToken2)).body.code).toBe(Code.token2Required);
    expect((await t.call(api.resetSystemResourcePool, {}, auth.adminNoToken2)).body.code).toBe(Code.token2Required);
    for (const who of [auth.maintenanceToken2, auth.service, auth.merchant1]) {
      expect((await t.call(api.fixSystemResources, {}, who)).status).toBe(403);
      expect((await t.call(api.resetSystemResourcePool, {}, who)).status).toBe(403);
    }
    expect((await t.call(api.checkSystemResources, {}, auth.service)).status).toBe(403);
    expect((await t.call(api.checkSystemResources, {}, auth.maintenance)).body.code).toBe(Code.success);
    expect((await t.call(api.checkSystemResources, { days: 0 })).body.code).toBe(Code.sessionExpired);
    const bad = await t.call(api.checkSystemResources, { days: 3661 }, auth.maintenance);
    expect(bad.status).toBe(400);
  });
});
