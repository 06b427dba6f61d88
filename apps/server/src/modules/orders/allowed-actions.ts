import type { OrderActionFacts } from '@paydesk/contract';

/**
 * Whether a callback of the order can go out: the merchant has callbacks on and the order (else the
 * merchant) names a notify URL. The same test as the callback scheduler's, read for the action rule
 * (`orderActionRefusal`) before the action runs and for the rows' `allowedActions`.
 */
export function callbackReachable(
  order: { notifyUrl: string | null },
  merchant: { notifyUrl: string | null; callbackEnabled: boolean } | undefined,
): boolean {
  return Boolean(merchant?.callbackEnabled && (order.notifyUrl ?? merchant.notifyUrl));
}

/** The facts of an order the action rule reads. */
export function actionFacts(
  order: { state: number; locked: boolean; notifyUrl: string | null },
  merchant: { notifyUrl: string | null; callbackEnabled: boolean } | undefined,
): OrderActionFacts {
  return { state: order.state, locked: order.locked, callbackReachable: callbackReachable(order, merchant) };
}
