import { type ActionCaller, Code, type Role, type SessionRow, type UserAction, type UserInfo } from '@paydesk/contract';
import { and, count, desc, eq, gt, ilike, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { sessions, users } from '../../db/schema.js';
import { type Actor, writeAudit } from '../../platform/audit.js';
import { type Clock, minutes } from '../../platform/clock.js';
import type { DataScope } from '../../platform/context.js';
import { AppError, forbidden, notFound, refused } from '../../platform/errors.js';
import { keysetRows } from '../../platform/export.js';
import { escapeLike } from '../../platform/like.js';
import { verifyPassword } from '../../platform/secrets.js';
import type { SessionStore, SessionUser } from '../../platform/sessions.js';
import type { SettingsStore } from '../../platform/settings.js';
import { newTotpSecret, totpUri, verifyTotp } from '../../platform/totp.js';
import type { StaffIpWhitelist } from '../system/staff-ip-whitelist.js';
import { refuseSessionAction, refuseUserAction } from '../users/user-actions.js';
import { SignInThrottle } from './sign-in-throttle.js';

type UserRecord = typeof users.$inferSelect;

const codeReused = () =>
  new AppError(Code.wrongAuthCode, 'authenticator code was already used, wait for the next one', {
    reason: 'codeReused',
  });
const PAY_PASSWORD_NOT_SET = 'a separate second-level password is required: set one in your profile first';
const wrongCredentials = () => new AppError(Code.wrongCredentials, 'account or password is incorrect');

export interface AuthDeps {
  db: Db;
  config: Config;
  clock: Clock;
  sessions: SessionStore;
  settings: SettingsStore;
  /** The staff sign-in whitelist: checked once the password is right. */
  staffIps: Pick<StaffIpWhitelist, 'allows' | 'refusal'>;
}

/** Sign-in, sessions, the second-level password and authenticator binding (DESIGN section 4). */
export class AuthService {
  private readonly throttle: SignInThrottle;

  constructor(private readonly deps: AuthDeps) {
    this.throttle = new SignInThrottle(deps.config);
  }

  private get db() {
    return this.deps.db;
  }
  private now() {
    return this.deps.clock.now();
  }

  async login(
    input: { userName: string; password: string; googleCode?: string | undefined },
    client: { ip: string; userAgent: string },
  ): Promise<{ token: string; userId: number; access: Role; confirmBind: boolean }> {
    const now = this.now();
    // Before anything about the account is read: an unknown name is throttled like an existing one.
    await this.throttle.check(this.db, input.userName, client.ip, now);
    const user = await this.findLiveByAccount(this.db, input.userName);
    if (!user) {
      await verifyPassword(null, input.password); // same time as a real check: timing does not reveal accounts
      await this.throttle.recordFailure(this.db, input.userName, client.ip, now);
      throw wrongCredentials();
    }
    if (!(await verifyPassword(user.passwordHash, input.password))) {
      await this.recordFailure(user, client.ip, 'password');
      throw wrongCredentials();
    }
    if (!(await this.deps.staffIps.allows(client.ip, user.role as Role))) {
      await this.db.transaction((tx) =>
        writeAudit(
          tx,
          { userId: user.id, account: user.account, role: user.role as Role, ip: client.ip },
          { action: 'auth.loginFailed', target: `user:${user.id}`, after: { what: 'staffIpNotAllowed' } },
          now,
        ),
      );
      throw this.deps.staffIps.refusal();
    }
    const bound = Boolean(user.googleSecret && user.googleConfirmed);
    let step: number | null = null;
    if (bound && user.enableGoogleVerify) {
      step = await this.checkCode(user, user.googleSecret!, input.googleCode, client.ip);
    }
    const pendingBind = user.enableGoogleVerify && !bound;
    const actor: Actor = { userId: user.id, account: user.account, role: user.role as Role, ip: client.ip };
    const session = await this.withStepUsed(user, step, client.ip, async (tx) => {
      await tx
        .update(users)
        .set({
          lastLoginAt: now,
          // An account without an authenticator gets a new secret to confirm on /googleVerify.
          ...(pendingBind && !user.googleSecret ? { googleSecret: newTotpSecret(), googleConfirmed: false } : {}),
        })
        .where(eq(users.id, user.id));
      await this.throttle.recordSuccess(tx, user.account, client.ip, now);
      const created = await this.deps.sessions.create(tx, user.id, { pendingBind, ...client });
      await writeAudit(tx, actor, { action: 'auth.login', target: `session:${created.publicId}` }, now);
      return created;
    });
    return { token: session.token, userId: user.id, access: user.role as Role, confirmBind: bound };
  }

  /** Maintenance: forgets sign-in throttle rows that hold nothing any more (SignInThrottle.purgeStale). */
  purgeStaleThrottles(): Promise<number> {
    return this.throttle.purgeStale(this.db, this.now());
  }

  async login2(user: SessionUser, input: { password: string; logInReason: string }, actor: Actor) {
    const ip = actor.ip ?? '';
    // The second-level password follows the sign-in policy, counted on the same account and address.
    await this.throttle.check(this.db, user.account, ip, this.now());
    const record = await this.findLiveById(this.db, user.userId);
    // EnablePayPassword: only a second-level password set for it serves; an account without one sets
    // it first (profile changePayPassword, which then needs only the sign-in password). Off: until
    // one is set (or after a reset), the sign-in password serves.
    if (record.payPasswordHash === null && (await this.deps.settings.get('EnablePayPassword'))) {
      throw refused(PAY_PASSWORD_NOT_SET, 'payPasswordNotSet');
    }
    if (!(await verifyPassword(record.payPasswordHash ?? record.passwordHash, input.password))) {
      await this.recordFailure(record, ip, 'secondLevelPassword');
      throw new AppError(Code.wrongCredentials, 'second-level password is incorrect', {
        reason: 'secondLevelIncorrect',
      });
    }
    const granted = await this.db.transaction(async (tx) => {
      await this.throttle.recordSuccess(tx, record.account, ip, this.now());
      const token2 = await this.deps.sessions.grantToken2(tx, user.sessionId, input.logInReason);
      await writeAudit(
        tx,
        actor,
        { action: 'auth.login2', target: `session:${user.publicSessionId}`, after: { reason: input.logInReason } },
        this.now(),
      );
      return token2;
    });
    // Committed: the next request of this session carries the new token2.
    this.deps.sessions.forget({ sessionIds: [user.sessionId] });
    return { token2: granted.token2, expiresAt: granted.expiresAt.toISOString() };
  }

  async getInfo(user: SessionUser, token2Valid: boolean): Promise<UserInfo> {
    const record = await this.findLiveById(this.db, user.userId);
    const settings = await this.deps.settings.values();
    const unconfirmedSecret = record.googleSecret && !record.googleConfirmed ? record.googleSecret : undefined;
    return {
      userId: record.id,
      userName: record.account,
      account: record.account,
      name: record.nickname,
      access: record.role as Role,
      agent: record.role === 'supplier' && record.parentId !== null,
      token2Valid,
      token2ExpiresAt: token2Valid && user.token2ExpiresAt ? user.token2ExpiresAt.toISOString() : null,
      enableGoogleVerify: record.enableGoogleVerify,
      ...(unconfirmedSecret
        ? {
            googleSecret: unconfirmedSecret,
            googleAuthUrl: totpUri(record.account, unconfirmedSecret, settings.SysFlag),
          }
        : {}),
      confirmBind: Boolean(record.googleSecret && record.googleConfirmed),
      allowModify: record.allowModify,
      showLogo: settings.ShowLogo,
      systemFlag: settings.SysFlag,
      serviceEnabled: settings.enableService,
      pictureQueryEnabled: settings.AllowPictureQueryOrder,
      contactInfo: settings.ContactInfo,
      payPasswordRequired: settings.EnablePayPassword,
      hasPayPassword: record.payPasswordHash !== null,
      apiUrl: settings.ApiUrl,
      timeZone: this.deps.config.timeZone,
    };
  }

  async logout(user: SessionUser, actor: Actor): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.deps.sessions.revoke(tx, user.sessionId, 'logout');
      await writeAudit(tx, actor, { action: 'auth.logout', target: `session:${user.publicSessionId}` }, this.now());
    });
    this.deps.sessions.forget({ sessionIds: [user.sessionId] });
  }

  /** Live sessions in the caller's scope, optionally of accounts matching `account`. */
  private liveSessionsWhere(scope: DataScope, account: string | null | undefined) {
    const now = this.now();
    const idleSince = new Date(now.getTime() - minutes(this.deps.config.sessionIdleMinutes));
    return and(
      isNull(sessions.revokedAt),
      gt(sessions.expiresAt, now),
      gt(sessions.lastSeenAt, idleSince),
      scope.all ? undefined : inArray(sessions.userId, [...scope.userIds]),
      account ? ilike(users.account, `%${escapeLike(account)}%`) : undefined,
    );
  }

  private sessionRows() {
    return this.db
      .select({ id: sessions.id, s: sessions, account: users.account, role: users.role })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId));
  }

  async getSessions(
    user: SessionUser,
    scope: DataScope,
    input: { pageIndex: number; pageSize: number; account?: string | null | undefined },
  ): Promise<{ list: SessionRow[]; total: number; pageIndex: number; pageSize: number }> {
    const where = this.liveSessionsWhere(scope, input.account);
    const [rows, [totalRow]] = await Promise.all([
      this.sessionRows()
        .where(where)
        .orderBy(desc(sessions.lastSeenAt))
        .limit(input.pageSize)
        .offset((input.pageIndex - 1) * input.pageSize),
      this.db.select({ n: count() }).from(sessions).innerJoin(users, eq(users.id, sessions.userId)).where(where),
    ]);
    return {
      list: rows.map((r) => toSessionRow(r, user)),
      total: totalRow?.n ?? 0,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
    };
  }

  /** The live sessions of the scope for the CSV export, newest first. */
  async *exportSessions(user: SessionUser, scope: DataScope, input: { account?: string | null | undefined }) {
    const where = this.liveSessionsWhere(scope, input.account);
    const rows = keysetRows((beforeId, limit) =>
      this.sessionRows()
        .where(and(where, beforeId === null ? undefined : lt(sessions.id, beforeId)))
        .orderBy(desc(sessions.id))
        .limit(limit),
    );
    for await (const r of rows) yield toSessionRow(r, user);
  }

  /**
   * Ends a session: one's own others always; another account's only for a role whose scope covers it
   * (account managers) and that may manage the account's role (an admin never ends a superAdmin's
   * session). The rule is the contract's `sessionActionRefusal`, which the online users page offers by.
   */
  async forceLogout(user: SessionUser, role: Role, scope: DataScope, publicId: string, actor: Actor): Promise<void> {
    const ended = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ s: sessions, account: users.account, role: users.role })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.publicId, publicId), isNull(sessions.revokedAt)))
        .limit(1);
      // Another party's session is "not found", never "forbidden": its existence is not revealed.
      if (!row || !(scope.all || scope.userIds.includes(row.s.userId))) throw notFound('no such session');
      refuseSessionAction(
        { role, userId: user.userId },
        { userId: row.s.userId, role: row.role as Role, current: row.s.id === user.sessionId },
      );
      await this.deps.sessions.revoke(tx, row.s.id, `forced by ${actor.account}`);
      await writeAudit(
        tx,
        actor,
        { action: 'auth.forceLogout', target: `session:${publicId}`, before: { account: row.account, ip: row.s.ip } },
        this.now(),
      );
      return row.s.id;
    });
    this.deps.sessions.forget({ sessionIds: [ended] });
  }

  /** Clears an account's sign-in locks and counts from every address (account managers; audited). */
  async clearSignInLock(caller: ActionCaller, userId: number, actor: Actor): Promise<void> {
    const now = this.now();
    await this.db.transaction(async (tx) => {
      const target = await this.manageableById(tx, 'clearSignInLock', caller, userId);
      const before = await this.throttle.stateOf(tx, target.account, now);
      await this.throttle.clear(tx, target.account);
      await tx
        .update(users)
        .set({ failedLoginCount: 0, lockedUntil: null, updatedAt: now })
        .where(eq(users.id, target.id));
      await writeAudit(
        tx,
        actor,
        { action: 'auth.clearSignInLock', target: `user:${target.id}`, before, after: { failures: 0 } },
        now,
      );
    });
  }

  /** Staff resets another account's authenticator: it binds a new one at its next sign-in. */
  async bindUser(caller: ActionCaller, input: { userAccount: string; needToLogout: boolean }, actor: Actor) {
    const targetId = await this.db.transaction(async (tx) => {
      const target = await this.manageableByAccount(tx, 'bindUser', caller, input.userAccount);
      await tx
        .update(users)
        .set({
          googleSecret: newTotpSecret(),
          googleConfirmed: false,
          pendingGoogleSecret: null,
          lastTotpStep: 0,
          updatedAt: this.now(),
        })
        .where(eq(users.id, target.id));
      if (input.needToLogout) await this.deps.sessions.revokeAllOf(tx, target.id, 'authenticator reset');
      await writeAudit(
        tx,
        actor,
        { action: 'auth.bindUser', target: `user:${target.id}`, after: { needToLogout: input.needToLogout } },
        this.now(),
      );
      return target.id;
    });
    if (input.needToLogout) this.deps.sessions.forget({ userIds: [targetId] });
  }

  async unbind(caller: ActionCaller, input: { userAccount: string }, actor: Actor) {
    await this.db.transaction(async (tx) => {
      const target = await this.manageableByAccount(tx, 'unbind', caller, input.userAccount);
      await this.clearAuthenticator(tx, target.id);
      await writeAudit(tx, actor, { action: 'auth.unbind', target: `user:${target.id}` }, this.now());
    });
  }

  /** Starts a rebinding of one's own authenticator; the current one stays valid until it is confirmed. */
  async bindUserForProfile(user: SessionUser, input: { userAccount: string; needToLogout: boolean }, actor: Actor) {
    const bound = await this.db.transaction(async (tx) => {
      const me = await this.ownModifiable(tx, user, input.userAccount);
      const secret = newTotpSecret();
      await tx.update(users).set({ pendingGoogleSecret: secret, updatedAt: this.now() }).where(eq(users.id, me.id));
      if (input.needToLogout) {
        await this.deps.sessions.revokeAllOf(tx, me.id, 'authenticator rebinding', user.sessionId);
      }
      await writeAudit(tx, actor, { action: 'auth.bindUserForProfile', target: `user:${me.id}` }, this.now());
      const sysFlag = await this.deps.settings.get('SysFlag', tx);
      return { googleSecret: secret, googleAuthUrl: totpUri(me.account, secret, sysFlag) };
    });
    if (input.needToLogout) this.deps.sessions.forget({ userIds: [user.userId] });
    return bound;
  }

  async unbindForProfile(user: SessionUser, input: { userAccount: string }, actor: Actor) {
    await this.db.transaction(async (tx) => {
      const me = await this.ownModifiable(tx, user, input.userAccount);
      await this.clearAuthenticator(tx, me.id);
      await writeAudit(tx, actor, { action: 'auth.unbindForProfile', target: `user:${me.id}` }, this.now());
    });
  }

  /** Confirms the authenticator the account was given at sign-in (the /googleVerify page). */
  async confirmBind(user: SessionUser, input: { userAccount: string; googleCode: string }, actor: Actor) {
    const me = await this.own(this.db, user, input.userAccount);
    if (!me.googleSecret || me.googleConfirmed) {
      throw refused('the authenticator is already confirmed', 'alreadyConfirmed');
    }
    await this.throttle.check(this.db, me.account, actor.ip ?? '', this.now());
    const step = await this.checkCode(me, me.googleSecret, input.googleCode, actor.ip ?? '');
    await this.withStepUsed(me, step, actor.ip ?? '', async (tx) => {
      await tx.update(users).set({ googleConfirmed: true, updatedAt: this.now() }).where(eq(users.id, me.id));
      await tx.update(sessions).set({ pendingBind: false }).where(eq(sessions.id, user.sessionId));
      await writeAudit(tx, actor, { action: 'auth.confirmBind', target: `user:${me.id}` }, this.now());
    });
    this.deps.sessions.forget({ sessionIds: [user.sessionId] });
  }

  /** Confirms a rebinding started from the profile with a code of the new authenticator. */
  async confirmBindForProfile(user: SessionUser, input: { userAccount: string; googleCode: string }, actor: Actor) {
    const me = await this.own(this.db, user, input.userAccount);
    if (!me.pendingGoogleSecret) throw refused('start a new binding first', 'noPendingBinding');
    const step = verifyTotp(me.pendingGoogleSecret, input.googleCode, this.now(), 0);
    if (step === null) throw new AppError(Code.wrongAuthCode, 'authenticator code is incorrect');
    await this.db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({
          googleSecret: me.pendingGoogleSecret,
          googleConfirmed: true,
          pendingGoogleSecret: null,
          lastTotpStep: step,
          updatedAt: this.now(),
        })
        .where(eq(users.id, me.id));
      await writeAudit(tx, actor, { action: 'auth.confirmBindForProfile', target: `user:${me.id}` }, this.now());
    });
  }

  async setUserFlag(
    caller: ActionCaller,
    userId: number,
    flag: 'enableGoogleVerify' | 'allowModify',
    value: boolean,
    actor: Actor,
  ) {
    await this.db.transaction(async (tx) => {
      const action = flag === 'allowModify' ? 'setAllowModify' : 'enableGoogleVerify';
      const target = await this.manageableById(tx, action, caller, userId);
      await tx
        .update(users)
        .set({ [flag]: value, updatedAt: this.now() })
        .where(eq(users.id, target.id));
      if (flag === 'enableGoogleVerify' && !value) {
        // Nothing left to confirm: sessions waiting for a binding become ordinary ones.
        await tx.update(sessions).set({ pendingBind: false }).where(eq(sessions.userId, target.id));
      }
      await writeAudit(
        tx,
        actor,
        {
          action: flag === 'allowModify' ? 'auth.setAllowModify' : 'auth.enableGoogleVerify',
          target: `user:${target.id}`,
          before: { [flag]: target[flag] },
          after: { [flag]: value },
        },
        this.now(),
      );
    });
    if (flag === 'enableGoogleVerify' && !value) this.deps.sessions.forget({ userIds: [userId] });
  }

  // ---- rules shared by the calls above ----

  /**
   * Counts a failure of an existing account (password, authenticator code, second-level password) in
   * the sign-in throttle, mirrors the account-wide count and this address's lock on the account's row
   * (shown in account management) and audits it.
   */
  private async recordFailure(user: UserRecord, ip: string, what: string) {
    const now = this.now();
    await this.db.transaction(async (tx) => {
      const counted = await this.throttle.recordFailure(tx, user.account, ip, now);
      await tx
        .update(users)
        .set({
          failedLoginCount: counted.failures,
          ...(counted.lockedUntil && counted.lockedUntil > now ? { lockedUntil: counted.lockedUntil } : {}),
        })
        .where(eq(users.id, user.id));
      await writeAudit(
        tx,
        { userId: user.id, account: user.account, role: user.role as Role, ip },
        {
          action: 'auth.loginFailed',
          target: `user:${user.id}`,
          after: { what, failedLoginCount: counted.failures, lockedUntil: counted.lockedUntil },
        },
        now,
      );
    });
  }

  /** Checks a code for a bound account: wrong, missing and reused codes are refused with their own text. */
  private async checkCode(user: UserRecord, secret: string, code: string | undefined, ip: string): Promise<number> {
    if (!code) {
      await this.recordFailure(user, ip, 'authenticatorCode');
      throw new AppError(Code.wrongAuthCode, 'authenticator code is required');
    }
    const step = verifyTotp(secret, code, this.now(), 0);
    if (step === null) {
      await this.recordFailure(user, ip, 'authenticatorCode');
      throw new AppError(Code.wrongAuthCode, 'authenticator code is incorrect');
    }
    if (step <= user.lastTotpStep) {
      await this.recordFailure(user, ip, 'authenticatorCodeReused');
      throw codeReused();
    }
    return step;
  }

  /**
   * Marks a code's step used inside `work`'s transaction; a concurrent sign-in with the same code loses
   * here. That replay is refused and counted as a failure once its transaction has rolled back.
   */
  private async withStepUsed<T>(user: UserRecord, step: number | null, ip: string, work: (tx: Tx) => Promise<T>) {
    let replayed = false;
    try {
      return await this.db.transaction(async (tx) => {
        if (step !== null) {
          const updated = await tx
            .update(users)
            .set({ lastTotpStep: step })
            .where(and(eq(users.id, user.id), sql`${users.lastTotpStep} < ${step}`))
            .returning({ id: users.id });
          if (updated.length === 0) {
            replayed = true;
            throw codeReused();
          }
        }
        return work(tx);
      });
    } catch (error) {
      if (replayed) await this.recordFailure(user, ip, 'authenticatorCodeReused');
      throw error;
    }
  }

  private async clearAuthenticator(tx: Tx, userId: number) {
    await tx
      .update(users)
      .set({ googleSecret: null, googleConfirmed: false, pendingGoogleSecret: null, updatedAt: this.now() })
      .where(eq(users.id, userId));
  }

  private async findLiveByAccount(db: DbOrTx, account: string): Promise<UserRecord | undefined> {
    const [row] = await db
      .select()
      .from(users)
      .where(and(sql`lower(${users.account}) = lower(${account})`, isNull(users.deletedAt)))
      .limit(1);
    return row;
  }

  private async findLiveById(db: DbOrTx, id: number): Promise<UserRecord> {
    const [row] = await db
      .select()
      .from(users)
      .where(and(eq(users.id, id), isNull(users.deletedAt)))
      .limit(1);
    if (!row) throw notFound('no such account');
    return row;
  }

  /** The caller's own record; `userAccount` must name the caller. */
  private async own(db: DbOrTx, user: SessionUser, userAccount: string): Promise<UserRecord> {
    if (userAccount.toLowerCase() !== user.account.toLowerCase()) {
      throw forbidden('this call acts on your own account only');
    }
    return this.findLiveById(db, user.userId);
  }

  private async ownModifiable(db: DbOrTx, user: SessionUser, userAccount: string): Promise<UserRecord> {
    const me = await this.own(db, user, userAccount);
    if (!me.allowModify) throw forbidden('your account may not change its own settings; ask an administrator');
    return me;
  }

  /** The live account of this name, if the contract's rule lets the caller take `action` on it. */
  private async manageableByAccount(
    db: DbOrTx,
    action: UserAction,
    caller: ActionCaller,
    account: string,
  ): Promise<UserRecord> {
    const target = await this.findLiveByAccount(db, account);
    if (!target) throw notFound('no such account');
    return refuseUserAction(action, caller, target, this.now());
  }

  /** The account (a deleted one: 404 by the rule), if the contract's rule lets the caller take `action` on it. */
  private async manageableById(db: DbOrTx, action: UserAction, caller: ActionCaller, id: number): Promise<UserRecord> {
    const [target] = await db.select().from(users).where(eq(users.id, id)).limit(1);
    if (!target) throw notFound('no such account');
    return refuseUserAction(action, caller, target, this.now());
  }
}

function toSessionRow(
  r: { s: typeof sessions.$inferSelect; account: string; role: string },
  user: SessionUser,
): SessionRow {
  return {
    sessionId: r.s.publicId,
    userId: r.s.userId,
    account: r.account,
    role: r.role as Role,
    ip: r.s.ip,
    userAgent: r.s.userAgent,
    createdAt: r.s.createdAt.toISOString(),
    lastSeenAt: r.s.lastSeenAt.toISOString(),
    expiresAt: r.s.expiresAt.toISOString(),
    current: r.s.id === user.sessionId,
  };
}
