import {
  type CounterChange,
  type DerivedTable,
  MAINTENANCE_REPORT_ROWS,
  PAID_STATES,
  PAYOUT_STATE,
} from '@paydesk/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { rowsOf } from '../../db/raw-rows.js';

/**
 * The derived counters of the resource pool, written down once: which stored rows are sums of which
 * orders and payouts, on which day. Everything else the pool shows (processing orders of an account,
 * payouts a supplier holds, balances) is read live from the orders, payouts and ledger, so it cannot
 * drift and nothing here corrects it. The writers are `orders/statements.ts` (`PAY_ORDER`,
 * `ADD_DAILY`), `payouts/payout-intake.ts` and `payouts/payouts.service.ts`; this module reads
 * their rules back from the rows they come from.
 *
 * A day is 'YYYY-MM-DD' in the platform time zone (`TIME_ZONE`), as the writers compute it.
 *
 * 1. `resource_daily (resource_id, day)`: count and amount of the collection orders on that account
 *    whose payment is standing: the order is in a paid state (`PAID_STATES`: 3, 4, 6, 9), counted on
 *    the day of its `paid_at`. A payment adds (+1, +amount) on its day (`PAY_ORDER`); a reversal
 *    takes the order back out of the day it was paid, not the day of the reversal (`ADD_DAILY` with
 *    the order's `paid_at`, state 8 afterwards), so a reversed order counts nowhere. Payouts never
 *    touch it.
 * 2. `party_daily (user_id, product_id, day)` plus the unfolded `party_daily_deltas` of the same key
 *    (the total a reader sees is their sum; `orders/daily-folder.ts` moves deltas into the row):
 *    - a collection order in a paid state counts for its merchant's account (`merchant_user_id`) and
 *      for its supplier's account (`supplier_user_id`, the account's owner, an agent when an agent's
 *      account took it), on the day of its `paid_at`; reversal as in 1;
 *    - a payout counts for its merchant's account at create, on the day of its `created_at`, and is
 *      taken back out of that same day when it ends unpaid (cancelled 4 or rejected 6: `release`, a
 *      batch's failed row); a completed payout stays. The supplier that pays a payout gets no daily
 *      total from it (its completion writes only the ledger).
 * 3. `resources.last_allocated_at`: the allocation's least-recently-used order (collections and
 *    gateway payouts); not derived from anything, so fix leaves it alone and reset clears it.
 *
 * `orders.hold_open` (a supplier's hold posted and not released) describes a ledger posting: it is
 * not a counter, and maintenance never changes it.
 */

const paid = sql.raw(PAID_STATES.join(', '));
const payoutEndedUnpaid = sql.raw([PAYOUT_STATE.cancelled, PAYOUT_STATE.rejected].join(', '));

/** The platform day of a timestamp column, as SQL (the writers' `formatPlatformTime(...).slice(0, 10)`). */
const dayOf = (column: SQL, timeZone: string) => sql`to_char(${column} at time zone ${timeZone}, 'YYYY-MM-DD')`;
/** The instant the platform day `day` begins. */
const startOf = (day: string, timeZone: string) => sql`(${day}::timestamp at time zone ${timeZone})`;

/** What rule 1 makes `resource_daily` from `fromDay` on: (resource_id, day, count, amount). */
function expectedResourceDaily(fromDay: string, timeZone: string): SQL {
  return sql`
    select o.resource_id, ${dayOf(sql`o.paid_at`, timeZone)} as day, count(*)::int as count, sum(o.amount)::bigint as amount
      from orders o
     where o.resource_id is not null and o.state in (${paid}) and o.paid_at >= ${startOf(fromDay, timeZone)}
     group by 1, 2`;
}

/** What rule 2 makes `party_daily` (plus its deltas) from `fromDay` on: (user_id, product_id, day, count, amount). */
function expectedPartyDaily(fromDay: string, timeZone: string): SQL {
  const since = startOf(fromDay, timeZone);
  return sql`
    select x.user_id, x.product_id, x.day, count(*)::int as count, sum(x.amount)::bigint as amount
      from (select o.merchant_user_id as user_id, o.product_id, ${dayOf(sql`o.paid_at`, timeZone)} as day, o.amount
              from orders o
             where o.state in (${paid}) and o.paid_at >= ${since}
            union all
            select o.supplier_user_id, o.product_id, ${dayOf(sql`o.paid_at`, timeZone)}, o.amount
              from orders o
             where o.supplier_user_id is not null and o.state in (${paid}) and o.paid_at >= ${since}
            union all
            select p.merchant_user_id, p.product_id, ${dayOf(sql`p.created_at`, timeZone)}, p.amount
              from payouts p
             where p.state not in (${payoutEndedUnpaid}) and p.created_at >= ${since}) x
     group by 1, 2, 3`;
}

/** One compared row: its key, what is stored, what the rule makes it. */
interface DiffRow {
  resource_id?: number | null;
  resource_name?: string | null;
  user_id?: number | null;
  account?: string | null;
  product_id?: number | null;
  day: string;
  count_before: number | string;
  count_after: number | string;
  amount_before: number | string;
  amount_after: number | string;
  checked: number | string;
  changed: number | string;
}

export interface CounterDiff {
  checked: number;
  changed: number;
  /** The first `MAINTENANCE_REPORT_ROWS` changed rows, by day. */
  changes: CounterChange[];
}

/**
 * Compares `resource_daily` from `fromDay` on with rule 1 and, with `write`, corrects every row that
 * differs, in one statement (so in one snapshot: a payment committed before it is seen in both the
 * orders and the row, one after it in neither). The correction adds the difference (`count + diff`)
 * rather than setting the value, so a payment that commits meanwhile and updates the same row keeps
 * its own addition. A row that should not exist is set to 0 (readers take a missing row as 0).
 */
