import { inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { systemSettings } from '../db/schema.js';

/**
 * Reads platform settings by the spec's key names (ShowLogo, SysFlag, ...), with their defaults.
 * The full typed registry and its get/set calls belong to the system-config area.
 */
export async function readSettings<T extends Record<string, unknown>>(db: DbOrTx, defaults: T): Promise<T> {
  const rows = await db
    .select()
    .from(systemSettings)
    .where(inArray(systemSettings.key, Object.keys(defaults)));
  const values: Record<string, unknown> = { ...defaults };
  for (const row of rows) values[row.key] = row.value;
  return values as T;
}

/** A setting saved as a boolean, as {enable} or as text. */
export function flagOf(value: unknown, fallback: boolean): boolean {
  if (value && typeof value === 'object' && 'enable' in value)
    return flagOf((value as { enable: unknown }).enable, fallback);
  if (value === true || value === 'true' || value === 1 || value === '1') return true;
  if (value === false || value === 'false' || value === 0 || value === '0') return false;
  return fallback;
}

/** A setting saved as a number, as {value} or as text; the fallback when it is not a positive integer. */
export function positiveIntOf(value: unknown, fallback: number): number {
  if (value && typeof value === 'object' && 'value' in value)
    return positiveIntOf((value as { value: unknown }).value, fallback);
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isInteger(n) && n > 0 ? n : fallback;
}
