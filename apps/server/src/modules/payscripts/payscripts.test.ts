import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Code, endpoints, ORDER_STATE } from '@paydesk/contract';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, payScriptCalls, products } from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, downloadCsv, startTestApp, type TestApp } from '../../testing/harness.js';
import { signed } from '../../testing/merchant-api.js';

const api = endpoints.payScripts;
const payer = endpoints.payerScripts;
let t: TestApp;
const as = new Map<string, Auth>();
const auth = (account: string) => as.get(account)!;
let server: Server;
let gateway: string;

const RENDER = `async function render(order) {
  const r = await fetch('GATEWAY/link?order=' + order.orderCode + '&amount=' + order.amount);
  const j = await r.json();
  console.log('link for', order.orderCode);
  return { payUrl: j.link, qrPayload: j.link, instructions: 'Pay ' + (order.amount / 100).toFixed(2) + ' ' + order.currency + ' to ' + (order.payee && order.payee.kind) };
}
function parseNotification(n) {
  const b = JSON.parse(n.body);
  return { orderCode: b.order, amount: b.amount, utr: b.utr || null, status: b.ok ? 'paid' : 'failed' };
}`;
const sampleOrder = {
  orderCode: 'C1',
  amount: 12_345,
  currency: 'INR',
  product: { id: 1001, name: 'UPI collection' },
  merchantName: 'Shop',
  subject: null,
  expiresAt: null,
  payee: null,
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ link: `upi://pay?pa=shop@bank&tr=${url.searchParams.get('order')}` }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  gateway = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await startTestApp();
  for (const account of ['superadmin', 'admin', 'service', 'maintenance', 'support', 'supplier1', 'merchant1']) {
    as.set(account, await t.loginWithToken2(account));
  }
});
afterAll(async () => {
  await t.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const code = () => RENDER.replace('GATEWAY', gateway);
let names = 0;
async function createScript(account = 'superadmin', over: Record<string, unknown> = {}) {
  names += 1;
  const res = await t.call(
    api.createPayScript,
    { name: `Script ${names}`, code: code(), hosts: ['127.0.0.1'], ...over },
    auth(account),
  );
  expect(res.body.code, JSON.stringify(res.body)).toBe(Code.success);
  return res.body.data as { id: number; name: string; activeVersion: number; latestVersion: number };
}

let orderNo = 0;
async function createOrder(productId = '1001') {
  orderNo += 1;
  const res = await t.call(
    endpoints.orders.create,
    signed({
      mchId: DEMO_MERCHANT_API.mchId,
      productId,
      mchOrderNo: `PS${Date.now()}${orderNo}`,
      amount: String(20_000 + orderNo * 100 + 3),
      subject: 'Top-up',
    }),
  );
  expect(res.body.code, JSON.stringify(res.body)).toBe(Code.success);
  return res.body.data.orderCode as string;
}

describe('scripts and versions', () => {
  it('creates a script with its first version active; the change needs token2 and is audited', async () => {
    const noToken2 = await t.login('superadmin');
    const refused = await t.call(api.createPayScript, { name: 'Nope', code: code(), hosts: [] }, noToken2);
    expect(refused.body.code).toBe(Code.token2Required);

    const created = await createScript('superadmin', { hosts: ['127.0.0.1', 'API.Gateway.example', '127.0.0.1'] });
    expect(created).toMatchObject({ activeVersion: 1, latestVersion: 1, hosts: ['127.0.0.1', 'api.gateway.example'] });
    const versions = await t.call(api.getPayScriptVersions, { id: created.id }, auth('superadmin'));
    expect(versions.body.data.list).toEqual([
      expect.objectContaining({ version: 1, active: true, code: code(), createdBy: 'superadmin' }),
    ]);
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'payScripts.create'), eq(auditLog.target, `payScript:${created.id}`)));
    expect(audit!.after).toMatchObject({ name: created.name, version: 1, size: code().length });
  });

  it('refuses code that does not compile, a name taken (any case), and bad hosts: nothing is written', async () => {
    const before = (await t.call(api.getPayScriptList, { pageIndex: 1 }, auth('superadmin'))).body.data.total;
    const syntax = await t.call(
      api.createPayScript,
      { name: 'Broken', code: 'function render( {', hosts: [] },
      auth('superadmin'),
    );
    expect(syntax.status).toBe(400);
    expect(syntax.body.data).toMatchObject({
      reason: 'payScriptSyntax',
      issues: [{ path: 'code', message: expect.stringMatching(/SyntaxError/) }],
    });
    const first = await createScript();
    const taken = await t.call(
      api.createPayScript,
      { name: first.name.toUpperCase(), code: code(), hosts: [] },
      auth('superadmin'),
    );
    expect(taken.status).toBe(409);
    expect(taken.body.data.reason).toBe('payScriptNameTaken');
    for (const host of ['https://api.example', '*.example.com', 'api.example:8443', 'a b']) {
      const res = await t.call(api.createPayScript, { name: 'Hosts', code: code(), hosts: [host] }, auth('superadmin'));
      expect(res.status, host).toBe(400);
    }
    expect((await t.call(api.getPayScriptList, { pageIndex: 1 }, auth('superadmin'))).body.data.total).toBe(before + 1);
  });

  it('every save is a new version; it is active only when asked or activated; real runs use the active one', async () => {
    const script = await createScript();
    const v2 = await t.call(
      api.savePayScriptVersion,
      { id: script.id, name: script.name, code: 'function render() { return { instructions: "v2" }; }', hosts: [] },
      auth('superadmin'),
    );
    expect(v2.body.data).toMatchObject({ activeVersion: 1, latestVersion: 2, hosts: ['127.0.0.1'] });
    const v3 = await t.call(
      api.savePayScriptVersion,
      {
        id: script.id,
        name: `${script.name} renamed`,
        code: 'function render() { return { instructions: "v3" }; }',
        hosts: [],
        activate: true,
      },
      auth('superadmin'),
    );
    expect(v3.body.data).toMatchObject({
      name: `${script.name} renamed`,
      activeVersion: 3,
      latestVersion: 3,
      hosts: [],
    });
    const run = async (version?: number) =>
      (
        await t.call(
          api.testPayScript,
          { id: script.id, version, kind: 'render', input: sampleOrder },
          auth('superadmin'),
        )
      ).body.data;
    expect((await run()).output).toEqual({ instructions: 'v3' });
    expect((await run(2)).output).toEqual({ instructions: 'v2' });
    const back = await t.call(api.activatePayScriptVersion, { id: script.id, version: 2 }, auth('superadmin'));
    expect(back.body.data.activeVersion).toBe(2);
    expect(await run()).toMatchObject({ version: 2, output: { instructions: 'v2' } });
    const missing = await t.call(api.activatePayScriptVersion, { id: script.id, version: 9 }, auth('superadmin'));
    expect(missing.status).toBe(404);
    const versions = (await t.call(api.getPayScriptVersions, { id: script.id }, auth('superadmin'))).body.data.list;
    expect(versions.map((v: { version: number; active: boolean }) => [v.version, v.active])).toEqual([
      [3, false],
      [2, true],
      [1, false],
    ]);
    const actions = await t.database.db
      .select({ action: auditLog.action, after: auditLog.after })
      .from(auditLog)
      .where(eq(auditLog.target, `payScript:${script.id}`))
      .orderBy(asc(auditLog.id));
    expect(actions.map((a) => a.action)).toEqual([
      'payScripts.create',
      'payScripts.saveVersion',
      'payScripts.saveVersion',
      'payScripts.activate',
    ]);
  });
});

