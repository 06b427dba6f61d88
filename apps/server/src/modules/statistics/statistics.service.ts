import {
  isStaff,
  type Role,
  type SimpleStatisticsAnswer,
  STATISTICS_MAX_DAYS,
  STATISTICS_TEXTS,
  type StatisticsAnswer,
  type StatisticsFigures,
  type StatisticsOrderType,
  type StatisticsPeriods,
  type StatisticsTimeFormat,
} from '@paydesk/contract';
import dayjs from 'dayjs';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/raw-rows.js';
import type { Clock } from '../../platform/clock.js';
import type { DataScope } from '../../platform/context.js';
import { invalid } from '../../platform/errors.js';
import type { SettingsStore } from '../../platform/settings.js';
import { FILTER_FORMAT } from '../../platform/time.js';
import { accountNamesOf } from '../users/account-names.js';
import { levelOf, ROLLUP_FIGURES, ROLLUP_KEY, type RollupFigure } from './rollups.js';

export interface StatisticsCaller {
  role: Role;
  scope: DataScope;
}

export interface StatisticsFilters {
  merchantUserId?: number | null | undefined;
  supplierUserId?: number | null | undefined;
  productId?: number | null | undefined;
  startTime?: string | null | undefined;
  endTime?: string | null | undefined;
  orderType?: StatisticsOrderType | null | undefined;
  orderMark?: number | undefined;
  groupByMerchant?: boolean | null | undefined;
  timeFormat?: StatisticsTimeFormat | null | undefined;
}

const HOUR_FORMAT = 'YYYY-MM-DD HH:00:00';
/**
 * A wall-clock time of the platform time zone as a UTC dayjs: the rollups' hours are wall-clock hours,
 * and UTC has no daylight saving, so adding an hour or a day is always that.
 */
const wall = (text: string, format = FILTER_FORMAT) => dayjs.utc(text, format);
const DIRECTION: Record<StatisticsOrderType, number> = { collection: 1, payout: 2 };

const SUMS = sql.raw(ROLLUP_FIGURES.map((f) => `coalesce(sum(${f}), 0)::text as ${f}`).join(', '));
const COLUMNS = sql.raw(`${ROLLUP_KEY}, ${ROLLUP_FIGURES.join(', ')}`);

type SumRow = Record<RollupFigure, string>;

/** What of the figures a role sees: a merchant its fees, a supplier its commissions, staff all. */
function figuresOf(row: SumRow | undefined, role: Role): StatisticsFigures {
  const n = (v: string | undefined) => Number(v ?? 0);
  const created = n(row?.created_count);
  const success = n(row?.success_count);
  const fee = n(row?.fee);
  const commission = n(row?.commission);
  const staff = isStaff(role);
  return {
    createdCount: created,
    createdAmount: n(row?.created_amount),
    successCount: success,
    successAmount: n(row?.success_amount),
    successRate: created === 0 ? null : Math.floor((success * 10_000) / created),
    fee: staff || role === 'merchant' ? fee : null,
    commission: staff || role === 'supplier' ? commission : null,
    platformRevenue: staff ? fee - commission : null,
    failedCount: n(row?.failed_count),
    timedOutCount: n(row?.timed_out_count),
    reversedCount: n(row?.reversed_count),
    reversedAmount: n(row?.reversed_amount),
    cancelledCount: n(row?.cancelled_count),
  };
}

/**
 * Statistics from the hourly rollups (issue 22 item 2; docs/architecture.md "Statistics rollups"):
 * the rows of `order_rollups` plus the deltas not folded yet, so every committed change counts. A
 * merchant reads its own buckets, a supplier its team's (by the supplier that holds the order), staff
 * all; the filters narrow within that.
 */
export class StatisticsService {
  constructor(
    private readonly deps: { db: Db; clock: Clock; timeZone: string; settings: Pick<SettingsStore, 'get'> },
  ) {}

