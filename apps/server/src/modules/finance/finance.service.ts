import {
  FINANCE_TEXTS,
  FUND_FLOW_FIGURES,
  FUND_FLOW_MAX_DAYS,
  type FundFlowAnswer,
  type FundFlowCheck,
  type FundFlowDay,
  type FundFlowFigures,
} from '@paydesk/contract';
import dayjs from 'dayjs';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/raw-rows.js';
import type { Clock } from '../../platform/clock.js';
import { invalid } from '../../platform/errors.js';
import { parsePlatformTime } from '../../platform/time.js';
import { levelOf } from '../statistics/rollups.js';

/** The rollups' day level over every party, by state (statistics/rollups.ts ROLLUP_LEVELS). */
const EVERY_PARTY_DAY = sql.raw(String(levelOf(null, 'day', true)));

const DAY = 'YYYY-MM-DD';

export interface FundFlowRange {
  startDay?: string | null | undefined;
  endDay?: string | null | undefined;
}

const FIGURES = FUND_FLOW_FIGURES;

const zero = (): FundFlowFigures => Object.fromEntries(FIGURES.map((f) => [f, 0])) as FundFlowFigures;

/**
 * Finance › fund flow (issue 22 item 4): the money that moved on each day of a range, read from the
 * ledger (the record of every balance change), and a check that the statistics' rollups tell the
 * same story as the ledger about the orders and payouts created in the range.
 *
 * Two clocks, on purpose. The flow is by the day money moved (a transfer's posting time), as an
 * accountant reads a bank statement; the rollups are by the hour an order was created, as the
 * statistics pages read them. So the check compares like with like: the orders and payouts created in
 * the range, counted and summed once from the rollups and once from the ledger's transfers of exactly
 * those orders (their payments and completions, less reversals, whenever posted).
 */
export class FinanceService {
  constructor(private readonly deps: { db: Db; clock: Clock; timeZone: string }) {}

  async fundFlow(range: FundFlowRange): Promise<FundFlowAnswer> {
    const { first, last } = this.range(range);
    const window = this.window(first, last);
    const [flow, check] = await Promise.all([this.days(first, last, window), this.check(first, last, window)]);
    return { startDay: first.format(DAY), endDay: last.format(DAY), timeZone: this.deps.timeZone, ...flow, check };
  }

  /** The days only (the CSV): the check is the page's, not the export's. */
  async *fundFlowRows(range: FundFlowRange): AsyncGenerator<FundFlowDay> {
    const { first, last } = this.range(range);
    yield* (await this.days(first, last, this.window(first, last))).days;
  }

  /** The range as instants: from the first day's midnight to the midnight after the last, platform time. */
  private window(first: dayjs.Dayjs, last: dayjs.Dayjs) {
    const { timeZone } = this.deps;
    return {
      from: parsePlatformTime(`${first.format(DAY)} 00:00:00`, timeZone),
      to: parsePlatformTime(`${last.add(1, 'day').format(DAY)} 00:00:00`, timeZone),
    };
  }

  /** Every day of the range, newest first, empty ones included, and their totals. */
  private async days(first: dayjs.Dayjs, last: dayjs.Dayjs, window: { from: Date; to: Date }) {
    const byDay = await this.flowByDay(window.from, window.to);
    const days: FundFlowDay[] = [];
    const totals = zero();
    for (let d = last; !d.isBefore(first); d = d.subtract(1, 'day')) {
      const day = d.format(DAY);
      const figures = byDay.get(day) ?? zero();
      for (const f of FIGURES) totals[f] += figures[f];
      days.push({ day, ...figures });
    }
    return { days, totals };
  }

  /** The range's first and last day; without them, the 7 days ending today (platform time zone). */
  private range(range: FundFlowRange) {
    const parse = (text: string, path: string) => {
      const day = dayjs.utc(text, DAY, true);
      if (!day.isValid()) throw invalid([{ path, message: FINANCE_TEXTS.date }]);
      return day;
    };
    const today = dayjs.utc(dayjs(this.deps.clock.now()).tz(this.deps.timeZone).format(DAY), DAY);
    const last = range.endDay ? parse(range.endDay, 'endDay') : today;
    const first = range.startDay ? parse(range.startDay, 'startDay') : last.subtract(6, 'day');
    if (last.isBefore(first) || last.diff(first, 'day') >= FUND_FLOW_MAX_DAYS) {
      throw invalid([{ path: 'endDay', message: FINANCE_TEXTS.range }]);
    }
    return { first, last };
  }

