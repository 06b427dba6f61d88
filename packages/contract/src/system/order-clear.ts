import { z } from 'zod';
import { defineEndpoint, type EndpointGroup } from '../common/endpoint.js';
import { dateTimeSchema, emptyToNull, pageOf, pagingShape } from '../common/paging.js';

/**
 * Order clear history (spec section 2, system management; issue 21 item 6): the DataClearCycle
 * retention job. Each run removes the details of finished collection orders and payouts that nothing
 * has changed for longer than the cycle (their timelines, allocation records, callbacks and their
 * attempts, payout receipts, pay script call records, and the payer's or payee's personal fields),
 * keeping each order's own row (code, amounts, state, times, parties) and never touching the ledger,
 * the fund records, the daily totals or the audit log. docs/architecture.md "Order clear".
 */

/** Who started a run: the daily job, or a superAdmin's "run now". */
export const ORDER_CLEAR_TRIGGERS = ['schedule', 'manual'] as const;
export type OrderClearTrigger = (typeof ORDER_CLEAR_TRIGGERS)[number];

/** running; succeeded; failed (an error stopped it: what it removed before stays removed); interrupted (its process stopped). */
export const ORDER_CLEAR_STATES = ['running', 'succeeded', 'failed', 'interrupted'] as const;
export type OrderClearState = (typeof ORDER_CLEAR_STATES)[number];

/** What a run removes, each counted on its row (the page's columns, in this order). */
export const ORDER_CLEAR_COUNTS = [
  'orders',
  'payouts',
  'orderEvents',
  'payoutEvents',
  'allocations',
  'callbacks',
  'callbackAttempts',
  'receipts',
  'payScriptCalls',
] as const;
export type OrderClearCount = (typeof ORDER_CLEAR_COUNTS)[number];

export const orderClearRunSchema = z.object({
  id: z.number().int(),
  trigger: z.enum(ORDER_CLEAR_TRIGGERS),
  /** The account that pressed "run now"; null for the daily job. */
  startedBy: z.string().nullable(),
  state: z.enum(ORDER_CLEAR_STATES),
  /** DataClearCycle when the run started (days). */
  cycleDays: z.number().int(),
  /** Orders and payouts last changed before this time had their details removed (ISO time). */
  cutoff: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Why it failed (the error's message); null otherwise. */
  error: z.string().nullable(),
  /** Collection orders and payouts whose details were removed, and the rows removed of each kind. */
  orders: z.number().int(),
  payouts: z.number().int(),
  orderEvents: z.number().int(),
  payoutEvents: z.number().int(),
  allocations: z.number().int(),
  callbacks: z.number().int(),
  callbackAttempts: z.number().int(),
  receipts: z.number().int(),
  payScriptCalls: z.number().int(),
});
export type OrderClearRun = z.infer<typeof orderClearRunSchema>;

const filterShape = {
  /** The run's start time, in the platform time zone. */
  startTime: dateTimeSchema,
  endTime: dateTimeSchema,
  trigger: z.preprocess(emptyToNull, z.enum(ORDER_CLEAR_TRIGGERS).nullable().optional()),
  state: z.preprocess(emptyToNull, z.enum(ORDER_CLEAR_STATES).nullable().optional()),
};

/** Who reads the runs: superAdmin and admin, technical maintenance read-only. */
const READERS = ['superAdmin', 'admin', 'technicalMaintenance'] as const;

export const orderClearEndpoints = {
  getOrderClearRuns: defineEndpoint({
    method: 'GET',
    path: '/v1.0/system/orderClearHistory/list',
    summary: 'The order clear runs (DataClearCycle retention), newest first, with what each removed',
    input: z.strictObject({ ...filterShape, ...pagingShape }),
    output: pageOf(orderClearRunSchema),
    example: { pageIndex: 1 },
    access: READERS,
    token2: false,
    scope: 'none',
  }),
  exportOrderClearRuns: defineEndpoint({
    method: 'GET',
    path: '/v1.0/system/orderClearHistory/export',
    summary: 'The filtered order clear runs as CSV',
    input: z.strictObject({ ...filterShape }),
    output: orderClearRunSchema,
    example: {},
    access: READERS,
    token2: false,
    scope: 'none',
    produces: 'csv',
  }),
  runOrderClear: defineEndpoint({
    method: 'POST',
    path: '/v1.0/system/orderClearHistory/run',
    summary:
      'Starts an order clear now with the current DataClearCycle (refused while the cycle is 0 or another run is going); answers the run, which goes on in the background',
    input: z.strictObject({}),
    output: orderClearRunSchema,
    example: {},
    access: ['superAdmin'],
    token2: true,
    scope: 'none',
  }),
} as const satisfies EndpointGroup;
