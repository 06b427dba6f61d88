import {
  Code,
  endpoints,
  ORDER_STATE,
  ORDER_UPLOAD_COLUMNS,
  ORDER_UPLOAD_LAYOUTS,
  ORDER_UPLOAD_TEXTS,
  PAYOUT_STATE,
  PAYOUT_TEXTS,
  PAYOUT_UPLOAD_COLUMNS,
} from '@paydesk/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, merchants, orders, partyProducts, payoutEvents, payouts, resources } from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, snapshot, startTestApp, type TestApp } from '../../testing/harness.js';
import { demoPayoutFee, signedPayoutRequest } from '../../testing/payout-fixtures.js';
import { accountCode } from '../ledger/accounts.js';
import { LedgerService } from '../ledger/ledger.service.js';
import { parseOrderCsv } from './order-csv.js';
import { UPLOAD_AUDIT_ACTION } from './orders.upload.js';
import { signParams } from './signature.js';

const { orders: api } = endpoints;
let t: TestApp;
let merchant: Auth;
let merchantId = 0;

beforeAll(async () => {
  t = await startTestApp();
  merchant = await t.login('merchant1');
  const [m] = await t.database.db.select().from(merchants);
  merchantId = m!.id;
});
afterAll(() => t.close());

interface FilePart {
  name?: string;
  type?: string;
  content: string | Uint8Array;
}

/** A multipart body as a browser's FormData sends it (the platform's own encoder). */
async function form(parts: { file?: FilePart; fields?: Record<string, string> }) {
  const data = new FormData();
  if (parts.file) {
    const { name = 'orders.csv', type = 'text/csv', content } = parts.file;
    data.append('file', new Blob([content as string | Uint8Array<ArrayBuffer>], { type }), name);
  }
  for (const [k, v] of Object.entries(parts.fields ?? {})) data.append(k, v);
  const request = new Request('http://localhost/', { method: 'POST', body: data });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type')!,
  };
}

let keyNo = 0;
const newKey = () => `k${Date.now()}-${++keyNo}`;

async function upload(
  file: FilePart,
  opts: { key?: string; orderType?: string; auth?: Auth; fields?: Record<string, string> } = {},
) {
  const body = await form({
    file,
    fields: opts.fields ?? { orderType: opts.orderType ?? 'collection', key: opts.key ?? newKey() },
  });
  const auth = opts.auth ?? merchant;
  const res = await t.app.inject({
    method: 'POST',
    url: api.createBatch.path,
    payload: body.payload,
    // The upload is limited per client address: a describe may use its own.
    remoteAddress: auth.ip ?? '127.0.0.1',
    headers: {
      'content-type': body.contentType,
      ...(auth.token ? { token: auth.token } : {}),
      ...(auth.token2 ? { token2: auth.token2 } : {}),
    },
  });
  return { status: res.statusCode, body: res.json() };
}

const csv = (lines: string[]) => `${lines.join('\r\n')}\r\n`;
let orderNo = 0;
const mchNo = () => `U${Date.now()}${++orderNo}`;
const orderOf = async (orderCode: string) =>
  (await t.database.db.select().from(orders).where(eq(orders.orderCode, orderCode)))[0]!;

