import { z } from 'zod';
import { defineEndpoint, type EndpointGroup } from '../common/endpoint.js';
import { emptyToNull, idSchema, pageOf, pagingShape, remarkText, textFilter } from '../common/paging.js';

/**
 * The name blacklist (spec section 2, system management › name blacklist; issue 21 item 6): payer
 * names refused at collection order create (code 2016) and payee names refused at payout create
 * (2017). A name matches whatever its case and spacing (`normalizeBlacklistName`).
 */
export const BLACKLIST_KINDS = ['payer', 'payee', 'both'] as const;
export type BlacklistKind = (typeof BLACKLIST_KINDS)[number];

/** How names are compared: trimmed, inner spaces as one, case folded. */
export function normalizeBlacklistName(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

export const blacklistRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(BLACKLIST_KINDS),
  remark: z.string(),
  createdAt: z.string(),
  /** The account that added it. */
  createdBy: z.string().nullable(),
});
export type BlacklistRow = z.infer<typeof blacklistRowSchema>;

const filterShape = {
  name: textFilter(128),
  kind: z.preprocess(emptyToNull, z.enum(BLACKLIST_KINDS).nullable().optional()),
};
/** Who reads the list: the system pages' staff, technical maintenance read-only. */
const READERS = ['superAdmin', 'admin', 'customerService', 'technicalMaintenance'] as const;
/** Who changes it: the staff who handle fraud reports. */
const WRITERS = ['superAdmin', 'admin', 'customerService'] as const;

export const nameBlacklistEndpoints = {
  getBlacklist: defineEndpoint({
    method: 'GET',
    path: '/v1.0/system/nameBlacklist/list',
    summary: 'The name blacklist, newest first',
    input: z.strictObject({ ...filterShape, ...pagingShape }),
    output: pageOf(blacklistRowSchema),
    example: { pageIndex: 1 },
    access: READERS,
    token2: false,
    scope: 'none',
  }),
  exportBlacklist: defineEndpoint({
    method: 'GET',
    path: '/v1.0/system/nameBlacklist/export',
    summary: 'The filtered name blacklist as CSV',
    input: z.strictObject({ ...filterShape }),
    output: blacklistRowSchema,
    example: {},
    access: READERS,
    token2: false,
    scope: 'none',
    produces: 'csv',
  }),
  addBlacklistName: defineEndpoint({
    method: 'POST',
    path: '/v1.0/system/nameBlacklist/add',
    summary: 'Adds a payer or payee name (or both) to the blacklist',
    input: z.strictObject({
      name: z.string().trim().min(1).max(128),
      kind: z.enum(BLACKLIST_KINDS),
      remark: remarkText(200),
    }),
    output: blacklistRowSchema,
    example: { name: 'John Fraud', kind: 'both', remark: 'chargebacks' },
    access: WRITERS,
    token2: true,
    scope: 'none',
  }),
  deleteBlacklistName: defineEndpoint({
    method: 'POST',
    path: '/v1.0/system/nameBlacklist/delete',
    summary: 'Removes a name from the blacklist',
    input: z.strictObject({ id: idSchema }),
    output: z.null(),
    example: { id: 1 },
    access: WRITERS,
    token2: true,
    scope: 'none',
  }),
} as const satisfies EndpointGroup;
