import { endpoints, type TodoItem, todoItemsOf } from '@paydesk/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, payouts, suppliers, users } from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, downloadCsv, startTestApp, type TestApp } from '../../testing/harness.js';
import { givePayoutAccounts, signedPayoutRequest } from '../../testing/payout-fixtures.js';
import { signParams } from '../orders/signature.js';

/**
 * The work waiting for each role (GET /v1.0/todo/counts): each count follows the work it counts as it
 * comes and goes, a supplier counts its team's, and a proposer's own proposals do not wait for it.
 */
let t: TestApp;
const auth: Record<string, Auth> = {};
const { orders: O, payouts: P, todo, funds } = endpoints;

async function counts(account: string): Promise<Record<string, number>> {
  const res = await t.call(todo.counts, {}, auth[account]!);
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return Object.fromEntries(res.body.data.items.map((i: { key: TodoItem; count: number }) => [i.key, i.count]));
}

let n = 0;
async function createOrder(): Promise<string> {
  n += 1;
  const params: Record<string, string> = {
    mchId: DEMO_MERCHANT_API.mchId,
    productId: '1001',
    mchOrderNo: `TODO${process.pid}x${n}`,
    amount: String(30_000 + n * 100 + 7),
  };
  const res = await t.call(O.create, { ...params, sign: signParams(params, DEMO_MERCHANT_API.secret, 'HMAC-SHA256') });
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data.orderCode;
}

beforeAll(async () => {
  t = await startTestApp();
  await givePayoutAccounts(t);
  for (const account of ['supplier1', 'agent1', 'merchant1', 'service', 'maintenance', 'support']) {
    auth[account] = await t.login(account);
  }
  auth.admin = await t.loginWithToken2('admin');
  auth.superadmin = await t.loginWithToken2('superadmin');
});
afterAll(() => t.close());

describe('the work waiting, per role', () => {
  it('answers the items of the caller’s role; a merchant and technical support have none to ask for', async () => {
    expect(Object.keys(await counts('admin'))).toEqual(todoItemsOf('admin'));
    expect(Object.keys(await counts('maintenance'))).toEqual(todoItemsOf('technicalMaintenance'));
    expect(Object.keys(await counts('supplier1'))).toEqual(['ordersToConfirm', 'payoutsToClaim', 'payoutsToPay']);
    expect((await t.call(todo.counts, {}, auth.merchant1!)).status).toBe(403);
    expect((await t.call(todo.counts, {}, auth.support!)).status).toBe(403);
    expect((await t.call(todo.counts, {}, {})).status).toBe(401);
  });

  it('orders to confirm: a payer’s UTR adds one for staff and for the team that took it; confirming takes it away', async () => {
    const before = { admin: await counts('admin'), supplier: await counts('supplier1') };
    const orderCode = await createOrder();
    expect((await t.call(O.payerSubmitUtr, { orderCode, utr: '712345600001' })).body.code).toBe(200);
    expect((await counts('admin')).ordersToConfirm).toBe(before.admin.ordersToConfirm! + 1);
    // supplier1 counts its team's (its own and agent1's), whichever took the order.
    expect((await counts('supplier1')).ordersToConfirm).toBe(before.supplier.ordersToConfirm! + 1);
    const [order] = await t.database.db.select().from(orders).where(eq(orders.orderCode, orderCode));
    const taker = order!.isProxy ? 'agent1' : 'supplier1';

    // Locked as suspicious: it waits for staff to look into it instead.
    const locked = await t.call(O.updateOrderMark, { id: order!.id, orderMark: 1 }, auth.service!);
    expect(locked.body.data).toMatchObject({ locked: true });
    expect(await counts('admin')).toMatchObject({
      ordersToConfirm: before.admin.ordersToConfirm,
      lockedOrders: before.admin.lockedOrders! + 1,
    });
    expect((await t.call(O.unlockOrder, { orderCodes: [orderCode] }, auth.admin!)).body.code).toBe(200);
    const confirmed = await t.call(O.confirmOrder, { orderCode }, auth[taker]!);
    expect(confirmed.body.code, JSON.stringify(confirmed.body)).toBe(200);
    expect(await counts('admin')).toMatchObject({
      ordersToConfirm: before.admin.ordersToConfirm,
      lockedOrders: before.admin.lockedOrders,
    });
  });

  it('payouts: in the claim queue, then to pay for the claimer, then to confirm for staff', async () => {
    const before = { admin: await counts('admin'), supplier: await counts('supplier1') };
    const created = await t.call(P.create, signedPayoutRequest({ amount: '50000' }));
    expect(created.body.code, JSON.stringify(created.body)).toBe(200);
    const [payout] = await t.database.db
      .select()
      .from(payouts)
      .where(eq(payouts.orderCode, created.body.data.orderCode));
    expect((await counts('supplier1')).payoutsToClaim).toBe(before.supplier.payoutsToClaim! + 1);

    expect((await t.call(P.claimOrder, { orderId: payout!.id }, auth.supplier1!)).body.code).toBe(200);
    expect(await counts('supplier1')).toMatchObject({
      payoutsToClaim: before.supplier.payoutsToClaim,
      payoutsToPay: before.supplier.payoutsToPay! + 1,
    });
    expect((await t.call(P.submit, { orderId: payout!.id, utr: 'UTRTODO000001' }, auth.supplier1!)).body.code).toBe(
      200,
    );
    expect((await counts('supplier1')).payoutsToPay).toBe(before.supplier.payoutsToPay);
    expect((await counts('admin')).payoutsToConfirm).toBe(before.admin.payoutsToConfirm! + 1);
    expect((await counts('maintenance')).payoutsToConfirm).toBe(before.admin.payoutsToConfirm! + 1);
  });

  it('a balance change waits for the second person, not for the one who proposed it', async () => {
    const [supplier] = await t.database.db
      .select({ id: suppliers.id })
      .from(suppliers)
      .innerJoin(users, eq(users.id, suppliers.userId))
      .where(eq(users.account, 'supplier1'));
    const before = { admin: await counts('admin'), superadmin: await counts('superadmin') };
    const proposed = await t.call(
      funds.propose,
      { partyKind: 'supplier', partyId: supplier!.id, kind: 'deposit', amount: 10_000, note: 'to-do test' },
      auth.admin!,
    );
    expect(proposed.body.code, JSON.stringify(proposed.body)).toBe(200);
    expect((await counts('admin')).balanceApprovals).toBe(before.admin.balanceApprovals);
    expect((await counts('superadmin')).balanceApprovals).toBe(before.superadmin.balanceApprovals! + 1);
  });
});

