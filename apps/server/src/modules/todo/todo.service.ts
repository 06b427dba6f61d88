import {
  Code,
  ORDER_STATE,
  PAYOUT_BATCH_STATE,
  PAYOUT_STATE,
  pageSizeOf,
  type Role,
  type TodoCounts,
  type TodoItem,
  type TodoRow,
  todoItemsOf,
} from '@paydesk/contract';
import {
  and,
  count,
  desc,
  eq,
  ilike,
  inArray,
  isNotNull,
  isNull,
  ne,
  or,
  type SQL,
  type SQLWrapper,
  sql,
} from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import {
  balanceProposals,
  merchants,
  orderCallbacks,
  orders,
  payoutBatches,
  payouts,
  suppliers,
  users,
} from '../../db/schema.js';
import type { DataScope } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { escapeLike } from '../../platform/like.js';
import type { PayoutQueries } from '../payouts/payouts.query.js';

/** Who asks: the session's role, account and data scope (a supplier's: its team). */
export interface TodoCaller {
  role: Role;
  userId: number;
  scope: DataScope;
}

/** Collection states still open to a decision (created, allocated, timed out, allocation failed). */
const OPEN_ORDER_STATES = [
  ORDER_STATE.created,
  ORDER_STATE.allocated,
  ORDER_STATE.timedOut,
  ORDER_STATE.allocationFailed,
];

/** What the to-do page asks: one item of the caller's role, optionally narrowed by a keyword. */
export interface TodoListInput {
  item: TodoItem;
  keyword?: string | null | undefined;
}

export interface TodoPage {
  list: TodoRow[];
  total: number;
  pageIndex: number;
  pageSize: number;
  summary: { amount: number };
}

/** The account a row concerns (the merchant's, or a balance change's merchant or supplier). */
const party = alias(users, 'todo_party');
const callbackOrder = alias(orders, 'todo_callback_order');
const callbackPayout = alias(payouts, 'todo_callback_payout');
/** Rows an export reads at a time. Waiting work is short-lived, so the list is never long. */
const EXPORT_BATCH = 1_000;

/**
 * The work waiting for a caller (contract TODO_ITEMS): per item of its role, the rows of the tables
 * that hold the work (orders, payouts, callbacks, batches, balance proposals), never a copy of them.
 * One query per item (`rowsOf`) serves the home page's count and the to-do page's list, so the count
 * is the list's length. (The Telegram reminder, bots/reminders.ts, keeps its own four platform-wide
 * counts: all awaiting payouts, not one supplier's queue.)
 */
export class TodoService {
  constructor(private readonly deps: { db: Db; payoutQueries: PayoutQueries }) {}

  async counts(caller: TodoCaller): Promise<TodoCounts> {
    const items = todoItemsOf(caller.role);
    const counts = await Promise.all(
      items.map(async (key) => {
        const rows = (await this.rowsOf(key, caller)).query.as('todo_rows');
        const [row] = await this.deps.db.select({ n: count() }).from(rows);
        return row?.n ?? 0;
      }),
    );
    return { items: items.map((key, i) => ({ key, count: counts[i]! })) };
  }

  /** One item's rows, longest waiting last (newest first), with their amounts' total. */
  async list(
    caller: TodoCaller,
    input: TodoListInput & { pageIndex: number; pageSize?: number | undefined; pageNum?: number | undefined },
  ): Promise<TodoPage> {
    const pageSize = pageSizeOf(input);
    const rows = (await this.filtered(caller, input)).query.as('todo_rows');
    const { db } = this.deps;
    const [found, [totals]] = await Promise.all([
      db
        .select()
        .from(rows)
        .orderBy(desc(rows.since), desc(rows.key))
        .limit(pageSize)
        .offset((input.pageIndex - 1) * pageSize),
      db.select({ n: count(), amount: sql<string>`coalesce(sum(${rows.amount}), 0)` }).from(rows),
    ]);
    return {
      list: found.map((row) => rowOf(input.item, row)),
      total: totals?.n ?? 0,
      pageIndex: input.pageIndex,
      pageSize,
      summary: { amount: Number(totals?.amount ?? 0) },
    };
  }

