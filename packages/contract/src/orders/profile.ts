import { z } from 'zod';
import type { EndpointGroup } from '../common/endpoint.js';
import { defineEndpoint } from '../common/endpoint.js';
import { dateTimeSchema, emptyToNull, queryIdSchema } from '../common/paging.js';
import type { Role } from '../common/roles.js';

/**
 * Order performance analysis (/order/profile, issue 6): how long collection orders take, by product
 * and by hour of day in the platform time zone. Read from `orders` in one aggregate query over a
 * bounded window of creation times (orders_created_idx), never from a rollup.
 */

export const ORDER_PROFILE_ROLES = ['superAdmin'] as const satisfies readonly Role[];

/** Without startTime/endTime the analysis covers the 7 days up to now. */
export const ORDER_PROFILE_DEFAULT_DAYS = 7;
/** Longest window one request may scan: longer ones are refused (400), not truncated. */
export const ORDER_PROFILE_MAX_DAYS = 31;
/** The percentiles every latency is reported at. */
export const ORDER_PROFILE_PERCENTILES = [50, 90, 99] as const;
/** The three latencies, in the order the console shows them. */
export const ORDER_PROFILE_METRICS = ['allocate', 'pay', 'callback'] as const;
export type OrderProfileMetric = (typeof ORDER_PROFILE_METRICS)[number];

export const ORDER_PROFILE_TEXTS = {
  window: `the window may span at most ${ORDER_PROFILE_MAX_DAYS} days: narrow startTime and endTime`,
  order: 'startTime must be before endTime',
} as const;

const ms = z.number().int().nullable();

/**
 * Counts and latencies of a set of orders (created in the window):
 * - created: every order; allocated: those that got a receiving account (allocated_at set);
 * - paid: those whose payment arrived (paid_at set, a later reversal included);
 * - allocationFailed / timedOut: those in that state now;
 * - allocate: from the create call reaching the order service to the moment the first allocation that
 *   found an account chose it (the checks, the wait for the create's batch and the allocation itself
 *   included; a later reselect does not count, an order that failed allocation counts when a reselect
 *   or supplement allocates it);
 * - pay: paid_at - allocated_at (the latest allocation, the account the payer paid to);
 * - callback: the first succeeded delivery attempt's time - paid_at.
 * Latencies are continuous percentiles (percentile_cont) in whole milliseconds; null without samples.
 */
export const orderProfileStatsShape = {
  created: z.number().int(),
  allocated: z.number().int(),
  paid: z.number().int(),
  allocationFailed: z.number().int(),
  timedOut: z.number().int(),
  allocateP50Ms: ms,
  allocateP90Ms: ms,
  allocateP99Ms: ms,
  payP50Ms: ms,
  payP90Ms: ms,
  payP99Ms: ms,
  callbackP50Ms: ms,
  callbackP90Ms: ms,
  callbackP99Ms: ms,
};
export const orderProfileStatsSchema = z.object(orderProfileStatsShape);
export type OrderProfileStats = z.infer<typeof orderProfileStatsSchema>;

/** One product in one hour of day: the rows of the table and of the CSV export. */
export const orderProfileRowSchema = z.object({
  productId: z.number().int(),
  productName: z.string(),
  /** 0..23 in the platform time zone, of the order's creation. */
  hour: z.number().int(),
  ...orderProfileStatsShape,
});
export type OrderProfileRow = z.infer<typeof orderProfileRowSchema>;

export const orderProfileSchema = z.object({
  /** The window analysed (given or defaulted), 'YYYY-MM-DD HH:mm:ss' in `timeZone`. */
  startTime: z.string(),
  endTime: z.string(),
  timeZone: z.string(),
  overall: orderProfileStatsSchema,
  /** Every hour 0..23, also those without orders (zero counts, null latencies). */
  byHour: z.array(z.object({ hour: z.number().int(), ...orderProfileStatsShape })),
  /** The products that had orders in the window, by id. */
  byProduct: z.array(z.object({ productId: z.number().int(), productName: z.string(), ...orderProfileStatsShape })),
  /** Product and hour pairs that had orders, by product then hour. */
  rows: z.array(orderProfileRowSchema),
});
export type OrderProfile = z.infer<typeof orderProfileSchema>;

/** The analysis' filters, shared by the answer and its export. */
export const orderProfileFilterShape = {
  /** Orders created from/to, 'YYYY-MM-DD HH:mm:ss' in the platform time zone (default: the last 7 days). */
  startTime: dateTimeSchema,
  endTime: dateTimeSchema,
  productId: z.preprocess(emptyToNull, queryIdSchema.nullable().optional()),
  merchantId: z.preprocess(emptyToNull, queryIdSchema.nullable().optional()),
};

export const orderProfileEndpoints = {
  getProfile: defineEndpoint({
    method: 'GET',
    path: '/v1.0/order/profile',
    summary:
      'Order performance: counts and p50/p90/p99 of time to allocate, time to pay and callback latency (ms), ' +
      `overall, by product, by hour of day and by both; orders created in a window of at most ${ORDER_PROFILE_MAX_DAYS} days`,
    input: z.strictObject(orderProfileFilterShape),
    output: orderProfileSchema,
    example: { startTime: '2026-11-16 00:00:00', endTime: '2026-11-22 23:59:59', productId: 1001 },
    access: ORDER_PROFILE_ROLES,
    token2: false,
    scope: 'none',
  }),
  exportProfile: defineEndpoint({
    method: 'GET',
    path: '/v1.0/order/profile/export',
    summary: 'The order performance rows (one per product and hour of day) as CSV, with the same filters',
    input: z.strictObject(orderProfileFilterShape),
    output: orderProfileRowSchema,
    example: { startTime: '2026-11-16 00:00:00', endTime: '2026-11-22 23:59:59' },
    access: ORDER_PROFILE_ROLES,
    token2: false,
    scope: 'none',
    produces: 'csv',
  }),
} as const satisfies EndpointGroup;
