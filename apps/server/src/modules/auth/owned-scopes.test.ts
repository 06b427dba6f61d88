import { type Endpoint, endpoints, isStaff, type Role } from '@paydesk/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources, suppliers, users } from '../../db/schema.js';
import { type Auth, downloadCsv, startTestApp, type TestApp } from '../../testing/harness.js';
import { signed } from '../../testing/merchant-api.js';

/**
 * Every endpoint whose scope is 'owned', with the rule it follows (docs/security.md "Sessions and owned
 * scopes"). A new owned endpoint fails the first test until it is classified here.
 * - staff: staff roles only, rows of any party; nothing for parties to overreach;
 * - own: a party reaches only its own rows (a supplier not its agents');
 * - team: a supplier also reaches its agents' rows (a team view), never its parent's;
 * - manage: acts on an account: only account managers, and never on a role they may not manage.
 */
const RULES: Record<string, 'staff' | 'own' | 'team' | 'manage'> = {
  'auth.getSessions': 'own',
  'auth.exportSessions': 'own',
  'auth.forceLogout': 'manage',
  'auth.bindUser': 'manage',
  'auth.unbind': 'manage',
  'auth.enableGoogleVerify': 'manage',
  'auth.setAllowModify': 'manage',
  'auth.clearSignInLock': 'manage',
  'users.getUserOptions': 'staff',
  'users.getSupplierUserOptions': 'team',
  'users.getUnusedUserOptions': 'staff',
  'users.addUser': 'manage',
  'users.getUserList': 'staff',
  'users.exportUserList': 'staff',
  'users.getSupplierProxyList': 'team',
  'users.exportSupplierProxyList': 'team',
  'users.updateUser': 'manage',
  'users.deleteUser': 'manage',
  'users.repairUser': 'manage',
  'users.resetPayPassword': 'manage',
  'audit.getList': 'staff',
  'audit.export': 'staff',
  'audit.verifyChain': 'staff',
  'messages.send': 'staff',
  'errorLog.getList': 'staff',
  'errorLog.export': 'staff',
  'ledger.ledgerCheck': 'staff',
  'products.getUserProductList': 'team',
  'products.exportUserProductList': 'team',
  'products.getUserProductsForUser': 'team',
  'products.saveUserProduct': 'staff',
  'merchants.getList': 'staff',
  'merchants.exportList': 'staff',
  'merchants.getDetail': 'own',
  'merchants.getMine': 'own',
  'merchants.create': 'staff',
  'merchants.update': 'staff',
  'merchants.setEnabled': 'staff',
  'merchants.revealSecret': 'own',
  'merchants.rotateSecret': 'own',
  'suppliers.getList': 'staff',
  'suppliers.exportList': 'staff',
  'suppliers.getDetail': 'team',
  'suppliers.create': 'staff',
  'suppliers.update': 'staff',
  'suppliers.setEnabled': 'staff',
  'suppliers.createAgent': 'own',
  'suppliers.updateAgent': 'own',
  'suppliers.getAgentCommissions': 'own',
  'suppliers.setAgentCommission': 'own',
  'funds.getFundRecordList': 'own',
  'funds.exportFundRecords': 'own',
  'funds.propose': 'staff',
  'funds.approve': 'staff',
  'funds.reject': 'staff',
  'funds.cancel': 'staff',
  'funds.getProposalList': 'staff',
  'funds.exportProposals': 'staff',
  'resources.getList': 'own',
  'resources.exportList': 'own',
  'resources.create': 'own',
  'resources.update': 'own',
  'resources.delete': 'own',
  'resources.uploadQr': 'own',
  'resources.qrImage': 'own',
  'resources.getResourceDetailInfo': 'own',
  'resources.getResourceStaticInfo': 'own',
  'resources.enableResource': 'own',
  'resources.bulkEnable': 'own',
  'orders.getList': 'team',
  'orders.exportList': 'team',
  'orders.getDetail': 'team',
  'orders.getLastOrder': 'team',
  'orders.getOrderAllocateInfo': 'staff',
  'orders.pictureQuery': 'staff',
  'orders.confirmOrder': 'team',
  'orders.replenishmentOrder': 'staff',
  'orders.reselect': 'staff',
  'orders.reject': 'team',
  'orders.freeResource': 'staff',
  'orders.callback': 'staff',
  'orders.reverseOrder': 'staff',
  'orders.updateOrderMark': 'staff',
  'orders.unlockOrder': 'staff',
  'callbacks.getList': 'staff',
  'callbacks.exportList': 'staff',
  'callbacks.getDetailList': 'staff',
  'callbacks.exportDetailList': 'staff',
  'callbacks.delete': 'staff',
  'callbacks.replay': 'staff',
  'callbacks.sendTest': 'staff',
  // A payout is its merchant's and the claiming supplier's; a supplier also reads an awaiting one it may
  // claim, and its agents' (payouts.test.ts).
  'payouts.getDetail': 'team',
  'payouts.getList': 'team',
  'payouts.exportList': 'team',
  'payouts.cancelClaim': 'own',
  'payouts.submit': 'own',
  'payouts.receipt': 'team',
  'payouts.confirm': 'staff',
  'payouts.reject': 'own',
  'payouts.cancel': 'own',
  'payouts.markAbnormal': 'own',
  'payouts.resolve': 'staff',
  // A batch is its payout account's supplier's (batches.test.ts).
  'payoutBatches.getList': 'own',
  'payoutBatches.exportList': 'own',
  'payoutBatches.getPayouts': 'own',
  'payoutBatches.exportFile': 'own',
  'payoutBatches.download': 'own',
  // Statistics: a merchant its own buckets, a supplier its team's (statistics.test.ts).
  'statistics.statisticsV2': 'team',
  'statistics.payoutStatisticsV2': 'team',
  'statistics.simplestatisticsV2': 'team',
  'todo.counts': 'team',
  'todo.getList': 'team',
  'todo.export': 'team',
};

