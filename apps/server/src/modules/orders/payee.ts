import type { Payee } from '@paydesk/contract';
import { minorToMajorText } from '@paydesk/contract';
import type { orders, resources } from '../../db/schema.js';

type ResourceRecord = typeof resources.$inferSelect;
type OrderRecord = typeof orders.$inferSelect;
/** What of a receiving account the payer is shown. */
export type PayeeAccount = Pick<ResourceRecord, 'kind' | 'details' | 'qrImageId'>;

/**
 * What the payer of `order` pays to: the public fields of its receiving account by channel, never a
 * secret (payout kinds have none here: only collection resources take orders).
 */
export function payeeOf(resource: PayeeAccount, order: Pick<OrderRecord, 'orderCode' | 'amount' | 'usdtCount'>): Payee {
  const d = resource.details;
  const pick = (...keys: string[]) => Object.fromEntries(keys.filter((k) => d[k]).map((k) => [k, d[k] as string]));
  switch (resource.kind) {
    case 'upi': {
      const upiLink = d.vpa
        ? `upi://pay?pa=${d.vpa}&pn=${encodeURIComponent(d.accountName ?? '')}&am=${minorToMajorText(order.amount)}&cu=INR&tn=${order.orderCode}`
        : undefined;
      return {
        kind: resource.kind,
        ...pick('accountName', 'bankName', 'cardNumber', 'ifsc', 'vpa'),
        ...(upiLink ? { upiLink } : {}),
        qrCode: upiLink ?? null,
        // The account's own QR image (read with /v1.0/pay/qrImage), when its supplier uploaded one.
        hasQrImage: resource.qrImageId !== null,
      };
    }
    case 'cardToCard':
      return { kind: resource.kind, ...pick('accountName', 'bankName', 'cardNumber', 'ifsc'), qrCode: null };
    case 'usdtWallet':
      return {
        kind: resource.kind,
        ...pick('address'),
        ...(order.usdtCount !== null ? { usdtCount: order.usdtCount } : {}),
        qrCode: d.address ?? null,
      };
    case 'kenyaMobileMoney':
      return { kind: resource.kind, ...pick('phone', 'accountName'), qrCode: null };
    default:
      return {
        kind: resource.kind,
        ...pick('accountName', 'paymentLink'),
        qrCode: null,
        hasQrImage: resource.qrImageId !== null,
      };
  }
}
