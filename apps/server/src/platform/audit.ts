import type { AuditAction, Role } from '@paydesk/contract';
import { asc, gt, sql } from 'drizzle-orm';
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

const GENESIS = '0'.repeat(64);
/** Any fixed number: appends to the chain one at a time, across processes. */
const AUDIT_CHAIN_LOCK = 7_270_702;
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

interface HashedFields {
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

function rowHash(prevHash: string, f: HashedFields): string {
  return sha256(`${prevHash}|${hashedText(f)}`);
}

/**
 * Appends one row inside the caller's transaction, so the row exists exactly when the change does.
 * Rows are chained: each carries the previous row's hash. The chain is one at a time: its lock is held
 * until the caller commits, so the row is written in as few statements as possible (two): the lock,
 * then the row, whose link and hash PostgreSQL computes from the last row (a new statement sees every
 * row committed before the lock was granted) exactly as `rowHash` does.
 */
export async function writeAudit(tx: Tx, actor: Actor, entry: AuditEntry, at: Date): Promise<void> {
  const fields: HashedFields = {
    at,
    userId: actor.userId,
    account: actor.account,
    role: actor.role,
    action: entry.action,
    target: entry.target ?? null,
    before: redact(entry.before ?? null),
    after: redact(entry.after ?? null),
    ip: actor.ip,
  };
  const last = sql`coalesce((select ${auditLog.hash} from ${auditLog} order by ${auditLog.id} desc limit 1), ${GENESIS})`;
  await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK})`);
  await tx.insert(auditLog).values({
    ...fields,
    prevHash: sql`${last}`,
    hash: sql`encode(sha256(convert_to(${last} || '|' || ${hashedText(fields)}, 'UTF8')), 'hex')`,
  });
}

/** Recomputes the chain from the first row: the first row whose content or link does not match. */
export async function verifyAuditChain(
  db: DbOrTx,
): Promise<{ ok: boolean; checked: number; firstBrokenId: number | null }> {
  let prevHash = GENESIS;
  let lastId = 0;
  let checked = 0;
  for (;;) {
    const rows = await db.select().from(auditLog).where(gt(auditLog.id, lastId)).orderBy(asc(auditLog.id)).limit(1000);
    if (rows.length === 0) return { ok: true, checked, firstBrokenId: null };
    for (const row of rows) {
      if (row.prevHash !== prevHash || rowHash(prevHash, row) !== row.hash) {
        return { ok: false, checked, firstBrokenId: row.id };
      }
      prevHash = row.hash;
      lastId = row.id;
      checked += 1;
    }
  }
}
