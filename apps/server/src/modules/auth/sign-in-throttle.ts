import { Code } from '@paydesk/contract';
import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { signInThrottles } from '../../db/schema.js';
import { minutes } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';

export interface ThrottlePolicy {
  lockAfterFailures: number;
  lockMinutes: number;
  accountDelayAfterFailures: number;
  accountDelayMaxSeconds: number;
  knownAddressDays: number;
}

/** The row counting one account name's failures from every address. */
const EVERY_ADDRESS = '';

/** Throttles are keyed by the name as typed: an unknown account is counted like an existing one. */
export const throttleKey = (account: string) => account.trim().toLowerCase();

/**
 * Sign-in protection (docs/security.md "Sign-in protection"). Two counters per account name:
 * - per source address: `lockAfterFailures` failures lock that address out of that account for
 *   `lockMinutes`; other addresses, the owner's among them, are not affected;
 * - over every address: from `accountDelayAfterFailures` on, each further attempt from an address that
 *   has not signed in to the account lately waits 1 s, 2 s, 4 s ... up to `accountDelayMaxSeconds`
 *   after the last failure. It slows a distributed guesser down and is never a lock.
 * Counts restart after `lockMinutes` without a failure. Attempts refused by the throttle are not
 * counted (else the wait would never end).
 */
export class SignInThrottle {
  constructor(private readonly policy: ThrottlePolicy) {}

  private windowStart(now: Date) {
    return new Date(now.getTime() - minutes(this.policy.lockMinutes));
  }

  /** Refuses (1004) an attempt this address may not make yet; the same answer whether the account exists. */
  async check(db: DbOrTx, account: string, ip: string, now: Date): Promise<void> {
    const key = throttleKey(account);
    const rows = await db
      .select()
      .from(signInThrottles)
      .where(and(eq(signInThrottles.account, key), inArray(signInThrottles.ip, [ip, EVERY_ADDRESS])));
    const pair = rows.find((r) => r.ip === ip && ip !== EVERY_ADDRESS);
    const all = rows.find((r) => r.ip === EVERY_ADDRESS);
    if (pair?.lockedUntil && pair.lockedUntil > now) {
      throw new AppError(
        Code.accountLocked,
        `too many failed attempts from this address: try again after ${pair.lockedUntil.toISOString()}`,
        { reason: 'accountLocked', retryAfterSeconds: secondsBetween(now, pair.lockedUntil) },
      );
    }
    const knownSince = new Date(now.getTime() - minutes(this.policy.knownAddressDays * 24 * 60));
    const known = Boolean(pair?.lastSuccessAt && pair.lastSuccessAt > knownSince);
    if (known || !all?.lastFailureAt || all.lastFailureAt <= this.windowStart(now)) return;
    const until = this.delayedUntil(all.failures, all.lastFailureAt);
    if (until && until > now) {
      throw new AppError(
        Code.accountLocked,
        `too many failed attempts for this account: try again in ${secondsBetween(now, until)} s`,
        { reason: 'signInDelayed', retryAfterSeconds: secondsBetween(now, until) },
      );
    }
  }

  private delayedUntil(failures: number, lastFailureAt: Date): Date | null {
    const over = failures - this.policy.accountDelayAfterFailures;
    if (over < 0) return null;
    const seconds = Math.min(2 ** Math.min(over, 30), this.policy.accountDelayMaxSeconds);
    return new Date(lastFailureAt.getTime() + seconds * 1000);
  }

  /**
   * Counts a failure from this address and over every address, each in one atomic upsert (several
   * server processes count together). Answers the account-wide count and this address's lock.
   */
  async recordFailure(
    db: DbOrTx,
    account: string,
    ip: string,
    now: Date,
  ): Promise<{ failures: number; lockedUntil: Date | null }> {
    const key = throttleKey(account);
    const all = await this.bump(db, key, EVERY_ADDRESS, now, null);
    const pair =
      ip === EVERY_ADDRESS
        ? all
        : await this.bump(db, key, ip, now, new Date(now.getTime() + minutes(this.policy.lockMinutes)));
    return { failures: all.failures, lockedUntil: pair.lockedUntil };
  }

