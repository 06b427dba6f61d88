import { z } from 'zod';
import type { EndpointGroup } from '../common/endpoint.js';
import { defineEndpoint } from '../common/endpoint.js';
import { imageUploadSchema } from '../common/images.js';
import { minorAmount, sortShape } from '../common/money.js';
import { emptyToNull, idSchema, pageOf, pagingShape, queryIdSchema, textFilter } from '../common/paging.js';
import { productById } from '../products/catalogue.js';
import { RESOURCE_ACTIONS, RESOURCE_MANAGE_ROLES, RESOURCE_READ_ROLES } from './actions.js';
import { checkDetails, linkSchema, RESOURCE_KINDS, RESOURCE_TEXTS } from './details.js';

const T = RESOURCE_TEXTS;

/** Resource state (spec section 3): 0 means enabled; new resources start disabled. */
export const RESOURCE_STATE = { enabled: 0, disabled: 1 } as const;
export const resourceStateSchema = z.union([z.literal(0), z.literal(1)]);

/** Most ids a bulk switch takes at once. */
export const BULK_ENABLE_MAX = 200;

/**
 * One resource as lists, exports and forms see it. `details` holds the channel's own fields without
 * any secret (a gateway row says `hasSecret`). Money in minor units. `qrCode` is the text a QR code
 * encodes (UPI deep link, USDT address) when the account data gives one; `qrImageId` names an uploaded
 * QR image (read with qrImage). `todayCount`/`todayAmount`: orders processed today (platform time zone).
 */
export const resourceFieldsSchema = z.object({
  id: z.number().int(),
  supplierId: z.number().int(),
  supplierName: z.string(),
  productId: z.number().int(),
  productName: z.string(),
  kind: z.string(),
  name: z.string(),
  state: z.number().int(),
  details: z.record(z.string(), z.string()),
  hasSecret: z.boolean(),
  minAmount: z.number().int().nullable(),
  maxAmount: z.number().int().nullable(),
  dailyAmountLimit: z.number().int().nullable(),
  dailyCountLimit: z.number().int().nullable(),
  link: z.string().nullable(),
  jumpLink: z.string().nullable(),
  qrCode: z.string().nullable(),
  qrImageId: z.number().int().nullable(),
  todayCount: z.number().int(),
  todayAmount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/**
 * One resource as the list and the forms answer it: its fields and the actions the caller may take on
 * it now (the contract's `allowedResourceActions` for the caller's role and the row's facts: its open
 * orders, kind, supplier and product), which are the buttons the console offers. The CSV export has
 * the fields only.
 */
export const resourceRowSchema = resourceFieldsSchema.extend({ allowedActions: z.array(z.enum(RESOURCE_ACTIONS)) });
export type ResourceRow = z.infer<typeof resourceRowSchema>;
export type ResourceFields = z.infer<typeof resourceFieldsSchema>;

const optionalQueryId = z.preprocess(emptyToNull, queryIdSchema.nullable().optional());

/** The list's filters, shared by the list and its export. */
export const resourceFilterShape = {
  supplierId: optionalQueryId,
  productId: optionalQueryId,
  kind: z.preprocess(emptyToNull, z.enum(RESOURCE_KINDS).nullable().optional()),
  /**
   * Several products at once, comma-separated ('2003,2002'): the console's pages that serve more than
   * one product (gateway payout accounts: 2003 and 2002; other channels: 1001, 1045, 5001, 5002).
   */
  productIds: z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.split(',').map((x) => x.trim())) : v),
    z.array(queryIdSchema).min(1).max(20).optional(),
  ),
  state: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v === '0' ? 0 : v === '1' ? 1 : v),
    resourceStateSchema.optional(),
  ),
  /** Matches the resource name or any of its account fields (card number, address, phone, ...). */
  text: textFilter(128),
  ...sortShape(['createdAt', 'todayAmount']),
};

const resourceNameSchema = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() : v),
  z.string(T.nameRequired).min(1, T.nameRequired).max(128, T.nameTooLong),
);
const optionalLink = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
  linkSchema.nullable().optional(),
);
const optionalMoney = minorAmount.nullable().optional();

