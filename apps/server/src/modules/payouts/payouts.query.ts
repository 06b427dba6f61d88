import {
  type LastClaimablePayout,
  PAYOUT_STATE,
  PAYOUT_STATES_BY_PROCESS,
  type PayoutClaimRoom,
  type PayoutFields,
  type PayoutProcessState,
  type PayoutRow,
  type payoutFilterShape,
  type Role,
} from '@paydesk/contract';
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, lte, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import { payouts, suppliers } from '../../db/schema.js';
import type { Clock } from '../../platform/clock.js';
import { type DataScope, supplierListFilters } from '../../platform/context.js';
import { afterInOrder, keysetRowsAfter } from '../../platform/export.js';
import { codeFilter, escapeLike } from '../../platform/like.js';
import type { SettingsStore } from '../../platform/settings.js';
import { fastQueryFilters, timeRangeWhere } from '../../platform/time-range.js';
import { listRollupAsk, listTotals } from '../statistics/rollup-totals.js';
import type { PayoutRecord } from './payout-core.js';
import { PAYOUT_CODE_SHAPE } from './payout-intake.js';
import { actingAs, type PayoutsService } from './payouts.service.js';

export type PayoutFilters = {
  [K in keyof typeof payoutFilterShape]?: z.output<(typeof payoutFilterShape)[K]>;
};

/** Who reads: the session's role, its console account and its data scope (a supplier's: its team). */
export interface PayoutReader {
  role: Role;
  userId: number;
  scope: DataScope;
}

export interface PayoutQueriesDeps {
  db: Db;
  /** HighPerfOrderQuery's window: the last 31 days from now. */
  clock: Clock;
  timeZone: string;
  /**
   * CompleteTimeFilter (the time range on completed payouts' completion time) and
   * SupplierUnifyQueryGroup (whether a supplier's list is its team's, `listFilters`).
   */
  settings: Pick<SettingsStore, 'get'>;
  /** Its `rowOf` answers each row with the actions the caller may take on it (the contract's rule). */
  payouts: Pick<PayoutsService, 'rowOf' | 'claimRoom' | 'claimRoomOf'>;
}

/**
 * Sort columns. A payout not completed has no completion time: it sorts as the earliest, the same in
 * the list's ORDER BY and in the export's keyset condition (a NULL would break the keyset).
 */
const SORT_COLUMNS = {
  createdAt: { expr: payouts.createdAt, valueOf: (r: PayoutFields) => new Date(r.createdAt) },
  amount: { expr: payouts.amount, valueOf: (r: PayoutFields) => r.amount },
  completedAt: {
    expr: sql`coalesce(${payouts.completedAt}, 'epoch'::timestamptz)`,
    // A parameter beside an expression is not mapped by a column: the time as text, read as timestamptz.
    valueOf: (r: PayoutFields) => r.completedAt ?? new Date(0).toISOString(),
  },
} as const;

const fieldsOf = ({ allowedActions: _actions, ...fields }: PayoutRow): PayoutFields => fields;

/**
 * Whose actions a row offers: a supplier acts on the payouts it claimed itself (the action endpoints
 * are not team views: its agents act on theirs), though its lists show its team's.
 */
/**
 * Reads of payout orders (issue 20 item 6): the lists of every role with the filters of spec section
 * 3 and their totals, the CSV export of the filtered set, a supplier's claim queue, the state list.
 * Rows are `PayoutsService.rowOf`'s, so a list offers exactly the actions the service accepts.
 */
export class PayoutQueries {
  constructor(private readonly deps: PayoutQueriesDeps) {}

  private get db() {
    return this.deps.db;
  }

  /**
   * Data scope: staff every payout, a merchant its own, a supplier those it (or its team) claimed:
   * isProxy true narrows to its agents', false to its own.
   */
  private scopeWhere(reader: PayoutReader, isProxy: boolean | null | undefined): SQL | undefined {
    const { scope } = reader;
    if (scope.all) {
      // For staff isProxy asks who claimed it: an agent (a supplier with a parent) or a top-level supplier.
      if (typeof isProxy !== 'boolean') return undefined;
      const claimants = this.db
        .select({ id: suppliers.id })
        .from(suppliers)
        .where(isProxy ? isNotNull(suppliers.parentId) : isNull(suppliers.parentId));
      return inArray(payouts.supplierId, claimants);
    }
    if (reader.role === 'merchant') return eq(payouts.merchantUserId, reader.userId);
    if (reader.role !== 'supplier') return sql`false`;
    if (isProxy === true) {
      const agents = scope.userIds.filter((id) => id !== reader.userId);
      return agents.length ? inArray(payouts.supplierUserId, agents) : sql`false`;
    }
    if (isProxy === false) return eq(payouts.supplierUserId, reader.userId);
    return inArray(payouts.supplierUserId, [...scope.userIds]);
  }

