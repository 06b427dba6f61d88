import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type OrderClearRun, PAID_STATES, type Role } from '@paydesk/contract';
import { count, eq } from 'drizzle-orm';
import { buildServices, type Services } from '../app.js';
import type { Config } from '../config.js';
import type { Database, Db } from '../db/client.js';
import { users } from '../db/schema.js';
import { planDemoHistory } from '../modules/system/demo-history.js';
import { SYSTEM_ACTOR } from '../platform/audit.js';
import { ManualClock } from '../platform/clock.js';
import { newTotpSecret } from '../platform/totp.js';
import { seedDemoFunds } from './demo-funds.js';
import type { PendingHistory } from './demo-history.js';
import { DEMO_MERCHANT_API, seedDemoMerchants } from './demo-merchants.js';
import { DEMO_ORDER_DAYS, type DemoOrdersSummary } from './demo-orders.js';
import { seedDemoPayScripts } from './demo-pay-scripts.js';
import { seedDemoResources } from './demo-resources.js';
import { seedDemoSuppliers } from './demo-suppliers.js';
import { seedDemoSystem } from './demo-system.js';

export const DEMO_PASSWORD = 'demo1234';

/** The demo accounts of DESIGN section 4: one per role, and agent1 under supplier1. */
export const DEMO_ACCOUNTS: ReadonlyArray<{ account: string; nickname: string; role: Role; parent?: string }> = [
  { account: 'superadmin', nickname: 'Super Admin', role: 'superAdmin' },
  { account: 'admin', nickname: 'Admin', role: 'admin' },
  { account: 'service', nickname: 'Customer Service', role: 'customerService' },
  { account: 'maintenance', nickname: 'Maintenance', role: 'technicalMaintenance' },
  { account: 'support', nickname: 'Technical Support', role: 'technicalSupport' },
  { account: 'supplier1', nickname: 'Supplier One', role: 'supplier' },
  { account: 'agent1', nickname: 'Agent One', role: 'supplier', parent: 'supplier1' },
  { account: 'merchant1', nickname: 'Merchant One', role: 'merchant' },
];

export interface SeedResult {
  kind: 'demo' | 'admin' | 'none';
  accounts: Array<{ account: string; role: Role; password: string; googleSecret: string | null }>;
  /** The demo's order history to make once the server listens (seedOnFirstStart with DEMO_ORDERS on). */
  history?: PendingHistory;
}

/** Where the first start leaves the demo accounts for `npm run simulate` (demo data only). */
export const DEMO_ACCOUNTS_FILE = 'demo-accounts.json';

/**
 * The first start of `npm start`: seeds an empty database like seedIfEmpty (seconds), with the demo
 * also its system pages' rows (demo-system.ts; not in seedIfEmpty, so the test apps that start from
 * it keep those lists empty and start no slower), and, with DEMO_ORDERS on, plans its order history
 * (demo-history.ts), which the caller makes once the server listens (makeDemoHistory). With the history, the demo parties are made as of 30 days ago on a
 * ManualClock that the orders then move to `now`, so fund records read in time order. Writes the demo
 * accounts to `<dataDir>/demo-accounts.json` (mode 0600) for the simulator.
 */
export async function seedOnFirstStart(deps: { config: Config; database: Database; now?: Date }): Promise<SeedResult> {
  const { config, database } = deps;
  let seeded: SeedResult;
  if (config.demo && config.demoOrders) {
    const end = deps.now ?? new Date();
    // Running: the month is jumped through, what each order's steps take is real (order performance analysis).
    const clock = new ManualClock(new Date(end.getTime() - DEMO_ORDER_DAYS * 86_400_000 - 2 * 3_600_000), {
      running: true,
    });
    const services = buildServices({ config, database, clock });
    seeded = await seedIfEmpty(database.db, services, config);
    if (seeded.kind === 'demo') {
      await seedDemoSystem(database.db, services, config);
      await planDemoHistory(database.db, config.demoOrderCount);
      seeded.history = {
        services,
        clock,
        end,
        count: config.demoOrderCount,
        timeZone: config.timeZone,
        gatewayPort: config.demoGatewayPort,
      };
    }
  } else {
    const services = buildServices({ config, database });
    seeded = await seedIfEmpty(database.db, services, config);
    if (seeded.kind === 'demo') await seedDemoSystem(database.db, services, config);
  }
  if (seeded.kind === 'demo' && config.dataDir) writeDemoAccountsFile(config.dataDir, seeded);
  return seeded;
}

/**
 * The demo accounts with their passwords and authenticator secrets, and merchant1's API credentials,
 * readable by the owner only: `npm run simulate` signs in with them. Demo data only.
 */
export function writeDemoAccountsFile(dataDir: string, seeded: SeedResult): string {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, DEMO_ACCOUNTS_FILE);
  const content = {
    note: 'Demo data only, written at the first start: the demo accounts and merchant1 API credentials.',
    accounts: seeded.accounts,
    merchantApi: DEMO_MERCHANT_API,
  };
  writeFileSync(path, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return path;
}

/**
 * Fills an empty database: the demo (DEMO=1) or a single superadmin whose first sign-in binds an
 * authenticator. Accounts are made by the same service as the console's, so they are audited. The
 * demo's order history is not made here (tests and the browser tests seed through this): see
 * seedOnFirstStart.
 */
