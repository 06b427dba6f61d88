import type { Role } from '../common/roles.js';

/**
 * Payout order states (DESIGN section 7; labels of spec section 4). The codes travel on the wire and in
 * the database; the console shows `payouts:state.<code>` in the user's language.
 */
export const PAYOUT_STATE = {
  awaiting: 0,
  /** Taken into a batch or handed to a gateway, not yet sent. */
  preparing: 1,
  inProgress: 2,
  completed: 3,
  cancelled: 4,
  /** The supplier gave it back as unpayable: staff reject it (or resolve it otherwise). */
  rejecting: 5,
  rejected: 6,
  /** The payee's bank shows the money (bank SMS matched): waiting for an admin to confirm. */
  pendingConfirmation: 7,
  /** The supplier paid and submitted the UTR. */
  submitted: 8,
  processingException: 9,
} as const;
export type PayoutStateName = keyof typeof PAYOUT_STATE;
export type PayoutState = (typeof PAYOUT_STATE)[PayoutStateName];
export const PAYOUT_STATES = Object.values(PAYOUT_STATE) as PayoutState[];

/** States a payout leaves no more: its funds are settled (paid out or back with the merchant). */
export const FINAL_PAYOUT_STATES: readonly PayoutState[] = [
  PAYOUT_STATE.completed,
  PAYOUT_STATE.cancelled,
  PAYOUT_STATE.rejected,
];

/**
 * Products whose payouts a gateway pays (DESIGN section 7, docs/architecture.md "Gateway payouts"):
 * 2002 (India auto payout) and 2003 (gateway payout), paid from a supplier's gateway payout account
 * (kind gatewayPayout: base URL and sealed credentials) by the server itself, never claimed by hand.
 */
export const GATEWAY_PAYOUT_PRODUCTS: readonly number[] = [2002, 2003];
export const isGatewayPayoutProduct = (productId: number): boolean => GATEWAY_PAYOUT_PRODUCTS.includes(productId);

/** States in which a supplier holds the payout (counted against its limit of payouts in progress). */
export const CLAIMED_PAYOUT_STATES: readonly PayoutState[] = [
  PAYOUT_STATE.inProgress,
  PAYOUT_STATE.submitted,
  PAYOUT_STATE.pendingConfirmation,
  PAYOUT_STATE.rejecting,
  PAYOUT_STATE.processingException,
];

/**
 * The process state of a payout (spec section 3's `processState` filter): whose move it is now, so the
 * person on duty finds what waits for them without knowing the ten states. Each state is in exactly one.
 */
export const PAYOUT_PROCESS_STATE = {
  /** In the claim queue: waiting for a supplier to claim it. */
  queued: 0,
  /** Claimed: the supplier is paying the payee. */
  withSupplier: 1,
  /** In a confirmed batch or at a gateway: the bank or the gateway pays it. */
  withBank: 2,
  /** Waiting for staff: a UTR to confirm, a supplier's rejection to settle, an exception to resolve. */
  withStaff: 3,
  /** Completed, cancelled or rejected: nothing left to do. */
  finished: 4,
} as const;
export type PayoutProcessState = (typeof PAYOUT_PROCESS_STATE)[keyof typeof PAYOUT_PROCESS_STATE];
export const PAYOUT_PROCESS_STATES = Object.values(PAYOUT_PROCESS_STATE) as PayoutProcessState[];

/** The payout states of each process state. */
export const PAYOUT_STATES_BY_PROCESS: Readonly<Record<PayoutProcessState, readonly PayoutState[]>> = {
  [PAYOUT_PROCESS_STATE.queued]: [PAYOUT_STATE.awaiting],
  [PAYOUT_PROCESS_STATE.withSupplier]: [PAYOUT_STATE.inProgress],
  [PAYOUT_PROCESS_STATE.withBank]: [PAYOUT_STATE.preparing],
  [PAYOUT_PROCESS_STATE.withStaff]: [
    PAYOUT_STATE.submitted,
    PAYOUT_STATE.pendingConfirmation,
    PAYOUT_STATE.rejecting,
    PAYOUT_STATE.processingException,
  ],
  [PAYOUT_PROCESS_STATE.finished]: FINAL_PAYOUT_STATES,
};

