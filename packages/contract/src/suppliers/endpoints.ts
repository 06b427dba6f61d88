import { z } from 'zod';
import { accountSchema, nicknameSchema, passwordSchema } from '../auth/schemas.js';
import type { EndpointGroup } from '../common/endpoint.js';
import { defineEndpoint } from '../common/endpoint.js';
import { basisPoints, sortShape } from '../common/money.js';
import {
  emptyToNull,
  idSchema,
  pageOf,
  pagingShape,
  queryBoolean,
  queryIdSchema,
  textFilter,
} from '../common/paging.js';
import { ACCOUNT_MANAGER_ROLES, STAFF_ROLES } from '../common/roles.js';
import { PROPOSAL_KINDS } from '../funds/endpoints.js';

/** Texts of the supplier forms and refusals, in English; the console shows them translated by key. */
export const SUPPLIER_TEXTS = {
  nameRequired: 'supplier name cannot be empty',
  autoCreateOff: 'creating a new account with the supplier is switched off (AutoCreateRelateSupplier)',
  accountNotUsable: 'that account is not an unused supplier account',
  agentCannotHaveAgents: 'an agent cannot have agents of its own',
  notASupplier: 'your account has no supplier record',
  productNotAvailable: 'you have no commission for this product, so your agent cannot have one',
} as const;

const ok = z.null();

export const supplierNameSchema = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() : v),
  z
    .string(SUPPLIER_TEXTS.nameRequired)
    .min(1, SUPPLIER_TEXTS.nameRequired)
    .max(64, 'supplier name is at most 64 characters'),
);
const remarkSchema = z.preprocess(
  (v) => (v === null || v === undefined ? '' : typeof v === 'string' ? v.trim() : v),
  z.string().max(500, 'remark is at most 500 characters'),
);

/**
 * A supplier (or an agent: a supplier with a parent) as its lists show it. `id` is the supplier record's
 * id (ledger accounts `supplier:<id>:available|frozen`), `userId` its console account. Money in minor units.
 */
export const supplierRowSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  account: z.string(),
  name: z.string(),
  parentId: z.number().int().nullable(),
  parentName: z.string().nullable(),
  enabled: z.boolean(),
  remark: z.string(),
  agentCount: z.number().int(),
  balance: z.number().int(),
  frozenBalance: z.number().int(),
  createdAt: z.string(),
  /** The balance changes the caller may propose for it now (the contract's `allowedProposalKinds`). */
  proposalKinds: z.array(z.enum(PROPOSAL_KINDS)),
});
export type SupplierRow = z.infer<typeof supplierRowSchema>;

export const SUPPLIER_KINDS = ['supplier', 'agent', 'all'] as const;

/** The supplier list's filters, shared by the list and its export. */
export const supplierFilterShape = {
  account: textFilter(32),
  name: textFilter(64),
  enabled: z.preprocess((v) => (v === '' || v === null ? undefined : v), queryBoolean.optional()),
  kind: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.enum(SUPPLIER_KINDS).optional()),
  parentId: z.preprocess(emptyToNull, queryIdSchema.nullable().optional()),
};

/** One product of an agent's commission settings, next to its parent's (the most the agent may have). */
export const agentCommissionSchema = z.object({
  productId: z.number().int(),
  /** The parent's own commission in basis points: the agent's maximum. */
  parentRate: z.number().int(),
  /** The agent's commission in basis points; null when it has none set for this product. */
  agentRate: z.number().int().nullable(),
  agentEnabled: z.boolean(),
});
export type AgentCommission = z.infer<typeof agentCommissionSchema>;

