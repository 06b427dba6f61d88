import { endpoints, RESOURCE_TEXTS, type ResourceRow } from '@paydesk/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources, users } from '../../db/schema.js';
import { type Auth, nextIp, snapshot, startTestApp, type TestApp } from '../../testing/harness.js';

/**
 * redWalletCount (issue 21): the most WeChat and Alipay red-packet receiving accounts (products 5001
 * and 5002, counted together) one supplier may have switched on at once. Switching one more on is
 * refused (422 redWalletLimit, with the limit), alone or in a bulk switch, for the supplier and for
 * staff; the list stops offering the switch; other channels and other suppliers are not counted.
 */
const R = endpoints.resources;
let t: TestApp;
let admin: Auth;

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimitFactor: 1000 } });
  admin = await t.loginWithToken2('admin');
});
afterAll(() => t.close());

/** A new top-level supplier with its own session (no authenticator, for the test). */
async function newSupplier(account: string): Promise<{ id: number; auth: Auth }> {
  const created = await t.call(
    endpoints.suppliers.create,
    { name: `Red ${account}`, mode: 'newAccount', account, password: 'redwallet2024', remark: '' },
    admin,
  );
  expect(created.body.code, JSON.stringify(created.body)).toBe(200);
  await t.database.db.update(users).set({ enableGoogleVerify: false }).where(eq(users.id, created.body.data.userId));
  const login = await t.call(endpoints.auth.login, { userName: account, password: 'redwallet2024' }, { ip: nextIp() });
  return { id: created.body.data.id, auth: { token: login.body.data.token } };
}

async function create(auth: Auth, productId: number, name: string): Promise<ResourceRow> {
  const details =
    productId === 1002
      ? { accountName: 'Red Holder', bankName: 'HDFC Bank', cardNumber: '4111111111111111', ifsc: 'HDFC0001234' }
      : { accountName: 'Li Wei' };
  const res = await t.call(R.create, { productId, name, details }, auth);
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const enable = (auth: Auth, r: ResourceRow, on = true) =>
  t.call(R.enableResource, { resourceId: r.id, productId: r.productId, enable: on }, auth);

async function stateOf(ids: number[]): Promise<number[]> {
  const rows = await t.database.db
    .select({ id: resources.id, state: resources.state })
    .from(resources)
    .where(inArray(resources.id, ids));
  return ids.map((id) => rows.find((r) => r.id === id)!.state);
}

describe('redWalletCount', () => {
  it('refuses switching on one more WeChat or Alipay account than the limit, and the list stops offering it', async () => {
    await t.setSetting('redWalletCount', 2);
    try {
      const s = await newSupplier('redone');
      const wechat1 = await create(s.auth, 5001, 'WeChat 1');
      const alipay1 = await create(s.auth, 5002, 'Alipay 1');
      const wechat2 = await create(s.auth, 5001, 'WeChat 2');
      // New accounts start off: creating more than the limit is fine, they take no place yet.
      expect([wechat1.state, alipay1.state, wechat2.state]).toEqual([1, 1, 1]);
      expect((await enable(s.auth, wechat1)).body.data).toEqual({ state: 0 });
      expect((await enable(s.auth, alipay1)).body.data).toEqual({ state: 0 });

      const before = await snapshot(t.database);
      const refused = await enable(s.auth, wechat2);
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({
        code: 422,
        msg: `${RESOURCE_TEXTS.redWalletLimit} (2)`,
        data: { reason: 'redWalletLimit', limit: 2 },
      });
      // Staff are held to it too, and the bulk switch alike; nothing changed.
      expect((await enable(admin, wechat2)).body.data).toMatchObject({ reason: 'redWalletLimit' });
      expect((await t.call(R.bulkEnable, { ids: [wechat2.id], enable: true }, admin)).body.data).toMatchObject({
        reason: 'redWalletLimit',
      });
      expect(await snapshot(t.database)).toBe(before);

      // The list offers the switch only where it would be accepted.
      const list = await t.call(R.getList, { pageIndex: 1, productIds: [5001, 5002] }, s.auth);
      const actions = (id: number) => (list.body.data.list as ResourceRow[]).find((r) => r.id === id)!.allowedActions;
      expect(actions(wechat2.id)).not.toContain('enable');
      expect(actions(wechat1.id)).toContain('enable'); // on already: switching it on keeps it on
      expect(actions(wechat1.id)).toContain('disable');
      // Switching an enabled one on again takes no new place.
      expect((await enable(s.auth, wechat1)).body.data).toEqual({ state: 0 });

      // Other channels are not counted.
      const card = await create(s.auth, 1002, 'Card');
      expect((await enable(s.auth, card)).body.data).toEqual({ state: 0 });

      // Switching one off makes room.
      expect((await enable(s.auth, alipay1, false)).body.data).toEqual({ state: 1 });
      expect((await enable(s.auth, wechat2)).body.data).toEqual({ state: 0 });
      expect(await stateOf([wechat1.id, alipay1.id, wechat2.id])).toEqual([0, 1, 0]);
    } finally {
      await t.setSetting('redWalletCount', undefined);
    }
  });

  it('a bulk switch that would pass the limit switches none; another supplier has its own count', async () => {
    await t.setSetting('redWalletCount', 2);
    try {
      const s = await newSupplier('redtwo');
      const other = await newSupplier('redthree');
      const [a, b, c] = [
        await create(s.auth, 5001, 'A'),
        await create(s.auth, 5002, 'B'),
        await create(s.auth, 5002, 'C'),
      ];
      expect((await enable(s.auth, a)).body.data).toEqual({ state: 0 });
      // One place left, two asked for: refused, and neither is on.
      const bulk = await t.call(R.bulkEnable, { ids: [b.id, c.id], enable: true }, s.auth);
      expect(bulk.body).toMatchObject({ code: 422, data: { reason: 'redWalletLimit', limit: 2 } });
      expect(await stateOf([a.id, b.id, c.id])).toEqual([0, 1, 1]);
      // With the already-on one in the selection, only the new ones count.
      const fits = await t.call(R.bulkEnable, { ids: [a.id, b.id], enable: true }, s.auth);
      expect(fits.body.data).toEqual({ count: 2, state: 0 });

      const [x, y] = [await create(other.auth, 5001, 'X'), await create(other.auth, 5001, 'Y')];
      expect((await t.call(R.bulkEnable, { ids: [x.id, y.id], enable: true }, other.auth)).body.data).toEqual({
        count: 2,
        state: 0,
      });

      // Raising the limit acts at once.
      await t.setSetting('redWalletCount', 3);
      expect((await enable(s.auth, c)).body.data).toEqual({ state: 0 });
    } finally {
      await t.setSetting('redWalletCount', undefined);
    }
  });

  it('two switches at once with one place left: exactly one is accepted', async () => {
    await t.setSetting('redWalletCount', 1);
    try {
      const s = await newSupplier('redfour');
      const [a, b] = [await create(s.auth, 5001, 'A'), await create(s.auth, 5002, 'B')];
      const answers = await Promise.all([enable(s.auth, a), enable(admin, b)]);
      expect(answers.map((r) => r.body.code).sort()).toEqual([200, 422]);
      const on = await t.database.db
        .select({ id: resources.id })
        .from(resources)
        .where(and(inArray(resources.id, [a.id, b.id]), eq(resources.state, 0)));
      expect(on).toHaveLength(1);
    } finally {
      await t.setSetting('redWalletCount', undefined);
    }
  });
});
