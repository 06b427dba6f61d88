import { Code, endpoints, USER_TEXTS } from '@paydesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServices } from '../../app.js';
import { type Auth, downloadCsv, nextIp, startTestApp, type TestApp } from '../../testing/harness.js';

const { users } = endpoints;
let t: TestApp;
let admin: Auth;
let superAdmin: Auth;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.loginWithToken2('admin');
  superAdmin = await t.loginWithToken2('superadmin');
});
afterAll(() => t.close());

const idOf = async (account: string) => {
  const list = await t.call(users.getUserList, { pageIndex: 1, pageSize: 100, account }, admin);
  return (list.body.data.list as Array<{ id: number; account: string }>).find((u) => u.account === account)!.id;
};

describe('addUser', () => {
  it('refuses empty fields, a bad account, a weak password with the spec’s texts, and creates nothing', async () => {
    const cases: Array<[object, string]> = [
      [{ nickname: '', account: 'abc123', password: 'abc12345', access: 'admin' }, USER_TEXTS.requiredFields],
      [{ nickname: 'N', account: '', password: 'abc12345', access: 'admin' }, USER_TEXTS.requiredFields],
      [{ nickname: 'N', account: 'abc123', password: 'abc12345', access: '' }, USER_TEXTS.requiredFields],
      [{ nickname: 'N', account: 'bad name!', password: 'abc12345', access: 'admin' }, USER_TEXTS.accountCharset],
      [{ nickname: 'N', account: 'abc123', password: 'onlyletters', access: 'admin' }, USER_TEXTS.passwordStrength],
      [{ nickname: 'N', account: 'abc123', password: '123456789', access: 'admin' }, USER_TEXTS.passwordStrength],
    ];
    for (const [input, text] of cases) {
      const res = await t.call(users.addUser, input, admin);
      expect(res.body.code).toBe(Code.invalidInput);
      expect(res.body.data.issues.map((i: { message: string }) => i.message)).toContain(text);
    }
    expect((await t.call(users.getUserList, { pageIndex: 1, account: 'abc123' }, admin)).body.data.total).toBe(0);
  });

  it('creates an account that can sign in, and refuses the same account again (any case)', async () => {
    const input = { nickname: 'Night shift', account: 'night1', password: 'night2024', access: 'customerService' };
    const created = await t.call(users.addUser, input, admin);
    expect(created.body.code).toBe(200);
    expect(created.body.data.id).toBeGreaterThan(0);
    const dup = await t.call(users.addUser, { ...input, account: 'NIGHT1' }, admin);
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: Code.conflict, msg: USER_TEXTS.accountExists });
    const signIn = await t.call(endpoints.auth.login, { userName: 'night1', password: 'night2024' }, { ip: nextIp() });
    expect(signIn.body.data).toMatchObject({ access: 'customerService', confirmBind: false });
  });

  it('an admin may not create or promote to superAdmin; a superAdmin may', async () => {
    const input = { nickname: 'Boss', account: 'boss1', password: 'boss12345', access: 'superAdmin' };
    expect((await t.call(users.addUser, input, admin)).body.code).toBe(Code.forbidden);
    expect((await t.call(users.addUser, input, superAdmin)).body.code).toBe(200);
  });
});

