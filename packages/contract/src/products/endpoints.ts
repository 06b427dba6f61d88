import { z } from 'zod';
import { defineEndpoint, type EndpointGroup } from '../common/endpoint.js';
import { basisPoints, MAX_MONEY_MINOR, minorAmount, sortShape } from '../common/money.js';
import { emptyToNull, idSchema, pageOf, pagingShape, queryBoolean, queryIdSchema } from '../common/paging.js';
import { ACCOUNT_MANAGER_ROLES, ALL_ROLES } from '../common/roles.js';

/** The roles that read per-party product settings: staff (every party), merchants and suppliers (their own). */
const USER_PRODUCT_READERS = [
  'superAdmin',
  'admin',
  'customerService',
  'technicalMaintenance',
  'merchant',
  'supplier',
] as const;
/** Staff whose scope on party product settings is every party (technicalSupport has no access at all). */
const USER_PRODUCT_ALL_SCOPE = ['superAdmin', 'admin', 'customerService', 'technicalMaintenance'] as const;

export const partyRoleSchema = z.enum(['merchant', 'supplier']);
export type PartyRole = z.infer<typeof partyRoleSchema>;

/** A catalogue product (DESIGN section 6) with what staff may change: enabled and the per-order limits. */
export const productRowSchema = z.object({
  id: z.number().int(),
  /** English name; the console shows it translated. */
  name: z.string(),
  direction: z.enum(['collection', 'payout']),
  resourceKind: z.string(),
  apiUnitsPerMinor: z.number().int(),
  floatingAmount: z.boolean(),
  enabled: z.boolean(),
  minAmount: z.number().int(),
  maxAmount: z.number().int(),
});
export type ProductRow = z.infer<typeof productRowSchema>;

/** A party's settings for one product. Rates in basis points, money in minor units; null limits: the product's. */
export const userProductRowSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  account: z.string(),
  nickname: z.string(),
  role: partyRoleSchema,
  /** An agent's parent supplier account, else null. */
  parentAccount: z.string().nullable(),
  productId: z.number().int(),
  enabled: z.boolean(),
  feeRate: z.number().int(),
  perTransactionFee: z.number().int(),
  commissionRate: z.number().int(),
  dailyLimit: z.number().int().nullable(),
  minAmount: z.number().int().nullable(),
  maxAmount: z.number().int().nullable(),
  kycLowerLimit: z.number().int().nullable(),
  updatedAt: z.string(),
});
export type UserProductRow = z.infer<typeof userProductRowSchema>;

/** getForUser: one row per catalogue product; a product never saved has id null, defaults and enabled false. */
export const userProductSlotSchema = userProductRowSchema.extend({
  id: z.number().int().nullable(),
  updatedAt: z.string().nullable(),
});
export type UserProductSlot = z.infer<typeof userProductSlotSchema>;

const optionalQueryId = z.preprocess(emptyToNull, queryIdSchema.nullable().optional());

/** Filters of the party product settings list, shared with its export. */
const userProductFilterShape = {
  userId: optionalQueryId,
  role: z.preprocess(emptyToNull, partyRoleSchema.nullable().optional()),
  productId: optionalQueryId,
  enabled: z.preprocess(emptyToNull, queryBoolean.nullable().optional()),
};

/** A money limit in a body: minor units, positive, or null for "the product's" / "none". */
const nullableLimit = minorAmount.nullable();

export const USER_PRODUCT_SORT_KEYS = ['updatedAt', 'feeRate', 'commissionRate', 'dailyLimit'] as const;

/**
 * Refusal reasons of the product calls (422 unless noted), for the console to translate:
 * notAParty, fieldNotForRole, minAboveMax, outsideProductLimits, commissionAboveParent (data.max: the
 * parent's rate in basis points), commissionBelowAgent (data.min: the highest agent's rate).
 */
