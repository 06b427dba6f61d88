import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CALLBACK_SCHEDULE_MS, ORDER_MARK, ORDER_STATE, PAYOUT_BATCH_STATE, PAYOUT_STATE } from '@paydesk/contract';
import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeGateway } from '../../../../tools/fake-gateway/fake-gateway.js';
import { buildServices, type Services } from '../app.js';
import { type Config, DEMO_ORDER_COUNT, defaultConfig, loadConfig } from '../config.js';
import { createScratchDatabase, type Database, openDatabase } from '../db/client.js';
import { rowsOf } from '../db/raw-rows.js';
import {
  ledgerTransfers,
  merchants,
  orderCallbacks,
  orders,
  payoutEvents,
  payouts,
  resources,
  users,
} from '../db/schema.js';
import { verifyAuditChain } from '../platform/audit.js';
import { AUDIT_SEAL_STALE_MS, sealAuditRows } from '../platform/audit-sealer.js';
import { DEMO_GATEWAY, DEMO_GATEWAY_ACCOUNTS, demoGatewayUrl, startDemoGateway } from './demo-gateway.js';
import { type DemoHistorySummary, makeDemoHistory } from './demo-history.js';
import { DEMO_ORDER_DAYS } from './demo-orders.js';
import { DEMO_ACCOUNTS_FILE, type SeedResult, seedOnFirstStart } from './seed.js';

/**
 * The first start of `npm start` with the demo's order history (DEMO_ORDERS on): everything is made by
 * the order engine over a month of a moving clock, so the states, the ledger, the fund records, the
 * callbacks and the audit chain must read as if the orders had really happened.
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = new Date();
/**
 * The history made here: smaller than the default (the same plan and engine at any size; the default's
 * two minutes would double this suite's time on each database).
 */
const TEST_COUNT = 1_000;

let database: Database;
let drop: () => Promise<void> = async () => undefined;
let config: Config;
let dataDir: string;
let seeded: SeedResult;
let made: DemoHistorySummary;
let services: Services;
let merchantUserId = 0;
/** The fake gateway as `npm start` runs it beside the server (main.ts), quiet while the history uses it. */
let gateway: FakeGateway;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'paydesk-demo-'));
  let url: string | undefined;
  if (process.env.TEST_DB === 'postgres') {
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
    url = scratch.url;
    drop = scratch.drop;
    database = await openDatabase({ url, onIdleError: () => undefined });
  } else {
    database = await openDatabase({});
  }
  gateway = await startDemoGateway(0);
  config = {
    ...defaultConfig(),
    demoGatewayPort: Number(new URL(gateway.url).port),
    demo: true,
    demoOrders: true,
    demoOrderCount: TEST_COUNT,
    databaseUrl: url,
    dataDir,
    secretKey: randomBytes(32),
  };
  seeded = await seedOnFirstStart({ config, database, now });
  // As `npm start` does once the server listens (demo-history.test.ts checks that order).
  made = (await makeDemoHistory({ ...seeded.history!, gateway }).finished)!;
  services = buildServices({ config, database });
  const [m] = await database.db.select({ userId: merchants.userId }).from(merchants);
  merchantUserId = m!.userId;
}, 900_000);

