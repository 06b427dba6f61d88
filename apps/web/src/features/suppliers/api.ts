import { Code } from '@paydesk/contract';
import type { i18n as I18n } from 'i18next';
import { ApiError } from '../../shared/api/http';
import { formatRate } from '../../shared/format/money';

/** Query keys of the supplier pages; every change invalidates `supplierKeys.all`. */
export const supplierKeys = {
  all: ['suppliers'] as const,
  list: ['suppliers', 'list'] as const,
  proxy: ['suppliers', 'proxy'] as const,
  mine: ['suppliers', 'mine'] as const,
  unusedAccounts: ['suppliers', 'unusedAccounts'] as const,
  commissions: (agentId: number) => ['suppliers', 'commissions', agentId] as const,
};

/**
 * A refusal in the user's language: by its reason key (with a rate cap shown as a percentage), the
 * spec's text for a duplicate account, else the server's message.
 */
export function supplierErrorText(i18n: I18n, error: unknown): string {
  if (error instanceof ApiError) {
    const key = error.reason ? `suppliers:reason.${error.reason}` : undefined;
    if (key && i18n.exists(key)) {
      const data = (error.data ?? {}) as { max?: unknown };
      return i18n.t(key, typeof data.max === 'number' ? { max: formatRate(data.max) } : {});
    }
    if (error.code === Code.conflict) return i18n.t('suppliers:error.addFailed');
  }
  const message = error instanceof Error ? error.message : String(error);
  return i18n.t('suppliers:error.generic', { message });
}
