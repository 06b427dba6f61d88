import { describe, expect, it } from 'vitest';
import { consolePayoutRequest, PAYOUT_TEXTS } from '../payouts/merchant-api.js';
import { ORDER_UPLOAD_LAYOUTS, orderUploadForm, PAYOUT_UPLOAD_COLUMNS, payoutUploadRowSchema } from './upload.js';

/** Issue 20 item 3: a payout upload's file is the payout API's fields, checked with the API's texts. */
describe('the payout upload’s columns and rows', () => {
  it('has exactly the console payout form’s fields as columns (the API’s less mchId, sign, signType, clientIp)', () => {
    expect([...PAYOUT_UPLOAD_COLUMNS].sort()).toEqual(Object.keys(consolePayoutRequest.shape).sort());
    for (const c of ORDER_UPLOAD_LAYOUTS.payout.requiredColumns) expect(PAYOUT_UPLOAD_COLUMNS).toContain(c);
  });

  it('checks a row with the payout API’s rules and spec section 8’s texts', () => {
    const good = {
      mchOrderNo: 'P1',
      productId: '2001',
      amount: '100000',
      userName: 'Asha Rao',
      cardNumber: '50100234567890',
      ifscCode: 'HDFC0001234',
      bankBranch: 'Koramangala',
      address: '12 MG Road',
    };
    expect(payoutUploadRowSchema.safeParse(good).success).toBe(true);
    const messages = (row: Record<string, string>) =>
      payoutUploadRowSchema.safeParse(row).error?.issues.map((i) => i.message) ?? [];
    const { bankBranch: _b, ...noBranch } = good;
    expect(messages(noBranch)).toEqual([PAYOUT_TEXTS.required]);
    expect(messages({ ...good, ifscCode: 'hdfc0001234' })).toEqual(['invalid IFSC format']);
    expect(messages({ ...good, productId: '1001' })).toEqual([PAYOUT_TEXTS.productId]);
  });

  it('takes orderType collection or payout, nothing else', () => {
    const form = (orderType: string) => ({
      file: { filename: 'a.csv', mimetype: 'text/csv', content: new Uint8Array([0x61]) },
      orderType,
      key: 'k1',
    });
    expect(orderUploadForm.safeParse(form('collection')).success).toBe(true);
    expect(orderUploadForm.safeParse(form('payout')).success).toBe(true);
    expect(orderUploadForm.safeParse(form('refund')).success).toBe(false);
  });
});
