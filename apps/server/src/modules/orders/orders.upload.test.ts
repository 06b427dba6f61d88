import { Code, endpoints, ORDER_STATE, ORDER_UPLOAD_COLUMNS, ORDER_UPLOAD_TEXTS } from '@paydesk/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, merchants, orders, resources, systemSettings } from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, snapshot, startTestApp, type TestApp } from '../../testing/harness.js';
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
    headers: { 'content-type': body.contentType, ...(auth.token ? { token: auth.token } : {}) },
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

  it('orderType other than collection, a missing key and malformed multipart are 400, never 500', async () => {
    const before = await snapshot(t.database);
    const good = csv(['mchOrderNo,productId,amount', `${mchNo()},1001,54001`]);
    const payout = await upload({ content: good }, { orderType: 'payout' });
    expect(payout.status).toBe(400);
    expect(payout.body.msg).toContain(ORDER_UPLOAD_TEXTS.orderType);
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
      expect(flag.body.data).toMatchObject({ allowed: false, reason: 'merchantUnavailable' });
    } finally {
      await t.database.db.update(merchants).set({ enabled: true }).where(eq(merchants.id, merchantId));
    }
    await t.database.db.insert(systemSettings).values({ key: 'enableService', value: false });
    t.app.services.orders.settings.invalidate();
    try {
      const res = await upload({ content: csv(['mchOrderNo,productId,amount', `${mchNo()},1001,56002`]) });
      expect(res.body.code).toBe(Code.serviceClosed);
      expect((await t.call(api.orderUploadFlag, {}, merchant)).body.data.reason).toBe('serviceClosed');
    } finally {
      await t.database.db.delete(systemSettings).where(eq(systemSettings.key, 'enableService'));
      t.app.services.orders.settings.invalidate();
    }
  });
});

describe('GET /v1.0/order/orderUploadFlag', () => {
  it('tells a merchant it may upload, with the limits, the columns and its products; others may not', async () => {
    const res = await t.call(api.orderUploadFlag, {}, merchant);
    expect(res.body.data).toEqual({
      allowed: true,
      reason: null,
      orderTypes: ['collection'],
      maxRows: 1000,
      maxBytes: 1_048_576,
      columns: [...ORDER_UPLOAD_COLUMNS],
      requiredColumns: ['mchOrderNo', 'productId', 'amount'],
      productIds: [1001],
    });
    const admin = await t.call(api.orderUploadFlag, {}, await t.login('admin'));
    expect(admin.body.data).toMatchObject({ allowed: false, reason: 'merchantsOnly' });
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
