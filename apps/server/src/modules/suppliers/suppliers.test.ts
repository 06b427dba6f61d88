import { Code, endpoints, type Role, SUPPLIER_TEXTS, type SupplierRow, USER_TEXTS } from '@paydesk/contract';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServices, type Services } from '../../app.js';
import { auditLog, partyProducts, suppliers as suppliersTable, users } from '../../db/schema.js';
import { type Auth, downloadCsv, nextIp, snapshot, startTestApp, type TestApp } from '../../testing/harness.js';

const { suppliers } = endpoints;
let t: TestApp;
let services: Services;
const auth = new Map<string, Auth>();
/** Demo accounts by role; agent1 stands for an agent (a supplier account with a parent). */
const ACCOUNTS: Array<[string, Role | 'agent']> = [
  ['superadmin', 'superAdmin'],
  ['admin', 'admin'],
  ['service', 'customerService'],
  ['maintenance', 'technicalMaintenance'],
  ['support', 'technicalSupport'],
  ['supplier1', 'supplier'],
  ['agent1', 'agent'],
  ['merchant1', 'merchant'],
];
const STAFF = ['superadmin', 'admin', 'service', 'maintenance', 'support'];
const as = (account: string) => auth.get(account)!;
let supplierOne: SupplierRow;
let agentOne: SupplierRow;

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimitFactor: 1000 } });
  services = buildServices({ config: t.config, database: t.database, clock: t.clock });
  for (const [account] of ACCOUNTS) auth.set(account, await t.loginWithToken2(account));
  const list = await t.call(suppliers.getList, { pageIndex: 1, pageSize: 100 }, as('admin'));
  supplierOne = list.body.data.list.find((r: SupplierRow) => r.account === 'supplier1');
  agentOne = list.body.data.list.find((r: SupplierRow) => r.account === 'agent1');
});
afterAll(() => t.close());

/** Posts money onto a supplier's available balance from platform:adjustments (a test's own transfer). */
async function fund(supplierId: number, amount: number, key: string) {
  await t.database.db.transaction((tx) =>
    services.ledger.transfer(tx, {
      idempotencyKey: key,
      type: 'test',
      note: 'test funding',
      postings: [
        { account: 'platform:adjustments', amount: -amount },
        { account: `supplier:${supplierId}:available`, amount },
      ],
    }),
  );
}

async function auditActions(target: string) {
  const rows = await t.database.db
    .select({ action: auditLog.action, account: auditLog.account })
    .from(auditLog)
    .where(eq(auditLog.target, target))
    .orderBy(desc(auditLog.id));
  return rows;
}

/** A second top-level supplier, made by admin with its own console account, and a session of it. */
async function otherSupplier(account: string): Promise<{ row: { id: number; userId: number }; auth: Auth }> {
  const created = await t.call(
    suppliers.create,
    { name: `Other ${account}`, mode: 'newAccount', account, password: 'other2024', remark: '' },
    as('admin'),
  );
  expect(created.body.code).toBe(200);
  // A new account signs in with its password alone until it binds an authenticator; allow it here.
  await t.database.db.update(users).set({ enableGoogleVerify: false }).where(eq(users.id, created.body.data.userId));
  const login = await t.call(endpoints.auth.login, { userName: account, password: 'other2024' }, { ip: nextIp() });
  return { row: created.body.data, auth: { token: login.body.data.token } };
}

describe('the demo data', () => {
  it('has Supplier One with its agent Agent One, and their commissions', async () => {
    expect(supplierOne).toMatchObject({
      name: 'Supplier One',
      parentId: null,
      parentName: null,
      agentCount: 1,
      enabled: true,
    });
    expect(agentOne).toMatchObject({
      name: 'Agent One',
      parentId: supplierOne.id,
      parentName: 'Supplier One',
      agentCount: 0,
    });
    const rates = await t.database.db.select().from(partyProducts).where(eq(partyProducts.userId, supplierOne.userId));
    expect(rates.map((r) => [r.productId, r.commissionRate, r.enabled]).sort()).toEqual([
      [1001, 300, true],
      [2001, 100, true],
      [2002, 100, true],
      [2003, 100, true],
    ]);
  });
});

