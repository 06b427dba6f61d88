import { z } from 'zod';
import { MAX_MONEY_MINOR } from '../common/money.js';

/**
 * The merchant API's order request (spec section 3) and its signature (DESIGN section 6). Values
 * arrive as JSON (strings or numbers) or form-encoded (strings); the schema never transforms them,
 * so the server signs exactly what the merchant sent.
 */

/** Where the server serves the merchant integration guide (docs/merchant-api.md) as a page. */
export const MERCHANT_GUIDE_PATH = '/docs/merchant-api';

/**
 * '%', '&' and '=' in a name or value, percent-encoded (RFC 3986 section 2.1): `%25`, `%26`, `%3D`.
 * Joined raw, `subject=a&amount=1` could be one parameter or two, so two parameter sets could share
 * a signature; escaped, the signing string reads back to exactly one set. Every other character is
 * signed as it is, so a value without these three signs exactly as it did before (legacy MD5
 * integrations keep working).
 */
export function escapeSigned(text: string): string {
  return text.replace(/[%&=]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The signature covers every non-empty parameter but `sign` (`signType` included), sorted by name
 * (ASCII), as `k=v&...&key=<secret>`, each name and value with '%', '&' and '=' escaped
 * (`escapeSigned`).
 */
export function signingString(params: Readonly<Record<string, unknown>>, secret: string): string {
  const keys = Object.keys(params)
    .filter((k) => k !== 'sign' && params[k] !== undefined && params[k] !== null && String(params[k]) !== '')
    .sort();
  const pairs = keys.map((k) => `${escapeSigned(k)}=${escapeSigned(String(params[k]))}`);
  return [...pairs, `key=${secret}`].join('&');
}

/** A value sent as text or as a number (form bodies send text, JSON either); anything else is refused. */
const text = z.union([z.string().max(4096), z.number().min(-MAX_MONEY_MINOR).max(MAX_MONEY_MINOR)], {
  error: (issue) => (issue.input === undefined ? undefined : 'must be text or a number'),
});
const asText = (v: string | number) => String(v);

/** Text of at most `max` characters, as a string or a number. */
const field = (max: number, message: string) => text.refine((v) => asText(v).length <= max, message);
const pattern = (re: RegExp, message: string) => text.refine((v) => re.test(asText(v)), message);

export const MERCHANT_API_TEXTS = {
  mchId: 'mchId is the merchant number of the API credentials',
  productId: 'productId must be a product id such as 1001',
  mchOrderNo: 'mchOrderNo must be 1 to 64 letters, digits, _ or -',
  amount: 'amount must be a positive whole number in the product’s units (1/100, or 1/10000 for 1045)',
  url: 'must be an http or https address of at most 512 characters',
  subject: 'subject is at most 128 characters',
  body: 'body is at most 512 characters',
  clientIp: 'clientIp must be an IPv4 or IPv6 address, such as 203.0.113.7 or 2001:db8::7',
  signType: 'signType must be HMAC-SHA256 or MD5: your merchant’s signature type',
  sign: 'sign must be the upper-case hex signature (32 or 64 characters)',
  extra: 'extra must be JSON text of an object with at most 20 string values (at most 1024 characters)',
  userName: 'userName is at most 128 characters',
  cardNumber: 'card number must be digits only, at most 20',
  ifscCode: 'invalid IFSC format',
  bankName: 'bank name is at most 128 characters',
  vpa: 'invalid UPI ID, e.g. name@bank',
  mode: 'mode is at most 32 letters, digits, _ or -',
  address: 'address is at most 128 characters',
} as const;
const M = MERCHANT_API_TEXTS;

const URL_RE = /^https?:\/\/[^\s]{1,500}$/;

/** zod's own address checks (each octet 0..255; IPv6 as a URL host parses it, no zone index). */
const ipAddress = z.union([z.ipv4(), z.ipv6()]);
const isIpAddress = (v: string | number) => typeof v === 'string' && ipAddress.safeParse(v).success;

function isExtra(v: string | number): boolean {
  const s = asText(v);
  if (s.length > 1024) return false;
  try {
    const parsed: unknown = JSON.parse(s);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return false;
    const values = Object.values(parsed);
    return values.length <= 20 && values.every((x) => typeof x === 'string' && x.length <= 256);
  } catch {
    return false;
  }
}

/** Fields a channel may carry about the payer (collection) or payee. */
export const channelFieldsShape = {
  userName: field(128, M.userName).optional(),
  cardNumber: pattern(/^\d{1,20}$/, M.cardNumber).optional(),
  ifscCode: pattern(/^[A-Z]{4}0[A-Z0-9]{6}$/, M.ifscCode).optional(),
  bankName: field(128, M.bankName).optional(),
  vpa: pattern(/^[A-Za-z0-9._-]{2,64}@[A-Za-z0-9.-]{2,64}$/, M.vpa).optional(),
  mode: pattern(/^[A-Za-z0-9_-]{1,32}$/, M.mode).optional(),
  address: field(128, M.address).optional(),
};

/**
 * A payer's name as the NeedNameCheck setting requires it (code 2014): letters of any script (with
 * their combining marks), spaces and dots, at least one letter, at most 128 characters.
 */
export const PAYER_NAME_PATTERN = /^(?=.*\p{L})[\p{L}\p{M} .]{1,128}$/u;
export const isPayerName = (v: string | number | undefined | null): boolean =>
  v !== undefined && v !== null && PAYER_NAME_PATTERN.test(String(v));

/** Alipay to Alipay by hand (catalogue 5002): the product AlipayToAlipayByHandSubmitName applies to. */
export const ALIPAY_BY_HAND_PRODUCT_ID = 5002;

/**
 * Whether the payer of an order of `productId` types their name with the UTR on the payer page: with
 * AlipayToAlipayByHandSubmitName on, for Alipay (5002), whose payee sees the payer's real name on the
 * transfer and matches the order by it.
 */
export const payerNameRequired = (productId: number, alipayByHandSubmitName: boolean): boolean =>
  alipayByHandSubmitName && productId === ALIPAY_BY_HAND_PRODUCT_ID;

/**
 * The country (ISO 3166-1 alpha-2) of the payer's card an order names, where the request shows it: a
 * bank branch given as an IFSC code is an Indian bank's, so the card is Indian (IN). null: unknown
 * (no IFSC; a card number alone tells no country). The CardCountry setting (code 2015) compares it.
 */
export function payerCardCountryOf(params: { ifscCode?: string | number | undefined }): string | null {
  return params.ifscCode !== undefined && String(params.ifscCode) !== '' ? 'IN' : null;
}

export const createOrderRequest = z.strictObject({
  mchId: pattern(/^[A-Za-z0-9]{1,32}$/, M.mchId),
  productId: pattern(/^[1-9]\d{0,8}$/, M.productId),
  mchOrderNo: pattern(/^[A-Za-z0-9_-]{1,64}$/, M.mchOrderNo),
  amount: pattern(/^[1-9]\d{0,17}$/, M.amount),
  returnUrl: pattern(URL_RE, `returnUrl ${M.url}`).optional(),
  notifyUrl: pattern(URL_RE, `notifyUrl ${M.url}`).optional(),
  subject: field(128, M.subject).optional(),
  body: field(512, M.body).optional(),
  clientIp: text.refine(isIpAddress, M.clientIp).optional(),
  extra: text.refine(isExtra, M.extra).optional(),
  ...channelFieldsShape,
  /** Optional; when sent it is signed like the others and must be the merchant's signature type. */
  signType: pattern(/^(?:HMAC-SHA256|MD5)$/, M.signType).optional(),
  sign: pattern(/^(?:[0-9A-Fa-f]{32}|[0-9A-Fa-f]{64})$/, M.sign),
});
export type CreateOrderRequest = z.input<typeof createOrderRequest>;

/** What the payer pays to: the receiving account's public fields (never a secret). */
export const payeeSchema = z.object({
  kind: z.string(),
  accountName: z.string().optional(),
  bankName: z.string().optional(),
  cardNumber: z.string().optional(),
  ifsc: z.string().optional(),
  vpa: z.string().optional(),
  /** A UPI deep link (upi://pay?...) the payer's app opens; also what its QR code encodes. */
  upiLink: z.string().optional(),
  /** USDT: the wallet address and the exact amount to send, in micro-units (1/1,000,000 USDT). */
  address: z.string().optional(),
  usdtCount: z.number().int().optional(),
  phone: z.string().optional(),
  paymentLink: z.string().optional(),
  /** Text a QR code encodes (UPI link, USDT address) or null when the account has an uploaded image. */
  qrCode: z.string().nullable().optional(),
  hasQrImage: z.boolean().optional(),
});
export type Payee = z.infer<typeof payeeSchema>;

export const createOrderAnswer = z.object({
  orderCode: z.string(),
  mchOrderNo: z.string(),
  productId: z.number().int(),
  /** In the product's API units, as sent. */
  amount: z.number().int(),
  state: z.number().int(),
  payUrl: z.string(),
  /** ISO time after which an unpaid order times out. */
  expireTime: z.string().nullable(),
  payee: payeeSchema.nullable(),
});
export type CreateOrderAnswer = z.infer<typeof createOrderAnswer>;

/** The signed request's value rules, for the other signed calls (payouts) to declare their fields alike. */
export const signedFields = { text, field, pattern, isIpAddress, URL_RE } as const;
