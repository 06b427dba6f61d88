import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { type SignType, signingString } from '@paydesk/contract';

/**
 * The merchant API signature (DESIGN section 6): HMAC-SHA256 keyed by the secret over the signing
 * string (the default), or the MD5 of the signing string (legacy); upper-case hex either way. The
 * signing string is the contract's (`signingString`: '%', '&' and '=' escaped, so it is unambiguous).
 */
export function signParams(params: Readonly<Record<string, unknown>>, secret: string, signType: SignType): string {
  const text = signingString(params, secret);
  const digest =
    signType === 'MD5'
      ? createHash('md5').update(text, 'utf8').digest('hex')
      : createHmac('sha256', secret).update(text, 'utf8').digest('hex');
  return digest.toUpperCase();
}

/** Constant-time comparison of the sent signature with the expected one (case-insensitive hex). */
export function signatureMatches(
  params: Readonly<Record<string, unknown>>,
  secret: string,
  signType: SignType,
): boolean {
  const sent = Buffer.from(String(params.sign ?? '').toUpperCase(), 'utf8');
  const expected = Buffer.from(signParams(params, secret, signType), 'utf8');
  // Lengths differ only when the sender used the other scheme's length: no secret is revealed by it.
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}
