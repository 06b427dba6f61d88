import { statement } from '../../db/raw-rows.js';
import { commissionRatesSql } from '../suppliers/suppliers.service.js';

/**
 * The order engine's hot statements (the create and the allocation's end), written once as SQL with
 * named parameters and prepared (see `statement`): on the create path, building them with drizzle
 * cost more of the server's CPU than running them. `OrdersService` owns the transactions they run in.
 */

/**
 * What a merchant or supplier was paid on a day, as SQL (a bigint, 0 when nothing): the folded total
 * (`pd`, `party_daily` left-joined on the same key) plus the deltas not folded yet. Read in one
 * statement, so in one snapshot: a fold (which moves deltas into the total and deletes them in one
 * transaction) is seen entirely or not at all, and the sum is exactly what the committed payments added.
 */
export const paidOnDaySql = (userId: string, productId: string, day: string) =>
  `(coalesce(pd.amount, 0) + coalesce((select sum(dd.amount) from party_daily_deltas dd
      where dd.user_id = ${userId} and dd.product_id = ${productId} and dd.day = ${day}), 0))::bigint`;

/** The facts a create checks of a merchant's product (the columns of `CreateChecksRow`), joined to `m`. */
const checksOf = (v: { productId: string; today: string }, merchantWhere: string, extra = '') => `
    select m.enabled as merchant_enabled, m.user_id as merchant_user_id,
           p.enabled as product_enabled, p.min_amount as product_min_amount, p.max_amount as product_max_amount,
           pp.enabled as party_enabled, pp.min_amount, pp.max_amount, pp.kyc_lower_limit, pp.fee_rate,
           pp.per_transaction_fee, pp.daily_limit, ${paidOnDaySql('m.user_id', v.productId, v.today)} as paid_today${extra}
      from merchants m
      left join products p on p.id = ${v.productId}
      left join party_products pp on pp.user_id = m.user_id and pp.product_id = ${v.productId}
      left join party_daily pd on pd.user_id = m.user_id and pd.product_id = ${v.productId} and pd.day = ${v.today}
     where ${merchantWhere}`;

/** What a create checks of the merchant, the product and the merchant's settings of it, in one read. */
export const CREATE_CHECKS = statement<'merchantId' | 'productId' | 'today'>((v) =>
  checksOf(v, `m.id = ${v.merchantId}`),
);

/**
 * The signed API's one read before its create, for the calls that arrived together (pairs by
 * position; `i` counts from 1, a merchant number no merchant has answers no row): the merchant by its
 * number with its whole row (`pd_merchant`: the secret and settings the signature is checked with)
 * and `CREATE_CHECKS`' facts.
 */
export const SIGNED_CREATE_CHECKS = statement<'merchantNos' | 'productIds' | 'today'>(
  (v) => `
    select x.i, c.*
      from unnest(${v.merchantNos}::text[], ${v.productIds}::int[]) with ordinality as x(merchant_no, product_id, i)
     cross join lateral (${checksOf(
       { productId: 'x.product_id', today: v.today },
       'm.merchant_no = x.merchant_no',
       ', row_to_json(m) as pd_merchant',
     )}) as c`,
);
type Bigint = string | number | null;
export interface CreateChecksRow {
  merchant_enabled: boolean;
  merchant_user_id: number;
  product_enabled: boolean | null;
  product_min_amount: Bigint;
  product_max_amount: Bigint;
  party_enabled: boolean | null;
  min_amount: Bigint;
  max_amount: Bigint;
  kyc_lower_limit: Bigint;
  fee_rate: number;
  per_transaction_fee: Bigint;
  daily_limit: Bigint;
  paid_today: Bigint;
}
export const numberOrNull = (v: Bigint) => (v === null ? null : Number(v));

/** The advisory lock (two-key form: this, the merchant's user id) of a merchant's strict daily limits. */
export const MERCHANT_LIMIT_LOCK = 7_270_721;

/**
 * Takes the strict daily limits' locks of these merchants (`userIds` sorted and distinct, so two
 * batches take them in the same order), held to the transaction's end. A statement of its own: the
 * reads after it see what the previous holder committed.
 */
export const LOCK_MERCHANT_LIMITS = statement<'lock' | 'userIds'>(
  (v) => `select count(pg_advisory_xact_lock(${v.lock}::int, x.user_id)) as n
            from unnest(${v.userIds}::int[]) as x(user_id)`,
);

/**
 * What the strict daily limit counts of each merchant product (pairs by position): paid on the day
 * (`paidOnDaySql`) plus the amounts of the open orders (created or allocated, whenever created: if
 * paid now, they are paid today), in one statement, so in one snapshot. `orders_merchant_open_idx`
 * finds the open orders.
 */
