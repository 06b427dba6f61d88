import { z } from 'zod';
import { accountSchema, nicknameSchema, passwordSchema } from '../auth/schemas.js';
import { defineEndpoint, type EndpointGroup } from '../common/endpoint.js';
import { sortShape } from '../common/money.js';
import {
  emptyToNull,
  idSchema,
  pageOf,
  pagingShape,
  queryBoolean,
  queryIdSchema,
  textFilter,
} from '../common/paging.js';
import type { Role } from '../common/roles.js';
import { PROPOSAL_KINDS } from '../funds/endpoints.js';

/** How the merchant API checks a request's signature (DESIGN section 6): HMAC-SHA256 by default, MD5 legacy. */
export const SIGN_TYPES = ['HMAC-SHA256', 'MD5'] as const;
export type SignType = (typeof SIGN_TYPES)[number];
export const signTypeSchema = z.enum(SIGN_TYPES);

/** Most addresses an API IP whitelist holds. */
export const MAX_IP_WHITELIST = 50;

/**
 * The shortest prefix a whitelist range may have. Wider ranges than one network operator's block
 * (a /16 of IPv4 is 65,536 addresses; a /32 of IPv6 is what a registry allocates to one operator)
 * span addresses anyone can rent, so the whitelist would stop nobody: 0.0.0.0/0 and ::/0 are the
 * extreme case. An IPv6 range that covers IPv4-mapped addresses (::ffff:0:0/96) counts by its IPv4
 * part, since the server matches IPv4 callers against it.
 */
export const MIN_WHITELIST_PREFIX = { ipv4: 16, ipv6: 32 } as const;

/** English refusal texts of this area; the console translates them by their reason key. */
export const MERCHANT_TEXTS = {
  autoCreateOff:
    'creating a merchant account is switched off (AutoCreateRelateMerchant): link an existing merchant account instead',
  accountUnavailable: 'that account is not an unused merchant account',
  accountLinked: 'that account is already linked to a merchant',
  invalidIp: 'each whitelist entry must be an IPv4 or IPv6 address or a CIDR range',
  ipTooWide: `a whitelist range may be at most a /${MIN_WHITELIST_PREFIX.ipv4} of IPv4 or a /${MIN_WHITELIST_PREFIX.ipv6} of IPv6: 0.0.0.0/0, ::/0 and ranges nearly that wide let almost any address call the API`,
  notifyUrl: 'the callback address must be an http or https URL of at most 512 characters',
} as const;

const MERCHANT_STAFF = [
  'superAdmin',
  'admin',
  'customerService',
  'technicalMaintenance',
] as const satisfies readonly Role[];
const MERCHANT_MANAGERS = ['superAdmin', 'admin'] as const satisfies readonly Role[];

const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);

export const merchantNameSchema = z.preprocess(
  trimmed,
  z
    .string('merchant name cannot be empty')
    .min(1, 'merchant name cannot be empty')
    .max(64, 'merchant name is at most 64 characters'),
);

/** Addresses or CIDR ranges; the server checks each with node:net (IPv4/IPv6, prefix in range). */
export const ipWhitelistSchema = z
  .array(z.preprocess(trimmed, z.string().min(1, MERCHANT_TEXTS.invalidIp).max(64, MERCHANT_TEXTS.invalidIp)))
  .max(MAX_IP_WHITELIST, `at most ${MAX_IP_WHITELIST} whitelist entries`);

