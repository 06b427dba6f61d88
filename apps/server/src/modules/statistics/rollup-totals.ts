import { PAYOUT_STATES_BY_PROCESS, type PayoutProcessState, type PayoutState } from '@paydesk/contract';
import dayjs from 'dayjs';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { rowsOf } from '../../db/raw-rows.js';
import type { DataScope } from '../../platform/context.js';
import { FILTER_FORMAT } from '../../platform/time.js';
import { levelOf } from './rollups.js';

/**
 * What a list's totals ask of the rollups (issue 22 item 5): the rows of one direction, narrowed only
 * by what the rollups are keyed by. Times are wall-clock hours of the platform time zone, as the
 * rollups' buckets are: `from` the first hour, `to` the hour after the last (null: unbounded).
 */
export interface RollupTotalsAsk {
  direction: 1 | 2;
  /** The merchants' users the rows may be of (null: any); `merchantId` a merchant by its id. */
  merchantUserIds?: readonly number[] | null;
  merchantId?: number | null;
  /** The suppliers' users that may hold the rows (null: any); `supplierId` a supplier by its id. */
  supplierUserIds?: readonly number[] | null;
  supplierId?: number | null;
  productId?: number | null;
  mark?: number | null;
  /** The states the rows may be in (null: any; empty: none). */
  states?: readonly number[] | null;
  from: string | null;
  to: string | null;
}

/** What the lists show as totals: every row's count, amount, fee and commission, whatever its state. */
export interface RollupSums {
  count: number;
  amount: number;
  fee: number;
  commission: number;
}

const HOUR = /^\d{4}-\d{2}-\d{2} \d{2}:00:00$/;
const LAST_SECOND_OF_HOUR = /^\d{4}-\d{2}-\d{2} \d{2}:59:59$/;
const WALL = 'YYYY-MM-DD HH:mm:ss';

/**
 * A list's time range (startTime, endTime: inclusive, to the second, platform time zone) as the
 * rollups' hours, or null when an end falls inside an hour (the rollups cannot split one). The
 * console's date presets and HighPerfOrderQuery's window are whole days.
 */
export function rollupHours(
  startTime: string | null | undefined,
  endTime: string | null | undefined,
): { from: string | null; to: string | null } | null {
  if (startTime && !HOUR.test(startTime)) return null;
  if (endTime && !LAST_SECOND_OF_HOUR.test(endTime)) return null;
  const to = endTime ? dayjs.utc(endTime, FILTER_FORMAT).add(1, 'second').format(WALL) : null;
  return { from: startTime ?? null, to };
}

/** What a list is asked: its filters, paging and sorting (only some of which the rollups can take). */
type ListAsk = Record<string, unknown> & {
  merchantId?: number | null | undefined;
  supplierId?: number | null | undefined;
  productId?: number | null | undefined;
  orderMark?: number | null | undefined;
  startTime?: string | null | undefined;
  endTime?: string | null | undefined;
  isProxy?: boolean | null | undefined;
  /** The order list's state filter. */
  orderStatusId?: number | null | undefined;
  /** The payout list's: a state, and whose move it is (a set of states). */
  payoutStatus?: number | null | undefined;
  processState?: number | null | undefined;
};
const NOT_FILTERS = new Set(['pageIndex', 'pageSize', 'sortBy', 'sortOrder', 'queue']);
const ROLLUP_FILTERS = new Set([
  'merchantId',
  'supplierId',
  'productId',
  'orderMark',
  'startTime',
  'endTime',
  'isProxy',
  'orderStatusId',
  'payoutStatus',
  'processState',
]);

/**
 * A list's totals as the rollups can give them (the order list: direction 1, the payout list: 2), or
 * null when a filter is not one the rollups are keyed by (a search, an amount, a batch, staff's
 * isProxy), the range ends inside an hour, or the caller's scope is not a merchant's or a
 * supplier's team: then the list sums its rows. The same figures either way (list-totals.test.ts).
 */
