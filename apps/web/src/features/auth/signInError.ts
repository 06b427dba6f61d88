import { Code } from '@paydesk/contract';
import type { TFunction } from 'i18next';
import { ApiError } from '../../shared/api/http';

/**
 * A sign-in or second-level password refusal in the reader's language: wrong credentials, a wrong or
 * reused code, an address locked out for a while, an account slowed down, too many attempts. Any
 * other refusal keeps the server's text.
 */
export function signInErrorText(t: TFunction<'auth'>, error: Error, opts: { secondLevel?: boolean } = {}): string {
  if (!(error instanceof ApiError)) return error.message;
  const data = error.data as { retryAfterSeconds?: unknown } | null;
  const seconds = typeof data?.retryAfterSeconds === 'number' ? data.retryAfterSeconds : null;
  const minutes = seconds === null ? null : Math.max(1, Math.ceil(seconds / 60));
  switch (error.code) {
    case Code.wrongCredentials:
      return t(opts.secondLevel ? 'refusal.wrongSecondLevel' : 'refusal.wrongCredentials');
    case Code.wrongAuthCode:
      return t('refusal.wrongAuthCode');
    case Code.accountLocked:
      if (error.reason === 'signInDelayed') return t('refusal.signInDelayed', { seconds: seconds ?? 60 });
      return t('refusal.accountLocked', { minutes: minutes ?? 15 });
    case Code.tooManyRequests:
      return t('refusal.tooManyRequests');
    default:
      return error.message;
  }
}
