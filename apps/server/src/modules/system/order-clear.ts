import {
  ORDER_CLEAR_REASON_TEXTS,
  ORDER_STATE,
  type OrderClearCount,
  type OrderClearRun,
  type OrderClearState,
  type OrderClearTrigger,
  PAYOUT_STATE,
} from '@paydesk/contract';
import { and, asc, desc, eq, gt, gte, inArray, isNull, lt, lte, notExists, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import {
  orderAllocations,
  orderCallbackAttempts,
  orderCallbacks,
  orderClearRuns,
  orderEvents,
  orders,
  payoutEvents,
  payoutReceipts,
  payouts,
  payScriptCalls,
  users,
} from '../../db/schema.js';
import { type Actor, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import { isUniqueViolation } from '../../platform/db-errors.js';
import { conflict, refused } from '../../platform/errors.js';
import { keysetRows } from '../../platform/export.js';
import type { SettingsStore } from '../../platform/settings.js';
import { parsePlatformTime } from '../../platform/time.js';

const DAY_MS = 86_400_000;
/** Orders (and payouts) cleared per transaction: a big clear never holds many rows' locks for long. */
export const ORDER_CLEAR_BATCH = 1000;
/** A running run whose heartbeat is older than this is taken as interrupted (its process stopped). */
export const ORDER_CLEAR_STALE_MS = 15 * 60_000;

/**
 * Collection order states nothing moves on by itself any more: timed out, allocation failed, paid
 * (with its callback settled or none), rejected, reversed. Created, allocated and paid-notifying
 * orders are open, whatever their age, and keep everything.
 */
export const CLEARABLE_ORDER_STATES: readonly number[] = [
  ORDER_STATE.timedOut,
  ORDER_STATE.allocationFailed,
  ORDER_STATE.callbackSucceeded,
  ORDER_STATE.callbackFailed,
  ORDER_STATE.paid,
  ORDER_STATE.rejected,
  ORDER_STATE.reversed,
];
/** Payouts whose funds are settled (FINAL_PAYOUT_STATES). */
export const CLEARABLE_PAYOUT_STATES: readonly number[] = [
  PAYOUT_STATE.completed,
  PAYOUT_STATE.cancelled,
  PAYOUT_STATE.rejected,
];

type Counts = Record<OrderClearCount, number>;
const zero = (): Counts => ({
  orders: 0,
  payouts: 0,
  orderEvents: 0,
  payoutEvents: 0,
  allocations: 0,
  callbacks: 0,
  callbackAttempts: 0,
  receipts: 0,
  payScriptCalls: 0,
});

type Filters = {
  startTime?: string | null | undefined;
  endTime?: string | null | undefined;
  trigger?: OrderClearTrigger | null | undefined;
  state?: OrderClearState | null | undefined;
};

type Logger = { error(obj: unknown, msg?: string): void };

/**
 * The order clear (DataClearCycle; spec section 2's order clear history; docs/architecture.md "Order
 * clear"). A run removes the details of finished collection orders and payouts that nothing changed
 * for longer than the cycle, in batches of ORDER_CLEAR_BATCH orders, one short transaction each:
 * their timelines, allocation records, settled callbacks and their attempts, payout receipt images,
 * pay script call records, and the payer's or payee's personal fields (name, card number, VPA,
 * address, branch, remark, client IP, the merchant's free text). The order's own row stays (code,
 * amounts, fee, commission, state, times, parties, UTR), and with it everything that refers to it: the
 * ledger's transfers and entries, the fund records, the daily totals and statistics, the audit log,
 * none of which a run touches. One run at a time across processes (a unique index on running runs).
 */
export class OrderClear {
  private log: Logger = { error: (obj, msg) => console.error('[order-clear]', msg ?? '', obj) };
  /** The run this process is doing, if any (tests and stop wait for it). */
  private current: Promise<void> | null = null;
  private stopping = false;

  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      settings: SettingsStore;
      timeZone: string;
      batch?: number | undefined;
    },
  ) {}

  setLogger(log: Logger): void {
    this.log = log;
  }

  /** The daily job: a run with the current cycle; nothing (no run recorded) while the cycle is 0 or a run is going. */
  async scheduled(): Promise<OrderClearRun | null> {
    const started = await this.start('schedule', null);
    if (started === 'off' || started === 'busy') return null;
    await started.done;
    return this.get(started.run.id);
  }

  /** A superAdmin's run now (audited): answers the run as it starts; it goes on in the background. */
  async runNow(actor: Actor): Promise<OrderClearRun> {
    const started = await this.start('manual', actor);
    if (started === 'off') throw refused(ORDER_CLEAR_REASON_TEXTS.orderClearOff['en-US'], 'orderClearOff');
    if (started === 'busy') throw conflict(ORDER_CLEAR_REASON_TEXTS.orderClearRunning['en-US'], 'orderClearRunning');
    return started.row;
  }

  /** Waits for the run this process is doing (if any) to end. */
  async settled(): Promise<void> {
    await this.current;
  }

  /** Stops after the batch in hand (the run is recorded as interrupted); no new run starts. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.current;
  }

  /**
   * Records a new run (and, for a manual one, its audit row) and starts it. Answers 'off' while the
   * cycle is 0, 'busy' while another run (of any process) is going.
   */
  private async start(
    trigger: OrderClearTrigger,
    actor: Actor | null,
  ): Promise<{ run: { id: number }; row: OrderClearRun; done: Promise<void> } | 'off' | 'busy'> {
    if (this.stopping) return 'busy';
    const cycleDays = await this.deps.settings.get('DataClearCycle');
    if (cycleDays <= 0) return 'off';
    const now = this.deps.clock.now();
    const cutoff = new Date(now.getTime() - cycleDays * DAY_MS);
    let id: number;
    try {
      id = await this.deps.db.transaction(async (tx) => {
        // A run whose process died holds the slot no longer.
        await tx
          .update(orderClearRuns)
          .set({ state: 'interrupted', finishedAt: now })
          .where(
            and(
              eq(orderClearRuns.state, 'running'),
              lt(orderClearRuns.heartbeatAt, new Date(now.getTime() - ORDER_CLEAR_STALE_MS)),
            ),
          );
        const [created] = await tx
          .insert(orderClearRuns)
          .values({
            trigger,
            startedBy: actor?.userId ?? null,
            state: 'running',
            cycleDays,
            cutoff,
            startedAt: now,
            heartbeatAt: now,
          })
          .returning({ id: orderClearRuns.id });
        if (actor) {
          await writeAudit(
            tx,
            actor,
            {
              action: 'orderClear.run',
              target: `clear:${created!.id}`,
              after: { cycleDays, cutoff: cutoff.toISOString() },
            },
            now,
          );
        }
        return created!.id;
      });
    } catch (error) {
      if (isUniqueViolation(error)) return 'busy';
      throw error;
    }
    const row = await this.get(id);
    const done = this.work(id, cutoff).finally(() => {
      if (this.current === done) this.current = null;
    });
    this.current = done;
    return { run: { id }, row, done };
  }

  /** Clears batch after batch until nothing is left before the cutoff, then closes the run. */
  private async work(id: number, cutoff: Date): Promise<void> {
    const batch = this.deps.batch ?? ORDER_CLEAR_BATCH;
    try {
      for (const kind of ['orders', 'payouts'] as const) {
        const boundary = await this.boundary(kind, cutoff);
        let after = 0;
        while (boundary !== null) {
          if (this.stopping) {
            await this.finish(id, 'interrupted', null);
            return;
          }
          const step = await this.deps.db.transaction(async (tx) => {
            const picked =
              kind === 'orders'
                ? await this.clearOrders(tx, cutoff, after, boundary, batch)
                : await this.clearPayouts(tx, cutoff, after, boundary, batch);
            await this.add(tx, id, picked.counts);
            return picked;
          });
          if (step.last === null || step.picked < batch) break;
          after = step.last;
        }
      }
      await this.finish(id, 'succeeded', null);
    } catch (error) {
      this.log.error({ err: error, run: id }, 'order clear failed');
      await this.finish(id, 'failed', (error as Error).message.slice(0, 500)).catch((e: unknown) =>
        this.log.error({ err: e, run: id }, 'order clear could not record its failure'),
      );
    }
  }

  /**
   * The newest id of the orders (payouts) created before the cutoff: the walk stops there instead of
   * reading every recent row. Null when none is that old.
   */
  private async boundary(kind: 'orders' | 'payouts', cutoff: Date): Promise<number | null> {
    const table = kind === 'orders' ? orders : payouts;
    const [row] = await this.deps.db
      .select({ id: table.id })
      .from(table)
      .where(lt(table.createdAt, cutoff))
      // Rows made in the same instant tie on createdAt: the highest id of them, not any one.
      .orderBy(desc(table.createdAt), desc(table.id))
      .limit(1);
    return row?.id ?? null;
  }

  private async clearOrders(tx: Tx, cutoff: Date, after: number, boundary: number, batch: number) {
    const counts = zero();
    // Locked, so no action changes them meanwhile; a row another transaction holds waits for the next run.
    const picked = await tx
      .select({ id: orders.id, orderCode: orders.orderCode })
      .from(orders)
      .where(
        and(
          isNull(orders.detailsClearedAt),
          gt(orders.id, after),
          lte(orders.id, boundary),
          inArray(orders.state, [...CLEARABLE_ORDER_STATES]),
          lt(orders.updatedAt, cutoff),
          // A callback still being delivered (a manual trigger) keeps its order's details for now.
          notExists(
            tx
              .select({ one: sql`1` })
              .from(orderCallbacks)
              .where(
                and(
                  eq(orderCallbacks.orderId, orders.id),
                  eq(orderCallbacks.state, 'pending'),
                  isNull(orderCallbacks.deletedAt),
                ),
              ),
          ),
        ),
      )
      .orderBy(asc(orders.id))
      .limit(batch)
      .for('update', { skipLocked: true });
    if (picked.length === 0) return { counts, picked: 0, last: null };
    const ids = picked.map((p) => p.id);
    const codes = picked.map((p) => p.orderCode);
    const callbacks = await tx
      .select({ id: orderCallbacks.id })
      .from(orderCallbacks)
      .where(inArray(orderCallbacks.orderId, ids));
    Object.assign(
      counts,
      await this.clearCallbacks(
        tx,
        callbacks.map((c) => c.id),
      ),
    );
    counts.orderEvents = await removed(tx.delete(orderEvents).where(inArray(orderEvents.orderId, ids)));
    counts.allocations = await removed(tx.delete(orderAllocations).where(inArray(orderAllocations.orderId, ids)));
    counts.payScriptCalls = await removed(tx.delete(payScriptCalls).where(inArray(payScriptCalls.orderCode, codes)));
    await tx
      .update(orders)
      .set({
        userName: null,
        payerName: null,
        cardNumber: null,
        vpa: null,
        address: null,
        clientIp: null,
        subject: null,
        body: null,
        extra: null,
        returnUrl: null,
        detailsClearedAt: this.deps.clock.now(),
      })
      .where(inArray(orders.id, ids));
    counts.orders = ids.length;
    return { counts, picked: ids.length, last: ids.at(-1) ?? null };
  }

  private async clearPayouts(tx: Tx, cutoff: Date, after: number, boundary: number, batch: number) {
    const counts = zero();
    const picked = await tx
      .select({ id: payouts.id })
      .from(payouts)
      .where(
        and(
          isNull(payouts.detailsClearedAt),
          gt(payouts.id, after),
          lte(payouts.id, boundary),
          inArray(payouts.state, [...CLEARABLE_PAYOUT_STATES]),
          lt(payouts.updatedAt, cutoff),
          notExists(
            tx
              .select({ one: sql`1` })
              .from(orderCallbacks)
              .where(
                and(
                  eq(orderCallbacks.payoutId, payouts.id),
                  eq(orderCallbacks.state, 'pending'),
                  isNull(orderCallbacks.deletedAt),
                ),
              ),
          ),
        ),
      )
      .orderBy(asc(payouts.id))
      .limit(batch)
      .for('update', { skipLocked: true });
    if (picked.length === 0) return { counts, picked: 0, last: null };
    const ids = picked.map((p) => p.id);
    const callbacks = await tx
      .select({ id: orderCallbacks.id })
      .from(orderCallbacks)
      .where(inArray(orderCallbacks.payoutId, ids));
    Object.assign(
      counts,
      await this.clearCallbacks(
        tx,
        callbacks.map((c) => c.id),
      ),
    );
    counts.payoutEvents = await removed(tx.delete(payoutEvents).where(inArray(payoutEvents.payoutId, ids)));
    // The payout names its current receipt: that reference goes first.
    await tx
      .update(payouts)
      .set({
        receiptId: null,
        userName: null,
        cardNumber: null,
        bankBranch: null,
        address: null,
        remark: null,
        clientIp: null,
        detailsClearedAt: this.deps.clock.now(),
      })
      .where(inArray(payouts.id, ids));
    counts.receipts = await removed(tx.delete(payoutReceipts).where(inArray(payoutReceipts.payoutId, ids)));
    counts.payouts = ids.length;
    return { counts, picked: ids.length, last: ids.at(-1) ?? null };
  }

  /** Deletes these callbacks and their attempts (none of them pending: the pick left those out). */
  private async clearCallbacks(tx: Tx, ids: number[]): Promise<Pick<Counts, 'callbacks' | 'callbackAttempts'>> {
    if (ids.length === 0) return { callbacks: 0, callbackAttempts: 0 };
    const callbackAttempts = await removed(
      tx.delete(orderCallbackAttempts).where(inArray(orderCallbackAttempts.callbackId, ids)),
    );
    const callbacks = await removed(tx.delete(orderCallbacks).where(inArray(orderCallbacks.id, ids)));
    return { callbacks, callbackAttempts };
  }

  private async add(tx: Tx, id: number, counts: Counts): Promise<void> {
    const r = orderClearRuns;
    await tx
      .update(r)
      .set({
        orders: sql`${r.orders} + ${counts.orders}`,
        payouts: sql`${r.payouts} + ${counts.payouts}`,
        orderEvents: sql`${r.orderEvents} + ${counts.orderEvents}`,
        payoutEvents: sql`${r.payoutEvents} + ${counts.payoutEvents}`,
        allocations: sql`${r.allocations} + ${counts.allocations}`,
        callbacks: sql`${r.callbacks} + ${counts.callbacks}`,
        callbackAttempts: sql`${r.callbackAttempts} + ${counts.callbackAttempts}`,
        receipts: sql`${r.receipts} + ${counts.receipts}`,
        payScriptCalls: sql`${r.payScriptCalls} + ${counts.payScriptCalls}`,
        heartbeatAt: this.deps.clock.now(),
      })
      .where(eq(r.id, id));
  }

  private async finish(id: number, state: 'succeeded' | 'failed' | 'interrupted', error: string | null): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.db
      .update(orderClearRuns)
      .set({ state, error, finishedAt: now, heartbeatAt: now })
      .where(and(eq(orderClearRuns.id, id), eq(orderClearRuns.state, 'running')));
  }

  async get(id: number): Promise<OrderClearRun> {
    const [row] = await this.select(eq(orderClearRuns.id, id));
    return toRun(row!);
  }

  async list(input: Filters & { pageIndex: number; pageSize: number }) {
    const where = this.where(input);
    const [rows, total] = await Promise.all([
      this.select(where)
        .limit(input.pageSize)
        .offset((input.pageIndex - 1) * input.pageSize),
      this.deps.db.$count(orderClearRuns, where),
    ]);
    return { list: rows.map(toRun), total, pageIndex: input.pageIndex, pageSize: input.pageSize };
  }

  async *export(input: Filters) {
    const where = this.where(input);
    for await (const row of keysetRows((before, limit) =>
      this.select(and(where, before === null ? undefined : lt(orderClearRuns.id, before)))
        .limit(limit)
        .then((rows) => rows.map((r) => ({ ...r, id: r.run.id }))),
    )) {
      yield toRun(row);
    }
  }

  private where(input: Filters): SQL | undefined {
    const { timeZone } = this.deps;
    return and(
      input.startTime ? gte(orderClearRuns.startedAt, parsePlatformTime(input.startTime, timeZone)) : undefined,
      input.endTime ? lte(orderClearRuns.startedAt, parsePlatformTime(input.endTime, timeZone)) : undefined,
      input.trigger ? eq(orderClearRuns.trigger, input.trigger) : undefined,
      input.state ? eq(orderClearRuns.state, input.state) : undefined,
    );
  }

  private select(where: SQL | undefined) {
    return this.deps.db
      .select({ run: orderClearRuns, startedBy: users.account })
      .from(orderClearRuns)
      .leftJoin(users, eq(users.id, orderClearRuns.startedBy))
      .where(where)
      .orderBy(desc(orderClearRuns.id));
  }
}

/** How many rows a delete removed (a batch's rows are a few thousand at most). */
async function removed(query: { returning(fields: { one: SQL<number> }): Promise<unknown[]> }): Promise<number> {
  return (await query.returning({ one: sql<number>`1` })).length;
}

function toRun(r: { run: typeof orderClearRuns.$inferSelect; startedBy: string | null }): OrderClearRun {
  const { run } = r;
  return {
    id: run.id,
    trigger: run.trigger as OrderClearTrigger,
    startedBy: r.startedBy,
    state: run.state as OrderClearState,
    cycleDays: run.cycleDays,
    cutoff: run.cutoff.toISOString(),
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
    error: run.error,
    orders: run.orders,
    payouts: run.payouts,
    orderEvents: run.orderEvents,
    payoutEvents: run.payoutEvents,
    allocations: run.allocations,
    callbacks: run.callbacks,
    callbackAttempts: run.callbackAttempts,
    receipts: run.receipts,
    payScriptCalls: run.payScriptCalls,
  };
}
