import {
  ACTION_FROM,
  LOCKING_MARKS,
  note,
  ORDER_STATE,
  type OrderAction,
  type OrderMark,
  orderActionRefusal,
  PAID_STATES,
  payerNameRequired,
  SUPPLEMENT_TYPE,
} from '@paydesk/contract';
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { tableRow } from '../../db/raw-rows.js';
import { merchants, orderEvents, orders } from '../../db/schema.js';
import { type Actor, SYSTEM_ACTOR, writeAudit } from '../../platform/audit.js';
import type { DataScope } from '../../platform/context.js';
import { conflict, forbidden, invalid, notFound, refused } from '../../platform/errors.js';
import type { CommissionRatesRow } from '../suppliers/suppliers.service.js';
import { actionFacts } from './allowed-actions.js';
import { ORDER_TEXTS, type OrderCore, OrderPart, type OrderRecord, orderInScope } from './order-core.js';
import type { OrderIntake } from './order-intake.js';
import type { OrderPayments } from './order-payments.js';
import type { OrderSettings } from './settings.js';
import { LOCK_ORDER } from './statements.js';

/** What a pay gateway's paid notification did to its order (`payByGateway`). */
export type GatewayPaidOutcome =
  | { kind: 'paid'; state: number; order: OrderRecord }
  | { kind: 'unknownOrder' }
  | { kind: 'amountMismatch'; orderAmount: number }
  | { kind: 'alreadyPaid'; state: number; sameUtr: boolean }
  | { kind: 'notAwaitingPayment' | 'locked' | 'utrUsed'; state: number };

/**
 * The actions on an order (spec section 4): each a compare-and-set of the order's state in one
 * transaction (`act`), with its audit row, its timeline row and its ledger transfer; the timeouts job
 * and the payer's UTR. A lost race answers 409 and changes nothing.
 */
export class OrderActions extends OrderPart {
  constructor(
    core: OrderCore,
    private readonly intake: OrderIntake,
    private readonly payments: OrderPayments,
  ) {
    super(core);
  }

  // ---- actions ----

  /**
   * One action on one order: reads it in the caller's scope (404 outside), checks the state and lock
   * (422), then in a transaction locks the row and re-checks that nothing changed since (409).
   */
  private async act(
    orderCode: string,
    scope: DataScope,
    action: OrderAction,
    actor: Actor,
    run: (
      tx: Tx,
      order: OrderRecord,
      settings: OrderSettings,
      rates: CommissionRatesRow | null,
    ) => Promise<OrderRecord>,
  ): Promise<OrderRecord> {
    const seen = await this.findInScope(this.db, orderCode, scope);
    const settings = await this.settings.get();
    await this.checkAllowed(seen, action, actor, settings);
    const result = await this.db.transaction(async (tx) => {
      // The lock answers the supplier's commission rates too: a payment needs them (one round trip less).
      const [locked] = await LOCK_ORDER.rows<Record<string, unknown>>(tx, { orderId: seen.id });
      const order = locked ? tableRow(orders, locked) : undefined;
      if (
        !order ||
        order.state !== seen.state ||
        order.locked !== seen.locked ||
        order.allocationNo !== seen.allocationNo
      ) {
        throw conflict(ORDER_TEXTS.changed, 'orderChanged');
      }
      const rates =
        locked!.c_supplier_id === null
          ? null
          : {
              supplier_id: locked!.c_supplier_id as number,
              rate: locked!.c_rate as number,
              parent_id: locked!.c_parent_id as number | null,
              parent_rate: locked!.c_parent_rate as number,
            };
      const after = await run(tx, order, settings, rates);
      await writeAudit(
        tx,
        actor,
        {
          action: `orders.${action}`,
          target: `order:${order.orderCode}`,
          before: { state: order.state, mark: order.mark, locked: order.locked, resourceId: order.resourceId },
          after: { state: after.state, mark: after.mark, locked: after.locked, resourceId: after.resourceId },
        },
        this.now(),
      );
      return after;
    });
    this.publish(result);
    return result;
  }

