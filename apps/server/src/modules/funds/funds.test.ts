import { Code, type Endpoint, endpoints, FUNDS_TEXTS, ROLES, type Role } from '@paydesk/contract';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServices } from '../../app.js';
import {
  balanceProposals,
  ledgerTransfers,
  merchants,
  messageRecipients,
  messages,
  suppliers,
  users,
} from '../../db/schema.js';
import { DEMO_ACCOUNTS } from '../../seed/seed.js';
import { type Auth, downloadCsv, snapshot, startTestApp, type TestApp } from '../../testing/harness.js';

const { funds, ledger } = endpoints;
let t: TestApp;
const as = new Map<string, Auth>();
const auth = (account: string) => as.get(account)!;
const userIds = new Map<string, number>();
const partyIds = new Map<string, number>();

beforeAll(async () => {
  t = await startTestApp();
  for (const demo of DEMO_ACCOUNTS) as.set(demo.account, await t.loginWithToken2(demo.account));
  for (const u of await t.database.db.select().from(users)) userIds.set(u.account, u.id);
  const linked = [
    ...(await t.database.db.select({ id: merchants.id, userId: merchants.userId }).from(merchants)),
    ...(await t.database.db.select({ id: suppliers.id, userId: suppliers.userId }).from(suppliers)),
  ];
  for (const [account, id] of userIds) {
    const party = linked.find((p) => p.userId === id);
    if (party) partyIds.set(account, party.id);
  }
});
afterAll(() => t.close());

const partyOf = (account: string) => {
  const id = partyIds.get(account);
  if (id === undefined) throw new Error(`the demo seed links no merchant or supplier record to ${account}`);
  return id;
};

async function expectLedgerOk() {
  const res = await t.call(ledger.ledgerCheck, {}, auth('superadmin'));
  expect(res.body.data).toEqual({ ok: true, violations: [] });
}

const balanceOf = async (account: string) => (await t.call(funds.getTotalBalance, {}, auth(account))).body.data;

async function propose(input: Record<string, unknown>, by = 'admin') {
  const res = await t.call(funds.propose, input, auth(by));
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data.id as number;
}

async function proposal(id: number) {
  const [row] = await t.database.db.select().from(balanceProposals).where(eq(balanceProposals.id, id));
  return row!;
}

const transfersOf = (id: number) =>
  t.database.db
    .select()
    .from(ledgerTransfers)
    .where(eq(ledgerTransfers.idempotencyKey, `proposal:${id}`));

const records = async (account: string, filters: Record<string, unknown> = {}) =>
  (await t.call(funds.getFundRecordList, { pageIndex: 1, pageSize: 500, ...filters }, auth(account))).body.data;

describe('the demo funds', () => {
  it('give each party its balance through approved proposals; staff see the platform totals; the ledger checks out', async () => {
    expect(await balanceOf('merchant1')).toEqual({
      kind: 'merchant',
      balance: 500_000,
      frozenBalance: 0,
      revenue: null,
    });
    expect(await balanceOf('supplier1')).toEqual({
      kind: 'supplier',
      balance: 10_000_000,
      frozenBalance: 0,
      revenue: null,
    });
    expect(await balanceOf('agent1')).toEqual({
      kind: 'supplier',
      balance: 2_000_000,
      frozenBalance: 0,
      revenue: null,
    });
    for (const staff of ['superadmin', 'admin', 'service', 'maintenance', 'support']) {
      expect(await balanceOf(staff)).toEqual({ kind: 'platform', balance: 12_500_000, frozenBalance: 0, revenue: 0 });
    }
    const seeded = await t.database.db.select().from(balanceProposals);
    expect(seeded.map((p) => [p.kind, p.amount, p.state, p.note])).toEqual([
      ['deposit', 10_000_000, 'approved', 'opening deposit (demo)'],
      ['deposit', 2_000_000, 'approved', 'opening deposit (demo)'],
      ['adjust', 500_000, 'approved', 'opening balance (demo)'],
    ]);
    expect(
      seeded.every((p) => p.proposedBy === userIds.get('admin') && p.decidedBy === userIds.get('superadmin')),
    ).toBe(true);
    await expectLedgerOk();
  });
});

