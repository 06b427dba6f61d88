import { mkdtempSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ORDER_STATE, PAYOUT_STATE } from '@paydesk/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveOptions, type SimulatorOptions } from '../../../../tools/simulator/options.js';
import { startSimulator } from '../../../../tools/simulator/simulator.js';
import { totpCode as simulatorTotp } from '../../../../tools/simulator/totp.js';
import { orderCallbackAttempts, orderCallbacks, orders, payouts } from '../db/schema.js';
import { totpCode } from '../platform/totp.js';
import { startTestApp, type TestApp } from '../testing/harness.js';
import { writeDemoAccountsFile } from './seed.js';

/**
 * `npm run simulate` against a real server (listening on a port, jobs on): the demo merchant's signed
 * orders, payers submitting UTRs from their own addresses, suppliers signing in with the accounts
 * file the first start writes and confirming, and the merchant receiver failing some callbacks that
 * the server then retries.
 */
let t: TestApp;
let url: string;
let dir: string;

beforeAll(async () => {
  // Callback retries within the test's seconds: twelve attempts, so each order is delivered in the end.
  const callbackScheduleMs = [0, 200, 400, 600, 800, 1_000, 1_300, 1_600, 2_000, 2_400, 2_800, 3_200];
  t = await startTestApp({ jobs: { callbackScheduleMs } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  // The simulator's authenticator codes are of the real time; the test clock starts at it.
  t.clock.advance(Date.now() - t.clock.now().getTime());
  dir = mkdtempSync(join(tmpdir(), 'paydesk-sim-'));
});

afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Waits (up to 5 s) until `ready` says yes: the server records an attempt just after answering it. */
async function waitFor(ready: () => Promise<boolean>) {
  const until = Date.now() + 5_000;
  while (!(await ready()) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
}

describe('the simulator', () => {
  it('computes the same authenticator codes as the server', () => {
    const secret = t.seed.accounts.find((a) => a.account === 'supplier1')!.googleSecret!;
    for (const at of [new Date(0), new Date('2026-11-23T12:00:14Z'), new Date()]) {
      expect(simulatorTotp(secret, at)).toBe(totpCode(secret, at));
    }
  });

  it('reads the demo accounts file (owner-only) and explains what is missing', () => {
    const file = writeDemoAccountsFile(dir, t.seed);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const options = resolveOptions(['--accounts-file', file, '--rate', '3'], {}) as SimulatorOptions;
    expect(options.suppliers.map((s) => s.account).sort()).toEqual(['agent1', 'supplier1']);
    expect(options.merchant).toEqual({ mchId: '10001', secret: 'demo-secret-merchant1', signType: 'HMAC-SHA256' });
    expect(options.rate).toBe(3);
    // Payouts are confirmed by the file's admin (with its second-level password).
    expect(options.confirmer?.account).toBe('admin');
    expect(options.payoutRate).toBe(0.2);
    // It waits for the last payer (pay delay) and its supplier (confirm delay), then its callback.
    expect(options.drain).toBe(20 + 5 + 10);
    const quick = ['--accounts-file', file, '--pay-delay', '1-3', '--confirm-delay', '1-2', '--payout-rate', '0'];
    expect((resolveOptions(quick, {}) as SimulatorOptions).drain).toBe(15);
    expect((resolveOptions([...quick, '--drain', '7'], {}) as SimulatorOptions).drain).toBe(7);
    expect(() => resolveOptions([], { DATA_DIR: join(dir, 'nothing-here') }, dir)).toThrow(/--supplier/);
    // No flag: <where the command was typed>/<DATA_DIR or ./data>/demo-accounts.json, as the server
    // resolves its data folder (npm runs the simulator in its own workspace folder).
    const typedIn = join(dir, 'typed-in');
    writeDemoAccountsFile(join(typedIn, 'data'), t.seed);
    const found = resolveOptions([], {}, typedIn) as SimulatorOptions;
    expect(found.accountsFile).toBe(join(typedIn, 'data', 'demo-accounts.json'));
    expect(found.suppliers.map((s) => s.account).sort()).toEqual(['agent1', 'supplier1']);
    const relative = resolveOptions([], { DATA_DIR: 'typed-in/data' }, dir) as SimulatorOptions;
    expect(relative.accountsFile).toBe(join(typedIn, 'data', 'demo-accounts.json'));
    expect(() => resolveOptions(['--rate', 'fast', '--accounts-file', file], {})).toThrow(/--rate/);
    expect(resolveOptions(['--help'], {})).toBe('help');
  });

  it('creates orders, payers pay, suppliers confirm and the callbacks are delivered', async () => {
    const file = writeDemoAccountsFile(dir, t.seed);
    const options = resolveOptions(
      [
        '--url',
        url,
        '--rate',
        '6',
        '--duration',
        '5',
        '--drain',
        '15',
        '--pay-rate',
        '0.6',
        '--pay-delay',
        '0.1-0.8',
        '--confirm-delay',
        '0.1-0.5',
        '--callback-port',
        '0',
        '--callback-fail-rate',
        '0.4',
        '--report-every',
        '1',
        '--payout-rate',
        '1',
        '--payout-delay',
        '0.1-0.5',
      ],
      { SIM_ACCOUNTS_FILE: file },
    ) as SimulatorOptions;
    const lines: string[] = [];
    const simulator = await startSimulator(options, (line) => lines.push(line));
    const stats = await simulator.done;

    expect(stats.created, lines.join('\n')).toBeGreaterThanOrEqual(20);
    expect(stats.refused, JSON.stringify(stats.refusedByCode)).toBe(0);
    expect(stats.payersPaid).toBeGreaterThan(0);
    expect(stats.payersAbandoned).toBeGreaterThan(0);
    expect(stats.confirmed, `${JSON.stringify(stats)}\n${lines.join('\n')}`).toBe(stats.payersPaid);
    expect(stats.callbacksBadSign).toBe(0);
    expect(stats.ordersNotified).toBe(stats.confirmed);
    // Some answers failed and the server tried again until the merchant took them.
    expect(stats.callbacksFailed).toBeGreaterThan(0);
    expect(stats.callbacksReceived).toBe(stats.callbacksOk + stats.callbacksFailed);
    expect(lines.some((l) => /created \d+ \(allocated \d+/.test(l))).toBe(true);

    // The server's record agrees: confirmed orders end as callback succeeded, with every attempt kept.
    const codes = [...simulator.orders.keys()];
    const confirmed = [...simulator.orders].filter(([, o]) => o.confirmed).map(([code]) => code);
    await waitFor(async () => {
      const done = await t.database.db
        .select({ code: orders.orderCode })
        .from(orders)
        .where(and(inArray(orders.orderCode, confirmed), eq(orders.state, ORDER_STATE.callbackSucceeded)));
      return done.length === confirmed.length;
    });
    const rows = await t.database.db.select().from(orders).where(inArray(orders.orderCode, codes));
    expect(rows).toHaveLength(codes.length);
    for (const row of rows) {
      const sim = simulator.orders.get(row.orderCode)!;
      if (sim.confirmed) {
        expect(row.state).toBe(ORDER_STATE.callbackSucceeded);
        expect(row.payerUtr).toMatch(/^\d{12}$/);
      } else if (!sim.paid) expect(row.state).toBe(ORDER_STATE.allocated);
    }
    const attempts = await t.database.db
      .select({ succeeded: orderCallbackAttempts.succeeded })
      .from(orderCallbackAttempts)
      .innerJoin(orderCallbacks, eq(orderCallbacks.id, orderCallbackAttempts.callbackId))
      .where(inArray(orderCallbacks.orderCode, confirmed));
    expect(attempts.filter((a) => a.succeeded)).toHaveLength(confirmed.length);
    expect(attempts).toHaveLength(stats.callbacksReceived);

    // Payouts: created with their money held, claimed, paid and confirmed, each callback taken once.
    expect(stats.payoutsCreated, lines.join('\n')).toBeGreaterThanOrEqual(3);
    expect(stats.payoutStepsFailed, lines.join('\n')).toBe(0);
    expect(stats.payoutsCompleted).toBe(stats.payoutsCreated);
    expect(stats.payoutsNotified).toBe(stats.payoutsCompleted);
    const settled = await t.database.db
      .select({ state: payouts.state })
      .from(payouts)
      .where(inArray(payouts.orderCode, [...simulator.payouts.keys()]));
    expect(settled.map((p) => p.state)).toEqual(settled.map(() => PAYOUT_STATE.completed));

    const check = await t.app.services.ledger.check();
    expect(check).toEqual({ ok: true, violations: [] });
  }, 60_000);
});