describe('the CSV reader', () => {
  it('reads a header and rows (BOM, quotes, CRLF, blank lines) with each row’s line in the file', () => {
    const rows = parseOrderCsv(
      '\uFEFFmchOrderNo,productId,amount,subject\r\nA1,1001,10000,"Top-up, gold"\r\n\r\nA2,1001,20000,"two\nlines"\r\n,,,\r\nA3,1001,30000,',
    );
    expect(rows).toEqual([
      { row: 2, cells: { mchOrderNo: 'A1', productId: '1001', amount: '10000', subject: 'Top-up, gold' } },
      { row: 4, cells: { mchOrderNo: 'A2', productId: '1001', amount: '20000', subject: 'two\nlines' } },
      { row: 7, cells: { mchOrderNo: 'A3', productId: '1001', amount: '30000' } },
    ]);
  });

  it('refuses a wrong header, a wrong cell count and bad quoting with the parse text and the line', () => {
    const reasonOf = (text: string) => {
      try {
        parseOrderCsv(text);
        return 'parsed';
      } catch (error) {
        const e = error as { message: string; data: { reason: string; issues: Array<{ message: string }> } };
        return `${e.data.reason}: ${e.message} | ${e.data.issues[0]!.message}`;
      }
    };
    expect(reasonOf('mchOrderNo,productId\nA1,1001\n')).toBe(
      `parseFailed: ${ORDER_UPLOAD_TEXTS.parseFailed} | line 1: missing column amount`,
    );
    expect(reasonOf('mchOrderNo,productId,amount,amout\n')).toContain('unknown column "amout"');
    expect(reasonOf('mchOrderNo,productId,amount,amount\n')).toContain('appears twice');
    expect(reasonOf('mchOrderNo,productId,amount\nA1,1001,100,extra\n')).toContain('on line 2');
    expect(reasonOf('mchOrderNo,productId,amount\nA1,1001,"100\n')).toContain('Quote Not Closed');
    expect(reasonOf('mchOrderNo,productId,amount\n')).toMatch(/^noRows/);
  });
});

