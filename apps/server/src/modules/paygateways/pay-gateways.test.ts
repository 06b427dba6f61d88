import type { AddressInfo } from 'node:net';
import { Code, endpoints, PAYOUT_STATE } from '@paydesk/contract';
import { asc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGateway, startFakeGateway } from '../../../../../tools/fake-gateway/fake-gateway.js';
import { auditLog, payGateways, payouts } from '../../db/schema.js';
import { openSecret } from '../../platform/crypto.js';
import { DEMO_GATEWAY, demoGatewayAccount, demoGatewayUrl } from '../../seed/demo-gateway.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, downloadCsv, snapshot, startTestApp, type TestApp } from '../../testing/harness.js';
import { waitFor } from '../../testing/wait.js';
import { signParams } from '../orders/signature.js';
import { webhookSignature } from '../payouts/gateway/webhook.js';
import { GatewayPayouts } from '../payouts/gateway-payouts.js';
import { gatewayWebhookPath } from '../payouts/gateway-webhook.routes.js';

/**
 * Pay gateway config (issue 21 item 6): upstream credentials kept once, sealed at rest and never
 * answered; gateway payout accounts that name a gateway are paid and verified with its credentials,
 * read at each call.
 */
const api = endpoints.payGateways;
const S = PAYOUT_STATE;
/** The gateway config's credentials: the fake accepts these only (not the demo account's own). */
const GW = {
  keyId: 'rzp_test_gwconfig01',
  keySecret: 'gw-config-key-secret-01',
  webhookSecret: 'gw-config-webhook-secret-01',
};
const SECRETS = [GW.keySecret, GW.webhookSecret, 'rotated-webhook-secret-02', 'other-notify-secret-03'];

let t: TestApp;
let admin: Auth;
let fake: FakeGateway;
let gateway: GatewayPayouts;
let resourceId = 0;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.loginWithToken2('admin');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const appUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  fake = await startFakeGateway({ ...GW, behaviour: { stepMs: 30 } });
  const account = await demoGatewayAccount(t.database.db, demoGatewayUrl(t.config.demoGatewayPort));
  resourceId = account!.id;
  fake.setWebhookUrl(`${appUrl}${gatewayWebhookPath(resourceId)}`);
  gateway = new GatewayPayouts({
    db: t.database.db,
    clock: t.clock,
    payouts: t.app.services.payouts,
    secretKey: t.app.services.resources.deps.secretKey,
    payGateways: t.app.services.payGateways,
    privateNetworks: true,
    timeoutMs: 1_000,
  });
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

