import { Code, endpoints, PAYOUT_STATE } from '@paydesk/contract';
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/raw-rows.js';
import { orderRollups, orders, payouts } from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, startTestApp, type TestApp } from '../../testing/harness.js';
import { givePayoutAccounts, signedPayoutRequest } from '../../testing/payout-fixtures.js';
import { signParams } from '../orders/signature.js';
import type { Rollups } from './rollups.js';

/**
 * Issue 22 item 1, the rollups: kept by the database's triggers in each change's transaction, folded
 * later, rebuilt from the orders on demand. The property: whatever happens to orders and payouts (the
 * engine's own actions in any order, or any change of state, mark, supplier or fees written directly,
 * committed or rolled back, with folds in between), the rollups equal a recomputation from the orders.
 */
const { orders: orderApi, payouts: payoutApi } = endpoints;
let t: TestApp;
let rollups: Rollups;
let superadmin: Auth;
let supplier1: Auth;
let merchant1: Auth;

beforeAll(async () => {
  t = await startTestApp();
  rollups = t.app.services.rollups;
  superadmin = await t.loginWithToken2('superadmin');
  supplier1 = await t.loginWithToken2('supplier1');
  merchant1 = await t.loginWithToken2('merchant1');
  await givePayoutAccounts(t);
});
afterAll(() => t.close());

let n = 0;
async function createOrder(amount: number): Promise<string | null> {
  n += 1;
  const params = {
    mchId: DEMO_MERCHANT_API.mchId,
    productId: '1001',
    mchOrderNo: `ROLL${n}`,
    amount: String(amount),
    notifyUrl: 'http://127.0.0.1:9/notify',
  };
  const res = await t.call(orderApi.create, {
    ...params,
    sign: signParams(params, DEMO_MERCHANT_API.secret, 'HMAC-SHA256'),
  });
  return res.body.code === 200 || res.body.code === Code.allocationFailed ? res.body.data.orderCode : null;
}

async function createPayout(amount: number): Promise<number | null> {
  const res = await t.call(payoutApi.create, signedPayoutRequest({ amount: String(amount) }));
  if (res.body.code !== 200) return null;
  const [row] = await t.database.db.select().from(payouts).where(eq(payouts.orderCode, res.body.data.orderCode));
  return row!.id;
}

async function expectAgreement(): Promise<void> {
  const check = await rollups.check();
  expect(check.differences, JSON.stringify(check.differences.slice(0, 3))).toEqual([]);
  expect(check).toMatchObject({ agree: true, differing: 0 });
}

/** The merchant's figures over every bucket of a direction, folded or not. */
async function merchantFigures(direction: 1 | 2): Promise<{ created: number; successAmount: number; fee: number }> {
  const [row] = rowsOf<{ created: string; success_amount: string; fee: string }>(
    await t.database.db.execute(sql`
      select coalesce(sum(created_count), 0)::text as created, coalesce(sum(success_amount), 0)::text as success_amount,
             coalesce(sum(fee), 0)::text as fee
        from (select direction, merchant_user_id, created_count, success_amount, fee from order_rollups union all
              select direction, merchant_user_id, created_count, success_amount, fee from order_rollup_deltas) r
       where direction = ${direction}
         and merchant_user_id = (select user_id from merchants where merchant_no = ${DEMO_MERCHANT_API.mchId})`),
  );
  return { created: Number(row!.created), successAmount: Number(row!.success_amount), fee: Number(row!.fee) };
}

