import { z } from 'zod';
import type { EndpointGroup } from '../common/endpoint.js';
import { defineEndpoint } from '../common/endpoint.js';
import { sortShape } from '../common/money.js';
import {
  dateTimeSchema,
  emptyToNull,
  idSchema,
  pageOf,
  pagingShape,
  queryBoolean,
  textFilter,
} from '../common/paging.js';
import type { Role } from '../common/roles.js';
import { orderCodeSchema } from '../orders/endpoints.js';
import { PAID_STATES } from '../orders/states.js';
import { FINAL_PAYOUT_STATES } from '../payouts/states.js';

/**
 * Merchant callbacks (DESIGN section 6): the order callback info and detail pages, replay, and the
 * 'order send test'. A callback is one notification of a paid collection order (the payment, a manual
 * trigger or a replay) or of a payout that ended (completed, rejected, cancelled); each of its delivery
 * attempts is a detail row.
 */

/** Who reads callbacks and their attempts: staff who look after orders and the platform. */
export const CALLBACK_READ_ROLES = [
  'superAdmin',
  'admin',
  'customerService',
  'technicalMaintenance',
] as const satisfies readonly Role[];
/** Who deletes, replays and sends test callbacks. */
export const CALLBACK_MANAGE_ROLES = ['superAdmin', 'admin'] as const satisfies readonly Role[];

/** pending: attempts to come; succeeded: the merchant answered SUCCESS; failed: the window is over; cancelled: not sent any more (order reversed, or another delivery of the same notification succeeded). */
export const CALLBACK_STATES = ['pending', 'succeeded', 'failed', 'cancelled'] as const;
export type CallbackState = (typeof CALLBACK_STATES)[number];
/** auto: the payment; manual: 'trigger callback' on the order; replay: a staff replay from the callback list. */
export const CALLBACK_TRIGGERS = ['auto', 'manual', 'replay'] as const;
export type CallbackTrigger = (typeof CALLBACK_TRIGGERS)[number];

/** Which kind of order a callback notifies: a collection order (paid) or a payout (completed, rejected, cancelled). */
export const CALLBACK_ORDER_TYPES = ['collection', 'payout'] as const;
export type CallbackOrderType = (typeof CALLBACK_ORDER_TYPES)[number];

/**
 * When the attempts of a callback are made, in milliseconds after it was created (DESIGN section 6),
 * as long as they fall inside TimeoutCallbackTime (hours, default 48).
 */
export const CALLBACK_SCHEDULE_MS: readonly number[] = [
  0,
  15_000,
  30_000,
  60_000,
  2 * 60_000,
  5 * 60_000,
  10 * 60_000,
  30 * 60_000,
  3_600_000,
  2 * 3_600_000,
  4 * 3_600_000,
  8 * 3_600_000,
  16 * 3_600_000,
  24 * 3_600_000,
];
/** Default of the TimeoutCallbackTime setting: attempts stop this many hours after a callback was created. */
export const DEFAULT_CALLBACK_WINDOW_HOURS = 48;
/** Most characters of a merchant's answer kept with an attempt (and shown by send test). */
export const CALLBACK_RESPONSE_LIMIT = 2048;

export const CALLBACK_TEXTS = {
  url: 'enter an http or https address of at most 512 characters',
  pending: 'a callback that is still being delivered cannot be deleted: wait until it succeeds or fails',
  notReplayable: 'only the callbacks of a paid order that is not reversed can be replayed',
  locked: 'the order is locked for investigation: unlock it first',
  noMerchant: 'no merchant has this merchant number',
} as const;

