import type { StaffIpRow } from '@paydesk/contract';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { ok, renderPage, stubServer, testUser } from '../../test/renderPage';
import IpWhitelistPage from './IpWhitelistPage';

const row = (over: Partial<StaffIpRow>): StaffIpRow => ({
  id: 1,
  entry: '203.0.113.0/24',
  remark: 'office',
  createdAt: '2026-11-01T08:00:00.000Z',
  createdBy: 'superadmin',
  coversCaller: false,
  ...over,
});
const LIST = '/v1.0/system/ipWhitelist/list';
const GET = '/v1.0/system-config/getStaffIpWhitelist';
const SET = '/v1.0/system-config/setStaffIpWhitelist';
const page = (list: StaffIpRow[], callerCovered: boolean) =>
  ok({ list, total: list.length, pageIndex: 1, pageSize: 20, callerIp: '203.0.113.7', callerCovered });
const superAdmin = testUser({ access: 'superAdmin' });

beforeAll(() => {
  setupI18n('en-US');
});
afterEach(() => vi.unstubAllGlobals());

describe('IpWhitelistPage', () => {
  it('offers turning it on only when the caller’s address is on the list', async () => {
    stubServer({ [LIST]: page([row({ entry: '192.0.2.0/24' })], false), [GET]: ok({ enable: false }) });
    renderPage(<IpWhitelistPage />, '/system/ipWhitelist', superAdmin);
    expect((await screen.findByTestId('ip-caller')).textContent).toContain('not on the list');
    await waitFor(() => expect(screen.getByTestId('ip-switch').hasAttribute('disabled')).toBe(true));
  });

  it('turns it on, and keeps the caller’s own entry from being deleted while on', async () => {
    const server = stubServer({
      [LIST]: page([row({ id: 1, coversCaller: true }), row({ id: 2, entry: '192.0.2.0/24' })], true),
      [GET]: ok({ enable: false }),
      [SET]: ok({ enable: true }),
    });
    renderPage(<IpWhitelistPage />, '/system/ipWhitelist', superAdmin);
    expect(await screen.findByText('your address')).toBeTruthy();
    expect(screen.getByTestId('ip-delete-1')).toBeTruthy();
    const user = userEvent.setup({ delay: null });
    await waitFor(() => expect(screen.getByTestId('ip-switch').hasAttribute('disabled')).toBe(false));
    server.answers.set(GET, ok({ enable: true }));
    await user.click(screen.getByTestId('ip-switch'));
    await waitFor(() => expect(server.sent(SET).at(-1)?.body).toEqual({ enable: true }));
    await waitFor(() => expect(screen.queryByTestId('ip-delete-1')).toBeNull());
    expect(screen.getByTestId('ip-delete-2')).toBeTruthy();
  });

  it('adds an address with its remark', async () => {
    const server = stubServer({
      [LIST]: page([], false),
      [GET]: ok({ enable: false }),
      '/v1.0/system/ipWhitelist/add': ok(row({ id: 3, entry: '198.51.100.7' })),
    });
    renderPage(<IpWhitelistPage />, '/system/ipWhitelist', superAdmin);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('ip-add'));
    await user.type(await screen.findByTestId('ip-form-entry'), '198.51.100.7');
    await user.type(screen.getByTestId('ip-form-remark'), 'vpn');
    await user.click(screen.getByTestId('ip-form-submit'));
    await waitFor(() =>
      expect(server.sent('/v1.0/system/ipWhitelist/add').at(-1)?.body).toEqual({
        entry: '198.51.100.7',
        remark: 'vpn',
      }),
    );
  });

  it.each(['zh-CN', 'zh-TW', 'en-US'])('is read-only on the read-only route (%s)', async (language) => {
    await act(() => i18next.changeLanguage(language));
    stubServer({ [LIST]: page([row({ id: 1 })], true), [GET]: ok({ enable: true }) });
    renderPage(<IpWhitelistPage />, '/system/ipWhitelist/readonly', testUser({ access: 'technicalMaintenance' }));
    expect(await screen.findByText('203.0.113.0/24')).toBeTruthy();
    expect(screen.queryByTestId('ip-add')).toBeNull();
    expect(screen.queryByTestId('ip-delete-1')).toBeNull();
    expect(screen.getByTestId('ip-switch').hasAttribute('disabled')).toBe(true);
    await act(() => i18next.changeLanguage('en-US'));
  });
});
