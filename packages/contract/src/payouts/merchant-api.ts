import { z } from 'zod';
import { MERCHANT_API_TEXTS, signedFields } from '../orders/merchant-api.js';
import { MERCHANT_QUERY_TEXTS } from '../orders/merchant-queries.js';

/**
 * The payout request (issue 20; spec sections 3 and 5; DESIGN section 7): signed exactly like a
 * collection order's create, idempotent on mchOrderNo. The console's creation form sends the same
 * fields less mchId and sign (the session stands for them). Values are never transformed, so the
 * server signs exactly what the merchant sent.
 */

const { text, field, pattern, isIpAddress, URL_RE } = signedFields;
const M = MERCHANT_API_TEXTS;

/** Spec section 8's texts of payout creation, and this API's own. */
export const PAYOUT_TEXTS = {
  /** Spec sections 5 and 8: any of the payee's required fields missing. */
  required: 'name, card number, bank branch, address and amount cannot be empty',
  ifscCode: M.ifscCode,
  cardNumber: M.cardNumber,
  userName: 'name is at most 128 characters',
  bankName: M.bankName,
  bankBranch: 'bank branch is at most 128 characters',
  address: 'address is at most 256 characters',
  remark: 'remark is at most 256 characters',
  walletAddress: 'address must be a USDT wallet address (TRON: T and 33 letters or digits)',
  productId: 'productId must be a payout product: 2001, 2002, 2003 or 3016',
} as const;
const P = PAYOUT_TEXTS;

/** The payout products (DESIGN section 6): bank, India auto, gateway, USDT. */
export const PAYOUT_PRODUCT_IDS = [2001, 2002, 2003, 3016] as const;
export const USDT_PAYOUT_PRODUCT_ID = 3016;

const present = (v: unknown) => v !== undefined && v !== null && String(v).trim() !== '';

/** The payee's fields and the amount, with the rules of spec section 5. */
const payeeShape = {
  productId: pattern(/^(?:2001|2002|2003|3016)$/, P.productId),
  mchOrderNo: pattern(/^[A-Za-z0-9_-]{1,64}$/, M.mchOrderNo),
  amount: pattern(/^[1-9]\d{0,17}$/, M.amount).optional(),
  notifyUrl: pattern(URL_RE, `notifyUrl ${M.url}`).optional(),
  userName: field(128, P.userName).optional(),
  cardNumber: pattern(/^\d{1,20}$/, P.cardNumber).optional(),
  ifscCode: pattern(/^[A-Z]{4}0[A-Z0-9]{6}$/, P.ifscCode).optional(),
  bankName: field(128, P.bankName).optional(),
  bankBranch: field(128, P.bankBranch).optional(),
  address: field(256, P.address).optional(),
  remark: field(256, P.remark).optional(),
};

/**
 * Required by product: a bank payout needs the payee's name, card (account) number, IFSC, bank branch,
 * address and the amount; a USDT payout the wallet address and the amount. A missing one is reported
 * on its own field with spec section 8's one text.
 */
function requirePayee(v: Record<string, unknown>, ctx: z.RefinementCtx) {
  const usdt = String(v.productId) === String(USDT_PAYOUT_PRODUCT_ID);
  const required = usdt
    ? ['address', 'amount']
    : ['userName', 'cardNumber', 'ifscCode', 'bankBranch', 'address', 'amount'];
  for (const key of required) {
    if (!present(v[key])) ctx.addIssue({ code: 'custom', path: [key], message: P.required });
  }
  if (usdt && present(v.address) && !/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(String(v.address))) {
    ctx.addIssue({ code: 'custom', path: ['address'], message: P.walletAddress });
  }
}

export const createPayoutRequest = z
  .strictObject({
    mchId: pattern(/^[A-Za-z0-9]{1,32}$/, M.mchId),
    ...payeeShape,
    clientIp: text.refine(isIpAddress, M.clientIp).optional(),
    signType: pattern(/^(?:HMAC-SHA256|MD5)$/, M.signType).optional(),
    sign: pattern(/^(?:[0-9A-Fa-f]{32}|[0-9A-Fa-f]{64})$/, M.sign),
  })
  .superRefine(requirePayee);
export type CreatePayoutRequest = z.input<typeof createPayoutRequest>;

/** The console's creation form (merchant session and token2): the API's fields less mchId and sign. */
export const consolePayoutRequest = z.strictObject(payeeShape).superRefine(requirePayee);
export type ConsolePayoutRequest = z.input<typeof consolePayoutRequest>;

/** A payout as the merchant API answers it (create and query). */
export const payoutAnswer = z.object({
  orderCode: z.string(),
  mchOrderNo: z.string(),
  productId: z.number().int(),
  /** Minor units (1/100). */
  amount: z.number().int(),
  /** The merchant's fee, held with the amount and kept by the platform when it completes. */
  fee: z.number().int(),
  /** PAYOUT_STATE. */
  state: z.number().int(),
  stateName: z.string(),
  /** The bank's reference of the transfer (or the USDT transaction hash), once submitted. */
  utr: z.string().nullable(),
  createTime: z.string(),
  completeTime: z.string().nullable(),
  /** Why it was rejected, when it was. */
  rejectReason: z.string().nullable(),
});
export type PayoutAnswer = z.infer<typeof payoutAnswer>;

/**
 * POST /v1.0/api/payout/query: one payout of the caller's, by its mchOrderNo or by its orderCode (exactly
 * one of them), signed like the create; the answer is the create's.
 */
export const queryPayoutRequest = z
  .strictObject({
    mchId: pattern(/^[A-Za-z0-9]{1,32}$/, M.mchId),
    mchOrderNo: pattern(/^[A-Za-z0-9_-]{1,64}$/, M.mchOrderNo).optional(),
    orderCode: z
      .string()
      .max(40, MERCHANT_QUERY_TEXTS.orderCode)
      .regex(/^[A-Z0-9]{6,40}$/, MERCHANT_QUERY_TEXTS.orderCode)
      .optional(),
    signType: pattern(/^(?:HMAC-SHA256|MD5)$/, M.signType).optional(),
    sign: pattern(/^(?:[0-9A-Fa-f]{32}|[0-9A-Fa-f]{64})$/, M.sign),
  })
  .refine((v) => (v.mchOrderNo === undefined) !== (v.orderCode === undefined), {
    message: MERCHANT_QUERY_TEXTS.oneKey,
    path: ['orderCode'],
  });
export type QueryPayoutRequest = z.input<typeof queryPayoutRequest>;
