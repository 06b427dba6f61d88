import type { Role } from '../common/roles.js';
import { manageableRoles } from '../common/roles.js';
import type { ActionCaller } from '../users/actions.js';
import { authEndpoints } from './endpoints.js';

/** What of a session the rule reads (a database row or a row of the online users list). */
export interface SessionActionFacts {
  /** The session's account. */
  userId: number;
  role: Role;
  /** The session the caller is using now. */
  current: boolean;
}

/**
 * Why ending a session (forceLogout) is refused: the read-only route; the session the caller is using
 * (signing out ends it: 422 `currentSession`); another account's session for a role whose scope does not
 * reach it (404, its existence is not revealed); an account of a role the caller may not manage (403).
 */
export type SessionActionRefusal = 'readOnly' | 'role' | 'current' | 'scope' | 'targetRole';

/**
 * THE rule of ending a session: one's own other sessions always; another account's only for the roles
 * that see every session (account managers) and that may manage the account's role. The server's
 * forceLogout refuses with it; the online users page offers what it allows.
 */
export function sessionActionRefusal(
  action: 'forceLogout',
  caller: ActionCaller,
  session: SessionActionFacts,
): SessionActionRefusal | null {
  const endpoint = authEndpoints[action];
  if (caller.readOnly) return 'readOnly';
  if (!caller.role || !(endpoint.access as readonly Role[]).includes(caller.role)) return 'role';
  if (session.current) return 'current';
  if (session.userId === caller.userId) return null;
  if (!(endpoint.allScopeRoles as readonly Role[]).includes(caller.role)) return 'scope';
  if (!manageableRoles(caller.role).includes(session.role)) return 'targetRole';
  return null;
}
