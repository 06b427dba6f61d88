import { Code } from '@paydesk/contract';
import type { i18n as I18n } from 'i18next';
import { errorText } from '../../shared/api/errorText';
import { ApiError } from '../../shared/api/http';

/**
 * A sign-in or second-level password refusal in the reader's language (wrong credentials, a wrong or
 * reused code, an address locked out for a while, an account slowed down, too many attempts): the
 * shared errorText, with one console-side twist: a 1001 without a reason in the second-level dialog
 * is the second-level password, not the sign-in password.
 */
export function signInErrorText(i18n: I18n, error: Error, opts: { secondLevel?: boolean } = {}): string {
  if (opts.secondLevel && error instanceof ApiError && error.code === Code.wrongCredentials && !error.reason) {
    return i18n.t('server:reason.secondLevelIncorrect');
  }
  return errorText(i18n, error);
}
