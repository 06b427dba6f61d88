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
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string().nullable(),
});
export type AuditRow = z.infer<typeof auditRowSchema>;

/** The audit log: append-only and hash-chained; nobody can change it from the console. */
export const auditEndpoints = {
  getList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/audit/getList',
    summary: 'Audit rows, newest first, filtered by account, action and time',
    input: z.strictObject({
      ...pagingShape,
      account: textFilter(32),
      action: textFilter(64),
      startTime: dateTimeSchema,
      endTime: dateTimeSchema,
    }),
    output: pageOf(auditRowSchema),
    example: { pageIndex: 1, pageSize: 20, action: 'admin.addUser' },
    access: ['superAdmin', 'admin'],
    token2: false,
    scope: 'owned',
  }),
  verifyChain: defineEndpoint({
    method: 'GET',
    path: '/v1.0/audit/verifyChain',
    summary: 'Recompute the hash chain: reports the first row that was edited or removed',
    input: z.strictObject({}),
    output: z.object({ ok: z.boolean(), checked: z.number().int(), firstBrokenId: z.number().int().nullable() }),
    example: {},
    access: ['superAdmin'],
    token2: false,
    scope: 'owned',
  }),
} as const;
