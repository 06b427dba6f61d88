import { Code, endpoints } from '@paydesk/contract';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/raw-rows.js';
import { orders } from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, startTestApp, type TestApp } from '../../testing/harness.js';
import { foldDaily } from './daily-folder.js';
import { signParams } from './signature.js';
import { CREATE_CHECKS, type CreateChecksRow } from './statements.js';

/**
 * The merchants' and suppliers' daily totals kept as deltas folded later (issue 19): concurrent
 * payments append instead of queueing on one row, and a strict daily limit stays exact, whether the
 * folder runs or not, also while it folds in the middle of the payments, and after reversals.
 */
const { orders: api } = endpoints;
const PRODUCT = 1001;
let t: TestApp;
let superadmin: Auth;
const owners = new Map<string, Auth>();
let merchant: { id: number; userId: number };
let supplierUserIds: number[];

async function one<T>(query: ReturnType<typeof sql>): Promise<T> {
  return rowsOf<T>(await t.database.db.execute(query))[0]!;
}

beforeAll(async () => {
  t = await startTestApp();
  superadmin = await t.loginWithToken2('superadmin');
  owners.set('supplier1', await t.login('supplier1'));
  owners.set('agent1', await t.login('agent1'));
  const m = await one<{ id: number; user_id: number }>(
    sql`select id, user_id from merchants where merchant_no = ${DEMO_MERCHANT_API.mchId}`,
  );
  merchant = { id: Number(m.id), userId: Number(m.user_id) };
  supplierUserIds = rowsOf<{ user_id: number }>(
    await t.database.db.execute(
      sql`select s.user_id from suppliers s join users u on u.id = s.user_id where u.account in ('supplier1', 'agent1')`,
    ),
  ).map((r) => Number(r.user_id));
});
afterAll(() => t.close());

/** What the create checks read as the merchant's paid volume today (the server's own read). */
async function merchantPaidToday(): Promise<number> {
  const [row] = await CREATE_CHECKS.rows<CreateChecksRow>(t.database.db, {
    merchantId: merchant.id,
    productId: PRODUCT,
    today: t.app.services.orders.today(),
  });
  return Number(row?.paid_today);
}

/** Today's totals of these users, read from the tables directly: folded plus not folded yet. */
async function totalOf(userIds: number[]): Promise<{ amount: number; count: number; deltas: number }> {
  const day = t.app.services.orders.today();
  const ids = `{${userIds.join(',')}}`;
  const r = await one<{ amount: string; count: string; deltas: string }>(sql`
    select (coalesce((select sum(amount) from party_daily where user_id = any(${ids}::int[]) and product_id = ${PRODUCT} and day = ${day}), 0)
          + coalesce((select sum(amount) from party_daily_deltas where user_id = any(${ids}::int[]) and product_id = ${PRODUCT} and day = ${day}), 0))::bigint as amount,
           (coalesce((select sum(count) from party_daily where user_id = any(${ids}::int[]) and product_id = ${PRODUCT} and day = ${day}), 0)
          + coalesce((select sum(count) from party_daily_deltas where user_id = any(${ids}::int[]) and product_id = ${PRODUCT} and day = ${day}), 0))::bigint as count,
           (select count(*) from party_daily_deltas where user_id = any(${ids}::int[])) as deltas`);
  return { amount: Number(r.amount), count: Number(r.count), deltas: Number(r.deltas) };
}

async function setDailyLimit(userIds: number[], limit: number | null): Promise<void> {
  await t.database.db.execute(
    sql`update party_products set daily_limit = ${limit} where product_id = ${PRODUCT} and user_id = any(${`{${userIds.join(',')}}`}::int[])`,
  );
}

let n = 0;
function create(amount: number) {
  n += 1;
  const params = {
    mchId: DEMO_MERCHANT_API.mchId,
    productId: String(PRODUCT),
    mchOrderNo: `DAILY${n}`,
    amount: String(amount),
  };
  return t.call(api.create, { ...params, sign: signParams(params, DEMO_MERCHANT_API.secret, 'HMAC-SHA256') });
}

async function createAll(amounts: number[]): Promise<string[]> {
  const codes: string[] = [];
  for (let i = 0; i < amounts.length; i += 10) {
    const answers = await Promise.all(amounts.slice(i, i + 10).map((a) => create(a)));
    for (const res of answers) {
      expect(res.body.code, JSON.stringify(res.body)).toBe(Code.success);
      codes.push(res.body.data.orderCode);
    }
  }
  return codes;
}

/** Every order confirmed by its supplier at once. */
async function confirmAll(codes: string[], onEach: () => void = () => undefined): Promise<void> {
  const rows = await t.database.db
    .select({ code: orders.orderCode, isProxy: orders.isProxy })
    .from(orders)
    .where(inArray(orders.orderCode, codes));
  const answers = await Promise.all(
    rows.map(async (r) => {
      const res = await t.call(
        api.confirmOrder,
        { orderCode: r.code },
        owners.get(r.isProxy ? 'agent1' : 'supplier1')!,
      );
      onEach();
      return res;
    }),
  );
  for (const res of answers) expect(res.body.code, JSON.stringify(res.body)).toBe(Code.success);
}

