import {
  ACTION_ROLES,
  Code,
  endpoints,
  ORDER_ACTIONS,
  ORDER_MARK,
  ORDER_STATE,
  type OrderAction,
  type Role,
} from '@paydesk/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchants, orderEvents, orders, resources } from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, DEMO_ROLE, startTestApp, type TestApp } from '../../testing/harness.js';
import { signParams } from './signature.js';

/**
 * What the console offers is exactly what the server accepts (issue 18): for every order state, locked
 * or not, with CanTimeoutSupplement off and on, and every role, the row's `allowedActions` (list and
 * detail alike) are the actions the server then accepts from that role, and every other action is
 * refused with nothing changed. An offered action is tried on a fresh order in the same state, since
 * taking it moves the order on. (State 0, created, lasts only inside the creating transaction.)
 */
const { orders: api } = endpoints;
let t: TestApp;
let superadmin: Auth;
const ACCOUNTS = ['superadmin', 'admin', 'service', 'maintenance', 'support', 'supplier1', 'merchant1'] as const;
type Account = (typeof ACCOUNTS)[number];
const auth = {} as Record<Account, Auth>;
/** Each demo account's role (the seed's). */
const ROLE = DEMO_ROLE as Record<Account, Role>;

beforeAll(async () => {
  t = await startTestApp();
  for (const account of ACCOUNTS) auth[account] = await t.loginWithToken2(account);
  superadmin = auth.superadmin;
});
afterAll(() => t.close());

async function setTimeoutSupplement(on: boolean) {
  await t.setSetting('CanTimeoutSupplement', on);
}

let n = 0;
async function create(): Promise<string> {
  n += 1;
  const params = {
    mchId: DEMO_MERCHANT_API.mchId,
    productId: '1001',
    mchOrderNo: `OF${n}`,
    amount: String(20_000 + n),
    notifyUrl: 'http://127.0.0.1:9/notify',
  };
  const res = await t.call(api.create, {
    ...params,
    sign: signParams(params, DEMO_MERCHANT_API.secret, 'HMAC-SHA256'),
  });
  expect([200, Code.allocationFailed], JSON.stringify(res.body)).toContain(res.body.code);
  return res.body.data.orderCode;
}

const ok = async (p: Promise<{ body: { code: number } }>) => expect((await p).body.code).toBe(200);
const eventCount = async (orderId: number) =>
  (await t.database.db.select({ id: orderEvents.id }).from(orderEvents).where(eq(orderEvents.orderId, orderId))).length;
const rowOf = async (code: string) => (await t.database.db.select().from(orders).where(eq(orders.orderCode, code)))[0]!;

/** An order brought to `state` (locked or not) through the engine's own actions. */
async function orderIn(state: number, locked: boolean): Promise<string> {
  let code: string;
  if (state === ORDER_STATE.allocationFailed) {
    const upi = and(eq(resources.productId, 1001), eq(resources.state, 0));
    const live = await t.database.db.select({ id: resources.id }).from(resources).where(upi);
    await t.database.db.update(resources).set({ state: 1 }).where(upi);
    code = await create();
    for (const r of live) await t.database.db.update(resources).set({ state: 0 }).where(eq(resources.id, r.id));
  } else {
    code = await create();
    if (state === ORDER_STATE.timedOut) await ok(t.call(api.freeResource, { orderCode: code }, superadmin));
    if (state === ORDER_STATE.rejected)
      await ok(t.call(api.reject, { orderCode: code, rejectReason: 'm' }, superadmin));
    if ([3, 4, 6, 8].includes(state)) await ok(t.call(api.confirmOrder, { orderCode: code }, superadmin));
    if (state === ORDER_STATE.reversed) await ok(t.call(api.reverseOrder, { orderCode: code }, superadmin));
    if (state === ORDER_STATE.callbackSucceeded || state === ORDER_STATE.callbackFailed) {
      // As the callback worker sets them.
      await t.database.db.update(orders).set({ state }).where(eq(orders.orderCode, code));
    }
  }
  const order = await rowOf(code);
  if (locked) await ok(t.call(api.updateOrderMark, { id: order.id, orderMark: ORDER_MARK.suspicious }, superadmin));
  const now = await rowOf(code);
  if (now.state !== state || now.locked !== locked) {
    const why = await t.call(api.getOrderAllocateInfo, { orderCode: code }, superadmin);
    expect({ state: now.state, locked: now.locked }, JSON.stringify(why.body.data)).toEqual({ state, locked });
  }
  return code;
}

/** Takes `action` on the order as `who`; answers whether the server accepted (and did) it. */
async function take(action: OrderAction, code: string, who: Auth): Promise<{ accepted: boolean; body: unknown }> {
  const order = await rowOf(code);
  n += 1;
  const res = await (() => {
    switch (action) {
      case 'confirm':
        return t.call(api.confirmOrder, { orderCode: code }, who);
      case 'supplement':
        return t.call(api.replenishmentOrder, { orderCode: code, utr: `OFFER${String(n).padStart(8, '0')}` }, who);
      case 'reselect':
        return t.call(api.reselect, { orderCode: code }, who);
      case 'reject':
        return t.call(api.reject, { orderCode: code, rejectReason: 'offered' }, who);
      case 'freeResource':
        return t.call(api.freeResource, { orderCode: code }, who);
      case 'callback':
        return t.call(api.callback, { orderCode: code }, who);
      case 'reverse':
        return t.call(api.reverseOrder, { orderCode: code }, who);
      case 'updateMark':
        // The mark it has: the order stays as it is for the next role.
        return t.call(api.updateOrderMark, { id: order.id, orderMark: order.mark }, who);
      case 'unlock':
        return t.call(api.unlockOrder, { orderCodes: [code] }, who);
    }
  })();
  // Unlocking an order that is not locked answers 200 and unlocks nothing.
  const accepted = res.body.code === 200 && (action !== 'unlock' || res.body.data.count === 1);
  return { accepted, body: res.body };
}

