import { Code, endpoints, MERCHANT_TEXTS, minorToMajorText, type Role, USER_TEXTS } from '@paydesk/contract';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, merchants as merchantsTable, partyProducts, users } from '../../db/schema.js';
import { resolveSecretKey } from '../../platform/crypto.js';
import { SessionStore } from '../../platform/sessions.js';
import {
  type Auth,
  DEMO_ROLE,
  downloadCsv,
  nextIp,
  snapshot,
  startTestApp,
  type TestApp,
} from '../../testing/harness.js';
import { LedgerService } from '../ledger/ledger.service.js';
import { UsersService } from '../users/users.service.js';
import { MerchantsService } from './merchants.service.js';

const { merchants } = endpoints;
let t: TestApp;
const auth = new Map<string, Auth>();
/** Every demo account, signed in with token2. */
const ACCOUNTS: Readonly<Record<string, Role>> = DEMO_ROLE;
const as = (account: string) => auth.get(account)!;
let merchant1Id: number;

const newMerchant = (over: Record<string, unknown> = {}) => ({
  name: 'Shop',
  mode: 'newAccount',
  account: `shop${Math.floor(Math.random() * 1e9)}`,
  password: 'shop2024',
  ...over,
});

/** A second merchant service on the same database and key, for what only other modules call. */
function serviceOf(app: TestApp) {
  const db = app.database.db;
  const sessions = new SessionStore(db, app.config, app.clock);
  return new MerchantsService({
    db,
    clock: app.clock,
    users: new UsersService({ db, clock: app.clock, sessions }),
    secretKey: resolveSecretKey(app.config),
    settings: app.app.services.settings,
  });
}

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimitFactor: 1000 } });
  for (const account of Object.keys(ACCOUNTS)) auth.set(account, await t.loginWithToken2(account));
  const [row] = await t.database.db
    .select({ id: merchantsTable.id })
    .from(merchantsTable)
    .innerJoin(users, eq(users.id, merchantsTable.userId))
    .where(eq(users.account, 'merchant1'));
  merchant1Id = row!.id;
});
afterAll(() => t.close());

describe('demo merchant', () => {
  it('merchant1 is linked as Merchant One with its product fees', async () => {
    const res = await t.call(merchants.getDetail, { id: merchant1Id }, as('admin'));
    expect(res.body.data).toMatchObject({
      name: 'Merchant One',
      account: 'merchant1',
      enabled: true,
      signType: 'HMAC-SHA256',
      balance: expect.any(Number),
    });
    // The demo's well-known API credentials (DEMO_MERCHANT_API), printed at first start.
    expect(res.body.data.merchantNo).toBe('10001');
    const [user] = await t.database.db.select().from(users).where(eq(users.account, 'merchant1'));
    expect(user!.partyLinked).toBe(true);
    const products = await t.database.db.select().from(partyProducts).where(eq(partyProducts.userId, user!.id));
    expect(products.map((p) => [p.productId, p.enabled, p.feeRate, p.perTransactionFee]).sort()).toEqual([
      [1001, true, 350, 0],
      [2001, true, 150, 500],
      [2002, true, 120, 300],
      [2003, true, 120, 300],
    ]);
  });
});

