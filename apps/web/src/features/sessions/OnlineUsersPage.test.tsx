import type { SessionRow } from '@paydesk/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { ok, pageOf, renderPage, stubServer, testUser } from '../../test/renderPage';
import OnlineUsersPage from './OnlineUsersPage';

const session = (over: Partial<SessionRow>): SessionRow => ({
  sessionId: 's_1',
  userId: 8,
  account: 'merchant1',
  role: 'merchant',
  ip: '10.0.0.8',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0',
  createdAt: '2024-05-01T08:00:00.000Z',
  lastSeenAt: '2024-05-01T08:10:00.000Z',
  expiresAt: '2024-05-02T08:00:00.000Z',
  current: false,
  ...over,
});
const ROWS = [session({}), session({ sessionId: 's_me', userId: 2, account: 'admin', role: 'admin', current: true })];

let server: ReturnType<typeof stubServer>;
beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(() => {
  server = stubServer({ '/v1.0/user/getSessions': pageOf(ROWS) });
});
afterEach(() => vi.unstubAllGlobals());

describe('OnlineUsersPage', () => {
  it('an admin ends the sessions of the roles it manages and its own others, not a superAdmin’s', async () => {
    server = stubServer({
      '/v1.0/user/getSessions': pageOf([
        ...ROWS,
        session({ sessionId: 's_boss', userId: 1, account: 'superadmin', role: 'superAdmin' }),
        session({ sessionId: 's_admin2', userId: 2, account: 'admin', role: 'admin' }),
        session({ sessionId: 's_service', userId: 3, account: 'service', role: 'customerService' }),
      ]),
    });
    renderPage(<OnlineUsersPage />, '/system/onlineUsers');
    expect(await screen.findByText('superadmin')).toBeTruthy();
    expect(screen.getByTestId('session-logout-s_1')).toBeTruthy();
    expect(screen.getByTestId('session-logout-s_service')).toBeTruthy();
    expect(screen.getByTestId('session-logout-s_admin2')).toBeTruthy();
    expect(screen.queryByTestId('session-logout-s_boss')).toBeNull();
    expect(screen.queryByTestId('session-logout-s_me')).toBeNull();
  });

  it('customer service ends only its own other sessions (the server ends no one else’s for it)', async () => {
    server = stubServer({
      '/v1.0/user/getSessions': pageOf([
        session({}),
        session({ sessionId: 's_cs1', userId: 3, account: 'service', role: 'customerService', current: true }),
        session({ sessionId: 's_cs2', userId: 3, account: 'service', role: 'customerService' }),
      ]),
    });
    renderPage(<OnlineUsersPage />, '/system/onlineUsers', testUser({ access: 'customerService', userId: 3 }));
    expect(await screen.findByText('merchant1')).toBeTruthy();
    expect(screen.getByTestId('session-logout-s_cs2')).toBeTruthy();
    expect(screen.queryByTestId('session-logout-s_cs1')).toBeNull();
    expect(screen.queryByTestId('session-logout-s_1')).toBeNull();
  });

  it('marks the current session and ends another one with forceLogout', async () => {
    server.answers.set('/v1.0/user/forceLogout', ok(null));
    const user = userEvent.setup();
    renderPage(<OnlineUsersPage />, '/system/onlineUsers');
    expect(await screen.findByText('this session')).toBeTruthy();
    expect(screen.queryByTestId('session-logout-s_me')).toBeNull();
    const button = screen.getByTestId('session-logout-s_1');
    expect(button.getAttribute('data-account')).toBe('merchant1');
    await user.click(button);
    expect(await screen.findByText('End this session of merchant1?')).toBeTruthy();
    await user.click(screen.getByTestId('session-ok'));
    expect(await screen.findByText('Session ended')).toBeTruthy();
    expect(server.sent('/v1.0/user/forceLogout')[0]?.body).toEqual({ token: 's_1' });
    await waitFor(() => expect(server.sent('/v1.0/user/getSessions')).toHaveLength(2));
  });

  it('the read-only variant has no force logout, not even of one’s own other sessions', async () => {
    server = stubServer({
      '/v1.0/user/getSessions': pageOf([
        ...ROWS,
        session({ sessionId: 's_tm', userId: 4, account: 'maintenance', role: 'technicalMaintenance' }),
      ]),
    });
    renderPage(
      <OnlineUsersPage />,
      '/system/onlineUsers/readonly',
      testUser({ access: 'technicalMaintenance', userId: 4 }),
    );
    expect(await screen.findByText('merchant1')).toBeTruthy();
    expect(screen.queryByTestId('session-logout-s_1')).toBeNull();
    expect(screen.queryByTestId('session-logout-s_tm')).toBeNull();
    expect(screen.queryByTestId('session-actions-s_tm')).toBeNull();
  });
});