const createSupplierInput = z.discriminatedUnion('mode', [
  z.strictObject({
    name: supplierNameSchema,
    mode: z.literal('newAccount'),
    account: accountSchema,
    /** Defaults to the supplier's name. */
    nickname: z.preprocess(
      (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
      nicknameSchema.optional(),
    ),
    password: passwordSchema,
    remark: remarkSchema,
  }),
  z.strictObject({
    name: supplierNameSchema,
    mode: z.literal('linkAccount'),
    userId: idSchema,
    remark: remarkSchema,
  }),
]);

/** Suppliers and supplier agents (issue 4, item 4). Deposits and withdrawals are balance proposals (funds). */
export const suppliersEndpoints = {
  getList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/supplier/getList',
    summary: 'Suppliers and agents with balances, paged, filtered and sorted; summary sums the balances',
    input: z.strictObject({
      ...pagingShape,
      ...supplierFilterShape,
      ...sortShape(['createdAt', 'balance', 'frozenBalance']),
    }),
    output: pageOf(supplierRowSchema),
    example: { pageIndex: 1, pageSize: 20, kind: 'supplier', sortBy: 'balance', sortOrder: 'desc' },
    access: STAFF_ROLES,
    token2: false,
    scope: 'owned',
  }),
  exportList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/supplier/export',
    summary: 'Every supplier of the filtered set as CSV (at most 1,000,000 rows), in the list’s order',
    input: z.strictObject({ ...supplierFilterShape, ...sortShape(['createdAt', 'balance', 'frozenBalance']) }),
    // The CSV's columns: what the caller may propose is for the console.
    output: supplierRowSchema.omit({ proposalKinds: true }),
    example: { kind: 'all' },
    access: STAFF_ROLES,
    token2: false,
    scope: 'owned',
    produces: 'csv',
  }),
  getDetail: defineEndpoint({
    method: 'GET',
    path: '/v1.0/supplier/getDetail',
    summary: 'One supplier (a supplier sees itself and its agents)',
    input: z.strictObject({ id: queryIdSchema }),
    output: supplierRowSchema,
    example: { id: 1 },
    access: [...STAFF_ROLES, 'supplier'],
    token2: false,
    scope: 'owned',
    team: true,
  }),
  getMine: defineEndpoint({
    method: 'GET',
    path: '/v1.0/supplier/getMine',
    summary: 'The caller’s own supplier record (null when its account has none)',
    input: z.strictObject({}),
    output: supplierRowSchema.nullable(),
    example: {},
    access: ['supplier'],
    token2: false,
    scope: 'self',
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/v1.0/supplier/create',
    summary:
      'Create a supplier with a new console account (when AutoCreateRelateSupplier is on) or on an unused supplier account',
    input: createSupplierInput,
    output: z.object({ id: z.number().int(), userId: z.number().int() }),
    example: {
      name: 'Supplier Two',
      mode: 'newAccount',
      account: 'supplier2',
      nickname: 'Supplier Two',
      password: 'supply2024',
      remark: '',
    },
    access: ACCOUNT_MANAGER_ROLES,
    token2: false,
    scope: 'owned',
  }),
  update: defineEndpoint({
    method: 'POST',
    path: '/v1.0/supplier/update',
    summary: 'Change a supplier’s name and remark',
    input: z.strictObject({ id: idSchema, name: supplierNameSchema, remark: remarkSchema }),
    output: ok,
    example: { id: 1, name: 'Supplier One Ltd', remark: 'main UPI supplier' },
    access: ACCOUNT_MANAGER_ROLES,
    token2: false,
    scope: 'owned',
  }),
  setEnabled: defineEndpoint({
    method: 'POST',
    path: '/v1.0/supplier/setEnabled',
    summary: 'Enable or disable a supplier',
    input: z.strictObject({ id: idSchema, enabled: z.boolean() }),
    output: ok,
    example: { id: 1, enabled: false },
    access: ACCOUNT_MANAGER_ROLES,
    token2: false,
    scope: 'owned',
  }),
  createAgent: defineEndpoint({
    method: 'POST',
    path: '/v1.0/supplier/createAgent',
    summary: 'A supplier creates an agent: a console account and a supplier record under its own',
    input: z.strictObject({
      account: accountSchema,
      nickname: nicknameSchema,
      password: passwordSchema,
      name: supplierNameSchema,
    }),
    output: z.object({ id: z.number().int(), userId: z.number().int() }),
    example: { account: 'agent2', nickname: 'Agent Two', password: 'agent2024', name: 'Agent Two' },
    access: ['supplier'],
    token2: false,
    scope: 'owned',
  }),
  updateAgent: defineEndpoint({
    method: 'POST',
    path: '/v1.0/supplier/updateAgent',
    summary: 'A supplier changes one of its agents: name, account nickname, enabled',
    input: z.strictObject({
      agentId: idSchema,
      name: supplierNameSchema,
      nickname: nicknameSchema,
      enabled: z.boolean(),
    }),
    output: ok,
    example: { agentId: 2, name: 'Agent One', nickname: 'Agent One', enabled: true },
    access: ['supplier'],
    token2: false,
    scope: 'owned',
  }),
  getAgentCommissions: defineEndpoint({
    method: 'GET',
    path: '/v1.0/supplier/getAgentCommissions',
    summary: 'The products an agent may have a commission for (its parent’s), with both rates',
    input: z.strictObject({ agentId: queryIdSchema }),
    output: z.array(agentCommissionSchema),
    example: { agentId: 2 },
    access: ['supplier'],
    token2: false,
    scope: 'owned',
  }),
  setAgentCommission: defineEndpoint({
    method: 'POST',
    path: '/v1.0/supplier/setAgentCommission',
    summary: 'A supplier sets an agent’s commission on a product (basis points), never above its own',
    input: z.strictObject({ agentId: idSchema, productId: idSchema, commissionRate: basisPoints }),
    output: ok,
    example: { agentId: 2, productId: 1001, commissionRate: 150 },
    access: ['supplier'],
    token2: false,
    scope: 'owned',
  }),
} as const satisfies EndpointGroup;