describe('who may call what', () => {
  it('every call x every role: allowed roles get through, the others get 403', async () => {
    const staffRead = ['superadmin', 'admin', 'service', 'maintenance'];
    const managers = ['superadmin', 'admin'];
    const cases: Array<{ name: string; allowed: string[]; run: (a: Auth) => Promise<{ body: { code: number } }> }> = [
      { name: 'getList', allowed: staffRead, run: (a) => t.call(merchants.getList, { pageIndex: 1 }, a) },
      {
        name: 'getDetail',
        allowed: [...staffRead, 'merchant1'],
        run: (a) => t.call(merchants.getDetail, { id: merchant1Id }, a),
      },
      { name: 'getMine', allowed: ['merchant1'], run: (a) => t.call(merchants.getMine, {}, a) },
      {
        name: 'update',
        allowed: managers,
        run: (a) =>
          t.call(
            merchants.update,
            {
              id: merchant1Id,
              name: 'Merchant One',
              signType: 'HMAC-SHA256',
              ipWhitelist: [],
              notifyUrl: null,
              callbackEnabled: true,
              remark: 'demo merchant',
            },
            a,
          ),
      },
      {
        name: 'setEnabled',
        allowed: managers,
        run: (a) => t.call(merchants.setEnabled, { id: merchant1Id, enabled: true }, a),
      },
      {
        name: 'revealSecret',
        allowed: [...managers, 'merchant1'],
        run: (a) => t.call(merchants.revealSecret, { id: merchant1Id }, a),
      },
      {
        name: 'create',
        allowed: managers,
        run: (a) => t.call(merchants.create, newMerchant(), a),
      },
    ];
    for (const c of cases) {
      for (const account of Object.keys(ACCOUNTS)) {
        const res = await c.run(as(account));
        const expected = c.allowed.includes(account) ? Code.success : Code.forbidden;
        expect(res.body.code, `${c.name} as ${account}`).toBe(expected);
      }
    }
    for (const account of Object.keys(ACCOUNTS)) {
      const csv = await downloadCsv(t, merchants.exportList, {}, as(account));
      expect(csv.status, `export as ${account}`).toBe(staffRead.includes(account) ? 200 : 403);
    }
  });

  it('a merchant sees only its own merchant: another one answers 404, also for reveal and rotate', async () => {
    const other = await t.call(merchants.create, newMerchant({ name: 'Other' }), as('admin'));
    const otherId = other.body.data.id as number;
    const m = as('merchant1');
    expect((await t.call(merchants.getDetail, { id: merchant1Id }, m)).body.data.account).toBe('merchant1');
    expect((await t.call(merchants.getDetail, { id: otherId }, m)).body.code).toBe(Code.notFound);
    expect((await t.call(merchants.revealSecret, { id: otherId }, m)).body.code).toBe(Code.notFound);
    expect((await t.call(merchants.rotateSecret, { id: otherId }, m)).body.code).toBe(Code.notFound);
    expect((await t.call(merchants.getDetail, { id: 999_999 }, as('admin'))).body.code).toBe(Code.notFound);
    const mine = await t.call(merchants.getMine, {}, m);
    expect(mine.body.data).toMatchObject({ id: merchant1Id, account: 'merchant1' });
  });
});

