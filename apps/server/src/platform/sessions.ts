import type { Role } from '@paydesk/contract';
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Config } from '../config.js';
import type { DbOrTx } from '../db/client.js';
import { sessions, users } from '../db/schema.js';
import { type Clock, minutes } from './clock.js';
import { newToken, sha256 } from './secrets.js';

/** The signed-in caller as the guards and services see it. */
export interface SessionUser {
  sessionId: number;
  publicSessionId: string;
  userId: number;
  account: string;
  nickname: string;
  role: Role;
  parentId: number | null;
  pendingBind: boolean;
  token2Hash: string | null;
  token2ExpiresAt: Date | null;
}

/** Sessions in the database: the token itself is given to the client once and stored only hashed. */
export class SessionStore {
  constructor(
    private readonly db: DbOrTx,
    private readonly config: Config,
    private readonly clock: Clock,
  ) {}

  async create(
    tx: DbOrTx,
    userId: number,
    opts: { pendingBind: boolean; ip: string; userAgent: string },
  ): Promise<{ token: string; publicId: string }> {
    const token = newToken();
    const publicId = `s_${newToken(12)}`;
    const now = this.clock.now();
    await tx.insert(sessions).values({
      publicId,
      tokenHash: sha256(token),
      userId,
      pendingBind: opts.pendingBind,
      ip: opts.ip,
      userAgent: opts.userAgent.slice(0, 256),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + minutes(this.config.sessionLifetimeMinutes)),
    });
    return { token, publicId };
  }

  /** The live session of a token: not revoked, not past its lifetime, used recently, account not deleted. */
  async resolve(token: string): Promise<SessionUser | null> {
    const [row] = await this.db
      .select({ s: sessions, u: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.tokenHash, sha256(token)), isNull(sessions.revokedAt), isNull(users.deletedAt)))
      .limit(1);
    if (!row) return null;
    const now = this.clock.now().getTime();
    const idleLimit = row.s.lastSeenAt.getTime() + minutes(this.config.sessionIdleMinutes);
    if (row.s.expiresAt.getTime() <= now || idleLimit <= now) return null;
    // One write a minute at most per session, not one per request.
    if (now - row.s.lastSeenAt.getTime() > 60_000) {
      await this.db
        .update(sessions)
        .set({ lastSeenAt: new Date(now) })
        .where(eq(sessions.id, row.s.id));
    }
    return {
      sessionId: row.s.id,
      publicSessionId: row.s.publicId,
      userId: row.u.id,
      account: row.u.account,
      nickname: row.u.nickname,
      role: row.u.role as Role,
      parentId: row.u.parentId,
      pendingBind: row.s.pendingBind,
      token2Hash: row.s.token2Hash,
      token2ExpiresAt: row.s.token2ExpiresAt,
    };
  }

  async revoke(tx: DbOrTx, sessionId: number, reason: string): Promise<void> {
    await tx
      .update(sessions)
      .set({ revokedAt: this.clock.now(), revokedReason: reason })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
  }

  /** Ends every session of a user (optionally but one). */
  async revokeAllOf(tx: DbOrTx, userId: number, reason: string, exceptSessionId?: number): Promise<void> {
    const conditions = [eq(sessions.userId, userId), isNull(sessions.revokedAt)];
    if (exceptSessionId !== undefined) conditions.push(ne(sessions.id, exceptSessionId));
    await tx
      .update(sessions)
      .set({ revokedAt: this.clock.now(), revokedReason: reason })
      .where(and(...conditions));
  }

  async grantToken2(tx: DbOrTx, sessionId: number, reason: string): Promise<{ token2: string; expiresAt: Date }> {
    const token2 = newToken();
    const expiresAt = new Date(this.clock.now().getTime() + minutes(this.config.token2Minutes));
    await tx
      .update(sessions)
      .set({ token2Hash: sha256(token2), token2ExpiresAt: expiresAt, token2Reason: reason })
      .where(eq(sessions.id, sessionId));
    return { token2, expiresAt };
  }

  /** Whether the caller's token2 header matches its session: 'valid', 'missing' or 'expired'. */
  checkToken2(user: SessionUser, header: string | undefined): 'valid' | 'missing' | 'expired' {
    if (!header) return 'missing';
    if (user.token2Hash !== sha256(header)) return 'expired';
    if (!user.token2ExpiresAt || user.token2ExpiresAt.getTime() <= this.clock.now().getTime()) return 'expired';
    return 'valid';
  }
}
