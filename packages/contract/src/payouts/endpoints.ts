import { z } from 'zod';
import { defineEndpoint } from '../common/endpoint.js';
import { IMAGE_MAX_BYTES, imageUploadSchema } from '../common/images.js';
import { moneyFilter, sortShape } from '../common/money.js';
import {
  dateTimeSchema,
  emptyToNull,
  pageOf,
  pagingShape,
  queryBoolean,
  queryIdSchema,
  textFilter,
} from '../common/paging.js';
import type { Role } from '../common/roles.js';
import { optionalInt, optionalQueryId, timelineEntrySchema } from '../orders/endpoints.js';
import {
  consolePayoutRequest,
  createPayoutRequest,
  PAYOUT_PRODUCT_IDS,
  payoutAnswer,
  queryPayoutRequest,
} from './merchant-api.js';
import { PAYOUT_ACTION_ROLES, PAYOUT_ACTIONS, PAYOUT_PROCESS_STATES, PAYOUT_STATES } from './states.js';

/**
 * One payout as the console reads it: its fields and the actions the caller may take on it now
 * (`allowedPayoutActions` for the caller), which are the buttons the console offers.
 */
export const payoutRowSchema = z.object({
  id: z.number().int(),
  orderCode: z.string(),
  mchOrderNo: z.string(),
  merchantId: z.number().int(),
  productId: z.number().int(),
  amount: z.number().int(),
  fee: z.number().int(),
  /** The supplier's commission, fixed when it claims; null before, and for the merchant. */
  commission: z.number().int().nullable(),
  state: z.number().int(),
  supplierId: z.number().int().nullable(),
  resourceId: z.number().int().nullable(),
  userName: z.string().nullable(),
  cardNumber: z.string().nullable(),
  ifscCode: z.string().nullable(),
  bankName: z.string().nullable(),
  bankBranch: z.string().nullable(),
  address: z.string().nullable(),
  remark: z.string().nullable(),
  utr: z.string().nullable(),
  /** The receipt image the supplier attached to its UTR (read with `receipt`); null when none. */
  receiptId: z.number().int().nullable(),
  rejectReason: z.string().nullable(),
  exceptionReason: z.string().nullable(),
  createdAt: z.string(),
  claimedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  allowedActions: z.array(z.enum(PAYOUT_ACTIONS)),
});
export type PayoutRow = z.infer<typeof payoutRowSchema>;

/** A supplier's claim room as its list answers it (PayoutClaimRoom). */
export const payoutClaimRoomSchema = z.object({
  products: z.array(z.number().int()),
  held: z.number().int(),
  limit: z.number().int(),
  deposit: z.number().int(),
});

export const payoutDetailSchema = z.object({
  payout: payoutRowSchema,
  timeline: z.array(timelineEntrySchema),
  /** The payout's ledger transfers; a merchant or supplier gets only the entries of its own accounts. */
  transfers: z.array(
    z.object({
      id: z.number().int(),
      type: z.string(),
      idempotencyKey: z.string(),
      createdAt: z.string(),
      entries: z.array(z.object({ account: z.string(), amount: z.number().int() })),
    }),
  ),
});

/** The newest claimable payout as the notifier reads it: enough to say which and how much. */
export const lastClaimableSchema = z.object({
  id: z.number().int(),
  orderCode: z.string(),
  productId: z.number().int(),
  amount: z.number().int(),
  createTime: z.string(),
  state: z.number().int(),
});
export type LastClaimablePayout = z.infer<typeof lastClaimableSchema>;

/** A payout's receipt image as the console shows it. */
export const payoutReceiptSchema = z.object({
  receiptId: z.number().int(),
  mime: z.string(),
  size: z.number().int(),
  /** Who attached it (the supplier's account) and when. */
  uploadedBy: z.string().nullable(),
  uploadedAt: z.string(),
  dataUrl: z.string(),
});
export type PayoutReceipt = z.infer<typeof payoutReceiptSchema>;

/** The spec's `?orderId` (the payout's id), sent in the body or, as the spec writes it, in the query. */
const orderIdInput = z.strictObject({ orderId: queryIdSchema });
const reason = (what: string) =>
  z.string().trim().min(1, `enter the ${what}`).max(256, `the ${what} is at most 256 characters`);