export async function diffResourceDaily(
  db: DbOrTx,
  opts: { fromDay: string; timeZone: string; write: boolean },
): Promise<CounterDiff> {
  const writes = opts.write
    ? sql`, w as (
        insert into resource_daily (resource_id, day, count, amount)
        select resource_id, day, count_after - count_before, amount_after - amount_before from d
        on conflict (resource_id, day)
        do update set count = resource_daily.count + excluded.count, amount = resource_daily.amount + excluded.amount)`
    : sql``;
  const rows = rowsOf<DiffRow>(
    await db.execute(sql`
      with e as (${expectedResourceDaily(opts.fromDay, opts.timeZone)}),
      s as (select resource_id, day, count, amount from resource_daily where day >= ${opts.fromDay}),
      c as (
        select coalesce(e.resource_id, s.resource_id) as resource_id, coalesce(e.day, s.day) as day,
               coalesce(s.count, 0) as count_before, coalesce(s.amount, 0)::bigint as amount_before,
               coalesce(e.count, 0) as count_after, coalesce(e.amount, 0)::bigint as amount_after
          from e full join s on s.resource_id = e.resource_id and s.day = e.day),
      d as (select * from c where count_before <> count_after or amount_before <> amount_after)
      ${writes}
      select d.*, r.name as resource_name, r.product_id,
             (select count(*) from c)::int as checked, (select count(*) from d)::int as changed
        from d left join resources r on r.id = d.resource_id
       order by d.day, d.resource_id
       limit ${MAINTENANCE_REPORT_ROWS}`),
  );
  // No row changed: the counts still come from a row of the totals.
  const totals = rows.length > 0 ? rows[0]! : await countOnly(db, 'resource_daily', opts);
  return {
    checked: Number(totals.checked),
    changed: Number(totals.changed),
    changes: rows.map((r) => change('resource_daily', r)),
  };
}

/**
 * Compares `party_daily` plus its unfolded deltas from `fromDay` on with rule 2 and, with `write`,
 * corrects each differing total by adding the difference to its `party_daily` row (the deltas stay
 * for the folder), in one statement, as `diffResourceDaily` does.
 */
export async function diffPartyDaily(
  db: DbOrTx,
  opts: { fromDay: string; timeZone: string; write: boolean },
): Promise<CounterDiff> {
  const writes = opts.write
    ? sql`, w as (
        insert into party_daily (user_id, product_id, day, count, amount)
        select user_id, product_id, day, count_after - count_before, amount_after - amount_before from d
        on conflict (user_id, product_id, day)
        do update set count = party_daily.count + excluded.count, amount = party_daily.amount + excluded.amount)`
    : sql``;
  const rows = rowsOf<DiffRow>(
    await db.execute(sql`
      with e as (${expectedPartyDaily(opts.fromDay, opts.timeZone)}),
      s as (
        select user_id, product_id, day, sum(count)::int as count, sum(amount)::bigint as amount
          from (select user_id, product_id, day, count, amount from party_daily where day >= ${opts.fromDay}
                union all
                select user_id, product_id, day, count, amount from party_daily_deltas where day >= ${opts.fromDay}) k
         group by 1, 2, 3),
      c as (
        select coalesce(e.user_id, s.user_id) as user_id, coalesce(e.product_id, s.product_id) as product_id,
               coalesce(e.day, s.day) as day,
               coalesce(s.count, 0) as count_before, coalesce(s.amount, 0)::bigint as amount_before,
               coalesce(e.count, 0) as count_after, coalesce(e.amount, 0)::bigint as amount_after
          from e full join s on s.user_id = e.user_id and s.product_id = e.product_id and s.day = e.day),
      d as (select * from c where count_before <> count_after or amount_before <> amount_after)
      ${writes}
      select d.*, u.account, (select count(*) from c)::int as checked, (select count(*) from d)::int as changed
        from d left join users u on u.id = d.user_id
       order by d.day, d.user_id, d.product_id
       limit ${MAINTENANCE_REPORT_ROWS}`),
  );
  const totals = rows.length > 0 ? rows[0]! : await countOnly(db, 'party_daily', opts);
  return {
    checked: Number(totals.checked),
    changed: Number(totals.changed),
    changes: rows.map((r) => change('party_daily', r)),
  };
}

/** When nothing differs: how many rows were compared (every stored or expected key). */
async function countOnly(db: DbOrTx, table: DerivedTable, opts: { fromDay: string; timeZone: string }) {
  const query =
    table === 'resource_daily'
      ? sql`select count(*)::int as checked, 0 as changed from (
            select resource_id, day from (${expectedResourceDaily(opts.fromDay, opts.timeZone)}) e
            union
            select resource_id, day from resource_daily where day >= ${opts.fromDay}) k`
      : sql`select count(*)::int as checked, 0 as changed from (
            select user_id, product_id, day from (${expectedPartyDaily(opts.fromDay, opts.timeZone)}) e
            union
            select user_id, product_id, day from party_daily where day >= ${opts.fromDay}
            union
            select user_id, product_id, day from party_daily_deltas where day >= ${opts.fromDay}) k`;
  const [row] = rowsOf<{ checked: number | string; changed: number | string }>(await db.execute(query));
  return row ?? { checked: 0, changed: 0 };
}

function change(table: DerivedTable, r: DiffRow): CounterChange {
  const id = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    table,
    day: r.day,
    resourceId: id(r.resource_id),
    resourceName: r.resource_name ?? null,
    userId: id(r.user_id),
    account: r.account ?? null,
    productId: id(r.product_id),
    countBefore: Number(r.count_before),
    countAfter: Number(r.count_after),
    amountBefore: Number(r.amount_before),
    amountAfter: Number(r.amount_after),
  };
}
