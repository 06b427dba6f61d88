import type { Role, UserRow } from '@paydesk/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { setToken2 } from '../../shared/api/session-storage';
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

const renderAt = (path: string, access: Role = 'admin', userId = 2) =>
  renderPage(<AccountManagementPage />, path, testUser({ access, userId }));

/** The actions a row offers: its buttons, then the items of its 'more' menu (opened to read them). */
async function offered(account: string): Promise<string[]> {
  const bar = await screen.findByTestId(`user-actions-${account}`);
  const keys = (el: ParentNode) =>
    [...el.querySelectorAll(`[data-testid^="user-"][data-testid$="-${account}"]`)]
      .map((b) => b.getAttribute('data-testid')!.slice('user-'.length, -account.length - 1))
      .filter((k) => k !== 'more');
  const inline = keys(bar);
  const more = within(bar).queryByTestId(`user-more-${account}`);
  if (!more) return inline;
  await userEvent.setup().click(more);
  // Menus opened before stay in the document: each item names its row.
  await screen.findAllByRole('menu');
  const items = screen.getAllByRole('menu').flatMap(keys);
  return [...inline, ...new Set(items)];
}

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
    await user.click(await screen.findByTestId('user-more-service2'));
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
    await user.click(await screen.findByTestId('user-more-service2'));
    await user.click(await screen.findByTestId('user-clear-lock-service2'));
    expect(await screen.findByText('Clear the sign-in locks and the failure count of service2?')).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: 'OK' }));
    expect(await screen.findByText('Sign-in lock cleared')).toBeTruthy();
    expect(server.sent('/v1.0/user/clearSignInLock')[0]?.body).toEqual({ userId: 9 });
    expect(await offered('calm1')).not.toContain('clear-lock');
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

  it('offers an admin what the server’s rule allows on each row', async () => {
    const superAdmin: UserRow = {
      ...ROW,
      id: 1,
      account: 'boss',
      role: 'superAdmin',
      failedLoginCount: 0,
      lockedUntil: null,
    };
    const deleted: UserRow = { ...ROW, id: 11, account: 'gone1', deletedAt: '2024-02-01T00:00:00.000Z' };
    const own: UserRow = { ...ROW, id: 2, account: 'admin', role: 'admin', failedLoginCount: 0, lockedUntil: null };
    server = stubServer({ '/v1.0/admin/getUserList': pageOf([ROW, superAdmin, deleted, own]) });
    renderAt(PAGE);
    expect(await screen.findByText('boss')).toBeTruthy();
    // A locked account of a role the admin manages: everything, edit and delete first.
    expect(await offered('service2')).toEqual([
      'edit',
      'delete',
      'repair',
      'reset-paypassword',
      'rebind',
      'clear-lock',
      'unbind',
    ]);
    // A superAdmin's account and a deleted one: nothing, and their switches are off.
    for (const account of ['boss', 'gone1']) {
      expect(screen.queryByTestId(`user-actions-${account}`)?.querySelector('button')).toBeFalsy();
      expect(screen.getByTestId(`user-google-verify-${account}`).hasAttribute('disabled')).toBe(true);
      expect(screen.getByTestId(`user-allow-modify-${account}`).hasAttribute('disabled')).toBe(true);
    }
    expect(screen.getByTestId('user-google-verify-service2').hasAttribute('disabled')).toBe(false);
    // One's own account: not deleted from here, and no lock to clear.
    expect(await offered('admin')).toEqual(['edit', 'repair', 'reset-paypassword', 'rebind', 'unbind']);
  });

  it('a superAdmin manages a superAdmin’s account', async () => {
    const other: UserRow = {
      ...ROW,
      id: 3,
      account: 'boss2',
      role: 'superAdmin',
      failedLoginCount: 0,
      lockedUntil: null,
    };
    server = stubServer({ '/v1.0/admin/getUserList': pageOf([other]) });
    renderAt(PAGE, 'superAdmin', 1);
    expect(await offered('boss2')).toEqual(['edit', 'delete', 'repair', 'reset-paypassword', 'rebind', 'unbind']);
  });

  it('one’s own account keeps its role in the edit form', async () => {
    const own: UserRow = { ...ROW, id: 2, account: 'admin', role: 'admin' };
    server = stubServer({ '/v1.0/admin/getUserList': pageOf([own]) });
    const user = userEvent.setup();
    renderAt(PAGE);
    await user.click(await screen.findByTestId('user-edit-admin'));
    const form = await screen.findByTestId('user-form');
    expect(within(form).getByRole('combobox').hasAttribute('disabled')).toBe(true);
  });

  it('customer service and the read-only route have no row actions and no switches to flip', async () => {
    for (const [path, access] of [
      [PAGE, 'customerService'],
      [`${PAGE}/readonly`, 'technicalMaintenance'],
      [`${PAGE}/readonly`, 'admin'],
    ] as const) {
      const view = renderAt(path, access);
      expect(await screen.findByText('service2')).toBeTruthy();
      expect(screen.queryByTestId('user-actions-service2')).toBeNull();
      expect(screen.getByTestId('user-allow-modify-service2').hasAttribute('disabled')).toBe(true);
      view.unmount();
    }
  });

  it('delete (second-level password held) confirms and calls deleteUser', async () => {
    setToken2('t2');
    server.answers.set('/v1.0/admin/deleteUser', ok(null));
    const user = userEvent.setup();
    renderAt(PAGE);
    await user.click(await screen.findByTestId('user-delete-service2'));
    expect(await screen.findByText('Delete the account service2?')).toBeTruthy();
    await user.click(screen.getByTestId('user-ok'));
    expect(await screen.findByText('Account deleted')).toBeTruthy();
    expect(server.sent('/v1.0/admin/deleteUser')[0]?.url).toContain('id=9');
  });
});