  /**
   * Per posting day: the transfers of orders paid and payouts completed (with their amounts, fees and
   * commissions), what reached the platform's revenue accounts, and the approved balance changes as
   * they reached the parties' accounts. A reversal counts as its original's kind, negatively.
   */
  private async flowByDay(from: Date, to: Date): Promise<Map<string, FundFlowFigures>> {
    const rows = rowsOf<Record<string, string | null>>(
      await this.deps.db.execute(sql`
        with t as (
          select tr.id, coalesce(base.type, tr.type) as kind,
                 case when tr.reverses_id is null then 1 else -1 end as sign,
                 to_char(tr.created_at at time zone ${this.deps.timeZone}, 'YYYY-MM-DD') as day,
                 tr.order_code
            from ledger_transfers tr
            left join ledger_transfers base on base.id = tr.reverses_id
           where tr.created_at >= ${from} and tr.created_at < ${to}
        ),
        moved as (
          select t.id,
                 coalesce(sum(e.amount) filter (where a.owner_kind = 'platform' and a.bucket = 'revenue'), 0) as revenue,
                 coalesce(sum(e.amount) filter (where a.owner_kind <> 'platform'), 0) as to_parties
            from t
            join ledger_entries e on e.transfer_id = t.id
            join ledger_accounts a on a.id = e.account_id
           group by t.id
        )
        select t.day,
               coalesce(sum(t.sign) filter (where t.kind = 'orderPaid'), 0)::bigint as "collectionCount",
               coalesce(sum(t.sign * o.amount) filter (where t.kind = 'orderPaid'), 0)::bigint as collections,
               coalesce(sum(t.sign) filter (where t.kind = 'payoutPaid'), 0)::bigint as "payoutCount",
               coalesce(sum(t.sign * p.amount) filter (where t.kind = 'payoutPaid'), 0)::bigint as payouts,
               coalesce(sum(t.sign * coalesce(o.fee, p.fee, 0)) filter (where t.kind in ('orderPaid', 'payoutPaid')), 0)::bigint as fees,
               coalesce(sum(t.sign * coalesce(o.commission, p.commission, 0)) filter (where t.kind in ('orderPaid', 'payoutPaid')), 0)::bigint as commissions,
               coalesce(sum(m.revenue), 0)::bigint as "platformRevenue",
               coalesce(sum(m.to_parties) filter (where t.kind = 'deposit'), 0)::bigint as deposits,
               coalesce(-sum(m.to_parties) filter (where t.kind = 'withdrawal'), 0)::bigint as withdrawals,
               coalesce(sum(m.to_parties) filter (where t.kind in ('manualAdjustment', 'clearBalance')), 0)::bigint as adjustments
          from t
          left join moved m on m.id = t.id
          left join orders o on t.kind = 'orderPaid' and o.order_code = t.order_code
          left join payouts p on t.kind = 'payoutPaid' and p.order_code = t.order_code
         group by t.day`),
    );
    return new Map(
      rows.map((row) => [
        String(row.day),
        Object.fromEntries(FIGURES.map((f) => [f, Number(row[f] ?? 0)])) as FundFlowFigures,
      ]),
    );
  }

  /**
   * The orders and payouts created in the range: paid or completed count and the platform's revenue
   * (fee less commission), from the rollups (wall-clock hours of the platform time zone) and from the
   * ledger's payment transfers of those same orders, less their reversals.
   */
  private async check(
    first: dayjs.Dayjs,
    last: dayjs.Dayjs,
    { from, to }: { from: Date; to: Date },
  ): Promise<FundFlowCheck> {
    const { db } = this.deps;
    const wallFrom = `${first.format(DAY)} 00:00:00`;
    const wallTo = `${last.add(1, 'day').format(DAY)} 00:00:00`;
    const [rollups, ledger] = await Promise.all([
      db.execute(sql`
        select direction, coalesce(sum(success_count), 0)::bigint as count,
               coalesce(sum(fee - commission), 0)::bigint as revenue
          -- The day level over every party (whole days): a row per day, product, mark and state,
          -- where the hourly buckets are nearly one per order at scale.
          from (select at as hour, direction, success_count, fee, commission from order_rollup_levels where level = ${EVERY_PARTY_DAY}
                union all
                select hour, direction, success_count, fee, commission from order_rollup_deltas) r
         where hour >= ${wallFrom}::timestamp and hour < ${wallTo}::timestamp
         group by direction`),
      db.execute(sql`
        with paid as (
          select 1 as direction, tr.id
            from orders o
            join ledger_transfers tr on tr.order_code = o.order_code and tr.type = 'orderPaid'
           where o.created_at >= ${from} and o.created_at < ${to}
          union all
          select 2, tr.id
            from payouts p
            join ledger_transfers tr on tr.order_code = p.order_code and tr.type = 'payoutPaid'
           where p.created_at >= ${from} and p.created_at < ${to}
        ),
        moves as (
          select direction, id, 1 as sign from paid
          union all
          select paid.direction, rv.id, -1 from paid join ledger_transfers rv on rv.reverses_id = paid.id
        )
        select m.direction, coalesce(sum(m.sign), 0)::bigint as count,
               coalesce(sum((select sum(e.amount)
                               from ledger_entries e
                               join ledger_accounts a on a.id = e.account_id
                              where e.transfer_id = m.id and a.owner_kind = 'platform' and a.bucket = 'revenue')), 0)::bigint as revenue
          from moves m
         group by m.direction`),
    ]);
    const of = (result: unknown, direction: number) => {
      const row = rowsOf<{ direction: number; count: string; revenue: string }>(result).find(
        (r) => Number(r.direction) === direction,
      );
      return { count: Number(row?.count ?? 0), revenue: Number(row?.revenue ?? 0) };
    };
    const directions = ([1, 2] as const).map((d) => {
      const r = of(rollups, d);
      const l = of(ledger, d);
      return {
        direction: d === 1 ? ('collection' as const) : ('payout' as const),
        rollupCount: r.count,
        ledgerCount: l.count,
        rollupRevenue: r.revenue,
        ledgerRevenue: l.revenue,
      };
    });
    const agree = directions.every((d) => d.rollupCount === d.ledgerCount && d.rollupRevenue === d.ledgerRevenue);
    return { agree, directions };
  }
}