describe('updateUser, repairUser, deleteUser, resetPayPassword', () => {
  it('updates fields; a new password ends the account’s sessions and the old password stops working', async () => {
    await t.call(users.addUser, { nickname: 'A', account: 'upd1', password: 'first1234', access: 'merchant' }, admin);
    const id = await idOf('upd1');
    const session = await t.call(endpoints.auth.login, { userName: 'upd1', password: 'first1234' }, { ip: nextIp() });
    const token = session.body.data.token as string;
    const res = await t.call(
      users.updateUser,
      { id, nickname: 'A2', account: 'upd1', password: 'second123', role: 'merchant' },
      admin,
    );
    expect(res.body.code).toBe(200);
    expect((await t.call(endpoints.auth.getInfo, undefined, { token })).body.code).toBe(Code.sessionExpired);
    const old = await t.call(endpoints.auth.login, { userName: 'upd1', password: 'first1234' }, { ip: nextIp() });
    expect(old.body.code).toBe(Code.wrongCredentials);
    const list = await t.call(users.getUserList, { pageIndex: 1, account: 'upd1' }, admin);
    expect(list.body.data.list[0]).toMatchObject({ nickname: 'A2', role: 'merchant' });
  });

  it('refuses renaming onto an existing account, and changing one’s own role', async () => {
    const id = await idOf('upd1');
    const clash = await t.call(users.updateUser, { id, nickname: 'A2', account: 'merchant1', role: 'merchant' }, admin);
    expect(clash.body).toMatchObject({ code: Code.conflict, msg: USER_TEXTS.accountExists });
    expect((await t.call(users.repairUser, { userId: id, newAccountName: 'Admin' }, admin)).body.code).toBe(409);
    const self = await idOf('admin');
    const own = await t.call(users.updateUser, { id: self, nickname: 'x', account: 'admin', role: 'merchant' }, admin);
    expect(own.body.code).toBe(Code.businessRule);
  });

  it('repairUser renames an account; it signs in under the new name', async () => {
    const id = await idOf('upd1');
    expect((await t.call(users.repairUser, { userId: id, newAccountName: 'upd2' }, admin)).body.code).toBe(200);
    const res = await t.call(endpoints.auth.login, { userName: 'upd2', password: 'second123' }, { ip: nextIp() });
    expect(res.body.code).toBe(200);
  });

  it('deleteUser needs token2, ends the sessions, blocks sign-in, refuses one’s own account', async () => {
    const id = await idOf('upd2');
    const session = await t.call(endpoints.auth.login, { userName: 'upd2', password: 'second123' }, { ip: nextIp() });
    const noToken2 = await t.call(users.deleteUser, { id }, { token: admin.token });
    expect(noToken2.body.code).toBe(Code.token2Required);
    expect((await t.call(users.deleteUser, { id }, admin)).body.code).toBe(200);
    const info = await t.call(endpoints.auth.getInfo, undefined, { token: session.body.data.token });
    expect(info.body.code).toBe(Code.sessionExpired);
    const again = await t.call(endpoints.auth.login, { userName: 'upd2', password: 'second123' }, { ip: nextIp() });
    expect(again.body.code).toBe(Code.wrongCredentials);
    expect((await t.call(users.deleteUser, { id }, admin)).body.code).toBe(Code.notFound);
    expect((await t.call(users.deleteUser, { id: await idOf('admin') }, admin)).body.code).toBe(Code.businessRule);
    // The list keeps it for history when asked.
    const withDeleted = await t.call(users.getUserList, { pageIndex: 1, account: 'upd2', includeDeleted: true }, admin);
    expect(withDeleted.body.data.list[0].deletedAt).not.toBeNull();
  });

  it('an admin may not delete a superAdmin', async () => {
    const res = await t.call(users.deleteUser, { id: await idOf('superadmin') }, admin);
    expect(res.body.code).toBe(Code.forbidden);
  });

  it('resetPayPassword makes the sign-in password serve as second-level password again', async () => {
    const id = await idOf('service');
    const res = await t.call(users.resetPayPassword, { id }, admin);
    expect(res.body.code).toBe(200);
    const service = await t.login('service');
    const granted = await t.call(endpoints.auth.login2, { password: 'demo1234', logInReason: 'after reset' }, service);
    expect(granted.body.code).toBe(200);
  });
});

