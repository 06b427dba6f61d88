import { majorToMinor } from '@paydesk/contract';
import i18n from 'i18next';

/**
 * Money on screen (spec section 9): the server's minor units divided by 100, two decimals, with the
 * thousands separators of the console's language. Display only: amounts sent back stay integers.
 */
export function formatMoney(minor: number | null | undefined, language = i18n.language || 'zh-CN'): string {
  if (minor === null || minor === undefined || !Number.isFinite(minor)) return '';
  return new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(minor / 100);
}

/** A rate in basis points as a percentage: 250 -> '2.50%'. */
export function formatRate(basisPoints: number | null | undefined): string {
  if (basisPoints === null || basisPoints === undefined) return '';
  return `${(basisPoints / 100).toFixed(2)}%`;
}

/** What a user typed in major units ('1,234.5') to minor units (123450); null when it is not a number. */
export function parseMoneyInput(text: string | number | null | undefined): number | null {
  if (text === null || text === undefined) return null;
  const cleaned = String(text).replace(/[,\s]/g, '');
  if (cleaned === '') return null;
  return majorToMinor(cleaned);
}

/** A percentage typed by a user ('2.5') to basis points (250); null when it is not a number. */
export function parseRateInput(text: string | number | null | undefined): number | null {
  const minor = parseMoneyInput(text);
  return minor === null ? null : minor;
}
