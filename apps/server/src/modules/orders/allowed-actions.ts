import type { OrderActionFacts } from '@paydesk/contract';
import { callbackUrl } from '../callbacks/callback-url.js';

/** The facts of an order the action rule reads. */
export function actionFacts(
  order: { state: number; locked: boolean; notifyUrl: string | null },
  merchant: { notifyUrl: string | null; callbackEnabled: boolean } | undefined,
): OrderActionFacts {
  return { state: order.state, locked: order.locked, callbackReachable: callbackUrl(order, merchant) !== null };
}