  /** The same rows for the CSV export, newest first, read in batches. */
  async *exportRows(caller: TodoCaller, input: TodoListInput): AsyncGenerator<TodoRow> {
    const rows = (await this.filtered(caller, input)).query.as('todo_rows');
    for (let offset = 0; ; offset += EXPORT_BATCH) {
      const batch = await this.deps.db
        .select()
        .from(rows)
        .orderBy(desc(rows.since), desc(rows.key))
        .limit(EXPORT_BATCH)
        .offset(offset);
      for (const row of batch) yield rowOf(input.item, row);
      if (batch.length < EXPORT_BATCH) return;
    }
  }

  private async filtered(caller: TodoCaller, input: TodoListInput) {
    if (!todoItemsOf(caller.role).includes(input.item)) {
      throw new AppError(Code.forbidden, 'this to-do item is not one of your role', { reason: 'todoItemNotYours' });
    }
    const like = input.keyword ? `%${escapeLike(input.keyword)}%` : null;
    return this.rowsOf(input.item, caller, like);
  }

  /**
   * The rows of one item as (key, ref, party, amount, since, detail). `like` narrows them to a
   * reference or party account containing it. The query comes wrapped: a query builder is a promise
   * of its rows, which an async function would run instead of returning.
   */
  private async rowsOf(key: TodoItem, caller: TodoCaller, like: string | null = null) {
    const queue = key === 'payoutsToClaim' ? await this.deps.payoutQueries.queueWhere(caller) : undefined;
    return { query: this.rowsQuery(key, caller, like, queue) };
  }