describe('fund records', () => {
  it('merchant1 sees only its own entries, with balance before and after; other parties’ filters find nothing', async () => {
    const mine = await records('merchant1');
    expect(mine.list.length).toBeGreaterThan(0);
    for (const row of mine.list) {
      expect(row).toMatchObject({ partyKind: 'merchant', partyId: partyOf('merchant1'), account: 'merchant1' });
    }
    expect(mine.list.at(-1)).toMatchObject({
      type: 'manualAdjustment',
      bucket: 'available',
      amount: 500_000,
      balanceBefore: 0,
      balanceAfter: 500_000,
      note: 'opening balance (demo)',
      userId: userIds.get('merchant1'),
      partyName: expect.any(String),
    });
    expect((await records('merchant1', { partyKind: 'supplier' })).total).toBe(0);
    expect((await records('merchant1', { userId: userIds.get('supplier1') })).total).toBe(0);
  });

  it('a supplier sees its own entries, not its agents’', async () => {
    const mine = await records('supplier1');
    expect(mine.list.length).toBeGreaterThan(0);
    expect(mine.list.every((r: { account: string }) => r.account === 'supplier1')).toBe(true);
    expect((await records('supplier1', { userId: userIds.get('agent1') })).total).toBe(0);
    const agent = await records('agent1');
    expect(agent.list.every((r: { account: string }) => r.account === 'agent1')).toBe(true);
  });

  it('staff see every party’s entries, never the platform accounts’, and filter them', async () => {
    for (const staff of ['superadmin', 'admin', 'service', 'maintenance']) {
      const all = await records(staff);
      const accounts = new Set(all.list.map((r: { account: string }) => r.account));
      expect(accounts).toEqual(new Set(['merchant1', 'supplier1', 'agent1']));
      expect(all.list.every((r: { partyKind: string }) => r.partyKind !== ('platform' as string))).toBe(true);
    }
    const agent = await records('admin', { partyKind: 'supplier', userId: userIds.get('agent1') });
    expect(agent.list.map((r: { amount: number; type: string }) => [r.amount, r.type])).toEqual([
      [2_000_000, 'deposit'],
    ]);
    expect(agent.summary).toEqual({ amount: 2_000_000, income: 2_000_000, expense: 0 });
    expect((await records('admin', { bucket: 'frozen' })).total).toBe(0);
    expect((await records('admin', { type: 'deposit' })).total).toBeGreaterThanOrEqual(2);
    expect((await records('admin', { orderCode: 'NO-SUCH-ORDER' })).total).toBe(0);
    // Money filters in major units, with the console's 0.0001 added.
    const big = await records('admin', { minAmount: '20000.0001', maxAmount: '20000.0001' });
    expect(big.list.map((r: { account: string }) => r.account)).toEqual(['agent1']);
    expect((await records('admin', { startTime: '2999-01-01 00:00:00' })).total).toBe(0);
    expect((await records('admin', { endTime: '2000-01-01 00:00:00' })).total).toBe(0);
    const byAmount = await records('admin', { sortBy: 'amount', sortOrder: 'asc' });
    const amounts = byAmount.list.map((r: { amount: number }) => r.amount);
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
  });

  it('the CSV export has the list’s rows and its amount column sums to the list’s summary (merchant1: only its own)', async () => {
    for (const [account, filters] of [
      ['merchant1', {}],
      ['admin', {}],
      ['admin', { partyKind: 'supplier' }],
    ] as const) {
      const list = await records(account, filters);
      const csv = await downloadCsv(t, funds.exportFundRecords, filters, auth(account));
      expect(csv.status).toBe(200);
      const columns = csv.header.split(',');
      const amountAt = columns.indexOf('amount');
      const accountAt = columns.indexOf('account');
      expect(csv.rows).toHaveLength(list.total);
      const sum = csv.rows.reduce((s, line) => s + Number(line.split(',')[amountAt]), 0);
      expect(sum).toBe(list.summary.amount);
      if (account === 'merchant1') expect(csv.rows.every((l) => l.split(',')[accountAt] === 'merchant1')).toBe(true);
    }
  });
});

