import { Code, endpoints, type Role, type UserProductRow } from '@paydesk/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.js';
import { type Auth, DEMO_ROLE, snapshot, startTestApp, type TestApp } from '../../testing/harness.js';

/**
 * What the user product config page offers is what the server accepts (issue 18). The page offers
 * 'edit' on every row to the roles saveUserProduct is open to (its rule reads nothing of the row: a
 * listed row is a live merchant's or supplier's setting, and what the server then checks is the form's
 * values). So, for every role and every kind of row (a merchant's, a supplier's, an agent's under its
 * parent's commission, a disabled one), saving a row's own values is accepted exactly from the roles
 * offered it, and refused from every other with nothing changed; a deleted party's row is listed to
 * nobody and refused to everyone.
 */
const { products: api } = endpoints;
let t: TestApp;
const ACCOUNTS = [
  'superadmin',
  'admin',
  'service',
  'maintenance',
  'support',
  'supplier1',
  'agent1',
  'merchant1',
] as const;
type Account = (typeof ACCOUNTS)[number];
const auth = {} as Record<Account, Auth>;
/** Each demo account's role (the seed's). */
const ROLE = DEMO_ROLE as Record<Account, Role>;
/** The page's rule: 'edit' for the roles the endpoint is open to (rowActions.tsx `endpointRoles`). */
const offersEdit = (role: Role) => (api.saveUserProduct.access as readonly Role[]).includes(role);

beforeAll(async () => {
  t = await startTestApp();
  for (const account of ACCOUNTS) auth[account] = await t.loginWithToken2(account);
});
afterAll(() => t.close());

let counter = 0;
async function party(role: 'merchant' | 'supplier', parent?: number): Promise<number> {
  counter += 1;
  const account = `offered${role}${counter}`;
  const res = await t.call(
    endpoints.users.addUser,
    { nickname: account, account, password: 'party1234', access: role },
    auth.admin,
  );
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  const id = res.body.data.id as number;
  if (parent) await t.database.db.update(users).set({ parentId: parent }).where(eq(users.id, id));
  return id;
}

const settings = (over: Record<string, unknown> = {}) => ({
  enabled: true,
  feeRate: 0,
  perTransactionFee: 0,
  commissionRate: 0,
  dailyLimit: null,
  minAmount: null,
  maxAmount: null,
  kycLowerLimit: null,
  ...over,
});
async function saved(userId: number, over: Record<string, unknown>): Promise<UserProductRow> {
  const res = await t.call(api.saveUserProduct, { userId, productId: 1001, ...settings(over) }, auth.admin);
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** Saves the row's own values as `who`. */
const saveAsIs = (row: UserProductRow, who: Auth) =>
  t.call(
    api.saveUserProduct,
    {
      userId: row.userId,
      productId: row.productId,
      enabled: row.enabled,
      feeRate: row.feeRate,
      perTransactionFee: row.perTransactionFee,
      commissionRate: row.commissionRate,
      dailyLimit: row.dailyLimit,
      minAmount: row.minAmount,
      maxAmount: row.maxAmount,
      kycLowerLimit: row.kycLowerLimit,
    },
    who,
  );

/** The row as `who` lists it (null: it cannot read the list, or the row is not in it). */
async function listed(row: UserProductRow, who: Auth): Promise<UserProductRow | null> {
  const res = await t.call(api.getUserProductList, { pageIndex: 1, userId: row.userId, productId: row.productId }, who);
  if (res.body.code !== 200) return null;
  return (res.body.data.list as UserProductRow[]).find((r) => r.id === row.id) ?? null;
}

describe('the user product config page offers exactly what the server accepts', () => {
  it('every role x a merchant’s, a supplier’s, an agent’s and a disabled setting', { timeout: 120_000 }, async () => {
    const merchant = await party('merchant');
    const supplier = await party('supplier');
    const agent = await party('supplier', supplier);
    const idle = await party('merchant');
    const rows = {
      merchant: await saved(merchant, { feeRate: 250, perTransactionFee: 500, dailyLimit: 10_000_000 }),
      supplier: await saved(supplier, { commissionRate: 300, minAmount: 20_000 }),
      agent: await saved(agent, { commissionRate: 300 }),
      disabled: await saved(idle, { enabled: false, kycLowerLimit: 1_000_000 }),
    };
    let accepted = 0;
    for (const [kind, row] of Object.entries(rows)) {
      // Staff read every row: the page shows it to them, with 'edit' for the roles offered it.
      expect(await listed(row, auth.admin), kind).not.toBeNull();
      for (const account of ACCOUNTS) {
        const role = ROLE[account];
        const offered = (await listed(row, auth[account])) !== null && offersEdit(role);
        const before = await snapshot(t.database);
        const res = await saveAsIs(row, auth[account]);
        const label = `${account} saving the ${kind} row`;
        if (offered) {
          expect(res.body.code, `${label} is offered: ${JSON.stringify(res.body)}`).toBe(Code.success);
          accepted += 1;
        } else {
          expect(res.body.code, `${label} is not offered: ${JSON.stringify(res.body)}`).not.toBe(Code.success);
          expect(await snapshot(t.database), `${label} was refused but changed something`).toBe(before);
        }
      }
    }
    // superadmin and admin, on each of the four rows.
    expect(accepted).toBe(8);
  });

  it('a deleted party’s setting is listed to nobody and saving it is refused to everyone, changing nothing', async () => {
    const gone = await party('merchant');
    const row = await saved(gone, { feeRate: 100 });
    const deleted = await t.call(endpoints.users.deleteUser, { id: gone }, auth.admin);
    expect(deleted.body.code, JSON.stringify(deleted.body)).toBe(200);
    for (const account of ACCOUNTS) {
      expect(await listed(row, auth[account]), account).toBeNull();
      const before = await snapshot(t.database);
      const res = await saveAsIs(row, auth[account]);
      expect(res.body.code, account).not.toBe(Code.success);
      if (offersEdit(ROLE[account])) expect(res.body.data).toMatchObject({ reason: 'notAParty' });
      expect(await snapshot(t.database), account).toBe(before);
    }
  });
});
