import {
  ACCOUNT_MANAGER_ROLES,
  allowedUserActions,
  endpoints,
  ROLES,
  type Role,
  type SessionRow,
  sessionActionRefusal,
  USER_ACTIONS,
  type UserAction,
  type UserRow,
} from '@paydesk/contract';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../../db/schema.js';
import { hashPassword } from '../../platform/secrets.js';
import { type Auth, DEMO_ROLE, nextIp, startTestApp, type TestApp } from '../../testing/harness.js';

/**
 * What account management and online users offer is exactly what the server accepts (issue 18): for
 * every caller role and every account role, on a live account, one with sign-in failures, a locked
 * one, a deleted one and the caller's own, the actions the contract's `userActionRefusal` allows on the
 * row as the caller lists it are accepted, and every other one is refused with nothing changed. An
 * offered action is taken on a fresh account in the same condition (taking it changes the account);
 * on one's own account, by a fresh account of the caller's role. Ending sessions likewise with
 * `sessionActionRefusal`: another account's session of every role, one's own other session and the
 * session in use.
 */
let t: TestApp;
const CALLERS = ['superadmin', 'admin', 'service', 'maintenance', 'support', 'supplier1', 'merchant1'] as const;
type Caller = (typeof CALLERS)[number];
/** Each caller's role (the seed's). */
const ROLE = DEMO_ROLE as Record<Caller, Role>;
const PASSWORD = 'offered2024';
let passwordHash: string;
const auth = {} as Record<Caller, Auth>;
const idOf = {} as Record<Caller, number>;

beforeAll(async () => {
  t = await startTestApp();
  passwordHash = await hashPassword(PASSWORD);
  for (const caller of CALLERS) {
    auth[caller] = await t.loginWithToken2(caller);
    const [row] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.account, caller));
    idOf[caller] = row!.id;
  }
}, 180_000);
afterAll(() => t.close());

const CONDITIONS = ['plain', 'failures', 'locked', 'deleted'] as const;
type Condition = (typeof CONDITIONS)[number];

let n = 0;
/** A fresh account of `role` in `condition` (no authenticator required, so it can sign in with its password). */
async function account(role: Role, condition: Condition): Promise<{ id: number; account: string }> {
  n += 1;
  const now = t.clock.now();
  const [row] = await t.database.db
    .insert(users)
    .values({
      account: `offered${n}`,
      nickname: `Offered ${n}`,
      role,
      passwordHash,
      enableGoogleVerify: false,
      failedLoginCount: condition === 'failures' ? 2 : condition === 'locked' ? 5 : 0,
      lockedUntil: condition === 'locked' ? new Date(now.getTime() + 15 * 60_000) : null,
      deletedAt: condition === 'deleted' ? now : null,
    })
    .returning({ id: users.id, account: users.account });
  return row!;
}

/** Signs a fresh account in with its password and its second-level password (the sign-in one, none set). */
async function signIn(accountName: string): Promise<Auth> {
  const ip = nextIp();
  const res = await t.call(endpoints.auth.login, { userName: accountName, password: PASSWORD }, { ip });
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  const me = { token: res.body.data.token as string, ip };
  const two = await t.call(endpoints.auth.login2, { password: PASSWORD, logInReason: 'test' }, me);
  expect(two.body.code, JSON.stringify(two.body)).toBe(200);
  return { ...me, token2: two.body.data.token2 as string };
}

const recordOf = async (id: number) => (await t.database.db.select().from(users).where(eq(users.id, id)))[0]!;
const liveSessionsOf = async (userId: number) =>
  t.database.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, t.clock.now())));

/** Takes `action` on the account as `who`; answers whether the server accepted it. */
async function take(action: UserAction, id: number, who: Auth) {
  const target = await recordOf(id);
  const { users: u, auth: a } = endpoints;
  const res = await (() => {
    switch (action) {
      case 'update':
        return t.call(u.updateUser, { id, nickname: target.nickname, account: target.account, role: target.role }, who);
      case 'delete':
        return t.call(u.deleteUser, { id }, who);
      case 'repair':
        return t.call(u.repairUser, { userId: id, newAccountName: `${target.account}r` }, who);
      case 'resetPayPassword':
        return t.call(u.resetPayPassword, { id }, who);
      case 'bindUser':
        return t.call(a.bindUser, { userAccount: target.account, needToLogout: false }, who);
      case 'unbind':
        return t.call(a.unbind, { userAccount: target.account }, who);
      case 'clearSignInLock':
        return t.call(a.clearSignInLock, { userId: id }, who);
      case 'enableGoogleVerify':
        return t.call(a.enableGoogleVerify, { userId: id, enableGoogleVerify: !target.enableGoogleVerify }, who);
      case 'setAllowModify':
        return t.call(a.setAllowModify, { userId: id, allowModify: !target.allowModify }, who);
    }
  })();
  return { accepted: res.body.code === 200, body: res.body };
}

/** The row as `who` lists it in account management (none: it may not read the list). */
async function rowAs(who: Auth, accountName: string, id: number): Promise<UserRow | null> {
  const list = await t.call(
    endpoints.users.getUserList,
    { pageIndex: 1, pageSize: 50, account: accountName, includeDeleted: 'true' },
    who,
  );
  if (list.body.code !== 200) return null;
  const row = (list.body.data.list as UserRow[]).find((r) => r.id === id);
  expect(row, `${accountName} is in the list`).toBeTruthy();
  return row!;
}

