/**
 * A gateway payout's status in PayDesk's terms. The gateway (RazorpayX's shape) has eight statuses;
 * a payout order only needs to know whether the money is still on its way, arrived, or did not go.
 */

/** The statuses of a RazorpayX payout, in the order a payout usually meets them. */
export const GATEWAY_PAYOUT_STATUSES = [
  'queued',
  'pending',
  'processing',
  'processed',
  'reversed',
  'cancelled',
  'rejected',
  'failed',
] as const;
export type GatewayPayoutStatus = (typeof GATEWAY_PAYOUT_STATUSES)[number];

/**
 * inProgress: the gateway has the payout and may still pay it (poll or wait for the webhook);
 * completed: the bank paid the payee; failed: the money did not go, or came back (reversed).
 */
export type GatewayState = 'inProgress' | 'completed' | 'failed';

export interface GatewayStatus {
  state: GatewayState;
  /** The gateway's own status, for the order's timeline. */
  gatewayStatus: GatewayPayoutStatus;
  /**
   * The bank's reference as the gateway reports it: on a completed payout once the bank gave it (the
   * gateway may report processed first and the UTR a little later), on a reversed one sometimes too.
   */
  utr: string | null;
  /** Why a failed payout failed, in the gateway's words; null unless failed. */
  reason: string | null;
}

/** What of a gateway payout entity its status is read from (its other fields are ignored). */
export interface RawPayoutStatus {
  status: string;
  utr?: string | null | undefined;
  status_details?: { description?: string | null; reason?: string | null; source?: string | null } | null | undefined;
  /** The older field for a failure's reason, still sent on some accounts. */
  failure_reason?: string | null | undefined;
}

/** The gateway answered something this adapter does not understand (a status, a body's shape). */
export class GatewayProtocolError extends Error {
  override name = 'GatewayProtocolError';
}

const STATE_OF: Record<GatewayPayoutStatus, GatewayState> = {
  queued: 'inProgress',
  pending: 'inProgress',
  processing: 'inProgress',
  processed: 'completed',
  reversed: 'failed',
  cancelled: 'failed',
  rejected: 'failed',
  failed: 'failed',
};

const isGatewayStatus = (status: string): status is GatewayPayoutStatus => Object.hasOwn(STATE_OF, status);

const text = (value: string | null | undefined): string | null => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};

/**
 * The payout's status in PayDesk's terms. A status this adapter does not know throws
 * GatewayProtocolError instead of being guessed: taking an unknown word for "failed" could pay a
 * payee twice, taking it for "in progress" would hide the mismatch.
 */
export function normaliseStatus(raw: RawPayoutStatus): GatewayStatus {
  const status = raw.status.trim().toLowerCase();
  if (!isGatewayStatus(status)) throw new GatewayProtocolError(`unknown gateway payout status '${raw.status}'`);
  const state = STATE_OF[status];
  const reason =
    state === 'failed'
      ? (text(raw.status_details?.description) ??
        text(raw.failure_reason) ??
        text(raw.status_details?.reason) ??
        `the gateway reports the payout ${status}, without a reason`)
      : null;
  return { state, gatewayStatus: status, utr: text(raw.utr), reason };
}
