import { statement } from '../../db/raw-rows.js';

/**
 * The delivery's hot statements, written once as SQL and prepared (see `statement`): every paid order
 * is delivered once, so a delivery costs as many round trips as these. `CallbacksService` owns the
 * transactions they run in. Rows of other tables ride along as JSON (`row_to_json`), read back with
 * `tableRow`, so one statement answers what used to take three.
 */

/**
 * What an attempt needs, unlocked: a collection order's columns (null for a payout's callback), the
 * payout (`pd_payout`, null for a collection order's), the callback and the merchant (`pd_callback`,
 * `pd_merchant`).
 */
export const DELIVERY_OF = statement<'callbackId'>(
  (v) => `
    select o.*, row_to_json(p) as pd_payout, row_to_json(c) as pd_callback, row_to_json(m) as pd_merchant
      from order_callbacks c
      left join orders o on o.id = c.order_id
      left join payouts p on p.id = c.payout_id
      join merchants m on m.id = coalesce(o.merchant_id, p.merchant_id)
     where c.id = ${v.callbackId}`,
);

/**
 * The outbox's claim (callbacks/dispatcher.ts): up to `limit` due attempts, at most one per order and none
 * of an order whose other callback is claimed (one delivery in flight per order: a collection order by
 * `order_id`, a payout by `payout_id`; each check finds nothing at once for the other kind, whose column
 * is null), each claimed for `leaseMs` by `claimedBy`. Rows another transaction holds are skipped (FOR
 * UPDATE SKIP LOCKED); claims run one at a time across processes (the caller holds CLAIM_LOCK), so the
 * check of claims in flight sees every other claim. Answers what an attempt needs, as DELIVERY_OF does
 * (the callback as claimed).
 */
export const CLAIM_DUE = statement<'limit' | 'scan' | 'leaseMs' | 'claimedBy'>(
  (v) => `
    with due as (
           select c.id, c.order_id, c.payout_id, c.due_at
             from order_callbacks c
            where c.state = 'pending' and c.deleted_at is null and c.due_at <= statement_timestamp()
              and not exists (select 1 from order_callbacks h
                               where h.order_id = c.order_id and h.state = 'pending'
                                 and h.claimed_until > statement_timestamp())
              and not exists (select 1 from order_callbacks h
                               where h.payout_id = c.payout_id and h.state = 'pending'
                                 and h.claimed_until > statement_timestamp())
            order by c.due_at, c.id
            limit ${v.scan}::int
              for update of c skip locked),
         one as (select distinct on (order_id, payout_id) id, due_at from due order by order_id, payout_id, due_at, id),
         chosen as (select id from one order by due_at, id limit ${v.limit}::int),
         c as (
           update order_callbacks u
              set claimed_until = statement_timestamp() + ${v.leaseMs}::int * interval '1 millisecond',
                  claimed_by = ${v.claimedBy}
             from chosen
            where u.id = chosen.id
           returning u.*)
    select o.*, row_to_json(p) as pd_payout, row_to_json(c) as pd_callback, row_to_json(m) as pd_merchant
      from c
      left join orders o on o.id = c.order_id
      left join payouts p on p.id = c.payout_id
      join merchants m on m.id = coalesce(o.merchant_id, p.merchant_id)`,
);

/** The advisory lock claims take for their transaction: one claim at a time across every process. */
export const CLAIM_LOCK = statement<'key'>((v) => `select pg_advisory_xact_lock(${v.key}::bigint)`);

/** Gives claims back (a dispatcher stopping with attempts unmade): the attempts are due again at once. */
export const RELEASE_CLAIMS = statement<'ids' | 'claimedBy'>(
  (v) => `
    update order_callbacks
       set claimed_until = null, claimed_by = null
     where id in (select value::bigint from jsonb_array_elements_text(${v.ids}::jsonb))
       and claimed_by = ${v.claimedBy}
    returning id`,
);

/**
 * Locks the orders of a batch of attempts, in id order (every other writer of an order's callbacks
 * locks the order first: its payment, replay, reverse), and answers them.
 */
export const LOCK_ORDERS = statement<'ids'>(
  (v) => `
    select * from orders
     where id in (select value::bigint from jsonb_array_elements_text(${v.ids}::jsonb))
     order by id
       for update`,
);

/**
 * Locks the payouts of a batch of attempts, in id order, after its orders (LOCK_ORDERS): every other
 * writer of a payout's callbacks (its final transition, replay) locks the payout first. Run only when the
 * batch has payouts' callbacks, so a batch of collection orders costs no more.
 */
export const LOCK_PAYOUTS = statement<'ids'>(
  (v) => `
    select id from payouts
     where id in (select value::bigint from jsonb_array_elements_text(${v.ids}::jsonb))
     order by id
       for update`,
);

/**
 * The outcomes of a batch of attempts, on their locked orders and payouts, in one statement: every attempt on
 * record; a callback still waiting for exactly that attempt takes its outcome (succeeded; pending
 * again, due `delay_ms` from now; failed when none is left), and a success cancels the order's other
 * pending callbacks (the merchant has it). An attempt whose callback moved on meanwhile (cancelled by
 * a reversal, made by another dispatcher after a lapsed claim) is only on record. A success's siblings
 * (the same order's or payout's other pending callbacks) are found through `order_id` or `payout_id`
 * (their indexes), never by a scan of the outbox. Answers each callback that changed with its new state
 * (`attempted`: its own attempt, not a sibling cancelled). The orders' states are the orders module's
 * to move (`moveOrderStates`); a payout's callback moves nothing.
 */
