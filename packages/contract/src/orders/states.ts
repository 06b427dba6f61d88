import type { Role } from '../common/roles.js';

/**
 * Collection order states (DESIGN section 6). The codes travel on the wire and in the database; the
 * console shows `orders:state.<code>` in the user's language.
 */
export const ORDER_STATE = {
  created: 0,
  allocated: 1,
  timedOut: 2,
  callbackSucceeded: 3,
  callbackFailed: 4,
  allocationFailed: 5,
  paidNotifying: 6,
  rejected: 7,
  reversed: 8,
  /** Paid for a merchant that gets no callback (callbacks off or no notify URL): nothing is in flight. */
  paid: 9,
} as const;
export type OrderStateName = keyof typeof ORDER_STATE;
export type OrderState = (typeof ORDER_STATE)[OrderStateName];
export const ORDER_STATES = Object.values(ORDER_STATE) as OrderState[];

/** States in which the payer's money has arrived (the payment transfer is posted and not reversed). */
export const PAID_STATES: readonly OrderState[] = [
  ORDER_STATE.paidNotifying,
  ORDER_STATE.callbackSucceeded,
  ORDER_STATE.callbackFailed,
  ORDER_STATE.paid,
];

/** Order marks (spec section 4). Suspicious and malicious lock the order until someone unlocks it. */
export const ORDER_MARK = { normal: 0, suspicious: 1, test: 2, fillIn: 3, malicious: 4 } as const;
export type OrderMark = (typeof ORDER_MARK)[keyof typeof ORDER_MARK];
export const ORDER_MARKS = Object.values(ORDER_MARK) as OrderMark[];
export const LOCKING_MARKS: readonly OrderMark[] = [ORDER_MARK.suspicious, ORDER_MARK.malicious];

/** How a supplemented order was confirmed: with the payer's UTR, or offset against the supplier's balance. */
export const SUPPLEMENT_TYPE = { utr: 1, offset: 2 } as const;
export type SupplementType = (typeof SUPPLEMENT_TYPE)[keyof typeof SUPPLEMENT_TYPE];

/**
 * The order actions of spec section 4 and who may take them. The server refuses any other pairing
 * (403 by role, 422 by state, lock or setting: `orderActionRefusal`); the console offers a row's
 * `allowedActions`, which the server computes with the same rule.
 */
export const ORDER_ACTIONS = [
  'confirm',
  'supplement',
  'reselect',
  'reject',
  'freeResource',
  'callback',
  'reverse',
  'updateMark',
  'unlock',
] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

const S = ORDER_STATE;

/** The states each action may start from. `supplement` from timed out also needs CanTimeoutSupplement. */
export const ACTION_FROM: Readonly<Record<OrderAction, readonly OrderState[]>> = {
  confirm: [S.allocated],
  supplement: [S.allocated, S.timedOut, S.allocationFailed],
  reselect: [S.allocated, S.timedOut, S.allocationFailed],
  reject: [S.created, S.allocated, S.timedOut],
  freeResource: [S.allocated],
  callback: PAID_STATES,
  reverse: PAID_STATES,
  updateMark: ORDER_STATES,
  unlock: ORDER_STATES,
};

const STAFF_ACTORS = ['superAdmin', 'admin', 'customerService'] as const satisfies readonly Role[];

/** The roles each action is open to (a supplier acts on its own team's orders only). */
export const ACTION_ROLES: Readonly<Record<OrderAction, readonly Role[]>> = {
  confirm: [...STAFF_ACTORS, 'supplier'],
  supplement: STAFF_ACTORS,
  reselect: STAFF_ACTORS,
  reject: [...STAFF_ACTORS, 'supplier'],
  freeResource: STAFF_ACTORS,
  callback: STAFF_ACTORS,
  reverse: ['superAdmin'],
  updateMark: STAFF_ACTORS,
  unlock: ['superAdmin', 'admin'],
};

/** Actions still allowed on a locked order (the rest answer 422 until it is unlocked). */
export const ACTIONS_WHEN_LOCKED: readonly OrderAction[] = ['updateMark', 'unlock'];

/** What of an order the action rule reads (a database record or a row the console holds). */
export interface OrderActionFacts {
  state: number;
  locked: boolean;
  /** Whether a callback can go out: the merchant has callbacks on and the order or the merchant a notify URL. */
  callbackReachable: boolean;
}

