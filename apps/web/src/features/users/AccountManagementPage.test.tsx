import type { Role, UserRow } from '@paydesk/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { ok, pageOf, renderPage, stubServer, testUser } from '../../test/renderPage';
import { chosen } from '../../test/select';
import AccountManagementPage from './AccountManagementPage';

const ROW: UserRow = {
  id: 9,
  account: 'service2',
  nickname: 'Night shift',
  role: 'customerService',
  parentId: null,
  enableGoogleVerify: true,
  confirmBind: true,
  allowModify: false,
  hasPayPassword: false,
  failedLoginCount: 5,
  lockedUntil: new Date(Date.now() + 3_600_000).toISOString(),
  lastLoginAt: null,
  createdAt: '2024-01-01T00:00:00.000Z',
  deletedAt: null,
};

const PAGE = '/system/accountManagement';
let server: ReturnType<typeof stubServer>;

beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(() => {
  server = stubServer({ '/v1.0/admin/getUserList': pageOf([ROW]) });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const renderAt = (path: string, access: Role = 'admin') =>
  renderPage(<AccountManagementPage />, path, testUser({ access }));

async function openAddForm() {
  const user = userEvent.setup();
  await user.click(await screen.findByTestId('user-add'));
  await screen.findByTestId('user-form');
  return user;
}

describe('AccountManagementPage', () => {
  it('lists accounts with their role and a locked tag while lockedUntil is ahead', async () => {
    renderAt(PAGE);
    expect(await screen.findByText('service2')).toBeTruthy();
    expect(screen.getByText('Customer service')).toBeTruthy();
    expect(screen.getByTestId('user-locked-service2').textContent).toBe('locked');
    expect(screen.getByTestId('user-delete-service2')).toBeTruthy();
  });

  it('refuses an account name with other characters than digits and letters, and sends nothing', async () => {
    renderAt(PAGE);
    const user = await openAddForm();
    await user.type(screen.getByTestId('user-form-nickname'), 'Night shift');
    await user.type(screen.getByTestId('user-form-account'), 'bad name!');
    await user.type(screen.getByTestId('user-form-password'), 'night2024');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('account accepts only digits and English letters')).toBeTruthy();
    expect(server.sent('/v1.0/admin/addUser')).toHaveLength(0);
  });

  it('asks for the required fields and for digits and letters in the password', async () => {
    renderAt(PAGE);
    const user = await openAddForm();
    await user.type(screen.getByTestId('user-form-account'), 'service3');
    await user.type(screen.getByTestId('user-form-password'), 'onlyletters');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('password must contain digits and letters')).toBeTruthy();
    expect((await screen.findAllByText('account, nickname and role cannot be empty')).length).toBeGreaterThan(0);
    expect(server.sent('/v1.0/admin/addUser')).toHaveLength(0);
  });

  it('shows the spec text when the server refuses a duplicate account (409)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.answers.set('/v1.0/admin/addUser', {
      code: 409,
      msg: 'add failed, check whether the account already exists',
      data: { reason: 'accountExists' },
    });
    renderAt(PAGE);
    const user = await openAddForm();
    await user.type(screen.getByTestId('user-form-nickname'), 'Night shift');
    await user.type(screen.getByTestId('user-form-account'), 'service2');
    await user.type(screen.getByTestId('user-form-password'), 'night2024');
    await user.click(within(screen.getByTestId('user-form')).getByRole('combobox'));
    await user.click(await screen.findByTitle('Customer service'));
    await chosen('Customer service');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('add failed, check whether the account already exists')).toBeTruthy();
    expect(server.sent('/v1.0/admin/addUser')[0]?.body).toEqual({
      nickname: 'Night shift',
      account: 'service2',
      password: 'night2024',
      access: 'customerService',
    });
  });

  it('the read-only variant lists accounts without any action', async () => {
    renderAt(`${PAGE}/readonly`, 'technicalMaintenance');
    expect(await screen.findByText('service2')).toBeTruthy();
    expect(screen.queryByTestId('user-add')).toBeNull();
    expect(screen.queryByTestId('user-delete-service2')).toBeNull();
    expect(screen.getByTestId('user-google-verify-service2').hasAttribute('disabled')).toBe(true);
  });

  it('the read-only route hides the actions even from an admin', async () => {
    renderAt(`${PAGE}/readonly`);
    expect(await screen.findByText('service2')).toBeTruthy();
    expect(screen.queryByTestId('user-add')).toBeNull();
  });

  it('customer service reads the editable route without actions', async () => {
    renderAt(PAGE, 'customerService');
    expect(await screen.findByText('service2')).toBeTruthy();
    expect(screen.queryByTestId('user-add')).toBeNull();
  });

  it('a switch calls enableGoogleVerify, says so and reloads the list', async () => {
    server.answers.set('/v1.0/user/enableGoogleVerify', ok(null));
    const user = userEvent.setup();
    renderAt(PAGE);
    await user.click(await screen.findByTestId('user-google-verify-service2'));
    expect(await screen.findByText('closed successfully')).toBeTruthy();
    expect(server.sent('/v1.0/user/enableGoogleVerify')[0]?.body).toEqual({ userId: 9, enableGoogleVerify: false });
    await waitFor(() => expect(server.sent('/v1.0/admin/getUserList')).toHaveLength(2));
  });

  it('resetting the authenticator sends bindUser with needToLogout', async () => {
    server.answers.set('/v1.0/user/bindUser', ok(null));
    const user = userEvent.setup();
    renderAt(PAGE);
    await user.click(await screen.findByTestId('user-rebind-service2'));
    await user.click(await screen.findByRole('button', { name: 'OK' }));
    expect(await screen.findByText('Authenticator reset')).toBeTruthy();
    expect(server.sent('/v1.0/user/bindUser')[0]?.body).toEqual({ userAccount: 'service2', needToLogout: true });
  });

  it('a locked account has a clear-lock action that sends clearSignInLock; an account without failures has none', async () => {
    server = stubServer({
      '/v1.0/admin/getUserList': pageOf([
        ROW,
        { ...ROW, id: 10, account: 'calm1', failedLoginCount: 0, lockedUntil: null },
      ]),
    });
    server.answers.set('/v1.0/user/clearSignInLock', ok(null));
    const user = userEvent.setup();
    renderAt(PAGE);
    await user.click(await screen.findByTestId('user-clear-lock-service2'));
    expect(await screen.findByText('Clear the sign-in locks and the failure count of service2?')).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: 'OK' }));
    expect(await screen.findByText('Sign-in lock cleared')).toBeTruthy();
    expect(server.sent('/v1.0/user/clearSignInLock')[0]?.body).toEqual({ userId: 9 });
    expect(screen.queryByTestId('user-clear-lock-calm1')).toBeNull();
  });

  it('the read-only variant offers no clear-lock action', async () => {
    renderAt(`${PAGE}/readonly`, 'technicalMaintenance');
    expect(await screen.findByText('service2')).toBeTruthy();
    expect(screen.queryByTestId('user-clear-lock-service2')).toBeNull();
  });

  it('edit failures read "update failed" with the server message', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.answers.set('/v1.0/admin/updateUser', {
      code: 422,
      msg: 'you cannot change your own role',
      data: { reason: 'ownRole' },
    });
    const user = userEvent.setup();
    renderAt(PAGE);
    await user.click(await screen.findByTestId('user-edit-service2'));
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText('update failed: you cannot change your own role')).toBeTruthy();
    expect(server.sent('/v1.0/admin/updateUser')[0]?.body).toEqual({
      id: 9,
      nickname: 'Night shift',
      account: 'service2',
      role: 'customerService',
    });
  });
});