  /**
   * A supplier's claim queue: the awaiting payouts of the products it has enabled and holds an enabled
   * payout account of (what `PayoutsService.claim` assigns from), neither of a gateway product nor
   * reserved by a batch. Nothing for a disabled supplier or anyone else. Its deposit and its limit of
   * payouts in progress do not hide rows: the queue shows what the supplier could take once it has room,
   * and its rows offer a claim only within the room (`claimRoomOf`, answered with the list).
   */
  async queueWhere(reader: PayoutReader, known?: PayoutClaimRoom): Promise<SQL> {
    const room = known ?? (await this.deps.payouts.claimRoomOf(this.db, reader));
    if (!room || room.products.length === 0) return sql`false`;
    return and(
      eq(payouts.state, PAYOUT_STATE.awaiting),
      inArray(payouts.productId, [...room.products]),
      // Reserved by a batch being prepared: its bank file pays it (batches.service.ts).
      isNull(payouts.batchId),
    )!;
  }

  /** How many payouts wait in the supplier's claim queue (`queueWhere`; 0 for anyone else). */
  async queueCount(reader: PayoutReader): Promise<number> {
    return this.db.$count(payouts, await this.queueWhere(reader));
  }

  /**
   * The newest payout the supplier can claim now, for the console's notifier: one of its claim queue
   * (`queueWhere`) that its deposit covers, while it has room under its limit of payouts in progress
   * (`PayoutsService.claimRoom`, what `claim` refuses by). Null when there is none, and for anyone else.
   */
  async lastClaimable(reader: PayoutReader): Promise<LastClaimablePayout | null> {
    const room = await this.deps.payouts.claimRoomOf(this.db, reader);
    if (!room || room.held >= room.limit) return null;
    const { deposit } = room;
    const queue = await this.queueWhere(reader, room);
    const [row] = await this.db
      .select({
        id: payouts.id,
        orderCode: payouts.orderCode,
        productId: payouts.productId,
        amount: payouts.amount,
        createdAt: payouts.createdAt,
        state: payouts.state,
      })
      .from(payouts)
      .where(and(queue, lte(payouts.amount, deposit)))
      .orderBy(desc(payouts.id))
      .limit(1);
    if (!row) return null;
    const { createdAt, ...rest } = row;
    return { ...rest, createTime: createdAt.toISOString() };
  }

  /**
   * The filters' condition. The time range (startTime, endTime) applies to the creation time; with
   * `completeTime` (the CompleteTimeFilter setting) to the completion time of completed payouts and to
   * the creation time of the others.
   */
  whereOf(reader: PayoutReader, f: PayoutFilters, completeTime = false): SQL | undefined {
    const like = (v: string) => `%${escapeLike(v)}%`;
    const tz = this.deps.timeZone;
    const timeRange = timeRangeWhere(
      f,
      tz,
      { createdAt: payouts.createdAt, doneAt: payouts.completedAt },
      completeTime,
    );
    return and(
      this.scopeWhere(reader, f.isProxy),
      f.merchantId ? eq(payouts.merchantId, f.merchantId) : undefined,
      f.supplierId ? eq(payouts.supplierId, f.supplierId) : undefined,
      f.productId !== undefined ? eq(payouts.productId, f.productId) : undefined,
      f.merchantOrderId ? ilike(payouts.merchantOrderNo, like(f.merchantOrderId)) : undefined,
      f.orderCode ? codeFilter(payouts.orderCode, f.orderCode, PAYOUT_CODE_SHAPE) : undefined,
      timeRange,
      f.payoutStatus !== undefined ? eq(payouts.state, f.payoutStatus) : undefined,
      f.processState !== undefined
        ? inArray(payouts.state, [...PAYOUT_STATES_BY_PROCESS[f.processState as PayoutProcessState]])
        : undefined,
      f.utr ? ilike(payouts.utr, like(f.utr)) : undefined,
      f.batchId ? eq(payouts.batchId, f.batchId) : undefined,
      f.ifscCode ? ilike(payouts.ifscCode, like(f.ifscCode)) : undefined,
      f.cardNumber ? ilike(payouts.cardNumber, like(f.cardNumber)) : undefined,
      f.userName ? ilike(payouts.userName, like(f.userName)) : undefined,
      typeof f.amount === 'number' ? eq(payouts.amount, f.amount) : undefined,
    );
  }

  /** Newest first unless sorted; the claim queue oldest first (first come, first claimed). */
  private orderBy(f: PayoutFilters, oldestFirst = false) {
    const sort = f.sortBy ? SORT_COLUMNS[f.sortBy] : null;
    if (!sort) return [oldestFirst ? asc(payouts.id) : desc(payouts.id)];
    return [f.sortOrder === 'asc' ? asc(sort.expr) : desc(sort.expr), asc(payouts.id)];
  }