describe('every call x every role', () => {
  it('getList and exportList: staff only', async () => {
    for (const [account] of ACCOUNTS) {
      const res = await t.call(suppliers.getList, { pageIndex: 1 }, as(account));
      const csv = await downloadCsv(t, suppliers.exportList, {}, as(account));
      if (STAFF.includes(account)) {
        expect(res.body.code, account).toBe(200);
        expect(res.body.data.total).toBeGreaterThanOrEqual(2);
        expect(csv.status, account).toBe(200);
      } else {
        expect(res.status, account).toBe(403);
        expect(csv.status, account).toBe(403);
      }
    }
  });

  it('getDetail: staff see any; supplier1 itself and agent1; agent1 only itself; merchant refused', async () => {
    const expected: Record<string, [number, number]> = {
      superadmin: [200, 200],
      admin: [200, 200],
      service: [200, 200],
      maintenance: [200, 200],
      support: [200, 200],
      supplier1: [200, 200],
      agent1: [404, 200],
      merchant1: [403, 403],
    };
    for (const [account] of ACCOUNTS) {
      const one = await t.call(suppliers.getDetail, { id: supplierOne.id }, as(account));
      const agent = await t.call(suppliers.getDetail, { id: agentOne.id }, as(account));
      expect([one.status, agent.status], account).toEqual(expected[account]);
    }
    const detail = await t.call(suppliers.getDetail, { id: agentOne.id }, as('supplier1'));
    expect(detail.body.data).toMatchObject({ account: 'agent1', parentName: 'Supplier One' });
  });

  it('create, update, setEnabled: superAdmin and admin only; others 403 and nothing changes', async () => {
    const before = await snapshot(t.database);
    for (const account of ['service', 'maintenance', 'support', 'supplier1', 'agent1', 'merchant1']) {
      const calls = [
        await t.call(
          suppliers.create,
          { name: 'X', mode: 'newAccount', account: 'denied1', password: 'denied123', remark: '' },
          as(account),
        ),
        await t.call(suppliers.update, { id: supplierOne.id, name: 'X', remark: '' }, as(account)),
        await t.call(suppliers.setEnabled, { id: supplierOne.id, enabled: false }, as(account)),
      ];
      for (const res of calls) expect(res.status, account).toBe(403);
    }
    // Sessions of the calls above aside, the suppliers and accounts are untouched.
    const after = await snapshot(t.database);
    const strip = (s: string) => s.replace(/sessions:\S+/, '');
    expect(strip(after)).toBe(strip(before));
  });

  it('agent calls: the supplier role only', async () => {
    for (const account of [...STAFF, 'merchant1']) {
      const calls = [
        await t.call(
          suppliers.createAgent,
          { account: 'denied2', nickname: 'D', password: 'denied123', name: 'D' },
          as(account),
        ),
        await t.call(
          suppliers.updateAgent,
          { agentId: agentOne.id, name: 'X', nickname: 'X', enabled: true },
          as(account),
        ),
        await t.call(suppliers.getAgentCommissions, { agentId: agentOne.id }, as(account)),
        await t.call(
          suppliers.setAgentCommission,
          { agentId: agentOne.id, productId: 1001, commissionRate: 100 },
          as(account),
        ),
        await t.call(suppliers.getMine, {}, as(account)),
      ];
      for (const res of calls) expect(res.status, account).toBe(403);
    }
    const mine = await t.call(suppliers.getMine, {}, as('agent1'));
    expect(mine.body.data).toMatchObject({ id: agentOne.id, parentId: supplierOne.id });
  });
});