const stateAnswer = z.object({ orderId: z.number().int(), orderCode: z.string(), state: z.number().int() });

/** Who reads payouts: staff all, a supplier its own and its team's, a merchant its own. */
export const PAYOUT_READ_ROLES = [
  'superAdmin',
  'admin',
  'customerService',
  'technicalMaintenance',
  'supplier',
  'merchant',
] as const satisfies readonly Role[];

/** A payout's fields as the CSV export writes them: the row less its actions. */
export const payoutFieldsSchema = payoutRowSchema.omit({ allowedActions: true });
export type PayoutFields = z.infer<typeof payoutFieldsSchema>;

/**
 * The filters of spec section 3 that apply to payouts, shared by the list and its export.
 */
export const payoutFilterShape = {
  merchantId: optionalQueryId,
  supplierId: optionalQueryId,
  productId: optionalInt(PAYOUT_PRODUCT_IDS),
  merchantOrderId: textFilter(64),
  orderCode: textFilter(40),
  startTime: dateTimeSchema,
  endTime: dateTimeSchema,
  payoutStatus: optionalInt(PAYOUT_STATES),
  /** Whose move it is (PAYOUT_PROCESS_STATE): the states of that process state. */
  processState: optionalInt(PAYOUT_PROCESS_STATES),
  /** The payouts of one batch payout (spec section 3, batchId). */
  batchId: optionalQueryId,
  /** Matches the UTR (USDT: the transaction hash) the supplier submitted. */
  utr: textFilter(128),
  ifscCode: textFilter(11),
  cardNumber: textFilter(20),
  userName: textFilter(128),
  amount: moneyFilter,
  /** A supplier: true, its agents' payouts only; false, its own only. Staff: claimed by agents or not. */
  isProxy: z.preprocess(emptyToNull, queryBoolean.nullable().optional()),
  ...sortShape(['createdAt', 'amount', 'completedAt']),
};