/** The fields a form sends on create and update (details are checked against the product's kind). */
const resourceFields = {
  productId: z
    .number()
    .int()
    .min(1, T.productUnknown)
    .max(2_147_483_647, T.productUnknown)
    .refine((id) => productById(id) !== undefined, T.productUnknown),
  name: resourceNameSchema,
  details: z.record(z.string().max(64), z.unknown()),
  minAmount: optionalMoney,
  maxAmount: optionalMoney,
  dailyAmountLimit: optionalMoney,
  dailyCountLimit: z.number().int().positive().max(1_000_000).nullable().optional(),
  link: optionalLink,
  jumpLink: optionalLink,
};

function checkResource(mode: 'create' | 'update') {
  return (
    v: { productId?: unknown; details?: unknown; minAmount?: unknown; maxAmount?: unknown },
    ctx: z.RefinementCtx,
  ) => {
    checkDetails(v, ctx, mode);
    if (typeof v.minAmount === 'number' && typeof v.maxAmount === 'number' && v.minAmount > v.maxAmount) {
      ctx.addIssue({ code: 'custom', message: T.minAboveMax, path: ['minAmount'] });
    }
  };
}

export const createResourceInput = z
  .strictObject({
    ...resourceFields,
    /** Staff name the supplier; a supplier creates for itself (its own id or nothing). */
    supplierId: idSchema.optional(),
  })
  .superRefine(checkResource('create'));

export const updateResourceInput = z
  .strictObject({ id: idSchema, ...resourceFields })
  .superRefine(checkResource('update'));

export const resourceDetailInfoSchema = z.object({
  id: z.number().int(),
  productId: z.number().int(),
  supplierName: z.string(),
  productName: z.string(),
  /** Open orders on the resource (allocated, awaiting payment): 0 until orders exist (issue 6). */
  processingOrderCount: z.number().int(),
  /** Their sum in minor units (the console shows it /100). */
  processingOrderAmount: z.number().int(),
  state: z.number().int(),
  link: z.string().nullable(),
  jumpLink: z.string().nullable(),
  qrCode: z.string().nullable(),
  qrImageId: z.number().int().nullable(),
});

const stateStatsSchema = z.object({
  state: z.number().int(),
  count: z.number().int(),
  todayCount: z.number().int(),
  todayAmount: z.number().int(),
});

const ok = z.null();