describe('the fund records export in keyset batches', () => {
  it('keeps the list’s order for every sort across batch boundaries', async () => {
    const service = buildServices({ config: t.config, database: t.database, clock: t.clock }).funds;
    for (const sort of [
      {},
      { sortBy: 'amount', sortOrder: 'asc' },
      { sortBy: 'amount', sortOrder: 'desc' },
      { sortBy: 'createdAt', sortOrder: 'asc' },
    ] as const) {
      const list = await records('admin', sort);
      const exported: number[] = [];
      for await (const row of service.exportFundRecords({ all: true }, sort, 2)) exported.push(row.id);
      expect(exported, JSON.stringify(sort)).toEqual(list.list.map((r: { id: number }) => r.id));
    }
  });
});

describe('maker-checker', () => {
  it('refuses the proposer approving, moving nothing; another staff account’s approval posts one transfer', async () => {
    const supplier = partyOf('supplier1');
    const id = await propose({
      partyKind: 'supplier',
      partyId: supplier,
      kind: 'deposit',
      amount: 123_456,
      note: 'top-up',
    });
    const before = await snapshot(t.database);
    const own = await t.call(funds.approve, { id }, auth('admin'));
    expect(own.status).toBe(422);
    expect(own.body).toMatchObject({ msg: FUNDS_TEXTS.selfApproval, data: { reason: 'selfApproval' } });
    expect(await snapshot(t.database)).toBe(before);
    expect((await proposal(id)).state).toBe('pending');

    const balance = (await balanceOf('supplier1')).balance as number;
    const approved = await t.call(funds.approve, { id }, auth('superadmin'));
    expect(approved.body.code).toBe(200);
    const transfers = await transfersOf(id);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({
      type: 'deposit',
      note: 'top-up',
      actorUserId: userIds.get('superadmin'),
      id: approved.body.data.transferId,
    });
    expect(await proposal(id)).toMatchObject({
      state: 'approved',
      decidedBy: userIds.get('superadmin'),
      transferId: transfers[0]!.id,
    });
    expect((await balanceOf('supplier1')).balance).toBe(balance + 123_456);
    const entry = (await records('supplier1')).list.find(
      (r: { transferId: number }) => r.transferId === transfers[0]!.id,
    );
    expect(entry).toMatchObject({ amount: 123_456, balanceBefore: balance, balanceAfter: balance + 123_456 });
    await expectLedgerOk();

    // The proposer is told, in their inbox.
    const [told] = await t.database.db
      .select({ title: messages.title })
      .from(messageRecipients)
      .innerJoin(messages, eq(messages.id, messageRecipients.messageId))
      .where(and(eq(messageRecipients.userId, userIds.get('admin')!), like(messages.title, `%#${id} approved`)));
    expect(told).toBeTruthy();

    const again = await t.call(funds.approve, { id }, auth('superadmin'));
    expect(again.status).toBe(409);
    expect(again.body.data).toEqual({ reason: 'notPending' });
    expect(await transfersOf(id)).toHaveLength(1);
  });

  it('refuses a withdrawal above the balance with insufficient balance; the proposal stays pending', async () => {
    const balance = (await balanceOf('agent1')).balance as number;
    const id = await propose({
      partyKind: 'supplier',
      partyId: partyOf('agent1'),
      kind: 'withdraw',
      amount: balance + 1,
      note: 'payout to agent bank account',
    });
    const before = await snapshot(t.database);
    const res = await t.call(funds.approve, { id }, auth('superadmin'));
    expect(res.status).toBe(422);
    expect(res.body.data).toEqual({ reason: 'insufficientBalance' });
    expect(await snapshot(t.database)).toBe(before);
    expect((await proposal(id)).state).toBe('pending');
    expect(await transfersOf(id)).toHaveLength(0);

    // Rejected by the proposer (any decider may reject), then nothing more happens to it.
    const rejected = await t.call(funds.reject, { id, reason: 'amount too high' }, auth('admin'));
    expect(rejected.body.code).toBe(200);
    expect(await proposal(id)).toMatchObject({ state: 'rejected', decisionNote: 'amount too high' });
    expect((await t.call(funds.approve, { id }, auth('superadmin'))).status).toBe(409);
    expect((await t.call(funds.reject, { id, reason: 'again' }, auth('superadmin'))).status).toBe(409);
    await expectLedgerOk();
  });

  it('a withdrawal within the balance posts a negative entry against the supplier', async () => {
    const balance = (await balanceOf('agent1')).balance as number;
    const id = await propose({
      partyKind: 'supplier',
      partyId: partyOf('agent1'),
      kind: 'withdraw',
      amount: 50_000,
      note: 'w',
    });
    expect((await t.call(funds.approve, { id }, auth('superadmin'))).body.code).toBe(200);
    expect((await balanceOf('agent1')).balance).toBe(balance - 50_000);
    const [row] = (await records('agent1', { type: 'withdrawal' })).list;
    expect(row).toMatchObject({ amount: -50_000, balanceBefore: balance, balanceAfter: balance - 50_000 });
    await expectLedgerOk();
  });

  it('two concurrent approvals of one proposal post it once', async () => {
    const id = await propose({
      partyKind: 'merchant',
      partyId: partyOf('merchant1'),
      kind: 'adjust',
      amount: -1_000,
      note: 'fee correction',
    });
    const balance = (await balanceOf('merchant1')).balance as number;
    const results = await Promise.all([
      t.call(funds.approve, { id }, auth('superadmin')),
      t.call(funds.approve, { id }, auth('superadmin')),
    ]);
    expect(results.map((r) => r.body.code).sort()).toEqual([200, 409]);
    expect(await transfersOf(id)).toHaveLength(1);
    expect((await balanceOf('merchant1')).balance).toBe(balance - 1_000);
    await expectLedgerOk();
  });

  it('a rejection tells the proposer; cancel is the proposer’s own (403 for others, 409 once decided)', async () => {
    const merchant = partyOf('merchant1');
    const rejectMe = await propose({ partyKind: 'merchant', partyId: merchant, kind: 'adjust', amount: 10, note: 'x' });
    expect((await t.call(funds.reject, { id: rejectMe, reason: 'no ticket' }, auth('superadmin'))).body.code).toBe(200);
    const [told] = await t.database.db
      .select({ content: messages.content })
      .from(messageRecipients)
      .innerJoin(messages, eq(messages.id, messageRecipients.messageId))
      .where(and(eq(messageRecipients.userId, userIds.get('admin')!), like(messages.title, `%#${rejectMe} rejected`)));
    expect(told?.content).toContain('no ticket');

    const id = await propose({ partyKind: 'merchant', partyId: merchant, kind: 'adjust', amount: 10, note: 'y' });
    const other = await t.call(funds.cancel, { id }, auth('superadmin'));
    expect(other.status).toBe(403);
    expect(other.body.data).toEqual({ reason: 'notProposer' });
    expect((await t.call(funds.cancel, { id }, auth('admin'))).body.code).toBe(200);
    expect((await proposal(id)).state).toBe('cancelled');
    expect((await t.call(funds.cancel, { id }, auth('admin'))).status).toBe(409);
    expect((await t.call(funds.approve, { id }, auth('superadmin'))).status).toBe(409);
    expect((await t.call(funds.cancel, { id: 999_999 }, auth('admin'))).status).toBe(404);
  });

  it('clearing respects CanClearMerchantBalance, clears the whole available balance, and refuses when it is 0', async () => {
    const merchant = partyOf('merchant1');
    const input = { partyKind: 'merchant', partyId: merchant, kind: 'clear', note: 'account closed' };
    const off = await t.call(funds.propose, input, auth('admin'));
    expect(off.status).toBe(422);
    expect(off.body.data).toEqual({ reason: 'clearDisabled' });

    await t.setSetting('CanClearMerchantBalance', true);
    try {
      const balance = (await balanceOf('merchant1')).balance as number;
      expect(balance).toBeGreaterThan(0);
      const id = await propose(input);
      // A second clearing proposed while there is still a balance: approved after the first, it finds 0.
      const second = await propose(input);
      expect((await proposal(id)).amount).toBeNull();
      expect((await t.call(funds.approve, { id }, auth('superadmin'))).body.code).toBe(200);
      expect((await balanceOf('merchant1')).balance).toBe(0);
      const [row] = (await records('merchant1', { type: 'clearBalance' })).list;
      expect(row).toMatchObject({ amount: -balance, balanceBefore: balance, balanceAfter: 0 });

      const res = await t.call(funds.approve, { id: second }, auth('superadmin'));
      expect(res.status).toBe(422);
      expect(res.body.data).toEqual({ reason: 'nothingToClear' });
      expect((await proposal(second)).state).toBe('pending');
      // With nothing to clear, a clearing is not even proposed (the contract's proposal rule).
      const empty = await t.call(funds.propose, input, auth('admin'));
      expect(empty.status).toBe(422);
      expect(empty.body.data).toEqual({ reason: 'nothingToClear' });
      await expectLedgerOk();
    } finally {
      await t.setSetting('CanClearMerchantBalance', undefined);
    }
    // Put merchant1's demo balance back for the tests after this one.
    const back = await propose({
      partyKind: 'merchant',
      partyId: merchant,
      kind: 'adjust',
      amount: 500_000,
      note: 'b',
    });
    expect((await t.call(funds.approve, { id: back }, auth('superadmin'))).body.code).toBe(200);
  });

  it('refuses kinds that do not fit the party, bad amounts (400), an unknown party (404), and needs token2', async () => {
    const merchant = partyOf('merchant1');
    const supplier = partyOf('supplier1');
    const before = await snapshot(t.database);
    const bad = [
      { partyKind: 'supplier', partyId: supplier, kind: 'clear', note: 'n' },
      { partyKind: 'merchant', partyId: merchant, kind: 'deposit', amount: 100, note: 'n' },
      { partyKind: 'merchant', partyId: merchant, kind: 'withdraw', amount: 100, note: 'n' },
      { partyKind: 'merchant', partyId: merchant, kind: 'adjust', amount: 0, note: 'n' },
      { partyKind: 'merchant', partyId: merchant, kind: 'adjust', note: 'n' },
      { partyKind: 'supplier', partyId: supplier, kind: 'deposit', amount: -100, note: 'n' },
      { partyKind: 'supplier', partyId: supplier, kind: 'deposit', amount: 1.5, note: 'n' },
      { partyKind: 'merchant', partyId: merchant, kind: 'clear', amount: 100, note: 'n' },
      { partyKind: 'merchant', partyId: merchant, kind: 'adjust', amount: 100, note: '   ' },
    ];
    for (const input of bad) {
      const res = await t.call(funds.propose, input, auth('admin'));
      expect(res.status, JSON.stringify(input)).toBe(400);
    }
    const unknown = await t.call(
      funds.propose,
      { partyKind: 'merchant', partyId: 99_999, kind: 'adjust', amount: 1, note: 'n' },
      auth('admin'),
    );
    expect(unknown.status).toBe(404);
    const noToken2 = await t.call(
      funds.propose,
      { partyKind: 'merchant', partyId: merchant, kind: 'adjust', amount: 1, note: 'n' },
      { token: auth('admin').token },
    );
    expect(noToken2.body.code).toBe(Code.token2Required);
    expect(await snapshot(t.database)).toBe(before);
  });

  it('every change is audited', async () => {
    const rows = await t.call(
      endpoints.audit.getList,
      { pageIndex: 1, pageSize: 500, action: 'funds.' },
      auth('admin'),
    );
    const actions = new Set(rows.body.data.list.map((r: { action: string }) => r.action));
    expect(actions).toEqual(new Set(['funds.propose', 'funds.approve', 'funds.reject', 'funds.cancel']));
  });
});

