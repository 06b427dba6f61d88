import type { z } from 'zod';
import type { Role } from './roles.js';
import './zod-errors.js';

export type HttpMethod = 'GET' | 'POST';

/**
 * Data scope of an endpoint (DESIGN section 4):
 * - `none`: no party's data (sign-in, platform settings);
 * - `self`: only the caller's own account;
 * - `owned`: rows belong to parties; roles in `allScopeRoles` (staff by default) see every party's,
 *   a supplier sees its own (and its agents' only on endpoints marked `team`), a merchant its own,
 *   anyone else 404.
 */
export type Scope = 'none' | 'self' | 'owned';

/**
 * One endpoint, declared once. The server registers it with its guards; the console calls it through
 * a client typed by it; the OpenAPI document and the permission-matrix test read it.
 */
export type Produces = 'json' | 'csv';

export interface Endpoint<
  I extends z.ZodType = z.ZodType,
  O extends z.ZodType = z.ZodType,
  P extends Produces = Produces,
> {
  method: HttpMethod;
  /** Full path, e.g. '/v1.0/user/login'. The only place this string is written. */
  path: string;
  summary: string;
  /** The query (GET) or the body (POST). Bodies are strict: unknown fields are refused. */
  input: I;
  /** The `data` of a successful answer. Fields not in it are never sent. */
  output: O;
  /** A valid input: documentation, and the seed of the generated malformed-input tests. */
  example: z.input<I>;
  /** Who may call it: 'public', or the roles allowed. There is no default: deny unless listed. */
  access: 'public' | readonly Role[];
  /** Needs a valid second-level token (token2): 1024 without it, 1025 when expired. */
  token2: boolean;
  scope: Scope;
  /** For `owned`: the roles that see every party's rows. Defaults to STAFF_ROLES. */
  allScopeRoles?: readonly Role[];
  /**
   * For `owned`: a team view, where a supplier's scope includes its agents' rows. Off by default: a
   * supplier does not read or act on its agents' sessions, accounts or money unless an endpoint says so.
   */
  team?: boolean;
  /** Callable by a session whose authenticator binding is not yet confirmed. */
  allowPendingBind?: boolean;
  /**
   * POST only: the input may arrive as the query string (the spec writes `POST ...claimOrder ?orderId`);
   * a body, when sent, is the input.
   */
  bodyFromQuery?: boolean;
  /** Per-IP limit on this endpoint, on top of the global one. */
  rateLimit?: { max: number; timeWindowMs: number };
  /**
   * 'csv': an export. The answer is a CSV download (not the envelope) whose columns are the keys of
   * `output`, which then describes one row; the handler yields the rows and the server streams them.
   */
  produces?: P;
}

export function defineEndpoint<I extends z.ZodType, O extends z.ZodType, P extends Produces = 'json'>(
  e: Endpoint<I, O, P>,
): Endpoint<I, O, P> {
  return e;
}

export type EndpointInput<E> = E extends Endpoint<infer I, z.ZodType> ? z.input<I> : never;
export type EndpointParsed<E> = E extends Endpoint<infer I, z.ZodType> ? z.output<I> : never;
export type EndpointOutput<E> = E extends Endpoint<z.ZodType, infer O> ? z.output<O> : never;
/** Most rows an export streams (DESIGN section 3). */
export const EXPORT_ROW_LIMIT = 1_000_000;
export type EndpointGroup = Record<string, Endpoint>;
