import { signParams } from '../modules/orders/signature.js';
import { DEMO_MERCHANT_API } from '../seed/demo-merchants.js';

/**
 * `params` as a merchant's server sends them on a signed call: with `sign` over them, by demo
 * merchant1's secret and HMAC-SHA256 unless told otherwise.
 */
export function signed<T extends Record<string, string>>(
  params: T,
  signType: 'HMAC-SHA256' | 'MD5' = 'HMAC-SHA256',
  secret: string = DEMO_MERCHANT_API.secret,
): T & { sign: string } {
  return { ...params, sign: signParams(params, secret, signType) };
}