describe('POST /v1.0/api/order/createBatch', () => {
  it('creates good rows and refuses the others, each with its own result, and audits the upload', async () => {
    const clash = mchNo();
    // An order made through the signed API: the same mchOrderNo with other content in the file is 2005.
    const apiParams = {
      mchId: DEMO_MERCHANT_API.mchId,
      productId: '1001',
      mchOrderNo: clash,
      amount: '51001',
    };
    const apiRes = await t.call(api.create, {
      ...apiParams,
      sign: signParams(apiParams, DEMO_MERCHANT_API.secret, 'HMAC-SHA256'),
    });
    expect(apiRes.body.code, JSON.stringify(apiRes.body)).toBe(200);
    const same = mchNo();
    const sameParams = { mchId: DEMO_MERCHANT_API.mchId, productId: '1001', mchOrderNo: same, amount: '51002' };
    const sameRes = await t.call(api.create, {
      ...sameParams,
      sign: signParams(sameParams, DEMO_MERCHANT_API.secret, 'HMAC-SHA256'),
    });

    const good = mchNo();
    const file = csv([
      'mchOrderNo,productId,amount,notifyUrl,subject,userName,ifscCode',
      `${good},1001,51003,http://127.0.0.1:9/notify,Top-up,Asha,`,
      `${clash},1001,51099,,,,`,
      `${same},1001,51002,,,,`,
      `${mchNo()},1001,9999,,,,`,
      `${mchNo()},9999,51004,,,,`,
      `${mchNo()},1001,51005,,,,sbin0001`,
      `,1001,51006,,,,`,
    ]);
    const key = newKey();
    const before = await t.database.db.select().from(orders);
    const res = await upload({ content: file }, { key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({ key, orderType: 'collection', fileName: 'orders.csv', rows: 7 });
    expect(data).toMatchObject({ created: 1, existing: 1, refused: 5, replayed: false });
    const byRow = (row: number) => data.results.find((r: { row: number }) => r.row === row);
    expect(byRow(2)).toMatchObject({ mchOrderNo: good, code: 200, created: true, state: ORDER_STATE.allocated });
    expect(byRow(3)).toMatchObject({ mchOrderNo: clash, code: Code.duplicateOrderNo, created: false });
    expect(byRow(3).orderCode).toBeUndefined();
    expect(byRow(4)).toMatchObject({ code: 200, created: false, orderCode: sameRes.body.data.orderCode });
    expect(byRow(5)).toMatchObject({ code: Code.amountOutOfRange, created: false });
    expect(byRow(5).msg).toContain('between 10000 and 5000000');
    expect(byRow(6)).toMatchObject({ code: Code.productUnavailable, created: false });
    expect(byRow(7)).toMatchObject({ code: Code.invalidInput, msg: 'invalid IFSC format' });
    expect(byRow(8)).toMatchObject({ code: Code.invalidInput, msg: 'mchOrderNo is required' });

    // Exactly one new order, the good row's, with the file's values, allocated with its hold.
    const after = await t.database.db.select().from(orders);
    expect(after.length).toBe(before.length + 1);
    const made = await orderOf(byRow(2).orderCode);
    expect(made).toMatchObject({
      merchantId,
      merchantOrderNo: good,
      amount: 51_003,
      notifyUrl: 'http://127.0.0.1:9/notify',
      subject: 'Top-up',
      userName: 'Asha',
      state: ORDER_STATE.allocated,
      holdOpen: true,
    });
    // The merchant sees it in its list like an API order.
    const list = await t.call(api.getList, { pageIndex: 1, pageSize: 20, merchantOrderId: good }, merchant);
    expect(list.body.data.list.map((o: { orderCode: string }) => o.orderCode)).toEqual([made.orderCode]);

    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, UPLOAD_AUDIT_ACTION), eq(auditLog.target, `upload:${merchantId}:${key}`)));
    expect(audit).toMatchObject({ account: 'merchant1', role: 'merchant' });
    expect(audit!.after).toMatchObject({ rows: 7, created: 1, existing: 1, refused: 5, fileName: 'orders.csv' });
  });

  it('the same key again answers the first upload’s result and creates nothing; another file with it is 409', async () => {
    const key = newKey();
    const file = csv(['mchOrderNo,productId,amount', `${mchNo()},1001,52001`, `${mchNo()},1001,52002`]);
    const first = await upload({ content: file }, { key });
    expect(first.body.data).toMatchObject({ created: 2, replayed: false });
    const before = await snapshot(t.database);
    const again = await upload({ content: file }, { key });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ ...first.body.data, replayed: true });
    const other = await upload({ content: csv(['mchOrderNo,productId,amount', `${mchNo()},1001,52003`]) }, { key });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ code: Code.conflict, msg: ORDER_UPLOAD_TEXTS.keyReused });
    expect(await snapshot(t.database)).toBe(before);
    // A new key with the same file: its rows are the same orders (idempotent on mchOrderNo), none new.
    const newKeyRes = await upload({ content: file });
    expect(newKeyRes.body.data).toMatchObject({ created: 0, existing: 2, refused: 0, replayed: false });
    expect(newKeyRes.body.data.results.map((r: { orderCode: string }) => r.orderCode)).toEqual(
      first.body.data.results.map((r: { orderCode: string }) => r.orderCode),
    );
  });

  it('two uploads with one key at once: one makes the orders, the other is refused or gets its answer', async () => {
    const key = newKey();
    const rows = [`${mchNo()},1001,52101`, `${mchNo()},1001,52102`, `${mchNo()},1001,52103`];
    const file = csv(['mchOrderNo,productId,amount', ...rows]);
    const before = (await t.database.db.select().from(orders)).length;
    const [a, b] = await Promise.all([upload({ content: file }, { key }), upload({ content: file }, { key })]);
    const answers = [a, b].filter((r) => r.status === 200).map((r) => r.body.data);
    const refusals = [a, b].filter((r) => r.status !== 200);
    expect(answers.filter((d) => !d.replayed)).toHaveLength(1);
    for (const r of refusals) expect(r.body).toMatchObject({ code: Code.conflict, data: { reason: 'inProgress' } });
    for (const d of answers) expect(d.results).toEqual(answers[0].results);
    expect((await t.database.db.select().from(orders)).length).toBe(before + 3);
  });

  it('refuses files that are not CSV, broken CSV and too many rows with the spec’s texts, changing nothing', async () => {
    const before = await snapshot(t.database);
    const good = csv(['mchOrderNo,productId,amount', `${mchNo()},1001,53001`]);
    const txt = await upload({ name: 'orders.txt', type: 'text/plain', content: good });
    expect(txt.status).toBe(400);
    expect(txt.body).toMatchObject({ code: Code.invalidInput, msg: 'file type error', data: { reason: 'fileType' } });
    expect(txt.body.data.issues[0].message).toContain(ORDER_UPLOAD_TEXTS.notCsv);
    // A .csv name with an image's type, and an image's bytes under a CSV name and type.
    expect((await upload({ type: 'image/png', content: good })).body.msg).toBe('file type error');
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0xff, 0xfe]);
    expect((await upload({ content: png })).body.data.reason).toBe('fileType');

    const broken = await upload({ content: 'mchOrderNo,productId,amount\r\nA1,1001,"100\r\n' });
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ msg: 'format parsing failed, check the file format' });
    expect(broken.body.data.reason).toBe('parseFailed');
    const wrongCount = await upload({ content: csv(['mchOrderNo,productId,amount', 'A1,1001']) });
    expect(wrongCount.body.data.reason).toBe('parseFailed');
    const missing = await upload({ content: csv(['mchOrderNo,amount', 'A1,100']) });
    expect(missing.body.data.issues[0].message).toContain('missing column productId');

    const many = ['mchOrderNo,productId,amount'];
    for (let i = 0; i < 1001; i += 1) many.push(`M${i},1001,${60_000 + i}`);
    const tooMany = await upload({ content: csv(many) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.data.reason).toBe('tooManyRows');
    const big = await upload({ content: `mchOrderNo,productId,amount\r\n${'x'.repeat(1_100_000)}` });
    expect(big.status).toBe(400);
    expect(big.body.data.reason).toBe('tooLarge');
    expect(await snapshot(t.database)).toBe(before);
  });

  it('an orderType other than collection or payout, a missing key and malformed multipart are 400, never 500', async () => {
    const before = await snapshot(t.database);
    const good = csv(['mchOrderNo,productId,amount', `${mchNo()},1001,54001`]);
    const refund = await upload({ content: good }, { orderType: 'refund' });
    expect(refund.status).toBe(400);
    expect(refund.body.msg).toContain(ORDER_UPLOAD_TEXTS.orderType);
    const noKey = await upload({ content: good }, { fields: { orderType: 'collection' } });
    expect(noKey.status).toBe(400);
    const twoKeys = await form({ file: { content: good }, fields: { orderType: 'collection', key: 'a' } });
    const send = (payload: Buffer | string, contentType: string) =>
      t.app.inject({
        method: 'POST',
        url: api.createBatch.path,
        payload,
        headers: { 'content-type': contentType, token: merchant.token! },
      });
    const truncated = await send(twoKeys.payload.subarray(0, twoKeys.payload.length - 30), twoKeys.contentType);
    expect(truncated.statusCode, truncated.body).toBe(400);
    expect(truncated.json()).toMatchObject({ code: Code.invalidInput, msg: 'upload failed' });
    const noBoundary = await send(
      '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
      'multipart/form-data',
    );
    expect(noBoundary.statusCode, noBoundary.body).toBe(400);
    const garbage = await send('this is not multipart at all', 'multipart/form-data; boundary=abc');
    expect(garbage.statusCode, garbage.body).toBe(400);
    const twoFiles = new FormData();
    twoFiles.append('file', new Blob([good], { type: 'text/csv' }), 'a.csv');
    twoFiles.append('file', new Blob([good], { type: 'text/csv' }), 'b.csv');
    const req = new Request('http://localhost/', { method: 'POST', body: twoFiles });
    const two = await send(Buffer.from(await req.arrayBuffer()), req.headers.get('content-type')!);
    expect(two.statusCode, two.body).toBe(400);
    expect(await snapshot(t.database)).toBe(before);
  });

  it('no other endpoint takes a multipart body: multipart is parsed only for the upload', async () => {
    const body = await form({ fields: { mchId: DEMO_MERCHANT_API.mchId, productId: '1001' } });
    const res = await t.app.inject({
      method: 'POST',
      url: api.create.path,
      payload: body.payload,
      headers: { 'content-type': body.contentType },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: Code.invalidInput });
    expect(res.json().msg).toMatch(/unsupported media type/i);
  });

  it('is for merchants only: other roles get 403 before the file is read', async () => {
    const file = { content: csv(['mchOrderNo,productId,amount', `${mchNo()},1001,55001`]) };
    for (const account of ['admin', 'superadmin', 'supplier1', 'service']) {
      const res = await upload(file, { auth: await t.login(account) });
      expect(res.status, account).toBe(403);
      expect(res.body.data.reason).toBe('roleDenied');
    }
    const none = await upload(file, { auth: {} });
    expect(none.body.code).toBe(Code.sessionExpired);
  });

  it('a disabled merchant or a closed platform uploads nothing', async () => {
    await t.database.db.update(merchants).set({ enabled: false }).where(eq(merchants.id, merchantId));
    try {
      const res = await upload({ content: csv(['mchOrderNo,productId,amount', `${mchNo()},1001,56001`]) });
      expect(res.body.code).toBe(Code.merchantUnavailable);
      const flag = await t.call(api.orderUploadFlag, {}, merchant);
      for (const type of ['collection', 'payout'] as const) {
        expect(flag.body.data.types[type]).toMatchObject({ allowed: false, reason: 'merchantUnavailable' });
      }
    } finally {
      await t.database.db.update(merchants).set({ enabled: true }).where(eq(merchants.id, merchantId));
    }
    await t.setSetting('enableService', false);
    try {
      const res = await upload({ content: csv(['mchOrderNo,productId,amount', `${mchNo()},1001,56002`]) });
      expect(res.body.code).toBe(Code.serviceClosed);
      const flag = (await t.call(api.orderUploadFlag, {}, merchant)).body.data;
      expect([flag.types.collection.reason, flag.types.payout.reason]).toEqual(['serviceClosed', 'serviceClosed']);
    } finally {
      await t.setSetting('enableService', undefined);
    }
  });
});

