import {
  Code,
  endpoints,
  ORDER_STATE,
  RESOURCE_ACTIONS,
  RESOURCE_MANAGE_ROLES,
  type ResourceAction,
  type ResourceRow,
  type Role,
} from '@paydesk/contract';
import { and, count, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, orders, products, resourceImages, resources, suppliers, users } from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, DEMO_ROLE, nextIp, startTestApp, type TestApp } from '../../testing/harness.js';
import { signParams } from '../orders/signature.js';

/**
 * What the console offers is exactly what the server accepts (issue 18), for resources: for every role
 * and every row condition that the server's rule reads (the kind, which decides the QR upload; open
 * orders, which forbid delete; a disabled supplier or product, which forbid switching on) or that
 * decides whether the caller reaches the row at all (another supplier's, deleted), the row's
 * `allowedActions` in the list are the actions the server then accepts from that role, and every other
 * action is refused with nothing changed. Delete, once offered, is tried on a fresh resource in the
 * same condition; the switch is also tried through the bulk call, which applies the same rule.
 */
const R = endpoints.resources;
let t: TestApp;
const ACCOUNTS = [
  'superadmin',
  'admin',
  'service',
  'maintenance',
  'support',
  'supplier1',
  'agent1',
  'merchant1',
] as const;
type Account = (typeof ACCOUNTS)[number];
const auth = {} as Record<Account, Auth>;
/** Each demo account's role (the seed's). */
const ROLE = DEMO_ROLE as Record<Account, Role>;
let supplierOne: number;
let supplierTwo: number;

const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const CARD = {
  accountName: 'Offer Holder',
  bankName: 'HDFC Bank',
  cardNumber: '4111111111111111',
  ifsc: 'HDFC0001234',
};
const DETAILS: Record<number, Record<string, string>> = {
  1002: CARD,
  1001: { ...CARD, vpa: 'offer.holder@hdfc' },
  5001: { accountName: 'Offer Holder' },
};

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimitFactor: 1000 } });
  for (const account of ACCOUNTS) auth[account] = await t.loginWithToken2(account);
  const [one] = await t.database.db
    .select({ id: suppliers.id })
    .from(suppliers)
    .innerJoin(users, eq(users.id, suppliers.userId))
    .where(eq(users.account, 'supplier1'));
  supplierOne = one!.id;
  const created = await t.call(
    endpoints.suppliers.create,
    { name: 'Offered Two', mode: 'newAccount', account: 'offered2', password: 'offered2024', remark: '' },
    auth.admin,
  );
  expect(created.body.code, JSON.stringify(created.body)).toBe(200);
  supplierTwo = created.body.data.id;
});
afterAll(() => t.close());

let n = 0;
/** A new resource of `productId` for a supplier (by admin), switched on. */
async function resource(productId: number, supplierId = supplierOne): Promise<number> {
  n += 1;
  const res = await t.call(
    R.create,
    { productId, supplierId, name: `Offered ${n}`, details: DETAILS[productId] },
    auth.admin,
  );
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  const id = res.body.data.id as number;
  await t.database.db.update(resources).set({ state: 0 }).where(eq(resources.id, id));
  return id;
}

/** A UPI resource with one open order (allocated, unpaid): allocation can pick nothing else. */
async function busyResource(): Promise<number> {
  const id = await resource(1001);
  const others = and(eq(resources.productId, 1001), eq(resources.state, 0), ne(resources.id, id));
  const live = await t.database.db.select({ id: resources.id }).from(resources).where(others);
  await t.database.db.update(resources).set({ state: 1 }).where(others);
  try {
    const params = {
      mchId: DEMO_MERCHANT_API.mchId,
      productId: '1001',
      mchOrderNo: `RO${id}`,
      amount: '20000',
      notifyUrl: 'http://127.0.0.1:9/notify',
    };
    const res = await t.call(endpoints.orders.create, {
      ...params,
      sign: signParams(params, DEMO_MERCHANT_API.secret, 'HMAC-SHA256'),
    });
    expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  } finally {
    for (const r of live) await t.database.db.update(resources).set({ state: 0 }).where(eq(resources.id, r.id));
  }
  const [open] = await t.database.db
    .select({ n: count() })
    .from(orders)
    .where(and(eq(orders.resourceId, id), eq(orders.state, ORDER_STATE.allocated)));
  expect(open!.n).toBe(1);
  return id;
}

interface Condition {
  name: string;
  /** A resource in this condition. */
  make(): Promise<number>;
  /** What the walk must see offered to superadmin (a rule that offered nothing passes no test). */
  staffOffered: readonly ResourceAction[];
  /** What supplier1 must see offered (none: the row is not its own, or not there). */
  supplierOffered: readonly ResourceAction[];
}

const CONDITIONS: Condition[] = [
  {
    name: 'a bank card (no QR image), idle',
    make: () => resource(1002),
    staffOffered: ['edit', 'delete', 'enable', 'disable'],
    supplierOffered: ['edit', 'delete', 'enable', 'disable'],
  },
  {
    name: 'a UPI account (QR image), idle',
    make: () => resource(1001),
    staffOffered: RESOURCE_ACTIONS,
    supplierOffered: RESOURCE_ACTIONS,
  },
  {
    name: 'a UPI account with an open order',
    make: busyResource,
    staffOffered: ['edit', 'uploadQr', 'enable', 'disable'],
    supplierOffered: ['edit', 'uploadQr', 'enable', 'disable'],
  },
  {
    name: 'a WeChat account of a disabled product',
    make: async () => {
      const id = await resource(5001);
      await t.database.db.update(products).set({ enabled: false }).where(eq(products.id, 5001));
      return id;
    },
    staffOffered: ['edit', 'uploadQr', 'delete', 'disable'],
    supplierOffered: ['edit', 'uploadQr', 'delete', 'disable'],
  },
  {
    name: 'another supplier’s card, its supplier disabled',
    make: async () => {
      const id = await resource(1002, supplierTwo);
      await t.database.db.update(suppliers).set({ enabled: false }).where(eq(suppliers.id, supplierTwo));
      return id;
    },
    staffOffered: ['edit', 'delete', 'disable'],
    supplierOffered: [],
  },
  {
    name: 'a deleted card',
    make: async () => {
      const id = await resource(1002);
      expect((await t.call(R.delete, { id }, auth.admin)).body.code).toBe(200);
      return id;
    },
    staffOffered: [],
    supplierOffered: [],
  },
];

