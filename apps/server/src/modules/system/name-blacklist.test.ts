import { Code, endpoints, normalizeBlacklistName } from '@paydesk/contract';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, snapshot, startTestApp, type TestApp } from '../../testing/harness.js';
import { signedPayoutRequest } from '../../testing/payout-fixtures.js';
import { signParams } from '../orders/signature.js';

/**
 * The name blacklist (issue 21 item 6): payer names refused at collection create (2016), payee names
 * at payout create (2017), whatever their case and spacing; nothing is written for a refused create.
 */
const { nameBlacklist: api, orders: orderApi, payouts: payoutApi } = endpoints;
let t: TestApp;
let service: Auth;

beforeAll(async () => {
  t = await startTestApp();
  service = await t.loginWithToken2('service');
});
afterAll(() => t.close());

let n = 0;
function collection(userName?: string) {
  n += 1;
  const p: Record<string, string> = {
    mchId: DEMO_MERCHANT_API.mchId,
    productId: '1001',
    mchOrderNo: `BL${n}`,
    amount: '50000',
    ...(userName ? { userName } : {}),
  };
  return t.call(orderApi.create, { ...p, sign: signParams(p, DEMO_MERCHANT_API.secret, 'HMAC-SHA256') });
}
function payout(userName: string) {
  n += 1;
  const p = signedPayoutRequest({ mchOrderNo: `BLP${n}`, userName });
  return t.call(payoutApi.create, p);
}

describe('name blacklist', () => {
  it('folds case and spaces', () => {
    expect(normalizeBlacklistName('  John   FRAUD ')).toBe('john fraud');
  });

  it('refuses a blacklisted payer at collection create and a payee at payout create, changing nothing', async () => {
    const payer = await t.call(
      api.addBlacklistName,
      { name: 'Ravi  Kumar', kind: 'payer', remark: 'chargebacks' },
      service,
    );
    expect(payer.body).toMatchObject({ code: 200, data: { name: 'Ravi Kumar', kind: 'payer', createdBy: 'service' } });
    const payee = await t.call(api.addBlacklistName, { name: 'Mule Account', kind: 'payee', remark: null }, service);
    expect(payee.body.code).toBe(200);
    expect((await t.call(api.addBlacklistName, { name: 'ravi kumar', kind: 'both' }, service)).status).toBe(409);

    let before = await snapshot(t.database);
    const refused = await collection('RAVI kumar');
    expect(refused.body.code).toBe(Code.payerNameBlocked);
    expect(await snapshot(t.database)).toBe(before);
    // A payee-only name is no payer's, and an order without a name is not checked.
    expect((await collection('Mule Account')).body.code).toBe(200);
    expect((await collection()).body.code).toBe(200);

    before = await snapshot(t.database);
    const refusedPayout = await payout(' mule   account');
    expect(refusedPayout.body.code).toBe(Code.payeeNameBlocked);
    expect(await snapshot(t.database)).toBe(before);
    expect((await payout('Ravi Kumar')).body.code).toBe(200);

    // Removed: the payer is served again; the removal is audited.
    expect((await t.call(api.deleteBlacklistName, { id: payer.body.data.id }, service)).body.code).toBe(200);
    expect((await collection('Ravi Kumar')).body.code).toBe(200);
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'nameBlacklist.delete'))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(audit).toMatchObject({ account: 'service', before: { name: 'Ravi Kumar', kind: 'payer' } });
  });

  it('lists with filters for its readers; technical maintenance only reads', async () => {
    const list = await t.call(api.getBlacklist, { pageIndex: 1, kind: 'payee' }, service);
    expect(list.body.data.list.map((r: { name: string }) => r.name)).toEqual(['Mule Account']);
    const maintenance = await t.loginWithToken2('maintenance');
    expect((await t.call(api.getBlacklist, { pageIndex: 1 }, maintenance)).body.code).toBe(200);
    expect((await t.call(api.addBlacklistName, { name: 'X', kind: 'both' }, maintenance)).status).toBe(403);
    expect((await t.call(api.getBlacklist, { pageIndex: 1 }, await t.login('merchant1'))).status).toBe(403);
  });
});
