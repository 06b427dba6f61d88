import { note } from '@paydesk/contract';
import { accountCode, revenueAccountCode } from '../ledger/accounts.js';
import type { TransferInput } from '../ledger/ledger.service.js';

/**
 * The ledger effects of a payout of amount P with merchant fee m and supplier commission c (DESIGN
 * section 5), each posted once under the payout's code and its step:
 * - at creation: merchant available -(P + m), merchant frozen +(P + m);
 * - at completion: merchant frozen -(P + m), supplier available +(P + c), platform revenue +(m - c);
 * - at rejection or cancellation: merchant frozen -(P + m), merchant available +(P + m).
 */
interface PayoutMoney {
  orderCode: string;
  merchantId: number;
  amount: number;
  fee: number;
}

export function payoutHoldTransfer(p: PayoutMoney, actorUserId: number | null): TransferInput {
  const held = p.amount + p.fee;
  return {
    idempotencyKey: `${p.orderCode}:hold`,
    type: 'payoutHold',
    orderCode: p.orderCode,
    note: note('payoutHold', { orderCode: p.orderCode }),
    actorUserId,
    postings: [
      { account: accountCode('merchant', p.merchantId, 'available'), amount: -held },
      { account: accountCode('merchant', p.merchantId, 'frozen'), amount: held },
    ],
  };
}

export function payoutReleaseTransfer(
  p: PayoutMoney,
  why: 'payoutReleaseCancelled' | 'payoutReleaseRejected',
  actorUserId: number | null,
): TransferInput {
  const held = p.amount + p.fee;
  return {
    idempotencyKey: `${p.orderCode}:release`,
    type: 'payoutRelease',
    orderCode: p.orderCode,
    note: note(why, { orderCode: p.orderCode }),
    actorUserId,
    postings: [
      { account: accountCode('merchant', p.merchantId, 'frozen'), amount: -held },
      { account: accountCode('merchant', p.merchantId, 'available'), amount: held },
    ],
  };
}

export function payoutPaidTransfer(
  p: PayoutMoney & { supplierId: number; commission: number },
  actorUserId: number | null,
): TransferInput {
  const postings = [
    { account: accountCode('merchant', p.merchantId, 'frozen'), amount: -(p.amount + p.fee) },
    { account: accountCode('supplier', p.supplierId, 'available'), amount: p.amount + p.commission },
    // The platform keeps the fee less the commission (negative when a commission is above the fee).
    { account: revenueAccountCode(p.orderCode), amount: p.fee - p.commission },
  ].filter((posting) => posting.amount !== 0);
  return {
    idempotencyKey: `${p.orderCode}:paid`,
    type: 'payoutPaid',
    orderCode: p.orderCode,
    note: note('payoutPaid', { orderCode: p.orderCode }),
    actorUserId,
    postings,
  };
}
