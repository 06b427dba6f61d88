import { FIX_DAYS_DEFAULT, type FixReport, type ResetReport } from '@paydesk/contract';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { rowsOf } from '../../db/raw-rows.js';
import { type Actor, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import { formatPlatformTime } from '../../platform/time.js';
import { foldDaily } from '../orders/daily-folder.js';
import { diffPartyDaily, diffResourceDaily } from './derived-counters.js';

/** Any fixed number: one maintenance run (fix or reset) at a time across every process. */
const MAINTENANCE_LOCK = 7_270_705;
/** Changed rows an audit row keeps (the answer lists up to MAINTENANCE_REPORT_ROWS). */
const AUDITED_ROWS = 50;

/**
 * System maintenance (spec section 7, DESIGN section 10): fixSystemResources recomputes the derived
 * counters of `derived-counters.ts` from the orders and payouts and corrects what differs;
 * resetSystemResourcePool starts the allocation's rotation afresh. Neither moves money nor writes the
 * ledger, an order or a payout. docs/operations.md "System maintenance" says when to use which.
 */
export class SystemMaintenance {
  constructor(private readonly deps: { db: Db; clock: Clock; timeZone: string }) {}

  /** The first day of the last `days` days (today included), platform time zone. */
  private window(days: number): { fromDay: string; toDay: string } {
    const toDay = formatPlatformTime(this.deps.clock.now(), this.deps.timeZone).slice(0, 10);
    const from = new Date(`${toDay}T00:00:00Z`);
    from.setUTCDate(from.getUTCDate() - (days - 1));
    return { fromDay: from.toISOString().slice(0, 10), toDay };
  }

  private async compare(tx: Tx, days: number, write: boolean): Promise<FixReport> {
    const { fromDay, toDay } = this.window(days);
    const opts = { fromDay, timeZone: this.deps.timeZone, write };
    const resource = await diffResourceDaily(tx, opts);
    const party = await diffPartyDaily(tx, opts);
    const changes = [...resource.changes, ...party.changes].sort(
      (a, b) => a.day.localeCompare(b.day) || a.table.localeCompare(b.table),
    );
    return {
      dryRun: !write,
      fromDay,
      toDay,
      checked: resource.checked + party.checked,
      changed: resource.changed + party.changed,
      changes,
    };
  }

  /** What fix would correct over the last `days` days, written nowhere (and not audited: a read). */
  check(input: { days?: number | undefined }): Promise<FixReport> {
    return this.deps.db.transaction((tx) => this.compare(tx, input.days ?? FIX_DAYS_DEFAULT, false));
  }

  /**
   * Corrects every derived counter of the last `days` days that differs from its orders and payouts
   * (one transaction, one run at a time), audited with what changed; `dryRun` only answers it.
   * A second run answers nothing changed.
   */
  fix(input: { days?: number | undefined; dryRun?: boolean | null | undefined }, actor: Actor): Promise<FixReport> {
    const days = input.days ?? FIX_DAYS_DEFAULT;
    if (input.dryRun) return this.check({ days });
    return this.deps.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${MAINTENANCE_LOCK})`);
      const report = await this.compare(tx, days, true);
      await writeAudit(
        tx,
        actor,
        {
          action: 'systemMaintenance.fixResources',
          after: {
            fromDay: report.fromDay,
            toDay: report.toDay,
            checked: report.checked,
            changed: report.changed,
            changes: report.changes.slice(0, AUDITED_ROWS),
          },
        },
        this.deps.clock.now(),
      );
      return report;
    });
  }

  /**
   * Resets the resource pool: folds the pending daily deltas (the totals a reader sees stay the same)
   * and clears every account's last allocation time, so the least-recently-used rotation starts
   * afresh (an account stamped in the future by a clock that ran ahead is chosen again). Orders,
   * holds, balances and the ledger are untouched. Audited.
   */
  async reset(actor: Actor): Promise<ResetReport> {
    const deltasFolded = await foldDaily(this.deps.db);
    const now = this.deps.clock.now();
    return this.deps.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${MAINTENANCE_LOCK})`);
      const [row] = rowsOf<{ reset: number | string; future: number | string }>(
        await tx.execute(sql`
          with u as (
            update resources r set last_allocated_at = null
              from resources o
             where o.id = r.id and o.last_allocated_at is not null
            returning o.last_allocated_at > ${now.toISOString()}::timestamptz as future)
          select count(*)::int as reset, count(*) filter (where future)::int as future from u`),
      );
      const report: ResetReport = {
        resourcesReset: Number(row?.reset ?? 0),
        futureStamps: Number(row?.future ?? 0),
        deltasFolded,
      };
      await writeAudit(tx, actor, { action: 'systemMaintenance.resetResourcePool', after: report }, now);
      return report;
    });
  }
}