  async statistics(caller: StatisticsCaller, f: StatisticsFilters): Promise<StatisticsAnswer> {
    const orderType = f.orderType ?? 'collection';
    const timeFormat = f.timeFormat ?? (await this.deps.settings.get('OrderStatisticsTimeFormat'));
    const { first, last } = this.range(f.startTime, f.endTime);
    // Partners split by their own side only: a supplier by its team, a merchant by itself (never by
    // the suppliers that took its orders, whose accounts it does not see).
    const groupedBy =
      caller.role === 'supplier'
        ? 'supplier'
        : caller.role === 'merchant' || f.groupByMerchant
          ? 'merchant'
          : 'supplier';
    const bucket =
      timeFormat === 'day' ? sql.raw(`to_char(hour, 'YYYY-MM-DD')`) : sql.raw(`to_char(hour, 'YYYY-MM-DD HH24:00')`);
    const party = sql.raw(groupedBy === 'merchant' ? 'merchant_user_id' : 'supplier_user_id');
    const where = this.where(caller, orderType, f, first, last);
    const wholeDays = first.hour() === 0 && last.hour() === 23;
    const source = this.source(
      {
        merchant: (!caller.scope.all && caller.role === 'merchant') || !!f.merchantUserId || groupedBy === 'merchant',
        supplier: (!caller.scope.all && caller.role !== 'merchant') || !!f.supplierUserId || groupedBy === 'supplier',
      },
      timeFormat === 'day' && wholeDays ? 'day' : 'hour',
      where,
    );
    const rows = rowsOf<SumRow & { time: string | null; product_id: number | null; party: number | null; g: number }>(
      await this.deps.db.execute(sql`
        select ${bucket} as time, product_id, ${party} as party,
               grouping(${bucket}, product_id, ${party}) as g, ${SUMS}
          from (${source}) r
         group by grouping sets ((${bucket}), (product_id), (${party}), ())`),
    );
    // grouping(): bit 2 the time, bit 1 the product, bit 0 the party (1 = summed over).
    const byTime = new Map(rows.filter((r) => Number(r.g) === 3).map((r) => [r.time, r]));
    const byProduct = rows.filter((r) => Number(r.g) === 5).sort((a, b) => Number(a.product_id) - Number(b.product_id));
    const byParty = rows.filter((r) => Number(r.g) === 6).sort((a, b) => Number(a.party) - Number(b.party));
    const totals = rows.find((r) => Number(r.g) === 7);
    const names = await accountNamesOf(
      this.deps.db,
      byParty.map((r) => Number(r.party)),
    );
    return {
      orderType,
      timeFormat,
      startTime: first.format('YYYY-MM-DD HH:00:00'),
      endTime: last.format('YYYY-MM-DD HH:59:59'),
      totals: figuresOf(totals, caller.role),
      series: this.points(first, last, timeFormat).map((time) => ({
        time,
        ...figuresOf(byTime.get(time), caller.role),
      })),
      byProduct: byProduct.map((r) => ({ productId: Number(r.product_id), ...figuresOf(r, caller.role) })),
      groupedBy,
      byParty: byParty.map((r) => ({
        userId: Number(r.party),
        account: names.get(Number(r.party)) ?? null,
        ...figuresOf(r, caller.role),
      })),
    };
  }

  /**
   * The home page's figures: today, yesterday and the last 7 days, for collections and payouts. A
   * merchant or supplier gets none while ShowUserStatisticInfo is off.
   */
  async simple(
    caller: StatisticsCaller,
    input: { todayDate?: string | null | undefined },
  ): Promise<SimpleStatisticsAnswer> {
    const today = input.todayDate ? this.day(input.todayDate) : this.today();
    const todayDate = today.format('YYYY-MM-DD');
    const shown = isStaff(caller.role) || (await this.deps.settings.get('ShowUserStatisticInfo'));
    if (!shown) return { shown: false, todayDate, collection: null, payout: null };
    const periods = async (orderType: StatisticsOrderType): Promise<StatisticsPeriods> => {
      const week = today.subtract(6, 'day');
      // Whole days: the day levels, of the caller's own side (staff: the merchants', the fewer rows).
      const source = this.source(
        {
          merchant: caller.scope.all || caller.role === 'merchant',
          supplier: !caller.scope.all && caller.role !== 'merchant',
        },
        'day',
        this.where(caller, orderType, {}, week, today.add(23, 'hour')),
      );
      const rows = rowsOf<SumRow & { period: string }>(
        await this.deps.db.execute(sql`
          select case when hour >= ${today.format(HOUR_FORMAT)}::timestamp then 'today'
                      when hour >= ${today.subtract(1, 'day').format(HOUR_FORMAT)}::timestamp then 'yesterday'
                      else 'earlier' end as period, ${SUMS}
            from (${source}) r
           group by 1`),
      );
      const of = (period: string) => rows.find((r) => r.period === period);
      const sum = (key: keyof SumRow) => String(rows.reduce((total, r) => total + Number(r[key]), 0));
      const all = Object.fromEntries(
        (Object.keys(rows[0] ?? {}) as Array<keyof SumRow | 'period'>)
          .filter((k): k is keyof SumRow => k !== 'period')
          .map((k) => [k, sum(k)]),
      ) as SumRow;
      return {
        today: figuresOf(of('today'), caller.role),
        yesterday: figuresOf(of('yesterday'), caller.role),
        last7Days: figuresOf(rows.length > 0 ? all : undefined, caller.role),
      };
    };
    return { shown: true, todayDate, collection: await periods('collection'), payout: await periods('payout') };
  }

