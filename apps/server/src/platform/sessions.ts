import type { Role } from '@paydesk/contract';
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Database, DbOrTx } from '../db/client.js';
import { sessions, users } from '../db/schema.js';
import { SYSTEM_ACTOR, writeAudit } from './audit.js';
import { type Clock, minutes } from './clock.js';
import { PgListener } from './pg-listener.js';
import { newToken, sha256 } from './secrets.js';
import {
  type CachedSession,
  type Eviction,
  parseEviction,
  SessionCache,
  type SessionCacheOptions,
} from './session-cache.js';
import type { SettingsStore } from './settings.js';

/** The channel the triggers of drizzle/0015_session_cache_notify.sql notify on. */
export const SESSIONS_CHANNEL = 'paydesk_sessions';
/** How long a looked-up session serves this process without a database read (the backstop, see session-cache.ts). */
export const SESSION_CACHE_TTL_MS = 5_000;
/** Cached sessions per process at most (a few MB). */
export const SESSION_CACHE_MAX_ENTRIES = 20_000;
/** The last use is written at most this often per session, not once per request. */
const LAST_SEEN_EVERY_MS = 60_000;

export interface SessionStoreOptions {
  /** The database whose notifications keep the cache right; without it nothing is cached. */
  database?: Database;
  cache?: Partial<SessionCacheOptions>;
  /** The system settings (EnableIpChangedCheck); without them no session ends for its address. */
  settings?: Pick<SettingsStore, 'get'>;
}

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
  /** The client address the session signed in from (EnableIpChangedCheck compares each request's). */
  ip: string;
}

/** A request's session, or none and why it ended on this request (EnableIpChangedCheck). */
export type ResolvedRequest = { user: SessionUser; ended?: undefined } | { user: null; ended?: 'addressChanged' };

/**
 * Sessions in the database: the token itself is given to the client once and stored only hashed.
 * Lookups are cached per process for a few seconds once `start` hears the database's change
 * notifications (session-cache.ts); a change this process commits is forgotten at once (`forget`).
 */
export class SessionStore {
  private readonly cache: SessionCache<SessionUser>;
  private listener: PgListener | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private started = false;
  private log: Pick<FastifyBaseLogger, 'warn' | 'error'> | undefined;

  constructor(
    private readonly db: DbOrTx,
    private readonly config: Config,
    private readonly clock: Clock,
    private readonly options: SessionStoreOptions = {},
  ) {
    this.cache = new SessionCache<SessionUser>({
      ttlMs: SESSION_CACHE_TTL_MS,
      maxEntries: SESSION_CACHE_MAX_ENTRIES,
      ...options.cache,
    });
  }

  /**
   * Starts hearing changes (PostgreSQL: LISTEN on a dedicated connection, reconnecting; PGlite: its
   * own notifications) and caching while they are heard. Never throws: without it lookups read the
   * database every time, as before.
   */
  async start(log?: Pick<FastifyBaseLogger, 'warn' | 'error'>): Promise<void> {
    this.log = log;
    const database = this.options.database;
    if (this.started || !database) return;
    this.started = true;
    if (database.kind === 'pglite' && database.pglite) {
      try {
        this.unlisten = await database.pglite.listen(SESSIONS_CHANNEL, (payload) => this.receive(payload));
        this.cache.setEnabled(true);
      } catch (err) {
        log?.error({ err }, 'session cache: could not listen; every lookup reads the database');
      }
      return;
    }
    if (!database.url) {
      log?.warn({}, 'session cache: no database URL to LISTEN with; every lookup reads the database');
      return;
    }
    this.listener = new PgListener({
      connectionString: database.url,
      channel: SESSIONS_CHANNEL,
      onNotification: (payload) => this.receive(payload),
      // Whatever changed while nobody listened is unknown: start empty, and serve nothing meanwhile.
      onListening: () => this.cache.setEnabled(true),
      onLost: () => this.cache.setEnabled(false),
      log,
    });
    await this.listener.start();
  }

  async stop(): Promise<void> {
    this.cache.setEnabled(false);
    const listener = this.listener;
    const unlisten = this.unlisten;
    this.listener = undefined;
    this.unlisten = undefined;
    await listener?.close();
    await unlisten?.().catch(() => undefined);
  }

  /** Whether lookups are being cached now (changes are heard). */
  get caching(): boolean {
    return this.cache.isEnabled;
  }

  /**
   * Forgets cached lookups of these sessions or users in this process. Call it after committing a
   * change to what `resolve` answers: the database's notification does the same in every process, but
   * reaches this one a moment later, and the next request of this process must already see it.
   */
  forget(what: Eviction): void {
    this.cache.evict(what);
  }

