import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../testing/harness.js';
import type { Database } from './client.js';
import { statement, tableRow } from './raw-rows.js';
import { ledgerTransfers } from './schema.js';

let database: Database;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ database, drop } = await testDatabase());
});
afterAll(async () => {
  await database.close();
  await drop();
});

describe('statement', () => {
  const SUM = statement<'a' | 'b'>((v) => `select ${v.a}::int + ${v.b}::int as sum, ${v.a}::int as a`);

  it('numbers each parameter name once, in order of first use, and fills them by name', async () => {
    expect(SUM.text).toBe('select $1::int + $2::int as sum, $1::int as a');
    expect(await SUM.rows(database.db, { b: 5, a: 2 })).toEqual([{ sum: 7, a: 2 }]);
    // Again (a prepared statement on PostgreSQL), and inside a transaction.
    expect(await SUM.rows(database.db, { a: 40, b: 2 })).toEqual([{ sum: 42, a: 40 }]);
    await database.db.transaction(async (tx) => {
      expect(await SUM.rows(tx, { a: 1, b: 1 })).toEqual([{ sum: 2, a: 1 }]);
    });
  });

  it('passes arrays with nulls and text with any characters, on either driver', async () => {
    const UNNEST = statement<'ids' | 'notes'>(
      (v) => `select x.id, x.note, x.ord::int as ord
                from unnest(${v.ids}::int[], ${v.notes}::text[]) with ordinality as x(id, note, ord) order by x.ord`,
    );
    const rows = await UNNEST.rows<{ id: number | null; note: string | null; ord: number }>(database.db, {
      ids: [3, null, 1],
      notes: ['备注 "quoted", {braced}', null, 'back\\slash'],
    });
    expect(rows).toEqual([
      { id: 3, note: '备注 "quoted", {braced}', ord: 1 },
      { id: null, note: null, ord: 2 },
      { id: 1, note: 'back\\slash', ord: 3 },
    ]);
  });

  it('answers rows that tableRow maps as drizzle would (bigint as number, timestamps as Date)', async () => {
    const ROW = statement<'at'>(
      (v) => `select 9007199254740991::bigint as id, 'k' as idempotency_key, 'h' as input_hash, 't' as type,
                     null::text as order_code, 'n' as note, null::int as actor_user_id, null::bigint as reverses_id,
                     ${v.at}::timestamptz as created_at`,
    );
    const [raw] = await ROW.rows<Record<string, unknown>>(database.db, { at: '2026-11-24T10:00:00.000Z' });
    const row = tableRow(ledgerTransfers, raw!);
    expect(row.id).toBe(9_007_199_254_740_991);
    expect(row.createdAt).toEqual(new Date('2026-11-24T10:00:00.000Z'));
    expect(row.orderCode).toBeNull();
  });
});
