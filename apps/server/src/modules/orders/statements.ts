import { statement } from '../../db/raw-rows.js';

/**
 * The order engine's hot statements (the create and the allocation's end), written once as SQL with
 * named parameters and prepared (see `statement`): on the create path, building them with drizzle
 * cost more of the server's CPU than running them. `OrdersService` owns the transactions they run in.
 */

/** What a create checks of the merchant, the product and the merchant's settings of it, in one read. */
export const CREATE_CHECKS = statement<'merchantId' | 'productId' | 'today'>(
  (v) => `
    select m.enabled as merchant_enabled, m.user_id as merchant_user_id,
           p.enabled as product_enabled, p.min_amount as product_min_amount, p.max_amount as product_max_amount,
           pp.enabled as party_enabled, pp.min_amount, pp.max_amount, pp.kyc_lower_limit, pp.fee_rate,
           pp.per_transaction_fee, pp.daily_limit, pd.amount as paid_today
      from merchants m
      left join products p on p.id = ${v.productId}
      left join party_products pp on pp.user_id = m.user_id and pp.product_id = ${v.productId}
      left join party_daily pd on pd.user_id = m.user_id and pd.product_id = ${v.productId} and pd.day = ${v.today}
     where m.id = ${v.merchantId}`,
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

/** A new order, or nothing when the merchant already used its mchOrderNo (see `createFor`). */
export const INSERT_ORDER = statement<
  | 'orderCode'
  | 'merchantId'
  | 'merchantUserId'
  | 'merchantOrderNo'
  | 'requestHash'
  | 'productId'
  | 'amount'
  | 'apiAmount'
  | 'fee'
  | 'state'
  | 'userName'
  | 'cardNumber'
  | 'ifscCode'
  | 'bankName'
  | 'vpa'
  | 'mode'
  | 'address'
  | 'clientIp'
  | 'subject'
  | 'body'
  | 'extra'
  | 'notifyUrl'
  | 'returnUrl'
  | 'now'
>(
  (v) => `
    insert into orders (order_code, merchant_id, merchant_user_id, merchant_order_no, request_hash, product_id,
                        amount, api_amount, fee, state, user_name, card_number, ifsc_code, bank_name, vpa, mode,
                        address, client_ip, subject, body, extra, notify_url, return_url, created_at, updated_at)
    values (${v.orderCode}, ${v.merchantId}, ${v.merchantUserId}, ${v.merchantOrderNo}, ${v.requestHash},
            ${v.productId}, ${v.amount}, ${v.apiAmount}, ${v.fee}, ${v.state}, ${v.userName}, ${v.cardNumber},
            ${v.ifscCode}, ${v.bankName}, ${v.vpa}, ${v.mode}, ${v.address}, ${v.clientIp}, ${v.subject},
            ${v.body}, ${v.extra}, ${v.notifyUrl}, ${v.returnUrl}, ${v.now}, ${v.now})
    on conflict (merchant_id, merchant_order_no) do nothing
    returning *`,
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
  | 'eventTimes'
  | 'state';

/** The allocation record and the order's events (in order): the first part of both statements below. */
const allocationRecords = (v: Record<FinishParam, string>) => `
    a as (insert into order_allocations (order_id, chosen_resource_id, candidates, created_at)
          values (${v.orderId}, ${v.chosenResourceId}, ${v.candidates}::jsonb, ${v.now})),
    e as (insert into order_events (order_id, kind, from_state, to_state, actor_user_id, actor_account, note, created_at)
          select ${v.orderId}, x.kind, x.from_state, x.to_state, x.actor_user_id, x.actor_account, x.note, x.created_at
            from unnest(${v.eventKinds}::text[], ${v.eventFrom}::int[], ${v.eventTo}::int[], ${v.eventActorIds}::int[],
                        ${v.eventActors}::text[], ${v.eventNotes}::text[], ${v.eventTimes}::timestamptz[])
                 with ordinality as x(kind, from_state, to_state, actor_user_id, actor_account, note, created_at, ord)
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