  private async bump(db: DbOrTx, account: string, ip: string, now: Date, lockUntil: Date | null) {
    const t = signInThrottles;
    // A failure after a quiet window starts a new count.
    const next = sql`case when ${t.lastFailureAt} is null or ${t.lastFailureAt} <= ${this.windowStart(now).toISOString()}::timestamptz
      then 1 else ${t.failures} + 1 end`;
    const lockAt = this.policy.lockAfterFailures;
    const lockIso = lockUntil?.toISOString() ?? null;
    const [row] = await db
      .insert(t)
      .values({
        account,
        ip,
        failures: 1,
        lastFailureAt: now,
        lockedUntil: lockUntil && lockAt <= 1 ? lockUntil : null,
      })
      .onConflictDoUpdate({
        target: [t.account, t.ip],
        set: {
          failures: next,
          lastFailureAt: now,
          lockedUntil:
            lockIso === null
              ? sql`${t.lockedUntil}`
              : sql`case when (${next}) >= ${lockAt} then ${lockIso}::timestamptz else ${t.lockedUntil} end`,
        },
      })
      .returning({ failures: t.failures, lockedUntil: t.lockedUntil });
    return { failures: row?.failures ?? 1, lockedUntil: row?.lockedUntil ?? null };
  }

  /** A success from this address: its count restarts and it becomes a known address of the account. */
  async recordSuccess(db: DbOrTx, account: string, ip: string, now: Date): Promise<void> {
    if (ip === EVERY_ADDRESS) return;
    await db
      .insert(signInThrottles)
      .values({ account: throttleKey(account), ip, failures: 0, lastSuccessAt: now })
      .onConflictDoUpdate({
        target: [signInThrottles.account, signInThrottles.ip],
        set: { failures: 0, lockedUntil: null, lastSuccessAt: now },
      });
  }

  /** Locks and delays of an account now: the addresses locked out and the account-wide count. */
  async stateOf(db: DbOrTx, account: string, now: Date) {
    const rows = await db
      .select()
      .from(signInThrottles)
      .where(eq(signInThrottles.account, throttleKey(account)));
    const all = rows.find((r) => r.ip === EVERY_ADDRESS);
    return {
      lockedAddresses: rows
        .filter((r) => r.ip !== EVERY_ADDRESS && r.lockedUntil && r.lockedUntil > now)
        .map((r) => ({ ip: r.ip, lockedUntil: r.lockedUntil!.toISOString() })),
      failures: all?.lastFailureAt && all.lastFailureAt > this.windowStart(now) ? all.failures : 0,
    };
  }

  /** An administrator clears every lock and count of an account (known addresses stay known). */
  async clear(db: DbOrTx, account: string): Promise<void> {
    await db
      .update(signInThrottles)
      .set({ failures: 0, lockedUntil: null, lastFailureAt: null })
      .where(eq(signInThrottles.account, throttleKey(account)));
  }

  /**
   * Forgets rows that no longer hold anything: no failure within the window, no lock, no success
   * within knownAddressDays. An attacker trying many names leaves one row per name and address;
   * without this the table would only grow. Answers how many rows went.
   */
  async purgeStale(db: DbOrTx, now: Date): Promise<number> {
    const knownSince = new Date(now.getTime() - minutes(this.policy.knownAddressDays * 24 * 60));
    const deleted = await db
      .delete(signInThrottles)
      .where(
        and(
          or(isNull(signInThrottles.lastFailureAt), lte(signInThrottles.lastFailureAt, this.windowStart(now))),
          or(isNull(signInThrottles.lockedUntil), lte(signInThrottles.lockedUntil, now)),
          or(isNull(signInThrottles.lastSuccessAt), lte(signInThrottles.lastSuccessAt, knownSince)),
        ),
      )
      .returning({ account: signInThrottles.account });
    return deleted.length;
  }
}

function secondsBetween(from: Date, to: Date): number {
  return Math.max(1, Math.ceil((to.getTime() - from.getTime()) / 1000));
}
