import type { SessionRow, UserInfo } from '@paydesk/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { renderPage, stubWebSocket, testUser } from '../../test/renderPage';
import ProfilePage from './ProfilePage';

const session = (sessionId: string, userId: number, current = false): SessionRow => ({
  sessionId,
  userId,
  account: userId === 7 ? 'admin' : 'admin2',
  role: 'admin',
  ip: `10.0.0.${userId}`,
  userAgent: 'test',
  createdAt: '2025-01-02T03:04:05Z',
  lastSeenAt: '2025-01-02T03:04:05Z',
  expiresAt: '2025-01-03T03:04:05Z',
  current,
});

let sessions: SessionRow[];
let requests: Array<{ path: string; body: unknown }>;

beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(() => {
  // Staff see everyone's sessions: admin2 matches the account filter "admin" too.
  sessions = [session('s_me', 7, true), session('s_phone', 7), session('s_laptop', 7), session('s_other', 8)];
  requests = [];
  stubWebSocket();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit) => {
      const path = new URL(input, 'http://localhost').pathname;
      const body = init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : null;
      requests.push({ path, body });
      let data: unknown = null;
      if (path === '/v1.0/user/getSessions') {
        data = { list: sessions, total: sessions.length, pageIndex: 1, pageSize: 100 };
      } else if (path === '/v1.0/user/forceLogout') {
        sessions = sessions.filter((s) => s.sessionId !== body?.token);
      }
      return new Response(JSON.stringify({ code: 200, msg: 'success', data }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const renderProfile = (overrides: Partial<UserInfo> = {}) =>
  renderPage(<ProfilePage />, '/profile/list', testUser({ userId: 7, showLogo: false, ...overrides }));

describe('ProfilePage', () => {
  it('lists only one’s own sessions and logs out all the others', async () => {
    const user = userEvent.setup();
    renderProfile();
    const card = screen.getByTestId('profile-sessions');
    await within(card).findByTestId('profile-session-end-s_phone');
    expect(requests.find((r) => r.path === '/v1.0/user/getSessions')?.body).toEqual({
      pageIndex: 1,
      pageSize: 100,
      account: 'admin',
    });
    expect(within(card).queryByText('10.0.0.8')).toBeNull();
    expect(within(card).queryByTestId('profile-session-end-s_me')).toBeNull();

    await user.click(screen.getByTestId('profile-sessions-end-others'));
    await user.click(await screen.findByRole('button', { name: 'OK' }));
    await waitFor(() =>
      expect(requests.filter((r) => r.path === '/v1.0/user/forceLogout').map((r) => r.body)).toEqual([
        { token: 's_phone' },
        { token: 's_laptop' },
      ]),
    );
    await waitFor(() => expect(within(card).queryByTestId('profile-session-end-s_phone')).toBeNull());
  });

  it('without allowModify the nickname and the authenticator are locked, passwords are not', async () => {
    renderProfile({ allowModify: false });
    expect(screen.getByTestId('profile-locked')).toBeTruthy();
    expect(screen.getByTestId('profile-nickname').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('profile-rebind').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('profile-unbind').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('profile-new-password').hasAttribute('disabled')).toBe(false);
  });

  it('EnablePayPassword: tells an account without a second-level password to set it, and only then', async () => {
    const { unmount } = renderProfile({ payPasswordRequired: true, hasPayPassword: false });
    expect(screen.getByTestId('profile-pay-password-required').textContent).toContain(
      'A separate second-level password is required',
    );
    unmount();
    for (const over of [
      { payPasswordRequired: true, hasPayPassword: true },
      { payPasswordRequired: false, hasPayPassword: false },
    ]) {
      const rendered = renderProfile(over);
      expect(screen.queryByTestId('profile-pay-password-required'), JSON.stringify(over)).toBeNull();
      rendered.unmount();
    }
  });

  it('asks for digits and letters in a new password', async () => {
    const user = userEvent.setup();
    renderProfile();
    await user.type(screen.getByTestId('profile-old-password'), 'demo1234');
    await user.type(screen.getByTestId('profile-new-password'), 'onlyletters');
    await user.type(screen.getByTestId('profile-confirm-password'), 'onlyletters');
    await user.click(screen.getByTestId('profile-password-save'));
    expect(await screen.findByText('password must contain digits and letters')).toBeTruthy();
    expect(requests.some((r) => r.path === '/v1.0/profile/changePassword')).toBe(false);
  });
});
