import { Code, endpoints } from '@paydesk/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, startTestApp, type TestApp } from '../../testing/harness.js';
import { counted } from '../../testing/statement-count.js';
import { revenueAccountCode } from '../ledger/accounts.js';
import { signParams } from './signature.js';

/**
 * What one payment confirmation costs the database (issue 19): its statements are its round trips
 * on PostgreSQL, the cost that bounds the payment cycle (docs/scaling.md). 15 before the work on
 * them; a change that adds one fails here and should say why in docs/scaling.md.
 */
const { orders: api } = endpoints;
let t: TestApp;
let admin: Auth;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.loginWithToken2('admin');
});
afterAll(() => t.close());

let n = 0;
async function newOrder(): Promise<string> {
  n += 1;
  const params = {
    mchId: DEMO_MERCHANT_API.mchId,
    productId: '1001',
    mchOrderNo: `COST${n}`,
    amount: String(20_000 + n),
    // The common case: the merchant is notified (this app runs no jobs, so nothing is sent).
    notifyUrl: 'http://127.0.0.1:9/notify',
  };
  const res = await t.call(api.create, {
    ...params,
    sign: signParams(params, DEMO_MERCHANT_API.secret, 'HMAC-SHA256'),
  });
  expect(res.body.code, JSON.stringify(res.body)).toBe(Code.success);
  return res.body.data.orderCode;
}

describe('a confirmation’s round trips', () => {
  it('are 9 besides the session: order, begin, lock with the commission rates, pay with the daily totals, callback, ledger (2), audit, commit', async () => {
    for (let i = 0; i < 3; i += 1) {
      const orderCode = await newOrder();
      const [order] = await t.database.db.select().from(orders).where(eq(orders.orderCode, orderCode));
      // The order's revenue shard exists already, as it does on a platform past its first payments.
      await t.database.db.transaction((tx) => t.app.services.ledger.ensureAccount(tx, revenueAccountCode(orderCode)));
      const counting = await counted(() => t.call(api.confirmOrder, { orderCode }, admin));
      expect(counting.result.body.code, JSON.stringify(counting.result.body)).toBe(Code.success);
      // The session's lookup is mostly answered by the process's cache (platform/sessions.ts), and
      // read from the database when the cache has not seen it for a few seconds: not counted here.
      const statements = counting.statements.filter((text) => !/from "sessions"/.test(text));
      expect(counting.statements.length - statements.length).toBeLessThanOrEqual(1);
      // An agent's order also reads the agent's parent after the commit, to tell its console.
      expect(statements, statements.join('\n')).toHaveLength(order!.isProxy ? 10 : 9);
      expect(statements.filter((s) => s === 'begin' || /^\s*begin/i.test(s))).toHaveLength(1);
    }
  });
});