function isHttpUrl(v: string): boolean {
  try {
    const url = new URL(v);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The callback address used when an order names none; empty means none. */
export const notifyUrlSchema = z.preprocess(
  (v) => emptyToNull(trimmed(v)),
  z
    .string(MERCHANT_TEXTS.notifyUrl)
    .max(512, MERCHANT_TEXTS.notifyUrl)
    .refine(isHttpUrl, MERCHANT_TEXTS.notifyUrl)
    .nullable(),
);

/** Free text; empty arrives as null from the console (spec section 5) and is kept as ''. */
const remarkSchema = z.preprocess(
  (v) => (v === null ? '' : trimmed(v)),
  z.string().max(256, 'remark is at most 256 characters'),
);

/** A merchant as lists and details show it. Never its API secret. Money in minor units. */
export const merchantRowSchema = z.object({
  id: z.number().int(),
  /** Its console account. */
  userId: z.number().int(),
  account: z.string(),
  /** `mchId` of the merchant API. */
  merchantNo: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  signType: signTypeSchema,
  ipWhitelist: z.array(z.string()),
  notifyUrl: z.string().nullable(),
  callbackEnabled: z.boolean(),
  remark: z.string(),
  balance: z.number().int(),
  frozenBalance: z.number().int(),
  /** When the API secret was last issued (creation or rotation). */
  secretRotatedAt: z.string(),
  createdAt: z.string(),
  /** The balance changes the caller may propose for it now (the contract's `allowedProposalKinds`). */
  proposalKinds: z.array(z.enum(PROPOSAL_KINDS)),
});
export type MerchantRow = z.infer<typeof merchantRowSchema>;

/** One CSV row of the merchant export: money as plain major-unit text ('1234.56'), never a secret. */
export const merchantExportRowSchema = merchantRowSchema
  .omit({ balance: true, frozenBalance: true, secretRotatedAt: true, proposalKinds: true })
  .extend({ balance: z.string(), frozenBalance: z.string() });

/** The merchant list's filters, shared by the list and its export. */
const merchantFilterShape = {
  merchantNo: textFilter(32),
  name: textFilter(64),
  account: textFilter(32),
  enabled: z.preprocess(emptyToNull, queryBoolean.nullable().optional()),
};

export const MERCHANT_SORT_KEYS = ['createdAt', 'balance', 'frozenBalance'] as const;

const settingsShape = {
  signType: signTypeSchema.default('HMAC-SHA256'),
  ipWhitelist: ipWhitelistSchema.default([]),
  notifyUrl: notifyUrlSchema.optional(),
  callbackEnabled: z.boolean().default(true),
  remark: remarkSchema.default(''),
};

export const createMerchantInputSchema = z
  .strictObject({
    name: merchantNameSchema,
    /** newAccount: create its console account now; linkAccount: use an unused merchant account. */
    mode: z.enum(['newAccount', 'linkAccount']),
    account: accountSchema.optional(),
    /** Empty: the merchant name. */
    nickname: z.preprocess((v) => (v === null || trimmed(v) === '' ? undefined : v), nicknameSchema.optional()),
    password: passwordSchema.optional(),
    userId: idSchema.optional(),
    ...settingsShape,
  })
  .superRefine((v, ctx) => {
    if (v.mode === 'newAccount') {
      if (v.account === undefined)
        ctx.addIssue({ code: 'custom', path: ['account'], message: 'account cannot be empty' });
      if (v.password === undefined) {
        ctx.addIssue({ code: 'custom', path: ['password'], message: 'password must contain digits and letters' });
      }
      if (v.userId !== undefined)
        ctx.addIssue({ code: 'custom', path: ['userId'], message: 'userId is for linkAccount' });
    } else {
      if (v.userId === undefined)
        ctx.addIssue({ code: 'custom', path: ['userId'], message: 'choose the account to link' });
      if (v.account !== undefined || v.password !== undefined || v.nickname !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['mode'], message: 'account, nickname and password are for newAccount' });
      }
    }
  });

/** The API secret: 32 random bytes as hex. Answered once at creation, then only by reveal/rotate. */
const secretOutput = z.object({ secret: z.string() });

