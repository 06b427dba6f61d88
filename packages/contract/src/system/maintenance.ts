import { z } from 'zod';
import { defineEndpoint, type EndpointGroup } from '../common/endpoint.js';
import { emptyToNull, queryBoolean } from '../common/paging.js';

/**
 * System maintenance (spec section 7 "GET resetSystemResourcePool and fixSystemResources", DESIGN
 * section 10; issue 21 item 6): the derived counters of the resource pool (what each account, merchant
 * and supplier processed per day) checked against the orders and payouts they come from and corrected,
 * and the allocation's rotation started afresh. Neither moves money nor touches the ledger. The rules
 * of the counters are written once in the server's `modules/system/derived-counters.ts`.
 *
 * Both calls are GETs as the spec names them, with side effects: they need the second-level password
 * (the `token2` header, which a cross-site page cannot send, and the session cookie alone is not
 * enough), like every other staff change. `checkSystemResources` is the dry run, a read.
 */

/** The tables whose rows fix corrects. */
export const DERIVED_TABLES = ['resource_daily', 'party_daily'] as const;
export type DerivedTable = (typeof DERIVED_TABLES)[number];

/** Days fix looks back by default (today included), and at most. */
export const FIX_DAYS_DEFAULT = 31;
export const FIX_DAYS_MAX = 3660;
/** Rows a report lists at most (`changed` counts them all). */
export const MAINTENANCE_REPORT_ROWS = 500;

/** One stored row that differed from what its orders and payouts make it. */
export const counterChangeSchema = z.object({
  table: z.enum(DERIVED_TABLES),
  /** The day of the row, 'YYYY-MM-DD' in the platform time zone. */
  day: z.string(),
  /** resource_daily: the account. */
  resourceId: z.number().int().nullable(),
  resourceName: z.string().nullable(),
  /** party_daily: the merchant's or supplier's console account, and the product. */
  userId: z.number().int().nullable(),
  account: z.string().nullable(),
  productId: z.number().int().nullable(),
  countBefore: z.number().int(),
  countAfter: z.number().int(),
  /** Minor units. */
  amountBefore: z.number().int(),
  amountAfter: z.number().int(),
});
export type CounterChange = z.infer<typeof counterChangeSchema>;

export const fixReportSchema = z.object({
  /** True: nothing was written (the check, or fix with dryRun). */
  dryRun: z.boolean(),
  /** The days compared, first and last (platform time zone). */
  fromDay: z.string(),
  toDay: z.string(),
  /** Rows compared (stored or expected). */
  checked: z.number().int(),
  /** Rows that differed (and, unless a dry run, were corrected). */
  changed: z.number().int(),
  /** The first `MAINTENANCE_REPORT_ROWS` of them, by day and table. */
  changes: z.array(counterChangeSchema),
});
export type FixReport = z.infer<typeof fixReportSchema>;

export const resetReportSchema = z.object({
  /** Accounts whose last allocation time was cleared: the least-recently-used rotation starts afresh. */
  resourcesReset: z.number().int(),
  /** Of them, those whose last allocation was in the future (a clock that ran ahead): they were never chosen. */
  futureStamps: z.number().int(),
  /** Daily-total deltas folded into party_daily (the totals unchanged). */
  deltasFolded: z.number().int(),
});
export type ResetReport = z.infer<typeof resetReportSchema>;

const daysField = z.preprocess(
  (v) => (v === '' || v === null ? undefined : typeof v === 'string' ? Number(v) : v),
  z.number().int().min(1).max(FIX_DAYS_MAX).optional(),
);
const dryRunField = z.preprocess(emptyToNull, queryBoolean.nullable().optional());

/** Who changes: the administrators. */
const WRITERS = ['superAdmin', 'admin'] as const;
/** Who checks: the administrators and technical maintenance (the page's read-only twin). */
const CHECKERS = ['superAdmin', 'admin', 'technicalMaintenance'] as const;

export const systemMaintenanceEndpoints = {
  checkSystemResources: defineEndpoint({
    method: 'GET',
    path: '/v1.0/system-config/checkSystemResources',
    summary: 'What fixSystemResources would correct, written nowhere (its dry run)',
    input: z.strictObject({ days: daysField }),
    output: fixReportSchema,
    example: { days: 7 },
    access: CHECKERS,
    token2: false,
    scope: 'none',
  }),
  fixSystemResources: defineEndpoint({
    method: 'GET',
    path: '/v1.0/system-config/fixSystemResources',
    summary:
      'Recomputes the accounts’ and parties’ daily totals of the last `days` days from the orders and payouts, corrects the rows that differ and answers what changed (audited); never touches the ledger',
    input: z.strictObject({ days: daysField, dryRun: dryRunField }),
    output: fixReportSchema,
    example: { days: 7 },
    access: WRITERS,
    token2: true,
    scope: 'none',
  }),
  resetSystemResourcePool: defineEndpoint({
    method: 'GET',
    path: '/v1.0/system-config/resetSystemResourcePool',
    summary:
      'Starts the allocation’s rotation afresh (every account’s last allocation cleared) and folds the pending daily deltas (audited); moves no money, changes no order',
    input: z.strictObject({}),
    output: resetReportSchema,
    example: {},
    access: WRITERS,
    token2: true,
    scope: 'none',
  }),
} as const satisfies EndpointGroup;