const owned = Object.entries(endpoints).flatMap(([area, group]) =>
  Object.entries(group as Record<string, Endpoint>)
    .filter(([, e]) => e.scope === 'owned')
    .map(([name, e]) => ({ key: `${area}.${name}`, e })),
);

describe('the owned endpoints of the contract', () => {
  it('are each classified, and exactly the team ones are marked team', () => {
    expect(owned.map((o) => o.key).sort()).toEqual(Object.keys(RULES).sort());
    for (const { key, e } of owned) expect(Boolean(e.team), key).toBe(RULES[key] === 'team');
  });

  it('staff and manage endpoints are not open to parties; manage ones act on others for account managers only', () => {
    for (const { key, e } of owned) {
      const roles = e.access as readonly Role[];
      if (RULES[key] === 'staff') expect(roles.every(isStaff), key).toBe(true);
      if (RULES[key] === 'manage') {
        // Open to everyone only when acting on one's own rows (forceLogout); others' rows: account managers.
        const all = e.allScopeRoles ?? roles;
        expect([...all].sort(), key).toEqual(['admin', 'superAdmin']);
      }
    }
  });
});

let t: TestApp;
const ids = new Map<string, number>();
const auths = new Map<string, Auth>();
const as = async (account: string) => {
  if (!auths.has(account)) auths.set(account, await t.loginWithToken2(account));
  return auths.get(account)!;
};

beforeAll(async () => {
  t = await startTestApp();
  for (const u of await t.database.db.select({ id: users.id, account: users.account }).from(users)) {
    ids.set(u.account, u.id);
  }
});
afterAll(() => t.close());