describe('GET /v1.0/order/orderUploadFlag', () => {
  it('tells a merchant per order type it may upload, with the limits, the columns and its products; others may not', async () => {
    const res = await t.call(api.orderUploadFlag, {}, merchant);
    expect(res.body.data).toEqual({
      maxRows: 1000,
      maxBytes: 1_048_576,
      types: {
        collection: {
          allowed: true,
          reason: null,
          columns: [...ORDER_UPLOAD_COLUMNS],
          requiredColumns: ['mchOrderNo', 'productId', 'amount'],
          productIds: [1001],
        },
        // merchant1 has bank payout 2001, India auto payout 2002 and gateway payout 2003 enabled (demo).
        payout: {
          allowed: true,
          reason: null,
          columns: [...PAYOUT_UPLOAD_COLUMNS],
          requiredColumns: ['mchOrderNo', 'productId', 'amount'],
          productIds: [2001, 2002, 2003],
        },
      },
    });
    const admin = await t.call(api.orderUploadFlag, {}, await t.login('admin'));
    expect(admin.body.data.types.collection).toMatchObject({ allowed: false, reason: 'merchantsOnly' });
    expect(admin.body.data.types.payout).toMatchObject({ allowed: false, reason: 'merchantsOnly' });
  });

  it('closes the payout upload when the merchant has no enabled payout product, and only that', async () => {
    const [m] = await t.database.db.select().from(merchants).where(eq(merchants.id, merchantId));
    const mine = and(eq(partyProducts.userId, m!.userId), inArray(partyProducts.productId, [2001, 2002, 2003]));
    await t.database.db.update(partyProducts).set({ enabled: false }).where(mine);
    try {
      const flag = (await t.call(api.orderUploadFlag, {}, merchant)).body.data;
      expect(flag.types.payout).toMatchObject({ allowed: false, reason: 'noPayoutProduct', productIds: [] });
      expect(flag.types.collection).toMatchObject({ allowed: true, productIds: [1001] });
    } finally {
      await t.database.db.update(partyProducts).set({ enabled: true }).where(mine);
    }
  });
});

