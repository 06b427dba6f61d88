import { Code, endpoints } from '@paydesk/contract';
import { inArray } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, startTestApp, type TestApp } from '../../testing/harness.js';
import { REVENUE_SHARDS, revenueAccountCode } from '../ledger/accounts.js';
import { signParams } from './signature.js';

/**
 * The platform's revenue spread over shard accounts (issue 19, DESIGN section 5): whatever payments
 * and reversals happen, concurrently, the shards sum to what one revenue account would hold, each
 * order's money meets one shard both ways, and the ledger stays whole.
 */
const { orders: api } = endpoints;
let t: TestApp;
let superadmin: Auth;
const owners = new Map<string, Auth>();

beforeAll(async () => {
  t = await startTestApp();
  superadmin = await t.loginWithToken2('superadmin');
  owners.set('supplier1', await t.login('supplier1'));
  owners.set('agent1', await t.login('agent1'));
});
afterAll(() => t.close());

let n = 0;
async function newOrder(): Promise<string> {
  n += 1;
  const params = {
    mchId: DEMO_MERCHANT_API.mchId,
    productId: '1001',
    mchOrderNo: `SHARD${n}`,
    amount: String(30_000 + n),
  };
  const res = await t.call(api.create, {
    ...params,
    sign: signParams(params, DEMO_MERCHANT_API.secret, 'HMAC-SHA256'),
  });
  expect(res.body.code, JSON.stringify(res.body)).toBe(Code.success);
  return res.body.data.orderCode;
}

/** What one revenue account would hold from these orders: fee less commission of each paid, unreversed one. */
async function expectedShare(codes: string[]): Promise<number> {
  const rows = await t.database.db
    .select({ state: orders.state, fee: orders.fee, commission: orders.commission })
    .from(orders)
    .where(inArray(orders.orderCode, codes));
  return rows
    .filter((r) => r.state === 3 || r.state === 6 || r.state === 9 || r.state === 4)
    .reduce((sum, r) => sum + r.fee - (r.commission ?? 0), 0);
}

describe('revenue shards', () => {
  it('sum to what one revenue account would hold after random concurrent payments and reversals', async () => {
    const shardsUsed = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ pay: fc.boolean(), reverse: fc.boolean() }), { minLength: 2, maxLength: 8 }),
        async (plan) => {
          const before = await t.app.services.ledger.revenue(t.database.db);
          const codes = await Promise.all(plan.map(() => newOrder()));
          const supplierOf = async (code: string) => {
            const [row] = await t.database.db
              .select({ isProxy: orders.isProxy })
              .from(orders)
              .where(inArray(orders.orderCode, [code]));
            return owners.get(row?.isProxy ? 'agent1' : 'supplier1')!;
          };
          // Payments at once, then reversals of some of the paid ones at once.
          await Promise.all(
            codes.map(async (orderCode, i) => {
              if (!plan[i]!.pay) return;
              const res = await t.call(api.confirmOrder, { orderCode }, await supplierOf(orderCode));
              expect(res.body.code, JSON.stringify(res.body)).toBe(Code.success);
              shardsUsed.add(revenueAccountCode(orderCode));
            }),
          );
          await Promise.all(
            codes.map(async (orderCode, i) => {
              if (!plan[i]!.pay || !plan[i]!.reverse) return;
              const res = await t.call(api.reverseOrder, { orderCode }, superadmin);
              expect(res.body.code, JSON.stringify(res.body)).toBe(Code.success);
            }),
          );
          const after = await t.app.services.ledger.revenue(t.database.db);
          expect(after - before).toBe(await expectedShare(codes));
          expect(await t.app.services.ledger.check()).toEqual({ ok: true, violations: [] });
        },
      ),
      { numRuns: 6 },
    );
    // More than one shard took money, and none of it went to the unspread account.
    expect(shardsUsed.size).toBeGreaterThan(1);
    expect(REVENUE_SHARDS).toBeGreaterThan(1);
    expect(await t.app.services.ledger.balanceOf(t.database.db, 'platform:revenue')).toBe(0);
  });
});