describe('the proposal list', () => {
  it('filters, sums the amounts, names the party and the accounts, and exports the same set', async () => {
    const all = await t.call(funds.getProposalList, { pageIndex: 1, pageSize: 500 }, auth('service'));
    expect(all.body.code).toBe(200);
    const rows = all.body.data.list as Array<{
      amount: number | null;
      state: string;
      kind: string;
      proposedBy: string;
    }>;
    expect(all.body.data.summary.amount).toBe(rows.reduce((s, r) => s + (r.amount ?? 0), 0));
    expect(rows.every((r) => r.proposedBy === 'admin')).toBe(true);
    const pending = await t.call(funds.getProposalList, { pageIndex: 1, state: 'pending' }, auth('admin'));
    expect(pending.body.data.total).toBe(rows.filter((r) => r.state === 'pending').length);
    expect(pending.body.data.total).toBeGreaterThan(0);
    const deposits = await t.call(
      funds.getProposalList,
      { pageIndex: 1, partyKind: 'supplier', partyId: partyOf('supplier1'), kind: 'deposit' },
      auth('maintenance'),
    );
    expect(deposits.body.data.list[0]).toMatchObject({
      partyKind: 'supplier',
      kind: 'deposit',
      partyName: expect.any(String),
      decidedBy: 'superadmin',
    });

    const csv = await downloadCsv(t, funds.exportProposals, {}, auth('admin'));
    expect(csv.rows).toHaveLength(all.body.data.total);
    const amountAt = csv.header.split(',').indexOf('amount');
    const sum = csv.rows.reduce((s, line) => s + Number(line.split(',')[amountAt] || 0), 0);
    expect(sum).toBe(all.body.data.summary.amount);
  });
});

