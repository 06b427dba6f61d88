import { type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { rowsOf } from '../../db/raw-rows.js';

/** Any fixed number: one folder or rebuild at a time across every process on one database. */
const ROLLUP_LOCK = 7_270_722;
/** Deltas folded per transaction. */
export const ROLLUP_FOLD_BATCH = 5000;
/** The differences a check lists at most (it counts them all). */
const CHECK_LIST_LIMIT = 50;

/** A rollup bucket's key columns, and its figures (the other columns of `order_rollups`). */
export const ROLLUP_KEY = 'hour, direction, merchant_user_id, supplier_user_id, product_id, mark, state';
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
  // Every row's fee and commission whatever its state: the lists' totals (rollup-totals.ts).
  'all_fee',
  'all_commission',
] as const;
export type RollupFigure = (typeof ROLLUP_FIGURES)[number];
const KEY = sql.raw(ROLLUP_KEY);
/** The figures' column names, for inserts that name their columns ("state" is the tables' last column). */
const FIGURE_COLUMNS = ROLLUP_FIGURES.join(', ');
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

/**
 * The levels of `order_rollup_levels` (schema.ts): the rollups summed over the other party (or both),
 * per hour or per day, over the states (`byState` false: state -1) or by state. The statistics read
 * the smallest level over the states that holds what a call filters and groups by (a level by state
 * has about five rows where it has one: 125 ms against 22 ms for a 30-day split by supplier at 10
 * million orders); the lists' totals read a level by state when a state is asked (migration 0040).
 */
export const ROLLUP_LEVELS = [
  { level: 1, party: 'merchant', grain: 'hour', byState: false },
  { level: 2, party: 'supplier', grain: 'hour', byState: false },
  { level: 3, party: 'merchant', grain: 'day', byState: false },
  { level: 4, party: 'supplier', grain: 'day', byState: false },
  // Every party's orders together (party_user_id 0): a list's totals with no party filter read a
  // row per day and state, not one per merchant.
  { level: 5, party: null, grain: 'day', byState: true },
  { level: 6, party: 'merchant', grain: 'hour', byState: true },
  { level: 7, party: 'supplier', grain: 'hour', byState: true },
  { level: 8, party: 'merchant', grain: 'day', byState: true },
  { level: 9, party: 'supplier', grain: 'day', byState: true },
] as const;
/** The state of a level's rows summed over the states. */
export const EVERY_STATE = -1;
export type RollupLevel = (typeof ROLLUP_LEVELS)[number];
export const LEVEL_KEY = 'level, direction, at, party_user_id, product_id, mark, state';

/** The level of `party` ('merchant', 'supplier', null: every party) at `grain`, by state or not. */
export function levelOf(party: 'merchant' | 'supplier' | null, grain: 'hour' | 'day', byState: boolean): number {
  const found = ROLLUP_LEVELS.find((l) => l.party === party && l.grain === grain && l.byState === byState);
  if (!found) throw new Error(`no rollup level for ${party ?? 'every party'} by ${grain}`);
  return found.level;
}

/**
 * Every level's rows from `source` (rows of the rollups' columns: a table or a subquery with its
 * alias), each summed to its key.
 */
export function levelRows(source: string): SQL {
  return sql.raw(levelRowsText(source));
}

/** levelRows as SQL text (the test harness's fingerprints are text). */
export function levelRowsText(source: string): string {
  const sums = ROLLUP_FIGURES.map((f) => `sum(${f})::bigint as ${f}`).join(', ');
  return ROLLUP_LEVELS.map(
    (l) => `select ${l.level}::smallint as level, direction,
                   ${l.grain === 'day' ? `date_trunc('day', hour)` : 'hour'} as at,
                   ${l.party ? `${l.party}_user_id` : '0'} as party_user_id, product_id, mark,
                   ${l.byState ? 'state' : `${EVERY_STATE}::smallint`} as state, ${sums}
              from ${source} group by 2, 3, 4, 5, 6, 7`,
  ).join(' union all ');
}
const LEVEL_KEY_SQL = sql.raw(LEVEL_KEY);
const ADD_FIGURES = (table: string) =>
  sql.raw(ROLLUP_FIGURES.map((f) => `${f} = ${table}.${f} + excluded.${f}`).join(', '));

