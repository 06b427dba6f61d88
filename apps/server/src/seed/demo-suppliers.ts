import { eq } from 'drizzle-orm';
import type { Services } from '../app.js';
import type { Db } from '../db/client.js';
import { partyProducts, suppliers, users } from '../db/schema.js';
import { SYSTEM_ACTOR, writeAudit } from '../platform/audit.js';

/**
 * Demo data: supplier1 as supplier 'Supplier One' (made by the console's own code path, so it is
 * audited), and agent1 as its agent 'Agent One'. Commissions: supplier1 3.00 % on 1001 UPI collection
 * and 1.00 % on 2001 bank payout, 2002 India auto payout and 2003 gateway payout; agent1 2.00 % on 1001 and 0.50 % on 2001 (below
 * its parent's, as the rule wants).
 * `ids` maps each demo account name to its user id.
 */
export async function seedDemoSuppliers(db: Db, services: Services, ids: ReadonlyMap<string, number>): Promise<void> {
  const supplierUserId = ids.get('supplier1');
  const agentUserId = ids.get('agent1');
  if (supplierUserId === undefined) return;
  const { id: supplierId } = await services.suppliers.create(
    'superAdmin',
    { name: 'Supplier One', mode: 'linkAccount', userId: supplierUserId, remark: 'demo supplier' },
    SYSTEM_ACTOR,
  );
  const now = services.suppliers.deps.clock.now();
  const rows = [
    { userId: supplierUserId, productId: 1001, enabled: true, commissionRate: 300, updatedAt: now },
    { userId: supplierUserId, productId: 2001, enabled: true, commissionRate: 100, updatedAt: now },
    { userId: supplierUserId, productId: 2002, enabled: true, commissionRate: 100, updatedAt: now },
    { userId: supplierUserId, productId: 2003, enabled: true, commissionRate: 100, updatedAt: now },
  ];
  if (agentUserId !== undefined) {
    // agent1's account already has supplier1 as its parent; its record hangs under supplier1's record.
    await db.transaction(async (tx) => {
      const [agent] = await tx
        .insert(suppliers)
        .values({ userId: agentUserId, parentId: supplierId, name: 'Agent One', createdAt: now, updatedAt: now })
        .returning();
      await tx.update(users).set({ partyLinked: true }).where(eq(users.id, agentUserId));
      await writeAudit(
        tx,
        SYSTEM_ACTOR,
        {
          action: 'suppliers.createAgent',
          target: `supplier:${agent!.id}`,
          after: { name: 'Agent One', parentId: supplierId },
        },
        now,
      );
    });
    rows.push(
      { userId: agentUserId, productId: 1001, enabled: true, commissionRate: 200, updatedAt: now },
      { userId: agentUserId, productId: 2001, enabled: true, commissionRate: 50, updatedAt: now },
    );
  }
  await db.insert(partyProducts).values(rows);
}
