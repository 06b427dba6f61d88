/**
 * Where a paid order's callback goes: the order's notifyUrl, else the merchant's; null when the
 * merchant has callbacks off or neither names an address. The scheduler records a callback by it, and
 * the order action rule offers 'callback' by it, so the two cannot disagree.
 */
export function callbackUrl(
  order: { notifyUrl: string | null },
  merchant: { notifyUrl: string | null; callbackEnabled: boolean } | undefined,
): string | null {
  if (!merchant?.callbackEnabled) return null;
  return (order.notifyUrl ?? merchant.notifyUrl) || null;
}
