import {
  allowedOrderActions,
  isStaff,
  ORDER_EVENTS,
  ORDER_MARK,
  ORDER_STATE,
  type OrderActionSettings,
  type OrderEventKind,
  type OrderFields,
  type OrderRow,
  orderFieldsHiddenFrom,
  orderFilterShape,
  payerNameRequired,
  productById,
  type Role,
} from '@paydesk/contract';
import { and, asc, count, desc, eq, gte, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import {
  ledgerAccounts,
  ledgerEntries,
  ledgerTransfers,
  merchants,
  orderAllocations,
  orderEvents,
  orders,
  resourceImages,
  resources,
  suppliers,
} from '../../db/schema.js';
import type { Clock } from '../../platform/clock.js';
import { type DataScope, supplierListFilters } from '../../platform/context.js';
import { notFound } from '../../platform/errors.js';
import { afterInOrder, keysetRowsAfter } from '../../platform/export.js';
import { codeFilter, escapeLike } from '../../platform/like.js';
import type { SettingsStore } from '../../platform/settings.js';
import { fastQueryFilters, timeRangeWhere } from '../../platform/time-range.js';
import { productName } from '../products/names.js';
import { listRollupAsk, listTotals } from '../statistics/rollup-totals.js';
import { actionFacts } from './allowed-actions.js';
import { MerchantQueries } from './merchant-queries.js';
import { ORDER_CODE_SHAPE } from './order-intake.js';
import type { OrderRecord, OrdersService } from './orders.service.js';

const filterSchema = { shape: orderFilterShape };
export type OrderFilters = { [K in keyof typeof filterSchema.shape]?: z.output<(typeof filterSchema.shape)[K]> };

export interface OrderQueriesDeps {
  db: Db;
  clock: Clock;
  timeZone: string;
  orders: OrdersService;
  /** SupplierUnifyQueryGroup: whether a supplier's list is its team's (`listFilters`). */
  settings: Pick<SettingsStore, 'get'>;
}

const rowFields = {
  order: orders,
  merchantName: merchants.name,
  merchantNo: merchants.merchantNo,
  supplierName: suppliers.name,
  resourceName: resources.name,
  // What the action rule reads of the merchant (whether a callback can go out).
  merchantCallbackEnabled: merchants.callbackEnabled,
  merchantNotifyUrl: merchants.notifyUrl,
};
type Joined = {
  order: OrderRecord;
  merchantName: string;
  merchantNo: string;
  supplierName: string | null;
  resourceName: string | null;
  merchantCallbackEnabled: boolean;
  merchantNotifyUrl: string | null;
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Who reads: the role decides which fields it sees (ORDER_FIELDS_HIDDEN_FROM). */
export interface OrderReader {
  role: Role;
  userId: number;
}

/** An order's fields as `role` may see them: the fields it does not see are null. */
export function toOrderFields(r: Joined, role: Role): OrderFields {
  const row = fullOrderRow(r);
  for (const field of orderFieldsHiddenFrom(role)) (row as Record<string, unknown>)[field] = null;
  return row;
}

/** An order as `role` may see it, with the actions `role` may take on it under `settings`. */
export function toOrderRow(r: Joined, role: Role, settings: OrderActionSettings): OrderRow {
  const facts = actionFacts(r.order, { callbackEnabled: r.merchantCallbackEnabled, notifyUrl: r.merchantNotifyUrl });
  return { ...toOrderFields(r, role), allowedActions: allowedOrderActions(role, facts, settings) };
}

function fullOrderRow(r: Joined): OrderFields {
  const o = r.order;
  return {
    id: o.id,
    orderCode: o.orderCode,
    merchantId: o.merchantId,
    merchantName: r.merchantName,
    merchantNo: r.merchantNo,
    merchantOrderNo: o.merchantOrderNo,
    productId: o.productId,
    productName: productName(o.productId),
    amount: o.amount,
    fee: o.fee,
    commission: o.commission,
    state: o.state,
    mark: o.mark,
    locked: o.locked,
    supplemented: o.supplemented,
    supplementType: o.supplementType,
    utr: o.utr,
    payerUtr: o.payerUtr,
    payerName: o.payerName,
    supplierId: o.supplierId,
    supplierName: r.supplierName,
    isProxy: o.isProxy,
    resourceId: o.resourceId,
    resourceName: r.resourceName,
    usdtAddress: o.usdtAddress,
    usdtCount: o.usdtCount,
    userName: o.userName,
    cardNumber: o.cardNumber,
    ifscCode: o.ifscCode,
    clientIp: o.clientIp,
    subject: o.subject,
    rejectReason: o.rejectReason,
    createdAt: o.createdAt.toISOString(),
    allocatedAt: iso(o.allocatedAt),
    expiresAt: iso(o.expiresAt),
    paidAt: iso(o.paidAt),
    updatedAt: o.updatedAt.toISOString(),
  };
}

const SORT_COLUMNS = {
  createdAt: { expr: orders.createdAt, valueOf: (r: OrderFields) => new Date(r.createdAt) },
  amount: { expr: orders.amount, valueOf: (r: OrderFields) => r.amount },
  paidAt: { expr: orders.paidAt, valueOf: (r: OrderFields) => (r.paidAt ? new Date(r.paidAt) : null) },
} as const;

/** Reads of collection orders: lists, export, detail, the notifier's latest order, the payer's view. */
export class OrderQueries {
  /** The merchant API's signed query calls (order and balance). */
  readonly merchantApi: MerchantQueries;

  constructor(readonly deps: OrderQueriesDeps) {
    this.merchantApi = new MerchantQueries({ db: deps.db, clock: deps.clock, signedCalls: deps.orders.signedCalls });
  }

  private get db() {
    return this.deps.db;
  }

  private select() {
    return this.db
      .select(rowFields)
      .from(orders)
      .innerJoin(merchants, eq(merchants.id, orders.merchantId))
      .leftJoin(suppliers, eq(suppliers.id, orders.supplierId))
      .leftJoin(resources, eq(resources.id, orders.resourceId));
  }

  private scopeWhere(scope: DataScope, caller: OrderReader, isProxy?: boolean | null): SQL | undefined {
    if (scope.all) return undefined;
    if (caller.role === 'merchant') return eq(orders.merchantUserId, caller.userId);
    // A supplier: its own orders and its agents' (isProxy narrows to one or the other).
    if (isProxy === true) {
      const agents = scope.userIds.filter((id) => id !== caller.userId);
      return agents.length ? inArray(orders.supplierUserId, agents) : sql`false`;
    }
    if (isProxy === false) return eq(orders.supplierUserId, caller.userId);
    return inArray(orders.supplierUserId, [...scope.userIds]);
  }

  /**
   * The filters' condition. The time range (startTime, endTime) applies to the creation time; with
   * `completeTime` (the CompleteTimeFilter setting) to the completion time of the orders that have one
   * (paid, also when reversed later) and to the creation time of the others.
   */
  whereOf(scope: DataScope, caller: OrderReader, f: OrderFilters, completeTime = false): SQL | undefined {
    const like = (v: string | null | undefined) => (v ? `%${escapeLike(v)}%` : null);
    const tz = this.deps.timeZone;
    const timeRange = timeRangeWhere(f, tz, { createdAt: orders.createdAt, doneAt: orders.paidAt }, completeTime);
    return and(
      this.scopeWhere(scope, caller, f.isProxy),
      f.merchantId ? eq(orders.merchantId, f.merchantId) : undefined,
      f.supplierId ? eq(orders.supplierId, f.supplierId) : undefined,
      f.productId ? eq(orders.productId, f.productId) : undefined,
      f.merchantOrderId ? ilike(orders.merchantOrderNo, like(f.merchantOrderId)!) : undefined,
      f.orderCode ? codeFilter(orders.orderCode, f.orderCode, ORDER_CODE_SHAPE) : undefined,
      f.ipAddress ? ilike(orders.clientIp, like(f.ipAddress)!) : undefined,
      timeRange,
      f.orderStatusId !== undefined ? eq(orders.state, f.orderStatusId) : undefined,
      // isProxy for staff: orders taken by agents (true) or by top-level suppliers (false).
      scope.all && typeof f.isProxy === 'boolean' ? eq(orders.isProxy, f.isProxy) : undefined,
      f.orderMark !== undefined ? eq(orders.mark, f.orderMark) : undefined,
      typeof f.supplementStatus === 'boolean' ? eq(orders.supplemented, f.supplementStatus) : undefined,
      f.supplementType !== undefined ? eq(orders.supplementType, f.supplementType) : undefined,
      f.description ? ilike(orders.subject, like(f.description)!) : undefined,
      f.cardNumber ? ilike(orders.cardNumber, like(f.cardNumber)!) : undefined,
      typeof f.amount === 'number' ? eq(orders.amount, f.amount) : undefined,
      f.usdtAddress ? ilike(orders.usdtAddress, like(f.usdtAddress)!) : undefined,
      typeof f.usdtCount === 'number' ? eq(orders.usdtCount, f.usdtCount) : undefined,
      f.userName ? ilike(orders.userName, like(f.userName)!) : undefined,
      f.ifscCode ? ilike(orders.ifscCode, like(f.ifscCode)!) : undefined,
      f.utr ? or(ilike(orders.utr, like(f.utr)!), ilike(orders.payerUtr, like(f.utr)!)) : undefined,
    );
  }

  private orderBy(f: OrderFilters) {
    const sort = f.sortBy ? SORT_COLUMNS[f.sortBy] : null;
    if (!sort) return [desc(orders.id)];
    return [f.sortOrder === 'asc' ? asc(sort.expr) : desc(sort.expr), asc(orders.id)];
  }

  /** The filters a list is read with (SupplierUnifyQueryGroup: platform/context.ts). */
  private async listFilters<F extends OrderFilters>(caller: OrderReader, f: F): Promise<F> {
    const fast = await this.deps.settings.get('HighPerfOrderQuery');
    const filters = fastQueryFilters(f, fast, this.deps.clock.now(), this.deps.timeZone);
    return supplierListFilters(this.deps.settings, caller.role, filters);
  }

  async getList(scope: DataScope, caller: OrderReader, asked: OrderFilters & { pageIndex: number; pageSize: number }) {
    const input = await this.listFilters(caller, asked);
    const settings = await this.deps.orders.settings.get();
    const fast = await this.deps.settings.get('HighPerfOrderQuery');
    const where = this.whereOf(scope, caller, input, settings.completeTimeFilter);
    const offset = (input.pageIndex - 1) * input.pageSize;
    const fromRollups = settings.completeTimeFilter ? null : listRollupAsk(1, { ...caller, scope }, input);
    const [found, totals] = await Promise.all([
      this.select()
        .where(where)
        .orderBy(...this.orderBy(input))
        // Uncounted, one row more says whether a next page exists.
        .limit(input.pageSize + (fast ? 1 : 0))
        .offset(offset),
      listTotals(this.db, fromRollups, () =>
        this.db
          .select({
            n: fast ? sql<number>`0`.mapWith(Number) : count(),
            amount: sql<number>`coalesce(sum(${orders.amount}), 0)`.mapWith(Number),
            fee: sql<number>`coalesce(sum(${orders.fee}), 0)`.mapWith(Number),
            commission: sql<number>`coalesce(sum(${orders.commission}), 0)`.mapWith(Number),
          })
          .from(orders)
          .where(where),
      ),
    ]);
    const sums = { amount: totals?.amount ?? 0, fee: totals?.fee ?? 0, commission: totals?.commission ?? 0 };
    const hidden = orderFieldsHiddenFrom(caller.role);
    const hasMore = found.length > input.pageSize;
    const rows = hasMore ? found.slice(0, input.pageSize) : found;
    return {
      list: rows.map((r) => toOrderRow(r, caller.role, settings)),
      ...(fast ? { total: offset + rows.length + (hasMore ? 1 : 0), hasMore } : { total: totals?.n ?? 0 }),
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
      summary: Object.fromEntries(Object.entries(sums).filter(([key]) => !hidden.includes(key))),
    };
  }

  /** The filtered set for the CSV export, in the list's order (newest first by default). */
  async *exportList(scope: DataScope, caller: OrderReader, asked: OrderFilters): AsyncGenerator<OrderFields> {
    const input = await this.listFilters(caller, asked);
    const { completeTimeFilter } = await this.deps.orders.settings.get();
    const where = this.whereOf(scope, caller, input, completeTimeFilter);
    const sort = input.sortBy ? SORT_COLUMNS[input.sortBy] : null;
    const descending = input.sortOrder !== 'asc';
    yield* keysetRowsAfter<OrderFields>(async (last, limit) => {
      let after: SQL | undefined;
      if (last) {
        after = sort
          ? afterInOrder({ expr: sort.expr, value: sort.valueOf(last) }, descending, {
              column: orders.id,
              value: last.id,
            })
          : sql`${orders.id} < ${last.id}`;
      }
      const rows = await this.select()
        .where(and(where, after))
        .orderBy(...this.orderBy(input))
        .limit(limit);
      return rows.map((r) => toOrderFields(r, caller.role));
    });
  }

  /**
   * One order with what the payer pays to, its timeline and its ledger transfers, as the caller may
   * see them. Staff see everything. A merchant or a supplier sees the order's fields as in its lists
   * (toOrderRow), the entries of its own team's accounts only (a transfer with none is left out), the
   * names of its own team's people in the timeline (others' actions read as the system's) and the
   * notes of its own side's events (ORDER_EVENTS): never the other party's accounts, people or money.
   */
  async getDetail(scope: DataScope, caller: OrderReader, orderCode: string) {
    const order = await this.deps.orders.findInScope(this.db, orderCode, scope);
    const [joined] = await this.select().where(eq(orders.id, order.id));
    const events = await this.db
      .select()
      .from(orderEvents)
      .where(eq(orderEvents.orderId, order.id))
      .orderBy(asc(orderEvents.id));
    const transfers = await this.db
      .select()
      .from(ledgerTransfers)
      .where(eq(ledgerTransfers.orderCode, order.orderCode))
      .orderBy(asc(ledgerTransfers.id));
    const entries = transfers.length
      ? await this.db
          .select({
            transferId: ledgerEntries.transferId,
            account: ledgerAccounts.code,
            amount: ledgerEntries.amount,
            ownerKind: ledgerAccounts.ownerKind,
            ownerId: ledgerAccounts.ownerId,
          })
          .from(ledgerEntries)
          .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
          .where(
            inArray(
              ledgerEntries.transferId,
              transfers.map((t) => t.id),
            ),
          )
          .orderBy(asc(ledgerEntries.id))
      : [];

    const staff = scope.all || isStaff(caller.role);
    const team = scope.all ? [] : scope.userIds;
    const side = caller.role === 'merchant' ? 'merchant' : 'supplier';
    const ownAccount = staff ? () => true : await this.ownAccountTest(caller.role, team, order);
    const inTeam = (userId: number | null) => userId !== null && team.includes(userId);
    const noteShown = (kind: string, actorUserId: number | null) => {
      const eventSide = ORDER_EVENTS[kind as OrderEventKind] as string | undefined;
      return (actorUserId === null || inTeam(actorUserId)) && (eventSide === 'both' || eventSide === side);
    };
    return {
      order: toOrderRow(joined!, caller.role, await this.deps.orders.settings.get()),
      payee: await this.deps.orders.payeeOfOrder(this.db, order),
      timeline: events.map((e) => ({
        at: e.createdAt.toISOString(),
        kind: e.kind,
        fromState: e.fromState,
        toState: e.toState,
        actor: staff || inTeam(e.actorUserId) ? e.actorAccount : null,
        ...(staff || noteShown(e.kind, e.actorUserId)
          ? { note: e.note, noteTemplate: e.noteTemplate ?? null }
          : { note: '', noteTemplate: null }),
      })),
      transfers: transfers
        .map((t) => ({
          id: t.id,
          type: t.type,
          idempotencyKey: t.idempotencyKey,
          // The parties read these notes in their fund records too: they name no one.
          note: t.note,
          noteTemplate: t.noteTemplate ?? null,
          createdAt: t.createdAt.toISOString(),
          entries: entries
            .filter((e) => e.transferId === t.id && ownAccount(e))
            .map((e) => ({ account: e.account, amount: e.amount })),
        }))
        .filter((t) => staff || t.entries.length > 0),
    };
  }

  /** Whether a ledger account is the merchant's (its own order's) or the supplier team's. */
  private async ownAccountTest(role: Role, team: readonly number[], order: OrderRecord) {
    if (role === 'merchant') {
      return (a: { ownerKind: string; ownerId: number | null }) =>
        a.ownerKind === 'merchant' && a.ownerId === order.merchantId;
    }
    const rows = team.length
      ? await this.db
          .select({ id: suppliers.id })
          .from(suppliers)
          .where(inArray(suppliers.userId, [...team]))
      : [];
    const ids = new Set(rows.map((r) => r.id));
    return (a: { ownerKind: string; ownerId: number | null }) =>
      a.ownerKind === 'supplier' && a.ownerId !== null && ids.has(a.ownerId);
  }

  /**
   * The orders a receipt's picture points to (pictureQuery), as the list's rows for the caller: those
   * whose submitted or confirmed UTR is one of `utrs`; when none, those of one of `amounts` created
   * since `since` that have no UTR yet (the payer has not said, nobody has confirmed). Newest first,
   * at most `limit`.
   */
  async findForPicture(
    scope: DataScope,
    caller: OrderReader,
    read: { utrs: readonly string[]; amounts: readonly number[]; since: Date; limit: number },
  ): Promise<{ matchedBy: 'utr' | 'amount' | 'none'; rows: OrderRow[] }> {
    const settings = await this.deps.orders.settings.get();
    const rowsOf = (where: SQL | undefined) =>
      this.select()
        .where(and(this.scopeWhere(scope, caller), where))
        .orderBy(desc(orders.id))
        .limit(read.limit);
    if (read.utrs.length > 0) {
      const found = await rowsOf(or(inArray(orders.payerUtr, [...read.utrs]), inArray(orders.utr, [...read.utrs])));
      if (found.length > 0) return { matchedBy: 'utr', rows: found.map((r) => toOrderRow(r, caller.role, settings)) };
    }
    if (read.amounts.length > 0) {
      const found = await rowsOf(
        and(
          inArray(orders.amount, [...read.amounts]),
          gte(orders.createdAt, read.since),
          isNull(orders.utr),
          isNull(orders.payerUtr),
        ),
      );
      if (found.length > 0) {
        return { matchedBy: 'amount', rows: found.map((r) => toOrderRow(r, caller.role, settings)) };
      }
    }
    return { matchedBy: 'none', rows: [] };
  }

  async getLastOrder(scope: DataScope, caller: OrderReader) {
    const [row] = await this.db
      .select({ orderCode: orders.orderCode, createdAt: orders.createdAt, state: orders.state })
      .from(orders)
      .where(this.scopeWhere(scope, caller))
      .orderBy(desc(orders.id))
      .limit(1);
    return row ? { orderCode: row.orderCode, createTime: row.createdAt.toISOString(), state: row.state } : null;
  }

  getOrderStatusList() {
    return Object.entries(ORDER_STATE).map(([name, id]) => ({ id, name }));
  }

  getOrderMarkList() {
    return Object.entries(ORDER_MARK).map(([name, id]) => ({ id, name }));
  }

  async getAllocateInfo(scope: DataScope, orderCode: string) {
    const order = await this.deps.orders.findInScope(this.db, orderCode, scope);
    const rows = await this.db
      .select()
      .from(orderAllocations)
      .where(eq(orderAllocations.orderId, order.id))
      .orderBy(asc(orderAllocations.id));
    // Records keep [resourceId, outcome]; the accounts' and suppliers' names are read here, once each.
    const ids = [...new Set(rows.flatMap((r) => r.candidates.flatMap((c) => (Array.isArray(c) ? [c[0]] : []))))];
    const named =
      ids.length === 0
        ? []
        : await this.db
            .select({ id: resources.id, resourceName: resources.name, supplierName: suppliers.name })
            .from(resources)
            .innerJoin(suppliers, eq(suppliers.id, resources.supplierId))
            .where(inArray(resources.id, ids));
    const names = new Map(named.map((n) => [n.id, n]));
    return {
      orderCode,
      attempts: rows.map((r) => ({
        at: r.createdAt.toISOString(),
        chosenResourceId: r.chosenResourceId,
        candidates: r.candidates.map((c) => {
          if (!Array.isArray(c)) return c;
          const [resourceId, outcome] = c;
          const n = names.get(resourceId);
          return { resourceId, resourceName: n?.resourceName ?? '', supplierName: n?.supplierName ?? '', outcome };
        }),
      })),
    };
  }

  /**
   * The payer page's view: this order only, with its currency and the merchant's name (whom the payer
   * pays); no id or number of the merchant, no supplier, no secret.
   */
  async payerView(orderCode: string) {
    const [row] = await this.db
      .select({ order: orders, merchantName: merchants.name })
      .from(orders)
      .innerJoin(merchants, eq(merchants.id, orders.merchantId))
      .where(eq(orders.orderCode, orderCode));
    if (!row) throw notFound('no such order');
    const { order, merchantName } = row;
    const awaiting = order.state === ORDER_STATE.allocated;
    const currency = productById(order.productId)?.currency;
    if (!currency) throw new Error(`order ${order.orderCode} has product ${order.productId}, not in the catalogue`);
    const byHand = await this.deps.settings.get('AlipayToAlipayByHandSubmitName');
    return {
      orderCode: order.orderCode,
      productId: order.productId,
      amount: order.amount,
      currency,
      merchantName,
      state: order.state,
      subject: order.subject,
      expiresAt: iso(order.expiresAt),
      now: this.deps.clock.now().toISOString(),
      returnUrl: order.returnUrl,
      // The account is shown only while the order awaits payment.
      payee: awaiting ? await this.deps.orders.payeeOfOrder(this.db, order) : null,
      payerUtr: order.payerUtr,
      payerNameRequired: payerNameRequired(order.productId, byHand),
      payerName: order.payerName,
    };
  }

  /**
   * The payer page's QR image: the uploaded image of the order's receiving account, only while the
   * order awaits payment (the same rule as the payee in `payerView`); anything else is a 404 that
   * says nothing about why (no such order, not awaiting payment, no image).
   */
  async payerQrImage(orderCode: string): Promise<{ mime: string; dataUrl: string }> {
    const [row] = await this.db
      .select({ mime: resourceImages.mime, bytes: resourceImages.bytes })
      .from(orders)
      .innerJoin(resources, eq(resources.id, orders.resourceId))
      .innerJoin(resourceImages, eq(resourceImages.id, resources.qrImageId))
      .where(and(eq(orders.orderCode, orderCode), eq(orders.state, ORDER_STATE.allocated)));
    if (!row) throw notFound('no QR image for this order');
    return { mime: row.mime, dataUrl: `data:${row.mime};base64,${row.bytes.toString('base64')}` };
  }
}
