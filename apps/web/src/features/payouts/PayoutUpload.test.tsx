import { Code, type OrderUploadAnswer, PAYOUT_STATE, PAYOUT_TEXTS, PAYOUT_UPLOAD_COLUMNS } from '@paydesk/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { setToken, setToken2 } from '../../shared/api/session-storage';
import { ok, renderPage, stubServer, testUser } from '../../test/renderPage';
import PayoutListPage from './PayoutListPage';

/** Issue 20 item 3: the payout upload on the merchant's payout list (the order list's dialog, payout mode). */
const FLAG_PATH = '/v1.0/order/orderUploadFlag';
const UPLOAD_PATH = '/v1.0/api/order/createBatch';
const LIST_PATH = '/v1.0/payoutOrder/getList';

const PAYOUT = {
  allowed: true,
  reason: null,
  columns: [...PAYOUT_UPLOAD_COLUMNS],
  requiredColumns: ['mchOrderNo', 'productId', 'amount'],
  productIds: [2001, 3016],
};
const FLAG = {
  maxRows: 1000,
  maxBytes: 1_048_576,
  types: {
    collection: { ...PAYOUT, allowed: false, reason: 'noProduct', productIds: [] },
    payout: PAYOUT,
  },
};

const ANSWER: OrderUploadAnswer = {
  key: 'k1',
  orderType: 'payout',
  fileName: 'payouts.csv',
  rows: 4,
  created: 1,
  existing: 1,
  refused: 2,
  replayed: false,
  uploadedAt: '2024-05-01T10:00:00.000Z',
  results: [
    { row: 2, mchOrderNo: 'P1', code: 200, msg: 'created', created: true, orderCode: 'P2405011000009', state: 0 },
    {
      row: 3,
      mchOrderNo: 'P2',
      code: Code.insufficientBalance,
      msg: 'balance not enough for the payout amount plus its fee',
      created: false,
    },
    { row: 4, mchOrderNo: 'P3', code: Code.invalidInput, msg: PAYOUT_TEXTS.required, created: false },
    // An earlier payout of the same content, now rejecting (state 5): it existed, nothing 'unallocated'.
    {
      row: 5,
      mchOrderNo: 'P4',
      code: 200,
      msg: 'a payout with this mchOrderNo and the same content exists: this one',
      created: false,
      orderCode: 'P2405011000001',
      state: PAYOUT_STATE.rejecting,
    },
  ],
};

let server: ReturnType<typeof stubServer>;
/** The headers each upload was sent with. */
let uploadHeaders: Array<Record<string, string>>;

vi.setConfig({ testTimeout: 30_000 });

beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(() => {
  server = stubServer({
    [LIST_PATH]: ok({ list: [], total: 0, pageIndex: 1, pageSize: 20, summary: { amount: 0, fee: 0, commission: 0 } }),
    '/v1.0/payoutOrder/getPayoutStatusList': ok([]),
    '/v1.0/view/getList': ok([]),
    [FLAG_PATH]: ok(FLAG),
    [UPLOAD_PATH]: ok(ANSWER),
  });
  uploadHeaders = [];
  const stubbed = globalThis.fetch;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      if (url.split('?')[0] === UPLOAD_PATH) uploadHeaders.push(init.headers as Record<string, string>);
      return stubbed(url, init);
    }),
  );
  setToken('merchant-token');
});
afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
  sessionStorage.clear();
  await changeLanguage('en-US');
});

const renderMerchant = () =>
  renderPage(<PayoutListPage />, '/payProxyOrder/list/merchant', testUser({ access: 'merchant' }));
const fileInput = () =>
  screen.getByTestId('payout-upload-file').querySelector('input[type="file"]') as HTMLInputElement;

async function openDialog() {
  const user = userEvent.setup({ delay: null, applyAccept: false });
  renderMerchant();
  await user.click(await screen.findByTestId('payout-upload-open'));
  await screen.findByTestId('payout-upload-send');
  return user;
}

