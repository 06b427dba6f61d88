/** The payer page's addresses (IsNewPayUrl): /pay/<orderCode>, or the legacy /pay?orderCode=<orderCode>. */
const PAY_PATH = /^\/pay\/([^/]+)\/?$/;
const LEGACY_PAY_PATH = /^\/pay\/?$/;

/** The order code a payer page address names ('' when it names none: the page then says so). */
export function payerOrderCodeOf(location: { pathname: string; search: string }): string {
  const path = PAY_PATH.exec(location.pathname);
  if (path) return decodeURIComponent(path[1]!);
  if (LEGACY_PAY_PATH.test(location.pathname)) return new URLSearchParams(location.search).get('orderCode') ?? '';
  return '';
}