describe('create, secrets and rotation', () => {
  it('answers the secret once; reveal shows the same; the database holds it sealed; rotation replaces it', async () => {
    // As the console sends it: empty texts as null.
    const input = newMerchant({
      name: 'Secret Shop',
      signType: 'MD5',
      notifyUrl: 'https://shop.example/n',
      remark: null,
      nickname: null,
    });
    const created = await t.call(merchants.create, input, as('admin'));
    expect(created.body.code).toBe(200);
    const { id, merchantNo, secret } = created.body.data as { id: number; merchantNo: string; secret: string };
    expect(merchantNo).toMatch(/^M\d{8}$/);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);

    // Lists, details and exports never carry it.
    const detail = await t.call(merchants.getDetail, { id }, as('admin'));
    expect(detail.body.data).toMatchObject({ name: 'Secret Shop', signType: 'MD5', account: input.account });
    const list = await t.call(merchants.getList, { pageIndex: 1, pageSize: 500 }, as('admin'));
    const csv = await downloadCsv(t, merchants.exportList, {}, as('admin'));
    for (const text of [JSON.stringify(detail.body), JSON.stringify(list.body), csv.rows.join('\n')]) {
      expect(text).not.toContain(secret);
      expect(text).not.toMatch(/secretSealed|"secret"/);
    }

    const [stored] = await t.database.db.select().from(merchantsTable).where(eq(merchantsTable.id, id));
    expect(stored!.secretSealed).not.toContain(secret);
    expect(stored!.secretSealed.startsWith('v1.')).toBe(true);

    const noToken2 = await t.call(merchants.revealSecret, { id }, { token: as('admin').token });
    expect(noToken2.body.code).toBe(Code.token2Required);
    const noToken2Rotate = await t.call(merchants.rotateSecret, { id }, { token: as('admin').token });
    expect(noToken2Rotate.body.code).toBe(Code.token2Required);

    const revealed = await t.call(merchants.revealSecret, { id }, as('admin'));
    expect(revealed.body.data.secret).toBe(secret);

    const service = serviceOf(t);
    expect(await service.signingSecretOf(t.database.db, merchantNo)).toEqual({
      merchantId: id,
      merchantNo,
      secret,
      signType: 'MD5',
      enabled: true,
      ipWhitelist: [],
    });
    expect(await service.signingSecretOf(t.database.db, 'M00000000')).toBeNull();

    const rotated = await t.call(merchants.rotateSecret, { id }, as('superadmin'));
    const next = rotated.body.data.secret as string;
    expect(next).toMatch(/^[0-9a-f]{64}$/);
    expect(next).not.toBe(secret);
    expect((await t.call(merchants.revealSecret, { id }, as('admin'))).body.data.secret).toBe(next);
    expect((await service.signingSecretOf(t.database.db, merchantNo))?.secret).toBe(next);

    // Audited by action and target, never with the secret.
    const rows = await t.database.db
      .select()
      .from(auditLog)
      .where(and(like(auditLog.action, 'merchants.%'), eq(auditLog.target, `merchant:${id}`)));
    expect(rows.map((r) => r.action)).toEqual(
      expect.arrayContaining(['merchants.create', 'merchants.revealSecret', 'merchants.rotateSecret']),
    );
    const audited = JSON.stringify(rows);
    expect(audited).not.toContain(secret);
    expect(audited).not.toContain(next);
    expect(audited).not.toContain(stored!.secretSealed);
  });

  it('a merchant reveals and rotates its own secret with token2', async () => {
    const m = as('merchant1');
    const first = await t.call(merchants.revealSecret, { id: merchant1Id }, m);
    expect(first.body.data.secret).toBe('demo-secret-merchant1');
    const rotated = await t.call(merchants.rotateSecret, { id: merchant1Id }, m);
    expect(rotated.body.data.secret).toMatch(/^[0-9a-f]{64}$/);
    expect((await t.call(merchants.revealSecret, { id: merchant1Id }, m)).body.data.secret).toBe(
      rotated.body.data.secret,
    );
  });

  it('creates the merchant’s console account, which signs in as a merchant; a taken account answers 409', async () => {
    const input = newMerchant({ name: 'Login Shop', nickname: 'Login Shop Owner' });
    expect((await t.call(merchants.create, input, as('admin'))).body.code).toBe(200);
    const signIn = await t.call(
      endpoints.auth.login,
      { userName: input.account, password: input.password },
      { ip: nextIp() },
    );
    expect(signIn.body.data).toMatchObject({ access: 'merchant' });
    const dup = await t.call(
      merchants.create,
      newMerchant({ account: String(input.account).toUpperCase() }),
      as('admin'),
    );
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: Code.conflict, msg: USER_TEXTS.accountExists });
    const taken = await t.call(merchants.create, newMerchant({ account: 'admin' }), as('admin'));
    expect(taken.body.code).toBe(Code.conflict);
  });

  it('validates the spec’s account and password rules, the callback address and the mode’s fields', async () => {
    const before = (await t.call(merchants.getList, { pageIndex: 1 }, as('admin'))).body.data.total;
    const bad: Array<[Record<string, unknown>, string]> = [
      [newMerchant({ account: 'bad name!' }), USER_TEXTS.accountCharset],
      [newMerchant({ password: 'onlyletters' }), USER_TEXTS.passwordStrength],
      [newMerchant({ notifyUrl: 'ftp://x.example/' }), MERCHANT_TEXTS.notifyUrl],
      [newMerchant({ notifyUrl: `https://x.example/${'a'.repeat(520)}` }), MERCHANT_TEXTS.notifyUrl],
      [{ name: 'x', mode: 'linkAccount' }, 'choose the account to link'],
      [newMerchant({ signType: 'SHA1' }), ''],
    ];
    for (const [input, text] of bad) {
      const res = await t.call(merchants.create, input, as('admin'));
      expect(res.body.code, JSON.stringify(input)).toBe(Code.invalidInput);
      if (text) expect(res.body.data.issues.map((i: { message: string }) => i.message)).toContain(text);
    }
    expect((await t.call(merchants.getList, { pageIndex: 1 }, as('admin'))).body.data.total).toBe(before);
  });

  it('linkAccount links an unused merchant account only', async () => {
    await t.call(
      endpoints.users.addUser,
      { nickname: 'Spare', account: 'spare1', password: 'spare2024', access: 'merchant' },
      as('admin'),
    );
    const [spare] = await t.database.db.select().from(users).where(eq(users.account, 'spare1'));
    const unusedBefore = await t.call(endpoints.users.getUnusedUserOptions, { role: 'merchant' }, as('admin'));
    expect(unusedBefore.body.data.map((o: { account: string }) => o.account)).toContain('spare1');
    const linked = await t.call(
      merchants.create,
      { name: 'Spare', mode: 'linkAccount', userId: spare!.id },
      as('admin'),
    );
    expect(linked.body.code).toBe(200);
    const unusedAfter = await t.call(endpoints.users.getUnusedUserOptions, { role: 'merchant' }, as('admin'));
    expect(unusedAfter.body.data.map((o: { account: string }) => o.account)).not.toContain('spare1');
    const again = await t.call(
      merchants.create,
      { name: 'Again', mode: 'linkAccount', userId: spare!.id },
      as('admin'),
    );
    expect(again.body).toMatchObject({ code: Code.businessRule, data: { reason: 'accountUnavailable' } });
    const [serviceUser] = await t.database.db.select().from(users).where(eq(users.account, 'service'));
    const notMerchant = await t.call(
      merchants.create,
      { name: 'CS', mode: 'linkAccount', userId: serviceUser!.id },
      as('admin'),
    );
    expect(notMerchant.body.data.reason).toBe('accountUnavailable');
  });

  it('with AutoCreateRelateMerchant off, newAccount is refused (422) and nothing is created', async () => {
    const input = newMerchant({ name: 'Off Shop' });
    await t.setSetting('AutoCreateRelateMerchant', false);
    try {
      const res = await t.call(merchants.create, input, as('admin'));
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: Code.businessRule, data: { reason: 'autoCreateOff' } });
      const [user] = await t.database.db
        .select()
        .from(users)
        .where(eq(users.account, String(input.account)));
      expect(user).toBeUndefined();
    } finally {
      await t.setSetting('AutoCreateRelateMerchant', undefined);
    }
    expect((await t.call(merchants.create, input, as('admin'))).body.code).toBe(200);
  });
});