describe('permissions per role', () => {
  it('technical support reads, edits and test-runs scripts and reads call records', async () => {
    const script = await createScript('support');
    const saved = await t.call(
      api.savePayScriptVersion,
      { id: script.id, name: script.name, code: code(), hosts: ['127.0.0.1'], activate: true },
      auth('support'),
    );
    expect(saved.body.data.activeVersion).toBe(2);
    const run = await t.call(api.testPayScript, { id: script.id, kind: 'render', input: sampleOrder }, auth('support'));
    expect(run.body.data.ok).toBe(true);
    const records = await t.call(api.getPayScriptRecords, { pageIndex: 1, scriptId: script.id }, auth('support'));
    expect(records.body.data.total).toBe(1);
  });

  it('technical maintenance reads everything and changes nothing; merchants and suppliers see nothing', async () => {
    const script = await createScript();
    for (const account of ['maintenance']) {
      expect((await t.call(api.getPayScriptList, { pageIndex: 1 }, auth(account))).body.code).toBe(Code.success);
      expect((await t.call(api.getPayScriptVersions, { id: script.id }, auth(account))).body.code).toBe(Code.success);
      expect((await t.call(api.getPayScriptRecords, { pageIndex: 1 }, auth(account))).body.code).toBe(Code.success);
    }
    const changes = [
      [api.createPayScript, { name: 'By maintenance', code: code(), hosts: [] }],
      [api.savePayScriptVersion, { id: script.id, name: script.name, code: code(), hosts: [] }],
      [api.activatePayScriptVersion, { id: script.id, version: 1 }],
      [api.setPayScriptProducts, { id: script.id, productIds: [1001] }],
      [api.testPayScript, { id: script.id, kind: 'render', input: sampleOrder }],
    ] as const;
    for (const account of ['maintenance', 'merchant1', 'supplier1']) {
      for (const [endpoint, input] of changes) {
        const res = await t.call(endpoint, input, auth(account));
        expect(res.status, `${account} ${endpoint.path}`).toBe(403);
      }
    }
    for (const account of ['merchant1', 'supplier1']) {
      expect((await t.call(api.getPayScriptList, { pageIndex: 1 }, auth(account))).status).toBe(403);
      expect((await t.call(api.getPayScriptRecords, { pageIndex: 1 }, auth(account))).status).toBe(403);
    }
    expect((await t.call(api.getPayScriptVersions, { id: script.id }, auth('superadmin'))).body.data.list).toHaveLength(
      1,
    );
  });
});

