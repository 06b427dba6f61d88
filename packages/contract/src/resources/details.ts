import { z } from 'zod';
import { productById } from '../products/catalogue.js';

/**
 * Resources (receiving and payout accounts, DESIGN section 6): each channel kind has its own fields,
 * validated here for the server and the console forms alike. The messages are the console's texts in
 * English (spec sections 5 and 8: 'invalid IFSC format' is the spec's own); the console translates
 * them by their key in RESOURCE_TEXTS.
 */
export const RESOURCE_TEXTS = {
  nameRequired: 'resource name cannot be empty',
  nameTooLong: 'resource name is at most 128 characters',
  accountNameRequired: 'account name cannot be empty',
  accountNameTooLong: 'account name is at most 128 characters',
  bankNameRequired: 'bank name cannot be empty',
  bankNameTooLong: 'bank name is at most 128 characters',
  cardNumberInvalid: 'card number must be digits only, at most 20',
  accountNumberInvalid: 'account number must be digits only, at most 20',
  ifscInvalid: 'invalid IFSC format',
  vpaInvalid: 'invalid UPI ID, e.g. name@bank',
  keyIdRequired: 'key id cannot be empty',
  keyIdTooLong: 'key id is at most 128 characters',
  keySecretRequired: 'key secret cannot be empty',
  keySecretTooLong: 'key secret is at most 256 characters',
  webhookSecretRequired: 'webhook secret cannot be empty',
  webhookSecretTooLong: 'webhook secret is at most 256 characters',
  gatewayIdInvalid: 'choose a pay gateway of the pay gateway config',
  baseUrlInvalid: 'the gateway URL must be an http or https address without user, password, query or fragment',
  addressInvalid: 'invalid TRC20 wallet address',
  phoneInvalid: 'invalid Kenyan mobile number: 2547XXXXXXXX or 2541XXXXXXXX',
  linkInvalid: 'a link must be an http or https address of at most 512 characters',
  minAboveMax: 'minimum amount must not exceed maximum amount',
  productUnknown: 'no such product',
  // refusals (422 with these reasons)
  supplierRequired: 'choose the supplier of the resource',
  notASupplier: 'your account has no supplier record',
  supplierDisabled: 'the supplier of this resource is disabled, so it cannot be switched on',
  productDisabled: 'the product of this resource is disabled, so it cannot be switched on',
  redWalletLimit: 'the supplier already has as many red-packet accounts (WeChat, Alipay) switched on as allowed',
  resourceBusy: 'the resource has open orders and cannot be deleted',
  qrImageNotTaken: 'this channel takes no QR image',
  fileType: 'file type error',
  imageTooLarge: 'the image is larger than 512 KiB',
} as const;
export type ResourceTextKey = keyof typeof RESOURCE_TEXTS;

const T = RESOURCE_TEXTS;

/** Trimmed text; empty means absent. */
const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);

const requiredText = (max: number, required: string, tooLong: string) =>
  z.preprocess(trimmed, z.string(required).min(1, required).max(max, tooLong));

