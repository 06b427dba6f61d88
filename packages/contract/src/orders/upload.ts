import { z } from 'zod';
import { type ConsolePayoutRequest, consolePayoutRequest } from '../payouts/merchant-api.js';
import { createOrderRequest } from './merchant-api.js';

// ---- batch upload of orders (POST /v1.0/api/order/createBatch) ----

/**
 * Batch upload (spec section 7; issue 20 item 3): a CSV file of the merchant's collection orders
 * (orderType collection) or of its payouts (orderType payout), sent in its console session. Every row
 * is checked with the API's field rules and texts and then made exactly as the API makes one, each
 * row on its own.
 */

/** Most order rows one upload may carry, and its largest file. */
export const ORDER_UPLOAD_MAX_ROWS = 1000;
export const ORDER_UPLOAD_MAX_BYTES = 1_048_576;

/** The order types an upload may name: collection orders or payouts. */
export const ORDER_UPLOAD_TYPES = ['collection', 'payout'] as const;
export type OrderUploadType = (typeof ORDER_UPLOAD_TYPES)[number];

/**
 * The columns of a collection upload, in the template's order: the merchant API's fields (amount in
 * the product's API units, exactly as the API takes it) less what the console session replaces
 * (mchId, sign) and what a file has no use for (clientIp, body, extra). The first three are required.
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

/**
 * The columns of a payout upload, in the template's order: the payout API's fields (amount in minor
 * units, 1/100, as the payout API takes it) less what the console session replaces (mchId, sign,
 * signType) and clientIp: exactly the console form's fields (`consolePayoutRequest`). The header
 * needs the first three; which payee fields a row needs depends on its product (a bank payout: name,
 * card number, IFSC, bank branch and address; USDT 3016: the wallet address), checked per row with
 * the payout API's texts.
 */
export const PAYOUT_UPLOAD_COLUMNS = [
  'mchOrderNo',
  'productId',
  'amount',
  'userName',
  'cardNumber',
  'ifscCode',
  'bankName',
  'bankBranch',
  'address',
  'remark',
  'notifyUrl',
] as const satisfies ReadonlyArray<keyof ConsolePayoutRequest>;
export const PAYOUT_UPLOAD_REQUIRED_COLUMNS = ['mchOrderNo', 'productId', 'amount'] as const;

/** Each order type's columns and the columns its header must have. */
export const ORDER_UPLOAD_LAYOUTS = {
  collection: { columns: ORDER_UPLOAD_COLUMNS, requiredColumns: ORDER_UPLOAD_REQUIRED_COLUMNS },
  payout: { columns: PAYOUT_UPLOAD_COLUMNS, requiredColumns: PAYOUT_UPLOAD_REQUIRED_COLUMNS },
} as const satisfies Record<OrderUploadType, { columns: readonly string[]; requiredColumns: readonly string[] }>;

/**
 * One row of a collection upload, checked field by field with the merchant API's own rules and texts
 * (the server then applies every business rule of the API to it: product, limits, daily limit,
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
 * One row of a payout upload: the payout request's fields and rules, with its texts ('name, card
 * number, bank branch, address and amount cannot be empty', 'invalid IFSC format', ...). The server
 * then applies every business rule of the payout API (product, limits, idempotency on mchOrderNo,
 * the daily limit, the hold: 2013 when the balance is short).
 */
export const payoutUploadRowSchema = consolePayoutRequest;

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
  orderType: 'orderType must be collection (collection orders) or payout (payouts)',
  key: 'key must be 1 to 64 letters, digits, _ or - naming this upload (the same key again answers the first result)',
  keyReused: 'this upload key was already used for another file: choose the file again to upload it',
  inProgress: 'an upload with this key is still running: wait for its result',
  merchantsOnly: 'only a merchant uploads its own orders',
  noProduct: 'no collection product is enabled for this merchant',
  noPayoutProduct: 'no payout product is enabled for this merchant',
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
  orderType: z.enum(ORDER_UPLOAD_TYPES, ORDER_UPLOAD_TEXTS.orderType),
  key: z
    .string()
    .max(64, ORDER_UPLOAD_TEXTS.key)
    .regex(/^[A-Za-z0-9_-]{1,64}$/, ORDER_UPLOAD_TEXTS.key),
});

/** What became of one row. `row` is its row in a spreadsheet (the header is row 1). */
export const orderUploadRowResult = z.object({
  row: z.number().int(),
  mchOrderNo: z.string(),
  /**
   * 200, or the API's code for the row (400 with the field's text, 2004, 2005, 2006, 2008, and for a
   * payout 2013 when the balance does not cover the amount plus its fee, ...).
   */
  code: z.number().int(),
  msg: z.string(),
  /** A new order or payout was made by this upload (2008: made, kept as allocation failed). */
  created: z.boolean(),
  /** The collection order's code, or the payout's. */
  orderCode: z.string().optional(),
  /** ORDER_STATE of a collection order, PAYOUT_STATE of a payout. */
  state: z.number().int().optional(),
});
export type OrderUploadRowResult = z.infer<typeof orderUploadRowResult>;

export const orderUploadAnswer = z.object({
  key: z.string(),
  orderType: z.enum(ORDER_UPLOAD_TYPES),
  fileName: z.string(),
  rows: z.number().int(),
  /** New orders or payouts (a collection order allocated or allocation failed). */
  created: z.number().int(),
  /** Rows whose mchOrderNo already had an order (or payout) with the same content: that one, nothing new. */
  existing: z.number().int(),
  /** Rows refused: nothing made. */
  refused: z.number().int(),
  /** The key was used before: this is that upload's result, and nothing was created now. */
  replayed: z.boolean(),
  uploadedAt: z.string(),
  results: z.array(orderUploadRowResult),
});
export type OrderUploadAnswer = z.infer<typeof orderUploadAnswer>;

/** Whether one order type may be uploaded now, and its file's columns. */
export const orderUploadTypeFlag = z.object({
  allowed: z.boolean(),
  /**
   * Why not (a key of ORDER_UPLOAD_TEXTS: merchantsOnly, noProduct for collection, noPayoutProduct for
   * payout; or 'serviceClosed', 'merchantUnavailable'); null when allowed.
   */
  reason: z.string().nullable(),
  columns: z.array(z.string()),
  requiredColumns: z.array(z.string()),
  /** The products of this type the merchant may use now (the template's example uses the first). */
  productIds: z.array(z.number().int()),
});
export type OrderUploadTypeFlag = z.infer<typeof orderUploadTypeFlag>;

/** Per order type whether the caller may upload now, and the limits the console checks and shows. */
export const orderUploadFlag = z.object({
  maxRows: z.number().int(),
  maxBytes: z.number().int(),
  types: z.object({ collection: orderUploadTypeFlag, payout: orderUploadTypeFlag }),
});
export type OrderUploadFlag = z.infer<typeof orderUploadFlag>;