  /**
   * Refuses an action the contract's rule (`orderActionRefusal`, which also fills the rows'
   * allowedActions) does not allow. When the order was in a state that allowed it and someone moved
   * it on (the race was lost before this request even read the order), the answer is the same 409 as
   * a race lost inside the lock; an action this order never allowed is a 422.
   */
  private async checkAllowed(order: OrderRecord, action: OrderAction, actor: Actor, settings: OrderSettings) {
    const [merchant] =
      action === 'callback'
        ? await this.db
            .select({ notifyUrl: merchants.notifyUrl, callbackEnabled: merchants.callbackEnabled })
            .from(merchants)
            .where(eq(merchants.id, order.merchantId))
        : [];
    const facts = action === 'callback' ? actionFacts(order, merchant) : { ...order, callbackReachable: true };
    const refusal = orderActionRefusal(action, actor.role, facts, settings);
    if (refusal === null) return;
    if (refusal === 'role') throw forbidden('your role may not take this action');
    if (refusal === 'locked') throw refused(ORDER_TEXTS.locked, 'orderLocked');
    if (refusal === 'timeoutSupplementOff') throw refused(ORDER_TEXTS.timeoutSupplementOff, 'timeoutSupplementOff');
    if (refusal === 'callbacksOff') throw refused(ORDER_TEXTS.callbacksOff, 'callbacksOff');
    const from = ACTION_FROM[action] as readonly number[];
    const [wasAllowed] = await this.db
      .select({ id: orderEvents.id })
      .from(orderEvents)
      .where(
        and(
          eq(orderEvents.orderId, order.id),
          or(inArray(orderEvents.fromState, [...from]), inArray(orderEvents.toState, [...from])),
        ),
      )
      .limit(1);
    if (wasAllowed) throw conflict(ORDER_TEXTS.changed, 'orderChanged');
    throw refused(ORDER_TEXTS.notAllowed, 'stateNotAllowed');
  }

  async findInScope(db: DbOrTx, orderCode: string, scope: DataScope): Promise<OrderRecord> {
    const [order] = await db.select().from(orders).where(eq(orders.orderCode, orderCode));
    if (!order || !orderInScope(order, scope)) throw notFound('no such order');
    return order;
  }

  /** The supplier (or staff) confirms the money arrived. */
  confirm(orderCode: string, scope: DataScope, actor: Actor) {
    return this.act(orderCode, scope, 'confirm', actor, (tx, order, _settings, rates) =>
      this.payments.pay(
        tx,
        order,
        actor,
        { supplementType: null, utr: null, note: note('confirmedBy', { account: actor.account ?? 'system' }) },
        rates,
      ),
    );
  }