export const accountNameSchema = requiredText(128, T.accountNameRequired, T.accountNameTooLong);
export const bankNameSchema = requiredText(128, T.bankNameRequired, T.bankNameTooLong);
/** Digits only, at most 20 (spec section 5); spaces typed between groups are removed. */
export const cardNumberSchema = z.preprocess(
  (v) => (typeof v === 'string' ? v.replace(/\s+/g, '') : v),
  z.string(T.cardNumberInvalid).regex(/^\d{1,20}$/, T.cardNumberInvalid),
);
export const accountNumberSchema = z.preprocess(
  (v) => (typeof v === 'string' ? v.replace(/\s+/g, '') : v),
  z.string(T.accountNumberInvalid).regex(/^\d{1,20}$/, T.accountNumberInvalid),
);
/** 11 characters: 4 capitals, 0, 6 capitals or digits (spec section 5). */
export const IFSC_PATTERN = /^[A-Z]{4}0[A-Z0-9]{6}$/;
export const ifscSchema = z.preprocess(trimmed, z.string(T.ifscInvalid).regex(IFSC_PATTERN, T.ifscInvalid));
export const vpaSchema = z.preprocess(
  trimmed,
  z
    .string(T.vpaInvalid)
    .max(100, T.vpaInvalid)
    .regex(/^[A-Za-z0-9._-]{2,}@[A-Za-z][A-Za-z0-9.-]*$/, T.vpaInvalid),
);
/** TRC20 (TRON) address: 'T' and 33 base58 characters. */
export const TRC20_PATTERN = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;
export const trc20Schema = z.preprocess(trimmed, z.string(T.addressInvalid).regex(TRC20_PATTERN, T.addressInvalid));
/** A Kenyan mobile number in international form (Safaricom, Airtel, ...): 2547XXXXXXXX or 2541XXXXXXXX. */
export const KENYA_PHONE_PATTERN = /^254[17]\d{8}$/;
export const kenyaPhoneSchema = z.preprocess(
  (v) => (typeof v === 'string' ? v.replace(/[\s+]/g, '') : v),
  z.string(T.phoneInvalid).regex(KENYA_PHONE_PATTERN, T.phoneInvalid),
);
/** An http(s) address (payment link, link, jumpLink). */
export const linkSchema = z.preprocess(
  trimmed,
  z
    .string(T.linkInvalid)
    .max(512, T.linkInvalid)
    .regex(/^https?:\/\/[^\s]+$/i, T.linkInvalid),
);
const optionalOf = <S extends z.ZodType>(s: S) =>
  z.preprocess((v) => (v === '' || (typeof v === 'string' && v.trim() === '') ? null : v), s.nullable().optional());

const keyIdSchema = requiredText(128, T.keyIdRequired, T.keyIdTooLong);
const keySecretSchema = requiredText(256, T.keySecretRequired, T.keySecretTooLong);
const webhookSecretSchema = requiredText(256, T.webhookSecretRequired, T.webhookSecretTooLong);
/**
 * A payout gateway's API root (e.g. https://api.razorpay.com). No user, password, query or fragment:
 * a secret in the URL would end up in logs and error texts. Trailing slashes are dropped.
 */
export const gatewayBaseUrlSchema = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim().replace(/\/+$/, '') : v),
  z
    .string(T.baseUrlInvalid)
    .max(500, T.baseUrlInvalid)
    .refine((value) => {
      try {
        const url = new URL(value);
        return (
          (url.protocol === 'https:' || url.protocol === 'http:') &&
          !url.username &&
          !url.password &&
          !url.search &&
          !url.hash &&
          !/[?#]/.test(value)
        );
      } catch {
        return false;
      }
    }, T.baseUrlInvalid),
);

/** The channel kinds (a product's `resourceKind`) and their own fields. */
export const RESOURCE_KINDS = [
  'upi',
  'cardToCard',
  'bankPayout',
  'gatewayPayout',
  'usdtWallet',
  'usdtPayout',
  'kenyaMobileMoney',
  'wechat',
  'alipay',
] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

const bankCard = {
  accountName: accountNameSchema,
  bankName: bankNameSchema,
  cardNumber: cardNumberSchema,
  ifsc: ifscSchema,
};
const bankAccount = {
  accountName: accountNameSchema,
  bankName: bankNameSchema,
  accountNumber: accountNumberSchema,
  ifsc: ifscSchema,
};
const qrChannel = { accountName: accountNameSchema, paymentLink: optionalOf(linkSchema) };

/** Details of each kind as a form sends them on create (a gateway's key secret is required then). */
export const RESOURCE_DETAILS = {
  upi: z.strictObject({ ...bankCard, vpa: optionalOf(vpaSchema) }),
  cardToCard: z.strictObject(bankCard),
  bankPayout: z.strictObject(bankAccount),
  gatewayPayout: z.strictObject({
    baseUrl: gatewayBaseUrlSchema,
    keyId: keyIdSchema,
    keySecret: keySecretSchema,
    webhookSecret: webhookSecretSchema,
    accountNumber: accountNumberSchema,
  }),
  usdtWallet: z.strictObject({ address: trc20Schema }),
  usdtPayout: z.strictObject({ address: trc20Schema }),
  kenyaMobileMoney: z.strictObject({ phone: kenyaPhoneSchema, accountName: accountNameSchema }),
  wechat: z.strictObject(qrChannel),
  alipay: z.strictObject(qrChannel),
} as const satisfies Record<ResourceKind, z.ZodType>;

