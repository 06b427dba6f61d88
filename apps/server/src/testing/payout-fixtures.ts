import { eq } from 'drizzle-orm';
import { partyProducts, resources, suppliers, users } from '../db/schema.js';
import { signParams } from '../modules/orders/signature.js';
import { DEMO_MERCHANT_API } from '../seed/demo-merchants.js';
import type { TestApp } from './harness.js';

/**
 * What the payout tests share: the demo suppliers' bank payout accounts (2001) and merchant1's signed
 * payout request. The demo seeds one account for supplier1; each of supplier1 and agent1 gets one more
 * here, and agent1 the product (1.00 % commission, as supplier1 has), so two suppliers can race.
 */
export async function givePayoutAccounts(t: TestApp): Promise<{ supplierIds: Record<string, number> }> {
  const db = t.database.db;
  const now = t.clock.now();
  const supplierIds: Record<string, number> = {};
  for (const account of ['supplier1', 'agent1']) {
    const [row] = await db
      .select({ id: suppliers.id, userId: suppliers.userId })
      .from(suppliers)
      .innerJoin(users, eq(users.id, suppliers.userId))
      .where(eq(users.account, account));
    supplierIds[account] = row!.id;
    await db.insert(resources).values({
      supplierId: row!.id,
      productId: 2001,
      kind: 'bankPayout',
      name: `${account} payout account`,
      state: 0,
      details: { accountName: account, accountNumber: '123456789012', ifsc: 'HDFC0001234', bankName: 'HDFC Bank' },
      createdAt: now,
      updatedAt: now,
    });
    if (account === 'agent1') {
      // The demo enables 2001 for agent1 at 0.50 %; these tests count on 1.00 %.
      await db
        .insert(partyProducts)
        .values({ userId: row!.userId, productId: 2001, enabled: true, commissionRate: 100, updatedAt: now })
        .onConflictDoUpdate({
          target: [partyProducts.userId, partyProducts.productId],
          set: { enabled: true, commissionRate: 100, updatedAt: now },
        });
    }
  }
  return { supplierIds };
}

let n = 0;
/** merchant1's signed request for a new bank payout (1,000.00 unless `over` says otherwise). */
export function signedPayoutRequest(over: Record<string, string> = {}): Record<string, string> {
  n += 1;
  const p: Record<string, string> = {
    mchId: DEMO_MERCHANT_API.mchId,
    productId: '2001',
    mchOrderNo: `PAY${process.pid}x${n}`,
    amount: '100000',
    userName: 'Asha Rao',
    cardNumber: '50100234567890',
    ifscCode: 'HDFC0001234',
    bankName: 'HDFC Bank',
    bankBranch: 'Koramangala',
    address: '12 MG Road, Bengaluru',
    ...over,
  };
  return { ...p, sign: signParams(p, DEMO_MERCHANT_API.secret, 'HMAC-SHA256') };
}

/** merchant1's fee on 2001 (demo): 1.50 % plus 5.00. */
export const demoPayoutFee = (amount: number) => Math.floor((amount * 150) / 10_000) + 500;