/** Merchants (spec section 2 /merchants/list): records linked to a merchant console account, with API credentials. */
export const merchantsEndpoints = {
  getList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/merchant/getList',
    summary: 'Merchants, paged, with filters, balances and their totals over the filtered set',
    input: z.strictObject({ ...pagingShape, ...sortShape(MERCHANT_SORT_KEYS), ...merchantFilterShape }),
    output: pageOf(merchantRowSchema),
    example: { pageIndex: 1, pageSize: 20, sortBy: 'balance', sortOrder: 'desc' },
    access: MERCHANT_STAFF,
    token2: false,
    scope: 'owned',
  }),
  exportList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/merchant/export',
    summary:
      'Every merchant of the filtered set as CSV, by id (balances in major units; never a secret). The list’s sortBy/sortOrder are accepted and do not change the order',
    input: z.strictObject({ ...sortShape(MERCHANT_SORT_KEYS), ...merchantFilterShape }),
    output: merchantExportRowSchema,
    example: { enabled: 'true' },
    access: MERCHANT_STAFF,
    token2: false,
    scope: 'owned',
    produces: 'csv',
  }),
  getDetail: defineEndpoint({
    method: 'GET',
    path: '/v1.0/merchant/getDetail',
    summary: 'One merchant (a merchant: only its own)',
    input: z.strictObject({ id: queryIdSchema }),
    output: merchantRowSchema,
    example: { id: 1 },
    access: [...MERCHANT_STAFF, 'merchant'],
    token2: false,
    scope: 'owned',
  }),
  getMine: defineEndpoint({
    method: 'GET',
    path: '/v1.0/merchant/getMine',
    summary: 'The signed-in merchant’s own record (merchant number, sign type, whitelist, balances)',
    input: z.strictObject({}),
    output: merchantRowSchema,
    example: {},
    access: ['merchant'],
    token2: false,
    scope: 'owned',
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/v1.0/merchant/create',
    summary: 'Create a merchant with a new or an existing merchant account; answers the API secret once',
    input: createMerchantInputSchema,
    output: z.object({ id: z.number().int(), merchantNo: z.string(), secret: z.string() }),
    example: {
      name: 'Shop Two',
      mode: 'newAccount',
      account: 'shop2',
      password: 'shop2024',
      signType: 'HMAC-SHA256',
      ipWhitelist: ['203.0.113.7', '198.51.100.0/24'],
      notifyUrl: 'https://shop2.example/notify',
      callbackEnabled: true,
      remark: '',
    },
    access: MERCHANT_MANAGERS,
    token2: false,
    scope: 'owned',
  }),
  update: defineEndpoint({
    method: 'POST',
    path: '/v1.0/merchant/update',
    summary: 'Change a merchant’s name, sign type, API IP whitelist, callback settings and remark',
    input: z.strictObject({
      id: idSchema,
      name: merchantNameSchema,
      signType: signTypeSchema,
      ipWhitelist: ipWhitelistSchema,
      notifyUrl: notifyUrlSchema,
      callbackEnabled: z.boolean(),
      remark: remarkSchema,
    }),
    output: z.null(),
    example: {
      id: 1,
      name: 'Merchant One',
      signType: 'HMAC-SHA256',
      ipWhitelist: [],
      notifyUrl: null,
      callbackEnabled: true,
      remark: '',
    },
    access: MERCHANT_MANAGERS,
    token2: false,
    scope: 'owned',
  }),
  setEnabled: defineEndpoint({
    method: 'POST',
    path: '/v1.0/merchant/setEnabled',
    summary: 'Enable or disable a merchant (a disabled merchant’s API calls are refused)',
    input: z.strictObject({ id: idSchema, enabled: z.boolean() }),
    output: z.null(),
    example: { id: 1, enabled: false },
    access: MERCHANT_MANAGERS,
    token2: false,
    scope: 'owned',
  }),
  revealSecret: defineEndpoint({
    method: 'POST',
    path: '/v1.0/merchant/revealSecret',
    summary: 'Show a merchant’s current API secret (second-level password; a merchant: its own)',
    input: z.strictObject({ id: idSchema }),
    output: secretOutput,
    example: { id: 1 },
    access: [...MERCHANT_MANAGERS, 'merchant'],
    token2: true,
    scope: 'owned',
  }),
  rotateSecret: defineEndpoint({
    method: 'POST',
    path: '/v1.0/merchant/rotateSecret',
    summary: 'Issue a new API secret; the old one stops working at once (second-level password)',
    input: z.strictObject({ id: idSchema }),
    output: secretOutput,
    example: { id: 1 },
    access: [...MERCHANT_MANAGERS, 'merchant'],
    token2: true,
    scope: 'owned',
  }),
} as const satisfies EndpointGroup;
