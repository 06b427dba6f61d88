import { type AnyColumn, eq, ilike, type SQL } from 'drizzle-orm';

/** Escapes % and _ (and the escape character) so a LIKE / ILIKE filter matches them literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * A list's filter on a code column (order and payout codes): a whole code (`shape`) is looked up in
 * the column's unique index; a part of one is searched for anywhere in the column, which reads every
 * row the other filters leave (4.5 s at 10 million orders: bench/README.md "Scale"). Codes are
 * upper case; the search ignores case either way.
 */
export function codeFilter(column: AnyColumn, text: string, shape: RegExp): SQL {
  const trimmed = text.trim();
  return shape.test(trimmed) ? eq(column, trimmed.toUpperCase()) : ilike(column, `%${escapeLike(text)}%`);
}
