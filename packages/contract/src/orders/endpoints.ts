import { z } from 'zod';
import type { EndpointGroup } from '../common/endpoint.js';
import { defineEndpoint } from '../common/endpoint.js';
import { IMAGE_MAX_BYTES } from '../common/images.js';
import { MAX_MONEY_MINOR, moneyFilter, sortShape } from '../common/money.js';
import { noteTemplateSchema } from '../common/notes.js';
import {
  dateTimeSchema,
  emptyToNull,
  idSchema,
  pageOf,
  pagingShape,
  queryBoolean,
  queryIdSchema,
  textFilter,
} from '../common/paging.js';
import type { Role } from '../common/roles.js';
import { createOrderAnswer, createOrderRequest, isPayerName, payeeSchema } from './merchant-api.js';
import { queryBalanceAnswer, queryBalanceRequest, queryOrderAnswer, queryOrderRequest } from './merchant-queries.js';
import {
  PICTURE_MAX_SIDE,
  PICTURE_QUERY_AMOUNT_WINDOW_HOURS,
  PICTURE_QUERY_MAX_ORDERS,
  PICTURE_QUERY_ROLES,
  pictureQueryAnswerShape,
  pictureQueryRequest,
} from './picture-query.js';
import { ACTION_ROLES, ORDER_ACTIONS, ORDER_MARKS, ORDER_STATES } from './states.js';
import { orderUploadAnswer, orderUploadFlag, orderUploadForm } from './upload.js';

/** Who reads collection orders: staff, a supplier its team's, a merchant its own. */
export const ORDER_READ_ROLES = [
  'superAdmin',
  'admin',
  'customerService',
  'technicalMaintenance',
  'supplier',
  'merchant',
] as const satisfies readonly Role[];
/** Everyone but merchants polls for new orders (spec sections 1 and 9). */
export const LAST_ORDER_ROLES = [
  'superAdmin',
  'admin',
  'customerService',
  'technicalMaintenance',
  'technicalSupport',
  'supplier',
] as const satisfies readonly Role[];

/** A UTR (bank reference) or a transaction hash: letters and digits, 6 to 128. */
export const utrSchema = z
  .string()
  .trim()
  .max(128, 'a UTR is 6 to 128 letters and digits (a transaction hash: its hex text)')
  .regex(/^[A-Za-z0-9]{6,128}$/, 'a UTR is 6 to 128 letters and digits (a transaction hash: its hex text)');
export const orderCodeSchema = z
  .string()
  .trim()
  .max(40, 'no such order code')
  .regex(/^[A-Z0-9]{6,40}$/, 'no such order code');

/** One collection order's fields as lists, exports and the detail see them. Money in minor units. */
export const orderFieldsSchema = z.object({
  id: z.number().int(),
  orderCode: z.string(),
  merchantId: z.number().int(),
  merchantName: z.string(),
  merchantNo: z.string(),
  merchantOrderNo: z.string(),
  productId: z.number().int(),
  productName: z.string(),
  amount: z.number().int(),
  /** The merchant's fee, fixed at creation (null for a supplier: ORDER_FIELDS_HIDDEN_FROM). */
  fee: z.number().int().nullable(),
  /** What the suppliers earned (set at payment; null for a merchant). */
  commission: z.number().int().nullable(),
  state: z.number().int(),
  mark: z.number().int(),
  locked: z.boolean(),
  supplemented: z.boolean(),
  supplementType: z.number().int().nullable(),
  /** The UTR that confirmed it (supplement), and the one the payer submitted on the payer page. */
  utr: z.string().nullable(),
  payerUtr: z.string().nullable(),
  /** The name the payer typed with the UTR on the payer page (AlipayToAlipayByHandSubmitName). */
  payerName: z.string().nullable(),
  supplierId: z.number().int().nullable(),
  supplierName: z.string().nullable(),
  /** Taken by an agent's resource (the supplier's team). */
  isProxy: z.boolean(),
  resourceId: z.number().int().nullable(),
  resourceName: z.string().nullable(),
  usdtAddress: z.string().nullable(),
  usdtCount: z.number().int().nullable(),
  userName: z.string().nullable(),
  cardNumber: z.string().nullable(),
  ifscCode: z.string().nullable(),
  clientIp: z.string().nullable(),
  subject: z.string().nullable(),
  rejectReason: z.string().nullable(),
  createdAt: z.string(),
  allocatedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  paidAt: z.string().nullable(),
  updatedAt: z.string(),
});

