import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { rowsOf, statement } from '../../db/raw-rows.js';

/**
 * Allocation (DESIGN section 6): among the product's resources, the enabled ones of an enabled
 * supplier (and enabled parent) switched on for the product, whose available balance covers the
 * amount, within the resource's and the supplier's limits, with no open order of the same amount on
 * that account, the least recently used wins. Every candidate is returned with why it can or cannot
 * take the order, so getOrderAllocateInfo can explain the choice.
 */

/** Why a resource could not take the order; 'eligible' when it could. */
export type CandidateOutcome =
  | 'eligible'
  | 'chosen'
  | 'resourceDisabled'
  | 'supplierDisabled'
  | 'parentDisabled'
  | 'supplierProductOff'
  | 'balanceShort'
  | 'belowMinAmount'
  | 'aboveMaxAmount'
  | 'dailyAmountLimit'
  | 'dailyCountLimit'
  | 'supplierDailyLimit'
  | 'sameAmountOpen'
  | 'busy'
  | 'supplierBusy'
  | 'noFloatingAmount';

export interface Candidate {
  resourceId: number;
  resourceName: string;
  supplierId: number;
  supplierName: string;
  supplierUserId: number;
  isProxy: boolean;
  outcome: CandidateOutcome;
  /** Locked by this transaction already (the first free eligible account, see `candidatesFor`). */
  locked?: boolean;
}

/** Most candidates examined and recorded per allocation. */
export const MAX_CANDIDATES = 50;

interface CandidateRow {
  resource_id: number;
  resource_name: string;
  supplier_id: number;
  supplier_name: string;
  supplier_user_id: number;
  is_proxy: boolean;
  outcome: CandidateOutcome;
  locked: boolean | null;
}

/**
 * The candidates statement (see `candidatesFor`). The supplier-level facts (enabled, parent, product
 * settings, balance, today's volume) are read once per supplier ('sup'), not once per account, and
 * each account's outcome is computed once ('c', materialized, as the ranking reads it twice): this is
 * the create's costliest statement, and a product has many accounts per supplier.
 */
const CANDIDATES = statement<'orderId' | 'productId' | 'amount' | 'today' | 'floating' | 'avoidResourceId'>(
  (v) => `
    with sup as materialized (
      select s.id, s.name, s.user_id, s.parent_id is not null as is_proxy, s.enabled,
             p.id is not null and not p.enabled as parent_disabled,
             coalesce(pp.enabled, false) as product_on, pp.min_amount, pp.max_amount, pp.daily_limit,
             coalesce(la.balance, 0) as balance, coalesce(pd.amount, 0) as paid_today
        from suppliers s
        left join suppliers p on p.id = s.parent_id
        left join party_products pp on pp.user_id = s.user_id and pp.product_id = ${v.productId}
        left join ledger_accounts la on la.code = 'supplier:' || s.id || ':available'
        left join party_daily pd on pd.user_id = s.user_id and pd.product_id = ${v.productId} and pd.day = ${v.today}
       where s.id in (select supplier_id from resources where product_id = ${v.productId} and deleted_at is null)
    ), c as materialized (
      select r.id as resource_id, r.name as resource_name, s.id as supplier_id, s.name as supplier_name,
             s.user_id as supplier_user_id, s.is_proxy, r.last_allocated_at,
             case
               when r.state <> 0 then 'resourceDisabled'
               when not s.enabled then 'supplierDisabled'
               when s.parent_disabled then 'parentDisabled'
               when not s.product_on then 'supplierProductOff'
               when s.balance < ${v.amount} then 'balanceShort'
               when ${v.amount} < greatest(coalesce(r.min_amount, 0), coalesce(s.min_amount, 0)) then 'belowMinAmount'
               when ${v.amount} > least(coalesce(r.max_amount, ${v.amount}), coalesce(s.max_amount, ${v.amount})) then 'aboveMaxAmount'
               when r.daily_amount_limit is not null and coalesce(rd.amount, 0) + ${v.amount} > r.daily_amount_limit
                 then 'dailyAmountLimit'
               when r.daily_count_limit is not null and coalesce(rd.count, 0) + 1 > r.daily_count_limit
                 then 'dailyCountLimit'
               when s.daily_limit is not null and s.paid_today + ${v.amount} > s.daily_limit
                 then 'supplierDailyLimit'
               when not ${v.floating} and exists (
                 select 1 from orders o where o.resource_id = r.id and o.amount = ${v.amount} and o.state = 1
                   and o.usdt_count is null and o.id <> ${v.orderId}
               ) then 'sameAmountOpen'
               else 'eligible'
             end as outcome
        from resources r
        join sup s on s.id = r.supplier_id
        left join resource_daily rd on rd.resource_id = r.id and rd.day = ${v.today}
       where r.product_id = ${v.productId} and r.deleted_at is null
    )
    , ranked as (
      select c.*, row_number() over (
               order by (outcome = 'eligible') desc, (resource_id = ${v.avoidResourceId}) asc,
                        last_allocated_at asc nulls first, resource_id asc) as rank
        from c
    ), top as (
      select * from ranked where rank <= ${MAX_CANDIDATES}
    ), eligible as (
      select array_agg(resource_id order by rank) as ids from top where outcome = 'eligible'
    ), first_free as (
      select r.id from eligible, resources r
        join ledger_accounts la on la.code = 'supplier:' || r.supplier_id || ':available'
       where r.id = any(eligible.ids) and r.state = 0 and la.balance >= ${v.amount}
       order by array_position(eligible.ids, r.id)
       for update of r, la skip locked
       limit 1
    )
    select resource_id, resource_name, supplier_id, supplier_name, supplier_user_id, is_proxy, outcome,
           resource_id = (select id from first_free) as locked
      from top
     order by rank
  `,
);

