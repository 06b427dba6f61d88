import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { type orders, users } from '../../db/schema.js';
import type { RealtimeHub } from '../../platform/realtime/hub.js';

/** Staff roles whose consoles list every order. */
const STAFF_LISTING_ORDERS = ['superAdmin', 'admin', 'customerService', 'technicalMaintenance'] as const;

/**
 * Tells the consoles that list an order that it changed (the 'orders' topic, ids only: they refetch):
 * staff, its merchant, its supplier and, for an agent's order, the agent's parent supplier. Call it
 * after commit; a lost event only delays a list, so failures are swallowed.
 */
export function publishOrderChange(
  db: DbOrTx,
  realtime: RealtimeHub | undefined,
  order: Pick<typeof orders.$inferSelect, 'orderCode' | 'state' | 'merchantUserId' | 'supplierUserId' | 'isProxy'>,
): void {
  if (!realtime) return;
  void (async () => {
    const userIds = [order.merchantUserId];
    if (order.supplierUserId !== null) {
      userIds.push(order.supplierUserId);
      if (order.isProxy) {
        const [agent] = await db
          .select({ parentId: users.parentId })
          .from(users)
          .where(eq(users.id, order.supplierUserId));
        if (agent?.parentId) userIds.push(agent.parentId);
      }
    }
    await realtime.publish(
      'orders',
      { orderCode: order.orderCode, state: order.state },
      { userIds, roles: [...STAFF_LISTING_ORDERS] },
    );
  })().catch(() => undefined);
}
