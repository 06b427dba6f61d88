import { z } from 'zod';
import { defineEndpoint } from '../common/endpoint.js';
import { dayFilter } from '../common/paging.js';
import type { Role } from '../common/roles.js';

/** Finance › fund flow: the platform's money, for its administrators only (spec section 2). */
export const FINANCE_READERS = ['superAdmin', 'admin'] as const satisfies readonly Role[];
/** The longest range one fund flow call reads. */
export const FUND_FLOW_MAX_DAYS = 93;

export const FINANCE_TEXTS = {
  date: "date must be formatted 'YYYY-MM-DD'",
  range: `the range is at most ${FUND_FLOW_MAX_DAYS} days, and its start is not after its end`,
} as const;

const daySchema = dayFilter(FINANCE_TEXTS.date);

/**
 * The money that moved on one day (platform time zone), read from the ledger's transfers of that day;
 * minor units. A reversal counts against the day it was posted.
 */
export const fundFlowFiguresSchema = z.object({
  /** Collection orders paid (less those reversed): how many, and their amounts. */
  collectionCount: z.number().int(),
  collections: z.number().int(),
  /** Payouts completed: how many, and their amounts. */
  payoutCount: z.number().int(),
  payouts: z.number().int(),
  /** The merchants' fees and the suppliers' commissions of those orders and payouts. */
  fees: z.number().int(),
  commissions: z.number().int(),
  /** What the platform's revenue accounts received: fees less commissions. */
  platformRevenue: z.number().int(),
  /** Suppliers' deposits and withdrawals (approved balance changes). */
  deposits: z.number().int(),
  withdrawals: z.number().int(),
  /** Manual adjustments and cleared balances, net to the merchants and suppliers. */
  adjustments: z.number().int(),
});
export type FundFlowFigures = z.infer<typeof fundFlowFiguresSchema>;
/** The figures in the order the page and the CSV show them. */
export const FUND_FLOW_FIGURES = Object.keys(fundFlowFiguresSchema.shape) as Array<keyof FundFlowFigures>;

export const fundFlowDaySchema = fundFlowFiguresSchema.extend({ day: z.string() });
export type FundFlowDay = z.infer<typeof fundFlowDaySchema>;

/**
 * Whether the statistics' rollups and the ledger tell the same story about the orders and payouts
 * created in the range: per direction, how many were paid or completed and the platform's revenue
 * from them, once as the rollups hold it and once as the ledger's transfers of those orders post it.
 */
export const fundFlowCheckSchema = z.object({
  agree: z.boolean(),
  directions: z.array(
    z.object({
      direction: z.enum(['collection', 'payout']),
      rollupCount: z.number().int(),
      ledgerCount: z.number().int(),
      rollupRevenue: z.number().int(),
      ledgerRevenue: z.number().int(),
    }),
  ),
});
export type FundFlowCheck = z.infer<typeof fundFlowCheckSchema>;

export const fundFlowAnswerSchema = z.object({
  startDay: z.string(),
  endDay: z.string(),
  /** The platform time zone the days are in. */
  timeZone: z.string(),
  /** Every day of the range, newest first, empty ones included. */
  days: z.array(fundFlowDaySchema),
  totals: fundFlowFiguresSchema,
  check: fundFlowCheckSchema,
});
export type FundFlowAnswer = z.infer<typeof fundFlowAnswerSchema>;

const rangeShape = {
  /** First day, 'YYYY-MM-DD' in the platform time zone; default: 6 days before the last. */
  startDay: daySchema,
  /** Last day; default: today. */
  endDay: daySchema,
};

export const financeEndpoints = {
  fundFlow: defineEndpoint({
    method: 'GET',
    path: '/v1.0/finance/fundFlow',
    summary:
      'Money in and out per day (collections, payouts, fees, commissions, platform revenue, deposits, withdrawals, adjustments) from the ledger, and whether the rollups agree with it',
    input: z.strictObject(rangeShape),
    output: fundFlowAnswerSchema,
    example: { startDay: '2026-11-21', endDay: '2026-11-27' },
    access: FINANCE_READERS,
    token2: false,
    scope: 'none',
  }),
  fundFlowExport: defineEndpoint({
    method: 'GET',
    path: '/v1.0/finance/fundFlow/export',
    summary: 'The fund flow of the range as CSV, one row per day, newest first',
    input: z.strictObject(rangeShape),
    output: fundFlowDaySchema,
    example: { startDay: '2026-11-21', endDay: '2026-11-27' },
    access: FINANCE_READERS,
    token2: false,
    scope: 'none',
    produces: 'csv',
  }),
};