describe('the to-do page: the same work listed in full', () => {
  const list = (account: string, input: Record<string, unknown>) =>
    t.call(todo.getList, { pageIndex: 1, pageSize: 100, ...input }, auth[account]!);

  it('lists as many rows as the home page counts, item by item, with the amounts’ total', async () => {
    // A payout waiting for staff's confirmation, so at least one item has rows.
    const created = await t.call(P.create, signedPayoutRequest({ amount: '43210' }));
    const [payout] = await t.database.db
      .select()
      .from(payouts)
      .where(eq(payouts.orderCode, created.body.data.orderCode));
    expect((await t.call(P.claimOrder, { orderId: payout!.id }, auth.supplier1!)).body.code).toBe(200);
    expect((await t.call(P.submit, { orderId: payout!.id, utr: 'UTRTODOLIST01' }, auth.supplier1!)).body.code).toBe(
      200,
    );
    for (const account of ['admin', 'supplier1']) {
      const counted = await counts(account);
      for (const [item, n] of Object.entries(counted)) {
        const res = await list(account, { item });
        expect(res.body.code, `${account} ${item} ${JSON.stringify(res.body)}`).toBe(200);
        expect(res.body.data.total, `${account} ${item}`).toBe(n);
        expect(res.body.data.list).toHaveLength(Math.min(n, 100));
        const sum = res.body.data.list.reduce((a: number, r: { amount: number | null }) => a + (r.amount ?? 0), 0);
        if (n <= 100) expect(res.body.data.summary.amount, `${account} ${item}`).toBe(sum);
      }
    }
    const waiting = await list('admin', { item: 'payoutsToConfirm', keyword: payout!.orderCode });
    expect(waiting.body.data.list).toEqual([
      {
        key: `payout:${payout!.id}`,
        item: 'payoutsToConfirm',
        ref: payout!.orderCode,
        party: 'merchant1',
        amount: payout!.amount,
        since: expect.any(String),
        detail: 'UTRTODOLIST01',
      },
    ]);
    expect(waiting.body.data.summary).toEqual({ amount: payout!.amount });
    // The keyword matches the party's account too, and nothing else.
    expect((await list('admin', { item: 'payoutsToConfirm', keyword: 'merchant1' })).body.data.total).toBeGreaterThan(
      0,
    );
    expect((await list('admin', { item: 'payoutsToConfirm', keyword: 'no-such-party' })).body.data.total).toBe(0);
  });

  it('refuses an item that is not the caller’s role’s, and callers with no waiting work', async () => {
    const refused = await list('supplier1', { item: 'lockedOrders' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 403, data: { reason: 'todoItemNotYours' } });
    expect((await list('admin', { item: 'payoutsToClaim' })).status).toBe(403);
    expect((await list('merchant1', { item: 'ordersToConfirm' })).status).toBe(403);
    expect((await list('admin', { item: 'noSuchItem' })).status).toBe(400);
  });

  it('exports the listed rows as CSV', async () => {
    const listed = await list('admin', { item: 'payoutsToConfirm' });
    const csv = await downloadCsv(t, todo.export, { item: 'payoutsToConfirm' }, auth.admin!);
    expect(csv.status).toBe(200);
    expect(csv.header).toContain('ref');
    expect(csv.rows).toHaveLength(listed.body.data.total);
    expect(csv.rows.join('\n')).toContain('UTRTODOLIST01');
    expect((await downloadCsv(t, todo.export, { item: 'lockedOrders' }, auth.supplier1!)).status).toBe(403);
  });
});
