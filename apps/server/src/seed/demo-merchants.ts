import type { Services } from '../app.js';
import type { Db } from '../db/client.js';

/** Demo data: merchant1 as a merchant record with products and fees. `ids` maps each demo account name to its user id. */
export async function seedDemoMerchants(
  _db: Db,
  _services: Services,
  _ids: ReadonlyMap<string, number>,
): Promise<void> {}
