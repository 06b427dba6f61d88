import { Code, codeCatalogue, endpoints, MERCHANT_API_TEXTS } from '@paydesk/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchants, orders } from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { snapshot, startTestApp, type TestApp } from '../../testing/harness.js';
import { signed } from '../../testing/merchant-api.js';

/**
 * Issue 17, the merchant API as an attacker found it: a signature reused for another parameter set
 * (a value holding '&' and '='), `signType` refused as unknown, clientIp '999.999.1.1' accepted.
 */
const { orders: api } = endpoints;
let t: TestApp;
let merchantId = 0;

beforeAll(async () => {
  t = await startTestApp();
  const [m] = await t.database.db.select().from(merchants).where(eq(merchants.merchantNo, DEMO_MERCHANT_API.mchId));
  merchantId = m!.id;
});
afterAll(() => t.close());

const setSignType = (signType: 'HMAC-SHA256' | 'MD5') =>
  t.database.db.update(merchants).set({ signType }).where(eq(merchants.id, merchantId));

let n = 0;
/** Merchant1's parameters for a new order (not signed). */
function params(over: Record<string, string> = {}): Record<string, string> {
  n += 1;
  return {
    mchId: DEMO_MERCHANT_API.mchId,
    productId: '1001',
    mchOrderNo: `MAPI${n}`,
    amount: String(30_000 + n),
    ...over,
  };
}
const badSignatureText = codeCatalogue[Code.badSignature].message;

describe('the signing string is unambiguous', () => {
  it('a signature made for one parameter set does not pass for another that joined to the same string', async () => {
    // The merchant signs an order whose subject holds '&' and '=' (text its customer typed).
    const signedByMerchant = signed(params({ subject: 'Top-up&userName=Eve' }));
    // Joined raw, {subject: 'Top-up', userName: 'Eve'} gave the same string: the attacker reuses the signature.
    const { subject: _s, ...rest } = signedByMerchant;
    const forged = { ...rest, subject: 'Top-up', userName: 'Eve' };
    const before = await snapshot(t.database);
    const res = await t.call(api.create, forged);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: Code.badSignature, msg: badSignatureText });
    expect(await snapshot(t.database)).toBe(before);
    // The merchant's own request verifies, its subject kept as sent.
    const honest = await t.call(api.create, signedByMerchant);
    expect(honest.body.code, JSON.stringify(honest.body)).toBe(200);
    const [order] = await t.database.db.select().from(orders).where(eq(orders.orderCode, honest.body.data.orderCode));
    expect(order).toMatchObject({ subject: 'Top-up&userName=Eve', userName: null });
  });

  it('a notify URL with a query string signs and verifies (escaped in the signing string only)', async () => {
    const p = params({ notifyUrl: 'https://merchant.example/notify?shop=7&lang=en' });
    const res = await t.call(api.create, signed(p));
    expect(res.body.code, JSON.stringify(res.body)).toBe(200);
    const [order] = await t.database.db.select().from(orders).where(eq(orders.orderCode, res.body.data.orderCode));
    expect(order!.notifyUrl).toBe('https://merchant.example/notify?shop=7&lang=en');
  });

  it('a legacy MD5 merchant’s ordinary request still verifies: signatures computed before the change', async () => {
    // Known answers computed on main at bf5b304, before the escaping existed (no value holds %, & or =).
    const ordinary = {
      mchId: '10001',
      productId: '1001',
      mchOrderNo: 'LEGACY-MD5-0001',
      amount: '54321',
      notifyUrl: 'https://shop.example/pay/notify',
      returnUrl: 'https://shop.example/thanks',
      subject: 'Order 42: 2 items',
      clientIp: '203.0.113.7',
      extra: '{"cart":"42","channel":"web"}',
      userName: 'Asha Rao',
    };
    await setSignType('MD5');
    try {
      const md5 = await t.call(api.create, { ...ordinary, sign: '258087264E65E377551ACBBD402EA37E' });
      expect(md5.body.code, JSON.stringify(md5.body)).toBe(200);
      // Lower-case hex, as some legacy integrations send it, too.
      const lower = await t.call(api.create, { ...ordinary, sign: '258087264e65e377551acbbd402ea37e' });
      expect(lower.body.data.orderCode).toBe(md5.body.data.orderCode);
      await setSignType('HMAC-SHA256');
      // The same request signed with HMAC-SHA256 before the change: the same order again.
      const hmac = await t.call(api.create, {
        ...ordinary,
        sign: '7843FD2E54BE18E826ECDEF8D2731D4F29D55847C686AC85E4B4B214AEE14B50',
      });
      expect(hmac.body.code, JSON.stringify(hmac.body)).toBe(200);
      expect(hmac.body.data.orderCode).toBe(md5.body.data.orderCode);
    } finally {
      await setSignType('HMAC-SHA256');
    }
  });
});