/** The row's allowedActions as `who` gets them from the list and from the detail (none: it cannot read it). */
async function offered(code: string, who: Auth): Promise<OrderAction[]> {
  const list = await t.call(api.getList, { pageIndex: 1, pageSize: 10, orderCode: code }, who);
  const detail = await t.call(api.getDetail, { orderCode: code }, who);
  if (list.body.code !== 200) {
    expect(detail.body.code).not.toBe(200);
    return [];
  }
  const row = list.body.data.list.find((r: { orderCode: string }) => r.orderCode === code);
  if (!row) {
    expect(detail.status, 'an order outside the list is outside the detail').toBe(404);
    return [];
  }
  expect(detail.body.data.order.allowedActions, 'list and detail agree').toEqual(row.allowedActions);
  return row.allowedActions;
}

const STATES = [1, 2, 3, 4, 5, 6, 7, 8];

describe('the console offers exactly what the server accepts', () => {
  for (const timeoutSupplement of [false, true]) {
    for (const locked of [false, true]) {
      it(`CanTimeoutSupplement ${timeoutSupplement ? 'on' : 'off'}, ${locked ? 'locked' : 'unlocked'} orders`, {
        timeout: 120_000,
      }, async () => {
        await setTimeoutSupplement(timeoutSupplement);
        const seen = new Set<string>();
        for (const state of STATES) {
          const code = await orderIn(state, locked);
          for (const account of ACCOUNTS) {
            const who = auth[account];
            const offers = await offered(code, who);
            let before = await rowOf(code);
            let events = await eventCount(before.id);
            for (const action of ORDER_ACTIONS) {
              const label = `${account} ${action} in state ${state}${locked ? ', locked' : ''}`;
              if (offers.includes(action)) {
                seen.add(`${account}:${action}`);
                // Taking it moves the order on: it is tried on a fresh order in the same state.
                const target = action === 'updateMark' ? code : await orderIn(state, locked);
                const { accepted, body } = await take(action, target, who);
                expect(accepted, `${label} is offered: ${JSON.stringify(body)}`).toBe(true);
                if (target === code) {
                  // Marked again with its own mark: same state and lock, a new timeline entry.
                  before = await rowOf(code);
                  events = await eventCount(before.id);
                }
              } else if (ACTION_ROLES[action].includes(ROLE[account]) || state === ORDER_STATE.allocated) {
                // A role the action is not open to is refused by the endpoint's access list (403)
                // whatever the state: tried once, on the allocated order.
                const { accepted, body } = await take(action, code, who);
                expect(accepted, `${label} is not offered: ${JSON.stringify(body)}`).toBe(false);
              }
            }
            expect(await rowOf(code), `a refused action of ${account} changed the order`).toEqual(before);
            expect(await eventCount(before.id), `a refused action of ${account} wrote a timeline entry`).toBe(events);
          }
          // An allocated order holds supplier balance: let it go for the next ones.
          if (state === ORDER_STATE.allocated && !locked) {
            await ok(t.call(api.freeResource, { orderCode: code }, superadmin));
          }
        }
        // The walk offered something to every role that has actions (a rule that offered nothing passes no test).
        const roles = new Set([...seen].map((s) => s.split(':')[0]));
        expect([...roles].sort()).toEqual(
          locked ? ['admin', 'service', 'superadmin'] : ['admin', 'service', 'superadmin', 'supplier1'],
        );
        if (!locked) expect(seen.has('service:supplement')).toBe(true);
      });
    }
  }

  it('a merchant without callbacks: re-sending the callback is neither offered nor accepted', async () => {
    await setTimeoutSupplement(false);
    const code = await orderIn(ORDER_STATE.paidNotifying, false);
    const order = await rowOf(code);
    await t.database.db.update(orders).set({ notifyUrl: null }).where(eq(orders.id, order.id));
    await t.database.db.update(merchants).set({ callbackEnabled: false }).where(eq(merchants.id, order.merchantId));
    try {
      expect(await offered(code, superadmin)).not.toContain('callback');
      const { accepted, body } = await take('callback', code, superadmin);
      expect(accepted).toBe(false);
      expect(body).toMatchObject({ code: Code.businessRule, data: { reason: 'callbacksOff' } });
    } finally {
      await t.database.db.update(merchants).set({ callbackEnabled: true }).where(eq(merchants.id, order.merchantId));
    }
  });

  it('customer service is not offered supplement on a timed-out order while CanTimeoutSupplement is off', async () => {
    await setTimeoutSupplement(false);
    const code = await orderIn(ORDER_STATE.timedOut, false);
    const offers = await offered(code, auth.service);
    expect(offers).not.toContain('supplement');
    expect(offers).toContain('reselect');
    const { body } = await take('supplement', code, auth.service);
    expect(body).toMatchObject({ code: Code.businessRule, data: { reason: 'timeoutSupplementOff' } });
    await setTimeoutSupplement(true);
    expect(await offered(code, auth.service)).toContain('supplement');
  });
});
