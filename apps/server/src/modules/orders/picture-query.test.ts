import { readFileSync } from 'node:fs';
import { Code, endpoints, type OrderRow } from '@paydesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, snapshot, startTestApp, type TestApp } from '../../testing/harness.js';
import { signed } from '../../testing/merchant-api.js';
import { amountCandidates, textExcerpt, utrCandidates } from './picture-query.js';

/**
 * Finding orders by a picture of the payer's receipt (AllowPictureQueryOrder). The fixture is a UPI
 * receipt rendered by Chromium (360 x 260 px PNG) reading "Rs 1,234.50" and "UPI Ref No: 407812345678".
 */
const RECEIPT = readFileSync(new URL('./fixtures/upi-receipt.png', import.meta.url));
const RECEIPT_UTR = '407812345678';
const RECEIPT_AMOUNT = 123_450;
const receipt = (bytes: Buffer = RECEIPT, mime = 'image/png') => ({
  receipt: { mime, imageBase64: bytes.toString('base64') },
});

const { orders: api } = endpoints;
let t: TestApp;
const as = new Map<string, Auth>();

async function signInAll() {
  for (const account of ['admin', 'service', 'maintenance', 'support', 'supplier1', 'merchant1']) {
    as.set(account, await t.login(account));
  }
}

beforeAll(async () => {
  t = await startTestApp();
  await signInAll();
});
afterAll(() => t.close());

let n = 0;
async function createOrder(amount: number) {
  n += 1;
  const params = { mchId: DEMO_MERCHANT_API.mchId, productId: '1001', mchOrderNo: `PIC${n}`, amount: String(amount) };
  const res = await t.call(api.create, signed(params));
  expect(res.body.code, JSON.stringify(res.body)).toBe(Code.success);
  return res.body.data.orderCode as string;
}

describe('reading a receipt’s text', () => {
  it('takes 12-digit UTRs (also in groups of four) and labelled references, each once', () => {
    const text = 'UPI Ref No: 407812345678\nUTR 4078 1234 5679\nRRN:SBIN0123456789\nRef: Number\nPhone 9876543210';
    expect(utrCandidates(text)).toEqual(['407812345678', 'SBIN0123456789', '407812345679']);
  });

  it('takes amounts with their currency or label in minor units, from the digits', () => {
    const text = 'Rs 1,234.50\n₹99\nINR 1,23,456.05\nAmount paid: 20.1\nRs. 0.00\n12 Mar 2025';
    expect(amountCandidates(text)).toEqual([123_450, 9_900, 12_345_605, 2_010]);
    // Not a float anywhere: a long amount keeps every digit.
    expect(amountCandidates('INR 123456789012.34')).toEqual([12_345_678_901_234]);
  });

  it('answers the text with blank lines and runs of spaces folded', () => {
    expect(textExcerpt('  Paid   to ACME \n\n\nRs 5 \n')).toBe('Paid to ACME\nRs 5');
  });
});

