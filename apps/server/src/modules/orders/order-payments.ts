import {
  Code,
  type NoteTemplate,
  note,
  noteParts,
  ORDER_STATE,
  type OrderTransferType,
  SUPPLEMENT_TYPE,
} from '@paydesk/contract';
import type { Tx } from '../../db/client.js';
import { tableRow } from '../../db/raw-rows.js';
import { orders } from '../../db/schema.js';
import type { Actor } from '../../platform/audit.js';
import { violatedConstraint } from '../../platform/db-errors.js';
import { AppError, conflict, refused } from '../../platform/errors.js';
import { accountCode, revenueAccountCode } from '../ledger/accounts.js';
import type { Posting } from '../ledger/ledger.service.js';
import { type CommissionRatesRow, commissionFromRates } from '../suppliers/suppliers.service.js';
import { ORDER_TEXTS, OrderPart, type OrderRecord } from './order-core.js';
import { moveOrderState } from './order-state.js';
import { ADD_DAILY, PAY_ORDER } from './statements.js';

/** Adds postings to the same account together and drops zeros (a transfer names each account once). */
function merged(postings: Posting[]): Posting[] {
  const byAccount = new Map<string, number>();
  for (const p of postings) byAccount.set(p.account, (byAccount.get(p.account) ?? 0) + p.amount);
  return [...byAccount].filter(([, amount]) => amount !== 0).map(([account, amount]) => ({ account, amount }));
}

/** The supplier's hold for an allocation of an order: its available balance moves to frozen. */
export function holdTransfer(
  orderCode: string,
  allocationNo: number,
  supplierId: number,
  amount: number,
  actorUserId: number | null,
) {
  return {
    idempotencyKey: `${orderCode}:hold:${allocationNo}`,
    type: 'orderHold' satisfies OrderTransferType,
    orderCode,
    note: note('orderHold', { orderCode }),
    actorUserId,
    postings: [
      { account: accountCode('supplier', supplierId, 'available'), amount: -amount },
      { account: accountCode('supplier', supplierId, 'frozen'), amount },
    ],
  };
}

/** The idempotency key of an order's payment transfer (its reversal finds it by this key). */
const payTransferKey = (orderCode: string) => `${orderCode}:pay`;

/**
 * Payments and transfers of collection orders (DESIGN section 5): the supplier's hold and its release,
 * the payment transfer and the merchant's notification, the daily totals, and a payment's reversal.
 * Every balance change is a ledger transfer inside the caller's transaction.
 */
export class OrderPayments extends OrderPart {
  /** Releases the supplier's hold of the current allocation, if one is open. */
  async releaseHold(
    tx: Tx,
    order: OrderRecord,
    actor: Actor | null,
    why: 'releaseReselected' | 'releaseRejected' | 'releaseFreed' | 'releaseReversed' | 'releaseTimedOut',
  ): Promise<void> {
    if (!order.holdOpen || order.supplierId === null) return;
    await this.deps.ledger.transfer(tx, {
      idempotencyKey: `${order.orderCode}:release:${order.allocationNo}`,
      type: 'orderRelease' satisfies OrderTransferType,
      orderCode: order.orderCode,
      note: note(why, { orderCode: order.orderCode }),
      actorUserId: actor?.userId ?? null,
      postings: [
        { account: accountCode('supplier', order.supplierId, 'frozen'), amount: -order.amount },
        { account: accountCode('supplier', order.supplierId, 'available'), amount: order.amount },
      ],
    });
  }

  // ---- payment ----

