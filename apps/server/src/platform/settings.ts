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