describe('lists', () => {
  it('totals equal the sum of the rows; sorting by balance; filters', async () => {
    await fund(supplierOne.id, 123_45, 'test:fund:s1');
    await fund(agentOne.id, 10_00, 'test:fund:a1');
    const res = await t.call(
      suppliers.getList,
      { pageIndex: 1, pageSize: 500, sortBy: 'balance', sortOrder: 'desc' },
      as('admin'),
    );
    const rows = res.body.data.list as SupplierRow[];
    expect(res.body.data.summary).toEqual({
      balance: rows.reduce((s, r) => s + r.balance, 0),
      frozenBalance: rows.reduce((s, r) => s + r.frozenBalance, 0),
    });
    const balances = rows.map((r) => r.balance);
    expect(balances).toEqual([...balances].sort((a, b) => b - a));
    const s1 = rows.find((r) => r.id === supplierOne.id)!;
    expect(s1.balance).toBe(supplierOne.balance + 123_45);

    const agents = await t.call(suppliers.getList, { pageIndex: 1, kind: 'agent' }, as('admin'));
    expect(agents.body.data.list.every((r: SupplierRow) => r.parentId !== null)).toBe(true);
    expect(agents.body.data.list.map((r: SupplierRow) => r.account)).toContain('agent1');
    const ofParent = await t.call(suppliers.getList, { pageIndex: 1, parentId: supplierOne.id }, as('service'));
    expect(ofParent.body.data.list.map((r: SupplierRow) => r.account)).toEqual(['agent1']);
    const byName = await t.call(suppliers.getList, { pageIndex: 1, name: 'one', kind: 'supplier' }, as('support'));
    expect(byName.body.data.list.map((r: SupplierRow) => r.name)).toEqual(['Supplier One']);
    expect(byName.body.data.summary.balance).toBe(s1.balance);
  });

  it('the CSV export has the filtered rows of the list, with the same balances', async () => {
    const list = await t.call(suppliers.getList, { pageIndex: 1, pageSize: 500, kind: 'all' }, as('admin'));
    const csv = await downloadCsv(t, suppliers.exportList, { kind: 'all' }, as('admin'));
    const header = csv.header.split(',');
    expect(header).toEqual(Object.keys(endpoints.suppliers.exportList.output.shape));
    expect(csv.rows).toHaveLength(list.body.data.total);
    const col = (name: string) => header.indexOf(name);
    const sum = (name: string) => csv.rows.reduce((s, line) => s + Number(line.split(',')[col(name)]), 0);
    expect(sum('balance')).toBe(list.body.data.summary.balance);
    expect(sum('frozenBalance')).toBe(list.body.data.summary.frozenBalance);
    const sorted = await downloadCsv(t, suppliers.exportList, { sortBy: 'balance', sortOrder: 'desc' }, as('admin'));
    const sortedList = await t.call(
      suppliers.getList,
      { pageIndex: 1, pageSize: 500, sortBy: 'balance', sortOrder: 'desc' },
      as('admin'),
    );
    expect(sorted.rows.map((line) => Number(line.split(',')[col('id')]))).toEqual(
      sortedList.body.data.list.map((r: SupplierRow) => r.id),
    );
    const agents = await downloadCsv(t, suppliers.exportList, { kind: 'agent' }, as('admin'));
    expect(agents.rows.length).toBeGreaterThan(0);
    expect(agents.rows.length).toBeLessThan(csv.rows.length);
  });
});

describe('export in batches', () => {
  it('reads every row once, in the list’s order, whatever the batch size and sort', async () => {
    for (let i = 0; i < 5; i += 1) await otherSupplier(`batch${i}`);
    await fund(supplierOne.id, 1, 'test:fund:batch');
    const sorts = [
      {},
      { sortBy: 'balance', sortOrder: 'desc' },
      { sortBy: 'balance', sortOrder: 'asc' },
      { sortBy: 'frozenBalance', sortOrder: 'desc' },
      { sortBy: 'createdAt', sortOrder: 'desc' },
    ] as const;
    for (const sort of sorts) {
      const list = await t.call(suppliers.getList, { pageIndex: 1, pageSize: 500, ...sort }, as('admin'));
      const rows: SupplierRow[] = [];
      for await (const row of services.suppliers.exportList({ all: true }, sort, 2)) rows.push(row);
      expect(
        rows.map((r) => r.id),
        JSON.stringify(sort),
      ).toEqual(list.body.data.list.map((r: SupplierRow) => r.id));
    }
  });
});