export const STRICT_DAY_TOTALS = statement<'userIds' | 'productIds' | 'today'>(
  (v) => `
    select x.user_id, x.product_id,
           (${paidOnDaySql('x.user_id', 'x.product_id', v.today)}
            + coalesce((select sum(o.amount) from orders o
                         where o.merchant_user_id = x.user_id and o.product_id = x.product_id
                           and o.state in (0, 1)), 0))::bigint as total
      from unnest(${v.userIds}::int[], ${v.productIds}::int[]) as x(user_id, product_id)
      left join party_daily pd on pd.user_id = x.user_id and pd.product_id = x.product_id and pd.day = ${v.today}`,
);

/** The orders a merchant already created under these mchOrderNos (pairs by position). */
export const EXISTING_ORDERS = statement<'merchantIds' | 'orderNos'>(
  (v) => `
    select o.* from unnest(${v.merchantIds}::int[], ${v.orderNos}::text[]) as x(merchant_id, merchant_order_no)
      join orders o on o.merchant_id = x.merchant_id and o.merchant_order_no = x.merchant_order_no`,
);

/** The columns a new order is written with (allocated or not): the keys of `INSERT_ORDERS`' rows. */
const NEW_ORDER_COLUMNS = [
  'order_code',
  'merchant_id',
  'merchant_user_id',
  'merchant_order_no',
  'request_hash',
  'product_id',
  'amount',
  'api_amount',
  'fee',
  'state',
  'supplier_id',
  'supplier_user_id',
  'is_proxy',
  'resource_id',
  'allocation_no',
  'hold_open',
  'usdt_count',
  'usdt_address',
  'user_name',
  'card_number',
  'ifsc_code',
  'bank_name',
  'vpa',
  'mode',
  'address',
  'client_ip',
  'subject',
  'body',
  'extra',
  'notify_url',
  'return_url',
  'created_at',
  'allocated_at',
  'expires_at',
  'updated_at',
] as const;
export type NewOrderRow = Record<(typeof NEW_ORDER_COLUMNS)[number], string | number | boolean | null>;

/**
 * A batch of new orders, already allocated (or failed), in one statement: the orders (each written
 * once, in its final state), their allocation records and events (found by order code), and the
 * accounts' last use. Rows are JSON arrays of records, so the statement's text is the same for any
 * batch size. An order whose mchOrderNo the merchant used before is not written, nor are its records.
 */
export const INSERT_ORDERS = statement<'orders' | 'allocations' | 'events' | 'now'>(
  (v) => `
    with o as (
      insert into orders (${NEW_ORDER_COLUMNS.join(', ')})
      select ${NEW_ORDER_COLUMNS.map((c) => `x.${c}`).join(', ')}
        from json_populate_recordset(null::orders, ${v.orders}::json) as x
      on conflict (merchant_id, merchant_order_no) do nothing
      returning *),
    a as (
      insert into order_allocations (order_id, chosen_resource_id, candidates, created_at)
      select o.id, y.chosen_resource_id, y.candidates, y.created_at
        from json_to_recordset(${v.allocations}::json)
             as y(order_code text, chosen_resource_id int, candidates jsonb, created_at timestamptz)
        join o on o.order_code = y.order_code),
    e as (
      insert into order_events (order_id, kind, from_state, to_state, actor_user_id, actor_account, note,
                                note_template, created_at)
      select o.id, z.kind, z.from_state, z.to_state, z.actor_user_id, z.actor_account, z.note, z.note_template,
             z.created_at
        from json_to_recordset(${v.events}::json)
             as z(order_code text, kind text, from_state int, to_state int, actor_user_id int, actor_account text,
                  note text, note_template jsonb, created_at timestamptz, ord int)
        join o on o.order_code = z.order_code
       order by z.ord),
    r as (update resources set last_allocated_at = ${v.now} where id in (select resource_id from o))
    select * from o`,
);

/** Where an allocation puts an order (see `finishAllocation`). */
export interface AllocationTarget {
  resourceId: number;
  supplierId: number;
  supplierUserId: number;
  isProxy: boolean;
  allocationNo: number;
  holdOpen: boolean;
  usdtCount: number | null;
  expiresAt: Date;
}

type FinishParam =
  | 'orderId'
  | 'chosenResourceId'
  | 'candidates'
  | 'now'
  | 'eventKinds'
  | 'eventFrom'
  | 'eventTo'
  | 'eventActorIds'
  | 'eventActors'
  | 'eventNotes'
  | 'eventTemplates'
  | 'eventTimes'
  | 'state';