describe('the script list as CSV', () => {
  it('exports the filtered scripts with their versions, hosts and products, for the readers alone', async () => {
    const a = await createScript('superadmin', { name: 'Export gateway A' });
    const b = await createScript('superadmin', { name: 'Export gateway B' });
    await createScript('superadmin', { name: 'Other export' });
    const csv = await downloadCsv(t, api.exportPayScriptList, { name: 'export gateway' }, auth('maintenance'));
    expect(csv.status).toBe(200);
    expect(csv.header.split(',')).toEqual(
      expect.arrayContaining(['name', 'activeVersion', 'latestVersion', 'hosts', 'productIds', 'updatedBy']),
    );
    // Newest first, only the filtered ones; the hosts as JSON.
    expect(csv.rows).toHaveLength(2);
    expect(csv.rows[0]).toContain(b.name);
    expect(csv.rows[1]).toContain(a.name);
    expect(csv.rows[0]).toContain('""127.0.0.1""');
    for (const account of ['merchant1', 'supplier1']) {
      expect((await downloadCsv(t, api.exportPayScriptList, {}, auth(account))).status).toBe(403);
    }
  });
});

describe('test runs and call records', () => {
  it('a good script renders (through the host fetch) and parses; each run is recorded with input, output, duration and fetches', async () => {
    const script = await createScript();
    const rendered = await t.call(
      api.testPayScript,
      { id: script.id, kind: 'render', input: sampleOrder },
      auth('admin'),
    );
    expect(rendered.body.data).toMatchObject({
      version: 1,
      ok: true,
      error: null,
      output: {
        payUrl: 'upi://pay?pa=shop@bank&tr=C1',
        qrPayload: 'upi://pay?pa=shop@bank&tr=C1',
        instructions: 'Pay 123.45 INR to null',
      },
      fetches: [{ url: `${gateway}/link?order=C1&amount=12345`, method: 'GET', status: 200, error: null }],
      logs: ['link for C1'],
    });
    const parsed = await t.call(
      api.testPayScript,
      {
        id: script.id,
        kind: 'parse',
        input: { headers: {}, body: '{"order":"C7","amount":500,"utr":"412345678901","ok":true}' },
      },
      auth('admin'),
    );
    expect(parsed.body.data.output).toEqual({ orderCode: 'C7', amount: 500, utr: '412345678901', status: 'paid' });
    const records = (await t.call(api.getPayScriptRecords, { pageIndex: 1, scriptId: script.id }, auth('maintenance')))
      .body.data;
    expect(records.total).toBe(2);
    expect(records.list[0]).toMatchObject({
      id: parsed.body.data.recordId,
      scriptName: script.name,
      version: 1,
      kind: 'parse',
      source: 'test',
      ok: true,
      input: { headers: {}, body: expect.stringContaining('C7') },
      output: { orderCode: 'C7' },
      createdBy: 'admin',
    });
    expect(records.list[1]).toMatchObject({
      kind: 'render',
      orderCode: 'C1',
      fetches: [expect.objectContaining({ status: 200 })],
    });
  });

  it('checks what a script returns against the interface: a javascript: link, a missing utr, a wrong type', async () => {
    const script = await createScript('superadmin', {
      code: `function render(o) { return o.subject === 'js' ? { payUrl: 'javascript:alert(1)' } : { payUrl: 42, extra: 1 }; }
function parseNotification() { return { orderCode: 'C1', amount: 100, utr: null, status: 'paid' }; }`,
    });
    const js = await t.call(
      api.testPayScript,
      { id: script.id, kind: 'render', input: { ...sampleOrder, subject: 'js' } },
      auth('superadmin'),
    );
    expect(js.body.data).toMatchObject({
      ok: false,
      error: expect.stringContaining('payUrl: payUrl must be an http(s) or app link'),
    });
    const wrong = await t.call(
      api.testPayScript,
      { id: script.id, kind: 'render', input: sampleOrder },
      auth('superadmin'),
    );
    expect(wrong.body.data.error).toMatch(/^render\(\) returned what the interface does not allow/);
    expect(wrong.body.data.output).toEqual({ payUrl: 42, extra: 1 });
    const utr = await t.call(
      api.testPayScript,
      { id: script.id, kind: 'parse', input: { headers: {}, body: '' } },
      auth('superadmin'),
    );
    expect(utr.body.data.error).toContain('utr: a paid notification has a utr');
    const errors = await t.call(
      api.getPayScriptRecords,
      { pageIndex: 1, scriptId: script.id, outcome: 'error' },
      auth('superadmin'),
    );
    expect(errors.body.data.total).toBe(3);
  });

  it('a runaway script is stopped and recorded as such; sample input is checked before anything runs', async () => {
    const script = await createScript('superadmin', { code: 'function render() { for (;;) {} }' });
    const looped = await t.call(
      api.testPayScript,
      { id: script.id, kind: 'render', input: sampleOrder },
      auth('superadmin'),
    );
    expect(looped.body.data).toMatchObject({ ok: false, error: 'the script used more than 500 ms of CPU time' });
    expect(looped.body.data.durationMs).toBeLessThan(5_000);
    const bad = await t.call(
      api.testPayScript,
      { id: script.id, kind: 'render', input: { orderCode: 'C1' } },
      auth('superadmin'),
    );
    expect(bad.status).toBe(400);
    const recorded = await t.call(api.getPayScriptRecords, { pageIndex: 1, scriptId: script.id }, auth('superadmin'));
    expect(recorded.body.data.total).toBe(1);
  });

  it('lists records with filters (kind, outcome, source, time range), paging, and exports them as CSV', async () => {
    const script = await createScript();
    for (let i = 0; i < 3; i += 1) {
      await t.call(api.testPayScript, { id: script.id, kind: 'render', input: sampleOrder }, auth('superadmin'));
    }
    await t.call(
      api.testPayScript,
      { id: script.id, kind: 'parse', input: { headers: {}, body: 'not json' } },
      auth('superadmin'),
    );
    const list = (filters: Record<string, unknown>) =>
      t.call(api.getPayScriptRecords, { pageIndex: 1, scriptId: script.id, ...filters }, auth('superadmin'));
    expect((await list({ kind: 'render' })).body.data.total).toBe(3);
    expect((await list({ kind: 'parse', outcome: 'error' })).body.data.list[0].error).toMatch(/^SyntaxError/);
    expect((await list({ outcome: 'ok' })).body.data.total).toBe(3);
    expect((await list({ source: 'payerPage' })).body.data.total).toBe(0);
    const paged = (await list({ pageSize: 2, pageIndex: 2 })).body.data;
    expect([paged.total, paged.list.length]).toEqual([4, 2]);
    expect((await list({ startTime: '2000-01-01 00:00:00', endTime: '2000-01-02 00:00:00' })).body.data.total).toBe(0);
    expect((await list({ startTime: '2000-01-01 00:00:00' })).body.data.total).toBe(4);
    const csv = await downloadCsv(
      t,
      api.exportPayScriptRecords,
      { scriptId: String(script.id), kind: 'render' },
      auth('maintenance'),
    );
    expect(csv.status).toBe(200);
    expect(csv.header.split(',')).toEqual(
      expect.arrayContaining(['scriptName', 'version', 'kind', 'input', 'output', 'error', 'durationMs']),
    );
    expect(csv.rows).toHaveLength(3);
    expect(csv.rows[0]).toContain(script.name);
  });
});

