import { z } from 'zod';
import { defineEndpoint } from '../common/endpoint.js';

/** The ledger's invariants, as the check call reports them (DESIGN section 5). */
export const ledgerCheckSchema = z.object({ ok: z.boolean(), violations: z.array(z.string()) });
export type LedgerCheck = z.infer<typeof ledgerCheckSchema>;

/** The ledger (DESIGN section 5). Transfers are posted by the areas that move money, not by an endpoint. */
export const ledgerEndpoints = {
  ledgerCheck: defineEndpoint({
    method: 'GET',
    path: '/v1.0/admin/ledgerCheck',
    summary:
      'Verify the ledger: balances sum to zero, each balance equals its entries, no forbidden negative, keys posted once',
    input: z.strictObject({}),
    output: ledgerCheckSchema,
    example: {},
    access: ['superAdmin'],
    token2: false,
    scope: 'owned',
  }),
} as const;
