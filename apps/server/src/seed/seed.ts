import { randomBytes } from 'node:crypto';
import type { Role } from '@paydesk/contract';
import { count, eq } from 'drizzle-orm';
import type { Services } from '../app.js';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { users } from '../db/schema.js';
import { SYSTEM_ACTOR } from '../platform/audit.js';
import { newTotpSecret } from '../platform/totp.js';
import { seedDemoFunds } from './demo-funds.js';
import { seedDemoMerchants } from './demo-merchants.js';
import { seedDemoResources } from './demo-resources.js';
import { seedDemoSuppliers } from './demo-suppliers.js';

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
}

/**
 * Fills an empty database: the demo (DEMO=1) or a single superadmin whose first sign-in binds an
 * authenticator. Accounts are made by the same service as the console's, so they are audited.
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
  await seedDemoResources(db, services, ids);
  await seedDemoFunds(db, services, ids);
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
  ].join('\n');
}
