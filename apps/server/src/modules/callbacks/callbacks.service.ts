import {
  CALLBACK_READ_ROLES,
  CALLBACK_SCHEDULE_MS,
  CALLBACK_TEXTS,
  type CallbackTrigger,
  callbackDeleteRefusal,
  callbackReplayRefusal,
  note,
  ORDER_STATE,
  PAID_STATES,
  type SignType,
} from '@paydesk/contract';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { tableRow } from '../../db/raw-rows.js';
import { merchants, orderCallbacks, orders, payouts } from '../../db/schema.js';
import { type Actor, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import { notFound, refused } from '../../platform/errors.js';
import type { RealtimeHub } from '../../platform/realtime/hub.js';
import type { SettingsStore } from '../../platform/settings.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import { moveOrderStates, type OrderStateChange, recordOrderEvent } from '../orders/order-state.js';
import { publishOrderChange } from '../orders/publish.js';
import { signParams } from '../orders/signature.js';
import { recordPayoutEvent } from '../payouts/payout-core.js';
import { type Exchange, postForm } from './delivery.js';
import { payoutNotificationParams } from './payout-notification.js';
import {
  CLAIM_DUE,
  CLAIM_LOCK,
  DELIVERY_OF,
  LOCK_ORDERS,
  LOCK_PAYOUTS,
  RECORD_OUTCOMES,
  RELEASE_CLAIMS,
  SCHEDULE_CALLBACK,
} from './statements.js';

export type { CallbackTrigger };

export interface CallbacksDeps {
  db: Db;
  clock: Clock;
  merchants: MerchantsService;
  settings: SettingsStore;
  realtime?: RealtimeHub;
  /**
   * When the attempts are made, in ms after a callback was created (DESIGN section 6 by default,
   * CALLBACK_SCHEDULE_MS); tests pass milliseconds. Attempts past TimeoutCallbackTime are not made.
   */
  scheduleMs?: readonly number[] | undefined;
  /** Per-attempt HTTP timeout (10 s by default). */
  httpTimeoutMs?: number | undefined;
  /**
   * Whether notify URLs may reach loopback and private networks (the demo's and the tests' receivers
   * are local); off, they are refused before connecting (SSRF). CALLBACK_PRIVATE_NETWORKS.
   */
  privateNetworks: boolean;
}

/**
 * The pg-boss queue that carried one job per delivery attempt before the outbox (callbacks/dispatcher.ts):
 * no longer worked; the app deletes it, and whatever jobs an earlier release left in it, at start.
 */
export const RETIRED_CALLBACK_QUEUE = 'order-callback';

/** One attempt of one callback: `attemptNo` 1 is the first. */
export interface AttemptRef {
  callbackId: number;
  attemptNo: number;
}

/** What an attempt yields: the callback's result, as `deliver` answers it. */
export type AttemptResult = 'skipped' | 'cancelled' | 'succeeded' | 'retrying' | 'failed';

/** The order fields a notification needs. */
export interface NotifiableOrder {
  id: number;
  orderCode: string;
  merchantId: number;
  merchantOrderNo: string;
  notifyUrl: string | null;
}

type OrderRecord = typeof orders.$inferSelect;
type PayoutRecord = typeof payouts.$inferSelect;
type CallbackRecord = typeof orderCallbacks.$inferSelect;
type MerchantRecord = typeof merchants.$inferSelect;

/**
 * A callback whose next attempt is in hand (claimed by a dispatcher, or read for a one-off attempt), with
 * what it notifies: a collection order (`order`) or a payout (`payout`), the other null.
 */
export type DueAttempt = {
  callback: CallbackRecord;
  merchant: MerchantRecord;
  attemptNo: number;
} & ({ order: OrderRecord; payout: null } | { order: null; payout: PayoutRecord });

/** An attempt made (the exchange and what was sent), or one not made because the order is no longer paid. */
export type AttemptOutcome =
  | { due: DueAttempt; kind: 'made'; requestBody: string; exchange: Exchange }
  | { due: DueAttempt; kind: 'notPaid' };

/** The merchant deduplicates on this id: the same for every delivery of an order's payment. */
export const notificationIdOf = (orderCode: string) => `N${orderCode}`;

/**
 * The form fields of an order's notification, without `sign` (spec section 3, DESIGN section 6):
 * the order's public fields; `amount` in the product's API units as the merchant sent it; `paidTime`
 * an ISO 8601 instant (UTC); `utr` only when the order was supplemented with one; `extra` as sent.
 */
export function notificationParams(order: OrderRecord, merchantNo: string): Record<string, string> {
  const params: Record<string, string> = {
    mchId: merchantNo,
    mchOrderNo: order.merchantOrderNo,
    orderCode: order.orderCode,
    productId: String(order.productId),
    amount: String(order.apiAmount),
    state: String(order.state),
    notificationId: notificationIdOf(order.orderCode),
  };
  if (order.paidAt) params.paidTime = order.paidAt.toISOString();
  if (order.supplemented && order.utr) params.utr = order.utr;
  if (order.extra) params.extra = order.extra;
  return params;
}

/** The signed form body: every field, and `sign` over them with the merchant's key and sign type. */
export function signedBody(params: Record<string, string>, secret: string, signType: SignType): string {
  return new URLSearchParams({ ...params, sign: signParams(params, secret, signType) }).toString();
}

/** Any fixed number: the advisory lock that makes claims take turns across processes (CLAIM_LOCK). */
const CLAIM_LOCK_KEY = 7_270_719;

/**
 * Reads a row of CLAIM_DUE or DELIVERY_OF: a collection order's columns or the payout as JSON, the
 * callback and merchant as JSON.
 */
function dueOf(raw: Record<string, unknown>, attemptNo: (callback: CallbackRecord) => number): DueAttempt {
  const callback = tableRow(orderCallbacks, raw.pd_callback as Record<string, unknown>);
  const merchant = tableRow(merchants, raw.pd_merchant as Record<string, unknown>);
  const common = { callback, merchant, attemptNo: attemptNo(callback) };
  return raw.pd_payout
    ? { ...common, order: null, payout: tableRow(payouts, raw.pd_payout as Record<string, unknown>) }
    : { ...common, order: tableRow(orders, raw), payout: null };
}

/**
 * Merchant callbacks (DESIGN section 6) through a transactional outbox. `schedule` records a
 * notification inside the caller's transaction (a paid order and its pending callback commit
 * together, or neither does); `order_callbacks` is the queue. A dispatcher (callbacks/dispatcher.ts)
 * claims due attempts in batches (`claimDue`), makes them outside any transaction (`attempt`), and
 * records a batch's outcomes in one transaction (`record`): succeeded (the order 6/4/9 -> 3), failed
 * when the window is over (the order 6 -> 4), else due again on the schedule. `deliver` makes one
 * attempt the same way without a claim (the demo's history replays attempts with it).
 */
export class CallbacksService {
  readonly scheduleMs: readonly number[];
  readonly httpTimeoutMs: number;
  private readonly committedListeners: Array<() => void> = [];

  constructor(readonly deps: CallbacksDeps) {
    this.scheduleMs = deps.scheduleMs ?? CALLBACK_SCHEDULE_MS;
    this.httpTimeoutMs = deps.httpTimeoutMs ?? 10_000;
  }

  private get db() {
    return this.deps.db;
  }
  private now() {
    return this.deps.clock.now();
  }

  // ---- recording ----

  /**
   * Records a pending notification of a paid order to the order's notifyUrl (else the merchant's), due
   * at once. Returns null, recording nothing, when the merchant has callbacks off or no address is known.
   * The caller tells `committed` once its transaction committed, so this process's dispatcher looks now.
   */
  async schedule(tx: Tx, order: NotifiableOrder, trigger: CallbackTrigger): Promise<{ callbackId: number } | null> {
    const [row] = await SCHEDULE_CALLBACK.rows<{ id: string | number }>(tx, {
      orderId: order.id,
      merchantId: order.merchantId,
      orderCode: order.orderCode,
      merchantOrderNo: order.merchantOrderNo,
      notificationId: notificationIdOf(order.orderCode),
      orderUrl: order.notifyUrl,
      trigger,
      now: this.now().toISOString(),
    });
    return row ? { callbackId: Number(row.id) } : null;
  }

  /** A new callback of the same order or payout as `of` (a replay), due at once. */
  private async insertCallback(
    tx: Tx,
    of: Pick<CallbackRecord, 'orderId' | 'payoutId' | 'orderCode' | 'merchantOrderNo'>,
    url: string,
    trigger: CallbackTrigger,
  ): Promise<CallbackRecord> {
    const now = this.now();
    const [row] = await tx
      .insert(orderCallbacks)
      .values({
        orderId: of.orderId,
        payoutId: of.payoutId,
        orderCode: of.orderCode,
        merchantOrderNo: of.merchantOrderNo,
        notificationId: notificationIdOf(of.orderCode),
        url,
        trigger,
        nextAttemptAt: now,
        // Due on the database's clock, which the claims read.
        dueAt: sql`statement_timestamp()`,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return row!;
  }

  /** Calls `listener` whenever a transaction that may have scheduled a callback committed (the dispatcher's poke). */
  onCommitted(listener: () => void): void {
    this.committedListeners.push(listener);
  }

  /**
   * Told after the commit of a change of `order` (the orders module publishes every change through
   * here): a paid order may have a callback scheduled, so this process's dispatcher claims at once
   * rather than at its next poll.
   */
  committed(order: Pick<OrderRecord, 'state'>): void {
    if (!PAID_STATES.includes(order.state as (typeof PAID_STATES)[number])) return;
    this.poke();
  }

  /** A payout's final state committed (its notification is scheduled with it): the dispatcher looks now. */
  payoutCommitted(): void {
    this.poke();
  }

  private poke(): void {
    for (const listener of this.committedListeners) listener();
  }

  /** A reversed order is not notified any more: its pending deliveries stop. */
  async cancelPending(tx: Tx, orderId: number): Promise<void> {
    await tx
      .update(orderCallbacks)
      .set({
        state: 'cancelled',
        nextAttemptAt: null,
        dueAt: null,
        claimedUntil: null,
        claimedBy: null,
        updatedAt: this.now(),
      })
      .where(and(eq(orderCallbacks.orderId, orderId), eq(orderCallbacks.state, 'pending')));
  }

  // ---- delivery ----

  /** TimeoutCallbackTime: attempts stop this long after a callback was created. */
  async windowMs(db: DbOrTx = this.db): Promise<number> {
    return (await this.deps.settings.get('TimeoutCallbackTime', db)) * 3_600_000;
  }

  /**
   * The delay until the attempt after `attemptsMade` attempts, or null when there is none: the
   * schedule's next offset that is still ahead (offsets that passed while no process ran are
   * skipped, so a restart does not fire a burst), inside the window.
   */
  nextDelayMs(
    callback: Pick<CallbackRecord, 'createdAt'>,
    attemptsMade: number,
    windowMs: number,
    now: Date,
  ): number | null {
    const created = callback.createdAt.getTime();
    const elapsed = now.getTime() - created;
    if (elapsed > windowMs) return null;
    for (let i = attemptsMade; i < this.scheduleMs.length; i += 1) {
      const offset = this.scheduleMs[i]!;
      if (offset > windowMs) return null;
      if (offset >= elapsed) return offset - elapsed;
    }
    return null;
  }

  /**
   * Claims up to `limit` due attempts for `claimedBy` until `leaseMs` from now (CLAIM_DUE): one claim
   * at a time across processes, in a transaction of its own.
   */
  async claimDue(limit: number, leaseMs: number, claimedBy: string): Promise<DueAttempt[]> {
    const rows = await this.db.transaction(async (tx) => {
      await CLAIM_LOCK.rows(tx, { key: CLAIM_LOCK_KEY });
      return CLAIM_DUE.rows<Record<string, unknown>>(tx, {
        limit,
        // Rows of orders with a claim in flight are passed over: look a little further than `limit`.
        scan: limit * 4,
        leaseMs: Math.ceil(leaseMs),
        claimedBy,
      });
    });
    return rows.map((raw) => dueOf(raw, (callback) => callback.attempts + 1));
  }

  /** Gives back claims whose attempts were not made (a dispatcher stopping): due again at once. */
  async release(callbackIds: readonly number[], claimedBy: string): Promise<void> {
    if (callbackIds.length === 0) return;
    await RELEASE_CLAIMS.rows(this.db, { ids: JSON.stringify(callbackIds), claimedBy });
  }

  /**
   * Makes one attempt, outside any transaction: POSTs the order's or payout's signed notification to the
   * callback's address. An order no longer paid (reversed) is not notified; a payout's final state does
   * not change. `signal` cuts the exchange short.
   */
  async attempt(due: DueAttempt, signal?: AbortSignal): Promise<AttemptOutcome> {
    const { order, payout, callback, merchant } = due;
    if (order && !PAID_STATES.includes(order.state as (typeof PAID_STATES)[number])) return { due, kind: 'notPaid' };
    const params = order
      ? notificationParams(order, merchant.merchantNo)
      : payoutNotificationParams(payout, merchant.merchantNo);
    let requestBody = new URLSearchParams(params).toString();
    let exchange: Exchange;
    try {
      const signing = this.deps.merchants.signingOf(merchant);
      requestBody = signedBody(params, signing.secret, signing.signType);
      exchange = await postForm(callback.url, requestBody, this.httpTimeoutMs, {
        privateNetworks: this.deps.privateNetworks,
        signal,
      });
    } catch (error) {
      // No key to sign with (e.g. the server key changed): a failed attempt, retried on the schedule.
      exchange = {
        status: null,
        responseBody: null,
        error: `not sent: ${(error as Error).message}`,
        durationMs: 0,
        succeeded: false,
      };
    }
    return { due, kind: 'made', requestBody, exchange };
  }

  /**
   * Records the outcomes of a batch of attempts in one transaction: the orders locked (in id order), then
   * the payouts (only when the batch has payouts' callbacks), every attempt and the callbacks' new states
   * in one statement (RECORD_OUTCOMES), the orders' states in one more (succeeded: 6/4/9 -> 3; failed:
   * 6 -> 4). A payout's state is never moved: its callback's outcome is on the callback. An order no
   * longer paid has its pending callbacks cancelled. Answers each callback's result by id.
   */
  async record(outcomes: readonly AttemptOutcome[]): Promise<Map<number, AttemptResult>> {
    const results = new Map<number, AttemptResult>();
    if (outcomes.length === 0) return results;
    const made = outcomes.filter((o): o is Extract<AttemptOutcome, { kind: 'made' }> => o.kind === 'made');
    const windowMs = made.some((o) => !o.exchange.succeeded) ? await this.windowMs() : 0;
    const { moved, changed } = await this.db.transaction(async (tx) => {
      const orderIds = [...new Set(outcomes.flatMap((o) => (o.due.order ? [o.due.order.id] : [])))];
      const payoutIds = [...new Set(outcomes.flatMap((o) => (o.due.payout ? [o.due.payout.id] : [])))];
      const locked = new Map(
        orderIds.length === 0
          ? []
          : (await LOCK_ORDERS.rows<Record<string, unknown>>(tx, { ids: JSON.stringify(orderIds) })).map((raw) => {
              const order = tableRow(orders, raw);
              return [order.id, order] as const;
            }),
      );
      if (payoutIds.length > 0) await LOCK_PAYOUTS.rows(tx, { ids: JSON.stringify(payoutIds) });
      const now = this.now();
      // Not paid any more when the attempt was to be made: nothing was sent, and nothing more will be.
      for (const o of outcomes) {
        if (o.kind !== 'notPaid' || !o.due.order) continue;
        await this.cancelPending(tx, o.due.order.id);
        results.set(o.due.callback.id, 'cancelled');
      }
      const rows = made.map((o) => {
        const delay = o.exchange.succeeded ? null : this.nextDelayMs(o.due.callback, o.due.attemptNo, windowMs, now);
        return {
          id: o.due.callback.id,
          order_id: o.due.callback.orderId,
          payout_id: o.due.callback.payoutId,
          order_code: o.due.callback.orderCode,
          attempt_no: o.due.attemptNo,
          url: o.due.callback.url,
          request_body: o.requestBody,
          response_status: o.exchange.status,
          response_body: o.exchange.responseBody,
          error: o.exchange.error,
          succeeded: o.exchange.succeeded,
          duration_ms: o.exchange.durationMs,
          delay_ms: delay,
          next_attempt_at: delay === null ? null : new Date(now.getTime() + delay).toISOString(),
        };
      });
      const changed =
        rows.length === 0
          ? []
          : await RECORD_OUTCOMES.rows<{
              id: number | string;
              order_id: number | string | null;
              payout_id: number | string | null;
              order_code: string;
              state: string;
              attempts: number;
              attempted: boolean;
            }>(tx, { outcomes: JSON.stringify(rows), now: now.toISOString() });
      const moves = changed
        .filter((c) => c.attempted && (c.state === 'succeeded' || c.state === 'failed'))
        .flatMap((c): OrderStateChange[] => {
          // A payout's callback moves nothing: its outcome is on the callback.
          if (c.order_id === null) return [];
          const order = locked.get(Number(c.order_id));
          if (!order) return [];
          const callbackId = Number(c.id);
          return c.state === 'succeeded'
            ? [
                {
                  order,
                  // A paid order without callbacks (9) notified by hand is notified all the same.
                  from: [ORDER_STATE.paidNotifying, ORDER_STATE.callbackFailed, ORDER_STATE.paid],
                  to: ORDER_STATE.callbackSucceeded,
                  kind: 'callbackSucceeded',
                  note: note('callbackSucceeded', { callbackId, attempt: c.attempts }),
                },
              ]
            : [
                {
                  order,
                  from: [ORDER_STATE.paidNotifying],
                  to: ORDER_STATE.callbackFailed,
                  kind: 'callbackFailed',
                  note: note('callbackFailed', { attempts: c.attempts, callbackId }),
                },
              ];
        });
      const moved = await moveOrderStates(tx, moves, now);
      // A payout's callback moves nothing, but its outcome is part of the payout's story (its timeline).
      for (const c of changed) {
        if (c.payout_id === null || !c.attempted || (c.state !== 'succeeded' && c.state !== 'failed')) continue;
        const callbackId = Number(c.id);
        await recordPayoutEvent(
          tx,
          { id: Number(c.payout_id) },
          c.state === 'succeeded' ? 'callbackSucceeded' : 'callbackFailed',
          null,
          null,
          null,
          c.state === 'succeeded'
            ? note('callbackSucceeded', { callbackId, attempt: c.attempts })
            : note('callbackFailed', { attempts: c.attempts, callbackId }),
          now,
        );
      }
      return { moved, changed };
    });
    const byId = new Map(changed.map((c) => [Number(c.id), c]));
    for (const o of made) {
      const c = byId.get(o.due.callback.id);
      const result: AttemptResult = !c?.attempted
        ? 'skipped'
        : c.state === 'pending'
          ? 'retrying'
          : (c.state as 'succeeded' | 'failed' | 'cancelled');
      results.set(o.due.callback.id, result);
    }
    for (const order of moved) this.publishOrder(order);
    const touched = new Map<number, string>(outcomes.map((o) => [o.due.callback.id, o.due.callback.orderCode]));
    for (const c of changed) touched.set(Number(c.id), c.order_code);
    for (const [id, orderCode] of touched) this.publishCallback(id, orderCode);
    return results;
  }

  /**
   * One attempt of one callback without a claim (the demo's history replays attempts with it; a
   * dispatcher's attempts go through `claimDue`): an attempt already made, a callback no longer
   * pending, deleted or of a reversed order: nothing is sent.
   */
  async deliver(ref: AttemptRef): Promise<AttemptResult> {
    const [raw] = await DELIVERY_OF.rows<Record<string, unknown>>(this.db, { callbackId: ref.callbackId });
    if (!raw) return 'skipped';
    const due = dueOf(raw, () => ref.attemptNo);
    const { callback } = due;
    if (callback.state !== 'pending' || callback.deletedAt || callback.attempts !== ref.attemptNo - 1) return 'skipped';
    const outcome = await this.attempt(due);
    return (await this.record([outcome])).get(callback.id) ?? 'skipped';
  }

  // ---- staff actions ----

  /** Soft-deletes callback records (lists stop showing them and their attempts); pending ones are refused. */
  async remove(ids: number[], actor: Actor): Promise<{ count: number }> {
    const result = await this.db.transaction(async (tx) => {
      const rows = await tx
        .select()
        .from(orderCallbacks)
        .where(and(inArray(orderCallbacks.id, [...new Set(ids)]), isNull(orderCallbacks.deletedAt)))
        .for('update');
      if (rows.length === 0) throw notFound('no such callback');
      if (rows.some((r) => callbackDeleteRefusal(r))) {
        throw refused(CALLBACK_TEXTS.pending, 'callbackPending');
      }
      const now = this.now();
      await tx
        .update(orderCallbacks)
        .set({ deletedAt: now, updatedAt: now })
        .where(
          inArray(
            orderCallbacks.id,
            rows.map((r) => r.id),
          ),
        );
      await writeAudit(
        tx,
        actor,
        {
          action: 'callbacks.delete',
          target: `callbacks:${rows.map((r) => r.id).join(',')}`,
          before: rows.map((r) => ({ id: r.id, orderCode: r.orderCode, state: r.state, attempts: r.attempts })),
          after: { deleted: true },
        },
        now,
      );
      return rows;
    });
    // Consoles showing these callbacks drop them now (ids only: they refetch).
    for (const row of result) this.publishCallback(row.id, row.orderCode);
    return { count: result.length };
  }

  /**
   * Replay: a new delivery of the callback's order or payout to the same address, attempted now and then
   * on the schedule. The order (or payout) is locked first, as every writer of its callbacks does.
   */
  async replay(id: number, actor: Actor): Promise<{ callbackId: number; orderCode: string }> {
    const created = await this.db.transaction(async (tx) => {
      const [callback] = await tx
        .select()
        .from(orderCallbacks)
        .where(and(eq(orderCallbacks.id, id), isNull(orderCallbacks.deletedAt)));
      if (!callback) throw notFound('no such callback');
      if (callback.payoutId !== null) return this.replayPayout(tx, callback, actor);
      const [order] = callback.orderId
        ? await tx.select().from(orders).where(eq(orders.id, callback.orderId)).for('update')
        : [];
      if (!order) throw refused(CALLBACK_TEXTS.notReplayable, 'notReplayable');
      // The rule the console offers replay by (the contract's).
      const refusal = callbackReplayRefusal({
        orderType: 'collection',
        orderState: order.state,
        orderLocked: order.locked,
      });
      if (refusal === 'orderLocked') throw refused(CALLBACK_TEXTS.locked, 'orderLocked');
      if (refusal) throw refused(CALLBACK_TEXTS.notReplayable, 'notReplayable');
      const row = await this.insertCallback(tx, callback, callback.url, 'replay');
      const now = this.now();
      await recordOrderEvent(
        tx,
        order,
        'callbackReplayed',
        actor,
        note('callbackReplayed', { callbackId: callback.id, newCallbackId: row.id, url: callback.url }),
        now,
      );
      await writeAudit(
        tx,
        actor,
        {
          action: 'callbacks.replay',
          target: `order:${order.orderCode}`,
          before: { callbackId: callback.id, state: callback.state },
          after: { callbackId: row.id, url: row.url },
        },
        now,
      );
      return row;
    });
    this.poke();
    this.publishCallback(created.id, created.orderCode);
    return { callbackId: created.id, orderCode: created.orderCode };
  }

  /** Replay of a payout's callback (in `replay`'s transaction): the payout locked, in its final state. */
  private async replayPayout(tx: Tx, callback: CallbackRecord, actor: Actor): Promise<CallbackRecord> {
    const [payout] = await tx.select().from(payouts).where(eq(payouts.id, callback.payoutId!)).for('update');
    if (
      !payout ||
      callbackReplayRefusal({ orderType: 'payout', orderState: payout.state, orderLocked: false }) !== null
    ) {
      throw refused(CALLBACK_TEXTS.notReplayable, 'notReplayable');
    }
    const row = await this.insertCallback(tx, callback, callback.url, 'replay');
    const now = this.now();
    await recordPayoutEvent(
      tx,
      payout,
      'callbackReplayed',
      null,
      null,
      actor,
      note('callbackReplayed', { callbackId: callback.id, newCallbackId: row.id, url: callback.url }),
      now,
    );
    await writeAudit(
      tx,
      actor,
      {
        action: 'callbacks.replay',
        target: `payout:${payout.orderCode}`,
        before: { callbackId: callback.id, state: callback.state },
        after: { callbackId: row.id, url: row.url },
      },
      now,
    );
    return row;
  }

  /**
   * Order send test: POSTs a signed callback to `url` now and answers the exchange. With an order code:
   * exactly that order's (or payout's) notification, signed with its merchant's key; with a merchant number only: a
   * sample order of that merchant; with neither: the sample signed with the key `test`. Nothing is
   * recorded but the audit row.
   */
  async sendTest(input: { url: string; orderCode?: string | null; mchId?: string | null }, actor: Actor) {
    let params: Record<string, string>;
    let secret = 'test';
    let signType: SignType = 'HMAC-SHA256';
    let signedWith = 'the test key "test" (HMAC-SHA256)';
    if (input.orderCode) {
      const [row] = await this.db
        .select({ order: orders, merchantNo: merchants.merchantNo })
        .from(orders)
        .innerJoin(merchants, eq(merchants.id, orders.merchantId))
        .where(eq(orders.orderCode, input.orderCode));
      const [payoutRow] = row
        ? []
        : await this.db
            .select({ payout: payouts, merchantNo: merchants.merchantNo })
            .from(payouts)
            .innerJoin(merchants, eq(merchants.id, payouts.merchantId))
            .where(eq(payouts.orderCode, input.orderCode));
      if (!row && !payoutRow) throw notFound('no such order');
      const merchantNo = row ? row.merchantNo : payoutRow!.merchantNo;
      params = row
        ? notificationParams(row.order, merchantNo)
        : payoutNotificationParams(payoutRow!.payout, merchantNo);
      ({ secret, signType } = await this.signingOf(merchantNo));
      signedWith = `merchant ${merchantNo} (${signType})`;
    } else {
      const now = this.now();
      const code = `T${now
        .toISOString()
        .replace(/[-:TZ.]/g, '')
        .slice(2, 14)}00000000`;
      params = {
        mchOrderNo: `TEST${now.getTime()}`,
        orderCode: code,
        productId: '1001',
        amount: '10000',
        state: String(ORDER_STATE.callbackSucceeded),
        paidTime: now.toISOString(),
        notificationId: notificationIdOf(code),
      };
      if (input.mchId) {
        ({ secret, signType } = await this.signingOf(input.mchId));
        params.mchId = input.mchId;
        signedWith = `merchant ${input.mchId} (${signType})`;
      }
    }
    const requestBody = signedBody(params, secret, signType);
    const exchange = await postForm(input.url, requestBody, this.httpTimeoutMs, {
      privateNetworks: this.deps.privateNetworks,
    });
    await this.db.transaction((tx) =>
      writeAudit(
        tx,
        actor,
        {
          action: 'callbacks.sendTest',
          target: input.url,
          after: {
            orderCode: input.orderCode ?? null,
            mchId: input.mchId ?? null,
            status: exchange.status,
            succeeded: exchange.succeeded,
            durationMs: exchange.durationMs,
          },
        },
        this.now(),
      ),
    );
    return {
      url: input.url,
      httpMethod: 'POST',
      requestBody,
      signedWith,
      responseStatus: exchange.status,
      responseBody: exchange.responseBody,
      error: exchange.error,
      succeeded: exchange.succeeded,
      durationMs: exchange.durationMs,
    };
  }

  private async signingOf(merchantNo: string): Promise<{ secret: string; signType: SignType }> {
    const signing = await this.deps.merchants.signingSecretOf(this.db, merchantNo);
    if (!signing) throw notFound(CALLBACK_TEXTS.noMerchant);
    return { secret: signing.secret, signType: signing.signType };
  }

  // ---- live lists ----

  private publishOrder(order: OrderRecord): void {
    publishOrderChange(this.db, this.deps.realtime, order);
  }

  private publishCallback(callbackId: number, orderCode: string): void {
    void this.deps.realtime
      ?.publish('callbacks', { callbackId, orderCode }, { roles: [...CALLBACK_READ_ROLES] })
      .catch(() => undefined);
  }
}
