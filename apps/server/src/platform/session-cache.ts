/**
 * The per-process cache of the session lookup (issue 19): token hash -> the session as it was read,
 * for a few seconds. It is correct only together with its invalidation: every change to what the
 * lookup answers (revocation, token2, binding, the user's role, names, team or deletion) notifies every
 * process at commit (database triggers, drizzle/0015_session_cache_notify.sql), and this process also
 * forgets at once after committing its own changes (SessionStore.forget). The time limit is the backstop
 * for a notification that never came, not what revocation relies on.
 *
 * The race it closes: a lookup that read the row just before a revocation committed must not store
 * what it read after the revocation's eviction. Every eviction moves the generation on; a fill stores
 * only if the generation it started under is still the current one.
 */

/** What a cache entry holds: the caller, and the times the lookup itself judges the session by. */
export interface CachedSession<U> {
  user: U;
  sessionId: number;
  userId: number;
  /** The last use written to the database (ms); the idle timeout counts from it. */
  lastSeenAt: number;
  /** The session's absolute end (ms). */
  expiresAt: number;
}

interface Entry<U> {
  value: CachedSession<U>;
  storedAt: number;
}

/** What one notification or local change asks to forget. */
export type Eviction = { all: true } | { sessionIds?: readonly number[]; userIds?: readonly number[] };

export interface SessionCacheOptions {
  /** How long an entry serves without a database read (ms). */
  ttlMs: number;
  /** Entries at most; the least recently used goes first. */
  maxEntries: number;
  /** A monotonic clock in ms (tests pass their own). */
  now?: () => number;
}

export class SessionCache<U> {
  /** Map order is use order: a hit moves its entry to the end, the first is the least recently used. */
  private readonly entries = new Map<string, Entry<U>>();
  private readonly bySession = new Map<number, string>();
  private readonly byUser = new Map<number, Set<string>>();
  private generationValue = 0;
  private enabled = false;
  private readonly now: () => number;

  constructor(private readonly options: SessionCacheOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  /**
   * Serving from the cache is allowed only while changes are being heard (the process LISTENs, or the
   * embedded database's notifications are subscribed). Turning it off or on forgets everything: what
   * changed while nobody listened is unknown.
   */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    this.clear();
  }

  get isEnabled(): boolean {
    return this.enabled;
  }

  /** Take it before reading the database; `set` stores only under the same generation. */
  get generation(): number {
    return this.generationValue;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entry of a token hash if it is younger than the time limit. */
  get(tokenHash: string): CachedSession<U> | undefined {
    if (!this.enabled) return undefined;
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (this.now() - entry.storedAt >= this.options.ttlMs) {
      this.remove(tokenHash);
      return undefined;
    }
    this.entries.delete(tokenHash);
    this.entries.set(tokenHash, entry);
    return entry.value;
  }

  /**
   * Stores what a lookup read, unless an eviction happened since it took `generation` (what it read
   * may be what that eviction was about). Answers whether it stored.
   */
  set(tokenHash: string, value: CachedSession<U>, generation: number): boolean {
    if (!this.enabled || generation !== this.generationValue || this.options.maxEntries <= 0) return false;
    this.remove(tokenHash);
    while (this.entries.size >= this.options.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.remove(oldest);
    }
    this.entries.set(tokenHash, { value, storedAt: this.now() });
    this.bySession.set(value.sessionId, tokenHash);
    let tokens = this.byUser.get(value.userId);
    if (!tokens) {
      tokens = new Set();
      this.byUser.set(value.userId, tokens);
    }
    tokens.add(tokenHash);
    return true;
  }

  /** Updates the last use of a cached entry after the lookup wrote it (the once-a-minute write). */
  touch(tokenHash: string, lastSeenAt: number): void {
    const entry = this.entries.get(tokenHash);
    if (entry) entry.value = { ...entry.value, lastSeenAt };
  }

  /** Forgets the entries a change concerns, and fills in flight (any eviction moves the generation on). */
  evict(what: Eviction): void {
    this.generationValue += 1;
    if ('all' in what) {
      this.dropAll();
      return;
    }
    for (const id of what.sessionIds ?? []) {
      const tokenHash = this.bySession.get(id);
      if (tokenHash !== undefined) this.remove(tokenHash);
    }
    for (const id of what.userIds ?? []) {
      for (const tokenHash of [...(this.byUser.get(id) ?? [])]) this.remove(tokenHash);
    }
  }

  clear(): void {
    this.evict({ all: true });
  }

  /** Drops one entry (a lookup found it no longer good). */
  remove(tokenHash: string): void {
    const entry = this.entries.get(tokenHash);
    if (!entry) return;
    this.entries.delete(tokenHash);
    const { sessionId, userId } = entry.value;
    if (this.bySession.get(sessionId) === tokenHash) this.bySession.delete(sessionId);
    const tokens = this.byUser.get(userId);
    tokens?.delete(tokenHash);
    if (tokens?.size === 0) this.byUser.delete(userId);
  }

  private dropAll() {
    this.entries.clear();
    this.bySession.clear();
    this.byUser.clear();
  }
}

/** A notification's payload as an eviction: 's:<id>', 'u:<id>' or '*'; undefined when malformed. */
export function parseEviction(payload: string): Eviction | undefined {
  if (payload === '*') return { all: true };
  const match = /^([su]):(\d{1,18})$/.exec(payload);
  if (!match) return undefined;
  const id = Number(match[2]);
  if (!Number.isSafeInteger(id)) return undefined;
  return match[1] === 's' ? { sessionIds: [id] } : { userIds: [id] };
}