/**
 * One order as the lists and the detail answer it: its fields and the actions the caller may take on
 * it now (the contract's `allowedOrderActions` for the caller's role and the current settings), which
 * are the buttons the console offers. The CSV export has the fields only.
 */
export const orderRowSchema = orderFieldsSchema.extend({ allowedActions: z.array(z.enum(ORDER_ACTIONS)) });
export type OrderRow = z.infer<typeof orderRowSchema>;
export type OrderFields = z.infer<typeof orderFieldsSchema>;

/** An optional id filter of a query string (empty: none). */
export const optionalQueryId = z.preprocess(emptyToNull, queryIdSchema.nullable().optional());
/** An optional filter that is one of `values` (a state, a mark), typed in a query string. */
export const optionalInt = (values: readonly number[]) =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : typeof v === 'string' ? Number(v) : v),
    z
      .number()
      .int()
      .min(Math.min(...values))
      .max(Math.max(...values))
      .refine((n) => values.includes(n), 'not one of the listed values')
      .optional(),
  );

/** The filters of spec section 3 that apply to collection orders, shared by the list and its export. */
export const orderFilterShape = {
  merchantId: optionalQueryId,
  supplierId: optionalQueryId,
  productId: optionalQueryId,
  merchantOrderId: textFilter(64),
  orderCode: textFilter(40),
  ipAddress: textFilter(64),
  startTime: dateTimeSchema,
  endTime: dateTimeSchema,
  orderStatusId: optionalInt(ORDER_STATES),
  /** true: only the supplier's agents' orders; false: only its own. */
  isProxy: z.preprocess(emptyToNull, queryBoolean.nullable().optional()),
  orderMark: optionalInt(ORDER_MARKS),
  /** true: supplemented orders only; false: not supplemented. */
  supplementStatus: z.preprocess(emptyToNull, queryBoolean.nullable().optional()),
  supplementType: optionalInt([1, 2]),
  /** Matches the order's subject. */
  description: textFilter(128),
  cardNumber: textFilter(20),
  amount: moneyFilter,
  usdtAddress: textFilter(128),
  /** In micro-units (the console multiplies by 1,000,000). */
  usdtCount: z.preprocess(emptyToNull, z.coerce.number().int().min(0).max(MAX_MONEY_MINOR).nullable().optional()),
  userName: textFilter(128),
  ifscCode: textFilter(11),
  utr: textFilter(128),
  ...sortShape(['createdAt', 'amount', 'paidAt']),
};

export const timelineEntrySchema = z.object({
  at: z.string(),
  /** One of ORDER_EVENT_KINDS. */
  kind: z.string(),
  fromState: z.number().int().nullable(),
  toState: z.number().int().nullable(),
  /** Who did it: null for the system, and for a merchant or supplier when it was someone outside its team. */
  actor: z.string().nullable(),
  /** Empty where the note is the other party's business (ORDER_EVENTS). */
  note: z.string(),
  /** The note as a template the console renders in its language (NOTE_TEMPLATES); null when typed or hidden. */
  noteTemplate: noteTemplateSchema,
});

export const orderDetailSchema = z.object({
  order: orderRowSchema,
  payee: payeeSchema.nullable(),
  timeline: z.array(timelineEntrySchema),
  /** The order's ledger transfers; a merchant or supplier gets only the entries of its own accounts. */
  transfers: z.array(
    z.object({
      id: z.number().int(),
      type: z.string(),
      idempotencyKey: z.string(),
      note: z.string(),
      noteTemplate: noteTemplateSchema,
      createdAt: z.string(),
      entries: z.array(z.object({ account: z.string(), amount: z.number().int() })),
    }),
  ),
});

export const allocateInfoSchema = z.object({
  orderCode: z.string(),
  attempts: z.array(
    z.object({
      at: z.string(),
      chosenResourceId: z.number().int().nullable(),
      candidates: z.array(
        z.object({
          resourceId: z.number().int(),
          resourceName: z.string(),
          supplierName: z.string(),
          /** 'chosen' or why it was skipped. */
          outcome: z.string(),
        }),
      ),
    }),
  ),
});

