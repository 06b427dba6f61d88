import { type AnyColumn, count, eq, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { ledgerAccounts } from '../../db/schema.js';

export type PartyKind = 'merchant' | 'supplier';
export type PartyBucket = 'available' | 'frozen';
export type PlatformBucket = 'revenue' | 'adjustments';

/** The one place an account code's format is written (DESIGN section 5; parsed by parseAccountCode). */
const partyCode = (owner: PartyKind, id: string, bucket: PartyBucket) => `${owner}:${id}:${bucket}`;

/**
 * A ledger account's code: `accountCode('merchant', 12, 'available')` is 'merchant:12:available',
 * `accountCode('platform', 'revenue')` is 'platform:revenue'.
 */
export function accountCode(owner: PartyKind, id: number, bucket: PartyBucket): string;
export function accountCode(owner: 'platform', bucket: PlatformBucket): string;
export function accountCode(owner: PartyKind | 'platform', idOrBucket: number | PlatformBucket, bucket?: PartyBucket) {
  return owner === 'platform' ? `platform:${idOrBucket}` : partyCode(owner, String(idOrBucket), bucket!);
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
