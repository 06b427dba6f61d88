import { inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { users } from '../../db/schema.js';

/** The account names of these user ids (who changed a setting or a template), in one read. */
export async function accountNamesOf(db: DbOrTx, ids: ReadonlyArray<number | null>): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.select({ id: users.id, account: users.account }).from(users).where(inArray(users.id, wanted));
  return new Map(rows.map((u) => [u.id, u.account]));
}