export const PRODUCT_REFUSAL_REASONS = [
  'notAParty',
  'fieldNotForRole',
  'minAboveMax',
  'outsideProductLimits',
  'commissionAboveParent',
  'commissionBelowAgent',
] as const;
export type ProductRefusalReason = (typeof PRODUCT_REFUSAL_REASONS)[number];

/** Products (DESIGN section 6) and per-party product settings ("user product config"). */
export const productsEndpoints = {
  getProductList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/product/getList',
    summary: 'The product catalogue with each product’s enablement and per-order limits',
    input: z.strictObject({}),
    output: z.array(productRowSchema),
    example: {},
    access: ALL_ROLES,
    token2: false,
    scope: 'none',
  }),
  updateProduct: defineEndpoint({
    method: 'POST',
    path: '/v1.0/product/update',
    summary: 'Enable or disable a product and set its per-order limits (minor units, min <= max)',
    input: z.strictObject({
      id: idSchema,
      enabled: z.boolean(),
      minAmount: minorAmount,
      maxAmount: minorAmount,
    }),
    output: productRowSchema,
    example: { id: 1001, enabled: true, minAmount: 10_000, maxAmount: 5_000_000 },
    access: ACCOUNT_MANAGER_ROLES,
    token2: false,
    scope: 'none',
  }),
  getUserProductList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/userProduct/getList',
    summary:
      'Per-party product settings, paged and filtered (a merchant or supplier: its own; a supplier also its agents’)',
    input: z.strictObject({ ...pagingShape, ...userProductFilterShape, ...sortShape(USER_PRODUCT_SORT_KEYS) }),
    output: pageOf(userProductRowSchema),
    example: { pageIndex: 1, pageSize: 20, role: 'merchant' },
    access: USER_PRODUCT_READERS,
    token2: false,
    scope: 'owned',
    team: true,
    allScopeRoles: USER_PRODUCT_ALL_SCOPE,
  }),
  exportUserProductList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/userProduct/export',
    summary: 'Every per-party product setting of the filtered set as CSV (rates in basis points, money in minor units)',
    input: z.strictObject(userProductFilterShape),
    output: userProductRowSchema,
    example: { role: 'supplier' },
    access: USER_PRODUCT_READERS,
    token2: false,
    scope: 'owned',
    team: true,
    allScopeRoles: USER_PRODUCT_ALL_SCOPE,
    produces: 'csv',
  }),
  getUserProductsForUser: defineEndpoint({
    method: 'GET',
    path: '/v1.0/userProduct/getForUser',
    summary: 'One merchant’s or supplier’s settings for every catalogue product (unsaved ones: defaults, disabled)',
    input: z.strictObject({ userId: queryIdSchema }),
    output: z.array(userProductSlotSchema),
    example: { userId: 8 },
    access: USER_PRODUCT_READERS,
    token2: false,
    scope: 'owned',
    team: true,
    allScopeRoles: USER_PRODUCT_ALL_SCOPE,
  }),
  saveUserProduct: defineEndpoint({
    method: 'POST',
    path: '/v1.0/userProduct/save',
    summary:
      'Create or change a party’s settings for a product: fees for merchants, commission for suppliers (an agent’s never above its parent’s)',
    input: z.strictObject({
      userId: idSchema,
      productId: idSchema,
      enabled: z.boolean(),
      feeRate: basisPoints,
      perTransactionFee: z.number().int().min(0).max(MAX_MONEY_MINOR),
      commissionRate: basisPoints,
      dailyLimit: nullableLimit,
      minAmount: nullableLimit,
      maxAmount: nullableLimit,
      kycLowerLimit: nullableLimit,
    }),
    output: userProductRowSchema,
    example: {
      userId: 8,
      productId: 1001,
      enabled: true,
      feeRate: 250,
      perTransactionFee: 500,
      commissionRate: 0,
      dailyLimit: 100_000_000,
      minAmount: null,
      maxAmount: null,
      kycLowerLimit: null,
    },
    access: ACCOUNT_MANAGER_ROLES,
    token2: false,
    scope: 'owned',
  }),
} as const satisfies EndpointGroup;
