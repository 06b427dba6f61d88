import { Code, codeCatalogue } from '@paydesk/contract';
import { describe, expect, it, vi } from 'vitest';
import type { AppError } from '../../platform/errors.js';
import { ipAllowed } from '../../platform/ip-list.js';
import { signed } from '../../testing/merchant-api.js';
import type { SigningSecret } from './merchants.service.js';
import { checkSignedCall, type SignedCallSources, SignedCalls } from './signed-call.js';

/** The signed-call checks alone, with what they read given by the test (no database). */

const SECRET = 'demo-secret-merchant1';
const merchant1: SigningSecret = {
  merchantId: 7,
  merchantNo: '10001',
  secret: SECRET,
  signType: 'HMAC-SHA256',
  enabled: true,
  ipWhitelist: [],
};
const call = (over: Record<string, string> = {}) => signed({ mchId: '10001', mchOrderNo: 'A1', ...over });

function sources(signing: SigningSecret | null = merchant1, open = true) {
  return {
    serviceOpen: vi.fn(async () => open),
    signingOf: vi.fn(async (_merchantNo: string) => signing),
  } satisfies SignedCallSources;
}

/** The refusal `checkSignedCall` throws, as code and message. */
async function refusal(params: Parameters<typeof checkSignedCall>[0], ip: string, from: SignedCallSources) {
  const error = (await checkSignedCall(params, ip, from).then(
    () => null,
    (e: unknown) => e,
  )) as AppError | null;
  return error && { code: error.code, msg: error.message };
}
const plain = (code: keyof typeof Code) => ({ code: Code[code], msg: codeCatalogue[Code[code]].message });

describe('ipAllowed', () => {
  it('lets any address in when the whitelist is empty', () => {
    expect(ipAllowed([], '203.0.113.7')).toBe(true);
    expect(ipAllowed([], '::1')).toBe(true);
  });

  it('matches addresses and ranges of both families', () => {
    const list = ['203.0.113.7', '198.51.100.0/24', '2001:db8::/48'];
    expect(ipAllowed(list, '203.0.113.7')).toBe(true);
    expect(ipAllowed(list, '203.0.113.8')).toBe(false);
    expect(ipAllowed(list, '198.51.100.200')).toBe(true);
    expect(ipAllowed(list, '198.51.101.1')).toBe(false);
    expect(ipAllowed(list, '2001:db8:0:ffff::1')).toBe(true);
    expect(ipAllowed(list, '2001:db9::1')).toBe(false);
  });

  it('takes an IPv4 caller seen through a dual-stack socket (::ffff:a.b.c.d) as its IPv4 address', () => {
    expect(ipAllowed(['198.51.100.0/24'], '::ffff:198.51.100.9')).toBe(true);
    expect(ipAllowed(['198.51.100.0/24'], '::ffff:198.51.101.9')).toBe(false);
  });

  it('refuses what is not an address when a whitelist is set', () => {
    expect(ipAllowed(['203.0.113.7'], '')).toBe(false);
    expect(ipAllowed(['203.0.113.7'], 'localhost')).toBe(false);
  });
});

describe('checkSignedCall', () => {
  it('answers the merchant of a well-signed call, read by its mchId', async () => {
    const from = sources();
    expect(await checkSignedCall(call(), '203.0.113.7', from)).toEqual({ merchantId: 7, merchantNo: '10001' });
    expect(from.signingOf).toHaveBeenCalledWith('10001');
    // A signType that is the merchant's is signed and accepted; MD5 merchants verify by MD5.
    expect(await checkSignedCall(call({ signType: 'HMAC-SHA256' }), '::1', from)).toMatchObject({ merchantId: 7 });
    const md5 = sources({ ...merchant1, signType: 'MD5' });
    const md5Call = signed({ mchId: '10001', signType: 'MD5' }, 'MD5');
    expect(await checkSignedCall(md5Call, '::1', md5)).toMatchObject({ merchantId: 7 });
  });

  it('checks in the documented order: service, merchant, IP, signType, signature', async () => {
    const forged = { ...call(), sign: 'A'.repeat(64) };
    const elsewhere = { ...merchant1, ipWhitelist: ['192.0.2.0/24'] };
    // Service closed: 2011 before anything is read, whatever else is wrong.
    const closed = sources(null, false);
    expect(await refusal(forged, '203.0.113.7', closed)).toEqual(plain('serviceClosed'));
    expect(closed.signingOf).not.toHaveBeenCalled();
    // Unknown or disabled merchant: 2002, before the address and the signature.
    expect(await refusal(forged, '203.0.113.7', sources(null))).toEqual(plain('merchantUnavailable'));
    const disabled = { ...elsewhere, enabled: false };
    expect(await refusal(forged, '203.0.113.7', sources(disabled))).toEqual(plain('merchantUnavailable'));
    // Outside the whitelist: 2003 even for a forged signature (a forger learns nothing of the secret).
    expect(await refusal(forged, '203.0.113.7', sources(elsewhere))).toEqual(plain('ipNotWhitelisted'));
    expect(await refusal(call(), '203.0.113.7', sources(elsewhere))).toEqual(plain('ipNotWhitelisted'));
    expect(await checkSignedCall(call(), '192.0.2.9', sources(elsewhere))).toMatchObject({ merchantId: 7 });
    // Inside it: the signature decides.
    expect(await refusal(forged, '192.0.2.9', sources(elsewhere))).toEqual(plain('badSignature'));
  });

  it('refuses a signature made with another secret, or over other parameters', async () => {
    const from = sources();
    expect(await refusal(signed({ mchId: '10001' }, 'HMAC-SHA256', 'other'), '::1', from)).toEqual(
      plain('badSignature'),
    );
    expect(await refusal({ ...call(), mchOrderNo: 'A2' }, '::1', from)).toEqual(plain('badSignature'));
  });

  it('refuses a signType that is not the merchant’s: plainly only to a caller who holds the secret', async () => {
    const from = sources();
    expect(await refusal(signed({ mchId: '10001', signType: 'MD5' }, 'MD5'), '::1', from)).toEqual({
      code: Code.badSignature,
      msg: 'signType MD5 is not this merchant’s signature type (HMAC-SHA256)',
    });
    expect(await refusal(signed({ mchId: '10001', signType: 'MD5' }, 'MD5', 'guess'), '::1', from)).toEqual(
      plain('badSignature'),
    );
  });
});

describe('SignedCalls', () => {
  it('reads the merchant by its number through the merchants service, and the switch each call', async () => {
    let open = true;
    const merchants = { signingSecretOf: vi.fn(async (_db: unknown, _no: string) => merchant1) };
    const db = {} as never;
    const calls = new SignedCalls({ db, merchants, serviceOpen: async () => open });
    expect(await calls.check(call(), '::1')).toEqual({ merchantId: 7, merchantNo: '10001' });
    expect(merchants.signingSecretOf).toHaveBeenCalledWith(db, '10001');
    open = false;
    await expect(calls.check(call(), '::1')).rejects.toMatchObject({ code: Code.serviceClosed });
    expect(merchants.signingSecretOf).toHaveBeenCalledTimes(1);
  });
});