describe('POST /v1.0/api/order/createBatch with orderType payout', () => {
  let ledger: LedgerService;
  let merchantToken2: Auth;
  const balance = (code: string) => ledger.balanceOf(t.database.db, code);
  const available = () => balance(accountCode('merchant', merchantId, 'available'));
  const frozen = () => balance(accountCode('merchant', merchantId, 'frozen'));
  const header = 'mchOrderNo,productId,amount,userName,cardNumber,ifscCode,bankName,bankBranch,address';
  const payee = 'Asha Rao,50100234567890,HDFC0001234,HDFC Bank,Koramangala,"12 MG Road, Bengaluru"';
  const payoutRow = (mchOrderNo: string, amount: number, fields = payee) => `${mchOrderNo},2001,${amount},${fields}`;
  const payoutsOf = (mchOrderNos: string[]) =>
    t.database.db.select().from(payouts).where(inArray(payouts.merchantOrderNo, mchOrderNos));
  const uploadPayouts = (content: string, opts: { key?: string; auth?: Auth } = {}) =>
    upload({ name: 'payouts.csv', content }, { orderType: 'payout', auth: merchantToken2, ...opts });
  /** Cancels the merchant's payouts a test made, so its funds are back for the next test. */
  async function giveBack(orderCodes: string[]) {
    const rows = await t.database.db.select().from(payouts).where(inArray(payouts.orderCode, orderCodes));
    for (const row of rows) {
      expect((await t.call(endpoints.payouts.cancel, { orderId: row.id }, merchant)).body.code).toBe(200);
    }
  }

  beforeAll(async () => {
    ledger = new LedgerService({ db: t.database.db, clock: t.clock });
    merchantToken2 = { ...(await t.loginWithToken2('merchant1')), ip: '203.0.113.20' };
  });

  it('makes each good row a payout with its funds held, and refuses the others row by row: fields, 2013, repeats', async () => {
    // A payout made through the signed API: the same mchOrderNo with the same content in the file is that payout.
    const viaApi = signedPayoutRequest({ amount: '110000' });
    const apiRes = await t.call(endpoints.payouts.create, viaApi);
    expect(apiRes.body.code, JSON.stringify(apiRes.body)).toBe(200);
    const { mchId: _m, sign: _s, ...apiParams } = viaApi;
    const apiColumns = Object.keys(apiParams);

    const [good1, good2, badIfsc, noBranch, over, tooSmall] = [mchNo(), mchNo(), mchNo(), mchNo(), mchNo(), mchNo()];
    const availableBefore = await available();
    const frozenBefore = await frozen();
    // More than what is left once the good rows are held (the fee makes it short), within the product's limits.
    const overAmount = Math.min(availableBefore, 5_000_000);
    const file = csv([
      header,
      payoutRow(good1, 100_000),
      payoutRow(badIfsc, 100_001, payee.replace('HDFC0001234', 'HDFC1001234')),
      payoutRow(noBranch, 100_002, payee.replace('Koramangala', '')),
      payoutRow(over, overAmount),
      payoutRow(good2, 120_000),
      `${apiParams.mchOrderNo},2001,${apiParams.amount},${payee}`,
      payoutRow(apiParams.mchOrderNo!, 110_001),
      payoutRow(tooSmall, 9999),
    ]);
    // The file's columns for the repeat row are exactly the API request's, so its content is the same.
    expect(apiColumns.sort()).toEqual(header.split(',').sort());
    const key = newKey();
    const payoutCount = (await t.database.db.select().from(payouts)).length;
    const res = await uploadPayouts(file, { key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({ key, orderType: 'payout', fileName: 'payouts.csv', rows: 8 });
    expect(data).toMatchObject({ created: 2, existing: 1, refused: 5, replayed: false });
    const byRow = (row: number) => data.results.find((r: { row: number }) => r.row === row);
    expect(byRow(2)).toMatchObject({ mchOrderNo: good1, code: 200, created: true, state: PAYOUT_STATE.awaiting });
    expect(byRow(3)).toMatchObject({ code: Code.invalidInput, msg: 'invalid IFSC format', created: false });
    expect(byRow(4)).toMatchObject({ code: Code.invalidInput, msg: PAYOUT_TEXTS.required, created: false });
    expect(byRow(5)).toMatchObject({ mchOrderNo: over, code: Code.insufficientBalance, created: false });
    expect(byRow(5).orderCode).toBeUndefined();
    expect(byRow(6)).toMatchObject({ mchOrderNo: good2, code: 200, created: true });
    expect(byRow(7)).toMatchObject({ code: 200, created: false, orderCode: apiRes.body.data.orderCode });
    expect(byRow(8)).toMatchObject({ code: Code.duplicateOrderNo, created: false });
    // Below the product's minimum: the limits apply as in the API.
    expect(byRow(9)).toMatchObject({ mchOrderNo: tooSmall, code: Code.amountOutOfRange, created: false });

    // Exactly the two good rows are payouts, with the file's payee, awaiting a supplier's claim.
    expect((await t.database.db.select().from(payouts)).length).toBe(payoutCount + 2);
    const made = await payoutsOf([good1, good2, badIfsc, noBranch, over, tooSmall]);
    expect(made.map((p) => p.merchantOrderNo).sort()).toEqual([good1, good2].sort());
    expect(made.find((p) => p.merchantOrderNo === good1)).toMatchObject({
      orderCode: byRow(2).orderCode,
      merchantId,
      amount: 100_000,
      fee: demoPayoutFee(100_000),
      userName: 'Asha Rao',
      ifscCode: 'HDFC0001234',
      bankBranch: 'Koramangala',
      address: '12 MG Road, Bengaluru',
      state: PAYOUT_STATE.awaiting,
    });
    // Their amounts and fees are held; the refused rows moved nothing; the ledger checks clean.
    const held = 100_000 + demoPayoutFee(100_000) + 120_000 + demoPayoutFee(120_000);
    expect(await available()).toBe(availableBefore - held);
    expect(await frozen()).toBe(frozenBefore + held);
    expect(await ledger.check()).toEqual({ ok: true, violations: [] });
    // Each payout's timeline says it came from this upload; each is audited as the console's form audits.
    const [event] = await t.database.db
      .select()
      .from(payoutEvents)
      .where(eq(payoutEvents.payoutId, made.find((p) => p.merchantOrderNo === good1)!.id));
    expect(event!.noteTemplate).toMatchObject({ key: 'viaUpload', values: { key, account: 'merchant1' } });
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, 'payouts.create'),
          inArray(
            auditLog.target,
            made.map((p) => `payout:${p.orderCode}`),
          ),
        ),
      );
    expect(audits).toHaveLength(2);
    const [upload1] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, UPLOAD_AUDIT_ACTION), eq(auditLog.target, `upload:${merchantId}:${key}`)));
    expect(upload1!.after).toMatchObject({ orderType: 'payout', rows: 8, created: 2, existing: 1, refused: 5 });
    // The merchant sees them in its payout list like API payouts.
    const list = await t.call(
      endpoints.payouts.getList,
      { pageIndex: 1, pageSize: 20, merchantOrderId: good1 },
      merchant,
    );
    expect(list.body.data.list.map((p: { orderCode: string }) => p.orderCode)).toEqual([byRow(2).orderCode]);
    await giveBack(made.map((p) => p.orderCode));
    expect(await available()).toBe(availableBefore);
  });

  it('the same key answers the first result and holds nothing more; another file or order type with it is 409', async () => {
    const key = newKey();
    const file = csv([header, payoutRow(mchNo(), 10_100), payoutRow(mchNo(), 10_200)]);
    const first = await uploadPayouts(file, { key });
    expect(first.body.data, JSON.stringify(first.body)).toMatchObject({ created: 2, replayed: false });
    const before = await snapshot(t.database);
    const again = await uploadPayouts(file, { key });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ ...first.body.data, replayed: true });
    const other = await uploadPayouts(csv([header, payoutRow(mchNo(), 10_300)]), { key });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ code: Code.conflict, data: { reason: 'keyReused' } });
    const asCollection = await upload({ name: 'payouts.csv', content: file }, { key });
    expect(asCollection.status).toBe(409);
    expect(await snapshot(t.database)).toBe(before);
    // A new key with the same file: the same payouts (idempotent on mchOrderNo), nothing held twice.
    const availableBefore = await available();
    const newKeyRes = await uploadPayouts(file);
    expect(newKeyRes.body.data).toMatchObject({ created: 0, existing: 2, refused: 0, replayed: false });
    expect(await available()).toBe(availableBefore);
    expect(newKeyRes.body.data.results.map((r: { orderCode: string }) => r.orderCode)).toEqual(
      first.body.data.results.map((r: { orderCode: string }) => r.orderCode),
    );
    await giveBack(first.body.data.results.map((r: { orderCode: string }) => r.orderCode));
  });

  it('needs the second-level password (1024) and the payout columns, making nothing without them', async () => {
    const before = await snapshot(t.database);
    const file = csv([header, payoutRow(mchNo(), 10_400)]);
    const without = await uploadPayouts(file, { auth: { ...merchantToken2, token2: undefined } });
    expect(without.body.code).toBe(Code.token2Required);
    // A collection file's columns are not a payout file's.
    const collectionFile = csv(['mchOrderNo,productId,amount,subject', `${mchNo()},2001,100500,Top-up`]);
    const wrong = await uploadPayouts(collectionFile);
    expect(wrong.status).toBe(400);
    expect(wrong.body.data.reason).toBe('parseFailed');
    expect(wrong.body.data.issues[0].message).toContain(
      `unknown column "subject" (the columns are ${ORDER_UPLOAD_LAYOUTS.payout.columns.join(', ')})`,
    );
    expect(await snapshot(t.database)).toBe(before);
  });
});