/** Payout orders (issue 20): the merchant API's create, the console's creation, the claim queue and every action. */
export const payoutsEndpoints = {
  create: defineEndpoint({
    method: 'POST',
    path: '/v1.0/api/payout/create',
    summary:
      'Merchant API: create a payout (signed like order create; JSON or form-encoded); the amount plus the fee is held from the balance',
    input: createPayoutRequest,
    output: payoutAnswer,
    example: {
      mchId: '10001',
      productId: '2001',
      mchOrderNo: 'P20261127001',
      amount: '150000',
      notifyUrl: 'https://merchant.example/payout-notify',
      userName: 'Asha Rao',
      cardNumber: '50100234567890',
      ifscCode: 'HDFC0001234',
      bankName: 'HDFC Bank',
      bankBranch: 'Koramangala',
      address: '12 MG Road, Bengaluru',
      // The worked payout of docs/merchant-api.md section 8, signed with the demo secret.
      sign: '96A304434813587947E5074BDF3DACEA50D1E401CAE09E1EBF530DF49B6030AF',
    },
    access: 'public',
    token2: false,
    scope: 'none',
    rateLimit: { max: 6000, timeWindowMs: 60_000 },
  }),
  createInConsole: defineEndpoint({
    method: 'POST',
    path: '/v1.0/payoutOrder/create',
    summary:
      'A merchant creates a payout in the console (the API’s rules and texts; the session stands for the signature)',
    input: consolePayoutRequest,
    output: payoutAnswer,
    example: {
      productId: '2001',
      mchOrderNo: 'P20261127002',
      amount: '150000',
      userName: 'Asha Rao',
      cardNumber: '50100234567890',
      ifscCode: 'HDFC0001234',
      bankBranch: 'Koramangala',
      address: '12 MG Road, Bengaluru',
    },
    access: ['merchant'],
    token2: true,
    scope: 'self',
  }),
  query: defineEndpoint({
    method: 'POST',
    path: '/v1.0/api/payout/query',
    summary:
      'Merchant API: one of your payouts by mchOrderNo or orderCode (signed like create): its state, amounts, fee, UTR and times',
    input: queryPayoutRequest,
    output: payoutAnswer,
    example: {
      mchId: '10001',
      mchOrderNo: 'P20261127001',
      sign: 'C05E727F769C5AB0F32EC07C717A1ADBB634A40DE5BB86B4D90606D22EBEADB1',
    },
    access: 'public',
    token2: false,
    scope: 'none',
    rateLimit: { max: 6000, timeWindowMs: 60_000 },
  }),
  getDetail: defineEndpoint({
    method: 'GET',
    path: '/v1.0/payoutOrder/getDetail',
    summary: 'A payout with its timeline and ledger transfers (a supplier sees an awaiting payout it may claim)',
    input: orderIdInput,
    output: payoutDetailSchema,
    example: { orderId: 1 },
    access: ['superAdmin', 'admin', 'customerService', 'technicalMaintenance', 'supplier', 'merchant'],
    token2: false,
    scope: 'owned',
    team: true,
  }),
  claimOrder: defineEndpoint({
    method: 'POST',
    path: '/v1.0/payoutOrderClaim/claimOrder',
    summary:
      'A supplier claims an awaiting payout (-> in progress) onto its enabled payout account of the product; the first claim wins, the others get 409',
    input: orderIdInput,
    output: stateAnswer,
    example: { orderId: 1 },
    access: PAYOUT_ACTION_ROLES.claim,
    token2: false,
    scope: 'self',
    bodyFromQuery: true,
  }),
  lastClaimable: defineEndpoint({
    method: 'GET',
    path: '/v1.0/payoutOrderClaim/lastClaimable',
    summary:
      'The newest payout the calling supplier can claim now (its claim queue’s rule, its deposit covering the amount, room under its limit of payouts in progress), or null; polled by the console’s notifier',
    input: z.strictObject({}),
    output: lastClaimableSchema.nullable(),
    example: {},
    access: PAYOUT_ACTION_ROLES.claim,
    token2: false,
    scope: 'self',
  }),
  cancelClaim: defineEndpoint({
    method: 'POST',
    path: '/v1.0/payoutOrderClaim/cancelClaim',
    summary: 'Give a claimed payout back to the queue (in progress -> awaiting)',
    input: orderIdInput,
    output: stateAnswer,
    example: { orderId: 1 },
    access: PAYOUT_ACTION_ROLES.cancelClaim,
    token2: false,
    scope: 'owned',
    bodyFromQuery: true,
  }),
  submit: defineEndpoint({
    method: 'POST',
    path: '/v1.0/payoutOrder/submit',
    summary: `The supplier paid the payee: it submits the UTR (USDT: the transaction hash) and optionally the transfer's receipt image (PNG, JPEG or WebP, checked by content, at most ${IMAGE_MAX_BYTES / 1024} KiB, base64) (in progress -> submitted)`,
    input: z.strictObject({
      orderId: queryIdSchema,
      utr: z
        .string()
        .trim()
        .max(128, 'the UTR is 6 to 128 letters or digits (USDT: the transaction hash)')
        .regex(/^[A-Za-z0-9]{6,128}$/, 'the UTR is 6 to 128 letters or digits (USDT: the transaction hash)'),
      /** Optionally the transfer's receipt: PNG, JPEG or WebP (checked by content), at most 512 KiB. */
      receipt: imageUploadSchema.optional(),
    }),
    output: stateAnswer,
    example: {
      orderId: 1,
      utr: '432112345678',
      receipt: {
        mime: 'image/png',
        imageBase64: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      },
    },
    access: PAYOUT_ACTION_ROLES.submit,
    token2: false,
    scope: 'owned',
  }),
  receipt: defineEndpoint({
    method: 'GET',
    path: '/v1.0/payoutOrder/receipt',
    summary:
      'The receipt image the supplier attached to a payout’s UTR, as a data URL (null when none); readable by whoever may read the payout’s detail',
    input: orderIdInput,
    output: payoutReceiptSchema.nullable(),
    example: { orderId: 1 },
    access: PAYOUT_READ_ROLES,
    token2: false,
    scope: 'owned',
    team: true,
  }),
  confirm: defineEndpoint({
    method: 'POST',
    path: '/v1.0/payoutOrder/confirm',
    summary:
      'An admin confirms a submitted payout (-> completed): the merchant’s hold is paid out to the supplier with its commission, the fee to the platform',
    input: orderIdInput,
    output: stateAnswer,
    example: { orderId: 1 },
    access: PAYOUT_ACTION_ROLES.confirm,
    token2: true,
    scope: 'owned',
  }),
  reject: defineEndpoint({
    method: 'POST',
    path: '/v1.0/payoutOrder/reject',
    summary:
      'Reject with a reason: staff end it (-> rejected, the merchant’s funds released); the supplier gives back one it cannot pay (-> rejecting)',
    input: z.strictObject({ orderId: queryIdSchema, rejectReason: reason('reason') }),
    output: stateAnswer,
    example: { orderId: 1, rejectReason: 'account closed' },
    access: PAYOUT_ACTION_ROLES.reject,
    token2: false,
    scope: 'owned',
  }),
  cancel: defineEndpoint({
    method: 'POST',
    path: '/v1.0/payoutOrder/cancel',
    summary: 'Cancel a payout nobody claimed yet (-> cancelled, the merchant’s funds released)',
    input: orderIdInput,
    output: stateAnswer,
    example: { orderId: 1 },
    access: PAYOUT_ACTION_ROLES.cancel,
    token2: false,
    scope: 'owned',
  }),
  markAbnormal: defineEndpoint({
    method: 'POST',
    path: '/v1.0/payoutOrder/markAbnormal',
    summary: 'Mark a payout in progress or submitted abnormal with a reason (-> processing exception)',
    input: z.strictObject({ orderId: queryIdSchema, reason: reason('reason') }),
    output: stateAnswer,
    example: { orderId: 1, reason: 'payee says nothing arrived' },
    access: PAYOUT_ACTION_ROLES.markAbnormal,
    token2: false,
    scope: 'owned',
  }),
  resolve: defineEndpoint({
    method: 'POST',
    path: '/v1.0/payoutOrder/resolve',
    summary:
      'Resolve a processing exception: back to the supplier (-> in progress) or rejected (the merchant’s funds released)',
    input: z.strictObject({
      orderId: queryIdSchema,
      to: z.enum(['inProgress', 'rejected'], 'to is inProgress or rejected'),
      reason: reason('reason'),
    }),
    output: stateAnswer,
    example: { orderId: 1, to: 'inProgress', reason: 'payee confirmed receipt' },
    access: PAYOUT_ACTION_ROLES.resolve,
    token2: true,
    scope: 'owned',
  }),
  getList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/payoutOrder/getList',
    summary:
      'Payouts, paged and filtered (spec section 3); summary sums amount and fee (and commission but for a merchant). queue=true: a supplier’s claim queue, the awaiting payouts it may claim, oldest first',
    input: z.strictObject({
      ...pagingShape,
      ...payoutFilterShape,
      /** A supplier's claim queue: awaiting payouts of the products it has enabled with an enabled payout account. */
      queue: z.preprocess(emptyToNull, queryBoolean.nullable().optional()),
    }),
    output: pageOf(payoutRowSchema).extend({
      /** A supplier's: what it can take on now (its rows offer a claim only within it). */
      claimRoom: payoutClaimRoomSchema.optional(),
    }),
    example: { pageIndex: 1, pageSize: 20, payoutStatus: 2, sortBy: 'createdAt', sortOrder: 'desc' },
    access: PAYOUT_READ_ROLES,
    token2: false,
    scope: 'owned',
    team: true,
  }),
  exportList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/payoutOrder/export',
    summary: 'Every payout of the filtered set as CSV, in the list’s order',
    input: z.strictObject(payoutFilterShape),
    output: payoutFieldsSchema,
    example: { payoutStatus: 3 },
    access: PAYOUT_READ_ROLES,
    token2: false,
    scope: 'owned',
    team: true,
    produces: 'csv',
  }),
  getPayoutStatusList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/payoutOrder/getPayoutStatusList',
    summary: 'The payout states (codes; the console shows their labels)',
    input: z.strictObject({}),
    output: z.array(z.object({ id: z.number().int(), name: z.string() })),
    example: {},
    access: PAYOUT_READ_ROLES,
    token2: false,
    scope: 'none',
  }),
} as const;