describe('the demo script', () => {
  it('renders a UPI intent link of the exact amount from the account’s UPI ID, and parses a JSON notification', async () => {
    const list = (await t.call(api.getPayScriptList, { pageIndex: 1, name: 'UPI intent' }, auth('support'))).body.data;
    expect(list.list).toEqual([expect.objectContaining({ name: 'UPI intent link', activeVersion: 1, productIds: [] })]);
    const id = list.list[0].id;
    const rendered = await t.call(
      api.testPayScript,
      {
        id,
        kind: 'render',
        input: { ...sampleOrder, payee: { kind: 'upi', vpa: 'asha@sbi', accountName: 'Asha Traders' } },
      },
      auth('support'),
    );
    expect(rendered.body.data.output).toEqual({
      payUrl: 'upi://pay?pa=asha%40sbi&pn=Asha%20Traders&am=123.45&cu=INR&tn=C1',
      qrPayload: 'upi://pay?pa=asha%40sbi&pn=Asha%20Traders&am=123.45&cu=INR&tn=C1',
      instructions: 'Pay exactly 123.45 INR, then enter the UTR below.',
    });
    const parsed = await t.call(
      api.testPayScript,
      {
        id,
        kind: 'parse',
        input: { headers: {}, body: '{"orderCode":"C5","amount":10000,"utr":"412345678901","status":"SUCCESS"}' },
      },
      auth('support'),
    );
    expect(parsed.body.data.output).toEqual({ orderCode: 'C5', amount: 10_000, utr: '412345678901', status: 'paid' });
  });
});