describe('GET /v1.0/pay/qrImage', () => {
  const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

  async function createOrder(amount: string) {
    const params = { mchId: DEMO_MERCHANT_API.mchId, productId: '1001', mchOrderNo: mchNo(), amount };
    const res = await t.call(api.create, {
      ...params,
      sign: signParams(params, DEMO_MERCHANT_API.secret, 'HMAC-SHA256'),
    });
    expect(res.body.code, JSON.stringify(res.body)).toBe(200);
    return res.body.data.orderCode as string;
  }

  it('answers the account’s uploaded image while the order awaits payment, 404 otherwise', async () => {
    const admin = await t.loginWithToken2('admin');
    const without = await createOrder('57001');
    expect((await t.call(api.payerQrImage, { orderCode: without })).status).toBe(404);
    expect((await t.call(api.payerOrder, { orderCode: without })).body.data.payee.hasQrImage).toBe(false);

    const upi = await t.database.db.select().from(resources).where(eq(resources.productId, 1001));
    for (const r of upi) {
      const up = await t.call(endpoints.resources.uploadQr, { id: r.id, mime: 'image/png', imageBase64: PNG }, admin);
      expect(up.body.code, JSON.stringify(up.body)).toBe(200);
    }
    const orderCode = await createOrder('57002');
    const view = await t.call(api.payerOrder, { orderCode });
    expect(view.body.data.payee.hasQrImage).toBe(true);
    const image = await t.call(api.payerQrImage, { orderCode });
    expect(image.status).toBe(200);
    expect(image.body.data).toEqual({ mime: 'image/png', dataUrl: `data:image/png;base64,${PNG}` });

    // Once the order no longer awaits payment, the image is gone for the payer.
    const rejected = await t.call(api.reject, { orderCode, rejectReason: 'test' }, admin);
    expect(rejected.body.code).toBe(200);
    expect((await t.call(api.payerQrImage, { orderCode })).status).toBe(404);
    expect((await t.call(api.payerQrImage, { orderCode: 'C0000000000000000000' })).status).toBe(404);
  });

  it('is rate limited per address like the other payer calls', async () => {
    const ip = '203.0.113.77';
    const statuses: number[] = [];
    for (let i = 0; i < 125; i += 1) {
      statuses.push((await t.call(api.payerQrImage, { orderCode: 'C0000000000000000000' }, { ip })).status);
    }
    expect(statuses.slice(0, 120).every((s) => s === 404)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
