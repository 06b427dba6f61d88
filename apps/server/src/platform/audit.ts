import type { AuditAction, Role } from '@paydesk/contract';
import { and, asc, count, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../db/client.js';
import { auditLog } from '../db/schema.js';
import { canonicalJson } from './canonical-json.js';
import { sha256 } from './secrets.js';

/** Who did it. `null` user: the system itself (jobs, seed). */
export interface Actor {
  userId: number | null;
  account: string | null;
  role: Role | null;
  ip: string | null;
}
export const SYSTEM_ACTOR: Actor = { userId: null, account: 'system', role: null, ip: null };

export interface AuditEntry {
  /** `<area>.<call>`, e.g. 'users.addUser': one of the contract's AUDIT_ACTIONS. */
  action: AuditAction;
  /** What it acted on, e.g. 'user:12'. */
  target?: string | null;
  before?: unknown;
  after?: unknown;
}

export const GENESIS = '0'.repeat(64);
const SECRET_KEY = /password|secret|token|hash/i;

/** A safety net: fields that look like secrets never reach the audit log, whatever a caller passes. */
export function redact(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Date) return value ?? null;
  if (Array.isArray(value)) return value.map(redact);
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, SECRET_KEY.test(k) ? '[redacted]' : redact(v)]),
  );
}

export interface HashedFields {
  at: Date;
  userId: number | null;
  account: string | null;
  role: string | null;
  action: string;
  target: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
}

/** The text a row's hash covers after the previous row's hash and '|'. */
function hashedText(f: HashedFields): string {
  return canonicalJson({
    at: f.at.toISOString(),
    userId: f.userId,
    account: f.account,
    role: f.role,
    action: f.action,
    target: f.target,
    before: f.before ?? null,
    after: f.after ?? null,
    ip: f.ip,
  });
}

/** A row's hash: over the previous row's hash and the row's content (canonical JSON). */
export function rowHash(prevHash: string, f: HashedFields): string {
  return sha256(`${prevHash}|${hashedText(f)}`);
}

const writtenListeners = new Set<() => void>();
/** Calls `listener` after every audit row this process writes (the sealer's cue); answers how to stop. */
export function onAuditWritten(listener: () => void): () => void {
  writtenListeners.add(listener);
  return () => writtenListeners.delete(listener);
}

/**
 * Appends one row inside the caller's transaction, so the row exists exactly when the change does. It
 * is written unsealed, in one statement and without any lock: its place in the chain and its hash are
 * given shortly after it commits by the one sealer (platform/audit-sealer.ts), so audited changes do
 * not queue on the chain (DESIGN section 3).
 */
export async function writeAudit(tx: Tx, actor: Actor, entry: AuditEntry, at: Date): Promise<void> {
  await tx.insert(auditLog).values({
    at,
    userId: actor.userId,
    account: actor.account,
    role: actor.role,
    action: entry.action,
    target: entry.target ?? null,
    before: redact(entry.before ?? null),
    after: redact(entry.after ?? null),
    ip: actor.ip,
  });
  for (const listener of writtenListeners) listener();
}

export interface ChainCheck {
  /** The sealed rows are intact and in sequence, and no row waited for its seal longer than allowed. */
  ok: boolean;
  /** Sealed rows checked. */
  checked: number;
  /** The first sealed row whose content, link or place does not match (an edited row, or the one after a removed row). */
  firstBrokenId: number | null;
  /** Rows not yet sealed. */
  unsealed: number;
  /** Of those, rows older than the allowed wait (the sealer is not running, or is failing). */
  staleUnsealed: number;
}

/**
 * Recomputes the chain in its order: each sealed row must hold the next place, link to the previous
 * row's hash and hash its own content; the first that does not is reported. Rows left unsealed for
 * longer than `staleAfterMs` (by `now`) are reported too, and make the check fail.
 */
export async function verifyAuditChain(db: DbOrTx, now: Date, staleAfterMs: number): Promise<ChainCheck> {
  let prevHash = GENESIS;
  let lastSeq = 0;
  let checked = 0;
  let firstBrokenId: number | null = null;
  walk: for (;;) {
    const rows = await db
      .select()
      .from(auditLog)
      .where(and(isNotNull(auditLog.seq), gt(auditLog.seq, lastSeq)))
      .orderBy(asc(auditLog.seq))
      .limit(1000);
    if (rows.length === 0) break;
    for (const row of rows) {
      const hashed = row.prevHash !== null && row.hash !== null;
      if (row.seq !== lastSeq + 1 || !hashed || row.prevHash !== prevHash || rowHash(prevHash, row) !== row.hash) {
        firstBrokenId = row.id;
        break walk;
      }
      prevHash = row.hash!;
      lastSeq = row.seq;
      checked += 1;
    }
  }
  const [pending] = await db
    .select({
      unsealed: count(),
      stale: sql<number>`count(*) filter (where ${auditLog.at} < ${new Date(now.getTime() - staleAfterMs)})`.mapWith(
        Number,
      ),
    })
    .from(auditLog)
    .where(isNull(auditLog.seq));
  const unsealed = pending?.unsealed ?? 0;
  const staleUnsealed = pending?.stale ?? 0;
  return { ok: firstBrokenId === null && staleUnsealed === 0, checked, firstBrokenId, unsealed, staleUnsealed };
}