describe('account management offers exactly what the server accepts', () => {
  for (const caller of CALLERS) {
    it(`as ${ROLE[caller]}`, { timeout: 300_000 }, async () => {
      const who = auth[caller];
      const me = { role: ROLE[caller], userId: idOf[caller] };
      const seen = new Set<string>();
      const targets: Array<{ label: string; id: number; account: string; role: Role; condition: Condition | 'self' }> =
        [];
      // A role the endpoints are not open to is refused by their access list (403) whatever the account:
      // tried on live accounts of every role and on its own.
      const manager = (ACCOUNT_MANAGER_ROLES as readonly Role[]).includes(me.role);
      for (const role of ROLES) {
        for (const condition of manager ? CONDITIONS : (['plain'] as const)) {
          const made = await account(role, condition);
          targets.push({ label: `${role} ${condition}`, ...made, role, condition });
        }
      }
      targets.push({ label: 'own account', id: idOf[caller], account: caller, role: me.role, condition: 'self' });

      for (const target of targets) {
        const row = await rowAs(who, target.account, target.id);
        const offers = row ? allowedUserActions(me, row, t.clock.now()) : [];
        for (const action of USER_ACTIONS) {
          const label = `${caller} ${action} on ${target.label}`;
          if (offers.includes(action)) {
            seen.add(`${target.condition}:${action}`);
            // Taking it changes the account: a fresh one in the same condition (one's own: a fresh
            // account of the caller's role acting on itself).
            let fresh: { id: number };
            let as = who;
            if (target.condition === 'self') {
              fresh = await account(me.role, 'plain');
              as = await signIn((await recordOf(fresh.id)).account);
            } else {
              fresh = await account(target.role, target.condition);
            }
            const { accepted, body } = await take(action, fresh.id, as);
            expect(accepted, `${label} is offered: ${JSON.stringify(body)}`).toBe(true);
          } else {
            const before = await recordOf(target.id);
            const sessionsBefore = await liveSessionsOf(target.id);
            const { accepted, body } = await take(action, target.id, who);
            expect(accepted, `${label} is not offered: ${JSON.stringify(body)}`).toBe(false);
            const after = await recordOf(target.id);
            expect(after, `${label} was refused but changed the account`).toEqual(before);
            expect(await liveSessionsOf(target.id), `${label} was refused but ended sessions`).toEqual(sessionsBefore);
          }
        }
      }
      // The walk reaches what it means to: managers are offered actions, on their own account too.
      if (manager) {
        const offered = [...seen];
        expect(offered).toContain('plain:delete');
        expect(offered).toContain('locked:clearSignInLock');
        expect(offered).toContain('failures:clearSignInLock');
        expect(offered).toContain('self:update');
        expect(offered).not.toContain('self:delete');
        expect(offered).not.toContain('plain:clearSignInLock');
        expect(offered.some((s) => s.startsWith('deleted:'))).toBe(false);
      } else {
        expect(seen.size).toBe(0);
      }
    });
  }
});

describe('online users offers ending exactly the sessions the server ends', () => {
  const SEEDED = CALLERS;
  /** The session as `who` lists it on online users (none: not in its list). */
  const sessionAs = async (who: Auth, accountName: string, sessionId: string): Promise<SessionRow | null> => {
    const res = await t.call(endpoints.auth.getSessions, { pageIndex: 1, pageSize: 100, account: accountName }, who);
    expect(res.body.code).toBe(200);
    return (res.body.data.list as SessionRow[]).find((s) => s.sessionId === sessionId) ?? null;
  };
  const publicIdOf = async (a: Auth, accountName: string) => {
    const res = await t.call(endpoints.auth.getSessions, { pageIndex: 1, pageSize: 100, account: accountName }, a);
    return (res.body.data.list as SessionRow[]).find((s) => s.current)!.sessionId;
  };
  const alive = async (a: Auth) => (await t.call(endpoints.auth.getInfo, undefined, a)).body.code === 200;

  for (const caller of CALLERS) {
    it(`as ${ROLE[caller]}`, { timeout: 300_000 }, async () => {
      const who = await t.login(caller);
      const me = { role: ROLE[caller], userId: idOf[caller] };
      const cases: Array<{ label: string; owner: Caller; current: boolean }> = [
        ...SEEDED.filter((a) => a !== caller).map((owner) => ({ label: `${owner}'s session`, owner, current: false })),
        { label: 'its own other session', owner: caller, current: false },
        { label: 'the session in use', owner: caller, current: true },
      ];
      let offeredAny = false;
      for (const c of cases) {
        const session = c.current ? who : await t.login(c.owner);
        const sessionId = await publicIdOf(session, c.owner);
        const row = await sessionAs(who, c.owner, sessionId);
        const offered = row !== null && sessionActionRefusal('forceLogout', me, row) === null;
        const res = await t.call(endpoints.auth.forceLogout, { token: sessionId }, who);
        const label = `${caller} ending ${c.label}`;
        if (offered) {
          offeredAny = true;
          expect(res.body.code, `${label} is offered: ${JSON.stringify(res.body)}`).toBe(200);
          expect(await alive(session), `${label} was accepted but the session lives`).toBe(false);
        } else {
          expect(res.body.code, `${label} is not offered: ${JSON.stringify(res.body)}`).not.toBe(200);
          expect(await alive(session), `${label} was refused but the session ended`).toBe(true);
        }
      }
      // Everyone ends its own other sessions; only account managers others'.
      expect(offeredAny).toBe(true);
    });
  }
});