export const RECORD_OUTCOMES = statement<'outcomes' | 'now'>(
  (v) => `
    with x as (
           select * from jsonb_to_recordset(${v.outcomes}::jsonb) as x(
             id bigint, order_id bigint, payout_id bigint, order_code text, attempt_no int, url text, request_body text,
             response_status int, response_body text, error text, succeeded boolean, duration_ms int,
             delay_ms bigint, next_attempt_at timestamptz)),
         a as (
           insert into order_callback_attempts (callback_id, order_code, attempt_no, url, http_method, request_body,
                                                response_status, response_body, error, succeeded, duration_ms,
                                                created_at)
           select id, order_code, attempt_no, url, 'POST', request_body, response_status, response_body, error,
                  succeeded, duration_ms, ${v.now}::timestamptz
             from x),
         live as (
           select x.* from x join order_callbacks c on c.id = x.id
            where c.state = 'pending' and c.attempts = x.attempt_no - 1),
         won as (select distinct order_id, payout_id from live where succeeded),
         siblings as (
           select c.id from won w join order_callbacks c on c.order_id = w.order_id where c.state = 'pending'
           union
           select c.id from won w join order_callbacks c on c.payout_id = w.payout_id where c.state = 'pending'),
         t as (
           select coalesce(l.id, s.id) as id, l.attempt_no, l.delay_ms, l.next_attempt_at,
                  case when s.id is not null then case when l.succeeded then 'succeeded' else 'cancelled' end
                       when l.delay_ms is null then 'failed'
                       else 'pending' end as state
             from live l
             full join siblings s on s.id = l.id),
         u as (
           update order_callbacks c
              set state = t.state,
                  attempts = coalesce(t.attempt_no, c.attempts),
                  next_attempt_at = case when t.state = 'pending' then t.next_attempt_at end,
                  due_at = case when t.state = 'pending'
                                then statement_timestamp() + t.delay_ms * interval '1 millisecond' end,
                  claimed_until = null, claimed_by = null, updated_at = ${v.now}::timestamptz
             from t
            where c.id = t.id
           returning c.id, c.order_id, c.payout_id, c.order_code, c.state, c.attempts,
                     t.attempt_no is not null as attempted)
    select * from u`,
);

/**
 * A paid order's notification, recorded in the payment's transaction when its merchant takes callbacks:
 * to the order's notifyUrl, else the merchant's (callback-url.ts's rule: callbacks on, an address that
 * is not empty), due at once on the database's clock. One statement where a read of the merchant's
 * settings and an insert were two; no row when there is nowhere to send it.
 */
export const SCHEDULE_CALLBACK = statement<
  'orderId' | 'merchantId' | 'orderCode' | 'merchantOrderNo' | 'notificationId' | 'orderUrl' | 'trigger' | 'now'
>(
  (v) => `
    insert into order_callbacks (order_id, order_code, merchant_order_no, notification_id, url, trigger,
                                 next_attempt_at, due_at, created_at, updated_at)
    select ${v.orderId}::bigint, ${v.orderCode}::text, ${v.merchantOrderNo}::text, ${v.notificationId}::text,
           coalesce(${v.orderUrl}::text, m.notify_url), ${v.trigger}::text,
           ${v.now}::timestamptz, statement_timestamp(), ${v.now}::timestamptz, ${v.now}::timestamptz
      from merchants m
     where m.id = ${v.merchantId}::int and m.callback_enabled and coalesce(${v.orderUrl}::text, m.notify_url) <> ''
    returning id`,
);

/**
 * A payout's notification, recorded in the transaction of its final state (completed, rejected,
 * cancelled) when its merchant takes callbacks: to the payout's notifyUrl, else the merchant's (the rule
 * of callback-url.ts and SCHEDULE_CALLBACK), due at once on the database's clock. No row when there is
 * nowhere to send it.
 */
export const SCHEDULE_PAYOUT_CALLBACK = statement<
  'payoutId' | 'merchantId' | 'orderCode' | 'merchantOrderNo' | 'notificationId' | 'payoutUrl' | 'trigger' | 'now'
>(
  (v) => `
    insert into order_callbacks (payout_id, order_code, merchant_order_no, notification_id, url, trigger,
                                 next_attempt_at, due_at, created_at, updated_at)
    select ${v.payoutId}::bigint, ${v.orderCode}::text, ${v.merchantOrderNo}::text, ${v.notificationId}::text,
           coalesce(${v.payoutUrl}::text, m.notify_url), ${v.trigger}::text,
           ${v.now}::timestamptz, statement_timestamp(), ${v.now}::timestamptz, ${v.now}::timestamptz
      from merchants m
     where m.id = ${v.merchantId}::int and m.callback_enabled and coalesce(${v.payoutUrl}::text, m.notify_url) <> ''
    returning id`,
);
