import { AGENT_ACTIONS, type AgentAction, agentActionRefusal, endpoints, type Role } from '@paydesk/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.js';
import { type Auth, changeMark, nextIp, startTestApp, type TestApp } from '../../testing/harness.js';

/**
 * The agent actions the console offers are exactly the ones the server accepts (issue 18): for every
 * role (an agent and a second top-level supplier among them) and an agent of supplier1's team, one of
 * another supplier's team and a deleted one of supplier1's, an action is offered when the agent is a
 * row of the caller's agent list and the contract's `agentActionRefusal` allows it (what the page
 * computes); every offered action is then accepted, every other refused with nothing changed.
 */
const { suppliers, users: userApi } = endpoints;
let t: TestApp;
const CALLERS = [
  'superadmin',
  'admin',
  'service',
  'maintenance',
  'support',
  'supplier1',
  'agent1',
  'merchant1',
  'other',
] as const;
type Caller = (typeof CALLERS)[number];
const auth = {} as Record<Caller, Auth>;
const callerOf = {} as Record<Caller, { userId: number; role: Role }>;

interface Agent {
  label: string;
  /** The agent's supplier record (agentId of the calls). */
  supplierId: number;
  account: string;
}
const agents: Agent[] = [];

async function createAgent(who: Auth, account: string): Promise<Agent> {
  const res = await t.call(
    suppliers.createAgent,
    { account, nickname: account, password: 'agent2024', name: `Agent ${account}` },
    who,
  );
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return { label: account, supplierId: res.body.data.id, account };
}

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimitFactor: 1000 } });
  for (const caller of CALLERS) if (caller !== 'other') auth[caller] = await t.loginWithToken2(caller);
  // A second top-level supplier, signing in with its password (no authenticator bound yet).
  const other = await t.call(
    suppliers.create,
    { name: 'Other Supplier', mode: 'newAccount', account: 'other', password: 'other2024', remark: '' },
    auth.admin,
  );
  expect(other.body.code).toBe(200);
  await t.database.db.update(users).set({ enableGoogleVerify: false }).where(eq(users.id, other.body.data.userId));
  const login = await t.call(endpoints.auth.login, { userName: 'other', password: 'other2024' }, { ip: nextIp() });
  auth.other = { token: login.body.data.token };
  for (const u of await t.database.db.select().from(users)) {
    const caller = CALLERS.find((c) => c === u.account);
    if (caller) callerOf[caller] = { userId: u.id, role: u.role as Role };
  }

  const own = await createAgent(auth.supplier1, 'ownagent');
  const others = await createAgent(auth.other, 'theiragent');
  const gone = await createAgent(auth.supplier1, 'goneagent');
  const [goneUser] = await t.database.db.select().from(users).where(eq(users.account, 'goneagent'));
  const deleted = await t.call(userApi.deleteUser, { id: goneUser!.id }, auth.admin);
  expect(deleted.body.code).toBe(200);
  agents.push(
    { ...own, label: 'an agent of supplier1' },
    { ...others, label: 'an agent of another supplier' },
    { ...gone, label: 'a deleted agent of supplier1' },
  );
});
afterAll(() => t.close());

/** The agent's row in the caller's agent list, and the actions the page offers on it. */
async function offered(agent: Agent, caller: Caller): Promise<AgentAction[]> {
  const list = await t.call(userApi.getSupplierProxyList, { pageIndex: 1, pageSize: 100 }, auth[caller]);
  if (list.body.code !== 200) return [];
  const row = list.body.data.list.find((r: { supplierId: number }) => r.supplierId === agent.supplierId);
  if (!row) return [];
  return AGENT_ACTIONS.filter((a) => agentActionRefusal(a, callerOf[caller], { parentUserId: row.parentId }) === null);
}

/** Takes the action as the caller; answers whether the server accepted it. */
async function take(action: AgentAction, agent: Agent, caller: Caller): Promise<{ accepted: boolean; body: unknown }> {
  const who = auth[caller];
  const base = { agentId: agent.supplierId, name: `Agent ${agent.account}`, nickname: agent.account };
  const ok = (res: { body: { code: number } }) => res.body.code === 200;
  if (action === 'edit') {
    const res = await t.call(suppliers.updateAgent, { ...base, enabled: true }, who);
    return { accepted: ok(res), body: res.body };
  }
  if (action === 'setEnabled') {
    const off = await t.call(suppliers.updateAgent, { ...base, enabled: false }, who);
    if (!ok(off)) return { accepted: false, body: off.body };
    const on = await t.call(suppliers.updateAgent, { ...base, enabled: true }, who);
    return { accepted: ok(on), body: on.body };
  }
  // The commission dialog reads the rates (the caller's enabled products), then saves one of them at
  // most the caller's own rate; without any, it only reads (saving is disabled).
  const rates = await t.call(suppliers.getAgentCommissions, { agentId: agent.supplierId }, who);
  if (!ok(rates)) return { accepted: false, body: rates.body };
  const [first] = rates.body.data as Array<{ productId: number; parentRate: number }>;
  const product = first ?? { productId: 1001, parentRate: 0 };
  const save = await t.call(
    suppliers.setAgentCommission,
    { agentId: agent.supplierId, productId: product.productId, commissionRate: Math.min(100, product.parentRate) },
    who,
  );
  if (!first) return { accepted: !ok(save), body: save.body };
  return { accepted: ok(save), body: save.body };
}

describe('the console offers exactly the agent actions the server accepts', () => {
  it('every role x own, another team’s and a deleted agent', { timeout: 120_000 }, async () => {
    const seen = new Set<string>();
    for (const agent of agents) {
      for (const caller of CALLERS) {
        const offers = await offered(agent, caller);
        const before = await changeMark(t.database);
        for (const action of AGENT_ACTIONS.filter((a) => !offers.includes(a))) {
          const { accepted, body } = await take(action, agent, caller);
          expect(accepted, `${caller} ${action} on ${agent.label} is not offered: ${JSON.stringify(body)}`).toBe(false);
        }
        expect(await changeMark(t.database), `a refused action of ${caller} changed something`).toBe(before);
        for (const action of offers) {
          seen.add(`${caller}:${agent.label}:${action}`);
          const { accepted, body } = await take(action, agent, caller);
          expect(accepted, `${caller} ${action} on ${agent.label} is offered: ${JSON.stringify(body)}`).toBe(true);
        }
      }
    }
    // Only a supplier on its own live agent, and every action there.
    expect([...seen].sort()).toEqual(
      [
        ...AGENT_ACTIONS.map((a) => `supplier1:an agent of supplier1:${a}`),
        ...AGENT_ACTIONS.map((a) => `other:an agent of another supplier:${a}`),
      ].sort(),
    );
  });
});