describe('lists and options', () => {
  it('pages the user list: pageNum is a synonym of pageSize, total counts the filtered set', async () => {
    const page1 = await t.call(users.getUserList, { pageIndex: 1, pageNum: 3 }, admin);
    const page2 = await t.call(users.getUserList, { pageIndex: 2, pageNum: 3 }, admin);
    expect(page1.body.data.list).toHaveLength(3);
    expect(page1.body.data.pageSize).toBe(3);
    expect(page1.body.data.list[0].id).not.toBe(page2.body.data.list[0].id);
    const suppliers = await t.call(users.getUserList, { pageIndex: 1, role: 'supplier' }, admin);
    expect(suppliers.body.data.total).toBe(2);
    expect(JSON.stringify(page1.body)).not.toMatch(/\$argon2|passwordHash|googleSecret|tokenHash/);
  });

  it('getSupplierProxyList: admin sees every agent, a supplier only its own', async () => {
    const forAdmin = await t.call(users.getSupplierProxyList, { pageIndex: 1, pageNum: 20 }, admin);
    expect(forAdmin.body.data.list).toEqual([
      expect.objectContaining({ account: 'agent1', parentAccount: 'supplier1' }),
    ]);
    const supplier = await t.login('supplier1');
    const own = await t.call(users.getSupplierProxyList, { pageIndex: 1 }, supplier);
    expect(own.body.data.list.map((r: { account: string }) => r.account)).toEqual(['agent1']);
    await t.call(
      users.addUser,
      { nickname: 'S2', account: 'supplier2', password: 'supply123', access: 'supplier' },
      admin,
    );
    const other = await t.call(
      endpoints.auth.login,
      { userName: 'supplier2', password: 'supply123' },
      { ip: nextIp() },
    );
    const token = other.body.data.token as string;
    // supplier2's first session waits for its authenticator; allow sign-in without one for this check.
    await t.call(
      endpoints.auth.enableGoogleVerify,
      { userId: await idOf('supplier2'), enableGoogleVerify: false },
      admin,
    );
    const none = await t.call(users.getSupplierProxyList, { pageIndex: 1 }, { token });
    expect(none.body.data.total).toBe(0);
    expect(none.body.data.summary).toEqual({ balance: 0, frozenBalance: 0 });
    // The export is the same filtered set, in the same scope.
    expect((await downloadCsv(t, users.exportSupplierProxyList, {}, { token })).rows).toHaveLength(0);
    const mine = await downloadCsv(t, users.exportSupplierProxyList, { account: 'agent' }, supplier);
    expect(mine.rows).toHaveLength(1);
    expect(mine.rows[0]).toContain('agent1');
    const filtered = await t.call(users.getSupplierProxyList, { pageIndex: 1, account: 'nobody' }, admin);
    expect(filtered.body.data.total).toBe(0);
  });

  it('getSupplierProxyList: rows carry the agent’s supplier record and balances; summary sums them', async () => {
    const supplier = await t.login('supplier1');
    const before = await t.call(users.getSupplierProxyList, { pageIndex: 1 }, supplier);
    const agent = before.body.data.list[0];
    expect(agent).toMatchObject({ account: 'agent1', name: 'Agent One', enabled: true });
    expect(agent.supplierId).toBeGreaterThan(0);
    // Money onto the agent's ledger accounts shows in its row and in the summary.
    const services = buildServices({ config: t.config, database: t.database, clock: t.clock });
    await t.database.db.transaction((tx) =>
      services.ledger.transfer(tx, {
        idempotencyKey: 'users-test:agent-funds',
        type: 'test',
        note: 'test funding',
        postings: [
          { account: 'platform:adjustments', amount: -5_000_25 },
          { account: `supplier:${agent.supplierId}:available`, amount: 5_000_00 },
          { account: `supplier:${agent.supplierId}:frozen`, amount: 25 },
        ],
      }),
    );
    const after = await t.call(users.getSupplierProxyList, { pageIndex: 1 }, supplier);
    const row = after.body.data.list[0];
    expect(row.balance).toBe(agent.balance + 5_000_00);
    expect(row.frozenBalance).toBe(agent.frozenBalance + 25);
    const rows = after.body.data.list as Array<{ balance: number; frozenBalance: number }>;
    expect(after.body.data.summary).toEqual({
      balance: rows.reduce((s, r) => s + r.balance, 0),
      frozenBalance: rows.reduce((s, r) => s + r.frozenBalance, 0),
    });
    const forAdmin = await t.call(users.getSupplierProxyList, { pageIndex: 1 }, admin);
    expect(forAdmin.body.data.summary).toEqual(after.body.data.summary);
  });

  it('option lists: by role, suppliers with or without agents, unused merchant accounts', async () => {
    const merchants = await t.call(users.getUserOptions, { role: 'merchant' }, admin);
    expect(merchants.body.data.every((o: { role: string }) => o.role === 'merchant')).toBe(true);
    const top = await t.call(users.getSupplierUserOptions, {}, admin);
    expect(top.body.data.map((o: { account: string }) => o.account)).not.toContain('agent1');
    const withAgents = await t.call(users.getSupplierUserOptions, { isGetAllAgentSupplier: 'true' }, admin);
    expect(withAgents.body.data.map((o: { account: string }) => o.account)).toContain('agent1');
    const supplier = await t.login('supplier1');
    const team = await t.call(users.getSupplierUserOptions, { isGetAllAgentSupplier: 'true' }, supplier);
    expect(team.body.data.map((o: { account: string }) => o.account).sort()).toEqual(['agent1', 'supplier1']);
    // merchant1 is linked to the demo merchant; a new merchant account is not linked to anything yet.
    await t.call(
      users.addUser,
      { nickname: 'Shop', account: 'shop7', password: 'shop2024', access: 'merchant' },
      admin,
    );
    const unused = await t.call(users.getUnusedUserOptions, { role: 'merchant' }, admin);
    const accounts = unused.body.data.map((o: { account: string }) => o.account);
    expect(accounts).toContain('shop7');
    expect(accounts).not.toContain('merchant1');
  });
});

describe('exports', () => {
  it('the account list exports its filtered set as CSV, without secrets', async () => {
    const list = await t.call(users.getUserList, { pageIndex: 1, pageSize: 500, role: 'supplier' }, admin);
    const csv = await downloadCsv(t, users.exportUserList, { role: 'supplier' }, admin);
    expect(csv.status).toBe(200);
    expect(csv.header.split(',')).toContain('account');
    expect(csv.rows).toHaveLength(list.body.data.total);
    expect(csv.rows.join('\n')).not.toMatch(/\$argon2|passwordHash|googleSecret/);
  });

  it('sessions export: staff get everyone’s, a merchant only its own', async () => {
    const merchant = await t.login('merchant1');
    const mine = await downloadCsv(t, endpoints.auth.exportSessions, {}, merchant);
    expect(mine.rows.length).toBeGreaterThan(0);
    expect(mine.rows.every((r) => r.includes(',merchant1,'))).toBe(true);
    const all = await downloadCsv(t, endpoints.auth.exportSessions, {}, admin);
    expect(all.rows.some((r) => r.includes(',admin,'))).toBe(true);
    expect(all.rows.some((r) => r.includes(',merchant1,'))).toBe(true);
  });
});
