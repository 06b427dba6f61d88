/**
 * Where a paid order's callback goes: the order's notifyUrl, else the merchant's; null when the
 * merchant has callbacks off or neither names an address. The order action rule offers 'callback' by
 * it; the scheduler's statement (SCHEDULE_CALLBACK) applies the same rule in SQL, and the order
 * actions' walk test (orders.offered.test.ts) fails if the two disagree.
 */
export function callbackUrl(
  order: { notifyUrl: string | null },
  merchant: { notifyUrl: string | null; callbackEnabled: boolean } | undefined,
): string | null {
  if (!merchant?.callbackEnabled) return null;
  return (order.notifyUrl ?? merchant.notifyUrl) || null;
}
