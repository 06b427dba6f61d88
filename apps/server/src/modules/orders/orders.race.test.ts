import { Code, endpoints, ORDER_STATE, PAID_STATES } from '@paydesk/contract';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/raw-rows.js';
import { ledgerTransfers, orders } from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, startTestApp, type TestApp } from '../../testing/harness.js';
import { signParams } from './signature.js';

/**
 * DESIGN section 1: every state change is a compare-and-set in one transaction with its ledger
 * transfer; a lost race answers 409 (also once the winner's state is visible) and changes nothing.
 * Supplement, reject, free resource, timeout and reverse race on the same orders.
 */
const { orders: api, ledger } = endpoints;
let t: TestApp;
let admin: Auth;
let service: Auth;
let superadmin: Auth;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.loginWithToken2('admin');
  service = await t.loginWithToken2('service');
  superadmin = await t.loginWithToken2('superadmin');
});
afterAll(() => t.close());

let n = 0;
async function newOrder(): Promise<string> {
  n += 1;
  const params = {
    mchId: DEMO_MERCHANT_API.mchId,
    productId: '1001',
    mchOrderNo: `RACE${n}`,
    amount: String(20_000 + n),
  };
  const res = await t.call(api.create, {
    ...params,
    sign: signParams(params, DEMO_MERCHANT_API.secret, 'HMAC-SHA256'),
  });
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data.orderCode;
}

describe('racing actions on the same orders', () => {
  it('every order ends in exactly one state, losers change nothing, and the ledger stays consistent', async () => {
    const codes: string[] = [];
    for (let i = 0; i < 12; i += 1) codes.push(await newOrder());
    // Half of them are past their time, so the timeout job races too.
    await t.database.db
      .update(orders)
      .set({ expiresAt: new Date(t.clock.now().getTime() - 1000) })
      .where(
        inArray(
          orders.orderCode,
          codes.filter((_, i) => i % 2 === 0),
        ),
      );

    const [answers] = await Promise.all([
      Promise.all(
        codes.flatMap((orderCode, i) => [
          t.call(api.replenishmentOrder, { orderCode, utr: `RACEUTR${String(i).padStart(6, '0')}` }, service),
          t.call(api.reject, { orderCode, rejectReason: 'race' }, admin),
          t.call(api.freeResource, { orderCode }, admin),
          t.call(api.reselect, { orderCode }, service),
        ]),
      ),
      t.app.services.orders.expireDue(),
    ]);
    if (process.env.RACE_DEBUG) console.log(answers.map((a) => a.body.code).join(','));
    // Two reversals race on whichever got paid.
    const paid = (await t.database.db.select().from(orders).where(inArray(orders.orderCode, codes))).filter((o) =>
      (PAID_STATES as readonly number[]).includes(o.state),
    );
    const second = await Promise.all(
      paid.flatMap((o) => [
        t.call(api.reverseOrder, { orderCode: o.orderCode }, superadmin),
        t.call(api.reverseOrder, { orderCode: o.orderCode }, superadmin),
      ]),
    );

    for (const res of [...answers, ...second]) {
      // Winners 200; losers 409 'someone else acted first', whether they lost inside the lock or read the
      // order after the winner's commit (DESIGN section 1). One refusal is a rule of the state the
      // timeout job left: a timed-out order may not be supplemented (CanTimeoutSupplement off).
      const timeoutRule = res.body.code === Code.businessRule && res.body.data?.reason === 'timeoutSupplementOff';
      if (!timeoutRule) expect([Code.success, Code.conflict], JSON.stringify(res.body)).toContain(res.body.code);
      if (res.body.code === Code.conflict) expect(res.status).toBe(409);
    }
    // Each paid order was reversed exactly once.
    expect(second.filter((r) => r.body.code === Code.success)).toHaveLength(paid.length);

    const rows = await t.database.db.select().from(orders).where(inArray(orders.orderCode, codes));
    for (const o of rows) {
      expect([ORDER_STATE.allocated, ORDER_STATE.timedOut, ORDER_STATE.rejected, ORDER_STATE.reversed]).toContain(
        o.state,
      );
      // No hold stays open once an order is over.
      if (o.state !== ORDER_STATE.allocated) expect(o.holdOpen).toBe(false);
      const transfers = await t.database.db
        .select({ key: ledgerTransfers.idempotencyKey })
        .from(ledgerTransfers)
        .where(eq(ledgerTransfers.orderCode, o.orderCode));
      const keys = transfers.map((x) => x.key);
      const holds = keys.filter((k) => k.includes(':hold:')).length;
      const releases = keys.filter((k) => k.includes(':release:') || k.endsWith(':reverse-release')).length;
      // Every hold is released unless the order still holds its account.
      expect(holds - releases).toBe(o.state === ORDER_STATE.allocated ? 1 : 0);
      expect(keys.filter((k) => k.endsWith(':pay')).length).toBeLessThanOrEqual(1);
    }
    const check = await t.call(ledger.ledgerCheck, {}, superadmin);
    expect(check.body.data).toEqual({ ok: true, violations: [] });
    const [row] = rowsOf<{ open: number }>(
      await t.database.db.execute(sql`select count(*)::int as open from orders where state = 1 and hold_open = false`),
    );
    expect(row?.open).toBe(0);
  });
});

describe('racing creates', () => {
  it('concurrent creates all end allocated or allocation failed: one open order per amount and account, holds balanced', async () => {
    const params = (no: string, amount: number) => {
      const p = { mchId: DEMO_MERCHANT_API.mchId, productId: '1001', mchOrderNo: no, amount: String(amount) };
      return { ...p, sign: signParams(p, DEMO_MERCHANT_API.secret, 'HMAC-SHA256') };
    };
    // 16 creates at once: 12 of distinct amounts, and 4 of one amount (at most one per account).
    const answers = await Promise.all([
      ...Array.from({ length: 12 }, (_, i) => t.call(api.create, params(`BURST${i}`, 40_000 + i))),
      ...Array.from({ length: 4 }, (_, i) => t.call(api.create, params(`SAME${i}`, 45_678))),
    ]);
    const codes = answers.map((a) => a.body.code);
    expect(codes.slice(0, 12), JSON.stringify(answers.map((a) => a.body))).toEqual(Array(12).fill(Code.success));
    for (const code of codes.slice(12)) expect([Code.success, Code.allocationFailed]).toContain(code);

    const made = answers.map((a) => a.body.data.orderCode as string);
    const rows = await t.database.db.select().from(orders).where(inArray(orders.orderCode, made));
    expect(rows).toHaveLength(16);
    const same = rows.filter((o) => o.amount === 45_678 && o.state === ORDER_STATE.allocated);
    expect(new Set(same.map((o) => o.resourceId)).size).toBe(same.length);
    expect(same.length).toBe(codes.slice(12).filter((c) => c === Code.success).length);
    for (const o of rows) {
      const holds = await t.database.db
        .select({ key: ledgerTransfers.idempotencyKey })
        .from(ledgerTransfers)
        .where(eq(ledgerTransfers.orderCode, o.orderCode));
      expect(holds.length).toBe(o.state === ORDER_STATE.allocated ? 1 : 0);
    }
    const check = await t.call(ledger.ledgerCheck, {}, superadmin);
    expect(check.body.data).toEqual({ ok: true, violations: [] });
  });
});
