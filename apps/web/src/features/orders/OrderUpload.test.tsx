import { ORDER_UPLOAD_COLUMNS, type OrderUploadAnswer, type Role } from '@paydesk/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { setToken } from '../../shared/api/session-storage';
import { type Answer, ok, renderPage, stubServer, testUser } from '../../test/renderPage';
import OrderListPage from './OrderListPage';

const FLAG_PATH = '/v1.0/order/orderUploadFlag';
const UPLOAD_PATH = '/v1.0/api/order/createBatch';
const LIST_PATH = '/v1.0/order/getList';

const COLLECTION = {
  allowed: true,
  reason: null,
  columns: [...ORDER_UPLOAD_COLUMNS],
  requiredColumns: ['mchOrderNo', 'productId', 'amount'],
  productIds: [1045, 1001],
};
const FLAG = {
  maxRows: 1000,
  maxBytes: 1_048_576,
  types: {
    collection: COLLECTION,
    payout: { ...COLLECTION, allowed: false, reason: 'noPayoutProduct', productIds: [] },
  },
};

const ANSWER: OrderUploadAnswer = {
  key: 'k1',
  orderType: 'collection',
  fileName: 'orders.csv',
  rows: 3,
  created: 1,
  existing: 0,
  refused: 2,
  replayed: false,
  uploadedAt: '2024-05-01T10:00:00.000Z',
  results: [
    { row: 2, mchOrderNo: 'A1', code: 200, msg: 'created', created: true, orderCode: 'C2405011000009', state: 1 },
    {
      row: 3,
      mchOrderNo: 'A2',
      code: 2006,
      msg: 'amount must be between 10000 and 5000000 (1/100 units)',
      created: false,
    },
    { row: 4, mchOrderNo: 'A3', code: 2005, msg: 'mchOrderNo already used with different content', created: false },
  ],
};

let server: ReturnType<typeof stubServer>;
/** What the upload endpoint received (multipart forms), and what it answers next. */
let uploads: Array<{ form: FormData; headers: Record<string, string> }>;
let uploadAnswers: Answer[];

vi.setConfig({ testTimeout: 30_000 });

beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(() => {
  server = stubServer({
    [LIST_PATH]: ok({ list: [], total: 0, pageIndex: 1, pageSize: 20, summary: { amount: 0, fee: 0, commission: 0 } }),
    '/v1.0/order/getOrderStatusList': ok([]),
    '/v1.0/order/getOrderMarkList': ok([]),
    '/v1.0/view/getList': ok([]),
    [FLAG_PATH]: ok(FLAG),
  });
  uploads = [];
  uploadAnswers = [];
  // The stub server reads JSON bodies: the multipart upload is answered here, the rest passes through.
  const json = globalThis.fetch;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      if (url.split('?')[0] !== UPLOAD_PATH) return json(url, init);
      uploads.push({ form: init.body as FormData, headers: init.headers as Record<string, string> });
      const body = uploadAnswers.shift() ?? { code: 500, msg: 'no answer queued', data: null };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
  setToken('merchant-token');
});
afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await changeLanguage('en-US');
});

const renderAt = (path: string, access: Role) => renderPage(<OrderListPage />, path, testUser({ access }));
const csvFile = (text: string, name = 'orders.csv', type = 'text/csv') => new File([text], name, { type });
const fileInput = () => screen.getByTestId('order-upload-file').querySelector('input[type="file"]') as HTMLInputElement;

async function openDialog() {
  const user = userEvent.setup({ delay: null, applyAccept: false });
  renderAt('/order/list/merchant', 'merchant');
  await user.click(await screen.findByTestId('order-upload-open'));
  await screen.findByTestId('order-upload-send');
  return user;
}

