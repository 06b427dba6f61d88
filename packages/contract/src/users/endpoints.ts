import { z } from 'zod';
import { accountSchema, nicknameSchema, passwordSchema, roleInputSchema, userOptionSchema } from '../auth/schemas.js';
import { defineEndpoint } from '../common/endpoint.js';
import { idSchema, pageOf, pagingShape, queryBoolean, queryIdSchema, textFilter } from '../common/paging.js';
import { ACCOUNT_MANAGER_ROLES, roleSchema, STAFF_ROLES } from '../common/roles.js';

const ok = z.null();

/** A user account as account management lists it. Never a password, secret or token. */
export const userRowSchema = z.object({
  id: z.number().int(),
  account: z.string(),
  nickname: z.string(),
  role: roleSchema,
  parentId: z.number().int().nullable(),
  enableGoogleVerify: z.boolean(),
  confirmBind: z.boolean(),
  allowModify: z.boolean(),
  hasPayPassword: z.boolean(),
  failedLoginCount: z.number().int(),
  lockedUntil: z.string().nullable(),
  lastLoginAt: z.string().nullable(),
  createdAt: z.string(),
  deletedAt: z.string().nullable(),
});
export type UserRow = z.infer<typeof userRowSchema>;

/** The account list's filters, shared by the list and its export. */
const userFilterShape = {
  account: textFilter(32),
  role: z.preprocess((v) => (v === '' ? undefined : v), roleSchema.optional()),
  includeDeleted: queryBoolean.optional(),
};

/** The agent list's filters, shared by the list and its export: part of the agent's account. */
const supplierProxyFilterShape = { account: textFilter(32) };

export const supplierProxyRowSchema = z.object({
  id: z.number().int(),
  account: z.string(),
  nickname: z.string(),
  parentId: z.number().int(),
  parentAccount: z.string(),
  /** The agent's supplier record (ledger accounts `supplier:<supplierId>:available|frozen`). */
  supplierId: z.number().int(),
  name: z.string(),
  enabled: z.boolean(),
  /** Minor units. */
  balance: z.number().int(),
  frozenBalance: z.number().int(),
  createdAt: z.string(),
});
export type SupplierProxyRow = z.infer<typeof supplierProxyRowSchema>;