/** The payer page's view of an order: nothing but what the payer needs. */
export const payerOrderSchema = z.object({
  orderCode: z.string(),
  productId: z.number().int(),
  amount: z.number().int(),
  /** The product's currency (catalogue): INR, KES, CNY or USDT. */
  currency: z.string(),
  /** The merchant's name, so the payer knows whom the payment is for (no id, number or setting). */
  merchantName: z.string(),
  state: z.number().int(),
  subject: z.string().nullable(),
  expiresAt: z.string().nullable(),
  /** Server time, so the countdown does not depend on the phone's clock. */
  now: z.string(),
  returnUrl: z.string().nullable(),
  payee: payeeSchema.nullable(),
  payerUtr: z.string().nullable(),
  /**
   * The payer must type their name with the UTR (AlipayToAlipayByHandSubmitName, Alipay 5002): the
   * supplier matches it against the name on the Alipay transfer.
   */
  payerNameRequired: z.boolean(),
  /** The name the payer typed on the page (null until then). */
  payerName: z.string().nullable(),
});

/** The name a payer types on the payer page: the same rule as a payer name sent by the merchant. */
export const payerNameInput = z
  .string()
  .trim()
  .min(1)
  .max(128)
  .refine((v) => isPayerName(v), 'letters, spaces and dots only');

const orderCodeInput = z.strictObject({ orderCode: orderCodeSchema });
const stateAnswer = z.object({ orderCode: z.string(), state: z.number().int() });

