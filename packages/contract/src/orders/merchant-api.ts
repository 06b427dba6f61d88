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

// ---- batch upload of orders (POST /v1.0/api/order/createBatch) ----

/** Most order rows one upload may carry, and its largest file. */
export const ORDER_UPLOAD_MAX_ROWS = 1000;
export const ORDER_UPLOAD_MAX_BYTES = 1_048_576;

/**
 * The columns of an order upload, in the template's order: the merchant API's fields (amount in the
 * product's API units, exactly as the API takes it) less what the console session replaces (mchId,
 * sign) and what a file has no use for (clientIp, body, extra). The first three are required.
 */
export const ORDER_UPLOAD_COLUMNS = [
  'mchOrderNo',
  'productId',
  'amount',
  'notifyUrl',
  'returnUrl',
  'subject',
  'userName',
  'cardNumber',
  'ifscCode',
  'bankName',
  'vpa',
  'mode',
  'address',
] as const;
export type OrderUploadColumn = (typeof ORDER_UPLOAD_COLUMNS)[number];
export const ORDER_UPLOAD_REQUIRED_COLUMNS = ['mchOrderNo', 'productId', 'amount'] as const;

/** The order types an upload may name; payout uploads arrive with payout orders. */
export const ORDER_UPLOAD_TYPES = ['collection'] as const;

/**
 * One row of an upload, checked field by field with the merchant API's own rules and texts (the
 * server then applies every business rule of the API to it: product, limits, daily limit,
 * idempotency on mchOrderNo, allocation).
 */
export const orderUploadRowSchema = createOrderRequest.pick({
  mchOrderNo: true,
  productId: true,
  amount: true,
  notifyUrl: true,
  returnUrl: true,
  subject: true,
  userName: true,
  cardNumber: true,
  ifscCode: true,
  bankName: true,
  vpa: true,
  mode: true,
  address: true,
});

/**
 * The upload's texts (spec sections 5 and 8). The server answers them as `msg` with `data.reason`
 * (the key here), the console translates by the key and checks the file's name and type itself
 * before sending (`notCsv`).
 */
export const ORDER_UPLOAD_TEXTS = {
  /** Spec section 5: the check of the chosen file (name .csv, a CSV content type). */
  notCsv: 'CSV uploads must be CSV files',
  /** Spec section 8: the server's refusal of a file that is not CSV text (name, type or content). */
  fileType: 'file type error',
  /** Bad quoting, a row with another number of columns, a missing or unknown header column. */
  parseFailed: 'format parsing failed, check the file format',
  /** Anything unexpected: a form that is not well-formed multipart, or a failure of the server. */
  uploadFailed: 'upload failed',
  tooLarge: `the file is larger than ${ORDER_UPLOAD_MAX_BYTES / 1_048_576} MiB`,
  tooManyRows: `the file has more than ${ORDER_UPLOAD_MAX_ROWS} order rows: split it`,
  noRows: 'the file has no order rows under its header',
  orderType: 'only collection orders can be uploaded (orderType collection); payout uploads come with payout orders',
  key: 'key must be 1 to 64 letters, digits, _ or - naming this upload (the same key again answers the first result)',
  keyReused: 'this upload key was already used for another file: choose the file again to upload it',
  inProgress: 'an upload with this key is still running: wait for its result',
  merchantsOnly: 'only a merchant uploads its own orders',
  noProduct: 'no collection product is enabled for this merchant',
} as const;
export type OrderUploadReason = keyof typeof ORDER_UPLOAD_TEXTS;

/** Content types a browser or an operating system gives a .csv file. */
export const CSV_CONTENT_TYPES = [
  'text/csv',
  'application/csv',
  'text/x-csv',
  'application/x-csv',
  'text/comma-separated-values',
  'text/x-comma-separated-values',
  'application/vnd.ms-excel',
] as const;

/** Whether a file's name and declared type say CSV (the content is checked by the server). */
export function looksLikeCsv(filename: string, contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return /\.csv$/i.test(filename.trim()) && (CSV_CONTENT_TYPES as readonly string[]).includes(type);
}

/**
 * The multipart form of an upload as the server validates it: the `file` part (its name, declared
 * type and bytes) and the fields. The bytes are a Uint8Array, which JSON can never produce, so the
 * endpoint takes multipart only: a JSON or form-encoded body is refused by this schema (400 with
 * issues), which is what the generated malformed-input suite checks.
 */
export const orderUploadForm = z.strictObject({
  file: z.strictObject(
    {
      filename: z.string().max(255, 'the file name is at most 255 characters'),
      mimetype: z.string().max(255),
      content: z.instanceof(Uint8Array, { error: 'file: attach the CSV file as the multipart part "file"' }),
    },
    'file: attach the CSV file as the multipart part "file"',
  ),
  orderType: z.literal(ORDER_UPLOAD_TYPES[0], ORDER_UPLOAD_TEXTS.orderType),
  key: z
    .string()
    .max(64, ORDER_UPLOAD_TEXTS.key)
    .regex(/^[A-Za-z0-9_-]{1,64}$/, ORDER_UPLOAD_TEXTS.key),
});

/** What became of one row. `row` is its row in a spreadsheet (the header is row 1). */
export const orderUploadRowResult = z.object({
  row: z.number().int(),
  mchOrderNo: z.string(),
  /** 200, or the API's code for the row (400 with the field's text, 2004, 2005, 2006, 2008, ...). */
  code: z.number().int(),
  msg: z.string(),
  /** A new order was made by this upload (2008: made, kept as allocation failed). */
  created: z.boolean(),
  orderCode: z.string().optional(),
  state: z.number().int().optional(),
});
export type OrderUploadRowResult = z.infer<typeof orderUploadRowResult>;

export const orderUploadAnswer = z.object({
  key: z.string(),
  orderType: z.string(),
  fileName: z.string(),
  rows: z.number().int(),
  /** New orders (allocated or allocation failed). */
  created: z.number().int(),
  /** Rows whose mchOrderNo already had an order with the same content: that order, nothing new. */
  existing: z.number().int(),
  /** Rows refused: no order. */
  refused: z.number().int(),
  /** The key was used before: this is that upload's result, and nothing was created now. */
  replayed: z.boolean(),
  uploadedAt: z.string(),
  results: z.array(orderUploadRowResult),
});
export type OrderUploadAnswer = z.infer<typeof orderUploadAnswer>;

/** Whether the caller may upload now, and the limits the console checks and shows. */
export const orderUploadFlag = z.object({
  allowed: z.boolean(),
  /** Why not (a key of ORDER_UPLOAD_TEXTS, or 'serviceClosed', 'merchantUnavailable'); null when allowed. */
  reason: z.string().nullable(),
  orderTypes: z.array(z.string()),
  maxRows: z.number().int(),
  maxBytes: z.number().int(),
  columns: z.array(z.string()),
  requiredColumns: z.array(z.string()),
  /** The collection products this merchant may order now (the template's example uses the first). */
  productIds: z.array(z.number().int()),
});

/** The signed request's value rules, for the other signed calls (payouts) to declare their fields alike. */
export const signedFields = { text, field, pattern, isIpAddress, URL_RE } as const;
