import dayjs, { type Dayjs } from 'dayjs';
import { TIME_FORMAT } from '../format/time';
import type { FilterField, Filters } from './types';

/** Spec section 5: dates go to the server as 'YYYY-MM-DD HH:mm:ss'. */
export const FILTER_DATE_FORMAT = TIME_FORMAT;

/** What a user may type in a money filter: major units, at most two decimals, separators allowed. */
const TYPED_MAJOR = /^([+-]?)(\d{1,16})(?:\.(\d{1,2}))?$/;
/** A money filter as sent: major units with four decimals (the typed amount plus 0.0001). */
const SENT_MAJOR = /^(-?)(\d{1,16})\.(\d{4})$/;
/** The spec's 0.0001, in units of 1/10000. */
const EPSILON = 1n;
const DIGITS = /^\d+$/;

/** Units of 1/10000 as decimal text: 5000001n -> '500.0001'. */
function fourDecimals(v: bigint): string {
  const neg = v < 0n;
  const abs = neg ? -v : v;
  return `${neg ? '-' : ''}${abs / 10_000n}.${(abs % 10_000n).toString().padStart(4, '0')}`;
}

/**
 * Spec section 5: an amount filter is sent in major units with 0.0001 added. Done on decimal text,
 * never through a float: '500' -> '500.0001', '12.5' -> '12.5001', '1,234.56' -> '1234.5601'.
 * Null when the text is not an amount (the form shows an error instead of sending it).
 */
export function moneyFilterText(typed: string): string | null {
  const m = TYPED_MAJOR.exec(typed.replace(/[,\s]/g, ''));
  if (!m) return null;
  const [, sign, whole, fraction = ''] = m;
  const scaled = BigInt(`${whole}${fraction.padEnd(4, '0')}`);
  return fourDecimals((sign === '-' ? -scaled : scaled) + EPSILON);
}

/** The inverse, for filling the form from a saved view: '500.0001' -> '500', '12.5001' -> '12.5'. */
export function typedMoneyOf(sent: string): string {
  const m = SENT_MAJOR.exec(sent);
  if (!m) return sent;
  const [, sign, whole, fraction] = m;
  const scaled = BigInt(`${whole}${fraction}`);
  const text = fourDecimals((sign === '-' ? -scaled : scaled) - EPSILON);
  return text.replace(/\.?0+$/, '');
}

export function isValidMoneyInput(typed: string): boolean {
  return typed.trim() === '' || moneyFilterText(typed) !== null;
}

export function isValidNumberInput(typed: string): boolean {
  const v = typed.trim();
  return v === '' || DIGITS.test(v);
}

/**
 * Form values -> request filters: trimmed texts, empty means absent (spec section 5: empty strings
 * are null, left out of the query), ranges as two formatted dates, amounts as major units + 0.0001.
 */
export function toFilters(fields: FilterField[], values: Record<string, unknown>): Filters {
  const out: Filters = {};
  for (const f of fields) {
    const v = values[f.name];
    if (f.kind === 'dateRange') {
      const range = v as [Dayjs | null, Dayjs | null] | null | undefined;
      const [from, to] = f.keys ?? ['startTime', 'endTime'];
      if (range?.[0]) out[from] = range[0].format(FILTER_DATE_FORMAT);
      if (range?.[1]) out[to] = range[1].format(FILTER_DATE_FORMAT);
    } else if (typeof v === 'number' || typeof v === 'boolean') {
      out[f.name] = v;
    } else if (typeof v === 'string' && v.trim() !== '') {
      const text = v.trim();
      if (f.kind === 'money') {
        const sent = moneyFilterText(text);
        if (sent !== null) out[f.name] = sent;
      } else if (f.kind === 'number') {
        if (DIGITS.test(text)) out[f.name] = text;
      } else {
        out[f.name] = text;
      }
    }
  }
  return out;
}

/** Request filters (a saved view) -> form values; keys no field declares are ignored. */
export function toFormValues(fields: FilterField[], filters: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (f.kind === 'dateRange') {
      const [from, to] = f.keys ?? ['startTime', 'endTime'];
      const date = (v: unknown) => (typeof v === 'string' && dayjs(v).isValid() ? dayjs(v) : null);
      const range = [date(filters[from]), date(filters[to])];
      if (range[0] || range[1]) out[f.name] = range;
      continue;
    }
    const v = filters[f.name];
    if (v === undefined || v === null) continue;
    if (f.kind === 'money') out[f.name] = typedMoneyOf(String(v));
    else if (f.kind === 'select') {
      // Keep the option's own value (and type) when one matches.
      out[f.name] = f.options.find((o) => String(o.value) === String(v))?.value ?? v;
    } else out[f.name] = String(v);
  }
  return out;
}

/**
 * The filters a link opened the list with (the home page's waiting work links to `?orderStatusId=1`):
 * the query's keys that name one of the list's filters, as a saved view holds them; others are ignored.
 */
export function linkedFilters(fields: FilterField[], search: string): Record<string, string> {
  const names = new Set(
    fields.flatMap((f) => (f.kind === 'dateRange' ? (f.keys ?? ['startTime', 'endTime']) : [f.name])),
  );
  return Object.fromEntries([...new URLSearchParams(search)].filter(([key, value]) => names.has(key) && value !== ''));
}