  /**
   * A page of the caller's payouts (or, with `queue`, of its claim queue: the filters other than the
   * scope still apply), with totals over the whole filtered set: amount and fee, and the commission
   * for everyone but a merchant (who does not see it on the rows either).
   */
  /** The filters a list is read with (SupplierUnifyQueryGroup: platform/context.ts). */
  private async listFilters<F extends PayoutFilters>(reader: PayoutReader, f: F): Promise<F> {
    const fast = await this.deps.settings.get('HighPerfOrderQuery');
    const filters = fastQueryFilters(f, fast, this.deps.clock.now(), this.deps.timeZone);
    return supplierListFilters(this.deps.settings, reader.role, filters);
  }

  async getList(
    reader: PayoutReader,
    asked: PayoutFilters & { pageIndex: number; pageSize: number; queue?: boolean | null | undefined },
  ) {
    const completeTime = await this.deps.settings.get('CompleteTimeFilter');
    // The claim queue is not a list of the supplier's rows: its scope is the queue's own.
    const input = asked.queue ? asked : await this.listFilters(reader, asked);
    // A supplier's claim room: its queue's products, and the claims its rows may offer (read once).
    const claimRoom = await this.deps.payouts.claimRoomOf(this.db, reader);
    const where = input.queue
      ? and(
          await this.queueWhere(reader, claimRoom),
          this.whereOf({ ...reader, scope: { all: true } }, { ...input, isProxy: null }, completeTime),
        )
      : this.whereOf(reader, input, completeTime);
    // The claim queue is short and counted; the lists under HighPerfOrderQuery are not.
    const fast = !input.queue && (await this.deps.settings.get('HighPerfOrderQuery'));
    const offset = (input.pageIndex - 1) * input.pageSize;
    // The totals from the rollups where they can give them (statistics/rollup-totals.ts).
    const fromRollups = input.queue || completeTime ? null : listRollupAsk(2, reader, input);
    const [found, totals] = await Promise.all([
      this.db
        .select()
        .from(payouts)
        .where(where)
        .orderBy(...this.orderBy(input, input.queue === true))
        // Uncounted, one row more says whether a next page exists.
        .limit(input.pageSize + (fast ? 1 : 0))
        .offset(offset),
      listTotals(this.db, fromRollups, () =>
        this.db
          .select({
            n: fast ? sql<number>`0`.mapWith(Number) : count(),
            amount: sql<number>`coalesce(sum(${payouts.amount}), 0)`.mapWith(Number),
            fee: sql<number>`coalesce(sum(${payouts.fee}), 0)`.mapWith(Number),
            commission: sql<number>`coalesce(sum(${payouts.commission}), 0)`.mapWith(Number),
          })
          .from(payouts)
          .where(where),
      ),
    ]);
    const { amount = 0, fee = 0, commission = 0 } = totals ?? {};
    const summary: Record<string, number> = reader.role === 'merchant' ? { amount, fee } : { amount, fee, commission };
    const hasMore = found.length > input.pageSize;
    const rows = hasMore ? found.slice(0, input.pageSize) : found;
    return {
      list: rows.map((p) => this.deps.payouts.rowOf(p, actingAs(reader), claimRoom)),
      ...(claimRoom ? { claimRoom: { ...claimRoom, products: [...claimRoom.products] } } : {}),
      ...(fast ? { total: offset + rows.length + (hasMore ? 1 : 0), hasMore } : { total: totals?.n ?? 0 }),
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
      summary,
    };
  }

  /** The filtered set for the CSV export, in the list's order (newest first by default): the rows' fields. */
  async *exportList(reader: PayoutReader, asked: PayoutFilters): AsyncGenerator<PayoutFields> {
    const input = await this.listFilters(reader, asked);
    const where = this.whereOf(reader, input, await this.deps.settings.get('CompleteTimeFilter'));
    const sort = input.sortBy ? SORT_COLUMNS[input.sortBy] : null;
    const descending = input.sortOrder !== 'asc';
    yield* keysetRowsAfter<PayoutFields>(async (last, limit) => {
      let after: SQL | undefined;
      if (last) {
        after = sort
          ? afterInOrder({ expr: sort.expr, value: sort.valueOf(last) }, descending, {
              column: payouts.id,
              value: last.id,
            })
          : sql`${payouts.id} < ${last.id}`;
      }
      const rows: PayoutRecord[] = await this.db
        .select()
        .from(payouts)
        .where(and(where, after))
        .orderBy(...this.orderBy(input))
        .limit(limit);
      return rows.map((p) => fieldsOf(this.deps.payouts.rowOf(p, actingAs(reader))));
    });
  }

  getPayoutStatusList() {
    return Object.entries(PAYOUT_STATE).map(([name, id]) => ({ id, name }));
  }
}