  private receive(payload: string) {
    const eviction = parseEviction(payload);
    if (eviction) {
      this.cache.evict(eviction);
      return;
    }
    // Not ours to read: forgetting everything is always safe.
    this.log?.warn({ payload: payload.slice(0, 100) }, 'session cache: unexpected notification; cache cleared');
    this.cache.clear();
  }

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

  /**
   * The live session of a token as a request from `clientIp` sees it: none, and under
   * EnableIpChangedCheck, none either when the address differs from the sign-in's (the session is
   * ended then, `ended` says why; see `endForAddress`). The comparison costs nothing more than itself:
   * the setting (cached) is read only when the addresses differ.
   */
  async resolveRequest(token: string, clientIp: string): Promise<ResolvedRequest> {
    const user = await this.resolve(token);
    if (!user || sameAddress(user.ip, clientIp)) return { user };
    if (!(await this.options.settings?.get('EnableIpChangedCheck'))) return { user };
    await this.endForAddress(user, clientIp);
    return { user: null, ended: 'addressChanged' };
  }

  /**
   * Ends a session whose request came from another address than its sign-in's (EnableIpChangedCheck),
   * audited as the system with both addresses; this process forgets it at once, the others when they
   * hear the change. Concurrent requests of the session write one audit row: only the one that
   * revoked it does.
   */
  private async endForAddress(user: SessionUser, clientIp: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const ended = await tx
        .update(sessions)
        .set({ revokedAt: this.clock.now(), revokedReason: 'address changed' })
        .where(and(eq(sessions.id, user.sessionId), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      if (ended.length === 0) return;
      await writeAudit(
        tx,
        SYSTEM_ACTOR,
        {
          action: 'auth.addressChanged',
          target: `session:${user.publicSessionId}`,
          before: { account: user.account, ip: user.ip },
          after: { ip: clientIp },
        },
        this.clock.now(),
      );
    });
    this.forget({ sessionIds: [user.sessionId] });
  }

  /** The live session of a token: not revoked, not past its lifetime, used recently, account not deleted. */
  async resolve(token: string): Promise<SessionUser | null> {
    const tokenHash = sha256(token);
    const now = this.clock.now().getTime();
    let hit = this.cache.get(tokenHash);
    // A hit counts only once every change committed before this request is known to have been heard
    // (the entry may be gone then).
    if (hit) hit = (await this.heardUpToNow()) ? this.cache.get(tokenHash) : undefined;
    if (hit) {
      if (this.isLive(hit, now)) {
        await this.markSeen(tokenHash, hit, now);
        return hit.user;
      }
      // Past its time by what the cache knows: another process may have seen it used since, so the
      // database decides.
      this.cache.remove(tokenHash);
    }
    const generation = this.cache.generation;
    const [row] = await this.db
      .select({ s: sessions, u: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt), isNull(users.deletedAt)))
      .limit(1);
    if (!row) return null;
    const found: CachedSession<SessionUser> = {
      sessionId: row.s.id,
      userId: row.u.id,
      lastSeenAt: row.s.lastSeenAt.getTime(),
      expiresAt: row.s.expiresAt.getTime(),
      user: {
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
        ip: row.s.ip,
      },
    };
    if (!this.isLive(found, now)) return null;
    // Stored only if no eviction happened while the row was read (it may be what that was about).
    this.cache.set(tokenHash, found, generation);
    await this.markSeen(tokenHash, found, now);
    return found.user;
  }

  /**
   * PostgreSQL: a shared round trip on the listening connection (PgListener.sync), after which every
   * notification committed before this moment has been applied. PGlite: nothing to wait for, its
   * notifications are handled before the committing statement returns.
   */
  private heardUpToNow(): Promise<boolean> | boolean {
    return this.listener ? this.listener.sync() : true;
  }

  private isLive(s: CachedSession<SessionUser>, now: number): boolean {
    return s.expiresAt > now && s.lastSeenAt + minutes(this.config.sessionIdleMinutes) > now;
  }

  /** One write a minute at most per session, not one per request (the idle timeout counts from it). */
  private async markSeen(tokenHash: string, s: CachedSession<SessionUser>, now: number) {
    if (now - s.lastSeenAt <= LAST_SEEN_EVERY_MS) return;
    // Noted before the write, so the requests arriving meanwhile do not write it too.
    this.cache.touch(tokenHash, now);
    await this.db
      .update(sessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(sessions.id, s.sessionId));
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

/** One client address written two ways (an IPv4 address seen through an IPv6 socket) is the same. */
function sameAddress(a: string, b: string): boolean {
  if (a === b) return true;
  const plain = (ip: string) => (ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip);
  return plain(a) === plain(b);
}
