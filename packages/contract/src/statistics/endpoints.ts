import { z } from 'zod';
import { defineEndpoint } from '../common/endpoint.js';
import { dateTimeSchema, dayFilter, emptyToNull, queryBoolean } from '../common/paging.js';
import type { Role } from '../common/roles.js';
import { optionalInt, optionalQueryId } from '../orders/endpoints.js';
import { ORDER_MARKS } from '../orders/states.js';

/**
 * Statistics (issue 22; DESIGN section 9): collection and payout figures read from the hourly rollups
 * (docs/architecture.md "Statistics rollups"), scoped by role: a merchant its own, a supplier its own
 * and its agents', staff everyone's. Orders count in the hour they were created.
 */

/** Who reads statistics: the statistics pages of spec section 2 (technical support sees none). */
export const STATISTICS_READERS = [
  'superAdmin',
  'admin',
  'customerService',
  'technicalMaintenance',
  'supplier',
  'merchant',
] as const satisfies readonly Role[];

export const STATISTICS_ORDER_TYPES = ['collection', 'payout'] as const;
export type StatisticsOrderType = (typeof STATISTICS_ORDER_TYPES)[number];
export const STATISTICS_TIME_FORMATS = ['day', 'hour'] as const;
export type StatisticsTimeFormat = (typeof STATISTICS_TIME_FORMATS)[number];
/** The longest range one statistics call sums (its hourly trend: 2,232 points). */
export const STATISTICS_MAX_DAYS = 93;

export const STATISTICS_TEXTS = {
  range: `the range is at most ${STATISTICS_MAX_DAYS} days, and its start is not after its end`,
  date: "date must be formatted 'YYYY-MM-DD'",
} as const;

const optionalChoice = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(emptyToNull, z.enum(values).nullable().optional());
const dateSchema = dayFilter(STATISTICS_TEXTS.date);

/**
 * The figures of a set of orders or payouts. Money in minor units. What a role may not see is null:
 * a merchant its supplier's commission and the platform's revenue, a supplier the merchant's fee and
 * the platform's revenue.
 */
export const statisticsFiguresSchema = z.object({
  createdCount: z.number().int(),
  createdAmount: z.number().int(),
  /** Paid and not reversed (collections); completed (payouts). */
  successCount: z.number().int(),
  successAmount: z.number().int(),
  /** successCount / createdCount in basis points (0 to 10,000); null when nothing was created. */
  successRate: z.number().int().nullable(),
  /** The merchant's fees of the successful ones. */
  fee: z.number().int().nullable(),
  /** The suppliers' commissions of the successful ones. */
  commission: z.number().int().nullable(),
  /** Fee less commission. */
  platformRevenue: z.number().int().nullable(),
  /** Allocation failed or rejected; payouts: rejected. */
  failedCount: z.number().int(),
  timedOutCount: z.number().int(),
  reversedCount: z.number().int(),
  reversedAmount: z.number().int(),
  /** Payouts cancelled before a claim. */
  cancelledCount: z.number().int(),
});
export type StatisticsFigures = z.infer<typeof statisticsFiguresSchema>;

export const statisticsInputSchema = z.strictObject({
  merchantUserId: optionalQueryId,
  supplierUserId: optionalQueryId,
  productId: optionalQueryId,
  /** 'YYYY-MM-DD HH:mm:ss' in the platform time zone, taken to its hour; both missing: today. */
  startTime: dateTimeSchema,
  endTime: dateTimeSchema,
  /** collection (default) or payout. */
  orderType: optionalChoice(STATISTICS_ORDER_TYPES),
  /** Collections only. */
  orderMark: optionalInt(ORDER_MARKS),
  /** The split by party: by merchant when true, by supplier otherwise (a supplier: always its team; a merchant: always itself). */
  groupByMerchant: z.preprocess(emptyToNull, queryBoolean.nullable().optional()),
  /** The trend's points: by day or by hour; missing: the OrderStatisticsTimeFormat setting. */
  timeFormat: optionalChoice(STATISTICS_TIME_FORMATS),
});

export const statisticsAnswerSchema = z.object({
  orderType: z.enum(STATISTICS_ORDER_TYPES),
  timeFormat: z.enum(STATISTICS_TIME_FORMATS),
  /** The range summed, in whole hours: its first hour and its last hour's end ('YYYY-MM-DD HH:mm:ss'). */
  startTime: z.string(),
  endTime: z.string(),
  totals: statisticsFiguresSchema,
  /** One point per day ('YYYY-MM-DD') or hour ('YYYY-MM-DD HH:00') of the range, empty ones included. */
  series: z.array(statisticsFiguresSchema.extend({ time: z.string() })),
  byProduct: z.array(statisticsFiguresSchema.extend({ productId: z.number().int() })),
  /** The split by merchant or supplier (`groupedBy`); userId 0: not allocated or claimed yet. */
  groupedBy: z.enum(['merchant', 'supplier']),
  byParty: z.array(statisticsFiguresSchema.extend({ userId: z.number().int(), account: z.string().nullable() })),
});
export type StatisticsAnswer = z.infer<typeof statisticsAnswerSchema>;

const periodsSchema = z.object({
  today: statisticsFiguresSchema,
  yesterday: statisticsFiguresSchema,
  /** The 7 days that end with today. */
  last7Days: statisticsFiguresSchema,
});
export type StatisticsPeriods = z.infer<typeof periodsSchema>;

export const simpleStatisticsAnswerSchema = z.object({
  /** False for a merchant or supplier while ShowUserStatisticInfo is off: no figures then. */
  shown: z.boolean(),
  todayDate: z.string(),
  collection: periodsSchema.nullable(),
  payout: periodsSchema.nullable(),
});
export type SimpleStatisticsAnswer = z.infer<typeof simpleStatisticsAnswerSchema>;

const statisticsEndpoint = (path: string, summary: string) =>
  defineEndpoint({
    method: 'GET',
    path,
    summary,
    input: statisticsInputSchema,
    output: statisticsAnswerSchema,
    example: { startTime: '2026-11-20 00:00:00', endTime: '2026-11-27 23:59:59', groupByMerchant: 'true' },
    access: STATISTICS_READERS,
    token2: false,
    scope: 'owned',
    team: true,
  });

export const statisticsEndpoints = {
  statisticsV2: statisticsEndpoint(
    '/v1.0/order/statisticsV2',
    'Statistics of collection orders (orderType payout: of payouts) over a range: totals, a trend by day or hour, splits by product and by merchant or supplier',
  ),
  payoutStatisticsV2: statisticsEndpoint(
    '/v1.0/payoutOrder/statisticsV2',
    'Statistics of payouts over a range (the payout pages’ twin of order/statisticsV2; orderType is payout whatever is sent)',
  ),
  simplestatisticsV2: defineEndpoint({
    method: 'GET',
    path: '/v1.0/order/simplestatisticsV2',
    summary:
      'The home page’s figures: today, yesterday and the last 7 days of collections and payouts, scoped by role (dates in the platform time zone; missing: the server’s today)',
    input: z.strictObject({ todayDate: dateSchema, tomorrowDate: dateSchema, yesterdayDate: dateSchema }),
    output: simpleStatisticsAnswerSchema,
    example: { todayDate: '2026-11-27', tomorrowDate: '2026-11-28', yesterdayDate: '2026-11-26' },
    access: STATISTICS_READERS,
    token2: false,
    scope: 'owned',
    team: true,
  }),
};