export function listRollupAsk(
  direction: 1 | 2,
  caller: { role: string; userId: number; scope: DataScope },
  f: ListAsk,
): RollupTotalsAsk | null {
  for (const [key, value] of Object.entries(f)) {
    if (NOT_FILTERS.has(key) || ROLLUP_FILTERS.has(key)) continue;
    if (value !== undefined && value !== null && value !== '') return null;
  }
  const { scope } = caller;
  if (scope.all && typeof f.isProxy === 'boolean') return null;
  const hours = rollupHours(f.startTime, f.endTime);
  if (!hours) return null;
  const ask: RollupTotalsAsk = {
    direction,
    merchantId: f.merchantId ?? null,
    supplierId: f.supplierId ?? null,
    productId: f.productId ?? null,
    mark: f.orderMark ?? null,
    states: statesAsked(direction, f),
    ...hours,
  };
  if (scope.all) return ask;
  if (caller.role === 'merchant') return { ...ask, merchantUserIds: [caller.userId] };
  if (caller.role !== 'supplier') return null;
  const team = [...scope.userIds];
  const supplierUserIds =
    f.isProxy === true ? team.filter((id) => id !== caller.userId) : f.isProxy === false ? [caller.userId] : team;
  return { ...ask, supplierUserIds };
}

/** The states a list's filters leave (null: any): the payout list's two state filters intersect. */
function statesAsked(direction: 1 | 2, f: ListAsk): number[] | null {
  if (direction === 1) return f.orderStatusId != null ? [f.orderStatusId] : null;
  let states: number[] | null = f.payoutStatus != null ? [f.payoutStatus] : null;
  if (f.processState != null) {
    const ofProcess = PAYOUT_STATES_BY_PROCESS[f.processState as PayoutProcessState] ?? [];
    states = states ? states.filter((s) => ofProcess.includes(s as PayoutState)) : [...ofProcess];
  }
  return states;
}

/**
 * The totals of a list from the rollups instead of its rows: at 10 million orders a list's count and
 * sums read every row of the filtered set (0.6 s for all of them; docs/scaling.md "At 10 million
 * orders"), where the rollups hold a few rows per party and day. The range is summed from the day
 * level for its whole days (the party's it is narrowed by, else every party's), the hour level for
 * the hours at its ends, and the unfolded deltas for all of it; from the hourly buckets when the list
 * is narrowed by a merchant and a supplier together.
 */
