import type { i18n as I18n } from 'i18next';
import { labelOr } from '../../i18n/labelOr';

/** Query keys of the funds area; every balance change invalidates `fundKeys.all` (and the party lists reload). */
export const fundKeys = {
  all: ['funds'] as const,
  records: ['funds', 'records'] as const,
  proposals: ['funds', 'proposals'] as const,
  totalBalance: ['funds', 'totalBalance'] as const,
};

/** A transfer type in the user's language; an order type this console does not know yet shows as sent. */
export function transferTypeText(i18n: I18n, type: string): string {
  return labelOr(i18n, `funds:type.${type}`, type);
}

/** The parties a ledger account may be named after: an order's or a payout's merchant and supplier. */
export interface LedgerAccountNames {
  merchantId: number;
  merchantName?: string | null | undefined;
  supplierId: number | null;
  supplierName?: string | null | undefined;
}

/**
 * A ledger account code in words: 'merchant:3:available' reads 'Merchant Shop A available balance'
 * (the order's merchant and supplier by name when known, another party by its number),
 * 'platform:revenue' 'Platform revenue'.
 */
export function ledgerAccountText(i18n: I18n, code: string, names: LedgerAccountNames): string {
  const word = (key: string) => labelOr(i18n, `funds:ledgerAccount.${key}`, key);
  const [owner = '', id = '', bucket = ''] = code.split(':');
  if (owner === 'platform') return `${word('platform')} ${word(id)}`;
  let name = `#${id}`;
  if (owner === 'merchant' && Number(id) === names.merchantId && names.merchantName) name = names.merchantName;
  if (owner === 'supplier' && Number(id) === names.supplierId && names.supplierName) name = names.supplierName;
  return `${word(owner)} ${name} ${word(bucket)}`;
}
