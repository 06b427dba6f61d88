import { z } from 'zod';
import { defineEndpoint } from '../common/endpoint.js';
import { dateTimeSchema, pageOf, pagingShape, textFilter } from '../common/paging.js';
import { ALL_ROLES, STAFF_ROLES } from '../common/roles.js';

/** A script error as the error logger page lists it. */
export const errorLogRowSchema = z.object({
  id: z.number().int(),
  userId: z.number().int().nullable(),
  account: z.string(),
  page: z.string(),
  message: z.string(),
  stack: z.string().nullable(),
  userAgent: z.string(),
  ip: z.string(),
  /** ISO 8601, UTC. */
  createdAt: z.string(),
});
export type ErrorLogRow = z.infer<typeof errorLogRowSchema>;

/** The error log's filters, shared by the list and its export. */
const errorLogFilterShape = {
  account: textFilter(32),
  page: textFilter(512),
  startTime: dateTimeSchema,
  endTime: dateTimeSchema,
};

/** Script errors of the console (spec section 8): posted by every signed-in console, read by staff. */
export const errorLogEndpoints = {
  save: defineEndpoint({
    method: 'POST',
    path: '/save_error_logger',
    summary: 'Record a script error of the console (the spec’s path, outside /v1.0)',
    input: z.strictObject({
      page: z.string().min(1).max(512),
      message: z.string().min(1).max(2000),
      stack: z.string().max(8000).nullish(),
      userAgent: z.string().max(512),
    }),
    output: z.null(),
    example: {
      page: '/order/list',
      message: "TypeError: Cannot read properties of undefined (reading 'amount')",
      stack: 'TypeError: Cannot read properties of undefined\n    at OrderList (OrderList.tsx:42:17)',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0',
    },
    access: ALL_ROLES,
    token2: false,
    scope: 'self',
    rateLimit: { max: 60, timeWindowMs: 60_000 },
  }),
  getList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/errorLog/getList',
    summary: 'Recorded script errors, newest first, filtered by account, page and time',
    input: z.strictObject({ ...pagingShape, ...errorLogFilterShape }),
    output: pageOf(errorLogRowSchema),
    example: { pageIndex: 1, pageSize: 20, page: '/order/list' },
    access: STAFF_ROLES,
    token2: false,
    scope: 'owned',
  }),
  export: defineEndpoint({
    method: 'GET',
    path: '/v1.0/errorLog/export',
    summary: 'Every script error of the filtered set as CSV, newest first (at most 1,000,000 rows)',
    input: z.strictObject(errorLogFilterShape),
    output: errorLogRowSchema,
    example: { page: '/order/list' },
    access: STAFF_ROLES,
    token2: false,
    scope: 'owned',
    produces: 'csv',
  }),
} as const;