describe('create, update, enable', () => {
  it('refuses bad input with the spec texts and creates nothing', async () => {
    const cases: Array<[object, string]> = [
      [
        { name: '', mode: 'newAccount', account: 'abc123', password: 'abc12345', remark: '' },
        SUPPLIER_TEXTS.nameRequired,
      ],
      [
        { name: 'N', mode: 'newAccount', account: 'bad name!', password: 'abc12345', remark: '' },
        USER_TEXTS.accountCharset,
      ],
      [
        { name: 'N', mode: 'newAccount', account: 'abc123', password: 'letters', remark: '' },
        USER_TEXTS.passwordStrength,
      ],
    ];
    for (const [input, text] of cases) {
      const res = await t.call(suppliers.create, input, as('admin'));
      expect(res.body.code).toBe(Code.invalidInput);
      expect(res.body.data.issues.map((i: { message: string }) => i.message)).toContain(text);
    }
    expect(
      (await t.call(endpoints.users.getUserList, { pageIndex: 1, account: 'abc123' }, as('admin'))).body.data.total,
    ).toBe(0);
  });

  it('newAccount creates the account and the supplier together, audited; a taken account is a 409', async () => {
    const res = await t.call(
      suppliers.create,
      { name: 'Supplier Two', mode: 'newAccount', account: 'supplier2', password: 'supply2024', remark: 'second' },
      as('admin'),
    );
    expect(res.body.code).toBe(200);
    const detail = await t.call(suppliers.getDetail, { id: res.body.data.id }, as('admin'));
    expect(detail.body.data).toMatchObject({
      account: 'supplier2',
      name: 'Supplier Two',
      remark: 'second',
      parentId: null,
      balance: 0,
      frozenBalance: 0,
    });
    const [account] = await t.database.db.select().from(users).where(eq(users.id, res.body.data.userId));
    expect(account).toMatchObject({ role: 'supplier', partyLinked: true, nickname: 'Supplier Two' });
    expect((await auditActions(`supplier:${res.body.data.id}`)).map((a) => a.action)).toEqual(['suppliers.create']);

    const before = await snapshot(t.database);
    const dup = await t.call(
      suppliers.create,
      { name: 'Again', mode: 'newAccount', account: 'SUPPLIER2', password: 'supply2024', remark: '' },
      as('superadmin'),
    );
    expect(dup.status).toBe(409);
    expect(await snapshot(t.database)).toBe(before);
  });

  it('newAccount is refused while AutoCreateRelateSupplier is off, and nothing changes', async () => {
    await t.setSetting('AutoCreateRelateSupplier', false);
    try {
      const before = await snapshot(t.database);
      const res = await t.call(
        suppliers.create,
        { name: 'Off', mode: 'newAccount', account: 'supplieroff', password: 'supply2024', remark: '' },
        as('admin'),
      );
      expect(res.status).toBe(422);
      expect(res.body.data.reason).toBe('autoCreateOff');
      expect(await snapshot(t.database)).toBe(before);
    } finally {
      await t.setSetting('AutoCreateRelateSupplier', undefined);
    }
  });

  it('linkAccount takes an unused supplier account once; other accounts are refused', async () => {
    const added = await t.call(
      endpoints.users.addUser,
      { nickname: 'S3', account: 'supplier3', password: 'supply2024', access: 'supplier' },
      as('admin'),
    );
    const userId = added.body.data.id as number;
    const unused = await t.call(endpoints.users.getUnusedUserOptions, { role: 'supplier' }, as('admin'));
    expect(unused.body.data.map((o: { id: number }) => o.id)).toContain(userId);
    const linked = await t.call(
      suppliers.create,
      { name: 'Three', mode: 'linkAccount', userId, remark: '' },
      as('admin'),
    );
    expect(linked.body.code).toBe(200);
    const after = await t.call(endpoints.users.getUnusedUserOptions, { role: 'supplier' }, as('admin'));
    expect(after.body.data.map((o: { id: number }) => o.id)).not.toContain(userId);
    for (const id of [
      userId,
      agentOne.userId,
      (await t.call(suppliers.getDetail, { id: supplierOne.id }, as('admin'))).body.data.userId,
    ]) {
      const again = await t.call(
        suppliers.create,
        { name: 'Again', mode: 'linkAccount', userId: id, remark: '' },
        as('admin'),
      );
      expect(again.status).toBe(422);
      expect(again.body.data.reason).toBe('accountNotUsable');
    }
  });

  it('update and setEnabled change the row and are audited; an unknown id is a 404', async () => {
    const { row } = await otherSupplier('supplier4');
    expect((await t.call(suppliers.update, { id: row.id, name: 'Four Ltd', remark: 'r' }, as('admin'))).body.code).toBe(
      200,
    );
    expect((await t.call(suppliers.setEnabled, { id: row.id, enabled: false }, as('superadmin'))).body.code).toBe(200);
    const detail = await t.call(suppliers.getDetail, { id: row.id }, as('admin'));
    expect(detail.body.data).toMatchObject({ name: 'Four Ltd', remark: 'r', enabled: false });
    const disabled = await t.call(suppliers.getList, { pageIndex: 1, enabled: 'false' }, as('admin'));
    expect(disabled.body.data.list.map((r: SupplierRow) => r.id)).toEqual([row.id]);
    expect((await auditActions(`supplier:${row.id}`)).map((a) => a.action)).toEqual([
      'suppliers.setEnabled',
      'suppliers.update',
      'suppliers.create',
    ]);
    expect((await t.call(suppliers.update, { id: 999_999, name: 'X', remark: '' }, as('admin'))).status).toBe(404);
  });
});

