import type { Services } from '../app.js';
import type { Db } from '../db/client.js';
import { partyProducts } from '../db/schema.js';
import { SYSTEM_ACTOR } from '../platform/audit.js';

/**
 * Demo data: merchant1 as merchant 'Merchant One' (made by the console's own code path, so it is
 * audited and its API secret sealed), with product settings: 1001 UPI collection at 2.50 %, and 2001
 * bank payout at 1.50 % plus 5.00 per transaction. `ids` maps each demo account name to its user id.
 */
export async function seedDemoMerchants(db: Db, services: Services, ids: ReadonlyMap<string, number>): Promise<void> {
  const userId = ids.get('merchant1');
  if (userId === undefined) return;
  await services.merchants.create(
    'superAdmin',
    {
      name: 'Merchant One',
      mode: 'linkAccount',
      userId,
      signType: 'HMAC-SHA256',
      ipWhitelist: [],
      notifyUrl: null,
      callbackEnabled: true,
      remark: 'demo merchant',
    },
    SYSTEM_ACTOR,
  );
  const updatedAt = services.merchants.deps.clock.now();
  await db.insert(partyProducts).values([
    { userId, productId: 1001, enabled: true, feeRate: 250, perTransactionFee: 0, updatedAt },
    { userId, productId: 2001, enabled: true, feeRate: 150, perTransactionFee: 500, updatedAt },
  ]);
}