/**
 * The product's live resources with their outcome, eligible ones first in least-recently-used order.
 * `floating`: USDT collection; the amount need not be unique (the usdtCount is).
 */
export async function candidatesFor(
  tx: Tx,
  input: {
    orderId: number;
    productId: number;
    amount: number;
    today: string;
    floating: boolean;
    /** Reselect: this account is tried last, when no other one fits. */
    avoidResourceId: number | null;
  },
): Promise<Candidate[]> {
  const { orderId, productId, amount, today, floating, avoidResourceId } = input;
  // With the candidates, the first eligible account (in their order) whose row and supplier balance
  // no concurrent allocation or payment holds is locked, both rows, without waiting: the common case
  // is one round trip, and concurrent creates spread over accounts and suppliers instead of queueing.
  // Its open amount was checked in this statement's snapshot; the partial unique index catches the
  // rare order committed on it meanwhile (the create is then retried, see OrdersService.createFor).
  const rows = await CANDIDATES.rows<CandidateRow>(tx, {
    orderId,
    productId,
    amount,
    today,
    floating,
    avoidResourceId: avoidResourceId ?? 0,
  });
  return rows.map((r) => ({
    resourceId: Number(r.resource_id),
    resourceName: r.resource_name,
    supplierId: Number(r.supplier_id),
    supplierName: r.supplier_name,
    supplierUserId: Number(r.supplier_user_id),
    isProxy: Boolean(r.is_proxy),
    outcome: r.outcome,
    locked: r.locked === true,
  }));
}

/**
 * Pass 2 of allocation, when every fitting account was held: waits for this account's row and its
 * supplier's balance row (both, in that order, as pass 1 takes them) and answers whether both were
 * taken: false when the account was switched off or the balance no longer covers the amount.
 */
export async function lockWaiting(tx: Tx, c: { resourceId: number; supplierId: number }, amount: number) {
  const result = await tx.execute(sql`
    select r.id from resources r join ledger_accounts la on la.code = ${`supplier:${c.supplierId}:available`}
     where r.id = ${c.resourceId} and r.state = 0 and la.balance >= ${amount}
       for update of r, la`);
  return rowsOf(result).length > 0;
}

/** Whether another open order on the account has this amount (the payer's transfer would be ambiguous). */
export async function amountOpenOn(tx: Tx, resourceId: number, amount: number, orderId: number): Promise<boolean> {
  const open = await tx.execute(
    sql`select 1 from orders where resource_id = ${resourceId} and state = 1 and amount = ${amount}
          and usdt_count is null and id <> ${orderId} limit 1`,
  );
  return rowsOf(open).length > 0;
}

/** Floating USDT: the base micro-units plus the smallest offset (1..999) not open on the wallet, or null. */
export async function freeUsdtCount(
  tx: Tx,
  resourceId: number,
  amount: number,
  orderId: number,
): Promise<number | null> {
  // Collection amounts of USDT are in cents (1/100); the payer sends micro-units (1/1,000,000).
  const base = amount * 10_000;
  const result = await tx.execute(sql`
    select ${base}::bigint + k as usdt_count
      from generate_series(1, 999) as k
     where not exists (
       select 1 from orders o where o.resource_id = ${resourceId} and o.state = 1 and o.usdt_count = ${base}::bigint + k
         and o.id <> ${orderId}
     )
     order by k
     limit 1
  `);
  const [row] = rowsOf<{ usdt_count: string | number }>(result);
  return row ? Number(row.usdt_count) : null;
}
