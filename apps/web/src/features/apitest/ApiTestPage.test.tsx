import { createHash, createHmac } from 'node:crypto';
import type { MerchantRow } from '@paydesk/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { ok, renderPage, stubServer, testUser } from '../../test/renderPage';
import { chosen } from '../../test/select';
import ApiTestPage from './ApiTestPage';
import { apiAmountOf, signRequest } from './signing';

const SECRET = 'demo-secret-merchant1';
const BASE = 'https://api.paydesk.test';
const CREATE_URL = `${BASE}/v1.0/api/order/create`;

const MINE: MerchantRow = {
  id: 1,
  userId: 8,
  account: 'merchant1',
  merchantNo: '10001',
  name: 'Merchant One',
  enabled: true,
  signType: 'HMAC-SHA256',
  ipWhitelist: [],
  notifyUrl: null,
  callbackEnabled: true,
  remark: '',
  balance: 0,
  frozenBalance: 0,
  secretRotatedAt: '2024-01-01T00:00:00.000Z',
  createdAt: '2024-01-01T00:00:00.000Z',
  proposalKinds: [],
};

/** The server's algorithm, written out here independently of the page: node:crypto over the sorted pairs. */
const hmacOf = (text: string, secret = SECRET) =>
  createHmac('sha256', secret).update(text, 'utf8').digest('hex').toUpperCase();
const md5Of = (text: string) => createHash('md5').update(text, 'utf8').digest('hex').toUpperCase();

vi.setConfig({ testTimeout: 30_000 });

let server: ReturnType<typeof stubServer>;
const user = () => userEvent.setup();

/** Types into a field at once (a keystroke at a time is slow on a form this size). */
async function fill(testId: string, value: string) {
  fireEvent.change(screen.getByTestId(testId), { target: { value } });
  await waitFor(() => expect((screen.getByTestId(testId) as HTMLInputElement).value).toBe(value));
}

/** Renders the page as merchant1 and fills a known request. */
async function renderWithKnownInput(over: { signType?: MerchantRow['signType'] } = {}) {
  server.answers.set('/v1.0/merchant/getMine', ok({ ...MINE, ...over }));
  renderPage(
    <ApiTestPage />,
    '/order/test/merchant',
    testUser({ access: 'merchant', userId: 8, account: 'merchant1' }),
  );
  await waitFor(() => expect((screen.getByTestId('apitest-mchId') as HTMLInputElement).value).toBe('10001'));
  await fill('apitest-mchOrderNo', 'T20240101001');
  await fill('apitest-amount', '1,234.5');
  await fill('apitest-notifyUrl', 'https://shop.example/notify');
  await fill('apitest-subject', 'Top up');
  await fill('apitest-vpa', 'payer@upi');
  await fill('apitest-baseUrl', `${BASE}/`);
}

beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(async () => {
  await i18next.changeLanguage('en-US');
  server = stubServer({
    '/v1.0/userProduct/getForUser': ok([]),
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the API test page', () => {
  it('signs like the server (HMAC-SHA256), shows the masked signing string, sends the request and the answer', async () => {
    const logs = [vi.spyOn(console, 'log'), vi.spyOn(console, 'error'), vi.spyOn(console, 'info')];
    await renderWithKnownInput();
    // The integration guide is a page of the server, opened from here.
    expect(screen.getByTestId('api-test-guide').getAttribute('href')).toBe('/docs/merchant-api');
    const expectedText =
      'amount=123450&mchId=10001&mchOrderNo=T20240101001&notifyUrl=https://shop.example/notify&productId=1001&subject=Top up&vpa=payer@upi';
    const expectedSign = hmacOf(`${expectedText}&key=${SECRET}`);
    server.answers.set(
      CREATE_URL,
      ok({
        orderCode: 'C2401011200001',
        mchOrderNo: 'T20240101001',
        productId: 1001,
        amount: 123450,
        state: 1,
        payUrl: `${BASE}/pay/C2401011200001`,
        expireTime: '2024-01-01T00:15:00.000Z',
        payee: { kind: 'upi', vpa: 'asha@sbi' },
      }),
    );

    // The secret is required.
    await user().click(screen.getByTestId('apitest-send'));
    expect(await screen.findByText('Paste your API secret')).toBeTruthy();
    expect(server.sent(CREATE_URL)).toHaveLength(0);

    await fill('apitest-secret', SECRET);
    await user().click(screen.getByTestId('apitest-send'));

    await waitFor(() => expect(server.sent(CREATE_URL)).toHaveLength(1));
    const sent = server.sent(CREATE_URL)[0]!;
    expect(sent.body).toEqual({
      mchId: '10001',
      productId: '1001',
      mchOrderNo: 'T20240101001',
      amount: '123450',
      notifyUrl: 'https://shop.example/notify',
      subject: 'Top up',
      vpa: 'payer@upi',
      sign: expectedSign,
    });
    expect(screen.getByTestId('apitest-signing-string').textContent).toBe(`${expectedText}&key=********`);
    expect(screen.getByTestId('apitest-signature').textContent).toBe(expectedSign);
    expect(screen.getByTestId('apitest-request').textContent).toContain(`POST ${CREATE_URL}`);
    expect((await screen.findByTestId('apitest-answer-code')).textContent).toBe('code 200');
    expect(screen.getByTestId('apitest-answer').textContent).toContain('"orderCode": "C2401011200001"');
    expect(screen.getByTestId('apitest-pay-url').getAttribute('href')).toBe(`${BASE}/pay/C2401011200001`);

    // The secret is in the password box only: not on the page, not stored, not logged.
    const result = screen.getByTestId('apitest-result');
    expect(result.textContent).not.toContain(SECRET);
    expect(JSON.stringify({ ...localStorage })).not.toContain(SECRET);
    expect(JSON.stringify({ ...sessionStorage })).not.toContain(SECRET);
    for (const spy of logs) expect(JSON.stringify(spy.mock.calls)).not.toContain(SECRET);
  });

  it('signs with MD5 for an MD5 merchant, and form-encodes when asked', async () => {
    const bodies: string[] = [];
    await renderWithKnownInput({ signType: 'MD5' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        bodies.push(String(init.body));
        return new Response(JSON.stringify({ code: 2001, msg: 'signature does not match', data: null }), {
          status: 403,
        });
      }),
    );
    await user().click(screen.getByLabelText('application/x-www-form-urlencoded'));
    await fill('apitest-secret', SECRET);
    await user().click(screen.getByTestId('apitest-send'));

    const expectedSign = md5Of(
      `amount=123450&mchId=10001&mchOrderNo=T20240101001&notifyUrl=https://shop.example/notify&productId=1001&subject=Top up&vpa=payer@upi&key=${SECRET}`,
    );
    expect(await screen.findByTestId('apitest-answer-code')).toBeTruthy();
    expect(screen.getByTestId('apitest-signature').textContent).toBe(expectedSign);
    const form = new URLSearchParams(bodies[0]);
    expect(form.get('sign')).toBe(expectedSign);
    expect(form.get('subject')).toBe('Top up');
    expect(form.get('amount')).toBe('123450');
    expect(screen.getByTestId('apitest-answer-code').textContent).toBe('code 2001');
    expect(screen.getByText('Meaning: signature does not match')).toBeTruthy();
    expect(screen.queryByTestId('apitest-pay-url')).toBeNull();
  });

  it('sign only: shows the signature without sending anything', async () => {
    await renderWithKnownInput();
    await fill('apitest-secret', 'another-secret');
    await user().click(screen.getByTestId('apitest-preview'));
    const expected = hmacOf(
      'amount=123450&mchId=10001&mchOrderNo=T20240101001&notifyUrl=https://shop.example/notify&productId=1001&subject=Top up&vpa=payer@upi&key=another-secret',
      'another-secret',
    );
    expect((await screen.findByTestId('apitest-signature')).textContent).toBe(expected);
    expect(screen.getByText('Not sent: this is the request that would be sent')).toBeTruthy();
    expect(server.sent(CREATE_URL)).toHaveLength(0);
  });

  it('signs a notify URL with a query string as the server does: = and & escaped in the signing string only', async () => {
    await renderWithKnownInput();
    await fill('apitest-notifyUrl', 'https://shop.example/notify?shop=7&lang=en');
    await fill('apitest-subject', '100% & more');
    await fill('apitest-secret', SECRET);
    await user().click(screen.getByTestId('apitest-preview'));
    // Written out by hand (issue 17): '%' -> %25, '&' -> %26, '=' -> %3D in values; nothing else.
    const expectedText =
      'amount=123450&mchId=10001&mchOrderNo=T20240101001&notifyUrl=https://shop.example/notify?shop%3D7%26lang%3Den&productId=1001&subject=100%25 %26 more&vpa=payer@upi';
    expect((await screen.findByTestId('apitest-signing-string')).textContent).toBe(`${expectedText}&key=********`);
    expect(screen.getByTestId('apitest-signature').textContent).toBe(hmacOf(`${expectedText}&key=${SECRET}`));
    // The same as the contract's example of docs/merchant-api.md, which the server verifies.
    const docExample = {
      mchId: '10001',
      productId: '1001',
      mchOrderNo: 'A20261123002',
      amount: '50000',
      notifyUrl: 'https://merchant.example/notify?shop=7&lang=en',
      subject: 'Top-up',
      signType: 'HMAC-SHA256',
    };
    expect(await signRequest(docExample, SECRET, 'HMAC-SHA256')).toBe(
      'ACC2737979340DB715EB44B8ACD857BA1B38E5FB10CAEA78DD0888C9B0E06D97',
    );
  });

  it('refuses what the server would refuse before signing: IFSC, UPI ID, amount', async () => {
    await renderWithKnownInput();
    await fill('apitest-secret', SECRET);
    await fill('apitest-ifscCode', 'SBIN123');
    await fill('apitest-vpa', 'not-a-vpa');
    await fill('apitest-amount', '12.345');
    await user().click(screen.getByTestId('apitest-send'));
    expect(await screen.findByText('invalid IFSC format')).toBeTruthy();
    expect(screen.getByText('Invalid UPI ID, e.g. name@bank')).toBeTruthy();
    expect(screen.getByText('Enter an amount above 0 with at most 2 decimals')).toBeTruthy();
    expect(server.sent(CREATE_URL)).toHaveLength(0);
    expect(screen.queryByTestId('apitest-result')).toBeNull();
  });

  it('amounts: x100, and x10000 for product 1045, never through a float', () => {
    expect(apiAmountOf('1,234.5', 1001)).toBe('123450');
    expect(apiAmountOf('0.07', 1001)).toBe('7');
    expect(apiAmountOf('12.345', 1001)).toBeNull();
    expect(apiAmountOf('0', 1001)).toBeNull();
    expect(apiAmountOf('1.2345', 1045)).toBe('12345');
    expect(apiAmountOf('100', 1045)).toBe('1000000');
    expect(apiAmountOf('1.00001', 1045)).toBeNull();
    expect(apiAmountOf('4503599627370.49', 1001)).toBe('450359962737049');
  });

  it('product 1045 is sent x10000', async () => {
    await renderWithKnownInput();
    await user().click(screen.getAllByRole('combobox')[0]!);
    await user().click(await screen.findByTitle(/^1045 /));
    await chosen(/^1045 /);
    await fill('apitest-amount', '12.3456');
    // The hint follows the field a render later (Form.useWatch).
    await waitFor(() =>
      expect(screen.getByTestId('apitest-amount-api').textContent).toBe('Sent x10000: amount = 123456'),
    );
    await fill('apitest-secret', SECRET);
    await user().click(screen.getByTestId('apitest-preview'));
    const text = (await screen.findByTestId('apitest-signing-string')).textContent ?? '';
    expect(text).toContain('amount=123456&');
    expect(text).toContain('&productId=1045&');
  });

  it('signs the same without Web Crypto (a console served over plain http is not a secure context)', async () => {
    const params = { mchId: '10001', productId: '1001', mchOrderNo: 'A1', amount: '50000' };
    const expected = hmacOf(`amount=50000&mchId=10001&mchOrderNo=A1&productId=1001&key=${SECRET}`);
    expect(await signRequest(params, SECRET, 'HMAC-SHA256')).toBe(expected);
    vi.stubGlobal('crypto', {});
    expect(await signRequest(params, SECRET, 'HMAC-SHA256')).toBe(expected);
  });

  it('calls the API address merchants are shown (ApiUrl) by default, else the console’s own', async () => {
    server.answers.set('/v1.0/merchant/getMine', ok(MINE));
    const { unmount } = renderPage(
      <ApiTestPage />,
      '/order/test/merchant',
      testUser({ access: 'merchant', userId: 8, account: 'merchant1', apiUrl: 'https://api.paydesk.example/' }),
    );
    expect((screen.getByTestId('apitest-baseUrl') as HTMLInputElement).value).toBe('https://api.paydesk.example');
    unmount();
    renderPage(<ApiTestPage />, '/order/test/merchant', testUser({ access: 'merchant', userId: 8, apiUrl: '' }));
    expect((screen.getByTestId('apitest-baseUrl') as HTMLInputElement).value).toBe(location.origin);
  });
});
