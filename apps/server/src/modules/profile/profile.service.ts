import { Code, PROFILE_TEXTS } from '@paydesk/contract';
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { sessions, users } from '../../db/schema.js';
import { type Actor, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import { AppError, catalogued, conflict, notFound, refused } from '../../platform/errors.js';
import { hashPassword, verifyPassword } from '../../platform/secrets.js';
import type { SessionStore, SessionUser } from '../../platform/sessions.js';

export interface ProfileDeps {
  db: Db;
  clock: Clock;
  sessions: SessionStore;
}

type UserRecord = typeof users.$inferSelect;

/**
 * The personal centre: a signed-in account changes itself. Every change is audited, never with a
 * secret. A wrong password changes nothing (no audit row, no failure count): the endpoints are
 * rate-limited per address instead.
 */
export class ProfileService {
  constructor(private readonly deps: ProfileDeps) {}

  private get db() {
    return this.deps.db;
  }
  private now() {
    return this.deps.clock.now();
  }

  /** Only while the account's allowModify is on (an administrator's switch). */
  async updateNickname(user: SessionUser, nickname: string, actor: Actor): Promise<void> {
    await this.db.transaction(async (tx) => {
      const me = await this.me(tx, user);
      if (!me.allowModify) {
        throw new AppError(Code.forbidden, PROFILE_TEXTS.modifyNotAllowed, { reason: 'modifyNotAllowed' });
      }
      await tx.update(users).set({ nickname, updatedAt: this.now() }).where(eq(users.id, me.id));
      await writeAudit(
        tx,
        actor,
        {
          action: 'profile.updateNickname',
          target: `user:${me.id}`,
          before: { nickname: me.nickname },
          after: { nickname },
        },
        this.now(),
      );
    });
    this.deps.sessions.forget({ userIds: [user.userId] });
  }

  /** The old password proves it is the owner; the account's other sessions end, this one stays. */
  async changePassword(
    user: SessionUser,
    input: { oldPassword: string; newPassword: string },
    actor: Actor,
  ): Promise<void> {
    const me = await this.me(this.db, user);
    if (!(await verifyPassword(me.passwordHash, input.oldPassword))) {
      throw new AppError(Code.wrongCredentials, PROFILE_TEXTS.oldPasswordIncorrect, { reason: 'oldPasswordIncorrect' });
    }
    if (input.newPassword === input.oldPassword) throw refused(PROFILE_TEXTS.samePassword, 'samePassword');
    const passwordHash = await hashPassword(input.newPassword);
    await this.db.transaction(async (tx) => {
      // Guarded: a password changed meanwhile (by another session or an administrator) is not overwritten.
      const changed = await tx
        .update(users)
        .set({ passwordHash, updatedAt: this.now() })
        .where(and(eq(users.id, me.id), eq(users.passwordHash, me.passwordHash)))
        .returning({ id: users.id });
      if (changed.length === 0) throw conflict('the password changed meanwhile', 'passwordChanged');
      await this.deps.sessions.revokeAllOf(tx, me.id, 'password changed', user.sessionId);
      await writeAudit(tx, actor, { action: 'profile.changePassword', target: `user:${me.id}` }, this.now());
    });
    this.deps.sessions.forget({ userIds: [user.userId] });
  }

  /**
   * Sets the second-level password (login2 then asks for it instead of the sign-in password). The
   * sign-in password proves identity; replacing an existing one also needs token2 (the current one
   * entered recently: 1024 without it, 1025 when it is not valid), setting the first one does not, so
   * that an account EnablePayPassword stops at login2 can set it. token2 of the other sessions ends.
   */
  async changePayPassword(
    user: SessionUser,
    input: { password: string; newPayPassword: string },
    actor: Actor,
    token2: 'valid' | 'missing' | 'expired',
  ): Promise<void> {
    const me = await this.me(this.db, user);
    if (me.payPasswordHash !== null && token2 !== 'valid') {
      throw catalogued(token2 === 'missing' ? Code.token2Required : Code.token2Expired);
    }
    if (!(await verifyPassword(me.passwordHash, input.password))) {
      throw new AppError(Code.wrongCredentials, PROFILE_TEXTS.passwordIncorrect, { reason: 'passwordIncorrect' });
    }
    if (input.newPayPassword === input.password) {
      throw refused(PROFILE_TEXTS.payPasswordSameAsSignIn, 'payPasswordSameAsSignIn');
    }
    const payPasswordHash = await hashPassword(input.newPayPassword);
    await this.db.transaction(async (tx) => {
      const changed = await tx
        .update(users)
        .set({ payPasswordHash, updatedAt: this.now() })
        .where(
          and(
            eq(users.id, me.id),
            eq(users.passwordHash, me.passwordHash),
            // A first one set meanwhile (by another session) is not replaced without token2.
            me.payPasswordHash === null ? isNull(users.payPasswordHash) : eq(users.payPasswordHash, me.payPasswordHash),
          ),
        )
        .returning({ id: users.id });
      if (changed.length === 0) throw conflict('the password changed meanwhile', 'passwordChanged');
      await tx
        .update(sessions)
        .set({ token2Hash: null, token2ExpiresAt: null })
        .where(and(eq(sessions.userId, me.id), ne(sessions.id, user.sessionId)));
      await writeAudit(
        tx,
        actor,
        {
          action: 'profile.changePayPassword',
          target: `user:${me.id}`,
          after: { replacedExisting: me.payPasswordHash !== null },
        },
        this.now(),
      );
    });
    this.deps.sessions.forget({ userIds: [user.userId] });
  }

  private async me(db: DbOrTx, user: SessionUser): Promise<UserRecord> {
    const [row] = await db
      .select()
      .from(users)
      .where(and(eq(users.id, user.userId), isNull(users.deletedAt)))
      .limit(1);
    if (!row) throw notFound('no such account');
    return row;
  }
}