/** One callback as the callback info list and its export see it. */
export const callbackRowSchema = z.object({
  id: z.number().int(),
  /** A collection order's callback or a payout's: `orderCode`, `orderState` and the replay rule are of that kind. */
  orderType: z.enum(CALLBACK_ORDER_TYPES),
  orderCode: z.string(),
  merchantOrderNo: z.string(),
  merchantName: z.string(),
  merchantNo: z.string(),
  /**
   * The order's state now: a collection order's ORDER_STATE (the callback moves it from 6 or 4 to 3), a
   * payout's PAYOUT_STATE (final; its callback does not move it).
   */
  orderState: z.number().int(),
  /** The order is locked for investigation (replay is refused until it is unlocked); payouts have no lock. */
  orderLocked: z.boolean(),
  /** The id the merchant deduplicates on: the same for every delivery of an order or payout (`N<orderCode>`). */
  notificationId: z.string(),
  url: z.string(),
  state: z.enum(CALLBACK_STATES),
  trigger: z.enum(CALLBACK_TRIGGERS),
  attempts: z.number().int(),
  /** HTTP status of the latest attempt (null: none yet, or no answer). */
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  /** When the next attempt is due (pending callbacks only). */
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CallbackRow = z.infer<typeof callbackRowSchema>;

/** What a staff action on a callback may be refused for, by the row alone. */
export type CallbackActionRefusal = 'callbackPending' | 'notReplayable' | 'orderLocked';

/** Delete: refused while the callback is being delivered. Null: allowed. */
export const callbackDeleteRefusal = (callback: { state: string }): CallbackActionRefusal | null =>
  callback.state === 'pending' ? 'callbackPending' : null;

/**
 * Replay: a paid, unreversed collection order's callback, not while the order is locked; a payout's in
 * its final state (completed, rejected, cancelled: the one its notification tells). Null: allowed.
 */
export function callbackReplayRefusal(order: {
  orderType: CallbackOrderType;
  orderState: number;
  orderLocked: boolean;
}): CallbackActionRefusal | null {
  const notifiable: readonly number[] = order.orderType === 'payout' ? FINAL_PAYOUT_STATES : PAID_STATES;
  if (!notifiable.includes(order.orderState)) return 'notReplayable';
  return order.orderLocked ? 'orderLocked' : null;
}

/**
 * Whether a callback row allows `action`, by the rules the server refuses with (the console offers
 * what this allows). Null: allowed.
 */
export const callbackActionRefusal = (
  action: 'delete' | 'replay',
  row: { state: CallbackState; orderType: CallbackOrderType; orderState: number; orderLocked: boolean },
): CallbackActionRefusal | null => (action === 'delete' ? callbackDeleteRefusal(row) : callbackReplayRefusal(row));

/** One delivery attempt as the callback detail list and its export see it. */
export const callbackAttemptRowSchema = z.object({
  id: z.number().int(),
  callbackId: z.number().int(),
  orderType: z.enum(CALLBACK_ORDER_TYPES),
  orderCode: z.string(),
  merchantOrderNo: z.string(),
  trigger: z.enum(CALLBACK_TRIGGERS),
  /** 1 for the first attempt of its callback, 2 for the next, ... (the spec's `times`). */
  attemptNo: z.number().int(),
  url: z.string(),
  httpMethod: z.string(),
  /** The form body sent, `sign` included. */
  requestBody: z.string(),
  responseStatus: z.number().int().nullable(),
  /** The merchant's answer, at most 2 KiB. */
  responseBody: z.string().nullable(),
  error: z.string().nullable(),
  succeeded: z.boolean(),
  durationMs: z.number().int(),
  createdAt: z.string(),
});
export type CallbackAttemptRow = z.infer<typeof callbackAttemptRowSchema>;

const optionalEnum = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(emptyToNull, z.enum(values).nullable().optional());
const optionalPositiveInt = z.preprocess(emptyToNull, z.coerce.number().int().min(1).max(1000).nullable().optional());

/** Filters of the callback info list (spec section 3: orderCode, merchantOrderNo), shared with its export. */
export const callbackFilterShape = {
  orderCode: textFilter(40),
  merchantOrderNo: textFilter(64),
  state: optionalEnum(CALLBACK_STATES),
  trigger: optionalEnum(CALLBACK_TRIGGERS),
  orderType: optionalEnum(CALLBACK_ORDER_TYPES),
  /** Created from/to, 'YYYY-MM-DD HH:mm:ss' in the platform time zone. */
  startTime: dateTimeSchema,
  endTime: dateTimeSchema,
  ...sortShape(['createdAt', 'updatedAt', 'attempts']),
};

/**
 * Filters of the callback detail list (spec section 3: orderCode, merchantOrderCode, systemFlag,
 * httpMethod, times), shared with its export. `systemFlag` is accepted and has no effect: one PayDesk
 * installation is one system, so every attempt carries the same flag.
 */
export const callbackAttemptFilterShape = {
  callbackId: z.preprocess(
    emptyToNull,
    z.coerce
      .number()
      .int()
      .positive()
      .max(2 ** 53 - 1)
      .nullable()
      .optional(),
  ),
  orderCode: textFilter(40),
  merchantOrderCode: textFilter(64),
  systemFlag: textFilter(64),
  httpMethod: z.preprocess(
    (v) => (typeof v === 'string' ? emptyToNull(v.trim().toUpperCase()) : v),
    z.enum(['POST', 'GET']).nullable().optional(),
  ),
  /** The attempt number. */
  times: optionalPositiveInt,
  succeeded: z.preprocess(emptyToNull, queryBoolean.nullable().optional()),
  orderType: optionalEnum(CALLBACK_ORDER_TYPES),
  startTime: dateTimeSchema,
  endTime: dateTimeSchema,
};

const httpUrl = z
  .string()
  .trim()
  .max(512, CALLBACK_TEXTS.url)
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
    } catch {
      return false;
    }
  }, CALLBACK_TEXTS.url);

