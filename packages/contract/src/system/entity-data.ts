import { z } from 'zod';
import { defineEndpoint } from '../common/endpoint.js';
import { emptyToNull, pagingShape, textFilter } from '../common/paging.js';

/**
 * The entity data view (spec section 2, system management; DESIGN section 10): a read-only, paged
 * browser of the main tables for superAdmin (technical maintenance reads it on the read-only route).
 * Secrets are never answered: a column that holds one (a password or token hash, an authenticator
 * secret, a sealed key) shows only whether it is set, and stored images only their size.
 */
export const ENTITY_TABLES = [
  'users',
  'merchants',
  'suppliers',
  'products',
  'party_products',
  'resources',
  'orders',
  'order_events',
  'order_callbacks',
  'payouts',
  'payout_events',
  'payout_batches',
  'ledger_accounts',
  'ledger_transfers',
  'ledger_entries',
  'balance_proposals',
  'party_daily',
  'resource_daily',
  'sessions',
  'messages',
  'system_settings',
  'audit_log',
  'staff_ip_whitelist',
  'name_blacklist',
  'telegram_whitelist',
  'telegram_groups',
  'message_templates',
  'pay_scripts',
  'pay_script_versions',
  'pay_script_calls',
  'pay_gateways',
  'payout_receipts',
  'order_allocations',
  'order_callback_attempts',
  'order_clear_runs',
  'message_recipients',
  'error_logs',
] as const;
export type EntityTable = (typeof ENTITY_TABLES)[number];

/** How a column's values are shown. */
export const ENTITY_COLUMN_KINDS = ['value', 'secret', 'bytes'] as const;
export type EntityColumnKind = (typeof ENTITY_COLUMN_KINDS)[number];

export const entityColumnSchema = z.object({
  name: z.string(),
  /** The database type, e.g. integer, text, jsonb, timestamp with time zone. */
  type: z.string(),
  /** value: as text; secret: only 'set' or null; bytes: the size in bytes. */
  kind: z.enum(ENTITY_COLUMN_KINDS),
});
export type EntityColumn = z.infer<typeof entityColumnSchema>;

/** Who reads the entity data. */
const ENTITY_READERS = ['superAdmin', 'technicalMaintenance'] as const;

export const entityDataEndpoints = {
  entityTables: defineEndpoint({
    method: 'GET',
    path: '/v1.0/system/entityData/tables',
    summary: 'The tables of the entity data view, each with its columns and how they are shown',
    input: z.strictObject({}),
    output: z.object({
      list: z.array(z.object({ table: z.enum(ENTITY_TABLES), columns: z.array(entityColumnSchema) })),
    }),
    example: {},
    access: ENTITY_READERS,
    token2: false,
    scope: 'none',
  }),
  entityRows: defineEndpoint({
    method: 'GET',
    path: '/v1.0/system/entityData/rows',
    summary:
      'A page of one table, newest first, optionally where one column equals a value; secrets answered only as set',
    input: z.strictObject({
      table: z.enum(ENTITY_TABLES),
      /** Filter: the column (one of the table's, not a secret) and the value its text must equal. */
      column: z.preprocess(emptyToNull, z.string().max(63).nullable().optional()),
      value: textFilter(256),
      ...pagingShape,
    }),
    output: z.object({
      /** Each row's values by column, as text (null: SQL null). */
      list: z.array(z.record(z.string(), z.string().nullable())),
      pageIndex: z.number().int(),
      pageSize: z.number().int(),
      /** Whether a next page exists (the big tables are not counted). */
      hasMore: z.boolean(),
    }),
    example: { table: 'users', pageIndex: 1 },
    access: ENTITY_READERS,
    token2: false,
    scope: 'none',
    rateLimit: { max: 120, timeWindowMs: 60_000 },
  }),
  entityExport: defineEndpoint({
    method: 'GET',
    path: '/v1.0/system/entityData/export',
    summary:
      'One table (optionally where one column equals a value) as CSV, newest first, secrets only as set; at most the export row limit',
    input: z.strictObject({
      table: z.enum(ENTITY_TABLES),
      column: z.preprocess(emptyToNull, z.string().max(63).nullable().optional()),
      value: textFilter(256),
    }),
    /** The table's own columns, each as text (null: SQL null). */
    output: z.record(z.string(), z.string().nullable()),
    example: { table: 'users' },
    access: ENTITY_READERS,
    token2: false,
    scope: 'none',
    produces: 'csv',
  }),
};