/** The system settings (spec section 7) the action rule reads. */
export interface OrderActionSettings {
  canTimeoutSupplement: boolean;
}

/**
 * Why an action is refused: the role may not take it (403), the order is locked, its state does not
 * allow it, the CanTimeoutSupplement setting is off for a timed-out order, the merchant takes no
 * callbacks (422).
 */
export type OrderActionRefusal = 'role' | 'locked' | 'state' | 'timeoutSupplementOff' | 'callbacksOff';

/**
 * THE rule of the order actions: null when `role` may take `action` on the order now, else why not.
 * The server's guard refuses with it and puts `allowedOrderActions` on every row it answers, so the
 * console offers exactly what the server accepts (orders.offered.test walks every combination).
 */
export function orderActionRefusal(
  action: OrderAction,
  role: Role | null | undefined,
  order: OrderActionFacts,
  settings: OrderActionSettings,
): OrderActionRefusal | null {
  if (!role || !ACTION_ROLES[action].includes(role)) return 'role';
  if (order.locked && !ACTIONS_WHEN_LOCKED.includes(action)) return 'locked';
  if (action === 'unlock' && !order.locked) return 'state';
  if (!(ACTION_FROM[action] as readonly number[]).includes(order.state)) return 'state';
  if (action === 'supplement' && order.state === S.timedOut && !settings.canTimeoutSupplement) {
    return 'timeoutSupplementOff';
  }
  if (action === 'callback' && !order.callbackReachable) return 'callbacksOff';
  return null;
}

/** The actions `role` may take on the order now (the `allowedActions` of an order row). */
export function allowedOrderActions(
  role: Role | null | undefined,
  order: OrderActionFacts,
  settings: OrderActionSettings,
): OrderAction[] {
  return ORDER_ACTIONS.filter((action) => orderActionRefusal(action, role, order, settings) === null);
}

/**
 * What an order's timeline records (order_events.kind); the console shows `orders:timeline.<kind>`.
 * `side`: whose business the event's note is. A merchant or a supplier reads the notes of its own
 * side's events and of both sides' ('both'), never the other side's (which name the other party's
 * accounts, addresses or people).
 */
export const ORDER_EVENTS = {
  created: 'merchant',
  allocated: 'supplier',
  allocationFailed: 'both',
  payerUtr: 'both',
  paid: 'both',
  rejected: 'both',
  resourceFreed: 'both',
  timedOut: 'both',
  reversed: 'both',
  marked: 'both',
  unlocked: 'both',
  callbackSkipped: 'merchant',
  callbackTriggered: 'merchant',
  callbackReplayed: 'merchant',
  callbackSucceeded: 'merchant',
  callbackFailed: 'merchant',
} as const satisfies Record<string, 'merchant' | 'supplier' | 'both'>;
export type OrderEventKind = keyof typeof ORDER_EVENTS;
export const ORDER_EVENT_KINDS = Object.keys(ORDER_EVENTS) as OrderEventKind[];

/**
 * Order fields a party does not see: the server sends them as null (lists, export, detail) and leaves
 * their sums out of the totals. A merchant sees nothing of who took its order (supplier, account,
 * commission); a supplier does not see the merchant's fee.
 */
export const ORDER_FIELDS_HIDDEN_FROM = {
  merchant: ['supplierId', 'supplierName', 'resourceId', 'resourceName', 'commission'],
  supplier: ['fee'],
} as const satisfies Partial<Record<Role, readonly string[]>>;
export type OrderFieldHidden = (typeof ORDER_FIELDS_HIDDEN_FROM)[keyof typeof ORDER_FIELDS_HIDDEN_FROM][number];

/** The order fields `role` does not see (ORDER_FIELDS_HIDDEN_FROM; none for staff). */
export function orderFieldsHiddenFrom(role: Role | undefined): readonly string[] {
  return (role && (ORDER_FIELDS_HIDDEN_FROM as Partial<Record<Role, readonly string[]>>)[role]) || [];
}

/** Whether `role` sees an order field (the console's columns and detail follow what the server sends). */
export function orderFieldShown(role: Role | undefined, field: OrderFieldHidden): boolean {
  return !orderFieldsHiddenFrom(role).includes(field);
}
