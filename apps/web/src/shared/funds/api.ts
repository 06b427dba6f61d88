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
