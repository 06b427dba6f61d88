import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServices, type Services } from '../../apps/server/src/app.js';
import { type Config, defaultConfig } from '../../apps/server/src/config.js';
import { type Database, openDatabase } from '../../apps/server/src/db/client.js';
import { ledgerAccounts } from '../../apps/server/src/db/schema.js';
import { loadScale, makeParties, type ScaleParties } from './scale-load.js';

/**
 * The scale bench's loader at a small size, on the embedded database: what it writes must hold as the
 * engine's own orders do (the ledger check, the rollups against a recomputation), or the bench
 * measures a database the product could never have.
 */
let database: Database;
let services: Services;
let parties: ScaleParties;
const ORDERS = 3_000;
const PAYOUTS = 600;

const rows = async <T>(query: ReturnType<typeof sql>) =>
  ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;

beforeAll(async () => {
  database = await openDatabase({});
  const config: Config = { ...defaultConfig(), demo: true, webDist: '/nonexistent' };
  services = buildServices({ config, database });
  const { seedIfEmpty } = await import('../../apps/server/src/seed/seed.js');
  await seedIfEmpty(database.db, services, config);
  parties = await makeParties(services, database.db, { merchants: 3, suppliers: 4 });
  // Chunks smaller than the rows, so chunks chain on the balances the ones before left.
  await loadScale(database.db, parties, { orders: ORDERS, payouts: PAYOUTS, days: 10, chunk: 700, end: new Date() });
  await services.rollups.rebuild();
}, 120_000);
afterAll(() => database?.close());

describe('the scale loader', () => {
  it('writes the orders and payouts asked for, of every outcome', async () => {
    const [counts] = await rows<{ orders: number; payouts: number }>(
      sql`select (select count(*) from orders where merchant_order_no like 'SCALE%')::int as orders,
                 (select count(*) from payouts where merchant_order_no like 'SCALEP%')::int as payouts`,
    );
    expect(counts).toEqual({ orders: ORDERS, payouts: PAYOUTS });
    const states = await rows<{ state: number }>(sql`select distinct state from orders order by state`);
    expect(states.map((s) => s.state)).toEqual([2, 3, 4, 5, 7, 8]);
    const payoutStates = await rows<{ state: number }>(sql`select distinct state from payouts order by state`);
    expect(payoutStates.map((s) => s.state)).toEqual([3, 4, 6]);
  });

  it('leaves a ledger that passes the ledger check', async () => {
    const check = await services.ledger.check();
    expect(check.violations).toEqual([]);
  });

  it('posts each paid order once and each reversal against its payment', async () => {
    const [paid] = await rows<{ orders: number; transfers: number; reversals: number; reversed: number }>(
      sql`select (select count(*) from orders where state in (3, 4, 8))::int as orders,
                 (select count(*) from ledger_transfers where type = 'orderPaid')::int as transfers,
                 (select count(*) from ledger_transfers r join ledger_transfers p on p.id = r.reverses_id
                   where r.type = 'reversal' and p.idempotency_key = r.order_code || ':pay')::int as reversals,
                 (select count(*) from orders where state = 8)::int as reversed`,
    );
    expect(paid!.transfers).toBe(paid!.orders);
    expect(paid!.reversals).toBe(paid!.reversed);
  });

  it("moves each merchant's money as its orders and payouts say", async () => {
    const merchant = parties.merchants[0]!;
    const [expected] = await rows<{ available: string; frozen: string }>(
      sql`select ((select coalesce(sum(amount - fee), 0) from orders where merchant_id = ${merchant.id} and state in (3, 4))
                - (select coalesce(sum(amount + fee), 0) from payouts where merchant_id = ${merchant.id} and state = 3))::text
                  as available, '0' as frozen`,
    );
    const balance = async (id: number) =>
      String((await database.db.select().from(ledgerAccounts).where(eq(ledgerAccounts.id, id)))[0]!.balance);
    expect(await balance(merchant.available)).toBe(expected!.available);
    expect(await balance(merchant.frozen)).toBe(expected!.frozen);
  });

  it('gives rollups that agree with the orders and payouts', async () => {
    const check = await services.rollups.check();
    expect(check.differences).toEqual([]);
    expect(check.agree).toBe(true);
  });

  it('builds again every index it dropped', async () => {
    const [index] = await rows<{ n: number }>(
      sql`select count(*)::int as n from pg_indexes where tablename = 'orders' and indexname = 'orders_utr_uq'`,
    );
    expect(index!.n).toBe(1);
  });
});