  /** Supplement with the payer's UTR, or offset against the supplier's balance (no UTR). */
  supplement(
    input: { orderCode: string; isOffsetReplenishmentOrder: boolean; utr?: string | null },
    scope: DataScope,
    actor: Actor,
  ) {
    // CanTimeoutSupplement is the action rule's (checkAllowed), read with the settings `act` passes on.
    return this.act(input.orderCode, scope, 'supplement', actor, async (tx, order, settings, rates) => {
      const utr = input.isOffsetReplenishmentOrder ? (input.utr ?? null) : input.utr!;
      if (utr) {
        const [other] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.utr, utr));
        if (other) throw conflict(ORDER_TEXTS.utrUsed, 'utrUsed');
      }
      let target = order;
      if (order.state === ORDER_STATE.allocationFailed) {
        // The payer paid: an account must take the order before its payment can be posted.
        target = (await this.intake.allocate(tx, order, settings, null, actor)).order;
        if (target.state !== ORDER_STATE.allocated) throw refused(ORDER_TEXTS.allocationFailed, 'allocationFailed');
      }
      const type = input.isOffsetReplenishmentOrder ? SUPPLEMENT_TYPE.offset : SUPPLEMENT_TYPE.utr;
      return this.payments.pay(
        tx,
        target,
        actor,
        {
          supplementType: type,
          utr,
          note: input.isOffsetReplenishmentOrder ? note('supplementOffset') : note('supplementUtr', { utr: utr ?? '' }),
        },
        // The rates read with the lock are the locked order's supplier's (pay reads them again for another).
        rates,
      );
    });
  }

  /** Reselect (reassign): release the current account and allocate again, away from it when another fits. */
  reselect(orderCode: string, scope: DataScope, actor: Actor) {
    return this.act(orderCode, scope, 'reselect', actor, async (tx, order, settings) => {
      await this.payments.releaseHold(tx, order, actor, 'releaseReselected');
      return (await this.intake.allocate(tx, { ...order, holdOpen: false }, settings, order.resourceId, actor)).order;
    });
  }

  reject(input: { orderCode: string; rejectReason: string }, scope: DataScope, actor: Actor) {
    return this.act(input.orderCode, scope, 'reject', actor, async (tx, order) => {
      await this.payments.releaseHold(tx, order, actor, 'releaseRejected');
      return this.moveTo(tx, order, ORDER_STATE.rejected, actor, 'rejected', input.rejectReason, {
        rejectReason: input.rejectReason,
      });
    });
  }

  /** Frees the account of an allocated order now: the hold is released and the order times out. */
  freeResource(orderCode: string, scope: DataScope, actor: Actor) {
    return this.act(orderCode, scope, 'freeResource', actor, async (tx, order) => {
      await this.payments.releaseHold(tx, order, actor, 'releaseFreed');
      return this.moveTo(tx, order, ORDER_STATE.timedOut, actor, 'resourceFreed', note('resourcesFreed'));
    });
  }

  /** Sends the merchant callback again now (a new delivery with the same notification id). */
  triggerCallback(orderCode: string, scope: DataScope, actor: Actor) {
    return this.act(orderCode, scope, 'callback', actor, async (tx, order) => {
      const scheduled = await this.deps.callbacks.schedule(tx, order, 'manual');
      if (!scheduled) throw refused(ORDER_TEXTS.callbacksOff, 'callbacksOff');
      await this.event(tx, order, 'callbackTriggered', null, null, actor, '');
      return order;
    });
  }

  /** Reverses a paid order: the exact opposite of its payment, then the hold it consumed is released. */
  reverse(orderCode: string, scope: DataScope, actor: Actor) {
    return this.act(orderCode, scope, 'reverse', actor, async (tx, order) => {
      await this.payments.reversePayment(tx, order, actor);
      await this.deps.callbacks.cancelPending(tx, order.id);
      return this.moveTo(tx, order, ORDER_STATE.reversed, actor, 'reversed', '');
    });
  }

  /** Marks an order; suspicious and malicious lock it until someone unlocks it. */
  async updateMark(input: { id: number; orderMark: number }, scope: DataScope, actor: Actor) {
    const [row] = await this.db.select({ orderCode: orders.orderCode }).from(orders).where(eq(orders.id, input.id));
    if (!row) throw notFound('no such order');
    const mark = input.orderMark as OrderMark;
    const after = await this.act(row.orderCode, scope, 'updateMark', actor, async (tx, order) => {
      const locked = order.locked || LOCKING_MARKS.includes(mark);
      const [updated] = await tx
        .update(orders)
        .set({ mark, locked, updatedAt: this.now() })
        .where(eq(orders.id, order.id))
        .returning();
      await this.event(
        tx,
        updated!,
        'marked',
        null,
        null,
        actor,
        note(locked && !order.locked ? 'markedLocked' : 'marked', { fromMark: order.mark, toMark: mark }),
      );
      return updated!;
    });
    return { orderCode: after.orderCode, mark: after.mark, locked: after.locked };
  }

  /** Unlocks the listed orders in the caller's scope that are locked; answers how many it unlocked. */
  async unlock(orderCodes: string[], scope: DataScope, actor: Actor): Promise<{ count: number }> {
    let count = 0;
    for (const code of [...new Set(orderCodes)]) {
      const order = await this.findInScope(this.db, code, scope);
      if (!order.locked) continue;
      await this.act(code, scope, 'unlock', actor, async (tx, locked) => {
        const [updated] = await tx
          .update(orders)
          .set({ locked: false, updatedAt: this.now() })
          .where(eq(orders.id, locked.id))
          .returning();
        await this.event(tx, updated!, 'unlocked', null, null, actor, '');
        return updated!;
      });
      count += 1;
    }
    return { count };
  }

  // ---- timeouts ----

  /**
   * Times out allocated orders whose time is up (the job runs this): each is released in its own
   * transaction; rows another process holds are skipped. Locked orders wait for their investigation.
   */
  async expireDue(limit = 200): Promise<number> {
    const now = this.now();
    const due = await this.db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.state, ORDER_STATE.allocated), sql`${orders.expiresAt} <= ${now}`, eq(orders.locked, false)))
      .orderBy(orders.expiresAt)
      .limit(limit);
    let expired = 0;
    for (const { id } of due) {
      const done = await this.db.transaction(async (tx) => {
        const [order] = await tx
          .select()
          .from(orders)
          .where(and(eq(orders.id, id), eq(orders.state, ORDER_STATE.allocated), eq(orders.locked, false)))
          .for('update', { skipLocked: true });
        if (!order?.expiresAt || order.expiresAt > now) return null;
        await this.payments.releaseHold(tx, order, SYSTEM_ACTOR, 'releaseTimedOut');
        return this.moveTo(tx, order, ORDER_STATE.timedOut, null, 'timedOut', '');
      });
      if (done) {
        expired += 1;
        this.publish(done);
      }
    }
    return expired;
  }

  // ---- pay gateways ----

  /**
   * A collectionNotify pay gateway's notification says the order was paid (paygateways/pay-notify.ts,
   * after the signature and the gateway's script): an order awaiting payment (allocated, or timed out:
   * its hold was released, so the supplier's available balance pays) is paid with the UTR, its timeline
   * and audit naming the gateway, its merchant's callback scheduled. Everything else moves nothing and
   * says why: an unknown order, another amount, an order paid already (a repeat of the notification is
   * `alreadyPaid`), locked for investigation, in another state, or a UTR that confirmed another order.
   */
  async payByGateway(input: {
    orderCode: string;
    amount: number;
    utr: string;
    gateway: { id: number; name: string };
    ip: string | null;
  }): Promise<GatewayPaidOutcome> {
    const [seen] = await this.db.select().from(orders).where(eq(orders.orderCode, input.orderCode));
    if (!seen) return { kind: 'unknownOrder' };
    if (seen.amount !== input.amount) return { kind: 'amountMismatch', orderAmount: seen.amount };
    const actor: Actor = { userId: null, account: `gateway:${input.gateway.name}`, role: null, ip: input.ip };
    const outcome = await this.db.transaction(async (tx): Promise<GatewayPaidOutcome> => {
      const [locked] = await LOCK_ORDER.rows<Record<string, unknown>>(tx, { orderId: seen.id });
      if (!locked) return { kind: 'unknownOrder' };
      const order = tableRow(orders, locked);
      if ((PAID_STATES as readonly number[]).includes(order.state)) {
        return { kind: 'alreadyPaid', state: order.state, sameUtr: order.utr === input.utr };
      }
      if (order.state !== ORDER_STATE.allocated && order.state !== ORDER_STATE.timedOut) {
        return { kind: 'notAwaitingPayment', state: order.state };
      }
      if (order.locked) return { kind: 'locked', state: order.state };
      const [other] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.utr, input.utr));
      if (other) return { kind: 'utrUsed', state: order.state };
      const rates =
        locked.c_supplier_id === null
          ? null
          : {
              supplier_id: locked.c_supplier_id as number,
              rate: locked.c_rate as number,
              parent_id: locked.c_parent_id as number | null,
              parent_rate: locked.c_parent_rate as number,
            };
      const after = await this.payments.pay(
        tx,
        order,
        actor,
        {
          supplementType: null,
          utr: input.utr,
          note: note('paidByGateway', { gateway: input.gateway.name, utr: input.utr }),
        },
        rates,
      );
      await writeAudit(
        tx,
        actor,
        {
          action: 'orders.gatewayPaid',
          target: `order:${order.orderCode}`,
          before: { state: order.state, mark: order.mark, locked: order.locked, resourceId: order.resourceId },
          after: {
            state: after.state,
            utr: input.utr,
            payGatewayId: input.gateway.id,
            payGatewayName: input.gateway.name,
          },
        },
        this.now(),
      );
      return { kind: 'paid', state: after.state, order: after };
    });
    if (outcome.kind === 'paid') this.publish(outcome.order);
    return outcome;
  }

  // ---- the payer ----

  /**
   * The payer submits the UTR of the payment; the supplier checks it and confirms. Where the order asks
   * for the payer's name (AlipayToAlipayByHandSubmitName, 5002) it comes with it, and a name sent where
   * none is asked for is not kept.
   */
  async submitPayerUtr(
    orderCode: string,
    utr: string,
    payerName?: string,
  ): Promise<{ orderCode: string; payerUtr: string; payerName: string | null }> {
    const updated = await this.db.transaction(async (tx) => {
      const [order] = await tx.select().from(orders).where(eq(orders.orderCode, orderCode)).for('update');
      if (!order) throw notFound('no such order');
      if (order.state !== ORDER_STATE.allocated && order.state !== ORDER_STATE.timedOut) {
        throw refused('this order is not awaiting payment', 'notAwaitingPayment');
      }
      const settings = await this.settings.get(tx);
      const asked = payerNameRequired(order.productId, settings.alipayByHandSubmitName);
      if (asked && !payerName) {
        throw invalid([{ path: 'payerName', message: "the payer's name is required" }], 'payerNameRequired');
      }
      const name = asked ? payerName! : null;
      const [row] = await tx
        .update(orders)
        .set({ payerUtr: utr, payerName: name, updatedAt: this.now() })
        .where(eq(orders.id, order.id))
        .returning();
      await this.event(
        tx,
        row!,
        'payerUtr',
        null,
        null,
        null,
        name ? note('payerUtrName', { utr, name }) : note('payerUtr', { utr }),
      );
      return row!;
    });
    this.publish(updated);
    return { orderCode: updated.orderCode, payerUtr: utr, payerName: updated.payerName };
  }
}
