import { Code } from '@paydesk/contract';
import type { TFunction } from 'i18next';
import { ApiError } from '../../shared/api/http';

/**
 * A refusal in the payer's language. The payer page does not load the console's catalogue of server
 * texts (it would double the page's download); its endpoints answer few refusals, each named here.
 */
export function payerErrorText(t: TFunction<'pay'>, error: unknown): string {
  if (!(error instanceof ApiError)) return t('refusal.network');
  if (error.code === Code.tooManyRequests) return t('refusal.tooMany');
  if (error.code === Code.notFound || error.code === Code.orderNotFound) return t('refusal.notFound');
  return t('refusal.server');
}