describe('signType', () => {
  it('is accepted when it is the merchant’s type, and is covered by the signature', async () => {
    const p = params({ signType: 'HMAC-SHA256' });
    const ok = await t.call(api.create, signed(p));
    expect(ok.body.code, JSON.stringify(ok.body)).toBe(200);
    // Sent but not signed, or signed but dropped on the way: the signature no longer matches.
    const q = params();
    const added = await t.call(api.create, { ...signed(q), signType: 'HMAC-SHA256' });
    expect(added.body).toMatchObject({ code: Code.badSignature, msg: badSignatureText });
    const { signType: _t, ...dropped } = signed(params({ signType: 'HMAC-SHA256' }));
    expect((await t.call(api.create, dropped)).body.code).toBe(Code.badSignature);
  });

  it('does not change what was ordered: the same order with and without it is the same order', async () => {
    const p = params();
    const first = await t.call(api.create, signed(p));
    const again = await t.call(api.create, signed({ ...p, signType: 'HMAC-SHA256' }));
    expect(again.body.code, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data.orderCode).toBe(first.body.data.orderCode);
  });

  it('is refused (2001) when it is not the merchant’s type, plainly only to a caller who holds the secret', async () => {
    const before = await snapshot(t.database);
    // Signed correctly under MD5, which the merchant (HMAC-SHA256) does not use.
    const md5 = await t.call(api.create, signed(params({ signType: 'MD5' }), 'MD5'));
    expect(md5.status).toBe(403);
    expect(md5.body).toMatchObject({
      code: Code.badSignature,
      msg: 'signType MD5 is not this merchant’s signature type (HMAC-SHA256)',
    });
    // Without the secret: the plain refusal, which tells nothing of the merchant's type.
    const guess = await t.call(api.create, signed(params({ signType: 'MD5' }), 'MD5', 'not-the-secret'));
    expect(guess.body).toMatchObject({ code: Code.badSignature, msg: badSignatureText });
    expect(await snapshot(t.database)).toBe(before);
  });

  it('MD5 merchants send signType MD5; any other value is 400', async () => {
    await setSignType('MD5');
    try {
      const ok = await t.call(api.create, signed(params({ signType: 'MD5' }), 'MD5'));
      expect(ok.body.code, JSON.stringify(ok.body)).toBe(200);
      const hmac = await t.call(api.create, signed(params({ signType: 'HMAC-SHA256' })));
      expect(hmac.body.msg).toBe('signType HMAC-SHA256 is not this merchant’s signature type (MD5)');
    } finally {
      await setSignType('HMAC-SHA256');
    }
    const other = await t.call(api.create, signed(params({ signType: 'SHA1' })));
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({ code: Code.invalidInput, msg: `signType: ${MERCHANT_API_TEXTS.signType}` });
  });
});

describe('clientIp', () => {
  it('refuses 999.999.1.1 with 400 and says why; keeps nothing', async () => {
    const before = await snapshot(t.database);
    const res = await t.call(api.create, signed(params({ clientIp: '999.999.1.1' })));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: Code.invalidInput,
      msg: `clientIp: ${MERCHANT_API_TEXTS.clientIp}`,
      data: { issues: [{ path: 'clientIp', message: MERCHANT_API_TEXTS.clientIp }] },
    });
    expect(await snapshot(t.database)).toBe(before);
  });

  it('accepts ::1 and 203.0.113.7 and keeps them on the order', async () => {
    for (const clientIp of ['::1', '203.0.113.7']) {
      const res = await t.call(api.create, signed(params({ clientIp })));
      expect(res.body.code, JSON.stringify(res.body)).toBe(200);
      const [order] = await t.database.db.select().from(orders).where(eq(orders.orderCode, res.body.data.orderCode));
      expect(order!.clientIp).toBe(clientIp);
    }
  });
});
