import { canAccessRoute, type Role, type RouteDef, routeByPath } from '@paydesk/contract';

export const LOGIN_PATH = '/login';
export const BIND_PATH = '/googleVerify';
export const HOME_PATH = '/home';
export const FORBIDDEN_PATH = '/401';

/** What the guard knows of the user: not asked yet, being loaded, loaded, or failed to load. */
export type UserState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'failed' }
  | { status: 'ready'; access: Role; needsBind: boolean };

export type GuardDecision =
  | { type: 'render' }
  | { type: 'redirect'; to: string }
  /** Load the user info (once), then decide again. */
  | { type: 'loadUser' }
  /** User info failed: clear the token, stop the notifier, go to sign-in. */
  | { type: 'signOut' };

/**
 * The navigation guard of spec section 2, as a pure function of the path, whether a token exists,
 * and the user info state. The Guard component turns its answer into navigation.
 */
export function decideNavigation(path: string, hasToken: boolean, user: UserState): GuardDecision {
  const route: RouteDef | undefined = routeByPath(path);
  if (path === LOGIN_PATH) return hasToken ? { type: 'redirect', to: HOME_PATH } : { type: 'render' };
  if (!hasToken) return { type: 'redirect', to: LOGIN_PATH };
  if (user.status === 'failed') return { type: 'signOut' };
  if (user.status !== 'ready') return { type: 'loadUser' };
  if (user.needsBind) return path === BIND_PATH ? { type: 'render' } : { type: 'redirect', to: BIND_PATH };
  if (path === BIND_PATH) return { type: 'redirect', to: HOME_PATH };
  if (route?.redirect) return { type: 'redirect', to: route.redirect };
  // Unknown paths render (the 404 page); a route without an access list is open to every signed-in user.
  if (route && !canAccessRoute(route, user.access)) return { type: 'redirect', to: FORBIDDEN_PATH };
  return { type: 'render' };
}
