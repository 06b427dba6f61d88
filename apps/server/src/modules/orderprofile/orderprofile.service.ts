import {
  ORDER_PROFILE_DEFAULT_DAYS,
  ORDER_PROFILE_MAX_DAYS,
  ORDER_PROFILE_TEXTS,
  ORDER_STATE,
  type OrderProfile,
  type OrderProfileRow,
  type OrderProfileStats,
  type orderProfileFilterShape,
} from '@paydesk/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/raw-rows.js';
import type { Clock } from '../../platform/clock.js';
import { invalid } from '../../platform/errors.js';
import { formatPlatformTime, parsePlatformTime } from '../../platform/time.js';
import { productName } from '../products/names.js';

type Parsed<S extends Record<string, z.ZodType>> = { [K in keyof S]?: z.output<S[K]> };
export type OrderProfileFilters = Parsed<typeof orderProfileFilterShape>;

const DAY_MS = 86_400_000;

/** One row of the aggregate: a product and hour pair, a product, an hour, or every order. */
interface AggregateRow {
  product_id: number | null;
  hour: number | null;
  /** grouping(product_id, hour): 0 both, 1 product only, 2 hour only, 3 overall. */
  level: number;
  created: number;
  allocated: number;
  paid: number;
  allocation_failed: number;
  timed_out: number;
  allocate: unknown;
  pay: unknown;
  callback: unknown;
}

const LEVEL = { productHour: 0, product: 1, hour: 2, overall: 3 } as const;

/** The [p50, p90, p99] array of percentile_cont, in whole milliseconds (null: no sample). */
function percentiles(value: unknown): [number | null, number | null, number | null] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.replace(/[{}]/g, '').split(',') : [];
  const at = (i: number) => {
    const v = list[i];
    if (v === null || v === undefined || v === 'NULL') return null;
    const n = Number(v);
    return Number.isFinite(n) ? Math.round(n) : null;
  };
  return [at(0), at(1), at(2)];
}

function statsOf(r: AggregateRow | undefined): OrderProfileStats {
  const [allocateP50Ms, allocateP90Ms, allocateP99Ms] = percentiles(r?.allocate);
  const [payP50Ms, payP90Ms, payP99Ms] = percentiles(r?.pay);
  const [callbackP50Ms, callbackP90Ms, callbackP99Ms] = percentiles(r?.callback);
  return {
    created: Number(r?.created ?? 0),
    allocated: Number(r?.allocated ?? 0),
    paid: Number(r?.paid ?? 0),
    allocationFailed: Number(r?.allocation_failed ?? 0),
    timedOut: Number(r?.timed_out ?? 0),
    allocateP50Ms,
    allocateP90Ms,
    allocateP99Ms,
    payP50Ms,
    payP90Ms,
    payP99Ms,
    callbackP50Ms,
    callbackP90Ms,
    callbackP99Ms,
  };
}

/**
 * Order performance analysis (/order/profile): one aggregate query over the orders created in a
 * bounded window. The window's range on created_at is what the orders_created_idx index serves; an
 * allocated order's first allocation that found an account is looked up per order through
 * order_allocations_order_idx, a paid order's first succeeded callback attempt through
 * order_callbacks_order_idx and order_callback_attempts_callback_idx. The percentiles are
 * PostgreSQL's percentile_cont (the same on PGlite), computed for the product and hour pairs, the
 * products, the hours and the whole window in one pass (grouping sets).
 */
export class OrderProfileService {
  constructor(readonly deps: { db: Db; clock: Clock; timeZone: string }) {}

  /**
   * The window of creation times: endTime (default now) and startTime (default 7 days before the
   * end). A window longer than 31 days, or one that ends before it starts, is refused with 400.
   */
  windowOf(f: OrderProfileFilters): { start: Date; end: Date } {
    const { timeZone } = this.deps;
    const end = f.endTime ? parsePlatformTime(f.endTime, timeZone) : this.deps.clock.now();
    const start = f.startTime
      ? parsePlatformTime(f.startTime, timeZone)
      : new Date(end.getTime() - ORDER_PROFILE_DEFAULT_DAYS * DAY_MS);
    if (start.getTime() > end.getTime())
      throw invalid([{ path: 'startTime', message: ORDER_PROFILE_TEXTS.order }], 'startAfterEnd');
    if (end.getTime() - start.getTime() > ORDER_PROFILE_MAX_DAYS * DAY_MS) {
      throw invalid([{ path: 'endTime', message: ORDER_PROFILE_TEXTS.window }], 'windowTooLong');
    }
    return { start, end };
  }

