import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { rowsOf } from '../../db/raw-rows.js';

/** Any fixed number: one folder or rebuild at a time across every process on one database. */
const ROLLUP_LOCK = 7_270_722;
/** Deltas folded per transaction. */
export const ROLLUP_FOLD_BATCH = 5000;
/** The differences a check lists at most (it counts them all). */
const CHECK_LIST_LIMIT = 50;

/** A rollup bucket's key columns, and its figures (the columns of `order_rollups` after the key). */
export const ROLLUP_KEY = 'hour, direction, merchant_user_id, supplier_user_id, product_id, mark';
export const ROLLUP_FIGURES = [
  'created_count',
  'created_amount',
  'success_count',
  'success_amount',
  'fee',
  'commission',
  'failed_count',
  'timed_out_count',
  'reversed_count',
  'reversed_amount',
  'cancelled_count',
] as const;
export type RollupFigure = (typeof ROLLUP_FIGURES)[number];
const KEY = sql.raw(ROLLUP_KEY);
const SUMS = sql.raw(ROLLUP_FIGURES.map((f) => `sum(${f})::bigint as ${f}`).join(', '));

/**
 * Every order's and payout's figures, grouped by bucket: what the rollups must hold. The figures of a
 * row are the migration's `order_rollup_figures` / `payout_rollup_figures`, which the triggers use too.
 */
const RECOMPUTED = sql`
  select ${KEY}, ${SUMS}
    from (select r.* from orders o cross join lateral order_rollup_figures(o, 1) r
          union all
          select r.* from payouts p cross join lateral payout_rollup_figures(p, 1) r) f
   group by ${KEY}`;

/** What the rollups hold now: the folded rows plus the deltas not folded yet, per bucket. */
const HELD = sql`
  select ${KEY}, ${SUMS}
    from (select ${KEY}, ${sql.raw(ROLLUP_FIGURES.join(', '))} from order_rollups
          union all
          select ${KEY}, ${sql.raw(ROLLUP_FIGURES.join(', '))} from order_rollup_deltas) f
   group by ${KEY}`;

export interface RollupDifference {
  hour: string;
  direction: number;
  merchantUserId: number;
  supplierUserId: number;
  productId: number;
  mark: number;
  /** The figures that differ: what the rollups hold, what the orders say. */
  figures: Partial<Record<RollupFigure, { held: number; recomputed: number }>>;
}

export interface RollupCheck {
  agree: boolean;
  /** Buckets the orders and payouts fill. */
  buckets: number;
  /** Buckets whose figures differ (at most CHECK_LIST_LIMIT listed). */
  differing: number;
  differences: RollupDifference[];
}

type Row = Record<string, string | number | Date | null>;

/**
 * The order and payout rollups of the statistics (issue 22; docs/architecture.md "Statistics
 * rollups"): per hour of the platform time zone, merchant, supplier, product, mark and direction, the
 * counts and amounts by the state each order or payout is in now. The database keeps them: triggers on
 * `orders` and `payouts` append each change's deltas in the change's own transaction (migration 0028),
 * so every code path that moves an order counts, and nothing is counted twice or lost. This class
 * folds the deltas, rebuilds the rollups from the orders, and checks that the two agree.
 */
export class Rollups {
  constructor(private readonly db: Db) {}

  /**
   * Moves committed deltas into `order_rollups`, `batch` per transaction, under the rollup lock (when
   * another process holds it, it leaves the work to that one). A bucket's figures are the same before
   * and after. Answers the deltas folded.
   */
  async fold(options: { batch?: number } = {}): Promise<number> {
    const batch = options.batch ?? ROLLUP_FOLD_BATCH;
    let folded = 0;
    for (;;) {
      const n = await this.db.transaction(async (tx) => {
        if (!(await this.tryLock(tx))) return 0;
        const [row] = rowsOf<{ n: number }>(
          await tx.execute(sql`
            with moved as (
                   delete from order_rollup_deltas
                    where id in (select id from order_rollup_deltas order by id limit ${batch}::int)
                   returning *),
                 folded as (
                   insert into order_rollups
                   select ${KEY}, ${SUMS} from moved group by ${KEY} order by ${KEY}
                   on conflict (${KEY})
                   do update set ${sql.raw(ROLLUP_FIGURES.map((f) => `${f} = order_rollups.${f} + excluded.${f}`).join(', '))})
            select count(*)::int as n from moved`),
        );
        return Number(row?.n ?? 0);
      });
      folded += n;
      if (n < batch) return folded;
    }
  }

