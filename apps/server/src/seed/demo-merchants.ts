import { eq } from 'drizzle-orm';
import type { Services } from '../app.js';
import type { Db } from '../db/client.js';
import { merchants, partyProducts } from '../db/schema.js';
import { SYSTEM_ACTOR } from '../platform/audit.js';
import { sealSecret } from '../platform/crypto.js';

/** merchant1's API credentials in the demo (demo data only: printed at first start). */
export const DEMO_MERCHANT_API = { mchId: '10001', secret: 'demo-secret-merchant1', signType: 'HMAC-SHA256' } as const;

/**
 * Demo data: merchant1 as merchant 'Merchant One' (made by the console's own code path, so it is
 * audited and its API secret sealed), with product settings: 1001 UPI collection at 3.50 % (above the
 * suppliers' 3.00 % commission, so the platform earns on every demo order), 2001
 * bank payout at 1.50 % plus 5.00 per transaction, 2002 India auto payout and 2003 gateway payout at 1.20 %
 * plus 3.00; its API credentials are the well-known
 * DEMO_MERCHANT_API, so the docs' examples and the simulator work at once. `ids` maps each demo
 * account name to its user id.
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
  await db
    .update(merchants)
    .set({
      merchantNo: DEMO_MERCHANT_API.mchId,
      secretSealed: sealSecret(DEMO_MERCHANT_API.secret, services.merchants.deps.secretKey),
    })
    .where(eq(merchants.userId, userId));
  const updatedAt = services.merchants.deps.clock.now();
  await db.insert(partyProducts).values([
    { userId, productId: 1001, enabled: true, feeRate: 350, perTransactionFee: 0, updatedAt },
    { userId, productId: 2001, enabled: true, feeRate: 150, perTransactionFee: 500, updatedAt },
    { userId, productId: 2002, enabled: true, feeRate: 120, perTransactionFee: 300, updatedAt },
    { userId, productId: 2003, enabled: true, feeRate: 120, perTransactionFee: 300, updatedAt },
  ]);
}
