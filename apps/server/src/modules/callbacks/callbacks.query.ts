import type {
  CallbackAttemptRow,
  CallbackOrderType,
  CallbackRow,
  CallbackState,
  CallbackTrigger,
  callbackAttemptFilterShape,
  callbackFilterShape,
} from '@paydesk/contract';
import { and, asc, count, desc, eq, gte, ilike, isNotNull, isNull, lt, lte, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import { merchants, orderCallbackAttempts, orderCallbacks, orders, payouts } from '../../db/schema.js';
import { afterInOrder, keysetRowsAfter } from '../../platform/export.js';
import { escapeLike } from '../../platform/like.js';
import { parsePlatformTime } from '../../platform/time.js';

type Parsed<S extends Record<string, z.ZodType>> = { [K in keyof S]?: z.output<S[K]> };
export type CallbackFilters = Parsed<typeof callbackFilterShape>;
export type CallbackAttemptFilters = Parsed<typeof callbackAttemptFilterShape>;

const like = (v: string) => `%${escapeLike(v)}%`;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The latest attempt of the row's callback, read beside it. */
const lastAttempt = <T>(column: string) =>
  sql<T>`(select ${sql.raw(column)} from ${orderCallbackAttempts} a where a.callback_id = ${orderCallbacks.id} order by a.id desc limit 1)`;

/** What kind of order a callback notifies, by which of its two references is set. */
const orderTypeOf = (c: { payoutId: number | null }): CallbackOrderType =>
  c.payoutId === null ? 'collection' : 'payout';

const callbackFields = {
  callback: orderCallbacks,
  merchantName: merchants.name,
  merchantNo: merchants.merchantNo,
  // The collection order's state, or the payout's (payouts have no lock).
  orderState: sql<number>`coalesce(${orders.state}, ${payouts.state})`.mapWith(Number),
  orderLocked: sql<boolean>`coalesce(${orders.locked}, false)`.mapWith(Boolean),
  lastStatus: lastAttempt<number | null>('a.response_status'),
  lastError: lastAttempt<string | null>('a.error'),
  lastAttemptAt: lastAttempt<string | null>('a.created_at'),
};

type CallbackJoined = {
  callback: typeof orderCallbacks.$inferSelect;
  merchantName: string;
  merchantNo: string;
  orderState: number;
  orderLocked: boolean;
  lastStatus: number | null;
  lastError: string | null;
  lastAttemptAt: string | Date | null;
};

function toCallbackRow(r: CallbackJoined): CallbackRow {
  const c = r.callback;
  const lastAt = r.lastAttemptAt === null ? null : new Date(r.lastAttemptAt);
  return {
    id: c.id,
    orderType: orderTypeOf(c),
    orderCode: c.orderCode,
    merchantOrderNo: c.merchantOrderNo,
    merchantName: r.merchantName,
    merchantNo: r.merchantNo,
    orderState: r.orderState,
    orderLocked: r.orderLocked,
    notificationId: c.notificationId,
    url: c.url,
    state: c.state as CallbackState,
    trigger: c.trigger as CallbackTrigger,
    attempts: c.attempts,
    lastStatus: r.lastStatus === null ? null : Number(r.lastStatus),
    lastError: r.lastError,
    lastAttemptAt: iso(lastAt),
    nextAttemptAt: iso(c.nextAttemptAt),
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

const CALLBACK_SORT = {
  createdAt: { expr: orderCallbacks.createdAt, valueOf: (r: CallbackRow) => new Date(r.createdAt) },
  updatedAt: { expr: orderCallbacks.updatedAt, valueOf: (r: CallbackRow) => new Date(r.updatedAt) },
  attempts: { expr: orderCallbacks.attempts, valueOf: (r: CallbackRow) => r.attempts },
} as const;

const attemptFields = {
  attempt: orderCallbackAttempts,
  merchantOrderNo: orderCallbacks.merchantOrderNo,
  trigger: orderCallbacks.trigger,
  payoutId: orderCallbacks.payoutId,
};

type AttemptJoined = {
  attempt: typeof orderCallbackAttempts.$inferSelect;
  merchantOrderNo: string;
  trigger: string;
  payoutId: number | null;
};

function toAttemptRow(r: AttemptJoined): CallbackAttemptRow {
  const a = r.attempt;
  return {
    id: a.id,
    callbackId: a.callbackId,
    orderType: orderTypeOf(r),
    orderCode: a.orderCode,
    merchantOrderNo: r.merchantOrderNo,
    trigger: r.trigger as CallbackTrigger,
    attemptNo: a.attemptNo,
    url: a.url,
    httpMethod: a.httpMethod,
    requestBody: a.requestBody,
    responseStatus: a.responseStatus,
    responseBody: a.responseBody,
    error: a.error,
    succeeded: a.succeeded,
    durationMs: a.durationMs,
    createdAt: a.createdAt.toISOString(),
  };
}

/** Reads of the callback info and detail pages (deleted callbacks and their attempts are not shown). */
export class CallbackQueries {
  constructor(readonly deps: { db: Db; timeZone: string }) {}

  private get db() {
    return this.deps.db;
  }

  private time(text: string) {
    return parsePlatformTime(text, this.deps.timeZone);
  }

  // ---- callbacks ----

  private callbackWhere(f: CallbackFilters): SQL | undefined {
    return and(
      isNull(orderCallbacks.deletedAt),
      f.orderCode ? ilike(orderCallbacks.orderCode, like(f.orderCode)) : undefined,
      f.merchantOrderNo ? ilike(orderCallbacks.merchantOrderNo, like(f.merchantOrderNo)) : undefined,
      f.state ? eq(orderCallbacks.state, f.state) : undefined,
      f.trigger ? eq(orderCallbacks.trigger, f.trigger) : undefined,
      f.orderType === 'payout' ? isNotNull(orderCallbacks.payoutId) : undefined,
      f.orderType === 'collection' ? isNotNull(orderCallbacks.orderId) : undefined,
      f.startTime ? gte(orderCallbacks.createdAt, this.time(f.startTime)) : undefined,
      f.endTime ? lte(orderCallbacks.createdAt, this.time(f.endTime)) : undefined,
    );
  }

  private callbackOrder(f: CallbackFilters) {
    const sort = f.sortBy ? CALLBACK_SORT[f.sortBy] : null;
    if (!sort) return [desc(orderCallbacks.id)];
    return [f.sortOrder === 'asc' ? asc(sort.expr) : desc(sort.expr), asc(orderCallbacks.id)];
  }

  /** Callbacks with their order or payout (one of the two joins finds a row) and its merchant. */
  private selectCallbacks() {
    return this.db
      .select(callbackFields)
      .from(orderCallbacks)
      .leftJoin(orders, eq(orders.id, orderCallbacks.orderId))
      .leftJoin(payouts, eq(payouts.id, orderCallbacks.payoutId))
      .innerJoin(merchants, eq(merchants.id, sql`coalesce(${orders.merchantId}, ${payouts.merchantId})`));
  }

  async getList(input: CallbackFilters & { pageIndex: number; pageSize: number }) {
    const where = this.callbackWhere(input);
    const [rows, [totals]] = await Promise.all([
      this.selectCallbacks()
        .where(where)
        .orderBy(...this.callbackOrder(input))
        .limit(input.pageSize)
        .offset((input.pageIndex - 1) * input.pageSize),
      this.db.select({ n: count() }).from(orderCallbacks).where(where),
    ]);
    return {
      list: (rows as CallbackJoined[]).map(toCallbackRow),
      total: totals?.n ?? 0,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
    };
  }

  /** The filtered set for the CSV export, in the list's order (newest first by default). */
  async *exportList(input: CallbackFilters): AsyncGenerator<CallbackRow> {
    const where = this.callbackWhere(input);
    const sort = input.sortBy ? CALLBACK_SORT[input.sortBy] : null;
    const descending = input.sortOrder !== 'asc';
    yield* keysetRowsAfter<CallbackRow>(async (last, limit) => {
      let after: SQL | undefined;
      if (last) {
        after = sort
          ? afterInOrder({ expr: sort.expr, value: sort.valueOf(last) }, descending, {
              column: orderCallbacks.id,
              value: last.id,
            })
          : lt(orderCallbacks.id, last.id);
      }
      const rows = await this.selectCallbacks()
        .where(and(where, after))
        .orderBy(...this.callbackOrder(input))
        .limit(limit);
      return (rows as CallbackJoined[]).map(toCallbackRow);
    });
  }

  // ---- attempts ----

  private attemptWhere(f: CallbackAttemptFilters): SQL | undefined {
    // f.systemFlag: accepted and without effect (one installation is one system).
    return and(
      isNull(orderCallbacks.deletedAt),
      f.callbackId ? eq(orderCallbackAttempts.callbackId, f.callbackId) : undefined,
      f.orderCode ? ilike(orderCallbackAttempts.orderCode, like(f.orderCode)) : undefined,
      f.merchantOrderCode ? ilike(orderCallbacks.merchantOrderNo, like(f.merchantOrderCode)) : undefined,
      f.httpMethod ? eq(orderCallbackAttempts.httpMethod, f.httpMethod) : undefined,
      f.times ? eq(orderCallbackAttempts.attemptNo, f.times) : undefined,
      typeof f.succeeded === 'boolean' ? eq(orderCallbackAttempts.succeeded, f.succeeded) : undefined,
      f.orderType === 'payout' ? isNotNull(orderCallbacks.payoutId) : undefined,
      f.orderType === 'collection' ? isNotNull(orderCallbacks.orderId) : undefined,
      f.startTime ? gte(orderCallbackAttempts.createdAt, this.time(f.startTime)) : undefined,
      f.endTime ? lte(orderCallbackAttempts.createdAt, this.time(f.endTime)) : undefined,
    );
  }

  private selectAttempts() {
    return this.db
      .select(attemptFields)
      .from(orderCallbackAttempts)
      .innerJoin(orderCallbacks, eq(orderCallbacks.id, orderCallbackAttempts.callbackId));
  }

  async getDetailList(input: CallbackAttemptFilters & { pageIndex: number; pageSize: number }) {
    const where = this.attemptWhere(input);
    const [rows, [totals]] = await Promise.all([
      this.selectAttempts()
        .where(where)
        .orderBy(desc(orderCallbackAttempts.id))
        .limit(input.pageSize)
        .offset((input.pageIndex - 1) * input.pageSize),
      this.db
        .select({ n: count() })
        .from(orderCallbackAttempts)
        .innerJoin(orderCallbacks, eq(orderCallbacks.id, orderCallbackAttempts.callbackId))
        .where(where),
    ]);
    return {
      list: rows.map(toAttemptRow),
      total: totals?.n ?? 0,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
    };
  }

  /** Every attempt of the filtered set for the CSV export, newest first. */
  async *exportDetailList(input: CallbackAttemptFilters): AsyncGenerator<CallbackAttemptRow> {
    const where = this.attemptWhere(input);
    yield* keysetRowsAfter<CallbackAttemptRow>(async (last, limit) => {
      const rows = await this.selectAttempts()
        .where(and(where, last ? lt(orderCallbackAttempts.id, last.id) : undefined))
        .orderBy(desc(orderCallbackAttempts.id))
        .limit(limit);
      return rows.map(toAttemptRow);
    });
  }
}
