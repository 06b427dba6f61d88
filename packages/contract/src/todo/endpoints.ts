import { z } from 'zod';
import { defineEndpoint } from '../common/endpoint.js';
import { pageOf, pagingShape, textFilter } from '../common/paging.js';
import type { Role } from '../common/roles.js';

/**
 * The work waiting for someone (issue 22 item 4): what the home page counts and links to, and what
 * the to-do page lists. Each item names the roles it is counted for: staff see the platform's, a
 * supplier its team's (the endpoint's data scope).
 */
const STAFF_WATCHERS = ['superAdmin', 'admin', 'customerService', 'technicalMaintenance'] as const;
const SUPPLIER = ['supplier'] as const;

export const TODO_ITEMS = {
  /** Collection orders awaiting payment whose payer submitted a UTR: to check and confirm. */
  ordersToConfirm: [...STAFF_WATCHERS, ...SUPPLIER],
  /** Open collection orders locked as suspicious or malicious: to look into, then unlock or close. */
  lockedOrders: STAFF_WATCHERS,
  /** Payouts in the supplier's claim queue (its products, an enabled payout account, no batch). */
  payoutsToClaim: SUPPLIER,
  /** Payouts the supplier claimed and has not paid yet (in progress): to pay and submit the UTR. */
  payoutsToPay: SUPPLIER,
  /** Payouts paid (submitted) or matched by the bank (pending confirmation): an admin confirms. */
  payoutsToConfirm: STAFF_WATCHERS,
  /** Payouts a supplier gave back as unpayable: staff reject them or resolve them otherwise. */
  payoutsGivenBack: STAFF_WATCHERS,
  /** Payouts in processing exception: an admin resolves them. */
  payoutExceptions: STAFF_WATCHERS,
  /** Merchant callbacks that gave up: to look into and replay. */
  failedCallbacks: STAFF_WATCHERS,
  /** Payout batches proposed by another account: a second person approves (maker-checker). */
  batchApprovals: STAFF_WATCHERS,
  /** Balance changes proposed by another account: a second person approves (maker-checker). */
  balanceApprovals: STAFF_WATCHERS,
} as const satisfies Record<string, readonly Role[]>;
export type TodoItem = keyof typeof TODO_ITEMS;
export const TODO_ITEM_KEYS = Object.keys(TODO_ITEMS) as TodoItem[];

/** Who has waiting work counted: every role some item names. */
export const TODO_READERS = [...STAFF_WATCHERS, ...SUPPLIER] as const satisfies readonly Role[];

/** The items counted for `role`, in the order the home page shows them. */
export const todoItemsOf = (role: Role | null | undefined): TodoItem[] =>
  TODO_ITEM_KEYS.filter((key) => role != null && (TODO_ITEMS[key] as readonly Role[]).includes(role));

export const todoCountsAnswerSchema = z.object({
  items: z.array(z.object({ key: z.enum(TODO_ITEM_KEYS as [TodoItem, ...TodoItem[]]), count: z.number().int() })),
});
export type TodoCounts = z.infer<typeof todoCountsAnswerSchema>;

const todoItemSchema = z.enum(TODO_ITEM_KEYS as [TodoItem, ...TodoItem[]]);

/**
 * One piece of waiting work as the to-do page lists it, whatever its kind: the order, payout,
 * callback, batch or balance change, whose it is, its amount and since when it waits.
 */
export const todoRowSchema = z.object({
  /** Unique in the item: '<kind>:<id>' (order, payout, callback, batch, proposal). */
  key: z.string(),
  item: todoItemSchema,
  /** The record's own id: an order or payout code (a callback's order's), a batch's or proposal's number. */
  ref: z.string(),
  /** The party it concerns: the merchant's account (orders, payouts, callbacks), the proposer (batches), the merchant or supplier (balance changes). */
  party: z.string(),
  /** Minor units; null when the work has no amount (clearing a balance). */
  amount: z.number().int().nullable(),
  /** When it started to wait (ISO 8601): the order's or payout's last change, a callback's last try, the proposal. */
  since: z.string(),
  /**
   * What to check, per item: the payer's UTR (orders to confirm), the mark (locked orders), the payee
   * (payouts), the supplier's reason (given back), the exception, the callback's address, the batch's
   * payout count, the balance change's note.
   */
  detail: z.string(),
});
export type TodoRow = z.infer<typeof todoRowSchema>;

const todoListFilterShape = {
  item: todoItemSchema,
  /** Part of the reference or the party's account. */
  keyword: textFilter(64),
};

export const todoEndpoints = {
  counts: defineEndpoint({
    method: 'GET',
    path: '/v1.0/todo/counts',
    summary:
      'The work waiting for the caller: per item of its role, how many orders, payouts, callbacks, batches or balance changes wait (a supplier: its team’s)',
    input: z.strictObject({}),
    output: todoCountsAnswerSchema,
    example: {},
    access: TODO_READERS,
    token2: false,
    scope: 'owned',
    team: true,
  }),
  getList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/todo/getList',
    summary:
      'The to-do page: every row of one waiting item of the caller’s role, longest waiting last, with the amounts’ total (403 for an item not of the role)',
    input: z.strictObject({ ...pagingShape, ...todoListFilterShape }),
    output: pageOf(todoRowSchema),
    example: { pageIndex: 1, pageSize: 20, item: 'payoutsToConfirm' },
    access: TODO_READERS,
    token2: false,
    scope: 'owned',
    team: true,
  }),
  export: defineEndpoint({
    method: 'GET',
    path: '/v1.0/todo/export',
    summary: 'One waiting item of the caller’s role as CSV, as the to-do page lists it',
    input: z.strictObject(todoListFilterShape),
    output: todoRowSchema,
    example: { item: 'payoutsToConfirm' },
    access: TODO_READERS,
    token2: false,
    scope: 'owned',
    team: true,
    produces: 'csv',
  }),
};
