import { asc, desc, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { auditLog } from '../db/schema.js';
import { GENESIS, onAuditWritten, rowHash } from './audit.js';

/** Any fixed number: one sealer at a time across every process on one database. */
export const SEALER_LOCK = 7_270_703;
/** Rows sealed per transaction. */
export const SEAL_BATCH = 1000;
/** How long a committed row may wait for its seal before the chain check reports it (DESIGN section 3). */
export const AUDIT_SEAL_STALE_MS = 10_000;

/**
 * Seals the audit rows committed so far, in batches of `batch` rows, one transaction each: under a
 * lock only one sealer holds at a time, the rows not yet sealed (in id order) take the places after
 * the last sealed row, each linked to the previous row's hash, in one UPDATE. When another sealer
 * holds the lock, this one leaves the work to it (answers what it sealed so far), unless `wait`: then
 * it waits its turn, so every row committed before the call is sealed when it returns (tests, a
 * process shutting down). Answers the rows sealed.
 */
export async function sealAuditRows(db: Db, options: { batch?: number; wait?: boolean } = {}): Promise<number> {
  const batch = options.batch ?? SEAL_BATCH;
  let sealed = 0;
  for (;;) {
    const n = await db.transaction(async (tx) => {
      if (options.wait) await tx.execute(sql`select pg_advisory_xact_lock(${SEALER_LOCK})`);
      else {
        const lock = (await tx.execute(sql`select pg_try_advisory_xact_lock(${SEALER_LOCK}) as ok`)) as unknown as {
          rows: Array<{ ok: boolean }>;
        };
        if (!lock.rows[0]?.ok) return 0;
      }
      const [last] = await tx
        .select({ seq: auditLog.seq, hash: auditLog.hash })
        .from(auditLog)
        .where(isNotNull(auditLog.seq))
        .orderBy(desc(auditLog.seq))
        .limit(1);
      const rows = await tx.select().from(auditLog).where(isNull(auditLog.seq)).orderBy(asc(auditLog.id)).limit(batch);
      if (rows.length === 0) return 0;
      let seq = last?.seq ?? 0;
      let prevHash = last?.hash ?? GENESIS;
      const seals = rows.map((row) => {
        seq += 1;
        const hash = rowHash(prevHash, row);
        const seal = { id: row.id, seq, prev_hash: prevHash, hash };
        prevHash = hash;
        return seal;
      });
      await tx.execute(sql`
        update audit_log a
           set seq = v.seq, prev_hash = v.prev_hash, hash = v.hash
          from jsonb_to_recordset(${JSON.stringify(seals)}::jsonb) as v(id bigint, seq bigint, prev_hash text, hash text)
         where a.id = v.id and a.seq is null`);
      return rows.length;
    });
    sealed += n;
    if (n < batch) return sealed;
  }
}

type Logger = { error(obj: unknown, msg?: string): void };

/**
 * The one sealer of a process: seals shortly after this process writes audit rows (`soonMs` after the
 * first of a burst) and every `everyMs` for rows other processes wrote. Runs never overlap; a request
 * to seal while a run is on makes one more run after it.
 */
export class AuditSealer {
  private timer: NodeJS.Timeout | null = null;
  private soon: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private unsubscribe: (() => void) | null = null;

  private log: Logger = { error: (obj, msg) => console.error('[audit]', msg ?? '', obj) };

  constructor(
    private readonly db: Db,
    private readonly everyMs = 1_000,
    private readonly soonMs = 50,
  ) {}

  start(log?: Logger): void {
    if (this.timer) return;
    if (log) this.log = log;
    this.unsubscribe = onAuditWritten(() => this.sealSoon());
    this.timer = setInterval(() => void this.run(), this.everyMs);
    this.timer.unref();
    void this.run();
  }

  private sealSoon(): void {
    if (this.soon || !this.timer) return;
    this.soon = setTimeout(() => {
      this.soon = null;
      void this.run();
    }, this.soonMs);
    this.soon.unref();
  }

  /**
   * Seals what has committed. During a run, asks for one more after it (while the sealer is started)
   * and resolves with the run in progress.
   */
  run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = sealAuditRows(this.db)
      .then(() => undefined)
      .catch((error: unknown) => this.log.error({ err: error }, 'audit sealing failed'))
      .finally(() => {
        this.running = null;
        if (this.again && this.timer) {
          this.again = false;
          void this.run();
        }
      });
    return this.running;
  }

  /** Stops sealing after a last run, so a process that shuts down leaves nothing of its own unsealed. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.soon) clearTimeout(this.soon);
    this.timer = null;
    this.soon = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.running;
    await sealAuditRows(this.db, { wait: true }).catch((error: unknown) =>
      this.log.error({ err: error }, 'audit sealing failed'),
    );
  }
}
