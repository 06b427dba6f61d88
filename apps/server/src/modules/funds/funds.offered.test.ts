import { endpoints, type PartyKind, PROPOSAL_KINDS, type ProposalKind } from '@paydesk/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchants, suppliers, users } from '../../db/schema.js';
import { type Auth, changeMark, startTestApp, type TestApp } from '../../testing/harness.js';

/**
 * The balance proposals the console offers are exactly the ones the server accepts (issue 18): for
 * every role, a merchant and a supplier with and without an available balance, CanClearMerchantBalance
 * off and on, a row's `proposalKinds` (list and detail alike) are the kinds funds.propose then accepts
 * from that role; every other kind is refused with nothing changed. An accepted proposal is cancelled
 * at once, so the parties keep their balances for the next role.
 */
const { funds, merchants: merchantApi, suppliers: supplierApi } = endpoints;
let t: TestApp;
const ACCOUNTS = ['superadmin', 'admin', 'service', 'maintenance', 'support', 'supplier1', 'merchant1'] as const;
type Account = (typeof ACCOUNTS)[number];
const auth = {} as Record<Account, Auth>;

interface Party {
  label: string;
  partyKind: PartyKind;
  id: number;
}
const parties: Party[] = [];

beforeAll(async () => {
  t = await startTestApp();
  for (const account of ACCOUNTS) auth[account] = await t.loginWithToken2(account);
  const idOf = async (table: typeof merchants | typeof suppliers, account: string) => {
    const [row] = await t.database.db
      .select({ id: table.id })
      .from(table)
      .innerJoin(users, eq(users.id, table.userId))
      .where(eq(users.account, account));
    return row!.id;
  };
  // A merchant and a supplier that never had a balance, next to the demo's funded ones.
  const merchant = await t.call(
    merchantApi.create,
    {
      mode: 'newAccount',
      name: 'Empty Shop',
      account: 'emptyshop',
      password: 'shop2024',
      signType: 'HMAC-SHA256',
      ipWhitelist: [],
      callbackEnabled: false,
      remark: '',
    },
    auth.admin,
  );
  expect(merchant.body.code, JSON.stringify(merchant.body)).toBe(200);
  const supplier = await t.call(
    supplierApi.create,
    { mode: 'newAccount', name: 'Empty Supplier', account: 'emptysup', password: 'sup2024a', remark: '' },
    auth.admin,
  );
  expect(supplier.body.code, JSON.stringify(supplier.body)).toBe(200);
  parties.push(
    { label: 'merchant1 (funded)', partyKind: 'merchant', id: await idOf(merchants, 'merchant1') },
    { label: 'a merchant without balance', partyKind: 'merchant', id: merchant.body.data.id },
    { label: 'supplier1 (funded)', partyKind: 'supplier', id: await idOf(suppliers, 'supplier1') },
    { label: 'a supplier without balance', partyKind: 'supplier', id: supplier.body.data.id },
  );
});
afterAll(() => t.close());

async function setClear(on: boolean) {
  await t.setSetting('CanClearMerchantBalance', on);
}

/** The row's proposalKinds as `who` reads them in the list and the detail (none: it cannot read them). */
async function offered(party: Party, who: Auth): Promise<ProposalKind[]> {
  const api = party.partyKind === 'merchant' ? merchantApi : supplierApi;
  const list = await t.call(api.getList, { pageIndex: 1, pageSize: 100 }, who);
  const detail = await t.call(api.getDetail, { id: party.id }, who);
  // A merchant or supplier reads its own record's detail only.
  if (list.body.code !== 200) return detail.body.code === 200 ? detail.body.data.proposalKinds : [];
  const row = list.body.data.list.find((r: { id: number }) => r.id === party.id);
  expect(row, `${party.label} is in the list`).toBeDefined();
  expect(detail.body.data.proposalKinds, 'list and detail agree').toEqual(row.proposalKinds);
  return row.proposalKinds;
}

const AMOUNT: Record<ProposalKind, number | undefined> = {
  adjust: -100,
  clear: undefined,
  deposit: 100,
  withdraw: 100,
};

async function propose(party: Party, kind: ProposalKind, who: Auth) {
  const amount = AMOUNT[kind];
  return t.call(
    funds.propose,
    {
      partyKind: party.partyKind,
      partyId: party.id,
      kind,
      ...(amount === undefined ? {} : { amount }),
      note: 'offered',
    },
    who,
  );
}

describe('the console offers exactly the balance proposals the server accepts', () => {
  for (const clear of [false, true]) {
    it(`CanClearMerchantBalance ${clear ? 'on' : 'off'}`, { timeout: 120_000 }, async () => {
      await setClear(clear);
      const seen = new Set<string>();
      for (const party of parties) {
        for (const account of ACCOUNTS) {
          const who = auth[account];
          const offers = await offered(party, who);
          const before = await changeMark(t.database);
          for (const kind of PROPOSAL_KINDS.filter((k) => !offers.includes(k))) {
            const res = await propose(party, kind, who);
            expect(res.body.code, `${account} ${kind} for ${party.label} is not offered`).not.toBe(200);
          }
          expect(await changeMark(t.database), `a refused proposal of ${account} changed something`).toBe(before);
          for (const kind of offers) {
            seen.add(`${account}:${party.label}:${kind}`);
            const res = await propose(party, kind, who);
            expect(res.body.code, `${account} ${kind} for ${party.label} is offered: ${JSON.stringify(res.body)}`).toBe(
              200,
            );
            const cancel = await t.call(funds.cancel, { id: res.body.data.id }, who);
            expect(cancel.body.code).toBe(200);
          }
        }
      }
      // The walk offered something, and clearing exactly where it can be approved.
      for (const account of ['superadmin', 'admin']) {
        expect(seen.has(`${account}:supplier1 (funded):deposit`)).toBe(true);
        expect(seen.has(`${account}:a supplier without balance:withdraw`)).toBe(true);
        expect(seen.has(`${account}:merchant1 (funded):clear`)).toBe(clear);
        expect(seen.has(`${account}:a merchant without balance:clear`)).toBe(false);
      }
      expect([...seen].every((s) => s.startsWith('superadmin:') || s.startsWith('admin:'))).toBe(true);
    });
  }
});