describe('settings: IP whitelist, callbacks, enable switch', () => {
  it('accepts IPv4/IPv6 addresses and CIDR ranges, refuses anything else with 400, and audits before/after', async () => {
    const created = await t.call(merchants.create, newMerchant({ name: 'Net Shop' }), as('admin'));
    const id = created.body.data.id as number;
    const base = {
      id,
      name: 'Net Shop 2',
      signType: 'HMAC-SHA256',
      notifyUrl: '',
      callbackEnabled: false,
      remark: 'r',
    };
    for (const entry of [
      '300.1.1.1',
      '10.0.0.0/33',
      '2001:db8::/129',
      'example.com',
      '10.0.0.1/8/1',
      '1.2.3.4/x',
      '',
    ]) {
      const res = await t.call(merchants.update, { ...base, ipWhitelist: ['203.0.113.7', entry] }, as('admin'));
      expect(res.body.code, entry).toBe(Code.invalidInput);
    }
    const tooMany = Array.from({ length: 51 }, (_, i) => `10.0.0.${i}`);
    expect((await t.call(merchants.update, { ...base, ipWhitelist: tooMany }, as('admin'))).body.code).toBe(400);

    const good = ['203.0.113.7', ' 198.51.100.0/24 ', '2001:db8::1', '2001:db8::/32', '203.0.113.7'];
    expect((await t.call(merchants.update, { ...base, ipWhitelist: good }, as('admin'))).body.code).toBe(200);
    const detail = (await t.call(merchants.getDetail, { id }, as('admin'))).body.data;
    expect(detail).toMatchObject({
      name: 'Net Shop 2',
      ipWhitelist: ['203.0.113.7', '198.51.100.0/24', '2001:db8::1', '2001:db8::/32'],
      notifyUrl: null,
      callbackEnabled: false,
      remark: 'r',
    });
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'merchants.update'), eq(auditLog.target, `merchant:${id}`)));
    expect(audit!.before).toMatchObject({ name: 'Net Shop', ipWhitelist: [] });
    expect(audit!.after).toMatchObject({ name: 'Net Shop 2', callbackEnabled: false });
  });

  it('refuses catch-all and nearly catch-all ranges (0.0.0.0/0, ::/0, wider than /16 or /32) with 400 and the reason', async () => {
    const created = await t.call(merchants.create, newMerchant({ name: 'Wide Shop' }), as('admin'));
    const id = created.body.data.id as number;
    const base = { id, name: 'Wide Shop', signType: 'HMAC-SHA256', notifyUrl: '', callbackEnabled: true, remark: '' };
    const before = await snapshot(t.database);
    for (const entry of [
      '0.0.0.0/0',
      '::/0',
      '0.0.0.0/1',
      '10.0.0.0/8',
      '203.0.0.0/15',
      '2001::/16',
      '2001:db8::/31',
      // IPv6 forms of every IPv4 address: the server matches IPv4 callers against them.
      '::/32',
      '::ffff:0:0/96',
      '::ffff:10.0.0.0/104',
    ]) {
      const res = await t.call(merchants.update, { ...base, ipWhitelist: ['203.0.113.7', entry] }, as('admin'));
      expect(res.status, entry).toBe(400);
      expect(res.body, entry).toMatchObject({
        code: Code.invalidInput,
        msg: `${entry}: ${MERCHANT_TEXTS.ipTooWide}`,
        data: {
          reason: 'ipTooWide',
          issues: [{ path: 'ipWhitelist.1', message: `${entry}: ${MERCHANT_TEXTS.ipTooWide}` }],
        },
      });
    }
    const create = await t.call(merchants.create, newMerchant({ ipWhitelist: ['0.0.0.0/0'] }), as('admin'));
    expect(create.body).toMatchObject({ code: Code.invalidInput, data: { reason: 'ipTooWide' } });
    expect(await snapshot(t.database)).toBe(before);
    // The widest ranges still allowed.
    const edges = ['198.51.0.0/16', '2001:db8::/32', '::ffff:198.51.0.0/112'];
    const ok = await t.call(merchants.update, { ...base, ipWhitelist: edges }, as('admin'));
    expect(ok.body.code, JSON.stringify(ok.body)).toBe(200);
    expect((await t.call(merchants.getDetail, { id }, as('admin'))).body.data.ipWhitelist).toEqual(edges);
  });

  it('setEnabled switches a merchant and the list filters by it', async () => {
    const created = await t.call(merchants.create, newMerchant({ name: 'Switch Shop' }), as('admin'));
    const id = created.body.data.id as number;
    expect((await t.call(merchants.setEnabled, { id, enabled: false }, as('admin'))).body.code).toBe(200);
    const off = await t.call(merchants.getList, { pageIndex: 1, pageSize: 500, enabled: 'false' }, as('service'));
    expect(off.body.data.list.map((r: { id: number }) => r.id)).toContain(id);
    expect(off.body.data.list.every((r: { enabled: boolean }) => !r.enabled)).toBe(true);
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'merchants.setEnabled'), eq(auditLog.target, `merchant:${id}`)));
    expect(audit).toMatchObject({ before: { enabled: true }, after: { enabled: false } });
    expect((await t.call(merchants.setEnabled, { id: 999_999, enabled: true }, as('admin'))).body.code).toBe(404);
  });
});