/** What the rollups hold now: the folded rows plus the deltas not folded yet, per bucket. */
const HELD = sql`
  select ${KEY}, ${SUMS}
    from (select ${KEY}, ${sql.raw(ROLLUP_FIGURES.join(', '))} from order_rollups
          union all
          select ${KEY}, ${sql.raw(ROLLUP_FIGURES.join(', '))} from order_rollup_deltas) f
   group by ${KEY}`;

export interface RollupDifference {
  /** 0: an hourly bucket of `order_rollups`; else the level of `order_rollup_levels` (ROLLUP_LEVELS). */
  level: number;
  /** The hour, or the day's first hour of a day level. */
  hour: string;
  direction: number;
  /** Null where the level sums over that party. */
  merchantUserId: number | null;
  supplierUserId: number | null;
  productId: number;
  mark: number;
  /** The orders' or payouts' state (null: a level summed over the states). */
  state: number | null;
  /** The figures that differ: what the rollups hold, what the orders say. */
  figures: Partial<Record<RollupFigure, { held: number; recomputed: number }>>;
}

export interface RollupCheck {
  agree: boolean;
  /** Buckets the orders and payouts fill. */
  buckets: number;
  /** Buckets and level rows whose figures differ (at most CHECK_LIST_LIMIT listed). */
  differing: number;
  differences: RollupDifference[];
}

type Row = Record<string, string | number | Date | null>;

/**
 * Compares `held` with `recomputed` (both summed to `key`) by a full join in the database: how many
 * keys the recomputation fills, how many differ in any figure (a missing side counts as zeros), and
 * the first CHECK_LIST_LIMIT that differ with their figures.
 */
async function compare(tx: Tx, q: { held: SQL; recomputed: SQL; key: string[] }) {
  const key = sql.raw(q.key.join(', '));
  const differs = sql.raw(ROLLUP_FIGURES.map((f) => `coalesce(h.${f}, 0) <> coalesce(r.${f}, 0)`).join(' or '));
  const [row] = rowsOf<{ recomputed: number; differing: number; differences: Array<Row> }>(
    await tx.execute(sql`
      with held as (${q.held}), recomputed as (${q.recomputed}),
           compared as (
             select ${sql.raw(q.key.map((k) => `coalesce(h.${k}, r.${k}) as ${k}`).join(', '))},
                    ${sql.raw(ROLLUP_FIGURES.map((f) => `coalesce(h.${f}, 0)::text as held_${f}, coalesce(r.${f}, 0)::text as recomputed_${f}`).join(', '))},
                    r.${sql.raw(q.key[0]!)} is not null as in_recomputed, ${differs} as differs
               from held h full join recomputed r using (${key}))
      select (select count(*) from compared where in_recomputed)::int as recomputed,
             (select count(*) from compared where differs)::int as differing,
             (select coalesce(jsonb_agg(to_jsonb(c)), '[]'::jsonb)
                from (select * from compared where differs order by ${key} limit ${CHECK_LIST_LIMIT}) c) as differences`),
  );
  const differences = (row?.differences ?? []).map((d) => {
    const figures: RollupDifference['figures'] = {};
    for (const f of ROLLUP_FIGURES) {
      const held = Number(d[`held_${f}`]);
      const recomputed = Number(d[`recomputed_${f}`]);
      if (held !== recomputed) figures[f] = { held, recomputed };
    }
    return { key: d, figures };
  });
  return { recomputed: Number(row?.recomputed ?? 0), differing: Number(row?.differing ?? 0), differences };
}

