import { hmac } from '@noble/hashes/hmac.js';
import { md5 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { productById, type SignType, signingString } from '@paydesk/contract';

/**
 * The merchant API signature as a merchant computes it (DESIGN section 6), in the browser: the
 * contract's signing string (every non-empty parameter but `sign`, sorted by name, '%', '&' and '='
 * escaped, `k=v` joined with `&`, then `&key=<secret>`), signed with HMAC-SHA256 keyed by the secret (Web Crypto; @noble/hashes
 * where the page is not a secure context and `crypto.subtle` is absent), or its MD5 for merchants on
 * the legacy scheme; upper-case hex either way.
 */
export async function signRequest(
  params: Readonly<Record<string, string>>,
  secret: string,
  signType: SignType,
): Promise<string> {
  const text = signingString(params, secret);
  if (signType === 'MD5') return bytesToHex(md5(utf8ToBytes(text))).toUpperCase();
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return bytesToHex(hmac(sha256, utf8ToBytes(secret), utf8ToBytes(text))).toUpperCase();
  const encoder = new TextEncoder();
  const key = await subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return bytesToHex(new Uint8Array(await subtle.sign('HMAC', key, encoder.encode(text)))).toUpperCase();
}

/** What the page shows of the signing string: the secret replaced by this mask. */
export const SECRET_MASK = '********';
export const maskedSigningString = (params: Readonly<Record<string, string>>) => signingString(params, SECRET_MASK);

/** How many API units one major unit is: 100, or 10000 for product 1045 (spec section 7). */
export function apiUnitsPerMajor(productId: number): number {
  return 100 * (productById(productId)?.apiUnitsPerMinor ?? 1);
}

/**
 * An amount typed in major units ('1,234.5') as the API's integer text in the product's units
 * ('123450', or '12345000' for 1045), computed on the digits (never through a float); null when it is
 * not a positive number with at most as many decimals as the units allow.
 */
export function apiAmountOf(text: string | undefined, productId: number): string | null {
  const units = apiUnitsPerMajor(productId);
  const decimals = String(units).length - 1;
  const m = /^(\d{1,14})(?:\.(\d+))?$/.exec((text ?? '').replace(/[,\s]/g, ''));
  if (!m || (m[2] ?? '').length > decimals) return null;
  const value = BigInt(m[1]!) * BigInt(units) + BigInt((m[2] ?? '').padEnd(decimals, '0') || '0');
  return value > 0n ? value.toString() : null;
}

/** The parameters of a create request: the given fields, trimmed, without the empty ones. */
export function requestParams(fields: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) {
    const text = (v ?? '').trim();
    if (text !== '') out[k] = text;
  }
  return out;
}

/** A fresh merchant order number: 'T', the local date and time, and 4 random digits. */
export function newMchOrderNo(now = new Date()): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${two(now.getMonth() + 1)}${two(now.getDate())}${two(now.getHours())}${two(now.getMinutes())}${two(now.getSeconds())}`;
  return `T${stamp}${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
}

/** The body of the request as sent: JSON, or form-encoded (`k=v&...` with URL encoding). */
export function requestBody(params: Readonly<Record<string, string>>, format: 'json' | 'form'): string {
  return format === 'json' ? JSON.stringify(params) : new URLSearchParams(params).toString();
}