describe('an admin acts on no superAdmin account (every manage endpoint)', () => {
  const boss = () => ids.get('superadmin')!;
  const calls: Array<[string, () => { e: Endpoint; input: unknown }]> = [
    ['auth.bindUser', () => ({ e: endpoints.auth.bindUser, input: { userAccount: 'superadmin', needToLogout: true } })],
    ['auth.unbind', () => ({ e: endpoints.auth.unbind, input: { userAccount: 'superadmin' } })],
    [
      'auth.enableGoogleVerify',
      () => ({ e: endpoints.auth.enableGoogleVerify, input: { userId: boss(), enableGoogleVerify: false } }),
    ],
    [
      'auth.setAllowModify',
      () => ({ e: endpoints.auth.setAllowModify, input: { userId: boss(), allowModify: false } }),
    ],
    ['auth.clearSignInLock', () => ({ e: endpoints.auth.clearSignInLock, input: { userId: boss() } })],
    [
      'users.addUser',
      () => ({
        e: endpoints.users.addUser,
        input: { nickname: 'Boss Two', account: 'boss2', password: 'boss20245', access: 'superAdmin' },
      }),
    ],
    [
      'users.updateUser',
      () => ({
        e: endpoints.users.updateUser,
        input: { id: boss(), nickname: 'Demoted', account: 'superadmin', role: 'admin' },
      }),
    ],
    ['users.deleteUser', () => ({ e: endpoints.users.deleteUser, input: { id: boss() } })],
    ['users.repairUser', () => ({ e: endpoints.users.repairUser, input: { userId: boss(), newAccountName: 'boss9' } })],
    ['users.resetPayPassword', () => ({ e: endpoints.users.resetPayPassword, input: { id: boss() } })],
  ];
  it.each(calls)('%s: 403, and the superAdmin account is unchanged', async (_key, make) => {
    const { e, input } = make();
    const before = await t.database.db.select().from(users).where(eq(users.id, boss()));
    const res = await t.call(e, input, await as('admin'));
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(await t.database.db.select().from(users).where(eq(users.id, boss()))).toEqual(before);
  });

  it('auth.forceLogout: 403 on a superAdmin’s session (auth.test walks the session rules)', async () => {
    const bossAuth = await t.login('superadmin');
    const list = await t.call(endpoints.auth.getSessions, { pageIndex: 1, pageSize: 50 }, bossAuth);
    const mine = list.body.data.list.find((s: { current: boolean }) => s.current);
    const res = await t.call(endpoints.auth.forceLogout, { token: mine.sessionId }, await as('admin'));
    expect(res.status).toBe(403);
    expect((await t.call(endpoints.auth.getInfo, undefined, bossAuth)).body.code).toBe(200);
  });
});

describe('a supplier and its agent', () => {
  const supplierIdOf = async (account: string) => {
    const [row] = await t.database.db
      .select({ id: suppliers.id })
      .from(suppliers)
      .where(eq(suppliers.userId, ids.get(account)!));
    return row!.id;
  };

  it('own: the supplier lists and exports its own sessions and resources, not its agent’s', async () => {
    await as('agent1');
    const supplier = await as('supplier1');
    const sessions = await t.call(endpoints.auth.getSessions, { pageIndex: 1, pageSize: 100 }, supplier);
    expect(sessions.body.data.list.map((s: { account: string }) => s.account)).not.toContain('agent1');
    const csv = await downloadCsv(t, endpoints.auth.exportSessions, {}, supplier);
    expect(csv.rows.join('\n')).not.toContain('agent1');

    const agentSupplier = await supplierIdOf('agent1');
    const agentResources = await t.database.db
      .select({ id: resources.id })
      .from(resources)
      .where(eq(resources.supplierId, agentSupplier));
    const listed = await t.call(endpoints.resources.getList, { pageIndex: 1, pageSize: 500 }, supplier);
    expect(listed.body.code).toBe(200);
    const listedIds = new Set(listed.body.data.list.map((r: { id: number }) => r.id));
    expect(agentResources.length).toBeGreaterThan(0);
    expect(agentResources.some((r) => listedIds.has(r.id))).toBe(false);
    const detail = await t.call(
      endpoints.resources.getResourceDetailInfo,
      { resourceId: agentResources[0]!.id, productId: 1002 },
      supplier,
    );
    expect(detail.status).toBe(404);
  });

  it('own: the supplier sees no fund record of its agent', async () => {
    const res = await t.call(
      endpoints.funds.getFundRecordList,
      { pageIndex: 1, pageSize: 50, userId: ids.get('agent1') },
      await as('supplier1'),
    );
    expect(res.body.code).toBe(200);
    expect(res.body.data.total).toBe(0);
  });

  it('team: the supplier reads its agents’ accounts, products and supplier record; the agent not its parent’s', async () => {
    const supplier = await as('supplier1');
    const agent = await as('agent1');
    const proxies = await t.call(endpoints.users.getSupplierProxyList, { pageIndex: 1, pageSize: 50 }, supplier);
    expect(proxies.body.data.list.map((r: { account: string }) => r.account)).toContain('agent1');
    const options = await t.call(endpoints.users.getSupplierUserOptions, { isGetAllAgentSupplier: 'true' }, supplier);
    expect(JSON.stringify(options.body.data)).toContain('agent1');
    expect(JSON.stringify((await t.call(endpoints.users.getSupplierUserOptions, {}, agent)).body.data)).not.toContain(
      'supplier1',
    );

    const forAgent = { userId: ids.get('agent1') };
    expect((await t.call(endpoints.products.getUserProductsForUser, forAgent, supplier)).body.code).toBe(200);
    const forParent = { userId: ids.get('supplier1') };
    expect((await t.call(endpoints.products.getUserProductsForUser, forParent, agent)).status).toBe(404);

    const agentSupplier = await supplierIdOf('agent1');
    const parentSupplier = await supplierIdOf('supplier1');
    expect((await t.call(endpoints.suppliers.getDetail, { id: agentSupplier }, supplier)).body.code).toBe(200);
    expect((await t.call(endpoints.suppliers.getDetail, { id: parentSupplier }, agent)).status).toBe(404);
  });

  it('a merchant reaches no other party’s rows on its own endpoints', async () => {
    const merchant = await as('merchant1');
    const supplierUser = { userId: ids.get('supplier1') };
    expect((await t.call(endpoints.products.getUserProductsForUser, supplierUser, merchant)).status).toBe(404);
    const sessions = await t.call(endpoints.auth.getSessions, { pageIndex: 1, pageSize: 100 }, merchant);
    expect(sessions.body.data.list.every((s: { account: string }) => s.account === 'merchant1')).toBe(true);
    const funds = await t.call(
      endpoints.funds.getFundRecordList,
      { pageIndex: 1, pageSize: 50, userId: ids.get('supplier1') },
      merchant,
    );
    expect(funds.body.data.total).toBe(0);
  });
});

