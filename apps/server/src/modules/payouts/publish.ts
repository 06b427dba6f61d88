import { PAYOUT_BATCH_READ_ROLES, PAYOUT_STATE, type PayoutBatchAction } from '@paydesk/contract';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { users } from '../../db/schema.js';
import type { RealtimeHub } from '../../platform/realtime/hub.js';
import type { PayoutRecord } from './payout-core.js';

/** Staff roles whose consoles list every payout. */
const STAFF_LISTING_PAYOUTS = ['superAdmin', 'admin', 'customerService', 'technicalMaintenance'] as const;

/** Staff roles whose consoles list every batch (the contract's batch readers but the supplier). */
const STAFF_LISTING_BATCHES = PAYOUT_BATCH_READ_ROLES.filter((role) => role !== 'supplier');

/** What changed a batch: the service's actions that write it. */
export type PayoutBatchChange = 'create' | Exclude<PayoutBatchAction, 'download'>;

/**
 * Tells the consoles that list a payout that it changed (the 'payouts' topic, its code and state only:
 * they refetch): staff, its merchant, its supplier and an agent's parent; every supplier when it
 * enters or leaves the claim queue (awaiting), since any of them may see it there. Call it after
 * commit; a lost event only delays a list, so failures are swallowed.
 */
export function publishPayoutChange(
  db: DbOrTx,
  realtime: RealtimeHub | undefined,
  payout: Pick<PayoutRecord, 'orderCode' | 'state' | 'merchantUserId' | 'supplierUserId'>,
  previousState: number | null,
): void {
  if (!realtime) return;
  void (async () => {
    const userIds = [payout.merchantUserId];
    if (payout.supplierUserId !== null) {
      userIds.push(payout.supplierUserId);
      const [holder] = await db
        .select({ parentId: users.parentId })
        .from(users)
        .where(eq(users.id, payout.supplierUserId));
      if (holder?.parentId) userIds.push(holder.parentId);
    }
    const queueChanged = payout.state === PAYOUT_STATE.awaiting || previousState === PAYOUT_STATE.awaiting;
    await realtime.publish(
      'payouts',
      { orderCode: payout.orderCode, state: payout.state },
      { userIds, roles: queueChanged ? [...STAFF_LISTING_PAYOUTS, 'supplier'] : [...STAFF_LISTING_PAYOUTS] },
    );
  })().catch(() => undefined);
}

/**
 * Tells the consoles that list a batch that it changed (the 'payoutBatches' topic, its id and what
 * happened: they refetch): the staff who read every batch, and the supplier whose payout account pays
 * it (a batch is not a team view: not its parent). When the change moved or reserved the batch's
 * payouts (`payoutsOf`: their merchants' user ids), the payout lists hear of it too, once for the
 * batch rather than once per payout (up to 500): staff, those merchants, and every supplier, whose
 * claim queue the batch's payouts entered or left. Call it after commit; failures are swallowed.
 */
export function publishPayoutBatchChange(
  realtime: RealtimeHub | undefined,
  batch: { id: number; supplierUserId: number },
  change: PayoutBatchChange,
  payoutsOf?: { merchantUserIds: readonly number[] },
): void {
  if (!realtime) return;
  realtime
    .publish(
      'payoutBatches',
      { batchId: batch.id, change },
      { userIds: [batch.supplierUserId], roles: [...STAFF_LISTING_BATCHES] },
    )
    .catch(() => undefined);
  if (payoutsOf && payoutsOf.merchantUserIds.length > 0) {
    realtime
      .publish(
        'payouts',
        { batchId: batch.id, change },
        { userIds: [...payoutsOf.merchantUserIds], roles: [...STAFF_LISTING_PAYOUTS, 'supplier'] },
      )
      .catch(() => undefined);
  }
}