describe('pictureQuery', () => {
  afterAll(() => t.setSetting('AllowPictureQueryOrder', undefined));

  it('off (the default): refused with its reason before the picture is even checked, and getInfo says so', async () => {
    const service = as.get('service')!;
    expect((await t.call(endpoints.auth.getInfo, undefined, service)).body.data.pictureQueryEnabled).toBe(false);
    const res = await t.call(api.pictureQuery, receipt(), service);
    expect(res.status).toBe(422);
    expect(res.body.data).toEqual({ reason: 'pictureQueryOff' });
    // Not an image either: still the switch's refusal (nothing was looked at).
    const junk = await t.call(api.pictureQuery, receipt(Buffer.from('not an image at all')), service);
    expect(junk.body.data).toEqual({ reason: 'pictureQueryOff' });
  });

  it('on: reads the receipt’s UTR and amount, finds the unpaid order of that amount of the last 24 hours, then the order whose payer submitted that UTR', async () => {
    await t.setSetting('AllowPictureQueryOrder', true);
    // An order of the amount from yesterday: too old for the amount to find it.
    const yesterday = await createOrder(RECEIPT_AMOUNT);
    t.clock.advance(25 * 3_600_000);
    await signInAll();
    const service = as.get('service')!;
    expect((await t.call(endpoints.auth.getInfo, undefined, service)).body.data.pictureQueryEnabled).toBe(true);
    const none = await t.call(api.pictureQuery, receipt(), service);
    expect(none.body.data).toMatchObject({ matchedBy: 'none', orders: [] });

    const orderCode = await createOrder(RECEIPT_AMOUNT);
    const other = await createOrder(RECEIPT_AMOUNT + 100);

    const before = await snapshot(t.database);
    const byAmount = await t.call(api.pictureQuery, receipt(), service);
    expect(byAmount.body.code, JSON.stringify(byAmount.body)).toBe(Code.success);
    expect(byAmount.body.data).toMatchObject({ utrs: [RECEIPT_UTR], amounts: [RECEIPT_AMOUNT], matchedBy: 'amount' });
    expect(byAmount.body.data.text).toContain(RECEIPT_UTR);
    expect((byAmount.body.data.orders as OrderRow[]).map((o) => o.orderCode)).toEqual([orderCode]);
    // Reading changes nothing.
    expect(await snapshot(t.database)).toBe(before);

    await t.call(api.payerSubmitUtr, { orderCode, utr: RECEIPT_UTR });
    const byUtr = await t.call(api.pictureQuery, receipt(), service);
    expect(byUtr.body.data.matchedBy).toBe('utr');
    const rows = byUtr.body.data.orders as OrderRow[];
    expect(rows.map((o) => o.orderCode)).toEqual([orderCode]);
    // The list's row: the fields and the actions customer service may take on it now.
    expect(rows[0]).toMatchObject({ payerUtr: RECEIPT_UTR, amount: RECEIPT_AMOUNT, state: 1 });
    expect(rows[0]!.allowedActions).toContain('supplement');
    expect(rows.map((o) => o.orderCode)).not.toContain(other);
    expect(rows.map((o) => o.orderCode)).not.toContain(yesterday);

    // Read-only maintenance may look too; its row offers no action.
    const maintenance = await t.call(api.pictureQuery, receipt(), as.get('maintenance')!);
    expect((maintenance.body.data.orders as OrderRow[])[0]).toMatchObject({ orderCode, allowedActions: [] });
  });

  it('on: a non-image is 400 fileType, a huge picture 422 pictureTooLarge, a broken one 422 pictureUnreadable', async () => {
    await t.setSetting('AllowPictureQueryOrder', true);
    const admin = as.get('admin')!;
    const text = await t.call(api.pictureQuery, receipt(Buffer.from('UTR 407812345678 Rs 1234')), admin);
    expect(text.status).toBe(400);
    expect(text.body.data).toMatchObject({ reason: 'fileType' });

    // A PNG header that says 5000 x 5000: refused before anything decodes it.
    const header = Buffer.alloc(33);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header, 0);
    header.writeUInt32BE(13, 8);
    header.write('IHDR', 12, 'latin1');
    header.writeUInt32BE(5000, 16);
    header.writeUInt32BE(5000, 20);
    const huge = await t.call(api.pictureQuery, receipt(header), admin);
    expect(huge.status).toBe(422);
    expect(huge.body.data).toEqual({ reason: 'pictureTooLarge' });

    // Right size, broken content: the reader refuses it and goes on reading the next picture.
    header.writeUInt32BE(100, 16);
    header.writeUInt32BE(100, 20);
    const broken = await t.call(api.pictureQuery, receipt(Buffer.concat([header, Buffer.from('garbage')])), admin);
    expect(broken.status).toBe(422);
    expect(broken.body.data).toEqual({ reason: 'pictureUnreadable' });
    expect((await t.call(api.pictureQuery, receipt(), admin)).body.data.utrs).toEqual([RECEIPT_UTR]);
  });

  it('on: technical support, suppliers and merchants may not use it (403), whatever they send', async () => {
    await t.setSetting('AllowPictureQueryOrder', true);
    for (const account of ['support', 'supplier1', 'merchant1']) {
      const res = await t.call(api.pictureQuery, receipt(), as.get(account)!);
      expect(res.status, account).toBe(403);
    }
  });
});
