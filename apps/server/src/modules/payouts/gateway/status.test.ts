import { describe, expect, it } from 'vitest';
import { GATEWAY_PAYOUT_STATUSES, GatewayProtocolError, normaliseStatus } from './status.js';

describe('normaliseStatus', () => {
  it('maps every gateway status to in progress, completed or failed', () => {
    const states = Object.fromEntries(
      GATEWAY_PAYOUT_STATUSES.map((status) => [status, normaliseStatus({ status }).state]),
    );
    expect(states).toEqual({
      queued: 'inProgress',
      pending: 'inProgress',
      processing: 'inProgress',
      processed: 'completed',
      reversed: 'failed',
      cancelled: 'failed',
      rejected: 'failed',
      failed: 'failed',
    });
  });

  it('gives a completed payout the UTR the gateway reports, and none before it does', () => {
    expect(normaliseStatus({ status: 'processed', utr: ' 412345678901 ' })).toEqual({
      state: 'completed',
      gatewayStatus: 'processed',
      utr: '412345678901',
      reason: null,
    });
    expect(normaliseStatus({ status: 'processed', utr: null }).utr).toBeNull();
  });

  it('gives a failed payout the gateway’s reason, from whichever field carries it', () => {
    expect(
      normaliseStatus({
        status: 'reversed',
        status_details: { description: 'Beneficiary account is closed', reason: 'beneficiary_account_closed' },
        failure_reason: 'older text',
      }).reason,
    ).toBe('Beneficiary account is closed');
    expect(normaliseStatus({ status: 'failed', failure_reason: 'IMPS is down at the bank' }).reason).toBe(
      'IMPS is down at the bank',
    );
    expect(normaliseStatus({ status: 'rejected', status_details: { reason: 'rejected_by_approver' } }).reason).toBe(
      'rejected_by_approver',
    );
    expect(normaliseStatus({ status: 'cancelled' }).reason).toBe(
      'the gateway reports the payout cancelled, without a reason',
    );
    expect(normaliseStatus({ status: 'processing', failure_reason: 'stale' }).reason).toBeNull();
  });

  it('throws on a status it does not know instead of guessing', () => {
    expect(() => normaliseStatus({ status: 'settled' })).toThrow(GatewayProtocolError);
    expect(() => normaliseStatus({ status: 'settled' })).toThrow("unknown gateway payout status 'settled'");
    expect(normaliseStatus({ status: 'PROCESSED' }).state).toBe('completed');
  });
});