/** The process state a payout in `state` is in. */
export function payoutProcessState(state: number): PayoutProcessState {
  const found = PAYOUT_PROCESS_STATES.find((p) => (PAYOUT_STATES_BY_PROCESS[p] as readonly number[]).includes(state));
  if (found === undefined) throw new Error(`payout state ${state} has no process state`);
  return found;
}

/** The payout actions (spec section 4: claim or cancel claim, reject with a reason; DESIGN section 7). */
export const PAYOUT_ACTIONS = [
  'claim',
  'cancelClaim',
  'submit',
  'confirm',
  'reject',
  'cancel',
  'markAbnormal',
  'resolve',
] as const;
export type PayoutAction = (typeof PAYOUT_ACTIONS)[number];

const S = PAYOUT_STATE;
const STAFF_ACTORS = ['superAdmin', 'admin', 'customerService'] as const satisfies readonly Role[];

/**
 * The states each action may start from. `reject` by a supplier gives the payout back (-> rejecting);
 * by staff it ends it (-> rejected, the merchant's funds released).
 */
export const PAYOUT_ACTION_FROM: Readonly<Record<PayoutAction, readonly PayoutState[]>> = {
  claim: [S.awaiting],
  cancelClaim: [S.inProgress],
  submit: [S.inProgress],
  confirm: [S.submitted, S.pendingConfirmation],
  reject: [S.awaiting, S.inProgress, S.submitted, S.pendingConfirmation, S.rejecting, S.processingException],
  cancel: [S.awaiting],
  markAbnormal: [S.inProgress, S.submitted, S.pendingConfirmation],
  resolve: [S.processingException],
};

/** The roles each action is open to (a supplier acts on the payouts it claimed, a merchant on its own). */
export const PAYOUT_ACTION_ROLES: Readonly<Record<PayoutAction, readonly Role[]>> = {
  claim: ['supplier'],
  cancelClaim: [...STAFF_ACTORS, 'supplier'],
  submit: ['supplier'],
  confirm: ['superAdmin', 'admin'],
  reject: [...STAFF_ACTORS, 'supplier'],
  cancel: [...STAFF_ACTORS, 'merchant'],
  markAbnormal: [...STAFF_ACTORS, 'supplier'],
  resolve: ['superAdmin', 'admin'],
};

/** States a supplier's `reject` starts from (it gives back what it holds; staff decide the rest). */
export const SUPPLIER_REJECT_FROM: readonly PayoutState[] = [S.inProgress];

/** What of a payout the action rule reads (a database record or a row the console holds). */
export interface PayoutActionFacts {
  state: number;
  /** Whether the caller is the supplier that claimed it (its console account or its team's). */
  claimedByCaller: boolean;
  /**
   * Whether a batch holds it (a proposed batch reserves its awaiting payouts for the batch's account):
   * no supplier may claim it then, the claim queue does not offer it.
   */
  inBatch?: boolean;
  /** The payout's product and amount, which a supplier's claim room is measured against. */
  productId?: number;
  amount?: number;
  /**
   * What the calling supplier can take on now; a claim beyond it is refused (the rows of a supplier's
   * list carry it, so the console does not offer a claim the server would refuse). Absent: not known
   * here, the claim itself checks it.
   */
  claimRoom?: PayoutClaimRoom;
}

/** What a supplier can take on now (the claim's own checks, in their order: `claimRoomRefusal`). */
export interface PayoutClaimRoom {
  /** The products it may claim: enabled for it, with an enabled payout account (none while it is off). */
  products: readonly number[];
  /** The payouts it holds in progress, and the most PayoutMaxInProgress allows. */
  held: number;
  limit: number;
  /** Its available balance (its deposit), which must cover a payout's amount. */
  deposit: number;
}