  /**
   * The rows a read sums, folded and not (every committed change counts), narrowed by `where`. A read
   * that needs both parties (a merchant and a supplier filter, a merchant's split by supplier...) sums
   * the hourly buckets of `order_rollups`; one that needs one party sums that party's level at the
   * grain asked (`day` only for whole days: `where`'s hours run from 00:00 to 23:00), whose rows are
   * fewer by the other party's count, and by 24 for days (issue 22 item 5; bench/README.md "Scale").
   * The rows have the columns `where` names: hour (a day level's: the day's first hour), direction,
   * the party's user id, product_id, mark, and the figures.
   */
  private source(parties: { merchant: boolean; supplier: boolean }, grain: 'hour' | 'day', where: SQL): SQL {
    if (parties.merchant && parties.supplier) {
      return sql`select ${COLUMNS} from order_rollups where ${where}
                 union all
                 select ${COLUMNS} from order_rollup_deltas where ${where}`;
    }
    const party = parties.supplier ? 'supplier' : 'merchant';
    // The levels over the states: the statistics sum every state (their figures say what counts).
    const level = levelOf(party, grain, false);
    const partyColumn = sql.raw(`${party}_user_id`);
    const figures = sql.raw(ROLLUP_FIGURES.join(', '));
    const hour = sql.raw(grain === 'day' ? `date_trunc('day', hour)` : 'hour');
    return sql`select * from (select at as hour, direction, party_user_id as ${partyColumn}, product_id, mark, ${figures}
                                from order_rollup_levels where level = ${sql.raw(String(level))}) l
                where ${where}
               union all
               select * from (select ${hour} as hour, direction, ${partyColumn}, product_id, mark, ${figures}
                                from order_rollup_deltas) d
                where ${where}`;
  }

  /** The buckets a caller may read of one direction, narrowed by the filters, from hour `first` to `last`. */
  private where(
    caller: StatisticsCaller,
    orderType: StatisticsOrderType,
    f: StatisticsFilters,
    first: dayjs.Dayjs,
    last: dayjs.Dayjs,
  ): SQL {
    const parts: SQL[] = [
      sql`direction = ${DIRECTION[orderType]}`,
      sql`hour between ${first.format(HOUR_FORMAT)}::timestamp and ${last.format(HOUR_FORMAT)}::timestamp`,
    ];
    if (!caller.scope.all) {
      const ids = sql.raw(caller.scope.userIds.map((id) => String(Number(id))).join(', ') || '0');
      parts.push(caller.role === 'merchant' ? sql`merchant_user_id in (${ids})` : sql`supplier_user_id in (${ids})`);
    }
    if (f.merchantUserId) parts.push(sql`merchant_user_id = ${f.merchantUserId}`);
    if (f.supplierUserId) parts.push(sql`supplier_user_id = ${f.supplierUserId}`);
    if (f.productId) parts.push(sql`product_id = ${f.productId}`);
    if (f.orderMark !== undefined && orderType === 'collection') parts.push(sql`mark = ${f.orderMark}`);
    return sql.join(parts, sql` and `);
  }

  /** The range's first and last hour (wall-clock, platform time zone); missing ends: today's. */
  private range(start: string | null | undefined, end: string | null | undefined) {
    const first = (start ? wall(start) : end ? wall(end).startOf('day') : this.today()).startOf('hour');
    const last = (end ? wall(end) : first.endOf('day')).startOf('hour');
    if (last.isBefore(first) || last.diff(first, 'day', true) > STATISTICS_MAX_DAYS) {
      throw invalid([{ path: 'endTime', message: STATISTICS_TEXTS.range }]);
    }
    return { first, last };
  }

  /** Today's start, wall-clock in the platform time zone. */
  private today(): dayjs.Dayjs {
    return wall(dayjs(this.deps.clock.now()).tz(this.deps.timeZone).format('YYYY-MM-DD'), 'YYYY-MM-DD');
  }

  private day(text: string): dayjs.Dayjs {
    const d = dayjs.utc(text, 'YYYY-MM-DD', true);
    if (!d.isValid()) throw invalid([{ path: 'todayDate', message: STATISTICS_TEXTS.date }]);
    return d;
  }

  /** The trend's points from `first` to `last`: days ('YYYY-MM-DD') or hours ('YYYY-MM-DD HH:00'). */
  private points(first: dayjs.Dayjs, last: dayjs.Dayjs, format: StatisticsTimeFormat): string[] {
    const unit = format === 'day' ? 'day' : 'hour';
    const label = format === 'day' ? 'YYYY-MM-DD' : 'YYYY-MM-DD HH:00';
    const points: string[] = [];
    for (let at = first.startOf(unit); !at.isAfter(last); at = at.add(1, unit)) points.push(at.format(label));
    return points;
  }
}
