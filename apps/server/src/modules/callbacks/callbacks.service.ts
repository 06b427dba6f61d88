import { createHash } from 'node:crypto';
import {
  CALLBACK_READ_ROLES,
  CALLBACK_SCHEDULE_MS,
  CALLBACK_TEXTS,
  type CallbackTrigger,
  callbackDeleteRefusal,
  callbackReplayRefusal,
  DEFAULT_CALLBACK_WINDOW_HOURS,
  note,
  ORDER_STATE,
  PAID_STATES,
  type SignType,
} from '@paydesk/contract';
import { and, eq, inArray, isNull, lte } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { tableRow } from '../../db/raw-rows.js';
import { merchants, orderCallbackAttempts, orderCallbacks, orders } from '../../db/schema.js';
import { type Actor, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import { notFound, refused } from '../../platform/errors.js';
import type { Jobs } from '../../platform/jobs.js';
import type { RealtimeHub } from '../../platform/realtime/hub.js';
import { positiveIntOf, readSettings } from '../../platform/settings.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import { moveOrderState, recordOrderEvent } from '../orders/order-state.js';
import { publishOrderChange } from '../orders/publish.js';
import { signParams } from '../orders/signature.js';
import { callbackUrl } from './callback-url.js';
import { type Exchange, postForm } from './delivery.js';
import { DELIVERY_OF, LOCK_DELIVERY, RECORD_DELIVERED } from './statements.js';

export type { CallbackTrigger };

export interface CallbacksDeps {
  db: Db;
  clock: Clock;
  merchants: MerchantsService;
  /** Enqueues deliveries when this process runs the jobs. */
  jobs: Jobs;
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

/** The pg-boss queue of deliveries: one job per attempt, at most one active per order (singleton by order code). */
export const CALLBACK_QUEUE = 'order-callback';
export interface DeliveryJob {
  callbackId: number;
  /** The attempt this job makes (1 for the first). A job whose attempt was already made does nothing. */
  attemptNo: number;
}

/** The order fields a notification needs. */
export interface NotifiableOrder {
  id: number;
  orderCode: string;
  merchantId: number;
  merchantOrderNo: string;
  notifyUrl: string | null;
}

type OrderRecord = typeof orders.$inferSelect;
type CallbackRecord = typeof orderCallbacks.$inferSelect;

/** The merchant deduplicates on this id: the same for every delivery of an order's payment. */
export const notificationIdOf = (orderCode: string) => `N${orderCode}`;

/**
 * The job id of one attempt of one callback: the same every time it is computed, so enqueueing an
 * attempt twice (the payment's transaction, then a sweep) makes one job (pg-boss skips a taken id).
 */
export function deliveryJobId(callback: Pick<CallbackRecord, 'id' | 'createdAt'>, attemptNo: number): string {
  const h = createHash('sha256')
    .update(`paydesk:order-callback:${callback.id}:${callback.createdAt.getTime()}:${attemptNo}`)
    .digest();
  h[6] = (h[6]! & 0x0f) | 0x80; // UUID version 8 (made by the application)
  h[8] = (h[8]! & 0x3f) | 0x80; // RFC 9562 variant
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

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

/**
 * Merchant callbacks (DESIGN section 6). `schedule` records a notification inside the caller's
 * transaction (a paid order and its pending callback commit together) and enqueues its first attempt
 * in the same transaction when jobs run here. `deliver` makes one attempt: the HTTP exchange outside
 * any transaction, then in one transaction its record, and either the outcome (succeeded: the order
 * 6/4 -> 3; window over: failed, the order 6 -> 4) or the next attempt's job.
 */
export class CallbacksService {
  readonly scheduleMs: readonly number[];
  readonly httpTimeoutMs: number;

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
   * Records a pending notification of a paid order to the order's notifyUrl (else the merchant's).
   * Returns null, recording nothing, when the merchant has callbacks off or no address is known.
   */
  async schedule(tx: Tx, order: NotifiableOrder, trigger: CallbackTrigger): Promise<{ callbackId: number } | null> {
    const [merchant] = await tx
      .select({ notifyUrl: merchants.notifyUrl, callbackEnabled: merchants.callbackEnabled })
      .from(merchants)
      .where(eq(merchants.id, order.merchantId));
    const url = callbackUrl(order, merchant);
    if (!url) return null;
    const row = await this.insertCallback(tx, order, url, trigger);
    return { callbackId: row.id };
  }

  private async insertCallback(
    tx: Tx,
    order: Pick<NotifiableOrder, 'id' | 'orderCode' | 'merchantOrderNo'>,
    url: string,
    trigger: CallbackTrigger,
  ): Promise<CallbackRecord> {
    const now = this.now();
    const [row] = await tx
      .insert(orderCallbacks)
      .values({
        orderId: order.id,
        orderCode: order.orderCode,
        merchantOrderNo: order.merchantOrderNo,
        notificationId: notificationIdOf(order.orderCode),
        url,
        trigger,
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await this.enqueue(tx, row!, 1, 0);
    return row!;
  }

  /** The job of one attempt (nothing when jobs do not run here: a sweep enqueues it later). */
  private enqueue(tx: Tx | null, callback: CallbackRecord, attemptNo: number, delayMs: number) {
    const data: DeliveryJob = { callbackId: callback.id, attemptNo };
    return this.deps.jobs.send(tx, CALLBACK_QUEUE, data, {
      id: deliveryJobId(callback, attemptNo),
      singletonKey: callback.orderCode,
      ...(delayMs > 0 ? { startAfter: Math.ceil(delayMs) / 1000 } : {}),
    });
  }

  /** A reversed order is not notified any more: its pending deliveries stop. */
  async cancelPending(tx: Tx, orderId: number): Promise<void> {
    await tx
      .update(orderCallbacks)
      .set({ state: 'cancelled', nextAttemptAt: null, updatedAt: this.now() })
      .where(and(eq(orderCallbacks.orderId, orderId), eq(orderCallbacks.state, 'pending')));
  }

  /**
   * Enqueues the due attempt of every pending callback that has no job: recorded while jobs were off
   * (or in a process without jobs), or whose job failed for good (a database outage outlasting its
   * retries). The job id of an attempt is fixed, so a callback whose job exists is left as it is.
   */
  async sweep(limit = 200): Promise<number> {
    if (!this.deps.jobs.running) return 0;
    const due = await this.db
      .select()
      .from(orderCallbacks)
      .where(
        and(
          eq(orderCallbacks.state, 'pending'),
          isNull(orderCallbacks.deletedAt),
          lte(orderCallbacks.nextAttemptAt, this.now()),
        ),
      )
      .orderBy(orderCallbacks.nextAttemptAt)
      .limit(limit);
    let sent = 0;
    for (const callback of due) {
      const attemptNo = callback.attempts + 1;
      if (await this.enqueue(null, callback, attemptNo, 0)) sent += 1;
      else await this.deps.jobs.retryFailed(CALLBACK_QUEUE, deliveryJobId(callback, attemptNo));
    }
    return sent;
  }

  // ---- delivery ----

  /** TimeoutCallbackTime: attempts stop this long after a callback was created. */
  async windowMs(db: DbOrTx = this.db): Promise<number> {
    const raw = await readSettings(db, { TimeoutCallbackTime: DEFAULT_CALLBACK_WINDOW_HOURS as unknown });
    return positiveIntOf(raw.TimeoutCallbackTime, DEFAULT_CALLBACK_WINDOW_HOURS) * 3_600_000;
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
   * One delivery attempt (the job handler). An attempt already made, a callback no longer pending,
   * deleted or of a reversed order: nothing is sent. Crashing mid-way leaves the job active; pg-boss
   * retries it when it expires, so an attempt is made at least once (the merchant deduplicates on the
   * notification id).
   */
  async deliver(job: DeliveryJob): Promise<'skipped' | 'cancelled' | 'succeeded' | 'retrying' | 'failed'> {
    const [raw] = await DELIVERY_OF.rows<Record<string, unknown>>(this.db, { callbackId: job.callbackId });
    if (!raw) return 'skipped';
    const order = tableRow(orders, raw);
    const callback = tableRow(orderCallbacks, raw.pd_callback as Record<string, unknown>);
    const merchant = tableRow(merchants, raw.pd_merchant as Record<string, unknown>);
    if (callback.state !== 'pending' || callback.deletedAt || callback.attempts !== job.attemptNo - 1) return 'skipped';
    if (!PAID_STATES.includes(order.state as (typeof PAID_STATES)[number])) {
      await this.db.transaction((tx) => this.cancelPending(tx, order.id));
      return 'cancelled';
    }

    const params = notificationParams(order, merchant.merchantNo);
    let requestBody = new URLSearchParams(params).toString();
    let exchange: Exchange;
    try {
      const signing = this.deps.merchants.signingOf(merchant);
      requestBody = signedBody(params, signing.secret, signing.signType);
      exchange = await postForm(callback.url, requestBody, this.httpTimeoutMs, {
        privateNetworks: this.deps.privateNetworks,
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

    const windowMs = exchange.succeeded ? 0 : await this.windowMs();
    const outcome = await this.db.transaction(async (tx) => {
      const [lockedRaw] = await LOCK_DELIVERY.rows<Record<string, unknown>>(tx, {
        orderId: order.id,
        callbackId: callback.id,
      });
      const lockedOrder = tableRow(orders, lockedRaw!);
      const locked = tableRow(orderCallbacks, lockedRaw!.pd_callback as Record<string, unknown>);
      const now = this.now();
      const pending = locked.state === 'pending' && locked.attempts === job.attemptNo - 1;
      if (pending && exchange.succeeded) {
        // The common case: the attempt and the callback in one statement, then the order's state.
        await RECORD_DELIVERED.rows(tx, {
          callbackId: callback.id,
          orderId: order.id,
          orderCode: callback.orderCode,
          attemptNo: job.attemptNo,
          url: callback.url,
          requestBody,
          responseStatus: exchange.status,
          responseBody: exchange.responseBody,
          durationMs: exchange.durationMs,
          now: now.toISOString(),
        });
        const moved = await moveOrderState(tx, lockedOrder, {
          // A paid order without callbacks (9) notified by hand is notified all the same.
          from: [ORDER_STATE.paidNotifying, ORDER_STATE.callbackFailed, ORDER_STATE.paid],
          to: ORDER_STATE.callbackSucceeded,
          kind: 'callbackSucceeded',
          note: note('callbackSucceeded', { callbackId: callback.id, attempt: job.attemptNo }),
          now,
        });
        return { result: 'succeeded' as const, order: moved };
      }
      await tx.insert(orderCallbackAttempts).values({
        callbackId: callback.id,
        orderCode: callback.orderCode,
        attemptNo: job.attemptNo,
        url: callback.url,
        httpMethod: 'POST',
        requestBody,
        responseStatus: exchange.status,
        responseBody: exchange.responseBody,
        error: exchange.error,
        succeeded: exchange.succeeded,
        durationMs: exchange.durationMs,
        createdAt: now,
      });
      // Cancelled meanwhile (the order was reversed): the attempt is on record, nothing else moves.
      if (!pending) return { result: 'skipped' as const, order: null };
      const delay = this.nextDelayMs(locked, job.attemptNo, windowMs, now);
      if (delay !== null) {
        await tx
          .update(orderCallbacks)
          .set({ attempts: job.attemptNo, nextAttemptAt: new Date(now.getTime() + delay), updatedAt: now })
          .where(eq(orderCallbacks.id, callback.id));
        await this.enqueue(tx, locked, job.attemptNo + 1, delay);
        return { result: 'retrying' as const, order: null };
      }
      await tx
        .update(orderCallbacks)
        .set({ state: 'failed', attempts: job.attemptNo, nextAttemptAt: null, updatedAt: now })
        .where(eq(orderCallbacks.id, callback.id));
      const moved = await moveOrderState(tx, lockedOrder, {
        from: [ORDER_STATE.paidNotifying],
        to: ORDER_STATE.callbackFailed,
        kind: 'callbackFailed',
        note: note('callbackFailed', { attempts: job.attemptNo, callbackId: callback.id }),
        now,
      });
      return { result: 'failed' as const, order: moved };
    });
    if (outcome.order) this.publishOrder(outcome.order);
    this.publishCallback(callback.id, callback.orderCode);
    return outcome.result;
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

  /** Replay: a new delivery of the callback's order to the same address, attempted now and then on the schedule. */
  async replay(id: number, actor: Actor): Promise<{ callbackId: number; orderCode: string }> {
    const created = await this.db.transaction(async (tx) => {
      const [callback] = await tx
        .select()
        .from(orderCallbacks)
        .where(and(eq(orderCallbacks.id, id), isNull(orderCallbacks.deletedAt)));
      if (!callback) throw notFound('no such callback');
      const [order] = await tx.select().from(orders).where(eq(orders.id, callback.orderId)).for('update');
      if (!order) throw refused(CALLBACK_TEXTS.notReplayable, 'notReplayable');
      // The rule the console offers replay by (the contract's).
      const refusal = callbackReplayRefusal({ orderState: order.state, orderLocked: order.locked });
      if (refusal === 'orderLocked') throw refused(CALLBACK_TEXTS.locked, 'orderLocked');
      if (refusal) throw refused(CALLBACK_TEXTS.notReplayable, 'notReplayable');
      const row = await this.insertCallback(tx, order, callback.url, 'replay');
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
    this.publishCallback(created.id, created.orderCode);
    return { callbackId: created.id, orderCode: created.orderCode };
  }

  /**
   * Order send test: POSTs a signed callback to `url` now and answers the exchange. With an order:
   * exactly that order's notification, signed with its merchant's key; with a merchant number only: a
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
      if (!row) throw notFound('no such order');
      params = notificationParams(row.order, row.merchantNo);
      ({ secret, signType } = await this.signingOf(row.merchantNo));
      signedWith = `merchant ${row.merchantNo} (${signType})`;
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
