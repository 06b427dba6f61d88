import { endpoints, RESOURCE_TEXTS, type ResourceRow } from '@paydesk/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, products, resourceDaily, resourceImages, resources, suppliers, users } from '../../db/schema.js';
import { resolveSecretKey, sealSecret } from '../../platform/crypto.js';
import { type Auth, downloadCsv, nextIp, snapshot, startTestApp, type TestApp } from '../../testing/harness.js';
import { openGatewaySecrets } from '../payouts/gateway/secrets.js';

const R = endpoints.resources;
const T = RESOURCE_TEXTS;
let t: TestApp;
const auth = new Map<string, Auth>();
const ACCOUNTS = ['superadmin', 'admin', 'service', 'maintenance', 'support', 'supplier1', 'agent1', 'merchant1'];
const READERS = ['superadmin', 'admin', 'service', 'maintenance', 'supplier1', 'agent1'];
const MANAGERS = ['superadmin', 'admin', 'supplier1', 'agent1'];
const as = (account: string) => auth.get(account)!;
let supplierOneId: number;
let agentOneId: number;

const card = (over: Record<string, unknown> = {}) => ({
  accountName: 'Test Holder',
  bankName: 'HDFC Bank',
  cardNumber: '4111111111111111',
  ifsc: 'HDFC0001234',
  ...over,
});
const GATEWAY_SECRET = 'rzp_secret_Zx9Qv7Lm3Kp1';
const TRC20 = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimitFactor: 1000 } });
  for (const account of ACCOUNTS) auth.set(account, await t.loginWithToken2(account));
  const rows = await t.database.db
    .select({ id: suppliers.id, account: users.account })
    .from(suppliers)
    .innerJoin(users, eq(users.id, suppliers.userId));
  supplierOneId = rows.find((r) => r.account === 'supplier1')!.id;
  agentOneId = rows.find((r) => r.account === 'agent1')!.id;
});
afterAll(() => t.close());