describe('the payer page', () => {
  it('shows what the active script renders for orders of its products, once per order and version', async () => {
    const script = await createScript();
    const payout = await t.call(api.setPayScriptProducts, { id: script.id, productIds: [2001] }, auth('superadmin'));
    expect(payout.status).toBe(422);
    expect(payout.body.data.reason).toBe('payScriptNotCollection');
    const set = await t.call(api.setPayScriptProducts, { id: script.id, productIds: [1001] }, auth('superadmin'));
    expect(set.body.data.productIds).toEqual([1001]);

    const orderCode = await createOrder();
    const view = await t.call(payer.payerScriptView, { orderCode });
    expect(view.body.data.view).toMatchObject({
      payUrl: `upi://pay?pa=shop@bank&tr=${orderCode}`,
      instructions: expect.stringMatching(/^Pay \d+\.\d{2} INR to upi$/),
    });
    // A second read (a reload) answers the recorded render: no second run.
    expect((await t.call(payer.payerScriptView, { orderCode })).body.data).toEqual(view.body.data);
    const runs = await t.database.db.select().from(payScriptCalls).where(eq(payScriptCalls.orderCode, orderCode));
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ source: 'payerPage', kind: 'render', ok: true, createdBy: null });
    expect(runs[0]!.input).toMatchObject({ orderCode, currency: 'INR', product: { id: 1001 }, payee: { kind: 'upi' } });

    // A new active version renders again.
    await t.call(
      api.savePayScriptVersion,
      {
        id: script.id,
        name: script.name,
        code: 'function render(o) { return { instructions: "v2 " + o.orderCode }; }',
        hosts: [],
        activate: true,
      },
      auth('superadmin'),
    );
    expect((await t.call(payer.payerScriptView, { orderCode })).body.data.view).toEqual({
      instructions: `v2 ${orderCode}`,
    });

    // Not awaiting payment any more: nothing.
    const rejected = await t.call(endpoints.orders.reject, { orderCode, rejectReason: 'test' }, auth('superadmin'));
    expect(rejected.body.data.state).not.toBe(ORDER_STATE.allocated);
    const after = await t.call(payer.payerScriptView, { orderCode });
    expect(after.body.data.view).toBeNull();
    expect((await t.call(payer.payerScriptView, { orderCode: 'C0000000000000000000' })).status).toBe(404);

    // A product no script is set for: nothing; taking the product off the script ends it.
    await t.call(api.setPayScriptProducts, { id: script.id, productIds: [] }, auth('superadmin'));
    const [product] = await t.database.db.select().from(products).where(eq(products.id, 1001));
    expect(product!.payScriptId).toBeNull();
    expect((await t.call(payer.payerScriptView, { orderCode: await createOrder() })).body.data.view).toBeNull();
  });

  it('a render that fails shows nothing, and is tried again only after a minute', async () => {
    const script = await createScript('superadmin', { code: 'function render() { throw new Error("gateway down"); }' });
    await t.call(api.setPayScriptProducts, { id: script.id, productIds: [1001] }, auth('superadmin'));
    const orderCode = await createOrder();
    expect((await t.call(payer.payerScriptView, { orderCode })).body.data.view).toBeNull();
    expect((await t.call(payer.payerScriptView, { orderCode })).body.data.view).toBeNull();
    const count = async () =>
      (await t.database.db.select().from(payScriptCalls).where(eq(payScriptCalls.orderCode, orderCode))).length;
    expect(await count()).toBe(1);
    t.clock.advance(61_000);
    await t.call(payer.payerScriptView, { orderCode });
    expect(await count()).toBe(2);
    const records = await t.call(
      api.getPayScriptRecords,
      { pageIndex: 1, orderCode, source: 'payerPage' },
      auth('support'),
    );
    expect(records.body.data.list[0]).toMatchObject({
      ok: false,
      error: expect.stringContaining('gateway down'),
      createdBy: null,
    });
    await t.call(api.setPayScriptProducts, { id: script.id, productIds: [] }, auth('superadmin'));
  });
});