/**
 * Fields that are secrets: sealed at rest (a gateway's two together, as one JSON object), never sent
 * back (a row says `hasSecret` instead).
 */
export const SECRET_DETAIL_FIELDS = ['keySecret', 'webhookSecret'] as const;
export type SecretDetailField = (typeof SECRET_DETAIL_FIELDS)[number];

/** The id of a pay gateway (system › pay gateway config), kept in details as text like every field. */
const gatewayIdSchema = z.preprocess(
  (v) => (typeof v === 'number' ? String(v) : trimmed(v)),
  z.string(T.gatewayIdInvalid).regex(/^[1-9]\d{0,8}$/, T.gatewayIdInvalid),
);

/**
 * A gateway payout account that names a configured pay gateway (`gatewayId`): the gateway's base URL,
 * key and webhook secret are used, read at each call; the account keeps its own business account
 * number. Its own credentials may still be given (kept, unused while it names a gateway).
 */
export const GATEWAY_CONFIG_DETAILS = z.strictObject({
  gatewayId: gatewayIdSchema,
  baseUrl: optionalOf(gatewayBaseUrlSchema),
  keyId: optionalOf(keyIdSchema),
  keySecret: optionalOf(keySecretSchema),
  webhookSecret: optionalOf(webhookSecretSchema),
  accountNumber: accountNumberSchema,
});

/** Whether the details (as sent or stored) name a configured pay gateway. */
export function namesPayGateway(details: unknown): boolean {
  if (details === null || typeof details !== 'object') return false;
  const id = (details as Record<string, unknown>).gatewayId;
  return (typeof id === 'string' && id.trim() !== '') || typeof id === 'number';
}

/**
 * The details schema of a kind. On update a gateway's secrets may each be left out: the sealed one is kept.
 * With `details` given, a gateway account naming a pay gateway (`gatewayId`) is checked as such.
 */
export function detailsSchemaOf(
  kind: string,
  mode: 'create' | 'update' = 'create',
  details?: unknown,
): z.ZodType | undefined {
  if (!(RESOURCE_KINDS as readonly string[]).includes(kind)) return undefined;
  if (kind === 'gatewayPayout' && namesPayGateway(details)) return GATEWAY_CONFIG_DETAILS;
  if (kind === 'gatewayPayout' && mode === 'update') {
    return RESOURCE_DETAILS.gatewayPayout.extend({
      keySecret: optionalOf(keySecretSchema),
      webhookSecret: optionalOf(webhookSecretSchema),
    });
  }
  return RESOURCE_DETAILS[kind as ResourceKind];
}

/** The kind of resource a product allocates, or undefined for an unknown product. */
export function resourceKindOf(productId: number): ResourceKind | undefined {
  const kind = productById(productId)?.resourceKind;
  return kind && (RESOURCE_KINDS as readonly string[]).includes(kind) ? (kind as ResourceKind) : undefined;
}

/** Checks `details` against the kind of `productId`; issues get the path ['details', field]. */
export function checkDetails(
  value: { productId?: unknown; details?: unknown },
  ctx: z.RefinementCtx,
  mode: 'create' | 'update',
): void {
  if (typeof value.productId !== 'number' || value.details === null || typeof value.details !== 'object') return;
  const kind = resourceKindOf(value.productId);
  const schema = kind ? detailsSchemaOf(kind, mode, value.details) : undefined;
  if (!schema) return;
  const result = schema.safeParse(value.details);
  if (result.success) return;
  for (const issue of result.error.issues) {
    ctx.addIssue({ code: 'custom', message: issue.message, path: ['details', ...issue.path] });
  }
}

/**
 * The text a QR code encodes for an account, when its fields give one: a UPI deep link for a UPI ID,
 * the wallet address for USDT. Other channels show an uploaded QR image instead (null here).
 */
export function qrTextOf(kind: string, details: Record<string, unknown>): string | null {
  if (kind === 'upi' && typeof details.vpa === 'string' && details.vpa) {
    const name = typeof details.accountName === 'string' ? details.accountName : '';
    // The UPI ID's characters are URL-safe (vpaSchema); the name is encoded.
    return `upi://pay?pa=${details.vpa}&pn=${encodeURIComponent(name)}`;
  }
  if ((kind === 'usdtWallet' || kind === 'usdtPayout') && typeof details.address === 'string') {
    return details.address;
  }
  return null;
}