describe('payout upload on the merchant’s payout list', () => {
  it('shows the button when the flag opens payout upload, and not when only collection is open', async () => {
    renderMerchant();
    expect((await screen.findByTestId('payout-upload-open')).textContent).toBe('Upload payouts');
    expect(screen.queryByTestId('order-upload-open')).toBeNull();
  });

  it('hides it when the merchant has no payout product', async () => {
    server.answers.set(
      FLAG_PATH,
      ok({ ...FLAG, types: { ...FLAG.types, payout: { ...PAYOUT, allowed: false, reason: 'noPayoutProduct' } } }),
    );
    renderMerchant();
    await waitFor(() => expect(server.sent(FLAG_PATH)).toHaveLength(1));
    await screen.findByTestId('payout-list');
    expect(screen.queryByTestId('payout-upload-open')).toBeNull();
  });

  it('offers a template of the payout columns with a bank payee in minor units', async () => {
    await openDialog();
    const link = screen.getByTestId('payout-upload-template');
    expect(link.getAttribute('download')).toBe('payouts-template.csv');
    const href = link.getAttribute('href')!;
    const text = decodeURIComponent(href.slice('data:text/csv;charset=utf-8,'.length));
    const [header, example] = text.replace(/^\uFEFF/, '').split('\r\n');
    expect(header).toBe(PAYOUT_UPLOAD_COLUMNS.join(','));
    const cells = Object.fromEntries(PAYOUT_UPLOAD_COLUMNS.map((c, i) => [c, example!.split(',')[i]]));
    expect(cells).toMatchObject({ productId: '2001', amount: '50000', ifscCode: 'HDFC0001234' });
  });

  it('sends orderType payout with the second-level password, shows each row’s result and refreshes the list', async () => {
    setToken2('second-level');
    const user = await openDialog();
    await user.upload(fileInput(), new File(['mchOrderNo,productId,amount\nP1,2001,50000\n'], 'payouts.csv'));
    const listCalls = server.sent(LIST_PATH).length;
    await user.click(screen.getByTestId('payout-upload-send'));

    expect((await screen.findByTestId('payout-upload-summary')).textContent).toBe(
      '4 rows: 1 created, 1 already existed, 2 refused',
    );
    const [sent] = server.sent(UPLOAD_PATH);
    const form = sent!.body as FormData;
    expect(form.get('orderType')).toBe('payout');
    expect((form.get('file') as File).name).toBe('payouts.csv');
    expect(uploadHeaders[0]).toMatchObject({ token: 'merchant-token', token2: 'second-level' });

    expect(screen.getByTestId('payout-upload-result-2').textContent).toBe('Created');
    expect(screen.getByTestId('payout-upload-result-3').textContent).toBe('Refused');
    expect(screen.getByTestId('payout-upload-message-3').textContent).toBe(
      'balance not enough for the payout amount plus its fee',
    );
    expect(screen.getByTestId('payout-upload-message-4').textContent).toBe(
      'invalid input: name, card number, bank branch, address and amount cannot be empty',
    );
    expect(screen.getByTestId('payout-upload-result-5').textContent).toBe('Already existed');
    await waitFor(() => expect(server.sent(LIST_PATH).length).toBeGreaterThan(listCalls));
  });

  it('speaks the user’s language: the button, the title and the payout API’s texts of a row', async () => {
    setToken2('second-level');
    await changeLanguage('zh-CN');
    const user = await openDialog();
    expect(screen.getByText('批量上传代付订单（CSV）')).toBeTruthy();
    await user.upload(fileInput(), new File(['mchOrderNo,productId,amount\nP1,2001,50000\n'], 'payouts.csv'));
    await user.click(screen.getByTestId('payout-upload-send'));
    expect((await screen.findByTestId('payout-upload-message-4')).textContent).toBe(
      '输入有误: 姓名、卡号、支行、地址和金额不能为空',
    );
    expect(screen.getByTestId('payout-upload-message-3').textContent).toBe('余额不足以支付代付金额及手续费');
    await changeLanguage('zh-TW');
    expect(screen.getByTestId('payout-upload-open').textContent).toBe('上傳代付');
  });
});
