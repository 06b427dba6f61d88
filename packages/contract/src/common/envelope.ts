import { z } from 'zod';

/** Every response body is `{code, msg, data}`; code 200 is success. */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number().int(), msg: z.string(), data });
}

export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

/** One problem with the input: where (a dotted path) and what. */
export const issueSchema = z.object({ path: z.string(), message: z.string() });
export type Issue = z.infer<typeof issueSchema>;

/** `data` of an error answer. `reason` is a stable key the console translates; `issues` list bad fields. */
export const errorDataSchema = z
  .object({
    reason: z.string().optional(),
    issues: z.array(issueSchema).optional(),
    requestId: z.string().optional(),
    /** The merchant API's 2008 (allocation failed) names the order it kept in that state. */
    orderCode: z.string().optional(),
    /** A throttled sign-in (1004): the seconds before this address may try again. */
    retryAfterSeconds: z.number().int().optional(),
    /** A refused payout claim (claimLimit): the most payouts a supplier may hold in progress. */
    limit: z.number().int().optional(),
  })
  .nullable();
export type ErrorData = z.infer<typeof errorDataSchema>;