/** The row's allowedActions as `who` lists them (none: it cannot read the list, or the row is not in it). */
async function offered(id: number, who: Auth): Promise<ResourceAction[] | null> {
  const [row] = await t.database.db.select({ name: resources.name }).from(resources).where(eq(resources.id, id));
  const list = await t.call(R.getList, { pageIndex: 1, pageSize: 50, text: row!.name }, who);
  if (list.body.code !== 200) return null;
  const found = (list.body.data.list as ResourceRow[]).find((r) => r.id === id);
  return found ? found.allowedActions : null;
}

/** Takes `action` on the resource as `who` (the switch through both calls); answers whether it was accepted. */
async function take(action: ResourceAction, id: number, who: Auth): Promise<{ accepted: boolean; body: unknown }> {
  const [r] = await t.database.db.select().from(resources).where(eq(resources.id, id));
  const answers = await (async () => {
    switch (action) {
      case 'edit':
        return [await t.call(R.update, { id, productId: r!.productId, name: r!.name, details: r!.details }, who)];
      case 'uploadQr':
        return [await t.call(R.uploadQr, { id, mime: 'image/png', imageBase64: PNG_1x1 }, who)];
      case 'delete':
        return [await t.call(R.delete, { id }, who)];
      case 'enable':
      case 'disable': {
        const enable = action === 'enable';
        return [
          await t.call(R.enableResource, { resourceId: id, productId: r!.productId, enable }, who),
          await t.call(R.bulkEnable, { ids: [id], enable }, who),
        ];
      }
    }
  })();
  const codes = answers.map((a) => a.body.code);
  expect(new Set(codes).size, `${action}: the single and the bulk switch agree: ${JSON.stringify(codes)}`).toBe(1);
  return { accepted: codes[0] === Code.success, body: answers[0]!.body };
}

/** What a refused call must leave as it was: the row, its images and the audit trail. */
async function stateOf(id: number) {
  const [row] = await t.database.db.select().from(resources).where(eq(resources.id, id));
  const [images] = await t.database.db
    .select({ n: count() })
    .from(resourceImages)
    .where(eq(resourceImages.resourceId, id));
  const [audit] = await t.database.db.select({ n: count() }).from(auditLog);
  return { row, images: images!.n, audit: audit!.n };
}

describe('the console offers exactly what the server accepts', () => {
  for (const condition of CONDITIONS) {
    it(condition.name, { timeout: 120_000 }, async () => {
      const id = await condition.make();
      try {
        for (const account of ACCOUNTS) {
          const who = auth[account];
          const offers = (await offered(id, who)) ?? [];
          const label = (action: string) => `${account} ${action} on ${condition.name}`;
          if (account === 'superadmin') expect([...offers].sort()).toEqual([...condition.staffOffered].sort());
          if (account === 'supplier1') expect([...offers].sort()).toEqual([...condition.supplierOffered].sort());
          if (!(RESOURCE_MANAGE_ROLES as readonly Role[]).includes(ROLE[account])) expect(offers).toEqual([]);
          // Every action not offered is refused, and changes nothing.
          for (const action of RESOURCE_ACTIONS.filter((a) => !offers.includes(a))) {
            const before = await stateOf(id);
            const { accepted, body } = await take(action, id, who);
            expect(accepted, `${label(action)} is not offered: ${JSON.stringify(body)}`).toBe(false);
            expect(await stateOf(id), `${label(action)} was refused but changed something`).toEqual(before);
          }
          // Every action offered is accepted: delete on a fresh resource in the same condition.
          for (const action of offers) {
            const target = action === 'delete' ? await condition.make() : id;
            const { accepted, body } = await take(action, target, who);
            expect(accepted, `${label(action)} is offered: ${JSON.stringify(body)}`).toBe(true);
          }
        }
      } finally {
        await t.database.db.update(products).set({ enabled: true }).where(eq(products.id, 5001));
        await t.database.db.update(suppliers).set({ enabled: true }).where(eq(suppliers.id, supplierTwo));
      }
    });
  }

  it('the refusals carry the rule’s reason in the catalogue', async () => {
    const busy = await busyResource();
    const card = await resource(1002);
    const refusals = [
      [await t.call(R.delete, { id: busy }, auth.supplier1), 'resourceBusy'],
      [await t.call(R.uploadQr, { id: card, mime: 'image/png', imageBase64: PNG_1x1 }, auth.admin), 'qrImageNotTaken'],
    ] as const;
    for (const [res, reason] of refusals) {
      expect(res.body).toMatchObject({ code: Code.businessRule, data: { reason } });
    }
    // A login of the second supplier sees its own row with the same actions an admin does.
    await t.database.db.update(users).set({ enableGoogleVerify: false }).where(eq(users.account, 'offered2'));
    const login = await t.call(
      endpoints.auth.login,
      { userName: 'offered2', password: 'offered2024' },
      { ip: nextIp() },
    );
    const theirs = await resource(1002, supplierTwo);
    expect(await offered(theirs, { token: login.body.data.token })).toEqual(['edit', 'delete', 'enable', 'disable']);
  });
});
