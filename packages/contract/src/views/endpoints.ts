import { z } from 'zod';
import { defineEndpoint, type EndpointGroup } from '../common/endpoint.js';
import { idSchema } from '../common/paging.js';
import { ALL_ROLES } from '../common/roles.js';
import { ROUTES } from '../routes/routes.js';

/**
 * Saved filter views (DESIGN section 3): a user keeps named filter sets per list page. A view belongs
 * to its user only: nobody else lists, overwrites or deletes it.
 */

/** Most views one user keeps on one page. */
export const MAX_VIEWS_PER_PAGE = 50;
/** Most filters one view holds. */
export const MAX_VIEW_FILTERS = 50;
/** Longest a view's filters may be as JSON text. */
export const MAX_VIEW_FILTERS_JSON = 4000;
export const MAX_VIEW_NAME = 40;

export const VIEW_TEXTS = {
  tooManyViews: `at most ${MAX_VIEWS_PER_PAGE} views per page: delete one first`,
  unknownPage: 'page must be the route name of a console page',
  filtersTooLarge: `filters may hold at most ${MAX_VIEW_FILTERS} fields and ${MAX_VIEW_FILTERS_JSON} characters`,
  filterKey: 'a filter name is letters, digits and _ (at most 64)',
} as const;

const ROUTE_NAMES: ReadonlySet<string> = new Set(ROUTES.filter((r) => !r.redirect).map((r) => r.name));

/** The route name of a console page (the `viewKey` of its list). */
export const viewPageSchema = z
  .string()
  .max(100)
  .refine((p) => ROUTE_NAMES.has(p), VIEW_TEXTS.unknownPage);

/** Names that would reach an object's prototype when read back into a plain object. */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const filterKeySchema = z
  .string()
  .max(64, VIEW_TEXTS.filterKey)
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, VIEW_TEXTS.filterKey)
  .refine((k) => !RESERVED_KEYS.has(k), VIEW_TEXTS.filterKey);

/** A view's filters as the list sends them: flat, scalar values only. */
export const viewFiltersSchema = z
  .record(
    filterKeySchema,
    z.union([z.string().max(MAX_VIEW_FILTERS_JSON), z.number().min(-1e15).max(1e15), z.boolean(), z.null()]),
  )
  .refine(
    (f) => Object.keys(f).length <= MAX_VIEW_FILTERS && JSON.stringify(f).length <= MAX_VIEW_FILTERS_JSON,
    VIEW_TEXTS.filtersTooLarge,
  );
export type ViewFilters = z.infer<typeof viewFiltersSchema>;

export const viewNameSchema = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() : v),
  z.string().min(1, 'a view needs a name').max(MAX_VIEW_NAME, `a view name has at most ${MAX_VIEW_NAME} characters`),
);

export const savedViewSchema = z.object({
  id: z.number().int(),
  page: z.string(),
  name: z.string(),
  filters: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  createdAt: z.string(),
});
export type SavedView = z.infer<typeof savedViewSchema>;

export const viewsEndpoints = {
  getList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/view/getList',
    summary: 'The caller’s saved filter views of one page, newest first',
    input: z.strictObject({ page: viewPageSchema }),
    output: z.array(savedViewSchema),
    example: { page: 'auditLog' },
    access: ALL_ROLES,
    token2: false,
    scope: 'self',
  }),
  save: defineEndpoint({
    method: 'POST',
    path: '/v1.0/view/save',
    summary: `Save a named filter view of a page (same name: replaced; at most ${MAX_VIEWS_PER_PAGE} per page, else 422 tooManyViews)`,
    input: z.strictObject({ page: viewPageSchema, name: viewNameSchema, filters: viewFiltersSchema }),
    output: savedViewSchema,
    example: { page: 'auditLog', name: 'Logins today', filters: { action: 'auth.login', startTime: null } },
    access: ALL_ROLES,
    token2: false,
    scope: 'self',
  }),
  delete: defineEndpoint({
    method: 'POST',
    path: '/v1.0/view/delete',
    summary: 'Delete one of the caller’s saved views (another user’s: 404)',
    input: z.strictObject({ id: idSchema }),
    output: z.null(),
    example: { id: 1 },
    access: ALL_ROLES,
    token2: false,
    scope: 'self',
  }),
} as const satisfies EndpointGroup;
