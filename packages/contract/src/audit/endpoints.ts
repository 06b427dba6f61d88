import { z } from 'zod';
import { defineEndpoint } from '../common/endpoint.js';
import { dateTimeSchema, pageOf, pagingShape, textFilter } from '../common/paging.js';
import { roleSchema } from '../common/roles.js';

export const auditRowSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  userId: z.number().int().nullable(),
  account: z.string().nullable(),
  role: roleSchema.nullable(),
  action: z.string(),
  target: z.string().nullable(),
  /**
   * What the target names, by name: the account (user, session), the merchant's, supplier's or
   * account's name, the order code(s), the message title, the proposal's party; null when unknown.
   */
  targetName: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string().nullable(),
});
export type AuditRow = z.infer<typeof auditRowSchema>;

/** Account managers, and technical maintenance reading (it reads the system pages, changes nothing). */
const AUDIT_READERS = ['superAdmin', 'admin', 'technicalMaintenance'] as const;

/** The audit list's filters, shared by the list and its export. */
const auditFilterShape = {
  account: textFilter(32),
  action: textFilter(64),
  startTime: dateTimeSchema,
  endTime: dateTimeSchema,
};

/** One audit row in the CSV export: before/after as JSON text. */
export const auditCsvRowSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  account: z.string().nullable(),
  role: z.string().nullable(),
  action: z.string(),
  target: z.string().nullable(),
  before: z.string().nullable(),
  after: z.string().nullable(),
  ip: z.string().nullable(),
});

/** The audit log: append-only and hash-chained; nobody can change it from the console. */
export const auditEndpoints = {
  getList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/audit/getList',
    summary: 'Audit rows, newest first, filtered by account, action and time',
    input: z.strictObject({ ...pagingShape, ...auditFilterShape }),
    output: pageOf(auditRowSchema),
    example: { pageIndex: 1, pageSize: 20, action: 'admin.addUser' },
    access: AUDIT_READERS,
    token2: false,
    scope: 'owned',
  }),
  export: defineEndpoint({
    method: 'GET',
    path: '/v1.0/audit/export',
    summary: 'Every audit row of the filtered set as CSV, newest first (at most 1,000,000 rows)',
    input: z.strictObject(auditFilterShape),
    output: auditCsvRowSchema,
    example: { action: 'users.addUser' },
    access: AUDIT_READERS,
    token2: false,
    scope: 'owned',
    produces: 'csv',
  }),
  verifyChain: defineEndpoint({
    method: 'GET',
    path: '/v1.0/audit/verifyChain',
    summary:
      'Recompute the hash chain: reports the first sealed row that was edited or removed, and rows left unsealed too long',
    input: z.strictObject({}),
    output: z.object({
      ok: z.boolean(),
      checked: z.number().int(),
      firstBrokenId: z.number().int().nullable(),
      /** Rows not yet sealed (their place and hash come shortly after they commit). */
      unsealed: z.number().int(),
      /** Of those, rows waiting longer than allowed: the sealer is not running. */
      staleUnsealed: z.number().int(),
    }),
    example: {},
    access: ['superAdmin'],
    token2: false,
    scope: 'owned',
  }),
} as const;