  /**
   * The payment transfer (DESIGN section 5): the supplier's money (its hold, or its available balance
   * when the hold was released or never taken) goes to the merchant less the fee, the suppliers'
   * commission, and the platform's revenue; then the merchant is notified.
   */
  async pay(
    tx: Tx,
    order: OrderRecord,
    actor: Actor | null,
    how: { supplementType: number | null; utr: string | null; note: NoteTemplate },
    /** The commission rates read with the order's lock (`LOCK_ORDER`), when they are this supplier's. */
    rates?: CommissionRatesRow | null,
  ): Promise<OrderRecord> {
    if (order.supplierId === null || order.resourceId === null)
      throw refused(ORDER_TEXTS.allocationFailed, 'allocationFailed');
    const now = this.now();
    const input = { supplierId: order.supplierId, productId: order.productId, amount: order.amount };
    const commission =
      rates && Number(rates.supplier_id) === order.supplierId
        ? commissionFromRates(rates, input)
        : await this.deps.suppliers.commissionPostings(tx, input);
    const commissionTotal = commission.reduce((sum, p) => sum + p.amount, 0);
    const fromHold = order.holdOpen;
    // Rows only this order needs come first. The rows every payment of the merchant shares (its
    // balance) and many payments share (a revenue shard) are locked in the very last statement, so each
    // payment holds them for the fewest statements before its commit: they decide how many payments
    // per second one merchant can take. The merchant's and the supplier's daily totals lock nothing
    // (a delta row each, folded later).
    const { note: english, noteTemplate } = noteParts(how.note);
    let paid: OrderRecord;
    try {
      const [raw] = await PAY_ORDER.rows<Record<string, unknown>>(tx, {
        orderId: order.id,
        fromState: order.state,
        toState: ORDER_STATE.paidNotifying,
        commission: commissionTotal,
        paidFromHold: fromHold,
        supplementType: how.supplementType,
        utr: how.utr,
        actorUserId: actor?.userId ?? null,
        actorAccount: actor?.account ?? null,
        note: english,
        noteTemplate: noteTemplate === null ? null : JSON.stringify(noteTemplate),
        now: now.toISOString(),
        ...this.dailyKey(order, now),
        amount: order.amount,
      });
      paid = tableRow(orders, raw!);
    } catch (error) {
      if (violatedConstraint(error) === 'orders_utr_uq') throw conflict(ORDER_TEXTS.utrUsed, 'utrUsed');
      throw error;
    }
    const scheduled = await this.deps.callbacks.schedule(tx, paid, 'auto');
    if (!scheduled) {
      // Nothing will be delivered: the order is paid for good, not 'paid, notifying' for ever.
      const settled = await moveOrderState(tx, paid, {
        from: [ORDER_STATE.paidNotifying],
        to: ORDER_STATE.paid,
        kind: 'callbackSkipped',
        note: note('callbacksOff'),
        now,
      });
      paid = settled ?? paid;
    }
    const postings = merged([
      { account: accountCode('supplier', order.supplierId, fromHold ? 'frozen' : 'available'), amount: -order.amount },
      ...commission,
      { account: accountCode('merchant', order.merchantId, 'available'), amount: order.amount - order.fee },
      { account: revenueAccountCode(order.orderCode), amount: order.fee - commissionTotal },
    ]);
    try {
      await this.deps.ledger.transfer(tx, {
        idempotencyKey: payTransferKey(order.orderCode),
        type: 'orderPaid' satisfies OrderTransferType,
        orderCode: order.orderCode,
        // Both parties read this note in their fund records: how it was paid, never who confirmed it
        // (the transfer's actor keeps that for staff).
        note:
          how.supplementType === SUPPLEMENT_TYPE.offset
            ? note('orderPaidOffset', { orderCode: order.orderCode })
            : how.supplementType === SUPPLEMENT_TYPE.utr
              ? note('orderPaidUtr', { orderCode: order.orderCode, utr: how.utr ?? '' })
              : note('orderPaid', { orderCode: order.orderCode }),
        actorUserId: actor?.userId ?? null,
        postings,
      });
    } catch (error) {
      if (error instanceof AppError && error.code === Code.businessRule && !fromHold) {
        throw refused(ORDER_TEXTS.supplierBalanceShort, 'supplierBalanceShort');
      }
      throw error;
    }
    return paid;
  }

  /** Whose daily totals an order counts in, and on which day (of its payment). */
  private dailyKey(order: OrderRecord, paidAt: Date) {
    return {
      resourceId: order.resourceId,
      userIds: [order.merchantUserId, order.supplierUserId].filter((id): id is number => id !== null),
      productId: order.productId,
      day: this.today(paidAt),
    };
  }

  /** Takes a reversed order back out of the daily totals of the day it was paid. */
  private async subtractDaily(tx: Tx, order: OrderRecord): Promise<void> {
    await ADD_DAILY.rows(tx, { ...this.dailyKey(order, order.paidAt ?? this.now()), count: -1, amount: -order.amount });
  }

  /**
   * The ledger side of a reversal: the daily totals back, the exact opposite of the payment, then the
   * hold the payment consumed released.
   */
  async reversePayment(tx: Tx, order: OrderRecord, actor: Actor): Promise<void> {
    // The resource's daily total before the balances, in the order a payment takes them (no deadlock).
    await this.subtractDaily(tx, order);
    const transferId = await this.deps.ledger.transferIdByKey(tx, payTransferKey(order.orderCode));
    if (transferId === null) throw new Error(`order ${order.orderCode} is paid but has no payment transfer`);
    try {
      await this.deps.ledger.reverse(tx, {
        transferId,
        idempotencyKey: `${order.orderCode}:reverse`,
        note: note('orderReversal', { orderCode: order.orderCode }),
        actorUserId: actor.userId,
      });
    } catch (error) {
      if (error instanceof AppError && error.code === Code.businessRule) {
        throw refused(ORDER_TEXTS.merchantBalanceShort, 'merchantBalanceShort');
      }
      throw error;
    }
    if (order.paidFromHold) {
      // The reversal put the amount back on the supplier's hold: the order is over, so release it.
      await this.releaseHold(tx, { ...order, holdOpen: true }, actor, 'releaseReversed');
    }
  }
}