export async function rollupTotals(db: DbOrTx, ask: RollupTotalsAsk): Promise<RollupSums> {
  const byMerchant = ask.merchantUserIds != null || ask.merchantId != null;
  const bySupplier = ask.supplierUserIds != null || ask.supplierId != null;
  const parties = (merchantColumn: string | null, supplierColumn: string | null) => {
    const parts: SQL[] = [];
    if (merchantColumn) {
      const column = sql.raw(merchantColumn);
      if (ask.merchantUserIds) parts.push(sql`${column} in (${idList(ask.merchantUserIds)})`);
      if (ask.merchantId != null)
        parts.push(sql`${column} = (select user_id from merchants where id = ${ask.merchantId})`);
    }
    if (supplierColumn) {
      const column = sql.raw(supplierColumn);
      if (ask.supplierUserIds) parts.push(sql`${column} in (${idList(ask.supplierUserIds)})`);
      if (ask.supplierId != null)
        parts.push(sql`${column} = (select user_id from suppliers where id = ${ask.supplierId})`);
    }
    return parts;
  };
  const common: SQL[] = [sql`direction = ${ask.direction}`];
  if (ask.productId != null) common.push(sql`product_id = ${ask.productId}`);
  if (ask.mark != null) common.push(sql`mark = ${ask.mark}`);
  if (ask.states) common.push(sql`state in (${idList(ask.states)})`);
  const between = (column: string, from: string | null, to: string | null) => {
    const parts: SQL[] = [];
    if (from) parts.push(sql`${sql.raw(column)} >= ${from}::timestamp`);
    if (to) parts.push(sql`${sql.raw(column)} < ${to}::timestamp`);
    return parts;
  };
  const where = (parts: SQL[]) => sql.join(parts, sql` and `);
  const figures = sql`created_count, created_amount, all_fee, all_commission`;

  const sources: SQL[] = [
    sql`select ${figures} from order_rollup_deltas
         where ${where([...common, ...parties('merchant_user_id', 'supplier_user_id'), ...between('hour', ask.from, ask.to)])}`,
  ];
  if (byMerchant && bySupplier) {
    sources.push(sql`select ${figures} from order_rollups
         where ${where([...common, ...parties('merchant_user_id', 'supplier_user_id'), ...between('hour', ask.from, ask.to)])}`);
  } else {
    const party = bySupplier ? 'supplier' : 'merchant';
    const onParty = parties(
      party === 'merchant' ? 'party_user_id' : null,
      party === 'supplier' ? 'party_user_id' : null,
    );
    // By state when a state is asked (else the levels over the states: fewer rows); narrowed by no
    // party, the day level over every party (by state: about a row per day and state) and the
    // merchants' hours at the ends.
    const byState = ask.states != null;
    const hourLevel = levelOf(party, 'hour', byState);
    const dayLevel = byMerchant || bySupplier ? levelOf(party, 'day', byState) : levelOf(null, 'day', true);
    // The whole days inside [from, to): from the first midnight at or after `from` to the last before `to`.
    const first = ask.from ? dayjs.utc(ask.from, WALL) : null;
    const firstDay = first ? (first.hour() === 0 ? first : first.startOf('day').add(1, 'day')) : null;
    const lastDay = ask.to ? dayjs.utc(ask.to, WALL).startOf('day') : null;
    const level = (n: number, from: string | null, to: string | null) =>
      sql`select ${figures} from order_rollup_levels
           where ${where([sql`level = ${sql.raw(String(n))}`, ...common, ...onParty, ...between('at', from, to)])}`;
    if (firstDay && lastDay && !firstDay.isBefore(lastDay)) {
      sources.push(level(hourLevel, ask.from, ask.to));
    } else {
      const d1 = firstDay?.format(WALL) ?? null;
      const d2 = lastDay?.format(WALL) ?? null;
      sources.push(level(dayLevel, d1, d2));
      if (ask.from && d1 && ask.from < d1) sources.push(level(hourLevel, ask.from, d1));
      if (ask.to && d2 && d2 < ask.to) sources.push(level(hourLevel, d2, ask.to));
    }
  }
  const [row] = rowsOf<{ count: string; amount: string; fee: string; commission: string }>(
    await db.execute(sql`
      select coalesce(sum(created_count), 0)::text as count, coalesce(sum(created_amount), 0)::text as amount,
             coalesce(sum(all_fee), 0)::text as fee, coalesce(sum(all_commission), 0)::text as commission
        from (${sql.join(sources, sql` union all `)}) t`),
  );
  return {
    count: Number(row?.count ?? 0),
    amount: Number(row?.amount ?? 0),
    fee: Number(row?.fee ?? 0),
    commission: Number(row?.commission ?? 0),
  };
}

/** A list's count and sums: from the rollups when `ask` is one they answer, else from its own `rows`. */
export async function listTotals<T extends { n: number; amount: number; fee: number; commission: number }>(
  db: DbOrTx,
  ask: RollupTotalsAsk | null,
  rows: () => PromiseLike<T[]>,
): Promise<{ n: number; amount: number; fee: number; commission: number } | undefined> {
  if (!ask) return (await rows())[0];
  const r = await rollupTotals(db, ask);
  return { n: r.count, amount: r.amount, fee: r.fee, commission: r.commission };
}

function idList(ids: readonly number[]): SQL {
  return sql.raw(ids.map((id) => String(Math.trunc(Number(id)))).join(', ') || 'null');
}
