import { z } from 'zod';

/** Empty strings from a form arrive as null (spec section 5); query strings arrive as text. */
export const emptyToNull = (v: unknown) => (v === '' ? null : v);

export const pageIndexSchema = z.coerce.number().int().min(1).max(1_000_000).default(1);
/** No default here: `pageSizeOf` picks pageSize, else pageNum, else 20. */
export const pageSizeSchema = z.coerce.number().int().min(1).max(500);

/**
 * Paging fields of every list request. `pageNum` is the spec's synonym of pageSize on the calls that
 * name it; the service reads `pageSizeOf(input)`.
 */
export const pagingShape = {
  pageIndex: pageIndexSchema,
  pageSize: pageSizeSchema.optional(),
  pageNum: pageSizeSchema.optional(),
};
export function pageSizeOf(input: { pageSize?: number | undefined; pageNum?: number | undefined }): number {
  return input.pageSize ?? input.pageNum ?? 20;
}

/**
 * A list answer: rows, total rows, the page asked for, and sums of money columns when it has some.
 * A list that does not count its rows (the order and payout lists under HighPerfOrderQuery) answers
 * `hasMore` (whether a page follows this one) and as `total` the rows up to this page, plus one when
 * another page follows: not a count, so the console pages with previous and next only.
 */
export function pageOf<T extends z.ZodType>(row: T) {
  return z.object({
    list: z.array(row),
    total: z.number().int(),
    hasMore: z.boolean().optional(),
    pageIndex: z.number().int(),
    pageSize: z.number().int(),
    summary: z.record(z.string(), z.number().int()).optional(),
  });
}

/** 'YYYY-MM-DD HH:mm:ss' in the platform time zone (spec section 5). */
export const dateTimeSchema = z.preprocess(
  emptyToNull,
  z
    .string()
    .max(19, "date must be formatted 'YYYY-MM-DD HH:mm:ss'")
    .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, "date must be formatted 'YYYY-MM-DD HH:mm:ss'")
    .nullable()
    .optional(),
);

/** An optional remark: trimmed; absent or null (the console sends an emptied field as null) is ''. */
export const remarkText = (max: number) =>
  z.preprocess(
    (v) => (v === null || v === undefined ? '' : typeof v === 'string' ? v.trim() : v),
    z.string().max(max, `remark is at most ${max} characters`),
  );

/** An optional text filter: trimmed, empty means no filter. */
export const textFilter = (max = 128) =>
  z.preprocess((v) => (typeof v === 'string' ? emptyToNull(v.trim()) : v), z.string().max(max).nullable().optional());

/** Query-string booleans: 'true'/'false'/'1'/'0'. */
export const queryBoolean = z.preprocess(
  (v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v),
  z.boolean(),
);

/** A positive integer id in a JSON body. */
export const idSchema = z.number().int().positive().max(2_147_483_647);
/** A positive integer id in a query string. */
export const queryIdSchema = z.coerce.number().int().positive().max(2_147_483_647);

/** A day as a filter, 'YYYY-MM-DD' in the platform time zone; empty is none. */
export const dayFilter = (message: string) =>
  z.preprocess(
    emptyToNull,
    z
      .string()
      .max(10, message)
      .regex(/^\d{4}-\d{2}-\d{2}$/, message)
      .nullable()
      .optional(),
  );
