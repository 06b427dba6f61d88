import type { Role } from '@paydesk/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { ok, renderPage, stubServer, testUser } from '../../test/renderPage';
import SendTestPage from './SendTestPage';

const SEND = '/v1.0/orderCallBack/sendTest';
const URL_OK = 'http://127.0.0.1:9000/notify';

vi.setConfig({ testTimeout: 30_000 });
let server: ReturnType<typeof stubServer>;

beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(() => {
  server = stubServer({});
});
afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await changeLanguage('en-US');
});

const renderAt = (path: string, access: Role) => renderPage(<SendTestPage />, path, testUser({ access }));

describe('SendTestPage', () => {
  it('sends a sample to the address and shows the exchange: request fields, status, answer, duration, key', async () => {
    server.answers.set(
      SEND,
      ok({
        url: URL_OK,
        httpMethod: 'POST',
        requestBody: 'amount=10000&notificationId=NT2405011000&orderCode=T2405011000&sign=ABCD',
        signedWith: 'the test key "test" (HMAC-SHA256)',
        responseStatus: 200,
        responseBody: 'SUCCESS',
        error: null,
        succeeded: true,
        durationMs: 23,
      }),
    );
    renderAt('/system/orderSendTest', 'admin');
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByTestId('sendtest-url'), `  ${URL_OK} `);
    await user.click(screen.getByTestId('sendtest-send'));
    const result = await screen.findByTestId('sendtest-result');
    expect(server.sent(SEND)[0]?.body).toEqual({ url: URL_OK });
    expect(screen.getByTestId('sendtest-exchange-status').textContent).toBe('200');
    expect(screen.getByTestId('sendtest-exchange-response').textContent).toBe('SUCCESS');
    expect(screen.getByTestId('sendtest-exchange-signed-with').textContent).toBe('the test key "test" (HMAC-SHA256)');
    expect(screen.getByTestId('sendtest-exchange-request').textContent).toBe(
      'amount=10000\nnotificationId=NT2405011000\norderCode=T2405011000\nsign=ABCD',
    );
    expect(result.textContent).toContain('23 ms');
    expect(screen.getByTestId('sendtest-verdict').textContent).toContain('a real callback would count as delivered');
    expect(screen.queryByTestId('sendtest-exchange-error')).toBeNull();
  });

  it('an address that is not http/https is refused in the form, as the contract refuses it; nothing is sent', async () => {
    renderAt('/system/orderSendTest', 'admin');
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('sendtest-send'));
    expect(await screen.findByText('Enter an http or https address of at most 512 characters')).toBeTruthy();
    await user.type(screen.getByTestId('sendtest-url'), 'ftp://127.0.0.1/x');
    await user.click(screen.getByTestId('sendtest-send'));
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.getByText('Enter an http or https address of at most 512 characters')).toBeTruthy();
    expect(server.sent(SEND)).toHaveLength(0);
  });

  it('an order’s notification: sends the order code; the server’s refusal is shown', async () => {
    server.answers.set(SEND, { code: 404, msg: 'no such order', data: null });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderAt('/system/orderSendTest', 'superAdmin');
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('sendtest-source-order'));
    await user.type(screen.getByTestId('sendtest-url'), URL_OK);
    await user.click(screen.getByTestId('sendtest-send'));
    expect(await screen.findByText('Enter the order code')).toBeTruthy();
    expect(server.sent(SEND)).toHaveLength(0);
    await user.type(screen.getByTestId('sendtest-orderCode'), 'C2405011000001');
    await user.click(screen.getByTestId('sendtest-send'));
    expect((await screen.findByTestId('sendtest-error')).textContent).toBe('Sending failed: not found');
    expect(server.sent(SEND)[0]?.body).toEqual({ url: URL_OK, orderCode: 'C2405011000001' });
  });

  it('a merchant’s sample sends its number; a failed exchange shows why it would not count', async () => {
    server.answers.set(
      SEND,
      ok({
        url: URL_OK,
        httpMethod: 'POST',
        requestBody: 'mchId=10001&sign=ABCD',
        signedWith: 'merchant 10001 (MD5)',
        responseStatus: null,
        responseBody: null,
        error: 'connect ECONNREFUSED 127.0.0.1:9000',
        succeeded: false,
        durationMs: 3,
      }),
    );
    renderAt('/system/orderSendTest', 'admin');
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('sendtest-source-merchant'));
    await user.type(screen.getByTestId('sendtest-url'), URL_OK);
    await user.type(screen.getByTestId('sendtest-mchId'), 'no spaces!');
    await user.click(screen.getByTestId('sendtest-send'));
    expect(await screen.findByText('Enter the merchant number (letters or digits)')).toBeTruthy();
    expect(server.sent(SEND)).toHaveLength(0);
    await user.clear(screen.getByTestId('sendtest-mchId'));
    await user.type(screen.getByTestId('sendtest-mchId'), '10001');
    await user.click(screen.getByTestId('sendtest-send'));
    await screen.findByTestId('sendtest-result');
    expect(server.sent(SEND)[0]?.body).toEqual({ url: URL_OK, mchId: '10001' });
    expect(screen.getByTestId('sendtest-exchange-status').textContent).toBe('no answer');
    expect(screen.getByTestId('sendtest-exchange-error').textContent).toBe('connect ECONNREFUSED 127.0.0.1:9000');
    expect(screen.getByTestId('sendtest-exchange-response').textContent).toBe('No answer received');
    expect(screen.getByTestId('sendtest-exchange-signed-with').textContent).toBe('merchant 10001 (MD5)');
    expect(screen.getByTestId('sendtest-verdict').textContent).toContain('Would not count as delivered');
  });

  it('customer service and the read-only route see the form disabled with the reason, and cannot send', async () => {
    const cs = renderAt('/system/orderSendTest', 'customerService');
    expect(screen.getByTestId('sendtest-not-allowed').textContent).toContain('Only super admins and admins');
    expect((screen.getByTestId('sendtest-url') as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByTestId('sendtest-send') as HTMLButtonElement).disabled).toBe(true);
    cs.unmount();
    renderAt('/system/orderSendTest/readonly', 'technicalMaintenance');
    expect(screen.getByTestId('sendtest-not-allowed')).toBeTruthy();
    expect((screen.getByTestId('sendtest-send') as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(server.sent(SEND)).toHaveLength(0));
  });

  it('speaks Traditional Chinese', async () => {
    await changeLanguage('zh-TW');
    renderAt('/system/orderSendTest', 'admin');
    expect(screen.getByTestId('sendtest-send').textContent).toBe('發送測試');
    expect(screen.getByText('範例訂單（測試金鑰 "test" 簽名）')).toBeTruthy();
  });
});