describe('the rollups', () => {
  it('count an order when it is created and its amount and fee when it is paid, in the same transaction', async () => {
    const before = await merchantFigures(1);
    const code = await createOrder(41_000);
    expect(code).not.toBeNull();
    expect((await merchantFigures(1)).created).toBe(before.created + 1);
    expect((await t.call(orderApi.confirmOrder, { orderCode: code }, superadmin)).body.code).toBe(200);
    const [order] = await t.database.db.select().from(orders).where(eq(orders.orderCode, code!));
    const after = await merchantFigures(1);
    expect(after.successAmount).toBe(before.successAmount + 41_000);
    expect(after.fee).toBe(before.fee + order!.fee);
    // A reversal takes the amount back out of the paid figures.
    expect((await t.call(orderApi.reverseOrder, { orderCode: code }, superadmin)).body.code).toBe(200);
    expect((await merchantFigures(1)).successAmount).toBe(before.successAmount);
    await expectAgreement();
  });

  it('count a payout when it is created, and its fee when it completes', async () => {
    const before = await merchantFigures(2);
    const id = await createPayout(52_000);
    expect(id).not.toBeNull();
    expect((await merchantFigures(2)).created).toBe(before.created + 1);
    expect((await t.call(payoutApi.claimOrder, { orderId: id }, supplier1)).body.code).toBe(200);
    expect((await t.call(payoutApi.submit, { orderId: id, utr: `ROLLUTR${id}` }, supplier1)).body.code).toBe(200);
    expect((await t.call(payoutApi.confirm, { orderId: id }, superadmin)).body.code).toBe(200);
    const [payout] = await t.database.db.select().from(payouts).where(eq(payouts.id, id!));
    expect(payout!.state).toBe(PAYOUT_STATE.completed);
    const after = await merchantFigures(2);
    expect(after.successAmount).toBe(before.successAmount + 52_000);
    expect(after.fee).toBe(before.fee + payout!.fee);
    await expectAgreement();
  });

  it('equal a recomputation after any sequence of the engine’s actions, folded or not (property)', async () => {
    const orderCodes: string[] = [];
    const payoutIds: number[] = [];
    const action = fc.oneof(
      fc.record({ kind: fc.constant('createOrder' as const), amount: fc.integer({ min: 10_000, max: 90_000 }) }),
      fc.record({ kind: fc.constant('createPayout' as const), amount: fc.integer({ min: 10_000, max: 60_000 }) }),
      fc.record({
        kind: fc.constantFrom(
          'confirm' as const,
          'reject' as const,
          'freeResource' as const,
          'reverse' as const,
          'reselect' as const,
          'mark' as const,
        ),
        pick: fc.nat(),
      }),
      fc.record({
        kind: fc.constantFrom('claim' as const, 'cancelClaim' as const, 'cancel' as const, 'staffReject' as const),
        pick: fc.nat(),
      }),
      fc.record({ kind: fc.constant('fold' as const) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 5, maxLength: 14 }), async (steps) => {
        for (const step of steps) {
          if (step.kind === 'fold') await rollups.fold({ batch: 3 });
          else if (step.kind === 'createOrder') {
            const code = await createOrder(step.amount);
            if (code) orderCodes.push(code);
          } else if (step.kind === 'createPayout') {
            const id = await createPayout(step.amount);
            if (id) payoutIds.push(id);
          } else if ('pick' in step && ['claim', 'cancelClaim', 'cancel', 'staffReject'].includes(step.kind)) {
            if (payoutIds.length === 0) continue;
            const orderId = payoutIds[step.pick % payoutIds.length];
            if (step.kind === 'claim') await t.call(payoutApi.claimOrder, { orderId }, supplier1);
            if (step.kind === 'cancelClaim') await t.call(payoutApi.cancelClaim, { orderId }, supplier1);
            if (step.kind === 'cancel') await t.call(payoutApi.cancel, { orderId }, merchant1);
            if (step.kind === 'staffReject') {
              await t.call(payoutApi.reject, { orderId, rejectReason: 'property' }, superadmin);
            }
          } else if ('pick' in step) {
            if (orderCodes.length === 0) continue;
            const orderCode = orderCodes[step.pick % orderCodes.length];
            if (step.kind === 'confirm') await t.call(orderApi.confirmOrder, { orderCode }, superadmin);
            if (step.kind === 'reject') {
              await t.call(orderApi.reject, { orderCode, rejectReason: 'property' }, superadmin);
            }
            if (step.kind === 'freeResource') await t.call(orderApi.freeResource, { orderCode }, superadmin);
            if (step.kind === 'reverse') await t.call(orderApi.reverseOrder, { orderCode }, superadmin);
            if (step.kind === 'reselect') await t.call(orderApi.reselect, { orderCode }, superadmin);
            if (step.kind === 'mark') {
              const [order] = await t.database.db.select().from(orders).where(eq(orders.orderCode, orderCode!));
              await t.call(orderApi.updateOrderMark, { id: order!.id, orderMark: step.pick % 5 }, superadmin);
            }
          }
        }
        await expectAgreement();
      }),
      { numRuns: 6 },
    );
  });

  it('equal a recomputation after any direct change of what they count, committed or rolled back (property)', async () => {
    const ids = rowsOf<{ id: number; kind: string }>(
      await t.database.db.execute(
        sql`select id, 'order' as kind from orders union all select id, 'payout' as kind from payouts order by 2, 1`,
      ),
    );
    const orderIds = ids.filter((r) => r.kind === 'order').map((r) => Number(r.id));
    const payoutIds = ids.filter((r) => r.kind === 'payout').map((r) => Number(r.id));
    expect(orderIds.length).toBeGreaterThan(0);
    expect(payoutIds.length).toBeGreaterThan(0);
    const change = fc.record({
      payout: fc.boolean(),
      pick: fc.nat(),
      state: fc.integer({ min: 0, max: 9 }),
      mark: fc.integer({ min: 0, max: 4 }),
      fee: fc.integer({ min: 0, max: 5_000 }),
      commission: fc.option(fc.integer({ min: 0, max: 3_000 })),
      dropSupplier: fc.boolean(),
      rollBack: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 12 }), fc.boolean(), async (changes, foldFirst) => {
        if (foldFirst) await rollups.fold({ batch: 2 });
        for (const c of changes) {
          const list = c.payout ? payoutIds : orderIds;
          const id = list[c.pick % list.length]!;
          await t.database.db
            .transaction(async (tx) => {
              if (c.payout) {
                // A state the claim rule allows for the row's supplier (else the database refuses: rolled back).
                await tx
                  .update(payouts)
                  .set({ state: c.state, fee: c.fee, commission: c.commission })
                  .where(eq(payouts.id, id));
              } else {
                await tx
                  .update(orders)
                  .set({
                    state: c.state,
                    mark: c.mark,
                    fee: c.fee,
                    commission: c.commission,
                    ...(c.dropSupplier ? { supplierUserId: null } : {}),
                  })
                  .where(eq(orders.id, id));
              }
              if (c.rollBack) tx.rollback();
            })
            .catch(() => undefined);
        }
        await expectAgreement();
      }),
      { numRuns: 10 },
    );
  });

  it('a check names a bucket that differs; a rebuild recomputes them from the orders', async () => {
    await rollups.fold();
    const [bucket] = await t.database.db.select().from(orderRollups).limit(1);
    await t.database.db.execute(
      sql`update order_rollups set success_amount = success_amount + 777
           where hour = ${bucket!.hour} and direction = ${bucket!.direction}
             and merchant_user_id = ${bucket!.merchantUserId} and supplier_user_id = ${bucket!.supplierUserId}
             and product_id = ${bucket!.productId} and mark = ${bucket!.mark} and state = ${bucket!.state}`,
    );
    const check = await rollups.check();
    expect(check).toMatchObject({ agree: false, differing: 1 });
    expect(check.differences[0]).toMatchObject({
      direction: bucket!.direction,
      merchantUserId: bucket!.merchantUserId,
      figures: { success_amount: { held: bucket!.successAmount + 777, recomputed: bucket!.successAmount } },
    });
    expect(await rollups.rebuild()).toBe(check.buckets);
    await expectAgreement();
  });

  it('a check compares every level too, and names the level row that differs; a rebuild mends it', async () => {
    await rollups.fold();
    const [row] = rowsOf<{
      at: string;
      direction: number;
      party_user_id: number;
      product_id: number;
      mark: number;
      state: number;
    }>(
      await t.database.db.execute(sql`
        select at::text, direction, party_user_id, product_id, mark, state from order_rollup_levels
         where level = 4 and party_user_id <> 0 limit 1`),
    );
    await t.database.db.execute(
      sql`update order_rollup_levels set created_count = created_count + 1
           where level = 4 and at = ${row!.at}::timestamp and direction = ${row!.direction}
             and party_user_id = ${row!.party_user_id} and product_id = ${row!.product_id} and mark = ${row!.mark}
             and state = ${row!.state}`,
    );
    const check = await rollups.check();
    expect(check).toMatchObject({ agree: false, differing: 1 });
    expect(check.differences[0]).toMatchObject({
      level: 4,
      merchantUserId: null,
      supplierUserId: row!.party_user_id,
      figures: { created_count: {} },
    });
    await rollups.rebuild();
    await expectAgreement();
  });

  it('fold every change into each level as into the hourly buckets', async () => {
    const code = await createOrder(44_000);
    expect(code).not.toBeNull();
    const levelsOf = async () =>
      rowsOf<{ level: number; created: string }>(
        await t.database.db.execute(sql`
          select level, sum(created_count)::text as created from order_rollup_levels group by level order by level`),
      );
    const before = await levelsOf();
    await rollups.fold();
    const after = await levelsOf();
    // Each level gained the new order once (and whatever else was still unfolded, the same in each).
    const gained = after.map((a, i) => Number(a.created) - Number(before[i]?.created ?? 0));
    expect(gained.length).toBe(9);
    expect(new Set(gained).size).toBe(1);
    expect(gained[0]).toBeGreaterThanOrEqual(1);
    await expectAgreement();
  });

  it('follow the platform time zone: a changed TIME_ZONE rebuilds the hours in it', async () => {
    await rollups.fold();
    expect(await rollups.useTimeZone('Asia/Kolkata')).toBe(false);
    const [kolkata] = await t.database.db.select().from(orderRollups).orderBy(orderRollups.hour).limit(1);
    expect(await rollups.useTimeZone('UTC')).toBe(true);
    await expectAgreement();
    const [utc] = await t.database.db.select().from(orderRollups).orderBy(orderRollups.hour).limit(1);
    expect(utc!.hour).not.toBe(kolkata!.hour);
    expect(await rollups.useTimeZone('Asia/Kolkata')).toBe(true);
    await expectAgreement();
    // New orders land in the time zone's hour.
    const code = await createOrder(43_000);
    const [row] = rowsOf<{ same: boolean }>(
      await t.database.db.execute(sql`
        select exists (select 1 from order_rollup_deltas d join orders o on o.order_code = ${code}
                        where d.hour = date_trunc('hour', o.created_at at time zone 'Asia/Kolkata')) as same`),
    );
    expect(row!.same).toBe(true);
  });
});
