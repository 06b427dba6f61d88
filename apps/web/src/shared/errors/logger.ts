import { endpoints } from '@paydesk/contract';
import { call } from '../api/http';
import { getToken } from '../api/session-storage';

/**
 * Script errors (spec section 8): window errors and unhandled rejections are posted to the error
 * logger and counted for the header badge.
 */
let count = 0;
const listeners = new Set<() => void>();

export const errorCount = () => count;
export function onErrorCount(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function report(message: string, stack: string | undefined) {
  count += 1;
  for (const l of listeners) l();
  if (!getToken()) return; // the logger is for signed-in users; nothing to post to before sign-in
  void call(endpoints.errorLog.save, {
    page: location.pathname.slice(0, 512),
    message: message.slice(0, 2000) || 'unknown error',
    ...(stack ? { stack: stack.slice(0, 8000) } : {}),
    userAgent: navigator.userAgent.slice(0, 512),
  }).catch(() => undefined); // reporting must never raise a new error
}

export function installErrorLogger(): () => void {
  const onError = (e: ErrorEvent) => report(e.message, e.error instanceof Error ? e.error.stack : undefined);
  const onRejection = (e: PromiseRejectionEvent) => {
    const reason = e.reason;
    report(
      reason instanceof Error ? reason.message : String(reason),
      reason instanceof Error ? reason.stack : undefined,
    );
  };
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  return () => {
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onRejection);
  };
}
