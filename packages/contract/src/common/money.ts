import { z } from 'zod';
import { emptyToNull } from './paging.js';

/**
 * Money (DESIGN section 5): the server holds integers of minor units (1/100) only. The console shows
 * them divided by 100 and sends money filters in major units plus 0.0001 (spec section 5); the server
 * reads those as decimal text and rounds half up to minor units, never through a float.
 */

/** Largest amount accepted in an input, in minor units (1e15 = 10 trillion major units). */
export const MAX_MONEY_MINOR = 1_000_000_000_000_000;

const DECIMAL = /^([+-]?)(\d{1,16})(?:\.(\d{1,8}))?$/;

/** '12.34' -> 1234; '12.3451' -> 1235 (half up); null when the text is not a plain decimal. */
export function majorToMinor(text: string | number): number | null {
  const m = DECIMAL.exec(String(text).trim());
  if (!m) return null;
  const [, sign, whole, fraction = ''] = m;
  const padded = `${fraction}000`;
  let minor = BigInt(whole!) * 100n + BigInt(padded.slice(0, 2));
  if (Number(padded[2]) >= 5) minor += 1n;
  if (minor > BigInt(MAX_MONEY_MINOR)) return null;
  const n = Number(minor);
  return sign === '-' && n !== 0 ? -n : n;
}

/** 1234 -> '12.34' (plain, no separators: CSV and inputs). */
export function minorToMajorText(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = BigInt(Math.abs(minor));
  return `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/** A money filter in major units (query text), parsed to minor units; empty means no filter. */
export const moneyFilter = z.preprocess((v) => {
  const e = emptyToNull(v);
  if (e === null || e === undefined) return e;
  if (typeof e !== 'string' && typeof e !== 'number') return e;
  return majorToMinor(e) ?? Number.NaN;
}, z
  .number({ error: 'an amount filter is a decimal number of major units' })
  .int()
  .min(-MAX_MONEY_MINOR)
  .max(MAX_MONEY_MINOR)
  .nullable()
  .optional());

/** An amount in minor units in a JSON body: a positive integer. */
export const minorAmount = z.number().int().positive().max(MAX_MONEY_MINOR);
/** A signed, non-zero amount in minor units (manual adjustments). */
export const signedMinorAmount = z
  .number()
  .int()
  .min(-MAX_MONEY_MINOR)
  .max(MAX_MONEY_MINOR)
  .refine((v) => v !== 0, 'an amount may not be zero');

/** A rate in basis points (1 = 0.01 %), 0 to 100 %. */
export const basisPoints = z.number().int().min(0).max(10_000);

/**
 * Sorting of a list: `sortBy` one of the list's sortable columns, `sortOrder` asc or desc. Lists that
 * sort take `...sortShape(['createdAt', 'balance'])` in their input.
 */
export function sortShape<const K extends readonly [string, ...string[]]>(keys: K) {
  return {
    sortBy: z.preprocess(emptyToNull, z.enum(keys).nullable().optional()),
    sortOrder: z.preprocess(emptyToNull, z.enum(['asc', 'desc']).nullable().optional()),
  };
}
