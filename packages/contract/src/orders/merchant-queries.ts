import { z } from 'zod';
import { createOrderRequest } from './merchant-api.js';
import { ORDER_STATE, type OrderStateName } from './states.js';

/**
 * The merchant API's signed query calls (DESIGN section 7, "Merchant API beyond create"): a merchant
 * whose callback was lost asks for its order, or for its balance. Signed exactly like order create
 * (the same `mchId`, `signType` and `sign` fields, the same checks), JSON or form-encoded.
 */

export const MERCHANT_QUERY_TEXTS = {
  orderCode: 'orderCode is PayDesk’s order code: 6 to 40 capital letters and digits',
  oneKey: 'send exactly one of mchOrderNo and orderCode',
} as const;

const { mchId, signType, sign } = createOrderRequest.shape;

/** POST /v1.0/api/order/query: one order of the caller's, by its mchOrderNo or by its orderCode (one of them). */
export const queryOrderRequest = z
  .strictObject({
    mchId,
    mchOrderNo: createOrderRequest.shape.mchOrderNo.optional(),
    orderCode: z
      .string()
      .max(40, MERCHANT_QUERY_TEXTS.orderCode)
      .regex(/^[A-Z0-9]{6,40}$/, MERCHANT_QUERY_TEXTS.orderCode)
      .optional(),
    signType,
    sign,
  })
  .refine((v) => (v.mchOrderNo === undefined) !== (v.orderCode === undefined), {
    message: MERCHANT_QUERY_TEXTS.oneKey,
    path: ['orderCode'],
  });
export type QueryOrderRequest = z.input<typeof queryOrderRequest>;

const STATE_NAMES = Object.keys(ORDER_STATE) as [OrderStateName, ...OrderStateName[]];

/** An order as its merchant may read it: its public fields, the same the callback carries, and more. */
export const queryOrderAnswer = z.object({
  orderCode: z.string(),
  mchOrderNo: z.string(),
  productId: z.number().int(),
  /** In the product's API units, as the merchant sent it (1/100, or 1/10000 for 1045). */
  amount: z.number().int(),
  /** The merchant's fee of the order, in the same units as `amount`. */
  fee: z.number().int(),
  /** The order state's code (ORDER_STATE) and its name there (`callbackSucceeded`). */
  state: z.number().int(),
  stateName: z.enum(STATE_NAMES),
  /** The payment's UTR (or transaction hash) when known; null until paid. */
  utr: z.string().nullable(),
  /** ISO 8601 instants (UTC). */
  createTime: z.string(),
  paidTime: z.string().nullable(),
  /** The id the order's callback carries (the merchant deduplicates on it); null while none was recorded. */
  notificationId: z.string().nullable(),
});
export type QueryOrderAnswer = z.infer<typeof queryOrderAnswer>;

/** POST /v1.0/api/balance/query: the caller's balance. */
export const queryBalanceRequest = z.strictObject({ mchId, signType, sign });
export type QueryBalanceRequest = z.input<typeof queryBalanceRequest>;

/** The currency of merchant balances: the ledger keeps them in 1/100 of it. */
export const BALANCE_CURRENCY = 'INR';

export const queryBalanceAnswer = z.object({
  /** What the merchant may use now, in 1/100 of `currency`. */
  available: z.number().int(),
  /** Held for payouts in flight, in 1/100 of `currency`. */
  frozen: z.number().int(),
  currency: z.literal(BALANCE_CURRENCY),
  /** When the balance was read (ISO 8601, UTC). */
  time: z.string(),
});
export type QueryBalanceAnswer = z.infer<typeof queryBalanceAnswer>;