/** Collection orders (issue 6): the merchant API, the lists and every order action. */
export const ordersEndpoints = {
  create: defineEndpoint({
    method: 'POST',
    path: '/v1.0/api/order/create',
    summary:
      'Merchant API: create a collection order (signed; JSON or form-encoded); the answer says what the payer pays to',
    input: createOrderRequest,
    output: createOrderAnswer,
    example: {
      mchId: '10001',
      productId: '1001',
      mchOrderNo: 'A20261123001',
      amount: '50000',
      notifyUrl: 'https://merchant.example/notify',
      returnUrl: 'https://merchant.example/return',
      subject: 'Top-up',
      sign: 'C1B0E8F4A1D2C3B4A5968778695A4B3C2D1E0F9A8B7C6D5E4F3A2B1C0D9E8F7A',
    },
    access: 'public',
    token2: false,
    scope: 'none',
    rateLimit: { max: 6000, timeWindowMs: 60_000 },
  }),
  query: defineEndpoint({
    method: 'POST',
    path: '/v1.0/api/order/query',
    summary:
      'Merchant API: one of your collection orders by mchOrderNo or orderCode (exactly one), signed like create: state, amounts, fee, UTR, times, callback id',
    input: queryOrderRequest,
    output: queryOrderAnswer,
    example: {
      mchId: '10001',
      mchOrderNo: 'A20261123001',
      sign: 'A31AE43AD50FCCD878E89D2EB1BDA4170B45F0F554F6883E14B74EDE1DE8674D',
    },
    access: 'public',
    token2: false,
    scope: 'none',
    rateLimit: { max: 6000, timeWindowMs: 60_000 },
  }),
  queryBalance: defineEndpoint({
    method: 'POST',
    path: '/v1.0/api/balance/query',
    summary: 'Merchant API: your available and frozen balance in 1/100 of the currency, signed like create',
    input: queryBalanceRequest,
    output: queryBalanceAnswer,
    example: { mchId: '10001', sign: '1C4524AAE924923A034B4CD47F551F480913617C0AA46300579BB33546600DD8' },
    access: 'public',
    token2: false,
    scope: 'none',
    rateLimit: { max: 6000, timeWindowMs: 60_000 },
  }),
  /**
   * Batch upload (spec section 7; issue 20 item 3): multipart {file, orderType, key}, orderType
   * `collection` (collection orders) or `payout` (payouts, each with its funds held). Merchants only:
   * the orders are the merchant's own, made with its console session in place of the API signature
   * (the form names no merchant, so staff cannot upload for one; they see the results in the lists).
   * Every row goes through its API's rules after the signature: a collection row the order API's
   * (service switch, merchant enabled, product, amount and its units, KYC, fee, daily limit,
   * idempotency on mchOrderNo, allocation), a payout row the payout API's (product, limits,
   * idempotency on mchOrderNo, daily limit, the amount plus fee held: 2013 when the balance is short);
   * the caller's IP whitelist is for signed API calls and does not apply to the console. Rows are
   * independent: each is made in its own transaction. A payout upload moves the merchant's funds, so
   * it needs the second-level password as the console's payout form does (1024 without; the
   * endpoint's `token2` stays false because a collection upload does not).
   * `key` names the upload: the same key again answers the first upload's result and creates
   * nothing; the same key with another file (or order type) is refused (409).
   * Multipart only: `orderUploadForm`'s bytes are a Uint8Array, which no JSON body can be, so JSON
   * and form-encoded bodies are a 400 (the generated malformed-input suite sends those); malformed
   * multipart is a 400 too (modules/orders/upload-form.ts reads the form).
   */
  createBatch: defineEndpoint({
    method: 'POST',
    path: '/v1.0/api/order/createBatch',
    summary:
      'Upload collection orders or payouts as a CSV file (multipart: file, orderType=collection|payout, key; a payout upload needs token2); a result per row. The same key again answers the first upload’s result and creates nothing',
    input: orderUploadForm,
    output: orderUploadAnswer,
    example: {
      file: {
        filename: 'orders.csv',
        mimetype: 'text/csv',
        content: new TextEncoder().encode('mchOrderNo,productId,amount\nA20261123001,1001,50000\n'),
      },
      orderType: 'collection',
      key: 'upload-20261123-1',
    },
    access: ['merchant'],
    token2: false,
    scope: 'self',
    rateLimit: { max: 30, timeWindowMs: 60_000 },
  }),
  orderUploadFlag: defineEndpoint({
    method: 'GET',
    path: '/v1.0/order/orderUploadFlag',
    summary:
      'Per order type (collection, payout) whether the caller may upload now (a merchant: enabled, with a product of that type, while the platform takes orders) and why not, with the limits and each type’s columns',
    input: z.strictObject({}),
    output: orderUploadFlag,
    example: {},
    access: ORDER_READ_ROLES,
    token2: false,
    scope: 'self',
  }),
  getList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/order/getList',
    summary: 'Collection orders, paged and filtered (spec section 3); summary sums amount, fee and commission',
    input: z.strictObject({ ...pagingShape, ...orderFilterShape }),
    output: pageOf(orderRowSchema),
    example: { pageIndex: 1, pageSize: 20, orderStatusId: 1, sortBy: 'createdAt', sortOrder: 'desc' },
    access: ORDER_READ_ROLES,
    token2: false,
    scope: 'owned',
    team: true,
  }),
  exportList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/order/export',
    summary: 'Every order of the filtered set as CSV, in the list’s order',
    input: z.strictObject(orderFilterShape),
    output: orderFieldsSchema,
    example: { orderStatusId: 3 },
    access: ORDER_READ_ROLES,
    token2: false,
    scope: 'owned',
    team: true,
    produces: 'csv',
  }),
  getDetail: defineEndpoint({
    method: 'GET',
    path: '/v1.0/order/getDetail',
    summary: 'One order with what the payer pays to, its timeline and its ledger transfers',
    input: orderCodeInput,
    output: orderDetailSchema,
    example: { orderCode: 'C26112312000012345678' },
    access: ORDER_READ_ROLES,
    token2: false,
    scope: 'owned',
    team: true,
  }),
  getLastOrder: defineEndpoint({
    method: 'GET',
    path: '/v1.0/order/getLastOrder',
    summary: 'The newest order in the caller’s scope (polled by the new-order notifier)',
    input: z.strictObject({}),
    output: z.object({ orderCode: z.string(), createTime: z.string(), state: z.number().int() }).nullable(),
    example: {},
    access: LAST_ORDER_ROLES,
    token2: false,
    scope: 'owned',
    team: true,
  }),
  getOrderStatusList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/order/getOrderStatusList',
    summary: 'The order states (codes; the console shows their labels)',
    input: z.strictObject({}),
    output: z.array(z.object({ id: z.number().int(), name: z.string() })),
    example: {},
    access: ORDER_READ_ROLES,
    token2: false,
    scope: 'none',
  }),
  getOrderMarkList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/order/getOrderMarkList',
    summary: 'The order marks (codes; the console shows their labels)',
    input: z.strictObject({}),
    output: z.array(z.object({ id: z.number().int(), name: z.string() })),
    example: {},
    access: ORDER_READ_ROLES,
    token2: false,
    scope: 'none',
  }),
  /**
   * Find orders by a picture of the payer's receipt (AllowPictureQueryOrder; off: 422 `pictureQueryOff`
   * and nothing is read). The picture follows the common image rule (400 `fileType`/`imageTooLarge`)
   * and at most PICTURE_MAX_SIDE pixels a side (422 `pictureTooLarge`); it is read in a worker thread,
   * one at a time per process with a short queue (429 `pictureQueryBusy` beyond) and a time limit
   * (422 `pictureUnreadable`). Reads nothing else and changes nothing.
   */
  pictureQuery: defineEndpoint({
    method: 'POST',
    path: '/v1.0/order/pictureQuery',
    summary: `Find orders by a picture of the payer's receipt (PNG, JPEG or WebP, at most ${IMAGE_MAX_BYTES / 1024} KiB and ${PICTURE_MAX_SIDE} px a side, base64; AllowPictureQueryOrder): the text read, its UTR candidates and amounts (minor units), and the orders whose submitted or confirmed UTR is one of them, else up to ${PICTURE_QUERY_MAX_ORDERS} orders of a read amount created in the last ${PICTURE_QUERY_AMOUNT_WINDOW_HOURS} hours without a UTR`,
    input: pictureQueryRequest,
    output: z.object({ ...pictureQueryAnswerShape, orders: z.array(orderRowSchema) }),
    example: {
      receipt: {
        mime: 'image/png',
        imageBase64: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      },
    },
    access: PICTURE_QUERY_ROLES,
    token2: false,
    scope: 'owned',
    rateLimit: { max: 30, timeWindowMs: 60_000 },
  }),
  getOrderAllocateInfo: defineEndpoint({
    method: 'GET',
    path: '/v1.0/order/getOrderAllocateInfo',
    summary: 'Which receiving accounts each allocation of the order considered, and why each was skipped',
    input: orderCodeInput,
    output: allocateInfoSchema,
    example: { orderCode: 'C26112312000012345678' },
    access: ['superAdmin', 'admin', 'customerService', 'technicalMaintenance'],
    token2: false,
    scope: 'owned',
  }),
  confirmOrder: defineEndpoint({
    method: 'POST',
    path: '/v1.0/order/confirmOrder',
    summary: 'The supplier (or staff) confirms the payer’s money arrived: the order is paid and the merchant notified',
    input: orderCodeInput,
    output: stateAnswer,
    example: { orderCode: 'C26112312000012345678' },
    access: ACTION_ROLES.confirm,
    token2: false,
    scope: 'owned',
    // The head of a team confirms or rejects its agents' orders (orders.transitions.test).
    team: true,
  }),
  replenishmentOrder: defineEndpoint({
    method: 'POST',
    path: '/v1.0/order/replenishmentOrder',
    summary:
      'Supplement: confirm an order with the payer’s UTR (a UTR confirms one order only), or offset it against the supplier',
    input: z
      .strictObject({
        orderCode: orderCodeSchema,
        isOffsetReplenishmentOrder: z.boolean().default(false),
        utr: z.preprocess(emptyToNull, utrSchema.nullable().optional()),
      })
      .refine((v) => v.isOffsetReplenishmentOrder || typeof v.utr === 'string', {
        message: 'enter the UTR of the payment',
        path: ['utr'],
      }),
    output: stateAnswer,
    example: { orderCode: 'C26112312000012345678', isOffsetReplenishmentOrder: false, utr: '412345678901' },
    access: ACTION_ROLES.supplement,
    token2: true,
    scope: 'owned',
  }),
  reselect: defineEndpoint({
    method: 'POST',
    path: '/v1.0/order/reselect',
    summary: 'Reselect (reassign) the receiving account: release the current one and allocate again',
    input: orderCodeInput,
    output: stateAnswer,
    example: { orderCode: 'C26112312000012345678' },
    access: ACTION_ROLES.reselect,
    token2: false,
    scope: 'owned',
  }),
  reject: defineEndpoint({
    method: 'POST',
    path: '/v1.0/order/reject',
    summary: 'Reject an unpaid order with a reason (the supplier’s hold is released)',
    input: z.strictObject({
      orderCode: orderCodeSchema,
      rejectReason: z.string().trim().min(1, 'enter the reason').max(256, 'the reason is at most 256 characters'),
    }),
    output: stateAnswer,
    example: { orderCode: 'C26112312000012345678', rejectReason: 'payer cancelled' },
    access: ACTION_ROLES.reject,
    token2: false,
    scope: 'owned',
    // The head of a team confirms or rejects its agents' orders (orders.transitions.test).
    team: true,
  }),
  freeResource: defineEndpoint({
    method: 'POST',
    path: '/v1.0/order/freeResource',
    summary: 'Free the receiving account of an allocated order now: the hold is released and the order times out',
    input: z.strictObject({
      orderCode: orderCodeSchema,
      isOffsetReplenishmentOrder: z.literal(false, 'only false is accepted here').default(false),
    }),
    output: stateAnswer,
    example: { orderCode: 'C26112312000012345678', isOffsetReplenishmentOrder: false },
    access: ACTION_ROLES.freeResource,
    token2: false,
    scope: 'owned',
  }),
  callback: defineEndpoint({
    method: 'POST',
    path: '/v1.0/order/callback',
    summary: 'Trigger the merchant callback of a paid order again now',
    input: orderCodeInput,
    output: stateAnswer,
    example: { orderCode: 'C26112312000012345678' },
    access: ACTION_ROLES.callback,
    token2: false,
    scope: 'owned',
  }),
  reverseOrder: defineEndpoint({
    method: 'POST',
    path: '/v1.0/order/reverseOrder',
    summary: 'Reverse a paid order: the exact opposite of its payment transfer is posted',
    input: orderCodeInput,
    output: stateAnswer,
    example: { orderCode: 'C26112312000012345678' },
    access: ACTION_ROLES.reverse,
    token2: true,
    scope: 'owned',
  }),
  updateOrderMark: defineEndpoint({
    method: 'POST',
    path: '/v1.0/order/updateOrderMark',
    summary: 'Mark an order (normal, suspicious, test, fill-in, malicious); suspicious and malicious lock it',
    input: z.strictObject({
      id: idSchema,
      orderMark: z
        .number()
        .int()
        .min(Math.min(...ORDER_MARKS))
        .max(Math.max(...ORDER_MARKS))
        .refine((n) => (ORDER_MARKS as number[]).includes(n), 'not an order mark'),
    }),
    output: z.object({ orderCode: z.string(), mark: z.number().int(), locked: z.boolean() }),
    example: { id: 1, orderMark: 1 },
    access: ACTION_ROLES.updateMark,
    token2: false,
    scope: 'owned',
  }),
  unlockOrder: defineEndpoint({
    method: 'POST',
    path: '/v1.0/order/unlockOrder',
    summary: 'Unlock orders under investigation so their actions are allowed again',
    input: z.strictObject({ orderCodes: z.array(orderCodeSchema).min(1).max(200, 'at most 200 orders at once') }),
    output: z.object({ count: z.number().int() }),
    example: { orderCodes: ['C26112312000012345678'] },
    access: ACTION_ROLES.unlock,
    token2: false,
    scope: 'owned',
  }),
  payerOrder: defineEndpoint({
    method: 'GET',
    path: '/v1.0/pay/order',
    summary: 'Payer page: what to pay, to whom, and until when (public; nothing but this order)',
    input: orderCodeInput,
    output: payerOrderSchema,
    example: { orderCode: 'C26112312000012345678' },
    access: 'public',
    token2: false,
    scope: 'none',
    rateLimit: { max: 120, timeWindowMs: 60_000 },
  }),
  payerQrImage: defineEndpoint({
    method: 'GET',
    path: '/v1.0/pay/qrImage',
    summary:
      'Payer page: the uploaded QR image of the order’s receiving account as a data URL, while the order awaits payment (else 404)',
    input: orderCodeInput,
    output: z.object({ mime: z.string(), dataUrl: z.string() }),
    example: { orderCode: 'C26112312000012345678' },
    access: 'public',
    token2: false,
    scope: 'none',
    rateLimit: { max: 120, timeWindowMs: 60_000 },
  }),
  payerSubmitUtr: defineEndpoint({
    method: 'POST',
    path: '/v1.0/pay/submitUtr',
    summary:
      'Payer page: the payer submits the UTR (or transaction hash) of the payment for the supplier to check, and their name where the order asks for it (payerNameRequired)',
    input: z.strictObject({ orderCode: orderCodeSchema, utr: utrSchema, payerName: payerNameInput.optional() }),
    output: z.object({ orderCode: z.string(), payerUtr: z.string(), payerName: z.string().nullable() }),
    example: { orderCode: 'C26112312000012345678', utr: '412345678901', payerName: '张三' },
    access: 'public',
    token2: false,
    scope: 'none',
    rateLimit: { max: 20, timeWindowMs: 60_000 },
  }),
} as const satisfies EndpointGroup;
