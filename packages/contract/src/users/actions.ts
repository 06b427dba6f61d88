import { authEndpoints } from '../auth/endpoints.js';
import type { Endpoint } from '../common/endpoint.js';
import { manageableRoles, type Role } from '../common/roles.js';
import { usersEndpoints } from './endpoints.js';

/**
 * The row actions of account management (system management › account management) and the endpoint
 * each one calls. The server refuses any other pairing of caller and account with
 * `userActionRefusal`; the console offers a row exactly the actions it allows.
 */
export const USER_ACTION_ENDPOINTS = {
  update: usersEndpoints.updateUser,
  delete: usersEndpoints.deleteUser,
  repair: usersEndpoints.repairUser,
  resetPayPassword: usersEndpoints.resetPayPassword,
  bindUser: authEndpoints.bindUser,
  unbind: authEndpoints.unbind,
  clearSignInLock: authEndpoints.clearSignInLock,
  enableGoogleVerify: authEndpoints.enableGoogleVerify,
  setAllowModify: authEndpoints.setAllowModify,
} as const satisfies Record<string, Endpoint>;
export type UserAction = keyof typeof USER_ACTION_ENDPOINTS;
export const USER_ACTIONS = Object.keys(USER_ACTION_ENDPOINTS) as UserAction[];

/** Who asks: the signed-in account, and whether it is on a read-only route (the console only). */
export interface ActionCaller {
  role: Role | null | undefined;
  userId: number | null | undefined;
  /** The page is the read-only variant of its route: nothing is offered (the server has no routes). */
  readOnly?: boolean;
}

/** What of an account the rule reads (a database record or a row of the list). */
export interface UserActionFacts {
  id: number;
  role: Role;
  deletedAt: string | Date | null;
  failedLoginCount: number;
  lockedUntil: string | Date | null;
}

/**
 * Why an action is refused: the read-only route; the caller's role may not call it (403); the account
 * is deleted (404, as the server never acts on a deleted account); the caller may not manage the
 * account's role (403: an admin and a superAdmin); one's own account may not be deleted (422
 * `ownAccount`); there is no sign-in lock or failure to clear (422 `noSignInLock`).
 */
export type UserActionRefusal = 'readOnly' | 'role' | 'deleted' | 'targetRole' | 'self' | 'noSignInLock';

const time = (v: string | Date) => (typeof v === 'string' ? Date.parse(v) : v.getTime());

/** Whether the account has something for clearSignInLock to clear: failures counted, or a lock running. */
export function hasSignInFailures(account: Pick<UserActionFacts, 'failedLoginCount' | 'lockedUntil'>, now: Date) {
  return account.failedLoginCount > 0 || (account.lockedUntil !== null && time(account.lockedUntil) > now.getTime());
}

/**
 * THE rule of account management's row actions: null when the caller may take `action` on the account
 * now, else why not. The server's guards refuse with it; the console offers what it allows
 * (users.offered.test walks caller role x account role x deleted, own and locked accounts over HTTP).
 */
export function userActionRefusal(
  action: UserAction,
  caller: ActionCaller,
  account: UserActionFacts,
  now: Date,
): UserActionRefusal | null {
  if (caller.readOnly) return 'readOnly';
  const access = USER_ACTION_ENDPOINTS[action].access as readonly Role[];
  if (!caller.role || !access.includes(caller.role)) return 'role';
  if (account.deletedAt !== null) return 'deleted';
  if (!manageableRoles(caller.role).includes(account.role)) return 'targetRole';
  if (action === 'delete' && account.id === caller.userId) return 'self';
  if (action === 'clearSignInLock' && !hasSignInFailures(account, now)) return 'noSignInLock';
  return null;
}

/** The actions the caller may take on the account now. */
export function allowedUserActions(caller: ActionCaller, account: UserActionFacts, now: Date): UserAction[] {
  return USER_ACTIONS.filter((action) => userActionRefusal(action, caller, account, now) === null);
}
