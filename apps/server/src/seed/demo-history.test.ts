import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endpoints } from '@paydesk/contract';
import { count, isNotNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildApp, buildServices } from '../app.js';
import { type Config, defaultConfig } from '../config.js';
import type { Database } from '../db/client.js';
import { orders } from '../db/schema.js';
import { demoHistoryStatus, settleDemoHistory } from '../modules/system/demo-history.js';
import { totpCode } from '../platform/totp.js';
import { testDatabase } from '../testing/harness.js';
import { demoGatewayAccount, demoGatewayUrl } from './demo-gateway.js';
import { makeDemoHistory } from './demo-history.js';
import { DEMO_CLEAR_CYCLE_DAYS } from './demo-system.js';
import { DEMO_PASSWORD, seedOnFirstStart } from './seed.js';

/**
 * `npm start` on an empty database: the quick seed, then the server listens, then the demo's order
 * history is made in the background (main.ts). The console's notice reads its state; a stop midway
 * leaves a consistent database, and the next start skips the rest instead of making it twice.
 */
const COUNT = 100;
const dataDir = mkdtempSync(join(tmpdir(), 'paydesk-history-'));
const open: Array<{ app?: FastifyInstance; database: Database; drop: () => Promise<void> }> = [];

afterEach(async () => {
  for (const { app, database, drop } of open.splice(0)) {
    await app?.close();
    await database.close();
    await drop();
  }
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function firstStart() {
  // The run's database (PGlite, or PostgreSQL where several processes may share the history's state).
  const { database, drop } = await testDatabase();
  const config: Config = {
    ...defaultConfig(),
    demo: true,
    demoOrders: true,
    demoOrderCount: COUNT,
    jobs: true,
    dataDir,
    webDist: '/nonexistent',
    secretKey: randomBytes(32),
  };
  const seeded = await seedOnFirstStart({ config, database });
  const app = await buildApp({ config, database, holdJobs: seeded.history !== undefined });
  open.push({ app, database, drop });
  await app.ready();
  return { database, config, seeded, app };
}

const orderCount = async (database: Database) => (await database.db.select({ n: count() }).from(orders))[0]!.n;

/** What a signed-in console reads for its notice. */
async function statusSeenBy(app: FastifyInstance, token: string) {
  const res = await app.inject({ method: 'GET', url: endpoints.system.demoHistory.path, headers: { token } });
  return res.json().data as { state: string; made: number; planned: number };
}

async function signIn(app: FastifyInstance, secret: string, userName = 'service') {
  const res = await app.inject({
    method: 'POST',
    url: endpoints.auth.login.path,
    payload: { userName, password: DEMO_PASSWORD, googleCode: totpCode(secret, new Date()) },
  });
  return res.json().data.token as string;
}

describe('the first start', () => {
  it('answers before the history exists, shows it being made, and starts no job until it is done', async () => {
    const { database, config, seeded, app } = await firstStart();
    expect(seeded.kind).toBe('demo');
    expect(seeded.history).toBeDefined();
    // The console answers already: accounts and balances exist, no order yet.
    expect(await orderCount(database)).toBe(0);
    const token = await signIn(app, seeded.accounts.find((a) => a.account === 'service')!.googleSecret!);
    expect(await statusSeenBy(app, token)).toEqual({ state: 'making', made: 0, planned: COUNT });

    const lines: string[] = [];
    const run = makeDemoHistory(seeded.history!, (line) => lines.push(line));
    let settled = false;
    void run.finished.finally(() => {
      settled = true;
    });
    // While it is made, the server answers and the notice moves.
    let seenMoving: { made: number } | null = null;
    while (!settled) {
      const status = await statusSeenBy(app, token);
      if (status.state === 'making' && status.made > 0) seenMoving ??= status;
      expect(app.services.jobs.running).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(seenMoving?.made).toBeGreaterThanOrEqual(50);

    const summary = await run.finished;
    expect(summary?.orders).toBeGreaterThanOrEqual(COUNT);
    expect(await statusSeenBy(app, token)).toEqual({ state: 'done', made: summary!.orders, planned: COUNT });
    // One order clear run over the history, listed on its page with what it removed: the details of the
    // first days' finished orders; the orders themselves, the ledger and the totals stay.
    const maintenance = await signIn(
      app,
      seeded.accounts.find((a) => a.account === 'maintenance')!.googleSecret!,
      'maintenance',
    );
    const runs = await app.inject({
      method: 'GET',
      url: endpoints.orderClear.getOrderClearRuns.path,
      query: { pageIndex: '1' },
      headers: { token: maintenance },
    });
    expect(runs.json().data.list).toEqual([summary!.orderClear]);
    expect(summary!.orderClear).toMatchObject({
      trigger: 'manual',
      startedBy: 'superadmin',
      state: 'succeeded',
      cycleDays: DEMO_CLEAR_CYCLE_DAYS,
    });
    expect(summary!.orderClear!.orders).toBeGreaterThan(0);
    expect(summary!.orderClear!.orderEvents).toBeGreaterThan(summary!.orderClear!.orders);
    const cleared = await database.db.select({ n: count() }).from(orders).where(isNotNull(orders.detailsClearedAt));
    expect(cleared[0]!.n).toBe(summary!.orderClear!.orders);
    // The cycle is back at 0: no later daily run removes more of the demo.
    const fresh = buildServices({ config, database });
    expect(await fresh.settings.get('DataClearCycle')).toBe(0);
    expect(await fresh.orderClear.scheduled()).toBeNull();
    expect(await app.services.ledger.check()).toEqual({ ok: true, violations: [] });
    // Without a live fake gateway (its port taken), the history paid its gateway payouts through one of its
    // own, and the demo's gateway account points at the live fake's address again.
    expect(summary!.gatewayPayouts.completed).toBeGreaterThan(0);
    expect(await demoGatewayAccount(database.db, demoGatewayUrl(config.demoGatewayPort))).toBeDefined();

    // A second start finds the accounts: nothing is seeded or made again.
    const again = await seedOnFirstStart({ config: { ...defaultConfig(), demo: true, demoOrders: true }, database });
    expect(again).toMatchObject({ kind: 'none' });
    expect(again.history).toBeUndefined();
    expect(await settleDemoHistory(database.db, { onlyProcess: true })).toBeNull();
    expect(await orderCount(database)).toBe(summary!.orders);
  }, 300_000);

  it('leaves a consistent database when stopped midway, and the next start skips the rest', async () => {
    const { database, config, seeded } = await firstStart();
    const run = makeDemoHistory(seeded.history!);
    while ((await demoHistoryStatus(database.db)).made < 50) await new Promise((r) => setTimeout(r, 20));
    await run.stop();
    expect(await run.finished).toBeNull();
    const made = await orderCount(database);
    expect(made).toBeGreaterThanOrEqual(50);
    expect(made).toBeLessThan(COUNT);
    const services = buildServices({ config, database });
    expect(await services.ledger.check()).toEqual({ ok: true, violations: [] });
    expect(await demoGatewayAccount(database.db, demoGatewayUrl(config.demoGatewayPort))).toBeDefined();
    // Marked as being made until a later start looks at it.
    expect((await demoHistoryStatus(database.db)).state).toBe('making');

    // On PostgreSQL another process may be making it: only a history silent for minutes is taken as cut short.
    expect(await settleDemoHistory(database.db, { onlyProcess: false })).toBeNull();
    const later = new Date(Date.now() + 3 * 60_000);
    expect(await settleDemoHistory(database.db, { onlyProcess: false, now: later })).toEqual({
      made: expect.any(Number),
      planned: COUNT,
    });
    expect(await demoHistoryStatus(database.db)).toMatchObject({ state: 'interrupted', planned: COUNT });
    // The next start neither seeds nor makes the history again; the notice is gone.
    const again = await seedOnFirstStart({ config, database });
    expect(again.kind).toBe('none');
    expect(again.history).toBeUndefined();
    expect(await settleDemoHistory(database.db, { onlyProcess: true })).toBeNull();
    expect(await orderCount(database)).toBe(made);
    expect(await services.ledger.check()).toEqual({ ok: true, violations: [] });
  }, 300_000);
});