/** The allocation record and the order's events (in order): the first part of both statements below. */
const allocationRecords = (v: Record<FinishParam, string>) => `
    a as (insert into order_allocations (order_id, chosen_resource_id, candidates, created_at)
          values (${v.orderId}, ${v.chosenResourceId}, ${v.candidates}::jsonb, ${v.now})),
    e as (insert into order_events (order_id, kind, from_state, to_state, actor_user_id, actor_account, note,
                                    note_template, created_at)
          select ${v.orderId}, x.kind, x.from_state, x.to_state, x.actor_user_id, x.actor_account, x.note,
                 x.note_template, x.created_at
            from unnest(${v.eventKinds}::text[], ${v.eventFrom}::int[], ${v.eventTo}::int[], ${v.eventActorIds}::int[],
                        ${v.eventActors}::text[], ${v.eventNotes}::text[], ${v.eventTemplates}::jsonb[],
                        ${v.eventTimes}::timestamptz[])
                 with ordinality as x(kind, from_state, to_state, actor_user_id, actor_account, note, note_template,
                                      created_at, ord)
           order by x.ord)`;

/**
 * An allocation that found an account: the records, the account's last use (answering its public
 * fields, and the wallet's address for a floating USDT order) and the order's new state.
 */
export const FINISH_ALLOCATION = statement<
  | FinishParam
  | 'resourceId'
  | 'supplierId'
  | 'supplierUserId'
  | 'isProxy'
  | 'allocationNo'
  | 'holdOpen'
  | 'usdtCount'
  | 'expiresAt'
>(
  (v) => `
    with ${allocationRecords(v)},
    r as (update resources set last_allocated_at = ${v.now} where id = ${v.resourceId}
          returning kind, details, qr_image_id),
    o as (update orders
             set state = ${v.state}, resource_id = ${v.resourceId}, supplier_id = ${v.supplierId},
                 supplier_user_id = ${v.supplierUserId}, is_proxy = ${v.isProxy}, allocation_no = ${v.allocationNo},
                 hold_open = ${v.holdOpen}, usdt_count = ${v.usdtCount}::bigint,
                 usdt_address = case when ${v.usdtCount}::bigint is null then null else (select details->>'address' from r) end,
                 allocated_at = ${v.now}, expires_at = ${v.expiresAt}, updated_at = ${v.now}
           where id = ${v.orderId}
          returning *)
    select o.*, r.kind as r_kind, r.details as r_details, r.qr_image_id as r_qr_image_id from o, r`,
);

/** An allocation that found no account: the records and the order's state, away from any account. */
export const FINISH_ALLOCATION_FAILED = statement<FinishParam>(
  (v) => `
    with ${allocationRecords(v)},
    o as (update orders
             set state = ${v.state}, resource_id = null, supplier_id = null, supplier_user_id = null, is_proxy = false,
                 usdt_count = null, usdt_address = null, expires_at = null, updated_at = ${v.now}
           where id = ${v.orderId}
          returning *)
    select * from o`,
);

/**
 * An action's lock of its order, which answers the order's row and, for a payment, its supplier's
 * commission rates (`c_*`, `commissionRatesSql`; none without a supplier): a payment needs both, and
 * reading them together saves it a round trip inside the transaction.
 */
export const LOCK_ORDER = statement<'orderId'>(
  (v) => `
    select o.*, c.supplier_id as c_supplier_id, c.rate as c_rate, c.parent_id as c_parent_id,
           c.parent_rate as c_parent_rate
      from orders o
      left join lateral (${commissionRatesSql('o.supplier_id', 'o.product_id')}) c on true
     where o.id = ${v.orderId}::bigint
       for update of o`,
);

type DailyParam = 'resourceId' | 'userIds' | 'productId' | 'day' | 'count' | 'amount';

/**
 * What the resource, the merchant and the supplier processed on a day: count and amount added (a
 * payment) or taken back (a reversal). The resource's row is updated in place (one account's orders
 * are few at a time); the merchant's and the supplier's totals, which all their payments share, get
 * a delta row each (an insert that waits for nobody), folded into `party_daily` later (`FOLD_DAILY`).
 * Two data-modifying WITH items; every write of the daily totals is one of these.
 */
const dailyWrites = (v: Record<DailyParam, string>) => `
    daily_r as (
      insert into resource_daily (resource_id, day, count, amount)
      select ${v.resourceId}::int, ${v.day}::text, ${v.count}::int, ${v.amount}::bigint
       where ${v.resourceId}::int is not null
      on conflict (resource_id, day)
      do update set count = resource_daily.count + excluded.count, amount = resource_daily.amount + excluded.amount),
    daily_p as (
      insert into party_daily_deltas (user_id, product_id, day, count, amount)
      select x.user_id, ${v.productId}::int, ${v.day}::text, ${v.count}::int, ${v.amount}::bigint
        from unnest(${v.userIds}::int[]) as x(user_id))`;

/**
 * A payment's write of the (locked) order, with its 'paid' timeline row: paid, the hold closed, how it
 * was paid; and the day's totals of the order's resource and parties (one order, its amount). The
 * order's UTR is unique (orders_utr_uq): a UTR that confirmed another order fails it.
 */