  /**
   * Recomputes the rollups from every order and payout, replacing what they held. Order and payout
   * changes wait for it (a share lock on both tables), so nothing is counted in neither or both.
   * Answers the buckets written.
   */
  async rebuild(): Promise<number> {
    return this.db.transaction(async (tx) => this.rebuildIn(tx));
  }

  /** Compares what the rollups hold with a recomputation from the orders, in one snapshot. */
  async check(): Promise<RollupCheck> {
    return this.db.transaction(
      async (tx) => {
        const rows = rowsOf<Row>(
          await tx.execute(sql`
            with held as (${HELD}), recomputed as (${RECOMPUTED})
            select ${sql.raw(['hour', 'direction', 'merchant_user_id', 'supplier_user_id', 'product_id', 'mark'].map((k) => `coalesce(h.${k}, r.${k}) as ${k}`).join(', '))},
                   ${sql.raw(ROLLUP_FIGURES.map((f) => `coalesce(h.${f}, 0)::text as held_${f}, coalesce(r.${f}, 0)::text as recomputed_${f}`).join(', '))},
                   r.hour is not null as recomputed_bucket
              from held h
              full join recomputed r using (${KEY})`),
        );
        const differences: RollupDifference[] = [];
        let differing = 0;
        let buckets = 0;
        for (const row of rows) {
          if (row.recomputed_bucket) buckets += 1;
          const figures: RollupDifference['figures'] = {};
          for (const f of ROLLUP_FIGURES) {
            const held = Number(row[`held_${f}`]);
            const recomputed = Number(row[`recomputed_${f}`]);
            if (held !== recomputed) figures[f] = { held, recomputed };
          }
          if (Object.keys(figures).length === 0) continue;
          differing += 1;
          if (differences.length < CHECK_LIST_LIMIT) {
            differences.push({
              hour: String(row.hour),
              direction: Number(row.direction),
              merchantUserId: Number(row.merchant_user_id),
              supplierUserId: Number(row.supplier_user_id),
              productId: Number(row.product_id),
              mark: Number(row.mark),
              figures,
            });
          }
        }
        return { agree: differing === 0, buckets, differing, differences };
      },
      { isolationLevel: 'repeatable read' },
    );
  }

  /**
   * Makes the rollups' hours those of `timeZone` (the server's TIME_ZONE): when the database's
   * differs, writes it and rebuilds the rollups in the same transaction. Answers whether it rebuilt.
   */
  async useTimeZone(timeZone: string, log?: { warn(obj: unknown, msg?: string): void }): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [row] = rowsOf<{ time_zone: string }>(
        await tx.execute(sql`select time_zone from stats_clock where id = 1 for update`),
      );
      if (row?.time_zone === timeZone) return false;
      await tx.execute(sql`
        insert into stats_clock (id, time_zone) values (1, ${timeZone})
        on conflict (id) do update set time_zone = excluded.time_zone`);
      const buckets = await this.rebuildIn(tx);
      log?.warn(
        { from: row?.time_zone ?? null, to: timeZone, buckets },
        'the statistics time zone changed: rollups rebuilt in the new time zone',
      );
      return true;
    });
  }

  private async rebuildIn(tx: Tx): Promise<number> {
    await tx.execute(sql`lock table orders, payouts in share mode`);
    await tx.execute(sql`select pg_advisory_xact_lock(${ROLLUP_LOCK})`);
    await tx.execute(sql`delete from order_rollup_deltas`);
    await tx.execute(sql`delete from order_rollups`);
    const [row] = rowsOf<{ n: number }>(
      await tx.execute(sql`
        with written as (insert into order_rollups ${RECOMPUTED} returning 1)
        select count(*)::int as n from written`),
    );
    return Number(row?.n ?? 0);
  }

  private async tryLock(tx: Tx): Promise<boolean> {
    const [lock] = rowsOf<{ ok: boolean }>(
      await tx.execute(sql`select pg_try_advisory_xact_lock(${ROLLUP_LOCK}) as ok`),
    );
    return lock?.ok === true;
  }
}