/** The merchant's limit is exact: what is left of it is accepted, one unit more refused. */
async function expectLimitExact(limit: number): Promise<void> {
  const left = limit - (await merchantPaidToday());
  const over = await create(left + 1);
  expect(over.body.code, JSON.stringify(over.body)).toBe(Code.dailyLimitReached);
  const exact = await create(left);
  expect(exact.body.code, JSON.stringify(exact.body)).toBe(Code.success);
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('daily totals without a hot row', () => {
  it('a strict daily limit holds under 50 concurrent payments, with the folder idle and folding in the middle', async () => {
    // Round 1: no folder at all (the app's is stopped): the reads sum every delta.
    await t.app.services.dailyFolder.stop();
    await foldDaily(t.database.db);
    const before = await merchantPaidToday();
    const suppliersBefore = await totalOf(supplierUserIds);
    const first = Array.from({ length: 50 }, (_, i) => 10_001 + i);
    const limit = before + sum(first) + sum(first.map((a) => a + 1_000)) + 40_000;
    await setDailyLimit([merchant.userId], limit);
    await confirmAll(await createAll(first));
    expect(await merchantPaidToday()).toBe(before + sum(first));
    const merchantTotal = await totalOf([merchant.userId]);
    expect(merchantTotal.amount).toBe(before + sum(first));
    expect(merchantTotal.deltas).toBe(50);
    const suppliers = await totalOf(supplierUserIds);
    expect(suppliers.amount - suppliersBefore.amount).toBe(sum(first));
    expect(suppliers.count - suppliersBefore.count).toBe(50);
    await expectLimitExact(limit);

    // Round 2: folds of a few deltas each, one after another, all through the payments, while the
    // server's read is taken again and again: it never goes back nor counts a payment twice.
    const second = first.map((a) => a + 1_000);
    const codes = await createAll(second);
    // Folds of a few deltas each start as the payments' answers come in, and a reader takes the
    // server's read again and again: it never goes back nor counts a payment twice. (No timers: on the
    // embedded database the payments keep the event loop busy until they are all done.)
    let paying = true;
    let confirmed = 0;
    /** How many payments had answered when a fold that moved something ended. */
    const foldedAt: number[] = [];
    const folds: Promise<void>[] = [];
    const reads: number[] = [];
    let reading: Promise<void> = Promise.resolve();
    await confirmAll(codes, () => {
      confirmed += 1;
      if (confirmed % 5 === 0 && confirmed < codes.length) {
        folds.push(
          foldDaily(t.database.db, { batch: 7 }).then((moved) => {
            if (moved > 0) foldedAt.push(confirmed);
          }),
        );
      }
      // One read at a time, in order: each is a later snapshot than the one before.
      reading = reading.then(async () => {
        if (paying) reads.push(await merchantPaidToday());
      });
    });
    paying = false;
    await Promise.all([...folds, reading]);
    // Folds moved deltas while payments were still coming in.
    expect(
      foldedAt.filter((c) => c < codes.length),
      String(foldedAt),
    ).not.toHaveLength(0);
    const total = before + sum(first) + sum(second);
    expect(await merchantPaidToday()).toBe(total);
    for (let i = 0; i < reads.length; i += 1) {
      expect(reads[i]).toBeGreaterThanOrEqual(i === 0 ? before : reads[i - 1]!);
      expect(reads[i]).toBeLessThanOrEqual(total);
    }
    expect((await totalOf(supplierUserIds)).amount - suppliersBefore.amount).toBe(sum(first) + sum(second));
    await expectLimitExact(limit);

    // Everything folded: the totals are in party_daily alone, unchanged.
    await foldDaily(t.database.db);
    const folded = await totalOf([merchant.userId, ...supplierUserIds]);
    expect(folded.deltas).toBe(0);
    expect(await merchantPaidToday()).toBe(total);

    // Reversals take their amounts back, folded or not, and the limit follows.
    const reversed = codes.slice(0, 5);
    const back = await Promise.all(reversed.map((orderCode) => t.call(api.reverseOrder, { orderCode }, superadmin)));
    for (const res of back) expect(res.body.code, JSON.stringify(res.body)).toBe(Code.success);
    expect(await merchantPaidToday()).toBe(total - sum(second.slice(0, 5)));
    await expectLimitExact(limit);
    await foldDaily(t.database.db);
    expect(await merchantPaidToday()).toBe(total - sum(second.slice(0, 5)));
    expect(await t.app.services.ledger.check()).toEqual({ ok: true, violations: [] });
  });

  it("a supplier's daily limit is exact too: allocation takes what is left of it, not one unit more", async () => {
    await setDailyLimit([merchant.userId], null);
    const paid = async () => Promise.all(supplierUserIds.map((id) => totalOf([id]).then((x) => x.amount)));
    // Some unfolded deltas on top of folded totals.
    await confirmAll(await createAll([13_001, 13_002, 13_003]));
    const totals = await paid();
    // Each supplier may take 30_000 more today.
    for (const [i, id] of supplierUserIds.entries()) await setDailyLimit([id], totals[i]! + 30_000);
    const over = await create(30_001);
    expect(over.body.code, JSON.stringify(over.body)).toBe(Code.allocationFailed);
    const exact = await create(30_000);
    expect(exact.body.code, JSON.stringify(exact.body)).toBe(Code.success);
    await setDailyLimit(supplierUserIds, null);
  });
});