/** What a test delivery sent and what came back. */
export const exchangeSchema = z.object({
  url: z.string(),
  httpMethod: z.string(),
  requestBody: z.string(),
  /** Whose key signed it, e.g. "merchant 10001 (HMAC-SHA256)"; never the key itself. */
  signedWith: z.string(),
  responseStatus: z.number().int().nullable(),
  responseBody: z.string().nullable(),
  error: z.string().nullable(),
  /** HTTP 2xx and the body SUCCESS (trimmed, any case): what a real delivery counts as delivered. */
  succeeded: z.boolean(),
  durationMs: z.number().int(),
});

export const callbacksEndpoints = {
  getList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/orderCallBack/getList',
    summary: 'Order callback info: one row per callback (payment, manual trigger, replay) with its state and attempts',
    input: z.strictObject({ ...pagingShape, ...callbackFilterShape }),
    output: pageOf(callbackRowSchema),
    example: { pageIndex: 1, pageNum: 20, orderCode: 'C26112312000012345678' },
    access: CALLBACK_READ_ROLES,
    token2: false,
    scope: 'owned',
  }),
  exportList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/orderCallBack/export',
    summary: 'Every callback of the filtered set as CSV, in the list’s order',
    input: z.strictObject(callbackFilterShape),
    output: callbackRowSchema,
    example: { state: 'failed' },
    access: CALLBACK_READ_ROLES,
    token2: false,
    scope: 'owned',
    produces: 'csv',
  }),
  getDetailList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/orderCallBack/getDetailList',
    summary: 'Order callback detail: every delivery attempt with the request sent, the answer, status and duration',
    input: z.strictObject({ ...pagingShape, ...callbackAttemptFilterShape }),
    output: pageOf(callbackAttemptRowSchema),
    example: { pageIndex: 1, pageSize: 20, orderCode: 'C26112312000012345678', httpMethod: 'POST', times: 1 },
    access: CALLBACK_READ_ROLES,
    token2: false,
    scope: 'owned',
  }),
  exportDetailList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/orderCallBack/exportDetail',
    summary: 'Every delivery attempt of the filtered set as CSV, newest first',
    input: z.strictObject(callbackAttemptFilterShape),
    output: callbackAttemptRowSchema,
    example: { orderCode: 'C26112312000012345678' },
    access: CALLBACK_READ_ROLES,
    token2: false,
    scope: 'owned',
    produces: 'csv',
  }),
  delete: defineEndpoint({
    method: 'POST',
    path: '/v1.0/orderCallBack/delete',
    summary: 'Delete callback records from the lists (kept in the database); one still being delivered is refused',
    input: z.strictObject({
      ids: z.array(idSchema).min(1, 'choose at least one callback').max(200, 'at most 200 callbacks at once'),
    }),
    output: z.object({ count: z.number().int() }),
    example: { ids: [1] },
    access: CALLBACK_MANAGE_ROLES,
    token2: false,
    scope: 'owned',
  }),
  replay: defineEndpoint({
    method: 'POST',
    path: '/v1.0/orderCallBack/replay',
    summary: 'Replay: a new delivery of that callback’s order to the same address now, retried on the schedule',
    input: z.strictObject({ id: idSchema }),
    output: z.object({ callbackId: z.number().int(), orderCode: z.string() }),
    example: { id: 1 },
    access: CALLBACK_MANAGE_ROLES,
    token2: false,
    scope: 'owned',
  }),
  sendTest: defineEndpoint({
    method: 'POST',
    path: '/v1.0/orderCallBack/sendTest',
    summary:
      'Order send test: POST a signed callback to the address now (an order’s own notification, or a sample of a merchant’s) and show the exchange',
    input: z.strictObject({
      url: httpUrl,
      orderCode: z.preprocess(emptyToNull, orderCodeSchema.nullable().optional()),
      /** Sample of this merchant (merchant number), signed with its key, when no order is named. */
      mchId: z.preprocess(
        emptyToNull,
        z
          .string()
          .trim()
          .max(32, 'mchId is a merchant number')
          .regex(/^[A-Za-z0-9]{1,32}$/, 'mchId is a merchant number')
          .nullable()
          .optional(),
      ),
    }),
    output: exchangeSchema,
    example: { url: 'https://merchant.example/notify', orderCode: 'C26112312000012345678' },
    access: CALLBACK_MANAGE_ROLES,
    token2: false,
    scope: 'owned',
    rateLimit: { max: 60, timeWindowMs: 60_000 },
  }),
} as const satisfies EndpointGroup;