/** Why a supplier with `room` may not claim `payout` now (the claim's refusal reasons), or null. */
export function claimRoomRefusal(
  room: PayoutClaimRoom,
  payout: { productId: number; amount: number },
): 'noPayoutAccount' | 'claimLimit' | 'depositShort' | null {
  if (!room.products.includes(payout.productId)) return 'noPayoutAccount';
  if (room.held >= room.limit) return 'claimLimit';
  if (room.deposit < payout.amount) return 'depositShort';
  return null;
}

/**
 * Why an action is refused: the role (403), the payout's state or holder (422), or the supplier's
 * claim room (`claimRoomRefusal`).
 */
export type PayoutActionRefusal = 'role' | 'state' | 'notYours' | 'room';

/**
 * THE rule of the payout actions: null when `role` may take `action` on the payout now, else why not.
 * The server refuses with it and answers `allowedActions` on every row by it, so the console offers
 * exactly what the server accepts.
 */
export function payoutActionRefusal(
  action: PayoutAction,
  role: Role | null | undefined,
  payout: PayoutActionFacts,
): PayoutActionRefusal | null {
  if (!role || !PAYOUT_ACTION_ROLES[action].includes(role)) return 'role';
  const from: readonly number[] =
    role === 'supplier' && action === 'reject' ? SUPPLIER_REJECT_FROM : PAYOUT_ACTION_FROM[action];
  if (!from.includes(payout.state)) return 'state';
  if (action === 'claim' && payout.inBatch) return 'state';
  // A supplier acts only on what it claimed (claim itself is on an unclaimed payout).
  if (role === 'supplier' && action !== 'claim' && !payout.claimedByCaller) return 'notYours';
  if (
    action === 'claim' &&
    payout.claimRoom &&
    payout.productId !== undefined &&
    payout.amount !== undefined &&
    claimRoomRefusal(payout.claimRoom, { productId: payout.productId, amount: payout.amount }) !== null
  ) {
    return 'room';
  }
  return null;
}

/** The actions `role` may take on the payout now (the `allowedActions` of a payout row). */
export function allowedPayoutActions(role: Role | null | undefined, payout: PayoutActionFacts): PayoutAction[] {
  return PAYOUT_ACTIONS.filter((action) => payoutActionRefusal(action, role, payout) === null);
}

/**
 * What a payout's timeline records (payout_events.kind); the console shows `payouts:timeline.<kind>`.
 */
export const PAYOUT_EVENT_KINDS = [
  'created',
  /** Taken into a confirmed batch (awaiting -> preparing on the batch's account). */
  'batched',
  'claimed',
  /** A gateway payout accepted by its gateway (preparing -> in progress); the note names the gateway's id. */
  'gatewaySent',
  /** The gateway did not answer a send (no state change): sent again later with the same key. */
  'gatewayUnanswered',
  'claimCancelled',
  'submitted',
  'pendingConfirmation',
  'completed',
  'rejecting',
  'rejected',
  'cancelled',
  'markedAbnormal',
  'resolved',
  /** Final, but the merchant takes no callbacks (callbacks off or no notify URL): nothing is sent. */
  'callbackSkipped',
  /** The merchant answered SUCCESS to the payout's callback (the payout's state does not change). */
  'callbackSucceeded',
  /** The callback window closed without SUCCESS (the payout's state does not change). */
  'callbackFailed',
  /** Staff sent the callback again. */
  'callbackReplayed',
] as const;
export type PayoutEventKind = (typeof PAYOUT_EVENT_KINDS)[number];

/**
 * Timeline kinds that are the merchant's business (its callback address, its answers): a supplier's
 * detail leaves them out, as a collection order's leaves out its merchant-side events (ORDER_EVENTS).
 */
export const PAYOUT_MERCHANT_EVENT_KINDS: readonly PayoutEventKind[] = [
  'callbackSkipped',
  'callbackSucceeded',
  'callbackFailed',
  'callbackReplayed',
];