describe('order upload on the merchant’s order list', () => {
  it('shows the button only when orderUploadFlag allows it, and only on the merchant’s page', async () => {
    renderAt('/order/list/merchant', 'merchant');
    expect(await screen.findByTestId('order-upload-open')).toBeTruthy();
  });

  it('hides the button when the merchant may not upload (e.g. no product)', async () => {
    server.answers.set(
      FLAG_PATH,
      ok({ ...FLAG, types: { ...FLAG.types, collection: { ...COLLECTION, allowed: false, reason: 'noProduct' } } }),
    );
    renderAt('/order/list/merchant', 'merchant');
    await waitFor(() => expect(server.sent(FLAG_PATH)).toHaveLength(1));
    await screen.findByTestId('order-list');
    expect(screen.queryByTestId('order-upload-open')).toBeNull();
  });

  it('staff lists do not ask and show no upload', async () => {
    server.answers.set('/v1.0/merchant/getList', ok({ list: [], total: 0, pageIndex: 1, pageSize: 500 }));
    server.answers.set('/v1.0/supplier/getList', ok({ list: [], total: 0, pageIndex: 1, pageSize: 500 }));
    renderAt('/order/list', 'admin');
    await waitFor(() => expect(server.sent(LIST_PATH).length).toBeGreaterThan(0));
    expect(server.sent(FLAG_PATH)).toHaveLength(0);
    expect(screen.queryByTestId('order-upload-open')).toBeNull();
  });

  it('offers a template with the columns and an example row in the first product’s API units', async () => {
    await openDialog();
    const href = screen.getByTestId('order-upload-template').getAttribute('href')!;
    expect(href.startsWith('data:text/csv;charset=utf-8,')).toBe(true);
    const text = decodeURIComponent(href.slice('data:text/csv;charset=utf-8,'.length));
    const [header, example] = text.replace(/^\uFEFF/, '').split('\r\n');
    expect(header).toBe(ORDER_UPLOAD_COLUMNS.join(','));
    // Product 1045 takes 1/10000 units: 500.00 is 5000000.
    expect(example!.split(',').slice(0, 3)).toEqual(['ORDER-0001', '1045', '5000000']);
  });

  it('refuses a file that is not CSV before sending, with the spec’s text', async () => {
    const user = await openDialog();
    await user.upload(fileInput(), csvFile('mchOrderNo,productId,amount\n', 'orders.txt', 'text/plain'));
    expect(screen.getByTestId('order-upload-error').textContent).toContain('CSV uploads must be CSV files');
    expect(screen.getByTestId('order-upload-send').hasAttribute('disabled')).toBe(true);
    const big = csvFile('x'.repeat(1_048_577));
    await user.upload(fileInput(), big);
    expect(screen.getByTestId('order-upload-error').textContent).toContain('larger than 1 MiB');
    expect(uploads).toHaveLength(0);
  });

  it('sends the file as multipart {file, orderType, key}, shows a result per row and refreshes the list', async () => {
    const user = await openDialog();
    uploadAnswers.push(ok(ANSWER));
    await user.upload(fileInput(), csvFile('mchOrderNo,productId,amount\nA1,1001,50000\n'));
    expect(screen.getByTestId('order-upload-chosen').textContent).toContain('orders.csv');
    const listCalls = server.sent(LIST_PATH).length;
    await user.click(screen.getByTestId('order-upload-send'));

    expect((await screen.findByTestId('order-upload-summary')).textContent).toBe(
      '3 rows: 1 created, 0 already existed, 2 refused',
    );
    expect(uploads).toHaveLength(1);
    const { form, headers } = uploads[0]!;
    expect(headers.token).toBe('merchant-token');
    const file = form.get('file') as File;
    expect(file.name).toBe('orders.csv');
    expect(await file.text()).toBe('mchOrderNo,productId,amount\nA1,1001,50000\n');
    expect(form.get('orderType')).toBe('collection');
    expect(String(form.get('key'))).toMatch(/^[A-Za-z0-9_-]{1,64}$/);

    expect(screen.getByTestId('order-upload-result-2').textContent).toBe('Created');
    expect(screen.getByTestId('order-upload-result-3').textContent).toBe('Refused');
    expect(screen.getByTestId('order-upload-message-3').textContent).toBe(
      'amount outside the allowed range: amount must be between 10000 and 5000000 (1/100 units)',
    );
    // The catalogue's own message adds nothing: only the code's text.
    expect(screen.getByTestId('order-upload-message-4').textContent).toBe(
      'mchOrderNo already used with different content',
    );
    expect(within(screen.getByTestId('order-upload-results')).getByText('C2405011000009')).toBeTruthy();
    await waitFor(() => expect(server.sent(LIST_PATH).length).toBeGreaterThan(listCalls));
    // Done: the same result cannot be sent again by a second click.
    expect(screen.getByTestId('order-upload-send').hasAttribute('disabled')).toBe(true);
  });

  it('shows the server’s refusal translated with its detail; sending the same choice again keeps its key', async () => {
    const user = await openDialog();
    uploadAnswers.push({
      code: 400,
      msg: 'format parsing failed, check the file format',
      data: {
        reason: 'parseFailed',
        issues: [{ path: 'file', message: 'Invalid Record Length: expect 3, got 2 on line 2' }],
      },
    });
    uploadAnswers.push({ ...ok({ ...ANSWER, replayed: true }) });
    await user.upload(fileInput(), csvFile('mchOrderNo,productId,amount\nA1,1001\n'));
    await user.click(screen.getByTestId('order-upload-send'));
    const error = await screen.findByTestId('order-upload-error');
    expect(error.textContent).toContain('Format parsing failed, check the file format');
    expect(error.textContent).toContain('on line 2');

    await user.click(screen.getByTestId('order-upload-send'));
    expect(await screen.findByTestId('order-upload-replayed')).toBeTruthy();
    expect(uploads).toHaveLength(2);
    expect(uploads[1]!.form.get('key')).toBe(uploads[0]!.form.get('key'));
    // Another choice is another upload: a new key.
    uploadAnswers.push(ok(ANSWER));
    await user.upload(fileInput(), csvFile('mchOrderNo,productId,amount\nA9,1001,50000\n'));
    await user.click(screen.getByTestId('order-upload-send'));
    await waitFor(() => expect(uploads).toHaveLength(3));
    expect(uploads[2]!.form.get('key')).not.toBe(uploads[0]!.form.get('key'));
  });

  it('speaks the user’s language', async () => {
    await changeLanguage('zh-CN');
    renderAt('/order/list/merchant', 'merchant');
    expect((await screen.findByTestId('order-upload-open')).textContent).toBe('上传订单');
    await changeLanguage('zh-TW');
    expect((await screen.findByTestId('order-upload-open')).textContent).toBe('上傳訂單');
  });
});
