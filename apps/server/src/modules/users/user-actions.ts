import {
  type ActionCaller,
  type Role,
  type SessionActionFacts,
  sessionActionRefusal,
  type UserAction,
  userActionRefusal,
} from '@paydesk/contract';
import type { users } from '../../db/schema.js';
import { forbidden, notFound, refused } from '../../platform/errors.js';

type UserRecord = typeof users.$inferSelect;

/**
 * The guard of account management's row actions: refuses what the contract's rule (`userActionRefusal`,
 * which the console offers by) does not allow, each with the answer the server always gave it. The
 * record may be deleted: the rule answers 404 for it, as for an account that does not exist.
 */
export function refuseUserAction(action: UserAction, caller: ActionCaller, target: UserRecord, now: Date): UserRecord {
  const refusal = userActionRefusal(action, caller, { ...target, role: target.role as Role }, now);
  switch (refusal) {
    case null:
      return target;
    case 'deleted':
      throw notFound('no such account');
    case 'targetRole':
      throw forbidden(`your role may not manage a ${target.role} account`);
    case 'self':
      throw refused('you cannot delete your own account', 'ownAccount');
    case 'noSignInLock':
      throw refused('the account has no sign-in lock or failures to clear', 'noSignInLock');
    case 'role':
    case 'readOnly':
      throw forbidden();
  }
}

/** The guard of forceLogout, by the contract's `sessionActionRefusal` (the online users page offers by it). */
export function refuseSessionAction(caller: ActionCaller, session: SessionActionFacts): void {
  const refusal = sessionActionRefusal('forceLogout', caller, session);
  switch (refusal) {
    case null:
      return;
    // Another party's session is "not found", never "forbidden": its existence is not revealed.
    case 'scope':
      throw notFound('no such session');
    case 'current':
      throw refused('end the session you are using by signing out', 'currentSession');
    case 'targetRole':
      throw forbidden(`your role may not manage a ${session.role} account`);
    case 'role':
    case 'readOnly':
      throw forbidden();
  }
}
