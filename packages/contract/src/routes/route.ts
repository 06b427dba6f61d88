import type { Endpoint } from '../common/endpoint.js';
import type { Role } from '../common/roles.js';

/** Menu groups of the console's side menu, in display order. The group key is also its i18n key. */
export const MENU_GROUPS = [
  'home',
  'merchants',
  'suppliers',
  'receivingAccounts',
  'payoutAccounts',
  'collectionOrders',
  'records',
  'security',
  'orderAnalysis',
  'payoutOrders',
  'batchPayout',
  'collectionStatistics',
  'payoutStatistics',
  'funds',
  'monitor',
  'profile',
  'system',
  'other',
] as const;
export type MenuGroup = (typeof MENU_GROUPS)[number];

/**
 * One console route of spec section 2. The console's router, menu, breadcrumb and tag tabs are built
 * from these rows; a route's `name` doubles as its i18n title key (`route.<name>`).
 */
export interface RouteDef {
  /** The URL path, exactly as the spec writes it (history routing). */
  path: string;
  /** Unique, camelCase; the i18n title key is `route.<name>`. */
  name: string;
  /** 'public' (no sign-in), undefined (every signed-in user), or the roles allowed. */
  access?: 'public' | readonly Role[];
  group: MenuGroup;
  /** A read-only variant: the page shows data but no action that changes something. */
  readOnly?: boolean;
  /** Not in the side menu (login, 401, detail pages, ...). */
  hideInMenu?: boolean;
  /** Closing its tab asks 'are you sure to close this page'. */
  confirmClose?: boolean;
  /** Redirect target instead of a page ('/' -> '/home'). */
  redirect?: string;
  /**
   * What the page is for: a role that may open the route but not call this endpoint would find
   * nothing to do there, so the route is not in its menu (the order send test for read-only roles).
   */
  needs?: Endpoint;
  /** A supplier's team view (its agents' rows): not in an agent's menu, since an agent has no team. */
  team?: boolean;
}
