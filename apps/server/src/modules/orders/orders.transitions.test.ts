import { ACTION_FROM, Code, endpoints, ORDER_STATE, type OrderAction } from '@paydesk/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderEvents, orders, resources } from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, snapshot, startTestApp, type TestApp } from '../../testing/harness.js';
import { signParams } from './signature.js';

/**
 * Every order action from every state (spec section 4, DESIGN section 6): allowed exactly where
 * ACTION_FROM says, with its effect; refused with 422 elsewhere, and then nothing changes.
 */
const { orders: api, ledger } = endpoints;
let t: TestApp;
let superadmin: Auth;
let supplier: Auth;

beforeAll(async () => {
  t = await startTestApp();
  superadmin = await t.loginWithToken2('superadmin');
  supplier = await t.loginWithToken2('supplier1');
  await t.setSetting('CanTimeoutSupplement', true);
});
afterAll(() => t.close());

let n = 0;
async function create(): Promise<string> {
  n += 1;
  const params = {
    mchId: DEMO_MERCHANT_API.mchId,
    productId: '1001',
    mchOrderNo: `TR${n}`,
    amount: String(30_000 + n),
    notifyUrl: 'http://127.0.0.1:9/notify',
  };
  const res = await t.call(api.create, {
    ...params,
    sign: signParams(params, DEMO_MERCHANT_API.secret, 'HMAC-SHA256'),
  });
  if (res.body.code === Code.allocationFailed) return res.body.data.orderCode;
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data.orderCode;
}

const ok = async (p: Promise<{ body: { code: number } }>) => expect((await p).body.code).toBe(200);

/** An order brought to `state` through the engine's own actions (3 and 4 as the callback worker sets them). */
async function orderIn(state: number): Promise<string> {
  if (state === ORDER_STATE.allocationFailed) {
    const upi = and(eq(resources.productId, 1001), eq(resources.state, 0));
    const live = await t.database.db.select({ id: resources.id }).from(resources).where(upi);
    await t.database.db.update(resources).set({ state: 1 }).where(upi);
    const code = await create();
    for (const r of live) await t.database.db.update(resources).set({ state: 0 }).where(eq(resources.id, r.id));
    return code;
  }
  const code = await create();
  const by = superadmin;
  if (state === ORDER_STATE.timedOut) await ok(t.call(api.freeResource, { orderCode: code }, by));
  if (state === ORDER_STATE.rejected) await ok(t.call(api.reject, { orderCode: code, rejectReason: 'matrix' }, by));
  if ([3, 4, 6, 8].includes(state)) await ok(t.call(api.confirmOrder, { orderCode: code }, by));
  if (state === ORDER_STATE.reversed) await ok(t.call(api.reverseOrder, { orderCode: code }, by));
  if (state === ORDER_STATE.callbackSucceeded || state === ORDER_STATE.callbackFailed) {
    await t.database.db.update(orders).set({ state }).where(eq(orders.orderCode, code));
  }
  return code;
}

const ACTIONS: Exclude<OrderAction, 'updateMark' | 'unlock'>[] = [
  'confirm',
  'supplement',
  'reselect',
  'reject',
  'freeResource',
  'callback',
  'reverse',
];

function call(action: (typeof ACTIONS)[number], orderCode: string) {
  switch (action) {
    case 'confirm':
      return t.call(api.confirmOrder, { orderCode }, superadmin);
    case 'supplement':
      n += 1;
      return t.call(api.replenishmentOrder, { orderCode, utr: `MATRIX${String(n).padStart(8, '0')}` }, superadmin);
    case 'reselect':
      return t.call(api.reselect, { orderCode }, superadmin);
    case 'reject':
      return t.call(api.reject, { orderCode, rejectReason: 'matrix' }, superadmin);
    case 'freeResource':
      return t.call(api.freeResource, { orderCode }, superadmin);
    case 'callback':
      return t.call(api.callback, { orderCode }, superadmin);
    case 'reverse':
      return t.call(api.reverseOrder, { orderCode }, superadmin);
  }
}

/** The state an allowed action leads to from `from`. */
const EXPECTED: Record<(typeof ACTIONS)[number], (from: number) => number> = {
  confirm: () => ORDER_STATE.paidNotifying,
  supplement: () => ORDER_STATE.paidNotifying,
  reselect: () => ORDER_STATE.allocated,
  reject: () => ORDER_STATE.rejected,
  freeResource: () => ORDER_STATE.timedOut,
  callback: (from) => from,
  reverse: () => ORDER_STATE.reversed,
};

const STATES = [1, 2, 3, 4, 5, 6, 7, 8];

describe('the transition table', () => {
  for (const action of ACTIONS) {
    it(`${action}: allowed from ${ACTION_FROM[action].join(', ')}, refused from every other state`, async () => {
      for (const state of STATES) {
        const code = await orderIn(state);
        const allowed = (ACTION_FROM[action] as readonly number[]).includes(state);
        const before = allowed ? '' : await snapshot(t.database);
        const res = await call(action, code);
        const [after] = await t.database.db.select().from(orders).where(eq(orders.orderCode, code));
        if (allowed) {
          expect(res.body.code, `${action} from ${state}: ${JSON.stringify(res.body)}`).toBe(200);
          expect(after!.state, `${action} from ${state}`).toBe(EXPECTED[action](state));
        } else {
          // An order that once allowed the action was moved on by someone else: a lost race, 409. One
          // that never allowed it: 422.
          const events = await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, after!.id));
          const from = ACTION_FROM[action] as readonly (number | null)[];
          const lostRace = events.some((e) => from.includes(e.fromState) || from.includes(e.toState));
          expect(res.body.code, `${action} from ${state}`).toBe(lostRace ? Code.conflict : Code.businessRule);
          expect(await snapshot(t.database), `${action} from ${state} changed something`).toBe(before);
        }
      }
      const check = await t.call(ledger.ledgerCheck, {}, superadmin);
      expect(check.body.data).toEqual({ ok: true, violations: [] });
    });
  }

  it('a supplier acts on its own team’s orders only: an agent may not touch its parent’s (404)', async () => {
    const agent = await t.loginWithToken2('agent1');
    const mine: Record<'parent' | 'agent', string | null> = { parent: null, agent: null };
    for (let i = 0; i < 6 && (!mine.parent || !mine.agent); i += 1) {
      const code = await create();
      const [order] = await t.database.db.select().from(orders).where(eq(orders.orderCode, code));
      mine[order!.isProxy ? 'agent' : 'parent'] ??= code;
    }
    expect((await t.call(api.confirmOrder, { orderCode: mine.parent! }, agent)).status).toBe(404);
    // The parent supplier's scope is its team: it may confirm its agent's order.
    expect((await t.call(api.confirmOrder, { orderCode: mine.agent! }, supplier)).body.code).toBe(200);
  });
});