describe('scope', () => {
  it('supplier1 sees itself and agent1 but not another supplier (404)', async () => {
    const other = await otherSupplier('supplier5');
    expect((await t.call(suppliers.getDetail, { id: other.row.id }, as('supplier1'))).status).toBe(404);
    expect((await t.call(suppliers.getDetail, { id: supplierOne.id }, other.auth)).status).toBe(404);
    expect((await t.call(suppliers.getDetail, { id: other.row.id }, other.auth)).status).toBe(200);
    // Another supplier's agents are not supplier1's to change.
    const res = await t.call(
      suppliers.updateAgent,
      { agentId: agentOne.id, name: 'Mine now', nickname: 'x', enabled: false },
      other.auth,
    );
    expect(res.status).toBe(404);
    const commission = await t.call(
      suppliers.setAgentCommission,
      { agentId: agentOne.id, productId: 1001, commissionRate: 1 },
      other.auth,
    );
    expect(commission.status).toBe(404);
  });
});

describe('agents', () => {
  it('supplier1 creates an agent: an account under supplier1 and a record under its record, audited', async () => {
    const res = await t.call(
      suppliers.createAgent,
      { account: 'agent2', nickname: 'Agent Two', password: 'agent2024', name: 'Agent Two Ltd' },
      as('supplier1'),
    );
    expect(res.body.code).toBe(200);
    const [account] = await t.database.db.select().from(users).where(eq(users.id, res.body.data.userId));
    expect(account).toMatchObject({ role: 'supplier', parentId: supplierOne.userId, partyLinked: true });
    const [record] = await t.database.db.select().from(suppliersTable).where(eq(suppliersTable.id, res.body.data.id));
    expect(record).toMatchObject({ parentId: supplierOne.id, name: 'Agent Two Ltd', enabled: true });
    const audit = await auditActions(`supplier:${res.body.data.id}`);
    expect(audit).toEqual([{ action: 'suppliers.createAgent', account: 'supplier1' }]);
    const proxies = await t.call(endpoints.users.getSupplierProxyList, { pageIndex: 1 }, as('supplier1'));
    expect(proxies.body.data.list.map((r: { account: string }) => r.account)).toEqual(['agent1', 'agent2']);
    const dup = await t.call(
      suppliers.createAgent,
      { account: 'agent2', nickname: 'Agent Two', password: 'agent2024', name: 'Agent Two Ltd' },
      as('supplier1'),
    );
    expect(dup.status).toBe(409);
    expect(dup.body.msg).toBe(USER_TEXTS.accountExists);
  });

  it('agent1 cannot create agents, and nothing changes', async () => {
    const before = await snapshot(t.database);
    const res = await t.call(
      suppliers.createAgent,
      { account: 'subagent1', nickname: 'Sub', password: 'agent2024', name: 'Sub' },
      as('agent1'),
    );
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      msg: SUPPLIER_TEXTS.agentCannotHaveAgents,
      data: { reason: 'agentCannotHaveAgents' },
    });
    expect(await snapshot(t.database)).toBe(before);
  });

  it('updateAgent changes name, nickname and enabled of own agents only', async () => {
    const res = await t.call(
      suppliers.updateAgent,
      { agentId: agentOne.id, name: 'Agent One Renamed', nickname: 'A1', enabled: false },
      as('supplier1'),
    );
    expect(res.body.code).toBe(200);
    const proxies = await t.call(endpoints.users.getSupplierProxyList, { pageIndex: 1 }, as('supplier1'));
    expect(proxies.body.data.list[0]).toMatchObject({
      account: 'agent1',
      name: 'Agent One Renamed',
      nickname: 'A1',
      enabled: false,
    });
    expect((await auditActions(`supplier:${agentOne.id}`))[0]?.action).toBe('suppliers.updateAgent');
    await t.call(
      suppliers.updateAgent,
      { agentId: agentOne.id, name: 'Agent One', nickname: 'Agent One', enabled: true },
      as('supplier1'),
    );
    // An agent has no agents; a supplier record that is no agent of the caller is a 404.
    expect(
      (
        await t.call(
          suppliers.updateAgent,
          { agentId: agentOne.id, name: 'x', nickname: 'x', enabled: true },
          as('agent1'),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await t.call(
          suppliers.updateAgent,
          { agentId: supplierOne.id, name: 'x', nickname: 'x', enabled: true },
          as('supplier1'),
        )
      ).status,
    ).toBe(404);
  });

  it('a commission above the parent’s is refused and nothing changes; a valid one is saved', async () => {
    const before = await snapshot(t.database);
    const above = await t.call(
      suppliers.setAgentCommission,
      { agentId: agentOne.id, productId: 1001, commissionRate: 301 },
      as('supplier1'),
    );
    expect(above.status).toBe(422);
    expect(above.body.data).toMatchObject({ reason: 'commissionAboveParent', max: 300 });
    expect(above.body.msg).toContain('3.00%');
    expect(await snapshot(t.database)).toBe(before);

    const notMine = await t.call(
      suppliers.setAgentCommission,
      { agentId: agentOne.id, productId: 1002, commissionRate: 0 },
      as('supplier1'),
    );
    expect(notMine.status).toBe(422);
    expect(notMine.body.data.reason).toBe('productNotAvailable');

    const ok = await t.call(
      suppliers.setAgentCommission,
      { agentId: agentOne.id, productId: 1001, commissionRate: 300 },
      as('supplier1'),
    );
    expect(ok.body.code).toBe(200);
    const second = await t.call(
      suppliers.setAgentCommission,
      { agentId: agentOne.id, productId: 2001, commissionRate: 50 },
      as('supplier1'),
    );
    expect(second.body.code).toBe(200);
    const rates = await t.call(suppliers.getAgentCommissions, { agentId: agentOne.id }, as('supplier1'));
    expect(rates.body.data).toEqual([
      { productId: 1001, parentRate: 300, agentRate: 300, agentEnabled: true },
      { productId: 2001, parentRate: 100, agentRate: 50, agentEnabled: true },
      { productId: 2002, parentRate: 100, agentRate: null, agentEnabled: false },
      { productId: 2003, parentRate: 100, agentRate: null, agentEnabled: false },
    ]);
    expect((await t.call(suppliers.getAgentCommissions, { agentId: agentOne.id }, as('agent1'))).status).toBe(404);
  });
});