afterAll(async () => {
  await gateway?.close();
  await database?.close();
  await drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const query = async <T>(text: ReturnType<typeof sql>) => rowsOf<T>(await database.db.execute(text));

describe('the demo order history', () => {
  it('is on with npm start and off in tests unless asked', () => {
    expect(loadConfig({}).demoOrders).toBe(true);
    expect(loadConfig({}).demoOrderCount).toBe(DEMO_ORDER_COUNT);
    expect(DEMO_ORDER_COUNT).toBeGreaterThanOrEqual(2_000); // a few thousand over 30 days
    expect(loadConfig({ DEMO_ORDERS: '0' }).demoOrders).toBe(false);
    expect(loadConfig({ DEMO_ORDERS: '3000' })).toMatchObject({ demoOrders: true, demoOrderCount: 3_000 });
    expect(() => loadConfig({ DEMO_ORDERS: 'lots' })).toThrow(/DEMO_ORDERS/);
    expect(defaultConfig().demoOrders).toBe(false);
    expect(seeded.kind).toBe('demo');
    expect(made.orders).toBeGreaterThanOrEqual(TEST_COUNT);
    // The plan and the engine agree: hardly any step was refused (a supplement finding no account at most).
    const refused = Object.values(made.refused).reduce((a, b) => a + b, 0);
    expect(refused, JSON.stringify(made.refused)).toBeLessThanOrEqual(TEST_COUNT / 100);
  });

  it('spreads orders over the last 30 days, busier in the evening, with some in the last hour', async () => {
    const all = await database.db.select({ createdAt: orders.createdAt }).from(orders);
    expect(all.length).toBeGreaterThanOrEqual(TEST_COUNT);
    const times = all.map((o) => o.createdAt.getTime());
    expect(Math.min(...times)).toBeGreaterThanOrEqual(now.getTime() - DEMO_ORDER_DAYS * DAY);
    expect(Math.min(...times)).toBeLessThan(now.getTime() - (DEMO_ORDER_DAYS - 1) * DAY);
    expect(Math.max(...times)).toBeLessThanOrEqual(now.getTime());
    expect(times.filter((t) => t > now.getTime() - HOUR).length).toBeGreaterThanOrEqual(5);
    const days = new Set(times.map((t) => Math.floor((now.getTime() - t) / DAY)));
    expect(days.size).toBe(DEMO_ORDER_DAYS);

    const hourOf = new Intl.DateTimeFormat('en-GB', { timeZone: config.timeZone, hour: '2-digit', hourCycle: 'h23' });
    const byHour = new Array(24).fill(0);
    for (const t of times) byHour[Number(hourOf.format(t)) % 24] += 1;
    const evening = byHour[19] + byHour[20] + byHour[21];
    const night = byHour[2] + byHour[3] + byHour[4];
    expect(evening).toBeGreaterThan(4 * night);
  });

  it('has every state an order settles in, and none left paid-but-unnotified for more than an hour', async () => {
    const states = await query<{ state: number; n: string }>(
      sql`select state, count(*)::text as n from orders group by state`,
    );
    const n = new Map(states.map((s) => [Number(s.state), Number(s.n)]));
    for (const state of [
      ORDER_STATE.allocated,
      ORDER_STATE.timedOut,
      ORDER_STATE.callbackSucceeded,
      ORDER_STATE.callbackFailed,
      ORDER_STATE.allocationFailed,
      ORDER_STATE.rejected,
      ORDER_STATE.reversed,
    ]) {
      expect(n.get(state) ?? 0, `state ${state}`).toBeGreaterThan(0);
    }
    expect(n.get(ORDER_STATE.created) ?? 0).toBe(0);
    // Most orders were paid.
    expect(n.get(ORDER_STATE.callbackSucceeded)!).toBeGreaterThan(0.6 * [...n.values()].reduce((a, b) => a + b, 0));

    const stale = await database.db
      .select({ code: orders.orderCode })
      .from(orders)
      .where(
        and(eq(orders.state, ORDER_STATE.paidNotifying), sql`${orders.paidAt} < ${new Date(now.getTime() - HOUR)}`),
      );
    expect(stale).toEqual([]);
    // Orders still awaiting payment are the newest ones: their time is not up yet.
    const open = await database.db.select().from(orders).where(eq(orders.state, ORDER_STATE.allocated));
    for (const o of open) expect(o.expiresAt!.getTime()).toBeGreaterThan(now.getTime() - 20_000);

    const flags = (
      await query<{ supplemented: string; payer_utr: string; marked: string; locked: string; products: string }>(
        sql`select count(*) filter (where supplemented and supplement_type = 1)::text as supplemented,
                   count(*) filter (where payer_utr is not null)::text as payer_utr,
                   count(*) filter (where mark <> ${ORDER_MARK.normal})::text as marked,
                   count(*) filter (where locked)::text as locked,
                   count(distinct product_id)::text as products
              from orders`,
      )
    )[0]!;
    expect(Number(flags.supplemented)).toBeGreaterThan(0);
    expect(Number(flags.payer_utr)).toBeGreaterThan(0);
    expect(Number(flags.marked)).toBeGreaterThan(0);
    expect(Number(flags.locked)).toBeGreaterThan(0);
    // UPI, card-to-card and USDT: the demo has accounts for all three.
    expect(Number(flags.products)).toBe(3);
  });

  it('delivered the callbacks of paid orders, recording every attempt', async () => {
    const pending = await database.db.select().from(orderCallbacks).where(eq(orderCallbacks.state, 'pending'));
    expect(pending).toEqual([]);
    const byOrder = await query<{
      state: number;
      callback: string;
      attempts: number;
      last_ok: boolean;
      recorded: string;
    }>(
      sql`select o.state, c.state as callback, c.attempts,
                 (select a.succeeded from order_callback_attempts a where a.callback_id = c.id order by a.attempt_no desc limit 1) as last_ok,
                 (select count(*) from order_callback_attempts a where a.callback_id = c.id)::text as recorded
            from orders o join order_callbacks c on c.order_id = o.id
           where o.state in (${ORDER_STATE.callbackSucceeded}, ${ORDER_STATE.callbackFailed})`,
    );
    expect(byOrder.length).toBeGreaterThan(0);
    for (const row of byOrder) {
      expect(Number(row.recorded)).toBe(Number(row.attempts));
      if (Number(row.state) === ORDER_STATE.callbackSucceeded) {
        expect([row.callback, row.last_ok]).toEqual(['succeeded', true]);
      } else {
        // Every attempt of the schedule failed before the order was left as callback failed.
        expect([row.callback, row.last_ok, Number(row.attempts)]).toEqual([
          'failed',
          false,
          CALLBACK_SCHEDULE_MS.length,
        ]);
      }
    }
    expect(byOrder.some((r) => r.callback === 'succeeded' && Number(r.attempts) > 1)).toBe(true);
  });

  it('makes merchant1’s payouts with the payout service: every outcome, and open ones for the lists and the queue', async () => {
    const rows = await query<{ state: number; n: string }>(
      sql`select state, count(*)::text as n from payouts group by state`,
    );
    const n = new Map(rows.map((r) => [Number(r.state), Number(r.n)]));
    const total = [...n.values()].reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(TEST_COUNT / 15);
    for (const state of [PAYOUT_STATE.completed, PAYOUT_STATE.cancelled, PAYOUT_STATE.rejected]) {
      expect(n.get(state) ?? 0, `payout state ${state}`).toBeGreaterThan(0);
    }
    // The newest are still on their way.
    const openStates: number[] = [PAYOUT_STATE.awaiting, PAYOUT_STATE.inProgress, PAYOUT_STATE.submitted];
    const open = openStates.reduce((sum, state) => sum + (n.get(state) ?? 0), 0);
    expect(open).toBeGreaterThan(0);
    // supplier1 and its agent both claim (the supplier's page of its agents' payouts has rows).
    const claimers = await query<{ account: string }>(
      sql`select distinct u.account from payouts p join users u on u.id = p.supplier_user_id order by 1`,
    );
    expect(claimers.map((c) => c.account)).toEqual(['agent1', 'supplier1']);
    // Exceptions marked by customer service and resolved by an admin, both ways: back to the supplier
    // (in progress) and rejected (funds back).
    const resolved = await query<{ to_state: number }>(
      sql`select distinct e.to_state from payout_events e where e.kind = 'resolved' order by 1`,
    );
    expect(resolved.map((r) => Number(r.to_state))).toEqual([PAYOUT_STATE.inProgress, PAYOUT_STATE.rejected]);
    // merchant1's frozen balance is exactly what its open payouts hold (amount plus fee).
    const [held] = await query<{ frozen: string; open: string }>(
      sql`select (select balance from ledger_accounts where code = 'merchant:' || m.id || ':frozen')::text as frozen,
                 (select coalesce(sum(amount + fee), 0) from payouts where merchant_id = m.id and state not in (3, 4, 6))::text as open
            from merchants m`,
    );
    expect(Number(held!.frozen ?? 0)).toBe(Number(held!.open));
  });

  it('makes supplier1’s batches with the batch service: one settled by the bank’s file, one waiting for its checker', async () => {
    const batches = await query<{ id: number; state: number; n: string; completed: string; failed: string }>(
      sql`select b.id, b.state, b.order_count::text as n, b.completed_count::text as completed,
                 b.failed_count::text as failed, b.created_by_account, b.approved_by_account
            from payout_batches b order by b.id`,
    );
    expect(batches.map((b) => Number(b.state))).toEqual([PAYOUT_BATCH_STATE.completed, PAYOUT_BATCH_STATE.proposed]);
    expect(batches[0]).toMatchObject({ n: '6', completed: '5', failed: '1', approved_by_account: 'superadmin' });
    const ofBatch = await query<{ batch_id: number; state: number; n: string }>(
      sql`select batch_id, state, count(*)::text as n from payouts where batch_id is not null group by 1, 2 order by 1, 2`,
    );
    expect(ofBatch.map((r) => [Number(r.batch_id), Number(r.state), Number(r.n)])).toEqual([
      [Number(batches[0]!.id), PAYOUT_STATE.completed, 5],
      [Number(batches[0]!.id), PAYOUT_STATE.rejected, 1],
      [Number(batches[1]!.id), PAYOUT_STATE.awaiting, 3],
    ]);
  });

  it('pays a few of merchant1’s payouts of 2003 and 2002 through the fake gateway: completed with its UTR, one failed there and rejected', async () => {
    const gatewayMade = await database.db
      .select()
      .from(payouts)
      .where(inArray(payouts.productId, [2002, 2003]))
      .orderBy(asc(payouts.id));
    const accounts = await database.db
      .select()
      .from(resources)
      .where(inArray(resources.productId, [2002, 2003]))
      .orderBy(asc(resources.id));
    // supplier1's demo gateway accounts, one of each gateway product, pointing at the fake that `npm start` runs.
    expect(accounts.map((a) => [a.productId, a.name, a.kind, a.state, a.details.accountNumber])).toEqual(
      DEMO_GATEWAY_ACCOUNTS.map((a) => [a.productId, a.name, 'gatewayPayout', 0, a.accountNumber]),
    );
    for (const account of accounts) {
      expect(account.details).toMatchObject({
        baseUrl: demoGatewayUrl(config.demoGatewayPort),
        keyId: DEMO_GATEWAY.keyId,
      });
    }
    const accountOf = new Map(accounts.map((a) => [a.productId, a.id]));
    // Both products in turn, none claimed by hand.
    expect(new Set(gatewayMade.map((p) => p.productId))).toEqual(new Set([2002, 2003]));
    const completed = gatewayMade.filter((p) => p.state === PAYOUT_STATE.completed);
    const rejected = gatewayMade.filter((p) => p.state === PAYOUT_STATE.rejected);
    expect(completed.length).toBeGreaterThanOrEqual(3);
    expect(completed.some((p) => p.productId === 2002)).toBe(true);
    expect(rejected).toHaveLength(1);
    expect(made.gatewayPayouts).toEqual({ completed: completed.length, rejected: 1 });
    const timeline = async (id: number) =>
      (
        await database.db
          .select({ kind: payoutEvents.kind, actor: payoutEvents.actorAccount })
          .from(payoutEvents)
          .where(eq(payoutEvents.payoutId, id))
          .orderBy(asc(payoutEvents.id))
      ).map((e) => (e.actor ? `${e.kind} by ${e.actor}` : e.kind));
    const transfers = async (code: string) =>
      (
        await database.db
          .select({ type: ledgerTransfers.type })
          .from(ledgerTransfers)
          .where(eq(ledgerTransfers.orderCode, code))
          .orderBy(asc(ledgerTransfers.id))
      ).map((t) => t.type);
    for (const p of completed) {
      // Sent to the fake by the dispatcher's rounds and completed with the UTR the fake paid it with.
      const atFake = gateway.payouts.get(p.gatewayId!);
      expect(atFake, p.orderCode).toMatchObject({ idempotencyKey: p.orderCode, status: 'processed', amount: p.amount });
      expect(p.utr).toBe(atFake!.utr);
      // Paid through the account of its own product, from that account's business account.
      expect(p.resourceId).toBe(accountOf.get(p.productId));
      expect(atFake!.accountNumber).toBe(DEMO_GATEWAY_ACCOUNTS.find((a) => a.productId === p.productId)!.accountNumber);
      expect(await timeline(p.id)).toEqual([
        // By the merchant API (no console account).
        'created',
        'claimed by system',
        'gatewaySent by system',
        'completed by system',
        // merchant1's receiver answered (the callbacks below).
        'callbackSucceeded',
      ]);
      expect(await transfers(p.orderCode)).toEqual(['payoutHold', 'payoutPaid']);
    }
    // The fake failed the payee it was told to fail: a processing exception that an admin resolved to rejected.
    const failed = rejected[0]!;
    expect(failed.userName).toContain('Fail');
    expect(gateway.payouts.get(failed.gatewayId!)).toMatchObject({ status: 'failed' });
    expect(await timeline(failed.id)).toEqual([
      'created',
      'claimed by system',
      'gatewaySent by system',
      'markedAbnormal by system',
      'resolved by admin',
      'callbackSucceeded',
    ]);
    expect(await transfers(failed.orderCode)).toEqual(['payoutHold', 'payoutRelease']);
    // merchant1 heard of each of them at its callback receiver.
    const callbacks = await database.db
      .select({ payoutId: orderCallbacks.payoutId, state: orderCallbacks.state })
      .from(orderCallbacks)
      .where(
        inArray(
          orderCallbacks.payoutId,
          gatewayMade.map((p) => p.id),
        ),
      );
    expect(callbacks.map((c) => c.payoutId).sort()).toEqual(gatewayMade.map((p) => p.id).sort());
    expect(callbacks.every((c) => c.state === 'succeeded')).toBe(true);
  });

  it('keeps the ledger and the audit chain whole', async () => {
    expect(await services.ledger.check()).toEqual({ ok: true, violations: [] });
    await sealAuditRows(database.db, { wait: true });
    expect(await verifyAuditChain(database.db, new Date(), AUDIT_SEAL_STALE_MS)).toMatchObject({
      ok: true,
      unsealed: 0,
    });
    // Each supplier's frozen balance is exactly the holds of its orders still awaiting payment.
    const holds = await query<{ frozen: string; open: string; available: string }>(
      sql`select (select balance from ledger_accounts where code = 'supplier:' || s.id || ':frozen')::text as frozen,
                 (select balance from ledger_accounts where code = 'supplier:' || s.id || ':available')::text as available,
                 (select coalesce(sum(amount), 0) from orders where supplier_id = s.id and state = 1)::text as open
            from suppliers s`,
    );
    for (const s of holds) {
      expect(Number(s.frozen ?? 0)).toBe(Number(s.open));
      expect(Number(s.available)).toBeGreaterThan(0);
    }
  });

  it('ends with one order clear run: the first days’ finished orders lose their details, keep their postings', async () => {
    const run = made.orderClear!;
    expect(run).toMatchObject({ state: 'succeeded', cycleDays: DEMO_ORDER_DAYS - 2, startedBy: 'superadmin' });
    expect(run.orders).toBeGreaterThan(0);
    const cleared = await database.db
      .select({ orderCode: orders.orderCode, createdAt: orders.createdAt, returnUrl: orders.returnUrl })
      .from(orders)
      .where(isNotNull(orders.detailsClearedAt));
    expect(cleared).toHaveLength(run.orders);
    const cutoff = new Date(run.cutoff).getTime();
    for (const order of cleared) {
      expect(order.createdAt.getTime()).toBeLessThan(cutoff);
      expect(order.returnUrl).toBeNull(); // every demo order had merchant1's return URL
    }
    // The order's postings stay: the ledger check (above) and the fund records (below) read them.
    const postings = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(ledgerTransfers)
      .where(
        inArray(
          ledgerTransfers.orderCode,
          cleared.map((o) => o.orderCode),
        ),
      );
    expect(postings[0]!.n).toBeGreaterThan(0);
    expect(await services.settings.get('DataClearCycle')).toBe(0);
  });

  it('explains merchant1’s balance by its fund records, read in time order', async () => {
    const balance = await services.funds.getTotalBalance({ userId: merchantUserId, role: 'merchant' });
    expect(balance.balance).toBeGreaterThan(0);
    const owner = { all: false as const, userId: merchantUserId };
    const page = await services.funds.getFundRecordList(owner, { pageIndex: 1, pageSize: 1, bucket: 'available' });
    expect(page.summary.amount).toBe(balance.balance);
    expect(page.list[0]!.balanceAfter).toBe(balance.balance);
    let previous = 0;
    let count = 0;
    for await (const row of services.funds.exportFundRecords(owner, { bucket: 'available', sortOrder: 'asc' })) {
      expect(row.balanceBefore, `entry ${row.id}`).toBe(previous);
      previous = row.balanceAfter;
      count += 1;
    }
    expect(previous).toBe(balance.balance);
    expect(count).toBe(page.total);
  });

  it('writes the demo accounts for the simulator, readable by the owner only', async () => {
    const path = join(dataDir, DEMO_ACCOUNTS_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const file = JSON.parse(readFileSync(path, 'utf8'));
    const secrets = await database.db
      .select({ account: users.account, secret: users.googleSecret })
      .from(users)
      .where(inArray(users.account, ['supplier1', 'agent1']));
    for (const s of secrets) {
      expect(file.accounts.find((a: { account: string }) => a.account === s.account).googleSecret).toBe(s.secret);
    }
    expect(file.merchantApi.mchId).toBe('10001');
  });
});