  private async aggregate(f: OrderProfileFilters, window: { start: Date; end: Date }): Promise<AggregateRow[]> {
    const filters: SQL[] = [];
    if (f.productId) filters.push(sql` and o.product_id = ${f.productId}`);
    if (f.merchantId) filters.push(sql` and o.merchant_id = ${f.merchantId}`);
    const result = await this.deps.db.execute(sql`
      with o as (
        select
          o.product_id,
          extract(hour from o.created_at at time zone ${this.deps.timeZone})::int as hour,
          o.state,
          o.allocated_at,
          o.paid_at,
          case when o.allocated_at is not null then
            (extract(epoch from (
              select min(a.created_at)
              from order_allocations a
              where a.order_id = o.id and a.chosen_resource_id is not null
            ) - o.created_at) * 1000)::float8
          end as allocate_ms,
          (extract(epoch from o.paid_at - o.allocated_at) * 1000)::float8 as pay_ms,
          case when o.paid_at is not null then
            (extract(epoch from (
              select min(a.created_at)
              from order_callbacks c
              join order_callback_attempts a on a.callback_id = c.id
              where c.order_id = o.id and a.succeeded
            ) - o.paid_at) * 1000)::float8
          end as callback_ms
        from orders o
        where o.created_at >= ${window.start.toISOString()}::timestamptz
          and o.created_at <= ${window.end.toISOString()}::timestamptz
          ${sql.join(filters)}
      )
      select
        product_id,
        hour,
        grouping(product_id, hour)::int as level,
        count(*)::int as created,
        count(allocated_at)::int as allocated,
        count(paid_at)::int as paid,
        (count(*) filter (where state = ${ORDER_STATE.allocationFailed}))::int as allocation_failed,
        (count(*) filter (where state = ${ORDER_STATE.timedOut}))::int as timed_out,
        percentile_cont(array[0.5, 0.9, 0.99]::float8[]) within group (order by allocate_ms) as allocate,
        percentile_cont(array[0.5, 0.9, 0.99]::float8[]) within group (order by pay_ms) as pay,
        percentile_cont(array[0.5, 0.9, 0.99]::float8[]) within group (order by callback_ms) as callback
      from o
      group by grouping sets ((product_id, hour), (product_id), (hour), ())
    `);
    return rowsOf<AggregateRow>(result).map((r) => ({
      ...r,
      product_id: r.product_id === null ? null : Number(r.product_id),
      hour: r.hour === null ? null : Number(r.hour),
      level: Number(r.level),
    }));
  }

  private static rowsOf(aggregate: AggregateRow[]): OrderProfileRow[] {
    return aggregate
      .filter((r) => r.level === LEVEL.productHour)
      .map((r) => ({
        productId: r.product_id!,
        productName: productName(r.product_id!),
        hour: r.hour!,
        ...statsOf(r),
      }))
      .sort((a, b) => a.productId - b.productId || a.hour - b.hour);
  }

  async profile(f: OrderProfileFilters): Promise<OrderProfile> {
    const window = this.windowOf(f);
    const aggregate = await this.aggregate(f, window);
    const hours = new Map(aggregate.filter((r) => r.level === LEVEL.hour).map((r) => [r.hour!, r]));
    return {
      startTime: formatPlatformTime(window.start, this.deps.timeZone),
      endTime: formatPlatformTime(window.end, this.deps.timeZone),
      timeZone: this.deps.timeZone,
      overall: statsOf(aggregate.find((r) => r.level === LEVEL.overall)),
      byHour: Array.from({ length: 24 }, (_, hour) => ({ hour, ...statsOf(hours.get(hour)) })),
      byProduct: aggregate
        .filter((r) => r.level === LEVEL.product)
        .map((r) => ({ productId: r.product_id!, productName: productName(r.product_id!), ...statsOf(r) }))
        .sort((a, b) => a.productId - b.productId),
      rows: OrderProfileService.rowsOf(aggregate),
    };
  }

  /**
   * The product and hour rows as an export. The window is checked here, before the download starts,
   * so a refused window answers 400 rather than a broken file.
   */
  exportRows(f: OrderProfileFilters): AsyncIterable<OrderProfileRow> {
    const window = this.windowOf(f);
    const load = () => this.aggregate(f, window);
    return (async function* rows() {
      yield* OrderProfileService.rowsOf(await load());
    })();
  }
}