/** Receiving and payout accounts of every channel (issue 5). */
export const resourcesEndpoints = {
  getList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/resource/getList',
    summary: 'Resources (receiving and payout accounts), paged and filtered; summary sums today’s amounts',
    input: z.strictObject({ ...pagingShape, ...resourceFilterShape }),
    output: pageOf(resourceRowSchema),
    example: { pageIndex: 1, pageSize: 20, productId: 1002, state: 0, sortBy: 'createdAt', sortOrder: 'desc' },
    access: RESOURCE_READ_ROLES,
    token2: false,
    scope: 'owned',
  }),
  exportList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/resource/export',
    summary: 'Every resource of the filtered set as CSV (never a secret), in the list’s order',
    input: z.strictObject(resourceFilterShape),
    output: resourceFieldsSchema,
    example: { productId: 1002 },
    access: RESOURCE_READ_ROLES,
    token2: false,
    scope: 'owned',
    produces: 'csv',
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/v1.0/resource/create',
    summary: 'Create a resource of a product for a supplier (a supplier: for itself); it starts disabled',
    input: createResourceInput,
    output: resourceRowSchema,
    example: {
      productId: 1002,
      supplierId: 1,
      name: 'HDFC card 1234',
      details: {
        accountName: 'Ravi Kumar',
        bankName: 'HDFC Bank',
        cardNumber: '4111111111111234',
        ifsc: 'HDFC0001234',
      },
      minAmount: 10_000,
      maxAmount: 5_000_000,
    },
    access: RESOURCE_MANAGE_ROLES,
    token2: false,
    scope: 'owned',
  }),
  update: defineEndpoint({
    method: 'POST',
    path: '/v1.0/resource/update',
    summary: 'Change a resource’s fields (a gateway key secret left out keeps the sealed one)',
    input: updateResourceInput,
    output: resourceRowSchema,
    example: {
      id: 1,
      productId: 1002,
      name: 'HDFC card 1234',
      details: {
        accountName: 'Ravi Kumar',
        bankName: 'HDFC Bank',
        cardNumber: '4111111111111234',
        ifsc: 'HDFC0001234',
      },
      dailyCountLimit: 50,
    },
    access: RESOURCE_MANAGE_ROLES,
    token2: false,
    scope: 'owned',
  }),
  delete: defineEndpoint({
    method: 'POST',
    path: '/v1.0/resource/delete',
    summary: 'Delete a resource that has no open orders (kept for history, gone from every list)',
    input: z.strictObject({ id: idSchema }),
    output: ok,
    example: { id: 1 },
    access: RESOURCE_MANAGE_ROLES,
    token2: false,
    scope: 'owned',
  }),
  uploadQr: defineEndpoint({
    method: 'POST',
    path: '/v1.0/resource/uploadQr',
    summary: 'Upload a resource’s QR image: PNG, JPEG or WebP (checked by content), at most 512 KiB, base64',
    input: z.strictObject({ id: idSchema, ...imageUploadSchema.shape }),
    output: z.object({ qrImageId: z.number().int(), size: z.number().int(), sha256: z.string() }),
    example: {
      id: 1,
      mime: 'image/png',
      imageBase64: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    },
    access: RESOURCE_MANAGE_ROLES,
    token2: false,
    scope: 'owned',
  }),
  qrImage: defineEndpoint({
    method: 'GET',
    path: '/v1.0/resource/qrImage',
    summary: 'A resource’s uploaded QR image as a data URL (null when it has none)',
    input: z.strictObject({ id: queryIdSchema }),
    output: z
      .object({ qrImageId: z.number().int(), mime: z.string(), size: z.number().int(), dataUrl: z.string() })
      .nullable(),
    example: { id: 1 },
    access: RESOURCE_READ_ROLES,
    token2: false,
    scope: 'owned',
  }),
  getResourceDetailInfo: defineEndpoint({
    method: 'GET',
    path: '/v1.0/resource/getResourceDetailInfo',
    summary: 'One resource’s detail with its processing orders (spec section 3)',
    input: z.strictObject({ resourceId: queryIdSchema, productId: queryIdSchema }),
    output: resourceDetailInfoSchema,
    example: { resourceId: 1, productId: 1002 },
    access: RESOURCE_READ_ROLES,
    token2: false,
    scope: 'owned',
  }),
  getResourceStaticInfo: defineEndpoint({
    method: 'GET',
    path: '/v1.0/resource/getResourceStaticInfo',
    summary: 'Resource counts and today’s processed counts and amounts per state, for a supplier and product',
    input: z.strictObject({ supplierId: optionalQueryId, productId: optionalQueryId }),
    output: z.object({
      totalCount: z.number().int(),
      todayCount: z.number().int(),
      todayAmount: z.number().int(),
      states: z.array(stateStatsSchema),
    }),
    example: { supplierId: 1, productId: 1002 },
    access: RESOURCE_READ_ROLES,
    token2: false,
    scope: 'owned',
  }),
  enableResource: defineEndpoint({
    method: 'POST',
    path: '/v1.0/resource/enableResource',
    summary: 'Switch a resource on or off (spec section 7); refused while its supplier or product is disabled',
    input: z.strictObject({ resourceId: idSchema, productId: idSchema, enable: z.boolean() }),
    output: z.object({ state: z.number().int() }),
    example: { resourceId: 1, productId: 1002, enable: true },
    access: RESOURCE_MANAGE_ROLES,
    token2: false,
    scope: 'owned',
  }),
  bulkEnable: defineEndpoint({
    method: 'POST',
    path: '/v1.0/resource/bulkEnable',
    summary: 'Switch up to 200 resources on or off at once: all of them or none',
    input: z.strictObject({
      ids: z.array(idSchema).min(1).max(BULK_ENABLE_MAX, `at most ${BULK_ENABLE_MAX} resources at once`),
      enable: z.boolean(),
    }),
    output: z.object({ count: z.number().int(), state: z.number().int() }),
    example: { ids: [1, 2], enable: false },
    access: RESOURCE_MANAGE_ROLES,
    token2: false,
    scope: 'owned',
  }),
} as const satisfies EndpointGroup;
