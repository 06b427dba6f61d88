import { z } from 'zod';
import { defineEndpoint, type EndpointGroup } from '../common/endpoint.js';
import { idSchema, pageOf, pagingShape, remarkText, textFilter } from '../common/paging.js';

/**
 * The staff sign-in IP whitelist (spec section 2, system management › IP whitelist; issue 21 item 6):
 * the addresses and ranges staff accounts may sign in from while the StaffIpWhitelist setting is on.
 * Merchants and suppliers are not limited by it (a merchant's API has its own whitelist).
 */
export const staffIpRowSchema = z.object({
  id: z.number().int(),
  /** An IPv4 or IPv6 address or a CIDR range. */
  entry: z.string(),
  remark: z.string(),
  createdAt: z.string(),
  /** The account that added it. */
  createdBy: z.string().nullable(),
  /** Whether the caller's own address is in this entry (deleting it may shut the caller out). */
  coversCaller: z.boolean(),
});
export type StaffIpRow = z.infer<typeof staffIpRowSchema>;

const filterShape = { entry: textFilter(64) };
/** Who reads the list: the config page's readers. */
const READERS = ['superAdmin', 'admin', 'customerService', 'technicalMaintenance'] as const;
/** Who changes it: who may turn the StaffIpWhitelist setting on. */
const WRITERS = ['superAdmin'] as const;

export const ipWhitelistEndpoints = {
  getStaffIpList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/system/ipWhitelist/list',
    summary: 'The staff sign-in whitelist, newest first, with the caller’s own address and whether it is on the list',
    input: z.strictObject({ ...filterShape, ...pagingShape }),
    output: pageOf(staffIpRowSchema).extend({
      /** The address the server sees for the caller. */
      callerIp: z.string(),
      /** Whether any entry holds it. */
      callerCovered: z.boolean(),
    }),
    example: { pageIndex: 1 },
    access: READERS,
    token2: false,
    scope: 'none',
  }),
  exportStaffIpList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/system/ipWhitelist/export',
    summary: 'The filtered staff sign-in whitelist as CSV',
    input: z.strictObject({ ...filterShape }),
    output: staffIpRowSchema.omit({ coversCaller: true }),
    example: {},
    access: READERS,
    token2: false,
    scope: 'none',
    produces: 'csv',
  }),
  addStaffIp: defineEndpoint({
    method: 'POST',
    path: '/v1.0/system/ipWhitelist/add',
    summary: 'Adds an address or a range (at most a /16 of IPv4 or a /32 of IPv6) to the staff sign-in whitelist',
    input: z.strictObject({ entry: z.string().trim().min(1).max(64), remark: remarkText(200) }),
    output: staffIpRowSchema,
    example: { entry: '203.0.113.0/24', remark: 'office' },
    access: WRITERS,
    token2: true,
    scope: 'none',
  }),
  deleteStaffIp: defineEndpoint({
    method: 'POST',
    path: '/v1.0/system/ipWhitelist/delete',
    summary: 'Removes an entry; refused while the whitelist is on if the caller’s own address would no longer be on it',
    input: z.strictObject({ id: idSchema }),
    output: z.null(),
    example: { id: 1 },
    access: WRITERS,
    token2: true,
    scope: 'none',
  }),
} as const satisfies EndpointGroup;
