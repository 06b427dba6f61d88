import { statement } from '../../db/raw-rows.js';

/**
 * The delivery's hot statements, written once as SQL and prepared (see `statement`): every paid order
 * is delivered once, so a delivery costs as many round trips as these. `CallbacksService` owns the
 * transactions they run in. Rows of other tables ride along as JSON (`row_to_json`), read back with
 * `tableRow`, so one statement answers what used to take three.
 */

/** What an attempt needs, unlocked: the order's columns, its callback and its merchant (`pd_callback`, `pd_merchant`). */
export const DELIVERY_OF = statement<'callbackId'>(
  (v) => `
    select o.*, row_to_json(c) as pd_callback, row_to_json(m) as pd_merchant
      from order_callbacks c
      join orders o on o.id = c.order_id
      join merchants m on m.id = o.merchant_id
     where c.id = ${v.callbackId}`,
);

/**
 * Locks the order, then its callback (the order's own actions, reverse, lock in that order too: the
 * callback's lock is taken on the joined row, after the materialized order's), and answers both.
 */
export const LOCK_DELIVERY = statement<'orderId' | 'callbackId'>(
  (v) => `
    with o as materialized (select * from orders where id = ${v.orderId} for update)
    select o.*, row_to_json(c) as pd_callback
      from o join order_callbacks c on c.id = ${v.callbackId}
       for update of c`,
);

/**
 * A delivered notification, on the locked order and callback: the attempt on record, the callback
 * succeeded, the order's other pending deliveries cancelled (the merchant has it). The order's state
 * is the orders module's to move (`moveOrderState`).
 */
export const RECORD_DELIVERED = statement<
  | 'callbackId'
  | 'orderId'
  | 'orderCode'
  | 'attemptNo'
  | 'url'
  | 'requestBody'
  | 'responseStatus'
  | 'responseBody'
  | 'durationMs'
  | 'now'
>(
  (v) => `
    with a as (
           insert into order_callback_attempts (callback_id, order_code, attempt_no, url, http_method, request_body,
                                                response_status, response_body, error, succeeded, duration_ms,
                                                created_at)
           values (${v.callbackId}::bigint, ${v.orderCode}, ${v.attemptNo}::int, ${v.url}, 'POST', ${v.requestBody},
                   ${v.responseStatus}, ${v.responseBody}, null, true, ${v.durationMs}, ${v.now}::timestamptz)),
         c as (
           update order_callbacks
              set state = case when id = ${v.callbackId} then 'succeeded' else 'cancelled' end,
                  attempts = case when id = ${v.callbackId} then ${v.attemptNo}::int else attempts end,
                  next_attempt_at = null, updated_at = ${v.now}
            where id = ${v.callbackId} or (order_id = ${v.orderId} and state = 'pending')
           returning id)
    select count(*)::int as n from c`,
);