async function createAs(account: string, input: Record<string, unknown>) {
  return t.call(R.create, input, as(account));
}
async function createCard(account: string, over: Record<string, unknown> = {}): Promise<ResourceRow> {
  const res = await createAs(account, {
    productId: 1002,
    ...(account === 'admin' || account === 'superadmin' ? { supplierId: supplierOneId } : {}),
    name: 'Test card',
    details: card(),
    ...over,
  });
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** A second top-level supplier with its own session. */
async function otherSupplier(account: string): Promise<{ id: number; auth: Auth }> {
  const created = await t.call(
    endpoints.suppliers.create,
    { name: `Other ${account}`, mode: 'newAccount', account, password: 'other2024', remark: '' },
    as('admin'),
  );
  expect(created.body.code).toBe(200);
  await t.database.db.update(users).set({ enableGoogleVerify: false }).where(eq(users.id, created.body.data.userId));
  const login = await t.call(endpoints.auth.login, { userName: account, password: 'other2024' }, { ip: nextIp() });
  return { id: created.body.data.id, auth: { token: login.body.data.token } };
}

/** Splits CSV text that quotes fields holding commas or quotes (as csv-stringify writes them). */
function parseCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('the demo data', () => {
  it('supplier1 has an enabled card-to-card account, USDT wallet, bank payout account, a gateway payout account of 2003 and of 2002 and two UPI accounts; agent1 a UPI account with its deep link', async () => {
    const mine = await t.call(R.getList, { pageIndex: 1, pageSize: 100 }, as('supplier1'));
    expect(mine.body.data.list.map((r: ResourceRow) => [r.productId, r.state, r.supplierId])).toEqual([
      [1002, 0, supplierOneId],
      [3015, 0, supplierOneId],
      [2001, 0, supplierOneId],
      [2003, 0, supplierOneId],
      [2002, 0, supplierOneId],
      [1001, 0, supplierOneId],
      [1001, 0, supplierOneId],
    ]);
    const wallet = mine.body.data.list.find((r: ResourceRow) => r.productId === 3015);
    expect(wallet.qrCode).toBe(wallet.details.address);
    // The gateway payout accounts (the /razorpayPayProxy pages) point at the fake gateway `npm start` runs.
    for (const productId of [2003, 2002]) {
      expect(mine.body.data.list.find((r: ResourceRow) => r.productId === productId)).toMatchObject({
        kind: 'gatewayPayout',
        hasSecret: true,
        details: { baseUrl: 'http://127.0.0.1:4010', keyId: 'rzp_test_paydeskfake' },
      });
    }
    const agent = await t.call(R.getList, { pageIndex: 1, productId: 1001 }, as('agent1'));
    expect(agent.body.data.list).toHaveLength(1);
    expect(agent.body.data.list[0]).toMatchObject({
      supplierId: agentOneId,
      kind: 'upi',
      state: 0,
      productName: 'UPI collection',
      qrCode: 'upi://pay?pa=demo.agent1@sbi&pn=Demo%20Agent%20One',
    });
  });
});

describe('every call x every role', () => {
  it('reads: staff who look after suppliers and suppliers; technicalSupport and merchants are refused', async () => {
    for (const account of ACCOUNTS) {
      const res = await t.call(R.getList, { pageIndex: 1 }, as(account));
      const csv = await downloadCsv(t, R.exportList, {}, as(account));
      const stat = await t.call(R.getResourceStaticInfo, {}, as(account));
      if (READERS.includes(account)) {
        expect(res.body.code, account).toBe(200);
        expect(csv.status, account).toBe(200);
        expect(stat.body.code, account).toBe(200);
      } else {
        expect(res.status, account).toBe(403);
        expect(csv.status, account).toBe(403);
        expect(stat.status, account).toBe(403);
      }
    }
  });

  it('changes: suppliers and admins; customer service and maintenance read only, and nothing changes', async () => {
    const own = await createCard('supplier1');
    for (const account of ['service', 'maintenance', 'support', 'merchant1']) {
      const before = await snapshot(t.database);
      const calls = [
        await createAs(account, { productId: 1002, supplierId: supplierOneId, name: 'x', details: card() }),
        await t.call(R.update, { id: own.id, productId: 1002, name: 'y', details: card() }, as(account)),
        await t.call(R.enableResource, { resourceId: own.id, productId: 1002, enable: true }, as(account)),
        await t.call(R.bulkEnable, { ids: [own.id], enable: true }, as(account)),
        await t.call(R.uploadQr, { id: own.id, mime: 'image/png', imageBase64: PNG_1x1 }, as(account)),
        await t.call(R.delete, { id: own.id }, as(account)),
      ];
      for (const res of calls) expect(res.status, account).toBe(403);
      expect(await snapshot(t.database)).toBe(before);
    }
    for (const account of MANAGERS) {
      const res = await t.call(R.enableResource, { resourceId: own.id, productId: 1002, enable: false }, as(account));
      // agent1 is another supplier: supplier1's resource is not there for it.
      expect(res.body.code, account).toBe(account === 'agent1' ? 404 : 200);
    }
  });
});

describe('field rules', () => {
  const cases: Array<[string, number, Record<string, unknown>, string, string]> = [
    ['IFSC with a lower-case letter', 1002, card({ ifsc: 'hdfc0001234' }), 'details.ifsc', T.ifscInvalid],
    ['IFSC whose fifth character is not 0', 1002, card({ ifsc: 'HDFC1001234' }), 'details.ifsc', T.ifscInvalid],
    ['IFSC of 10 characters', 1002, card({ ifsc: 'HDFC000123' }), 'details.ifsc', T.ifscInvalid],
    [
      'card number with a letter',
      1002,
      card({ cardNumber: '41111111A1111111' }),
      'details.cardNumber',
      T.cardNumberInvalid,
    ],
    ['card number of 21 digits', 1002, card({ cardNumber: '1'.repeat(21) }), 'details.cardNumber', T.cardNumberInvalid],
    [
      'account name of 129 characters',
      1002,
      card({ accountName: 'a'.repeat(129) }),
      'details.accountName',
      T.accountNameTooLong,
    ],
    ['empty account name', 1002, card({ accountName: '  ' }), 'details.accountName', T.accountNameRequired],
    ['bank name of 129 characters', 1002, card({ bankName: 'b'.repeat(129) }), 'details.bankName', T.bankNameTooLong],
    ['UPI ID without a bank', 1001, card({ vpa: 'ravi' }), 'details.vpa', T.vpaInvalid],
    [
      'payout IFSC',
      2001,
      { accountName: 'A', bankName: 'B', accountNumber: '1234', ifsc: 'X' },
      'details.ifsc',
      T.ifscInvalid,
    ],
    [
      // India auto payout is paid through a gateway (DESIGN section 7): a bank account is no account of it.
      'India auto payout with a bank account’s fields',
      2002,
      { accountName: 'A', bankName: 'B', accountNumber: '12345678901', ifsc: 'SBIN0000001' },
      'details.baseUrl',
      T.baseUrlInvalid,
    ],
    [
      'payout account number with letters',
      2001,
      { accountName: 'A', bankName: 'B', accountNumber: '12ab', ifsc: 'HDFC0001234' },
      'details.accountNumber',
      T.accountNumberInvalid,
    ],
    [
      'gateway without a key secret',
      2003,
      {
        baseUrl: 'https://api.razorpay.com',
        keyId: 'rzp_live_1',
        webhookSecret: 'h00k-secret',
        accountNumber: '2323230041626905',
      },
      'details.keySecret',
      T.keySecretRequired,
    ],
    [
      'gateway without a webhook secret',
      2003,
      {
        baseUrl: 'https://api.razorpay.com',
        keyId: 'rzp_live_1',
        keySecret: 'k3y-secret',
        accountNumber: '2323230041626905',
      },
      'details.webhookSecret',
      T.webhookSecretRequired,
    ],
    [
      'gateway URL with a password in it',
      2003,
      {
        baseUrl: 'https://user:pw@api.razorpay.com',
        keyId: 'rzp_live_1',
        keySecret: 'k3y-secret',
        webhookSecret: 'h00k-secret',
        accountNumber: '2323230041626905',
      },
      'details.baseUrl',
      T.baseUrlInvalid,
    ],
    ['TRC20 address not starting with T', 3015, { address: `A${TRC20.slice(1)}` }, 'details.address', T.addressInvalid],
    [
      'TRC20 address with a 0 (not base58)',
      3016,
      { address: `T${'0'.repeat(33)}` },
      'details.address',
      T.addressInvalid,
    ],
    [
      'Kenyan number not 2547/2541',
      4001,
      { phone: '254212345678', accountName: 'Wanjiru' },
      'details.phone',
      T.phoneInvalid,
    ],
    [
      'Kenyan number too short',
      4001,
      { phone: '25471234567', accountName: 'Wanjiru' },
      'details.phone',
      T.phoneInvalid,
    ],
    [
      'WeChat payment link not http',
      5001,
      { accountName: 'Li', paymentLink: 'weixin://x' },
      'details.paymentLink',
      T.linkInvalid,
    ],
    [
      'a field of another channel',
      3015,
      { address: TRC20, ifsc: 'HDFC0001234' },
      'details',
      'Unrecognized key: "ifsc"',
    ],
  ];
  it.each(cases)('%s: 400 with its text, nothing stored', async (_label, productId, details, path, message) => {
    const before = await snapshot(t.database);
    const res = await createAs('supplier1', { productId, name: 'bad', details });
    expect(res.status).toBe(400);
    expect(res.body.data.issues).toContainEqual({ path, message });
    expect(await snapshot(t.database)).toBe(before);
  });

  it('limits: min above max is refused; an unknown product is refused', async () => {
    const res = await createAs('supplier1', {
      productId: 1002,
      name: 'x',
      details: card(),
      minAmount: 500,
      maxAmount: 100,
    });
    expect(res.body.data.issues).toContainEqual({ path: 'minAmount', message: T.minAboveMax });
    const unknown = await createAs('supplier1', { productId: 9999, name: 'x', details: card() });
    expect(unknown.body.data.issues).toContainEqual({ path: 'productId', message: T.productUnknown });
  });

  it('each channel accepts its own valid fields; new resources start disabled; values are trimmed', async () => {
    const valid: Array<[number, Record<string, unknown>]> = [
      [1001, card({ vpa: 'ravi.k@okhdfc' })],
      [1002, card({ cardNumber: '4111 1111 1111 1111', accountName: '  Ravi  ' })],
      [2001, { accountName: 'A', bankName: 'B', accountNumber: '12345678901', ifsc: 'SBIN0000001' }],
      [
        2002,
        {
          baseUrl: 'https://api.razorpay.com',
          keyId: 'rzp_live_1',
          keySecret: 'k3y-secret',
          webhookSecret: 'h00k-secret',
          accountNumber: '2323230041626905',
        },
      ],
      [3015, { address: TRC20 }],
      [3016, { address: TRC20 }],
      [4001, { phone: '254712345678', accountName: 'Wanjiru' }],
      [4001, { phone: '254112345678', accountName: 'Otieno' }],
      [5001, { accountName: 'Li Wei', paymentLink: 'https://pay.example.com/x' }],
      [5002, { accountName: 'Zhang', paymentLink: '' }],
    ];
    for (const [productId, details] of valid) {
      const res = await createAs('supplier1', { productId, name: ` channel ${productId} `, details });
      expect(res.body.code, `${productId} ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.data).toMatchObject({
        productId,
        state: 1,
        supplierId: supplierOneId,
        name: `channel ${productId}`,
      });
    }
    const trimmed = await t.call(R.getList, { pageIndex: 1, productId: 1002, text: 'Ravi' }, as('supplier1'));
    expect(trimmed.body.data.list[0].details).toMatchObject({ accountName: 'Ravi', cardNumber: '4111111111111111' });
  });
});

describe('scope: another supplier’s resources answer 404', () => {
  it('supplier1 cannot read, change, switch, upload to or delete supplier2’s resource', async () => {
    const two = await otherSupplier('supplier2');
    const theirs = await createAs('admin', { productId: 1002, supplierId: two.id, name: 'theirs', details: card() });
    const id = theirs.body.data.id as number;
    expect((await t.call(R.getResourceDetailInfo, { resourceId: id, productId: 1002 }, two.auth)).body.code).toBe(200);
    const before = await snapshot(t.database);
    const me = as('supplier1');
    const answers = [
      await t.call(R.getResourceDetailInfo, { resourceId: id, productId: 1002 }, me),
      await t.call(R.qrImage, { id }, me),
      await t.call(R.update, { id, productId: 1002, name: 'mine now', details: card() }, me),
      await t.call(R.enableResource, { resourceId: id, productId: 1002, enable: true }, me),
      await t.call(R.bulkEnable, { ids: [id], enable: true }, me),
      await t.call(R.uploadQr, { id, mime: 'image/png', imageBase64: PNG_1x1 }, me),
      await t.call(R.delete, { id }, me),
      await t.call(R.getResourceStaticInfo, { supplierId: two.id }, me),
      await createAs('supplier1', { productId: 1002, supplierId: two.id, name: 'for them', details: card() }),
    ];
    for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBe(404);
    expect(await snapshot(t.database)).toBe(before);
    const list = await t.call(R.getList, { pageIndex: 1, pageSize: 500, supplierId: two.id }, me);
    expect(list.body.data.total).toBe(0);
    const csv = await downloadCsv(t, R.exportList, {}, me);
    expect(csv.rows.some((l) => l.includes('theirs'))).toBe(false);
  });

  it('a resource of another product is a 404 for the detail and the switch', async () => {
    const own = await createCard('supplier1');
    expect((await t.call(R.getResourceDetailInfo, { resourceId: own.id, productId: 1001 }, as('admin'))).status).toBe(
      404,
    );
    expect(
      (await t.call(R.enableResource, { resourceId: own.id, productId: 1001, enable: true }, as('admin'))).status,
    ).toBe(404);
  });

  it('staff must name the supplier when creating', async () => {
    const res = await createAs('admin', { productId: 1002, name: 'x', details: card() });
    expect(res.status).toBe(422);
    expect(res.body.data.reason).toBe('supplierRequired');
  });
});

describe('gateway secrets', () => {
  it('are sealed at rest and never in any answer, export or audit row', async () => {
    const BASE_URL = 'https://api.razorpay.com';
    const HOOK_SECRET = 'rzp_hook_secret_0001';
    const opened = (sealed: string | null) => openGatewaySecrets(sealed, resolveSecretKey(t.config));
    const created = await createAs('supplier1', {
      productId: 2003,
      name: 'Razorpay X',
      details: {
        baseUrl: `${BASE_URL}/`,
        keyId: 'rzp_live_K1',
        keySecret: GATEWAY_SECRET,
        webhookSecret: HOOK_SECRET,
        accountNumber: '2323230041626905',
      },
    });
    expect(created.body.code).toBe(200);
    const id = created.body.data.id as number;
    expect(created.body.data).toMatchObject({ hasSecret: true, details: { keyId: 'rzp_live_K1', baseUrl: BASE_URL } });
    expect(Object.keys(created.body.data.details).sort()).toEqual(['accountNumber', 'baseUrl', 'keyId']);
    const [stored] = await t.database.db.select().from(resources).where(eq(resources.id, id));
    expect(JSON.stringify(stored!.details)).not.toContain(GATEWAY_SECRET);
    expect(stored!.secretSealed).not.toContain(GATEWAY_SECRET);
    expect(opened(stored!.secretSealed)).toEqual({ keySecret: GATEWAY_SECRET, webhookSecret: HOOK_SECRET });

    // Update without the secret keeps it; with a new one replaces it.
    const kept = await t.call(
      R.update,
      {
        id,
        productId: 2003,
        name: 'Razorpay X2',
        details: { baseUrl: BASE_URL, keyId: 'rzp_live_K2', accountNumber: '2323230041626905' },
      },
      as('supplier1'),
    );
    expect(kept.body.data).toMatchObject({ hasSecret: true, name: 'Razorpay X2' });
    const [afterKeep] = await t.database.db.select().from(resources).where(eq(resources.id, id));
    expect(opened(afterKeep!.secretSealed)).toEqual({ keySecret: GATEWAY_SECRET, webhookSecret: HOOK_SECRET });
    const NEW_SECRET = `${GATEWAY_SECRET}_rotated`;
    const replaced = await t.call(
      R.update,
      {
        id,
        productId: 2003,
        name: 'Razorpay X2',
        details: { baseUrl: BASE_URL, keyId: 'rzp_live_K2', keySecret: NEW_SECRET, accountNumber: '2323230041626905' },
      },
      as('admin'),
    );
    const [afterReplace] = await t.database.db.select().from(resources).where(eq(resources.id, id));
    // The key secret replaced, the webhook secret left out kept.
    expect(opened(afterReplace!.secretSealed)).toEqual({ keySecret: NEW_SECRET, webhookSecret: HOOK_SECRET });
    // An account sealed before webhook secrets existed (the key secret alone, as text) still opens.
    expect(opened(sealSecret(GATEWAY_SECRET, resolveSecretKey(t.config)))).toEqual({ keySecret: GATEWAY_SECRET });

    const answers = [
      created,
      kept,
      replaced,
      await t.call(R.getList, { pageIndex: 1, productId: 2003 }, as('admin')),
      await t.call(R.getList, { pageIndex: 1, productId: 2003 }, as('supplier1')),
      await t.call(R.getResourceDetailInfo, { resourceId: id, productId: 2003 }, as('service')),
    ];
    const csv = await downloadCsv(t, R.exportList, { productId: '2003' }, as('admin'));
    expect(csv.rows.length).toBeGreaterThan(0);
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `resource:${id}`))
      .orderBy(auditLog.id);
    expect(audit.map((a) => a.action)).toEqual(['resources.create', 'resources.update', 'resources.update']);
    expect(
      audit.map((a) => [
        (a.after as { keySealed: boolean }).keySealed,
        (a.after as { keyReplaced?: boolean }).keyReplaced,
      ]),
    ).toEqual([
      [true, undefined],
      [true, false],
      [true, true],
    ]);
    const everything = [...answers.map((a) => JSON.stringify(a.body)), csv.rows.join('\n'), JSON.stringify(audit)].join(
      '\n',
    );
    for (const secret of [GATEWAY_SECRET, NEW_SECRET, HOOK_SECRET, 'rzp_secret'])
      expect(everything).not.toContain(secret);
    expect(everything).not.toContain(stored!.secretSealed!);
  });
});

describe('the switch', () => {
  it('switches on and off, audited; refused while the supplier or the product is disabled', async () => {
    const own = await createCard('supplier1');
    const on = await t.call(R.enableResource, { resourceId: own.id, productId: 1002, enable: true }, as('supplier1'));
    expect(on.body.data).toEqual({ state: 0 });
    const off = await t.call(R.enableResource, { resourceId: own.id, productId: 1002, enable: false }, as('supplier1'));
    expect(off.body.data).toEqual({ state: 1 });
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `resource:${own.id}`))
      .orderBy(auditLog.id);
    expect(audit.filter((a) => a.action === 'resources.enable').map((a) => a.after)).toEqual([
      { state: 0 },
      { state: 1 },
    ]);

    await t.call(endpoints.suppliers.setEnabled, { id: supplierOneId, enabled: false }, as('admin'));
    try {
      const refused = await t.call(
        R.enableResource,
        { resourceId: own.id, productId: 1002, enable: true },
        as('supplier1'),
      );
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ msg: T.supplierDisabled, data: { reason: 'supplierDisabled' } });
      const bulk = await t.call(R.bulkEnable, { ids: [own.id], enable: true }, as('admin'));
      expect(bulk.body.data.reason).toBe('supplierDisabled');
      // Switching off stays possible.
      expect(
        (await t.call(R.enableResource, { resourceId: own.id, productId: 1002, enable: false }, as('supplier1'))).body
          .code,
      ).toBe(200);
    } finally {
      await t.call(endpoints.suppliers.setEnabled, { id: supplierOneId, enabled: true }, as('admin'));
    }
    await t.database.db.update(products).set({ enabled: false }).where(eq(products.id, 1002));
    try {
      const refused = await t.call(
        R.enableResource,
        { resourceId: own.id, productId: 1002, enable: true },
        as('admin'),
      );
      expect(refused.body.data.reason).toBe('productDisabled');
    } finally {
      await t.database.db.update(products).set({ enabled: true }).where(eq(products.id, 1002));
    }
    const [row] = await t.database.db.select().from(resources).where(eq(resources.id, own.id));
    expect(row!.state).toBe(1);
  });

  it('bulkEnable switches all of the caller’s or none', async () => {
    const a = await createCard('supplier1');
    const b = await createCard('supplier1');
    const agents = await t.call(R.getList, { pageIndex: 1, productId: 1001 }, as('agent1'));
    const agentResource = agents.body.data.list[0].id as number;
    const before = await snapshot(t.database);
    const mixed = await t.call(R.bulkEnable, { ids: [a.id, b.id, agentResource], enable: true }, as('supplier1'));
    expect(mixed.status).toBe(404);
    expect(await snapshot(t.database)).toBe(before);
    const mine = await t.call(R.bulkEnable, { ids: [a.id, b.id, a.id], enable: true }, as('supplier1'));
    expect(mine.body.data).toEqual({ count: 2, state: 0 });
    const admin = await t.call(R.bulkEnable, { ids: [a.id, agentResource], enable: false }, as('admin'));
    expect(admin.body.data).toEqual({ count: 2, state: 1 });
    const states = await t.database.db.select({ id: resources.id, state: resources.state }).from(resources);
    const stateOf = (id: number) => states.find((s) => s.id === id)!.state;
    expect([stateOf(a.id), stateOf(b.id), stateOf(agentResource)]).toEqual([1, 0, 1]);
    const tooMany = await t.call(
      R.bulkEnable,
      { ids: Array.from({ length: 201 }, (_, i) => i + 1), enable: true },
      as('admin'),
    );
    expect(tooMany.status).toBe(400);
    await t.call(R.bulkEnable, { ids: [agentResource], enable: true }, as('agent1'));
  });
});

describe('QR images', () => {
  /** A WeChat account: a kind that takes a QR image (a bank card takes none: qrImageNotTaken). */
  const createWechat = () =>
    createCard('supplier1', { productId: 5001, name: 'Test WeChat', details: { accountName: 'Li Wei' } });

  it('stores a PNG (sha256, size) and serves it back to readers as a data URL', async () => {
    const own = await createWechat();
    const none = await t.call(R.qrImage, { id: own.id }, as('supplier1'));
    expect(none.body).toMatchObject({ code: 200, data: null });
    const res = await t.call(R.uploadQr, { id: own.id, mime: 'image/png', imageBase64: PNG_1x1 }, as('supplier1'));
    expect(res.body.code).toBe(200);
    const bytes = Buffer.from(PNG_1x1, 'base64');
    expect(res.body.data.size).toBe(bytes.length);
    const { createHash } = await import('node:crypto');
    expect(res.body.data.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    for (const account of ['supplier1', 'service', 'admin']) {
      const img = await t.call(R.qrImage, { id: own.id }, as(account));
      expect(img.body.data.dataUrl, account).toBe(`data:image/png;base64,${PNG_1x1}`);
    }
    const detail = await t.call(R.getResourceDetailInfo, { resourceId: own.id, productId: 5001 }, as('service'));
    expect(detail.body.data.qrImageId).toBe(res.body.data.qrImageId);
    // A new upload replaces the old image.
    const again = await t.call(R.uploadQr, { id: own.id, mime: 'image/png', imageBase64: PNG_1x1 }, as('admin'));
    const images = await t.database.db
      .select({ id: resourceImages.id })
      .from(resourceImages)
      .where(eq(resourceImages.resourceId, own.id));
    expect(images.map((i) => i.id)).toEqual([again.body.data.qrImageId]);
  });

  it('refuses a type that does not match the content, and an image over 512 KiB; nothing stored', async () => {
    const own = await createWechat();
    const before = await snapshot(t.database);
    const wrongType = await t.call(
      R.uploadQr,
      { id: own.id, mime: 'image/jpeg', imageBase64: PNG_1x1 },
      as('supplier1'),
    );
    expect(wrongType.body).toMatchObject({ code: 422, msg: T.fileType, data: { reason: 'fileType' } });
    const html = Buffer.from('<html><script>alert(1)</script></html>').toString('base64');
    const notImage = await t.call(R.uploadQr, { id: own.id, mime: 'image/png', imageBase64: html }, as('supplier1'));
    expect(notImage.body.data.reason).toBe('fileType');
    const big = Buffer.concat([Buffer.from(PNG_1x1, 'base64'), Buffer.alloc(512 * 1024)]).toString('base64');
    const tooLarge = await t.call(R.uploadQr, { id: own.id, mime: 'image/png', imageBase64: big }, as('supplier1'));
    expect(tooLarge.body).toMatchObject({ code: 422, data: { reason: 'imageTooLarge' } });
    const gif = await t.call(R.uploadQr, { id: own.id, mime: 'image/gif', imageBase64: PNG_1x1 }, as('supplier1'));
    expect(gif.status).toBe(400);
    expect(await snapshot(t.database)).toBe(before);
  });
});

describe('lists, detail, static info, delete', () => {
  it('summary is the sum of the rows’ today amounts; sorting by it; the CSV matches the list', async () => {
    const a = await createCard('supplier1', { name: 'busy card' });
    const b = await createCard('supplier1', { name: 'quiet card' });
    // What the order work (issue 6) will write when orders are paid: today's row per resource.
    const day = formatToday();
    await t.database.db.insert(resourceDaily).values([
      { resourceId: a.id, day, count: 3, amount: 150_000 },
      { resourceId: b.id, day, count: 1, amount: 20_000 },
      { resourceId: b.id, day: '2000-01-01', count: 9, amount: 999_999 },
    ]);
    const list = await t.call(
      R.getList,
      { pageIndex: 1, pageSize: 500, productId: 1002, sortBy: 'todayAmount', sortOrder: 'desc' },
      as('admin'),
    );
    const rows: ResourceRow[] = list.body.data.list;
    expect(rows.length).toBe(list.body.data.total);
    expect(rows.slice(0, 2).map((r) => [r.id, r.todayCount, r.todayAmount])).toEqual([
      [a.id, 3, 150_000],
      [b.id, 1, 20_000],
    ]);
    expect(list.body.data.summary.todayAmount).toBe(rows.reduce((s, r) => s + r.todayAmount, 0));
    expect(list.body.data.summary.todayAmount).toBe(170_000);
    const paged = await t.call(R.getList, { pageIndex: 1, pageSize: 1, productId: 1002 }, as('admin'));
    expect(paged.body.data.summary.todayAmount).toBe(170_000);

    const csv = await downloadCsv(
      t,
      R.exportList,
      { productId: '1002', sortBy: 'todayAmount', sortOrder: 'desc' },
      as('admin'),
    );
    const header = parseCsvLine(csv.header);
    expect(header).toEqual(Object.keys(R.exportList.output.shape));
    const parsed = csv.rows.map(parseCsvLine);
    const col = (name: string) => header.indexOf(name);
    expect(parsed.map((r) => Number(r[col('id')]))).toEqual(rows.map((r) => r.id));
    expect(parsed.reduce((s, r) => s + Number(r[col('todayAmount')]), 0)).toBe(170_000);
    expect(JSON.parse(parsed[0]![col('details')]!)).toEqual(rows[0]!.details);

    const stat = await t.call(R.getResourceStaticInfo, { supplierId: supplierOneId, productId: 1002 }, as('supplier1'));
    expect(stat.body.data.todayAmount).toBe(170_000);
    expect(stat.body.data.todayCount).toBe(4);
    const mineOf1002 = await t.call(R.getList, { pageIndex: 1, pageSize: 500, productId: 1002 }, as('supplier1'));
    expect(stat.body.data.totalCount).toBe(mineOf1002.body.data.total);
    const enabledCount = mineOf1002.body.data.list.filter((r: ResourceRow) => r.state === 0).length;
    expect(stat.body.data.states.find((s: { state: number }) => s.state === 0).count).toBe(enabledCount);
  });

  it('filters by supplier, product, kind, state and account text', async () => {
    const byAgent = await t.call(R.getList, { pageIndex: 1, supplierId: agentOneId }, as('admin'));
    expect(byAgent.body.data.list.every((r: ResourceRow) => r.supplierId === agentOneId)).toBe(true);
    expect(byAgent.body.data.total).toBeGreaterThan(0);
    const usdt = await t.call(R.getList, { pageIndex: 1, kind: 'usdtWallet', state: '0' }, as('service'));
    expect(usdt.body.data.list.length).toBeGreaterThan(0);
    expect(usdt.body.data.list.every((r: ResourceRow) => r.kind === 'usdtWallet' && r.state === 0)).toBe(true);
    const byCard = await t.call(R.getList, { pageIndex: 1, text: '4000001234567899' }, as('maintenance'));
    expect(byCard.body.data.list.map((r: ResourceRow) => r.name)).toEqual(['Demo HDFC card']);
  });

  it('productIds lists several products together (a page serving 2003 and 2002), with the export alike', async () => {
    const gateway = {
      baseUrl: 'https://api.razorpay.com',
      keyId: 'rzp_live_M1',
      keySecret: 'k3y-secret',
      webhookSecret: 'h00k-secret',
      accountNumber: '55501234',
    };
    for (const productId of [2003, 2002]) {
      const res = await createAs('supplier1', { productId, name: `Many ${productId}`, details: gateway });
      expect(res.body.code).toBe(200);
      // Both gateway products' accounts are gateway accounts: base URL and sealed secrets.
      expect(res.body.data).toMatchObject({ kind: 'gatewayPayout', hasSecret: true });
    }
    const all = await t.call(R.getList, { pageIndex: 1, pageSize: 500 }, as('admin'));
    const expected = all.body.data.list
      .filter((r: ResourceRow) => r.productId === 2003 || r.productId === 2002)
      .map((r: ResourceRow) => r.id);
    const both = await t.call(R.getList, { pageIndex: 1, pageSize: 500, productIds: '2003,2002' }, as('admin'));
    expect(both.body.data.list.map((r: ResourceRow) => r.id)).toEqual(expected);
    expect(new Set(both.body.data.list.map((r: ResourceRow) => r.productId))).toEqual(new Set([2003, 2002]));
    expect(both.body.data.total).toBe(expected.length);
    // With one product chosen among them, only that one.
    const one = await t.call(
      R.getList,
      { pageIndex: 1, pageSize: 500, productIds: '2003,2002', productId: 2002, supplierId: supplierOneId },
      as('service'),
    );
    expect(one.body.data.list.length).toBeGreaterThan(0);
    expect(one.body.data.list.every((r: ResourceRow) => r.productId === 2002 && r.supplierId === supplierOneId)).toBe(
      true,
    );
    const csv = await downloadCsv(t, R.exportList, { productIds: '2003,2002' }, as('admin'));
    expect(csv.rows).toHaveLength(expected.length);
    const bad = await t.call(R.getList, { pageIndex: 1, productIds: '2001,x' }, as('admin'));
    expect(bad.status).toBe(400);
  });

  it('detail shows the spec’s fields, with 0 processing orders before orders exist', async () => {
    const agents = await t.call(R.getList, { pageIndex: 1, productId: 1001 }, as('agent1'));
    const upi: ResourceRow = agents.body.data.list[0];
    const detail = await t.call(R.getResourceDetailInfo, { resourceId: upi.id, productId: 1001 }, as('admin'));
    expect(detail.body.data).toEqual({
      id: upi.id,
      productId: 1001,
      supplierName: 'Agent One',
      productName: 'UPI collection',
      processingOrderCount: 0,
      processingOrderAmount: 0,
      state: upi.state,
      link: null,
      jumpLink: null,
      qrCode: upi.qrCode,
      qrImageId: null,
    });
  });

  it('delete hides an idle resource from lists and later calls, keeps the row, audited', async () => {
    const own = await createCard('supplier1', { name: 'to delete' });
    const res = await t.call(R.delete, { id: own.id }, as('supplier1'));
    expect(res.body.code).toBe(200);
    const list = await t.call(R.getList, { pageIndex: 1, text: 'to delete' }, as('supplier1'));
    expect(list.body.data.total).toBe(0);
    expect((await t.call(R.delete, { id: own.id }, as('admin'))).status).toBe(404);
    const [row] = await t.database.db.select().from(resources).where(eq(resources.id, own.id));
    expect(row!.deletedAt).not.toBeNull();
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `resource:${own.id}`));
    expect(audit.map((a) => a.action)).toContain('resources.delete');
  });
});

function formatToday(): string {
  // The platform time zone's date of the test clock (the service's "today").
  return new Intl.DateTimeFormat('en-CA', { timeZone: t.config.timeZone }).format(t.clock.now());
}
