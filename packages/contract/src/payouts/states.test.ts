import { describe, expect, it } from 'vitest';
import {
  claimRoomRefusal,
  PAYOUT_PROCESS_STATE,
  PAYOUT_PROCESS_STATES,
  PAYOUT_STATE,
  PAYOUT_STATES,
  PAYOUT_STATES_BY_PROCESS,
  payoutActionRefusal,
  payoutProcessState,
} from './states.js';

describe('payout process states', () => {
  it('put every payout state in exactly one process state', () => {
    const listed = PAYOUT_PROCESS_STATES.flatMap((p) => PAYOUT_STATES_BY_PROCESS[p]);
    expect([...listed].sort()).toEqual([...PAYOUT_STATES].sort());
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('say whose move it is', () => {
    expect(payoutProcessState(PAYOUT_STATE.awaiting)).toBe(PAYOUT_PROCESS_STATE.queued);
    expect(payoutProcessState(PAYOUT_STATE.inProgress)).toBe(PAYOUT_PROCESS_STATE.withSupplier);
    expect(payoutProcessState(PAYOUT_STATE.preparing)).toBe(PAYOUT_PROCESS_STATE.withBank);
    expect(payoutProcessState(PAYOUT_STATE.processingException)).toBe(PAYOUT_PROCESS_STATE.withStaff);
    expect(payoutProcessState(PAYOUT_STATE.submitted)).toBe(PAYOUT_PROCESS_STATE.withStaff);
    expect(payoutProcessState(PAYOUT_STATE.rejected)).toBe(PAYOUT_PROCESS_STATE.finished);
    expect(() => payoutProcessState(42)).toThrow();
  });
});

describe('the payout action rule', () => {
  it('offers a supplier an awaiting payout to claim unless a batch holds it', () => {
    const awaiting = { state: PAYOUT_STATE.awaiting, claimedByCaller: false };
    expect(payoutActionRefusal('claim', 'supplier', awaiting)).toBeNull();
    expect(payoutActionRefusal('claim', 'supplier', { ...awaiting, inBatch: true })).toBe('state');
    // Its merchant may still cancel it (the batch drops it when it is confirmed).
    expect(payoutActionRefusal('cancel', 'merchant', { ...awaiting, inBatch: true })).toBeNull();
    expect(payoutActionRefusal('claim', 'merchant', awaiting)).toBe('role');
  });
});

describe('a supplier’s claim room', () => {
  const room = { products: [2001, 3016], held: 2, limit: 5, deposit: 100_000 };
  const awaiting = { state: PAYOUT_STATE.awaiting, claimedByCaller: false, productId: 2001, amount: 100_000 };

  it('offers a claim only within it, refusing in the claim’s own order: account, limit, deposit', () => {
    expect(claimRoomRefusal(room, awaiting)).toBeNull();
    expect(claimRoomRefusal(room, { ...awaiting, productId: 2002 })).toBe('noPayoutAccount');
    expect(claimRoomRefusal({ ...room, held: 5 }, { ...awaiting, amount: 100_001 })).toBe('claimLimit');
    expect(claimRoomRefusal(room, { ...awaiting, amount: 100_001 })).toBe('depositShort');
    expect(payoutActionRefusal('claim', 'supplier', { ...awaiting, claimRoom: room })).toBeNull();
    expect(payoutActionRefusal('claim', 'supplier', { ...awaiting, amount: 100_001, claimRoom: room })).toBe('room');
    // Without the room (the claim itself checks it) and for other actions, it changes nothing.
    expect(payoutActionRefusal('claim', 'supplier', { ...awaiting, amount: 100_001 })).toBeNull();
    expect(
      payoutActionRefusal('submit', 'supplier', {
        ...awaiting,
        state: PAYOUT_STATE.inProgress,
        claimedByCaller: true,
        claimRoom: { ...room, held: 5 },
      }),
    ).toBeNull();
  });
});