describe('commission split', () => {
  it('agent and parent each earn their share; balanced from platform:revenue the ledger stays consistent', async () => {
    const db = t.database.db;
    // Known rates: parent 3.00 %, agent 2.00 % on 1001.
    await db
      .update(partyProducts)
      .set({ commissionRate: 200 })
      .where(and(eq(partyProducts.userId, agentOne.userId), eq(partyProducts.productId, 1001)));
    const agentBefore = await services.ledger.balanceOf(db, `supplier:${agentOne.id}:available`);
    const parentBefore = await services.ledger.balanceOf(db, `supplier:${supplierOne.id}:available`);
    const revenueBefore = await services.ledger.balanceOf(db, 'platform:revenue');

    await db.transaction(async (tx) => {
      // 100.01 at 2.00 % is 2.0002 -> 2.00 for the agent; at (3.00 - 2.00) % -> 1.00 for its parent.
      const postings = await services.suppliers.commissionPostings(tx, {
        supplierId: agentOne.id,
        productId: 1001,
        amount: 100_01,
      });
      expect(postings).toEqual([
        { account: `supplier:${agentOne.id}:available`, amount: 200 },
        { account: `supplier:${supplierOne.id}:available`, amount: 100 },
      ]);
      const total = postings.reduce((s, p) => s + p.amount, 0);
      await services.ledger.transfer(tx, {
        idempotencyKey: 'test:commission:1',
        type: 'commission',
        note: 'test commission',
        postings: [...postings, { account: 'platform:revenue', amount: -total }],
      });
    });
    expect(await services.ledger.balanceOf(db, `supplier:${agentOne.id}:available`)).toBe(agentBefore + 200);
    expect(await services.ledger.balanceOf(db, `supplier:${supplierOne.id}:available`)).toBe(parentBefore + 100);
    expect(await services.ledger.balanceOf(db, 'platform:revenue')).toBe(revenueBefore - 300);
    expect(await services.ledger.check()).toEqual({ ok: true, violations: [] });
  });

  it('a top-level supplier earns its own rate alone; no rate, no posting', async () => {
    const db = t.database.db;
    const own = await db.transaction((tx) =>
      services.suppliers.commissionPostings(tx, { supplierId: supplierOne.id, productId: 2001, amount: 99_99 }),
    );
    expect(own).toEqual([{ account: `supplier:${supplierOne.id}:available`, amount: 99 }]);
    const none = await db.transaction((tx) =>
      services.suppliers.commissionPostings(tx, { supplierId: supplierOne.id, productId: 5001, amount: 100_00 }),
    );
    expect(none).toEqual([]);
  });
});
