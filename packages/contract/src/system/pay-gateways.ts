import { z } from 'zod';
import { defineEndpoint, type EndpointGroup } from '../common/endpoint.js';
import { emptyToNull, idSchema, pageOf, pagingShape, queryBoolean, remarkText, textFilter } from '../common/paging.js';
import { gatewayBaseUrlSchema } from '../resources/details.js';

/**
 * Pay gateway config (spec section 2, system management › pay gateway config; issue 21 item 6;
 * DESIGN section 10): the upstream gateways' addresses and credentials, kept once and used by the
 * gateway payout accounts that name them (`details.gatewayId`) and by pay scripts' notifications.
 * The key secret and the webhook secret are sealed at rest and never answered: a row says whether
 * each is set; on update a blank one keeps the sealed one.
 *
 * - `payoutApi`: a RazorpayX-style payout API (base URL, key id and key secret for its basic auth,
 *   the webhook secret its webhooks are signed with). All four are required.
 * - `collectionNotify`: an upstream that notifies collection payments (POST /v1.0/pay/notify/:gatewayId,
 *   signed with the webhook secret) to the pay script it names (`payScriptId`), whose active version's
 *   parseNotification reads them; the webhook secret is required, the rest is optional.
 */
export const PAY_GATEWAY_KINDS = ['payoutApi', 'collectionNotify'] as const;
export type PayGatewayKind = (typeof PAY_GATEWAY_KINDS)[number];

export const payGatewayRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(PAY_GATEWAY_KINDS),
  baseUrl: z.string(),
  keyId: z.string(),
  /** Whether a key secret is sealed (never the secret). */
  hasKeySecret: z.boolean(),
  /** Whether a webhook secret is sealed (never the secret). */
  hasWebhookSecret: z.boolean(),
  remark: z.string(),
  enabled: z.boolean(),
  /** collectionNotify: the pay script whose active version reads its notifications, and its name. */
  payScriptId: z.number().int().nullable(),
  payScriptName: z.string().nullable(),
  /** How many payout accounts (not deleted) name this gateway. */
  accounts: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The account that changed it last. */
  updatedBy: z.string().nullable(),
});
export type PayGatewayRow = z.infer<typeof payGatewayRowSchema>;

/** A text left empty (or null) is absent. */
const optionalText = <S extends z.ZodType>(s: S) =>
  z.preprocess((v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v), s.optional());

const nameSchema = z.string().trim().min(1).max(64);
const keyIdSchema = z.string().trim().min(1).max(128);
const secretSchema = z.string().min(8, 'a secret is at least 8 characters').max(256);

const fieldsShape = {
  name: nameSchema,
  baseUrl: optionalText(gatewayBaseUrlSchema),
  keyId: optionalText(keyIdSchema),
  keySecret: optionalText(secretSchema),
  webhookSecret: optionalText(secretSchema),
  remark: remarkText(200),
  /**
   * collectionNotify only: the pay script whose active version's parseNotification reads the gateway's
   * notifications (POST /v1.0/pay/notify/:gatewayId); absent or null: none (its notifications are
   * refused). An update sets it like every other field (absent clears it). The server refuses one on a
   * payoutApi gateway (422 payGatewayScriptNotNotify) and an unknown one (422 payGatewayScriptUnknown).
   */
  payScriptId: z.preprocess(emptyToNull, idSchema.nullable().optional()),
};

const filterShape = {
  name: textFilter(64),
  kind: z.preprocess(emptyToNull, z.enum(PAY_GATEWAY_KINDS).nullable().optional()),
  enabled: z.preprocess(emptyToNull, queryBoolean.nullable().optional()),
};

/** Who reads the config: superAdmin and admin, technical maintenance read-only (spec section 2). */
const READERS = ['superAdmin', 'admin', 'technicalMaintenance'] as const;
/** Who changes it. */
const WRITERS = ['superAdmin', 'admin'] as const;

const required = (ctx: z.RefinementCtx, field: string) =>
  ctx.addIssue({ code: 'custom', message: `${field} is required for this kind of gateway`, path: [field] });

export const payGatewaysEndpoints = {
  getPayGateways: defineEndpoint({
    method: 'GET',
    path: '/v1.0/system/payGateway/list',
    summary: 'The pay gateways, newest first (secrets answered only as set or not)',
    input: z.strictObject({ ...filterShape, ...pagingShape }),
    output: pageOf(payGatewayRowSchema),
    example: { pageIndex: 1 },
    access: READERS,
    token2: false,
    scope: 'none',
  }),
  exportPayGateways: defineEndpoint({
    method: 'GET',
    path: '/v1.0/system/payGateway/export',
    summary: 'The filtered pay gateways as CSV (no secrets)',
    input: z.strictObject({ ...filterShape }),
    output: payGatewayRowSchema,
    example: {},
    access: READERS,
    token2: false,
    scope: 'none',
    produces: 'csv',
  }),
  createPayGateway: defineEndpoint({
    method: 'POST',
    path: '/v1.0/system/payGateway/create',
    summary: 'Adds a pay gateway (created enabled); its secrets are sealed',
    input: z.strictObject({ kind: z.enum(PAY_GATEWAY_KINDS), ...fieldsShape }).superRefine((v, ctx) => {
      if (v.kind === 'payoutApi') {
        if (v.baseUrl === undefined) required(ctx, 'baseUrl');
        if (v.keyId === undefined) required(ctx, 'keyId');
        if (v.keySecret === undefined) required(ctx, 'keySecret');
      }
      if (v.webhookSecret === undefined) required(ctx, 'webhookSecret');
    }),
    output: payGatewayRowSchema,
    example: {
      kind: 'payoutApi',
      name: 'RazorpayX main',
      baseUrl: 'https://api.razorpay.com',
      keyId: 'rzp_live_abc123',
      keySecret: 'key-secret-value',
      webhookSecret: 'webhook-secret-value',
      remark: '',
    },
    access: WRITERS,
    token2: true,
    scope: 'none',
  }),
  updatePayGateway: defineEndpoint({
    method: 'POST',
    path: '/v1.0/system/payGateway/update',
    summary: 'Changes a pay gateway; a secret left blank keeps the sealed one',
    input: z.strictObject({ id: idSchema, ...fieldsShape }),
    output: payGatewayRowSchema,
    example: {
      id: 1,
      name: 'RazorpayX main',
      baseUrl: 'https://api.razorpay.com',
      keyId: 'rzp_live_abc123',
      remark: 'rotated key',
    },
    access: WRITERS,
    token2: true,
    scope: 'none',
  }),
  setPayGatewayEnabled: defineEndpoint({
    method: 'POST',
    path: '/v1.0/system/payGateway/setEnabled',
    summary: 'Switches a pay gateway on or off (an account naming a switched-off one sends nothing)',
    input: z.strictObject({ id: idSchema, enabled: z.boolean() }),
    output: payGatewayRowSchema,
    example: { id: 1, enabled: false },
    access: WRITERS,
    token2: true,
    scope: 'none',
  }),
  deletePayGateway: defineEndpoint({
    method: 'POST',
    path: '/v1.0/system/payGateway/delete',
    summary: 'Deletes a pay gateway no payout account names',
    input: z.strictObject({ id: idSchema }),
    output: z.null(),
    example: { id: 1 },
    access: WRITERS,
    token2: true,
    scope: 'none',
  }),
} as const satisfies EndpointGroup;