export async function seedIfEmpty(db: Db, services: Services, config: Config): Promise<SeedResult> {
  const [existing] = await db.select({ n: count() }).from(users);
  if ((existing?.n ?? 0) > 0) return { kind: 'none', accounts: [] };
  if (!config.demo) {
    const password = config.adminPassword ?? `${randomBytes(9).toString('base64url')}7a`;
    await services.users.addUser(
      'superAdmin',
      { account: 'superadmin', nickname: 'Super Admin', password, access: 'superAdmin' },
      SYSTEM_ACTOR,
    );
    return { kind: 'admin', accounts: [{ account: 'superadmin', role: 'superAdmin', password, googleSecret: null }] };
  }
  const ids = new Map<string, number>();
  const accounts: SeedResult['accounts'] = [];
  for (const demo of DEMO_ACCOUNTS) {
    const parentId = demo.parent ? ids.get(demo.parent) : undefined;
    const { id } = await services.users.addUser(
      'superAdmin',
      { account: demo.account, nickname: demo.nickname, password: DEMO_PASSWORD, access: demo.role },
      SYSTEM_ACTOR,
      parentId ? { parentId } : {},
    );
    ids.set(demo.account, id);
    // Demo authenticators are bound already, so every role can sign in at once with `npm run otp`.
    const googleSecret = newTotpSecret();
    await db.update(users).set({ googleSecret, googleConfirmed: true }).where(eq(users.id, id));
    accounts.push({ account: demo.account, role: demo.role, password: DEMO_PASSWORD, googleSecret });
  }
  // The demo parties on those accounts, then money that their fund records explain.
  await seedDemoMerchants(db, services, ids);
  await seedDemoSuppliers(db, services, ids);
  await seedDemoResources(db, services, ids, config.demoGatewayPort);
  await seedDemoFunds(db, services, ids);
  await seedDemoPayScripts(services, ids);
  return { kind: 'demo', accounts };
}

export function describeSeed(result: SeedResult): string {
  if (result.kind === 'none') return '';
  const lines = result.accounts.map(
    (a) =>
      `  ${a.account.padEnd(12)} ${a.role.padEnd(21)} ${a.password.padEnd(14)} ${a.googleSecret ?? '(binds at first sign-in)'}`,
  );
  const title =
    result.kind === 'demo'
      ? 'Demo accounts (demo data only: change these passwords before real use)'
      : 'First superadmin (this password is shown once)';
  return [
    title,
    `  ${'account'.padEnd(12)} ${'role'.padEnd(21)} ${'password'.padEnd(14)} authenticator secret`,
    ...lines,
    'Current authenticator code of an account: npm run otp -- <account>',
    ...(result.kind === 'demo'
      ? [
          `Demo merchant API (merchant1): mchId ${DEMO_MERCHANT_API.mchId}, secret ${DEMO_MERCHANT_API.secret}, signType ${DEMO_MERCHANT_API.signType}`,
        ]
      : []),
  ].join('\n');
}

/** What the first start prints before it makes the demo's history in the background. */
export function announceDemoHistory(count: number): string {
  // About 40 ms an order on the embedded database of a 2-core machine (demo-orders.ts).
  const seconds = Math.max(10, Math.round((count * 0.04) / 10) * 10);
  const estimate = seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} minutes`;
  return (
    `Making the demo's ${DEMO_ORDER_DAYS}-day order history in the background, about ` +
    `${count.toLocaleString('en-US')} orders (about ${estimate}; DEMO_ORDERS=0 skips it). The console ` +
    'works meanwhile and shows a notice until it is done; background jobs start after it.'
  );
}

/** What the demo's order history holds, its gateway payouts, and the order clear run made over it. */
export function describeDemoOrders(made: DemoOrdersSummary & { orderClear?: OrderClearRun | null }): string {
  const n = (state: number) => (made.byState[state] ?? 0).toLocaleString('en-US');
  const paid = PAID_STATES.reduce<number>((sum, state) => sum + (made.byState[state] ?? 0), 0);
  return (
    `Demo orders: ${made.orders.toLocaleString('en-US')} over the last ${DEMO_ORDER_DAYS} days ` +
    `(paid ${paid.toLocaleString('en-US')}, callback failed ${n(4)}, timed out ${n(2)}, rejected ${n(7)}, ` +
    `reversed ${n(8)}, allocation failed ${n(5)}, awaiting payment ${n(1)}), made in ${(made.ms / 1000).toFixed(1)} s ` +
    '(DEMO_ORDERS=0 skips them)\n' +
    `Demo gateway payouts (merchant1, products 2002 and 2003) through the fake gateway: ${made.gatewayPayouts.completed} ` +
    `completed, ${made.gatewayPayouts.rejected} failed there and rejected by staff` +
    (made.orderClear
      ? `\nDemo order clear run (cycle ${made.orderClear.cycleDays} days, ${made.orderClear.state}): the details of ` +
        `${made.orderClear.orders.toLocaleString('en-US')} orders and ${made.orderClear.payouts.toLocaleString('en-US')} ` +
        'payouts removed; DataClearCycle is back at 0 (keep everything)'
      : '')
  );
}