/** No answer, export or audit row ever carries a secret. */
function expectNoSecret(value: unknown) {
  const text = JSON.stringify(value);
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

async function create(input: Record<string, unknown>) {
  const res = await t.call(api.createPayGateway, input, admin);
  expectNoSecret(res.body);
  return res;
}

describe('pay gateway config', () => {
  let id = 0;

  it('creates a gateway with its secrets sealed, answered and audited only as set', async () => {
    const res = await create({
      kind: 'payoutApi',
      name: 'RazorpayX (fake)',
      baseUrl: `${fake.url}/`,
      ...GW,
      remark: 'main',
    });
    expect(res.body.code, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'RazorpayX (fake)',
      kind: 'payoutApi',
      baseUrl: fake.url,
      keyId: GW.keyId,
      hasKeySecret: true,
      hasWebhookSecret: true,
      enabled: true,
      accounts: 0,
      updatedBy: 'admin',
    });
    expect(res.body.data).not.toHaveProperty('keySecret');
    id = res.body.data.id;
    const [row] = await t.database.db.select().from(payGateways).where(eq(payGateways.id, id));
    expect(row!.keySecretSealed).not.toContain(GW.keySecret);
    expect(row!.webhookSecretSealed).not.toContain(GW.webhookSecret);
    expect(openSecret(row!.keySecretSealed!, t.app.services.resources.deps.secretKey)).toBe(GW.keySecret);
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `payGateway:${id}`));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'payGateways.create', account: 'admin' });
    expect(audit[0]!.after).toMatchObject({ keyId: GW.keyId, keySealed: true, webhookKeySealed: true });
    expectNoSecret(audit);
  });

  it('refuses what is missing or malformed, and a second gateway of the same name', async () => {
    const before = await snapshot(t.database);
    const noKey = await create({ kind: 'payoutApi', name: 'No key', baseUrl: 'https://api.example.com' });
    expect(noKey.status).toBe(400);
    expect(noKey.body.data.issues.map((i: { path: string }) => i.path)).toEqual(
      expect.arrayContaining(['keyId', 'keySecret', 'webhookSecret']),
    );
    const badUrl = await create({ kind: 'payoutApi', name: 'Bad', baseUrl: 'https://u:p@api.example.com', ...GW });
    expect(badUrl.status).toBe(400);
    const short = await create({ kind: 'collectionNotify', name: 'Short', webhookSecret: 'short' });
    expect(short.status).toBe(400);
    const twin = await create({ kind: 'payoutApi', name: 'RazorpayX (fake)', baseUrl: fake.url, ...GW });
    expect(twin.status).toBe(409);
    expect(twin.body.data.reason).toBe('payGatewayNameTaken');
    expect(await snapshot(t.database)).toBe(before);
  });

  it('needs token2 and a role that changes it; technical maintenance reads only', async () => {
    const plain = await t.login('admin');
    expect(
      (await t.call(api.createPayGateway, { kind: 'collectionNotify', name: 'X', webhookSecret: 'x'.repeat(8) }, plain))
        .body.code,
    ).toBe(Code.token2Required);
    const maintenance = await t.loginWithToken2('maintenance');
    const list = await t.call(api.getPayGateways, { pageIndex: 1 }, maintenance);
    expect(list.body.code).toBe(200);
    expectNoSecret(list.body);
    for (const [endpoint, input] of [
      [api.createPayGateway, { kind: 'collectionNotify', name: 'X', webhookSecret: 'x'.repeat(8) }],
      [api.updatePayGateway, { id, name: 'X' }],
      [api.setPayGatewayEnabled, { id, enabled: false }],
      [api.deletePayGateway, { id }],
    ] as const) {
      expect((await t.call(endpoint, input, maintenance)).status).toBe(403);
    }
    const service = await t.loginWithToken2('service');
    expect((await t.call(api.getPayGateways, { pageIndex: 1 }, service)).status).toBe(403);
    expect((await t.call(api.getPayGateways, { pageIndex: 1 }, await t.login('supplier1'))).status).toBe(403);
  });

  it('lists with filters and exports CSV without secrets', async () => {
    const notify = await create({
      kind: 'collectionNotify',
      name: 'UPI notifier',
      webhookSecret: SECRETS[3],
    });
    expect(notify.body.data).toMatchObject({ baseUrl: '', keyId: '', hasKeySecret: false, hasWebhookSecret: true });
    const byKind = await t.call(api.getPayGateways, { pageIndex: 1, kind: 'collectionNotify' }, admin);
    expect(byKind.body.data.list.map((r: { name: string }) => r.name)).toEqual(['UPI notifier']);
    const byName = await t.call(api.getPayGateways, { pageIndex: 1, name: 'razorpay' }, admin);
    expect(byName.body.data).toMatchObject({ total: 1, list: [{ id }] });
    const csv = await downloadCsv(t, api.exportPayGateways, {}, admin);
    expect(csv.status).toBe(200);
    expect(csv.rows).toHaveLength(2);
    expectNoSecret(csv);
    // Off and on again, audited; the filter follows.
    expect(
      (await t.call(api.setPayGatewayEnabled, { id: notify.body.data.id, enabled: false }, admin)).body.data.enabled,
    ).toBe(false);
    const off = await t.call(api.getPayGateways, { pageIndex: 1, enabled: 'false' }, admin);
    expect(off.body.data.list.map((r: { name: string }) => r.name)).toEqual(['UPI notifier']);
    expect((await t.call(api.deletePayGateway, { id: notify.body.data.id }, admin)).body.code).toBe(200);
  });

  it('a gateway payout account naming it is paid with its credentials and its webhooks verified with its secret', async () => {
    // The account's own credentials are the demo's, which this fake refuses: only the config's pay.
    const supplier = await t.loginWithToken2('supplier1');
    const asSupplier = await t.call(
      endpoints.resources.update,
      {
        id: resourceId,
        productId: 2003,
        name: 'Demo gateway',
        details: { gatewayId: String(id), accountNumber: DEMO_GATEWAY.accountNumber },
      },
      supplier,
    );
    expect(asSupplier.status).toBe(403);
    const unknown = await t.call(
      endpoints.resources.update,
      { id: resourceId, productId: 2003, name: 'Demo gateway', details: { gatewayId: '999', accountNumber: '12345' } },
      admin,
    );
    expect(unknown.body.data?.reason).toBe('payGatewayUnusable');
    const named = await t.call(
      endpoints.resources.update,
      {
        id: resourceId,
        productId: 2003,
        name: 'Demo gateway',
        details: { gatewayId: String(id), accountNumber: DEMO_GATEWAY.accountNumber },
      },
      admin,
    );
    expect(named.body.code, JSON.stringify(named.body)).toBe(200);
    expect(named.body.data.details).toMatchObject({ gatewayId: String(id) });
    expect(
      (await t.call(api.getPayGateways, { pageIndex: 1, name: 'razorpay' }, admin)).body.data.list[0].accounts,
    ).toBe(1);
    // In use: not deleted.
    const del = await t.call(api.deletePayGateway, { id }, admin);
    expect(del.body.data.reason).toBe('payGatewayInUse');

    const payout = await createPayout('Asha Rao');
    await gateway.runOnce();
    const sent = await payoutOf(payout.orderCode);
    expect(sent).toMatchObject({ state: S.inProgress, resourceId });
    const atFake = [...fake.payouts.values()].find((p) => p.idempotencyKey === payout.orderCode);
    expect(atFake).toMatchObject({ accountNumber: DEMO_GATEWAY.accountNumber, amount: 25_000 });
    // The fake's own webhook, signed with the config's webhook secret, completes it.
    const done = await waitFor(
      'the payout completed',
      () => payoutOf(payout.orderCode),
      (p) => p.state === S.completed,
      10_000,
    );
    expect(done.utr).toBe(atFake!.utr);
    await waitFor(
      'the webhook answered',
      async () => fake.webhooks.filter((w) => w.payoutId === atFake!.id).map((w) => w.httpStatus),
      (statuses) => statuses.includes(200),
    );
  });

  it('a rotated secret applies at once; a blank one on update keeps the sealed one', async () => {
    const body = JSON.stringify({
      entity: 'event',
      event: 'payout.processed',
      contains: ['payout'],
      payload: {
        payout: { entity: { id: 'pout_unknown000001', status: 'processed', amount: 100, utr: '998877665544' } },
      },
    });
    const post = (secret: string) =>
      t.app.inject({
        method: 'POST',
        url: gatewayWebhookPath(resourceId),
        headers: { 'content-type': 'application/json', 'x-razorpay-signature': webhookSignature(body, secret) },
        payload: body,
      });
    // The account's own (demo) webhook secret is not the one: the gateway's is.
    expect((await post(DEMO_GATEWAY.webhookSecret)).statusCode).toBe(401);
    expect((await post(GW.webhookSecret)).statusCode).toBe(200);

    const kept = await t.call(
      api.updatePayGateway,
      {
        id,
        name: 'RazorpayX (fake)',
        baseUrl: fake.url,
        keyId: GW.keyId,
        keySecret: '',
        webhookSecret: null,
        remark: 'kept',
      },
      admin,
    );
    expect(kept.body.data).toMatchObject({ hasKeySecret: true, hasWebhookSecret: true, remark: 'kept' });
    expect((await post(GW.webhookSecret)).statusCode).toBe(200);

    const rotated = await t.call(
      api.updatePayGateway,
      { id, name: 'RazorpayX (fake)', baseUrl: fake.url, keyId: GW.keyId, webhookSecret: SECRETS[2], remark: '' },
      admin,
    );
    expectNoSecret(rotated.body);
    expect((await post(GW.webhookSecret)).statusCode).toBe(401);
    expect((await post(SECRETS[2]!)).statusCode).toBe(200);
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(like(auditLog.target, 'payGateway:%'))
      .orderBy(asc(auditLog.id));
    expect(audit.map((a) => a.action)).toContain('payGateways.update');
    expect(audit.at(-1)!.after).toMatchObject({ keyReplaced: false, webhookKeyReplaced: true });
    expectNoSecret(audit);

    // A payout API gateway keeps its base URL and key id.
    const cleared = await t.call(api.updatePayGateway, { id, name: 'RazorpayX (fake)', remark: '' }, admin);
    expect(cleared.body.data.reason).toBe('payGatewayIncomplete');
  });

  it('while the gateway is off its accounts are not given payouts', async () => {
    expect((await t.call(api.setPayGatewayEnabled, { id, enabled: false }, admin)).body.code).toBe(200);
    const payout = await createPayout('Asha Rao');
    await gateway.runOnce();
    expect((await payoutOf(payout.orderCode)).state).toBe(S.awaiting);
    expect((await t.call(api.setPayGatewayEnabled, { id, enabled: true }, admin)).body.code).toBe(200);
    await gateway.runOnce();
    expect((await payoutOf(payout.orderCode)).state).not.toBe(S.awaiting);
  });
});

let n = 0;
async function createPayout(payee: string, amount = 25_000) {
  n += 1;
  const p: Record<string, string> = {
    mchId: DEMO_MERCHANT_API.mchId,
    productId: '2003',
    mchOrderNo: `PG${Date.now()}${n}`,
    amount: String(amount),
    userName: payee,
    cardNumber: '50100234567890',
    ifscCode: 'HDFC0001234',
    bankName: 'HDFC Bank',
    bankBranch: 'Koramangala',
    address: '12 MG Road, Bengaluru',
  };
  const res = await t.call(endpoints.payouts.create, {
    ...p,
    sign: signParams(p, DEMO_MERCHANT_API.secret, 'HMAC-SHA256'),
  });
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return payoutOf(res.body.data.orderCode as string);
}

async function payoutOf(orderCode: string) {
  const [row] = await t.database.db.select().from(payouts).where(eq(payouts.orderCode, orderCode));
  return row!;
}
