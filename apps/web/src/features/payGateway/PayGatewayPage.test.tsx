import type { PayGatewayRow } from '@paydesk/contract';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { clearToken2, setToken2 } from '../../shared/api/session-storage';
import { ok, pageOf, renderPage, stubServer, testUser } from '../../test/renderPage';
import PayGatewayPage from './PayGatewayPage';

const ROW: PayGatewayRow = {
  id: 2,
  name: 'RazorpayX main',
  kind: 'payoutApi',
  baseUrl: 'https://api.razorpay.com',
  keyId: 'rzp_live_abc123',
  hasKeySecret: true,
  hasWebhookSecret: false,
  remark: 'main account',
  enabled: true,
  payScriptId: null,
  payScriptName: null,
  accounts: 1,
  createdAt: '2026-11-01T08:00:00.000Z',
  updatedAt: '2026-11-01T08:00:00.000Z',
  updatedBy: 'admin',
};
const LIST = '/v1.0/system/payGateway/list';
const PATH = '/system/payGatewayConfig';

beforeAll(() => setupI18n('en-US'));
afterEach(() => {
  clearToken2();
  vi.unstubAllGlobals();
});

describe('PayGatewayPage', () => {
  it.each([
    ['zh-CN', '代付接口（RazorpayX 类）', '已设置', '未设置'],
    ['zh-TW', '代付介面（RazorpayX 類）', '已設定', '未設定'],
    ['en-US', 'Payout API (RazorpayX-style)', 'Set', 'Not set'],
  ])('lists gateways with their secrets only as set or not (%s)', async (language, kind, set, notSet) => {
    await act(() => i18next.changeLanguage(language));
    stubServer({ [LIST]: pageOf([ROW]) });
    renderPage(<PayGatewayPage />, PATH, testUser({ access: 'admin' }));
    expect(await screen.findByText('RazorpayX main')).toBeTruthy();
    expect(screen.getAllByText(kind).length).toBeGreaterThan(0);
    expect(screen.getAllByText(set).length).toBeGreaterThan(0);
    expect(screen.getAllByText(notSet).length).toBeGreaterThan(0);
    expect(screen.getByTestId('pay-gateway-edit-2')).toBeTruthy();
    // Accounts name it: not offered for deletion.
    expect(screen.queryByTestId('pay-gateway-delete-2')).toBeNull();
    await act(() => i18next.changeLanguage('en-US'));
  });

  it('adds a payout API gateway: the form asks for its credentials, then sends them once', async () => {
    setToken2('t2');
    const server = stubServer({
      [LIST]: pageOf([]),
      '/v1.0/system/payGateway/create': ok({ ...ROW, id: 3, accounts: 0 }),
    });
    renderPage(<PayGatewayPage />, PATH, testUser({ access: 'superAdmin' }));
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('pay-gateway-add'));
    await user.type(await screen.findByTestId('pay-gateway-name'), 'RazorpayX main');
    await user.click(screen.getByTestId('pay-gateway-save'));
    expect((await screen.findAllByText('Fill this in')).length).toBeGreaterThan(0);
    expect(server.sent('/v1.0/system/payGateway/create')).toHaveLength(0);
    await user.type(screen.getByTestId('pay-gateway-url'), 'https://api.razorpay.com');
    await user.type(screen.getByTestId('pay-gateway-key-id'), 'rzp_live_abc123');
    await user.type(screen.getByTestId('pay-gateway-key-secret'), 'key-secret-value');
    await user.type(screen.getByTestId('pay-gateway-webhook-secret'), 'webhook-secret-value');
    await user.click(screen.getByTestId('pay-gateway-save'));
    await waitFor(() =>
      expect(server.sent('/v1.0/system/payGateway/create').at(-1)?.body).toEqual({
        kind: 'payoutApi',
        name: 'RazorpayX main',
        baseUrl: 'https://api.razorpay.com',
        keyId: 'rzp_live_abc123',
        keySecret: 'key-secret-value',
        webhookSecret: 'webhook-secret-value',
        remark: null,
        payScriptId: null,
      }),
    );
  });

  it('an edit with the secrets left empty keeps them (sent as null)', async () => {
    setToken2('t2');
    const server = stubServer({ [LIST]: pageOf([ROW]), '/v1.0/system/payGateway/update': ok(ROW) });
    renderPage(<PayGatewayPage />, PATH, testUser({ access: 'admin' }));
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('pay-gateway-edit-2'));
    await user.type(await screen.findByTestId('pay-gateway-webhook-secret'), 'new-webhook-secret');
    await user.click(screen.getByTestId('pay-gateway-save'));
    await waitFor(() =>
      expect(server.sent('/v1.0/system/payGateway/update').at(-1)?.body).toMatchObject({
        id: 2,
        name: 'RazorpayX main',
        keySecret: null,
        webhookSecret: 'new-webhook-secret',
      }),
    );
  });

  it('a collection notification gateway names its pay script: chosen in the dialog, shown in the list', async () => {
    setToken2('t2');
    const notifyRow: PayGatewayRow = {
      ...ROW,
      id: 4,
      name: 'UPI notify',
      kind: 'collectionNotify',
      baseUrl: '',
      keyId: '',
      hasKeySecret: false,
      hasWebhookSecret: true,
      accounts: 0,
      payScriptId: 7,
      payScriptName: 'Demo script',
    };
    const server = stubServer({
      [LIST]: pageOf([notifyRow]),
      '/v1.0/dynamicPayScript/getList': pageOf([
        { id: 7, name: 'Demo script' },
        { id: 8, name: 'Other script' },
      ]),
      '/v1.0/system/payGateway/update': ok(notifyRow),
    });
    renderPage(<PayGatewayPage />, PATH, testUser({ access: 'admin' }));
    expect((await screen.findAllByText('Demo script')).length).toBeGreaterThan(0);
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('pay-gateway-edit-4'));
    const select = await screen.findByTestId('pay-gateway-script');
    await user.click(select.querySelector('.ant-select-selector') ?? select);
    await user.click(await screen.findByText('Other script'));
    await user.click(screen.getByTestId('pay-gateway-save'));
    await waitFor(() =>
      expect(server.sent('/v1.0/system/payGateway/update').at(-1)?.body).toMatchObject({ id: 4, payScriptId: 8 }),
    );
  });

  it('only reads on the read-only route', async () => {
    stubServer({ [LIST]: pageOf([{ ...ROW, accounts: 0 }]) });
    renderPage(<PayGatewayPage />, `${PATH}/readonly`, testUser({ access: 'technicalMaintenance' }));
    expect(await screen.findByText('RazorpayX main')).toBeTruthy();
    expect(screen.queryByTestId('pay-gateway-add')).toBeNull();
    expect(screen.queryByTestId('pay-gateway-edit-2')).toBeNull();
    expect(screen.queryByTestId('pay-gateway-delete-2')).toBeNull();
  });
});