describe('SupplierUnifyQueryGroup: a supplier’s order list is its own, or its team’s when on', () => {
  const supplierIdOf = async (account: string) =>
    (
      await t.database.db
        .select({ id: suppliers.id })
        .from(suppliers)
        .where(eq(suppliers.userId, ids.get(account)!))
    )[0]!.id;
  /** An order taken by this supplier: the other one's switched-on accounts (state 0) are off meanwhile. */
  const orderTakenBy = async (account: 'supplier1' | 'agent1', amount: string) => {
    const other = await supplierIdOf(account === 'supplier1' ? 'agent1' : 'supplier1');
    const off = await t.database.db
      .update(resources)
      .set({ state: 1 })
      .where(and(eq(resources.supplierId, other), eq(resources.state, 0)))
      .returning({ id: resources.id });
    try {
      const res = await t.call(
        endpoints.orders.create,
        signed({
          mchId: '10001',
          productId: '1001',
          mchOrderNo: `SCOPE-${account}-${amount}`,
          amount,
          notifyUrl: 'http://127.0.0.1:9/notify',
          subject: 'Scope',
        }),
      );
      expect(res.body.code, JSON.stringify(res.body)).toBe(200);
      return res.body.data.orderCode as string;
    } finally {
      const back = off.map((r) => r.id);
      if (back.length) await t.database.db.update(resources).set({ state: 0 }).where(inArray(resources.id, back));
    }
  };
  const listOf = async (account: string, query: Record<string, unknown> = {}) => {
    const res = await t.call(endpoints.orders.getList, { pageIndex: 1, pageSize: 100, ...query }, await as(account));
    expect(res.body.code, JSON.stringify(res.body)).toBe(200);
    return {
      codes: res.body.data.list.map((r: { orderCode: string }) => r.orderCode) as string[],
      amount: res.body.data.summary.amount as number,
    };
  };
  const exported = async (account: string) =>
    (await downloadCsv(t, endpoints.orders.exportList, {}, await as(account))).rows.join('\n');

  it('off (the default): its own rows, totals and export; its agents’ only on the team page', async () => {
    const own = await orderTakenBy('supplier1', '31100');
    const agents = await orderTakenBy('agent1', '31200');
    expect(await listOf('supplier1')).toEqual({ codes: [own], amount: 31_100 });
    expect(await exported('supplier1')).not.toContain(agents);
    expect((await listOf('supplier1', { isProxy: true })).codes).toEqual([agents]);
    // Its scope is unchanged: the team's order detail still opens.
    const detail = await t.call(endpoints.orders.getDetail, { orderCode: agents }, await as('supplier1'));
    expect(detail.body.code).toBe(200);

    await t.setSetting('SupplierUnifyQueryGroup', true);
    try {
      expect(await listOf('supplier1')).toEqual({ codes: [agents, own], amount: 62_300 });
      const csv = await exported('supplier1');
      for (const code of [own, agents]) expect(csv).toContain(code);
      expect((await listOf('supplier1', { isProxy: false })).codes).toEqual([own]);
      // The agent's team is itself: never its parent's rows.
      expect((await listOf('agent1')).codes).toEqual([agents]);
      expect(await exported('agent1')).not.toContain(own);
    } finally {
      await t.setSetting('SupplierUnifyQueryGroup', undefined);
    }
  });
});
