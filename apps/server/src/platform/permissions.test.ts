import { Code, type Endpoint, listEndpoints, ROLES, type Role } from '@paydesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../seed/seed.js';
import { type Auth, startTestApp, type TestApp } from '../testing/harness.js';

/**
 * The permission matrix: every endpoint of the contract x every role, against the real server.
 * Each call carries an input no schema accepts (an unknown field), so nothing changes: a role the
 * contract allows gets past the guards to validation (400), a role it does not list is refused by
 * the guard (403, reason roleDenied) before its input is even read.
 */
let t: TestApp;
const sessions = new Map<Role, Auth>();

beforeAll(async () => {
  t = await startTestApp();
  for (const role of ROLES) {
    const demo = DEMO_ACCOUNTS.find((a) => a.role === role && !a.parent)!;
    sessions.set(role, await t.loginWithToken2(demo.account));
  }
});
afterAll(() => t.close());

const probe = { __matrixProbe: '1' };
const all = listEndpoints();

describe('every endpoint of the contract', () => {
  it('is registered by the server', () => {
    for (const { id, endpoint } of all) {
      expect(t.app.hasRoute({ method: endpoint.method, url: endpoint.path }), id).toBe(true);
    }
  });

  it('is in the OpenAPI document at /docs/json', async () => {
    const doc = (await t.app.inject({ url: '/docs/json' })).json() as { paths: Record<string, unknown> };
    for (const { endpoint } of all) expect(Object.keys(doc.paths)).toContain(endpoint.path);
  });
});

describe.each(all.filter((e) => e.endpoint.access !== 'public'))('$id', ({ endpoint }) => {
  it('answers 1003 without a session', async () => {
    const res = await t.call(endpoint, probe);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(Code.sessionExpired);
  });

  it.each(ROLES.map((role) => [role]))('%s: allowed exactly when the contract lists the role', async (role) => {
    const res = await t.call(endpoint as Endpoint, probe, sessions.get(role));
    const allowed = (endpoint.access as readonly Role[]).includes(role);
    if (allowed) {
      expect(res.body.code, JSON.stringify(res.body)).toBe(Code.invalidInput);
    } else {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: Code.forbidden, data: { reason: 'roleDenied' } });
    }
  });
});

describe('public endpoints', () => {
  it.each(
    all.filter((e) => e.endpoint.access === 'public').map((e) => [e.id, e.endpoint] as const),
  )('%s reaches validation without a session', async (_id, endpoint) => {
    expect((await t.call(endpoint, probe)).body.code).toBe(Code.invalidInput);
  });
});

describe('the issue’s own examples', () => {
  it('merchant1 calling getUserList gets 403; without token2 deleteUser gets 1024', async () => {
    const { endpoints } = await import('@paydesk/contract');
    const merchant = await t.login('merchant1');
    expect((await t.call(endpoints.users.getUserList, { pageIndex: 1 }, merchant)).status).toBe(403);
    const admin = await t.login('admin');
    const res = await t.call(endpoints.users.deleteUser, { id: 3 }, admin);
    expect(res.body.code).toBe(Code.token2Required);
  });
});
