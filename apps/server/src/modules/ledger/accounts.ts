import { type AnyColumn, count, eq, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { ledgerAccounts } from '../../db/schema.js';

export type PartyKind = 'merchant' | 'supplier';
export type PartyBucket = 'available' | 'frozen';
/** The platform's one unspread account; its revenue accounts are `revenueAccountCode`'s. */
export type PlatformBucket = 'adjustments';

/** The one place an account code's format is written (DESIGN section 5; parsed by parseAccountCode). */
const partyCode = (owner: PartyKind, id: string, bucket: PartyBucket) => `${owner}:${id}:${bucket}`;

/**
 * A ledger account's code: `accountCode('merchant', 12, 'available')` is 'merchant:12:available',
 * `accountCode('platform', 'adjustments')` is 'platform:adjustments'.
 */
export function accountCode(owner: PartyKind, id: number, bucket: PartyBucket): string;
export function accountCode(owner: 'platform', bucket: PlatformBucket): string;
export function accountCode(owner: PartyKind | 'platform', idOrBucket: number | PlatformBucket, bucket?: PartyBucket) {
  return owner === 'platform' ? `platform:${idOrBucket}` : partyCode(owner, String(idOrBucket), bucket!);
}

/**
 * The platform's revenue is spread over this many accounts, `platform:revenue:<k>` (DESIGN section 5,
 * docs/scaling.md): every payment credits the revenue, and one account would make every payment of the
 * platform queue on its row lock. Reports, the home page and the ledger check read the sum of all of
 * them (and of `platform:revenue`, the one account of the ledger before it was spread).
 */
export const REVENUE_SHARDS = 16;

/**
 * The revenue account an order's money goes to: chosen from the order code (FNV-1a), so its payment
 * and its reversal (which posts the payment's exact opposite) meet the same account.
 */
export function revenueAccountCode(orderCode: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < orderCode.length; i += 1) {
    h ^= orderCode.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return `platform:revenue:${(h >>> 0) % REVENUE_SHARDS}`;
}

const SLOT = '\u0000';
/** The code's text before and after the party id. */
function around(owner: PartyKind, bucket: PartyBucket): [string, string] {
  const [head = '', tail = ''] = partyCode(owner, SLOT, bucket).split(SLOT);
  return [head, tail];
}

/**
 * The code as raw SQL text from an id expression (`'supplier:' || s.id || ':available'`), for a join
 * in a hand-written statement: it meets the code's unique index.
 */
export function accountCodeSql(owner: PartyKind, idExpression: string, bucket: PartyBucket): string {
  const [head, tail] = around(owner, bucket);
  return `'${head}' || ${idExpression} || '${tail}'`;
}

/** The code as a query-builder expression from an id column. */
export function accountCodeOf(owner: PartyKind, idColumn: AnyColumn, bucket: PartyBucket): SQL {
  const [head, tail] = around(owner, bucket);
  return sql`${head} || ${idColumn} || ${tail}`;
}

/**
 * A party's balances for every list that shows them (merchants; suppliers and agents, in the
 * suppliers and users modules): left join `available` on `availableOn` and `frozen` on `frozenOn`,
 * select `balance` and `frozenBalance` per row; `totals` counts the rows and sums both balances.
 * The accounts exist only once money moved: left joins, 0 when absent.
 */
export function partyBalances(owner: PartyKind, idColumn: AnyColumn) {
  const available = alias(ledgerAccounts, `${owner}_available`);
  const frozen = alias(ledgerAccounts, `${owner}_frozen`);
  return {
    available,
    frozen,
    availableOn: eq(available.code, accountCodeOf(owner, idColumn, 'available')),
    frozenOn: eq(frozen.code, accountCodeOf(owner, idColumn, 'frozen')),
    balance: sql<number>`coalesce(${available.balance}, 0)`.mapWith(Number),
    frozenBalance: sql<number>`coalesce(${frozen.balance}, 0)`.mapWith(Number),
    totals: {
      n: count(),
      balance: sql<number>`coalesce(sum(${available.balance}), 0)`.mapWith(Number),
      frozenBalance: sql<number>`coalesce(sum(${frozen.balance}), 0)`.mapWith(Number),
    },
  };
}
