import type { i18n as I18n } from 'i18next';
import { labelOr } from '../../i18n/labelOr';
import { ApiError } from '../api/http';

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

/** The server's refusal in the user's language: by its reason key when known, else its message. */
export function fundsErrorText(i18n: I18n, error: unknown): string {
  const key = error instanceof ApiError && error.reason ? `funds:reason.${error.reason}` : undefined;
  if (key && i18n.exists(key)) return i18n.t(key);
  return error instanceof Error ? error.message : String(error);
}