export const PAY_ORDER = statement<
  | 'orderId'
  | 'fromState'
  | 'toState'
  | 'commission'
  | 'paidFromHold'
  | 'supplementType'
  | 'utr'
  | 'actorUserId'
  | 'actorAccount'
  | 'note'
  | 'noteTemplate'
  | 'now'
  | Exclude<DailyParam, 'count'>
>(
  (v) => `
    with o as (
           update orders
              set state = ${v.toState}::int, commission = ${v.commission}, hold_open = false,
                  paid_from_hold = ${v.paidFromHold}, supplemented = ${v.supplementType}::int is not null,
                  supplement_type = ${v.supplementType}, utr = ${v.utr}, paid_at = ${v.now}::timestamptz,
                  updated_at = ${v.now}
            where id = ${v.orderId}::bigint
           returning *),
         e as (
           insert into order_events (order_id, kind, from_state, to_state, actor_user_id, actor_account, note,
                                     note_template, created_at)
           select o.id, 'paid', ${v.fromState}::int, ${v.toState}, ${v.actorUserId}::int, ${v.actorAccount}::text,
                  ${v.note}::text, ${v.noteTemplate}::jsonb, ${v.now}
             from o),
         ${dailyWrites({ resourceId: v.resourceId, userIds: v.userIds, productId: v.productId, day: v.day, amount: v.amount, count: '1' })}
    select * from o`,
);

/** The day's totals alone (`dailyWrites`): a reversal takes its order back out of them (count -1). */
export const ADD_DAILY = statement<DailyParam>(
  (v) => `
    with ${dailyWrites(v)}
    select 1`,
);

/**
 * Folds up to `batch` committed deltas (oldest first) into `party_daily`: deletes them and adds their
 * sums to the totals, in one statement, so the totals plus the deltas stay the same at every commit.
 * Deltas of transactions not committed yet are not seen and wait for a later fold. Answers the number
 * of deltas folded. Only one folder runs at a time (`foldDaily` takes a lock for it).
 */
export const FOLD_DAILY = statement<'batch'>(
  (v) => `
    with moved as (
           delete from party_daily_deltas
            where id in (select id from party_daily_deltas order by id limit ${v.batch}::int)
           returning user_id, product_id, day, count, amount),
         folded as (
           insert into party_daily (user_id, product_id, day, count, amount)
           select user_id, product_id, day, sum(count)::int, sum(amount)::bigint
             from moved
            group by user_id, product_id, day
            order by user_id, product_id, day
           on conflict (user_id, product_id, day)
           do update set count = party_daily.count + excluded.count, amount = party_daily.amount + excluded.amount)
    select count(*)::int as n from moved`,
);

/**
 * An order's state moved by compare-and-set from `fromState` (a row in another state is left alone:
 * no row answered), with its timeline row, in one statement. Answers the moved order.
 */
export const MOVE_STATE = statement<
  'orderId' | 'fromState' | 'toState' | 'kind' | 'actorUserId' | 'actorAccount' | 'note' | 'noteTemplate' | 'now'
>(
  (v) => `
    with u as (
           update orders set state = ${v.toState}::int, updated_at = ${v.now}::timestamptz
            where id = ${v.orderId}::bigint and state = ${v.fromState}::int
           returning *),
         e as (
           insert into order_events (order_id, kind, from_state, to_state, actor_user_id, actor_account, note,
                                     note_template, created_at)
           select u.id, ${v.kind}, ${v.fromState}::int, u.state, ${v.actorUserId}::int, ${v.actorAccount}, ${v.note},
                  ${v.noteTemplate}::jsonb, ${v.now}::timestamptz
             from u)
    select * from u`,
);

/**
 * MOVE_STATE for many orders in one statement (the callbacks' outcomes of a batch): each order moved
 * by compare-and-set from its `from_state` to its `to_state`, with its timeline row (no actor). Answers
 * the moved orders.
 */
export const MOVE_STATES = statement<'changes' | 'now'>(
  (v) => `
    with x as (
           select * from jsonb_to_recordset(${v.changes}::jsonb) as x(
             order_id bigint, from_state int, to_state int, kind text, note text, note_template jsonb)),
         u as (
           update orders o set state = x.to_state, updated_at = ${v.now}::timestamptz
             from x
            where o.id = x.order_id and o.state = x.from_state
           returning o.*, x.from_state as pd_from_state, x.kind as pd_kind, x.note as pd_note,
                     x.note_template as pd_note_template),
         e as (
           insert into order_events (order_id, kind, from_state, to_state, actor_user_id, actor_account, note,
                                     note_template, created_at)
           select u.id, u.pd_kind, u.pd_from_state, u.state, null, null, u.pd_note, u.pd_note_template,
                  ${v.now}::timestamptz
             from u)
    select * from u`,
);
