import { type CallbackTrigger, PAYOUT_STATE, type PayoutStateName } from '@paydesk/contract';
import type { Tx } from '../../db/client.js';
import type { payouts } from '../../db/schema.js';
import { SCHEDULE_PAYOUT_CALLBACK } from './statements.js';

type PayoutRecord = typeof payouts.$inferSelect;

/** The merchant deduplicates on this id: the same for every delivery of a payout's final state. */
export const payoutNotificationIdOf = (orderCode: string) => `N${orderCode}`;

const STATE_NAMES = Object.fromEntries(Object.entries(PAYOUT_STATE).map(([name, code]) => [code, name])) as Record<
  number,
  PayoutStateName
>;

/**
 * The form fields of a payout's notification, without `sign` (docs/merchant-api.md, payout callbacks):
 * the payout's public fields with the values the payout query answers (`amount` and `fee` in minor
 * units, as the payout create takes them; `stateName` the PAYOUT_STATE name), `orderType` 'payout' so
 * that one notify address can take both kinds; `utr`, `rejectReason` and `completeTime` (ISO 8601,
 * UTC, completed payouts) only when the payout has them.
 */
export function payoutNotificationParams(payout: PayoutRecord, merchantNo: string): Record<string, string> {
  const params: Record<string, string> = {
    mchId: merchantNo,
    mchOrderNo: payout.merchantOrderNo,
    orderCode: payout.orderCode,
    orderType: 'payout',
    productId: String(payout.productId),
    amount: String(payout.amount),
    fee: String(payout.fee),
    state: String(payout.state),
    stateName: STATE_NAMES[payout.state] ?? String(payout.state),
    notificationId: payoutNotificationIdOf(payout.orderCode),
  };
  if (payout.utr) params.utr = payout.utr;
  if (payout.rejectReason) params.rejectReason = payout.rejectReason;
  if (payout.completedAt) params.completeTime = payout.completedAt.toISOString();
  return params;
}

/**
 * Records a payout's notification in the transaction that moved it to its final state (completed,
 * rejected, cancelled), so the notification exists exactly when that state commits: to the payout's
 * notifyUrl, else the merchant's, due at once; nothing when the merchant has callbacks off or no address
 * is known. The callback dispatcher delivers it like a collection order's (signed, on the schedule,
 * recorded, replayable); its outcome never moves the payout. The payouts module calls this; it needs no
 * service, so a payout's transition takes no dependency on the callbacks module's wiring.
 */
export async function schedulePayoutCallback(
  tx: Tx,
  payout: Pick<PayoutRecord, 'id' | 'merchantId' | 'orderCode' | 'merchantOrderNo' | 'notifyUrl'>,
  now: Date,
  trigger: CallbackTrigger = 'auto',
): Promise<{ callbackId: number } | null> {
  const [row] = await SCHEDULE_PAYOUT_CALLBACK.rows<{ id: string | number }>(tx, {
    payoutId: payout.id,
    merchantId: payout.merchantId,
    orderCode: payout.orderCode,
    merchantOrderNo: payout.merchantOrderNo,
    notificationId: payoutNotificationIdOf(payout.orderCode),
    payoutUrl: payout.notifyUrl,
    trigger,
    now: now.toISOString(),
  });
  return row ? { callbackId: Number(row.id) } : null;
}