/** Account administration: the Admin calls of spec section 7 that need no balances, and the user option lists. */
export const usersEndpoints = {
  getUserOptions: defineEndpoint({
    method: 'GET',
    path: '/v1.0/user/getUserOptions',
    summary: 'Accounts for selects, optionally of one role and with deleted ones',
    input: z.strictObject({
      role: z.preprocess((v) => (v === '' ? undefined : v), roleSchema.optional()),
      includeDeleted: queryBoolean.optional(),
    }),
    output: z.array(userOptionSchema),
    example: { role: 'merchant' },
    access: STAFF_ROLES,
    token2: false,
    scope: 'owned',
  }),
  getSupplierUserOptions: defineEndpoint({
    method: 'GET',
    path: '/v1.0/user/getSupplierUserOptions',
    summary: 'Supplier accounts for selects; with isGetAllAgentSupplier also their agents',
    input: z.strictObject({ isGetAllAgentSupplier: queryBoolean.optional() }),
    output: z.array(userOptionSchema),
    example: { isGetAllAgentSupplier: 'true' },
    access: [...STAFF_ROLES, 'supplier'],
    token2: false,
    scope: 'owned',
    team: true,
  }),
  getUnusedUserOptions: defineEndpoint({
    method: 'GET',
    path: '/v1.0/user/getUnusedUserOptions',
    summary: 'Merchant or supplier accounts not yet linked to a merchant or supplier record',
    input: z.strictObject({ role: z.enum(['merchant', 'supplier']) }),
    output: z.array(userOptionSchema),
    example: { role: 'merchant' },
    access: ACCOUNT_MANAGER_ROLES,
    token2: false,
    scope: 'owned',
  }),
  addUser: defineEndpoint({
    method: 'POST',
    path: '/v1.0/admin/addUser',
    summary: 'Create a console account',
    input: z.strictObject({
      nickname: nicknameSchema,
      account: accountSchema,
      password: passwordSchema,
      access: roleInputSchema,
    }),
    output: z.object({ id: z.number().int() }),
    example: { nickname: 'Night shift', account: 'service2', password: 'night2024', access: 'customerService' },
    access: ACCOUNT_MANAGER_ROLES,
    token2: false,
    scope: 'owned',
  }),
  getUserList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/admin/getUserList',
    summary: 'Console accounts, paged, with filters',
    input: z.strictObject({ ...pagingShape, ...userFilterShape }),
    output: pageOf(userRowSchema),
    example: { pageIndex: 1, pageNum: 20 },
    access: ['superAdmin', 'admin', 'customerService', 'technicalMaintenance'],
    token2: false,
    scope: 'owned',
  }),
  exportUserList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/admin/exportUserList',
    summary: 'Every console account of the filtered set as CSV (at most 1,000,000 rows)',
    input: z.strictObject(userFilterShape),
    output: userRowSchema,
    example: { role: 'merchant' },
    access: ['superAdmin', 'admin', 'customerService', 'technicalMaintenance'],
    token2: false,
    scope: 'owned',
    produces: 'csv',
  }),
  getSupplierProxyList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/admin/getSupplierProxyList',
    summary:
      'Supplier agents with their parent supplier and balances (a supplier sees its own agents); summary sums the balances',
    input: z.strictObject({ ...pagingShape, ...supplierProxyFilterShape }),
    output: pageOf(supplierProxyRowSchema),
    example: { pageIndex: 1, pageNum: 20 },
    access: ['superAdmin', 'admin', 'customerService', 'technicalMaintenance', 'supplier'],
    token2: false,
    scope: 'owned',
    team: true,
  }),
  exportSupplierProxyList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/admin/exportSupplierProxyList',
    summary: 'Every supplier agent of the filtered set as CSV, with balances (a supplier: its own agents)',
    input: z.strictObject(supplierProxyFilterShape),
    output: supplierProxyRowSchema,
    example: { account: 'agent' },
    access: ['superAdmin', 'admin', 'customerService', 'technicalMaintenance', 'supplier'],
    token2: false,
    scope: 'owned',
    team: true,
    produces: 'csv',
  }),
  updateUser: defineEndpoint({
    method: 'POST',
    path: '/v1.0/admin/updateUser',
    summary: 'Change an account’s nickname, account name, role or password (empty password: unchanged)',
    input: z.strictObject({
      id: idSchema,
      nickname: nicknameSchema,
      account: accountSchema,
      password: z.preprocess((v) => (v === '' || v === null ? undefined : v), passwordSchema.optional()),
      role: roleInputSchema,
    }),
    output: ok,
    example: { id: 9, nickname: 'Night shift lead', account: 'service2', role: 'customerService' },
    access: ACCOUNT_MANAGER_ROLES,
    token2: false,
    scope: 'owned',
  }),
  deleteUser: defineEndpoint({
    method: 'GET',
    path: '/v1.0/admin/deleteUser',
    summary: 'Delete an account (kept for history, signed out, cannot sign in)',
    input: z.strictObject({ id: queryIdSchema }),
    output: ok,
    example: { id: 9 },
    access: ACCOUNT_MANAGER_ROLES,
    token2: true,
    scope: 'owned',
  }),
  repairUser: defineEndpoint({
    method: 'POST',
    path: '/v1.0/admin/repairUser',
    summary: 'Rename an account whose account name is wrong or clashes',
    input: z.strictObject({ userId: idSchema, newAccountName: accountSchema }),
    output: ok,
    example: { userId: 9, newAccountName: 'service3' },
    access: ACCOUNT_MANAGER_ROLES,
    token2: false,
    scope: 'owned',
  }),
  resetPayPassword: defineEndpoint({
    method: 'GET',
    path: '/v1.0/admin/resetPayPassword',
    summary: 'Clear an account’s second-level password: it falls back to the sign-in password',
    input: z.strictObject({ id: queryIdSchema }),
    output: ok,
    example: { id: 9 },
    access: ACCOUNT_MANAGER_ROLES,
    token2: true,
    scope: 'owned',
  }),
} as const;
