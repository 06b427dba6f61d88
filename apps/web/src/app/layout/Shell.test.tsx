import { endpoints, SETTING_KEYS, SETTINGS, type SettingDef, type UserInfo } from '@paydesk/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App as AntApp } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import SystemConfigPage from '../../features/systemConfig/SystemConfigPage';
import { changeLanguage, setupI18n } from '../../i18n';
import { setToken } from '../../shared/api/session-storage';
import { type Answer, ok, stubServer, testUser } from '../../test/renderPage';
import { Guard } from '../Guard';
import { Shell } from './Shell';

/**
 * The shell as the signed-in console draws it from getInfo: the service-paused banner (the global
 * setting enableService), the system flag in the side menu (SysFlag, ShowLogo), and the support
 * contact merchants and suppliers find in the user menu (ContactInfo).
 */
const INFO = endpoints.auth.getInfo.path;
const LIST = endpoints.systemConfig.list.path;
const SET_SERVICE = endpoints.systemConfig.setenableService.path;

/** Every key at its default, as the list answers a superAdmin; enableService as given. */
const listWith = (serviceOn: boolean) =>
  ok({
    list: SETTING_KEYS.map((key) => {
      const def: SettingDef = SETTINGS[key];
      const answer =
        def.type.kind === 'switch'
          ? { enable: key === 'enableService' ? serviceOn : def.default }
          : def.type.kind === 'secret'
            ? { set: false }
            : { value: def.default };
      return { key, ...answer, changed: false, updatedAt: null, updatedBy: null, writable: true };
    }),
  });

function renderShell(path: string, user: UserInfo, more: Record<string, Answer> = {}) {
  setToken('T');
  const server = stubServer({
    [INFO]: ok(user),
    [endpoints.messages.unreadCount.path]: ok({ count: 0 }),
    [endpoints.system.demoHistory.path]: ok({ state: 'none', made: 0, planned: 0 }),
    [endpoints.orders.getLastOrder.path]: ok(null),
    ...more,
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <AntApp>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route
              element={
                <Guard>
                  <Shell />
                </Guard>
              }
            >
              <Route path="/systemConfig" element={<SystemConfigPage />} />
              <Route path="*" element={<div data-testid="some-page" />} />
            </Route>
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </AntApp>,
  );
  return server;
}

beforeAll(() => {
  setupI18n('en-US');
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await changeLanguage('en-US');
});

describe('the service-paused banner', () => {
  it('comes and goes with the service switch: the console reads getInfo again after the change', async () => {
    const user = userEvent.setup();
    const boss = testUser({ access: 'superAdmin', account: 'superadmin' });
    const server = renderShell('/systemConfig', boss, { [LIST]: listWith(true) });
    await user.click(await screen.findByTestId('config-switch-enableService'));
    expect(screen.queryByTestId('service-paused-banner')).toBeNull();
    expect(server.sent(INFO)).toHaveLength(1);

    server.answers.set(SET_SERVICE, ok({ enable: false }));
    server.answers.set(LIST, listWith(false));
    server.answers.set(INFO, ok({ ...boss, serviceEnabled: false }));
    await user.click(screen.getByTestId('config-confirm'));
    const banner = await screen.findByTestId('service-paused-banner');
    expect(banner.textContent).toContain('The service is paused');
    expect(banner.textContent).toContain('merchants’ new orders are refused. Staff can still sign in and work.');
    expect(server.sent(INFO)).toHaveLength(2);

    // Back on: the banner goes.
    await user.click(screen.getByTestId('config-switch-enableService'));
    server.answers.set(SET_SERVICE, ok({ enable: true }));
    server.answers.set(LIST, listWith(true));
    server.answers.set(INFO, ok(boss));
    await user.click(await screen.findByTestId('config-confirm'));
    await waitFor(() => expect(screen.queryByTestId('service-paused-banner')).toBeNull());
    expect(server.sent(SET_SERVICE).map((r) => r.body)).toEqual([{ enable: false }, { enable: true }]);
  });

  it('shows on every page while paused, in the reader’s words: a merchant is told new orders are refused', async () => {
    await changeLanguage('zh-CN');
    renderShell('/home', testUser({ access: 'merchant', serviceEnabled: false }));
    await screen.findByTestId('some-page');
    expect((await screen.findByTestId('service-paused-banner')).textContent).toBe('服务已暂停：目前不接受新订单。');
  });

  it('is absent while the service runs', async () => {
    renderShell('/home', testUser({ access: 'admin' }));
    await screen.findByTestId('some-page');
    expect(screen.queryByTestId('service-paused-banner')).toBeNull();
  });
});

describe('what the global config shows in the shell', () => {
  it('the side menu shows the system flag while ShowLogo is on, and not when it is off', async () => {
    renderShell('/home', testUser({ access: 'merchant', systemFlag: 'Desk Two' }));
    await screen.findByTestId('some-page');
    expect(within(screen.getByTestId('side-menu')).getByText('Desk Two')).toBeTruthy();
  });

  it('hides the system flag when ShowLogo is off', async () => {
    renderShell('/home', testUser({ access: 'merchant', systemFlag: 'Desk Two', showLogo: false }));
    await screen.findByTestId('some-page');
    expect(within(screen.getByTestId('side-menu')).queryByText('Desk Two')).toBeNull();
  });

  it('a supplier (or merchant) finds the support contact in the user menu, its lines kept', async () => {
    const user = userEvent.setup();
    const contact = 'Telegram @paydesk_help\n09:00–21:00 IST';
    renderShell('/home', testUser({ access: 'supplier', name: 'Supplier One', contactInfo: contact }));
    await user.click(await screen.findByTestId('user-menu'));
    await user.click(await screen.findByTestId('contact-menu-item'));
    expect((await screen.findByTestId('contact-info')).textContent).toBe(contact);
  });

  it('staff get no contact item: the contact is for merchants and suppliers', async () => {
    const user = userEvent.setup();
    renderShell('/home', testUser({ access: 'admin', contactInfo: 'Telegram @paydesk_help' }));
    await user.click(await screen.findByTestId('user-menu'));
    await screen.findByText('Log out');
    expect(screen.queryByTestId('contact-menu-item')).toBeNull();
  });

  it('no contact item for a merchant while the contact is empty', async () => {
    const user = userEvent.setup();
    renderShell('/home', testUser({ access: 'merchant', contactInfo: '  ' }));
    await user.click(await screen.findByTestId('user-menu'));
    await screen.findByText('Log out');
    expect(screen.queryByTestId('contact-menu-item')).toBeNull();
  });
});
