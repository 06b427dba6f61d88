import { Code, type Endpoint, endpoints, listEndpoints, ROLES, type Role } from '@paydesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../seed/seed.js';
import { objectOf } from '../testing/fuzz.js';
import { type Auth, snapshot, startTestApp, type TestApp } from '../testing/harness.js';

/**
 * Malformed input, generated from the contract's schemas for every endpoint: wrong types, missing
 * fields, unknown fields, bodies that are not JSON or are too big. Every one must answer 400 with
 * issues, never 500, and change nothing in the database.
 */
let t: TestApp;
const sessions = new Map<Role, Auth>();

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimitFactor: 1000 } });
  for (const role of ROLES) {
    const demo = DEMO_ACCOUNTS.find((a) => a.role === role && !a.parent)!;
    sessions.set(role, await t.loginWithToken2(demo.account));
  }
  // Each sign-in moved the test clock to a fresh authenticator step: use every session once now, so
  // its once-a-minute "last seen" write happens here and not inside a case's before/after snapshot.
  for (const auth of sessions.values()) await t.call(endpoints.auth.getInfo, undefined, auth);
});

/** A session that gets past the role guard: superAdmin's, or the first role the endpoint allows. */
function callerOf(endpoint: Endpoint): Auth {
  const allowed =
    endpoint.access === 'public' || endpoint.access.includes('superAdmin') ? 'superAdmin' : endpoint.access[0]!;
  return sessions.get(allowed)!;
}
afterAll(() => t.close());

const JSON_CANDIDATES: unknown[] = [{ nested: true }, [1, 2], 'x', 123_456_789_012, true, null, -1, 'é'.repeat(400)];
const QUERY_CANDIDATES = ['abc', '-1', '0', '1.5', 'x'.repeat(400), 'null', ''];

interface BadInput {
  label: string;
  input: unknown;
}

/** Inputs the schema refuses: each field with each wrong value, each required field missing, an unknown field. */
function badInputs(endpoint: Endpoint): BadInput[] {
  const obj = objectOf(endpoint.input);
  const example = (endpoint.example ?? {}) as Record<string, unknown>;
  const isGet = endpoint.method === 'GET';
  const asSent = (v: Record<string, unknown>) =>
    isGet ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)])) : v;
  const refused = (v: Record<string, unknown>) => !endpoint.input.safeParse(asSent(v)).success;
  const out: BadInput[] = [{ label: 'unknown field', input: { ...example, unexpectedField: '1' } }];
  if (!obj) return out;
  for (const key of Object.keys(obj.shape)) {
    const candidates = isGet ? QUERY_CANDIDATES : JSON_CANDIDATES;
    for (const value of candidates) {
      const input = { ...example, [key]: value };
      if (refused(input)) out.push({ label: `${key}=${JSON.stringify(value).slice(0, 20)}`, input });
    }
    const { [key]: _dropped, ...without } = example;
    if (refused(without)) out.push({ label: `without ${key}`, input: without });
  }
  return out;
}

describe.each(listEndpoints().map(({ id, endpoint }) => ({ id, endpoint })))('$id', ({ endpoint }) => {
  const cases = badInputs(endpoint);

  it(`refuses ${cases.length} generated bad inputs with 400 and changes nothing`, async () => {
    const before = await snapshot(t.database);
    for (const c of cases) {
      const res = await t.call(endpoint, c.input, callerOf(endpoint));
      expect(res.status, `${c.label}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.code).toBe(Code.invalidInput);
      expect(res.body.data.issues.length, c.label).toBeGreaterThan(0);
    }
    expect(await snapshot(t.database)).toBe(before);
  });

  if (endpoint.method === 'POST') {
    it('refuses bodies that are not a JSON object with 400, or are too large with 413', async () => {
      const before = await snapshot(t.database);
      const bodies: Array<{ payload: string; type: string }> = [
        { payload: '{"oops":', type: 'application/json' },
        { payload: '[]', type: 'application/json' },
        { payload: '"text"', type: 'application/json' },
        { payload: '42', type: 'application/json' },
        { payload: 'a=1&b=2', type: 'text/plain' },
        { payload: `{"x":"${'y'.repeat(1_100_000)}"}`, type: 'application/json' },
      ];
      const caller = callerOf(endpoint);
      for (const b of bodies) {
        const res = await t.app.inject({
          method: 'POST',
          url: endpoint.path,
          payload: b.payload,
          headers: { 'content-type': b.type, token: caller.token!, token2: caller.token2! },
        });
        const tooLarge = b.payload.length > 1_048_576;
        expect(res.statusCode, `${b.payload.slice(0, 20)} -> ${res.body.slice(0, 200)}`).toBe(tooLarge ? 413 : 400);
        expect(res.json()).toMatchObject({ code: Code.invalidInput });
      }
      expect(await snapshot(t.database)).toBe(before);
    });
  }
});

it('an unknown API path answers the 404 envelope', async () => {
  const res = await t.app.inject({ method: 'POST', url: '/v1.0/user/nothing-here' });
  expect(res.statusCode).toBe(404);
  expect(res.json()).toMatchObject({ code: Code.notFound });
});