/**
 * The order and payout rollups of the statistics (issue 22; docs/architecture.md "Statistics
 * rollups"): per hour of the platform time zone, merchant, supplier, product, mark, direction and the
 * state each order or payout is in now, the counts and amounts. The database keeps them: triggers on
 * `orders` and `payouts` append each change's deltas in the change's own transaction (migrations 0028,
 * 0038: a change of state moves the row from its old state's bucket to its new one's),
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
                   insert into order_rollups (${KEY}, ${sql.raw(FIGURE_COLUMNS)})
                   select ${KEY}, ${SUMS} from moved group by ${KEY} order by ${KEY}
                   on conflict (${KEY})
                   do update set ${ADD_FIGURES('order_rollups')}),
                 leveled as (
                   insert into order_rollup_levels (${LEVEL_KEY_SQL}, ${sql.raw(FIGURE_COLUMNS)})
                   select * from (${levelRows('moved')}) l order by ${LEVEL_KEY_SQL}
                   on conflict (${LEVEL_KEY_SQL})
                   do update set ${ADD_FIGURES('order_rollup_levels')})
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

  /**
   * Compares what the rollups hold with a recomputation from the orders, in one snapshot: the hourly
   * buckets, and each level against the same recomputation summed to it. The comparison runs in the
   * database (at 10 million orders there are millions of buckets); only the differences come back.
   */
  async check(): Promise<RollupCheck> {
    return this.db.transaction(
      async (tx) => {
        const buckets = await compare(tx, {
          held: HELD,
          recomputed: RECOMPUTED,
          key: ROLLUP_KEY.split(', '),
        });
        const levels = await compare(tx, {
          held: sql`
            select ${LEVEL_KEY_SQL}, ${SUMS}
              from (select ${LEVEL_KEY_SQL}, ${sql.raw(ROLLUP_FIGURES.join(', '))} from order_rollup_levels
                    union all ${levelRows('order_rollup_deltas')}) f
             group by ${LEVEL_KEY_SQL}`,
          recomputed: sql`with fine as materialized (${RECOMPUTED}) ${levelRows('fine')}`,
          key: LEVEL_KEY.split(', '),
        });
        const differences = [
          ...buckets.differences.map(({ key: d, figures }) => ({
            level: 0,
            hour: String(d.hour),
            direction: Number(d.direction),
            merchantUserId: Number(d.merchant_user_id),
            supplierUserId: Number(d.supplier_user_id),
            productId: Number(d.product_id),
            mark: Number(d.mark),
            state: Number(d.state),
            figures,
          })),
          ...levels.differences.map(({ key: d, figures }) => {
            const level = ROLLUP_LEVELS.find((l) => l.level === Number(d.level))!;
            return {
              level: level.level,
              hour: String(d.at),
              direction: Number(d.direction),
              merchantUserId: level.party === 'merchant' ? Number(d.party_user_id) : null,
              supplierUserId: level.party === 'supplier' ? Number(d.party_user_id) : null,
              productId: Number(d.product_id),
              mark: Number(d.mark),
              state: level.byState ? Number(d.state) : null,
              figures,
            };
          }),
        ].slice(0, CHECK_LIST_LIMIT);
        const differing = buckets.differing + levels.differing;
        return { agree: differing === 0, buckets: buckets.recomputed, differing, differences };
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
    await tx.execute(sql`delete from order_rollup_levels`);
    const [row] = rowsOf<{ n: number }>(
      await tx.execute(sql`
        with written as (insert into order_rollups (${KEY}, ${sql.raw(FIGURE_COLUMNS)}) ${RECOMPUTED} returning 1)
        select count(*)::int as n from written`),
    );
    await tx.execute(
      // In key order: a level's range then sits on few pages (a 30-day split by supplier read 11,600
      // rows from as many pages in the order a hash aggregate wrote them).
      sql`insert into order_rollup_levels (${LEVEL_KEY_SQL}, ${sql.raw(FIGURE_COLUMNS)})
          ${levelRows('order_rollups')} order by 1, 2, 3, 4, 5, 6, 7`,
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