describe('every call x every role', () => {
  const cases: Array<[string, Endpoint, Record<string, unknown>]> = [
    ['getFundRecordList', funds.getFundRecordList, { pageIndex: 1 }],
    ['getTotalBalance', funds.getTotalBalance, {}],
    ['getProposalList', funds.getProposalList, { pageIndex: 1 }],
    // Valid input about a proposal that does not exist: allowed roles reach the service (404).
    ['approve', funds.approve, { id: 999_999 }],
    ['reject', funds.reject, { id: 999_999, reason: 'r' }],
    ['cancel', funds.cancel, { id: 999_999 }],
    ['propose', funds.propose, { partyKind: 'merchant', partyId: 999_999, kind: 'adjust', amount: 1, note: 'n' }],
  ];
  const allowed: Record<string, readonly Role[]> = {
    getFundRecordList: ['superAdmin', 'admin', 'customerService', 'technicalMaintenance', 'merchant', 'supplier'],
    getTotalBalance: ROLES,
    getProposalList: ['superAdmin', 'admin', 'customerService', 'technicalMaintenance'],
    approve: ['superAdmin', 'admin'],
    reject: ['superAdmin', 'admin'],
    cancel: ['superAdmin', 'admin'],
    propose: ['superAdmin', 'admin'],
  };
  it.each(cases)('%s', async (name, endpoint, input) => {
    for (const role of ROLES) {
      const demo = DEMO_ACCOUNTS.find((a) => a.role === role && !a.parent)!;
      const res = await t.call(endpoint, input, auth(demo.account));
      if (allowed[name]!.includes(role)) {
        expect([200, 404], `${role}: ${JSON.stringify(res.body)}`).toContain(res.body.code);
      } else {
        expect(res.status, role).toBe(403);
      }
    }
  });
  it('the exports', async () => {
    for (const exportEndpoint of [funds.exportFundRecords, funds.exportProposals]) {
      for (const role of ROLES) {
        const demo = DEMO_ACCOUNTS.find((a) => a.role === role && !a.parent)!;
        const csv = await downloadCsv(t, exportEndpoint, {}, auth(demo.account));
        expect(csv.status, `${exportEndpoint.path} ${role}`).toBe(exportEndpoint.access.includes(role) ? 200 : 403);
      }
    }
  });
});