describe('list, totals and export', () => {
  it('shows ledger balances; totals equal the sum of the filtered rows; sorting by balance; CSV matches the list', async () => {
    const a = (await t.call(merchants.create, newMerchant({ name: 'Rich Shop' }), as('admin'))).body.data.id;
    const b = (await t.call(merchants.create, newMerchant({ name: 'Rich Shop B' }), as('admin'))).body.data.id;
    const ledger = new LedgerService({ db: t.database.db, clock: t.clock });
    await t.database.db.transaction(async (tx) => {
      const post = (key: string, account: string, amount: number) =>
        ledger.transfer(tx, {
          idempotencyKey: key,
          type: 'adjustment',
          note: 'test',
          postings: [
            { account, amount },
            { account: 'platform:adjustments', amount: -amount },
          ],
        });
      await post('mt:a', `merchant:${a}:available`, 123_456);
      await post('mt:a:f', `merchant:${a}:frozen`, 1_000);
      await post('mt:b', `merchant:${b}:available`, 99);
    });

    const list = await t.call(
      merchants.getList,
      { pageIndex: 1, pageSize: 500, name: 'Rich Shop', sortBy: 'balance', sortOrder: 'desc' },
      as('admin'),
    );
    const rows = list.body.data.list as Array<{ id: number; balance: number; frozenBalance: number }>;
    expect(rows.map((r) => [r.id, r.balance, r.frozenBalance])).toEqual([
      [a, 123_456, 1_000],
      [b, 99, 0],
    ]);
    expect(list.body.data.summary).toEqual({ balance: 123_555, frozenBalance: 1_000 });
    const asc = await t.call(
      merchants.getList,
      { pageIndex: 1, pageSize: 500, name: 'Rich Shop', sortBy: 'balance', sortOrder: 'asc' },
      as('admin'),
    );
    expect(asc.body.data.list.map((r: { id: number }) => r.id)).toEqual([b, a]);

    // Totals cover the whole filtered set, not only the page.
    const all = await t.call(merchants.getList, { pageIndex: 1, pageSize: 500 }, as('admin'));
    const page = await t.call(merchants.getList, { pageIndex: 1, pageSize: 1 }, as('admin'));
    const sum = (key: 'balance' | 'frozenBalance') =>
      (all.body.data.list as Array<Record<string, number>>).reduce((s, r) => s + r[key]!, 0);
    expect(page.body.data.summary).toEqual({ balance: sum('balance'), frozenBalance: sum('frozenBalance') });
    expect(page.body.data.total).toBe(all.body.data.total);

    const csv = await downloadCsv(t, merchants.exportList, { name: 'Rich Shop' }, as('service'));
    const header = csv.header.split(',');
    expect(header).toEqual(expect.arrayContaining(['merchantNo', 'name', 'account', 'balance', 'frozenBalance']));
    expect(header).not.toContain('secret');
    expect(csv.rows).toHaveLength(2);
    const balances = csv.rows.map((r) => r.split(',')[header.indexOf('balance')]);
    expect(balances.sort()).toEqual([minorToMajorText(123_456), minorToMajorText(99)].sort());

    // The console's export link carries the list's sorting too.
    const sorted = await downloadCsv(
      t,
      merchants.exportList,
      { name: 'Rich Shop', sortBy: 'balance', sortOrder: 'desc' },
      as('admin'),
    );
    expect(sorted.status).toBe(200);
    expect(sorted.rows).toHaveLength(2);

    const everything = await downloadCsv(t, merchants.exportList, {}, as('admin'));
    expect(everything.rows).toHaveLength(all.body.data.total);
  });

  it('filters by merchant number and account', async () => {
    const created = await t.call(merchants.create, newMerchant({ name: 'Find Me' }), as('admin'));
    const { merchantNo } = created.body.data;
    const byNo = await t.call(merchants.getList, { pageIndex: 1, merchantNo }, as('maintenance'));
    expect(byNo.body.data.list.map((r: { name: string }) => r.name)).toEqual(['Find Me']);
    const byAccount = await t.call(merchants.getList, { pageIndex: 1, account: 'merchant1' }, as('admin'));
    expect(byAccount.body.data.list.map((r: { id: number }) => r.id)).toEqual([merchant1Id]);
  });
});
