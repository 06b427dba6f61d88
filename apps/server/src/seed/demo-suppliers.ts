import type { Services } from '../app.js';
import type { Db } from '../db/client.js';

/** Demo data: supplier1 and its agent agent1 as supplier records with commissions. `ids` maps each demo account name to its user id. */
export async function seedDemoSuppliers(
  _db: Db,
  _services: Services,
  _ids: ReadonlyMap<string, number>,
): Promise<void> {}