  private rowsQuery(key: TodoItem, caller: TodoCaller, like: string | null, queue: SQL | undefined) {
    const { db } = this.deps;
    const own = (column: typeof orders.supplierUserId | typeof payouts.supplierUserId): SQL | undefined =>
      caller.scope.all ? undefined : inArray(column, [...caller.scope.userIds]);
    const matching = (ref: SQLWrapper, account: SQLWrapper) =>
      like ? or(ilike(sql`${ref}`, like), ilike(sql`${account}`, like)) : undefined;

    const orderRows = (where: SQL | undefined, detail: SQL) =>
      db
        .select({
          key: sql<string>`'order:' || ${orders.id}`.as('key'),
          ref: sql<string>`${orders.orderCode}`.as('ref'),
          party: sql<string>`coalesce(${party.account}, '')`.as('party'),
          amount: sql<string | null>`${orders.amount}`.as('amount'),
          since: sql<string>`${orders.updatedAt}`.as('since'),
          detail: sql<string>`${detail}`.as('detail'),
        })
        .from(orders)
        .leftJoin(party, eq(party.id, orders.merchantUserId))
        .where(and(where, matching(orders.orderCode, party.account)));
    const payoutRows = (where: SQL | undefined, detail: SQL) =>
      db
        .select({
          key: sql<string>`'payout:' || ${payouts.id}`.as('key'),
          ref: sql<string>`${payouts.orderCode}`.as('ref'),
          party: sql<string>`coalesce(${party.account}, '')`.as('party'),
          amount: sql<string | null>`${payouts.amount}`.as('amount'),
          since: sql<string>`${payouts.updatedAt}`.as('since'),
          detail: sql<string>`${detail}`.as('detail'),
        })
        .from(payouts)
        .leftJoin(party, eq(party.id, payouts.merchantUserId))
        .where(and(where, matching(payouts.orderCode, party.account)));

    switch (key) {
      case 'ordersToConfirm':
        return orderRows(
          and(
            inArray(orders.state, [ORDER_STATE.allocated, ORDER_STATE.timedOut]),
            isNotNull(orders.payerUtr),
            eq(orders.locked, false),
            own(orders.supplierUserId),
          ),
          sql`coalesce(${orders.payerUtr}, '')`,
        );
      case 'lockedOrders':
        return orderRows(
          and(eq(orders.locked, true), inArray(orders.state, OPEN_ORDER_STATES)),
          sql`${orders.mark}::text`,
        );
      case 'payoutsToClaim':
        return payoutRows(queue, sql`${payouts.userName}`);
      case 'payoutsToPay':
        return payoutRows(
          and(eq(payouts.state, PAYOUT_STATE.inProgress), own(payouts.supplierUserId)),
          sql`${payouts.userName}`,
        );
      case 'payoutsToConfirm':
        return payoutRows(
          inArray(payouts.state, [PAYOUT_STATE.submitted, PAYOUT_STATE.pendingConfirmation]),
          sql`coalesce(${payouts.utr}, '')`,
        );
      case 'payoutsGivenBack':
        return payoutRows(eq(payouts.state, PAYOUT_STATE.rejecting), sql`coalesce(${payouts.rejectReason}, '')`);
      case 'payoutExceptions':
        return payoutRows(
          eq(payouts.state, PAYOUT_STATE.processingException),
          sql`coalesce(${payouts.exceptionReason}, '')`,
        );
      case 'failedCallbacks': {
        const account = sql`coalesce(${party.account}, '')`;
        return db
          .select({
            key: sql<string>`'callback:' || ${orderCallbacks.id}`.as('key'),
            ref: sql<string>`${orderCallbacks.orderCode}`.as('ref'),
            party: sql<string>`${account}`.as('party'),
            amount: sql<string | null>`coalesce(${callbackOrder.amount}, ${callbackPayout.amount})`.as('amount'),
            since: sql<string>`${orderCallbacks.updatedAt}`.as('since'),
            detail: sql<string>`${orderCallbacks.url}`.as('detail'),
          })
          .from(orderCallbacks)
          .leftJoin(callbackOrder, eq(callbackOrder.id, orderCallbacks.orderId))
          .leftJoin(callbackPayout, eq(callbackPayout.id, orderCallbacks.payoutId))
          .leftJoin(
            party,
            eq(party.id, sql`coalesce(${callbackOrder.merchantUserId}, ${callbackPayout.merchantUserId})`),
          )
          .where(
            and(
              eq(orderCallbacks.state, 'failed'),
              isNull(orderCallbacks.deletedAt),
              matching(orderCallbacks.orderCode, account),
            ),
          );
      }
      case 'batchApprovals': {
        // The proposer may not approve its own (maker-checker): it waits for someone else.
        const ref = sql`${payoutBatches.id}::text`;
        const account = sql`coalesce(${payoutBatches.proposedByAccount}, '')`;
        return db
          .select({
            key: sql<string>`'batch:' || ${payoutBatches.id}`.as('key'),
            ref: sql<string>`${ref}`.as('ref'),
            party: sql<string>`${account}`.as('party'),
            amount: sql<string | null>`${payoutBatches.totalAmount}`.as('amount'),
            since: sql<string>`coalesce(${payoutBatches.proposedAt}, ${payoutBatches.updatedAt})`.as('since'),
            detail: sql<string>`${payoutBatches.orderCount}::text`.as('detail'),
          })
          .from(payoutBatches)
          .where(
            and(
              eq(payoutBatches.state, PAYOUT_BATCH_STATE.proposed),
              notProposedBy(payoutBatches.proposedBy, caller),
              matching(ref, account),
            ),
          );
      }
      case 'balanceApprovals': {
        const ref = sql`${balanceProposals.id}::text`;
        const account = sql`coalesce(${party.account}, '')`;
        return db
          .select({
            key: sql<string>`'proposal:' || ${balanceProposals.id}`.as('key'),
            ref: sql<string>`${ref}`.as('ref'),
            party: sql<string>`${account}`.as('party'),
            amount: sql<string | null>`${balanceProposals.amount}`.as('amount'),
            since: sql<string>`${balanceProposals.proposedAt}`.as('since'),
            detail: sql<string>`${balanceProposals.note}`.as('detail'),
          })
          .from(balanceProposals)
          .leftJoin(
            merchants,
            and(eq(balanceProposals.partyKind, 'merchant'), eq(merchants.id, balanceProposals.partyId)),
          )
          .leftJoin(
            suppliers,
            and(eq(balanceProposals.partyKind, 'supplier'), eq(suppliers.id, balanceProposals.partyId)),
          )
          .leftJoin(party, eq(party.id, sql`coalesce(${merchants.userId}, ${suppliers.userId})`))
          .where(
            and(
              eq(balanceProposals.state, 'pending'),
              notProposedBy(balanceProposals.proposedBy, caller),
              matching(ref, account),
            ),
          );
      }
    }
  }
}

/** A row as read (bigint and timestamp columns arrive as text from a subquery) as the contract's. */
function rowOf(
  item: TodoItem,
  row: { key: string; ref: string; party: string; amount: string | null; since: string; detail: string },
): TodoRow {
  return {
    key: row.key,
    item,
    ref: row.ref,
    party: row.party,
    amount: row.amount === null ? null : Number(row.amount),
    since: new Date(row.since).toISOString(),
    detail: row.detail ?? '',
  };
}

const notProposedBy = (
  column: typeof payoutBatches.proposedBy | typeof balanceProposals.proposedBy,
  caller: TodoCaller,
) => sql`(${column} is null or ${ne(column, caller.userId)})`;
