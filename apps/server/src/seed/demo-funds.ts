import type { Services } from '../app.js';
import type { Db } from '../db/client.js';

/** Demo data: balances through maker-checker proposals. `ids` maps each demo account name to its user id. */
export async function seedDemoFunds(_db: Db, _services: Services, _ids: ReadonlyMap<string, number>): Promise<void> {}
