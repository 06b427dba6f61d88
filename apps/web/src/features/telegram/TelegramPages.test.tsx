import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { clearToken2, setToken2 } from '../../shared/api/session-storage';
import { ok, pageOf, renderPage, stubServer, testUser } from '../../test/renderPage';
import { chosen } from '../../test/select';
import TelegramBotGroupPage from './TelegramBotGroupPage';
import TelegramWhitelistPage from './TelegramWhitelistPage';

const USER = {
  id: 3,
  telegramUserId: '777000111',
  name: 'Ravi',
  enabled: true,
  remark: 'ops',
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};
const GROUP = {
  id: 5,
  chatId: '-1001',
  name: 'Merchant ops',
  partyKind: 'merchant',
  partyId: 1,
  partyName: 'Merchant One',
  language: 'en-US',
  enabled: true,
  remark: '',
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};

let server: ReturnType<typeof stubServer>;
beforeAll(() => setupI18n('en-US'));
beforeEach(() => {
  server = stubServer({
    '/v1.0/telegram/whitelist/list': pageOf([USER]),
    '/v1.0/telegram/group/list': pageOf([GROUP]),
    '/v1.0/telegram/group/parties': ok({
      merchants: [{ id: 1, name: 'Merchant One', merchantNo: 'M1001' }],
      suppliers: [{ id: 2, name: 'Supplier One' }],
    }),
  });
});
afterEach(() => {
  clearToken2();
  vi.unstubAllGlobals();
});

describe.each([
  ['zh-CN', '员工群组', '商户群组'],
  ['zh-TW', '員工群組', '商戶群組'],
  ['en-US', 'Staff group', 'Merchant group'],
] as const)('Telegram pages (%s)', (lang, staff, merchant) => {
  it("lists the whitelist and the groups with their party, in the reader's language", async () => {
    await act(() => i18next.changeLanguage(lang));
    const view = renderPage(<TelegramWhitelistPage />, '/system/telegramWhitelist', testUser({ access: 'admin' }));
    expect(await screen.findByText('777000111')).toBeTruthy();
    view.unmount();
    renderPage(<TelegramBotGroupPage />, '/system/telegramBotGroup', testUser({ access: 'admin' }));
    const list = await screen.findByTestId('tg-group-list');
    expect(await within(list).findByText('Merchant One')).toBeTruthy();
    expect(within(list).getByText(merchant)).toBeTruthy();
    expect(staff).toBeTruthy();
  });
});

describe('Telegram whitelist page', () => {
  beforeEach(() => act(() => i18next.changeLanguage('en-US')));

  it('adds a user with the second-level password held: the form checks the id, then sends it', async () => {
    setToken2('t2');
    server.answers.set('/v1.0/telegram/whitelist/add', ok({ ...USER, id: 4, telegramUserId: '42' }));
    const user = userEvent.setup({ delay: null });
    renderPage(<TelegramWhitelistPage />, '/system/telegramWhitelist', testUser({ access: 'customerService' }));
    await user.click(await screen.findByTestId('tg-user-add'));
    await user.type(await screen.findByTestId('tg-user-id'), '12ab');
    await user.type(screen.getByTestId('tg-user-name'), 'Asha');
    await user.click(screen.getByTestId('tg-user-save'));
    expect(await screen.findByText("Enter the Telegram user id's digits")).toBeTruthy();
    expect(server.sent('/v1.0/telegram/whitelist/add')).toHaveLength(0);
    await user.clear(screen.getByTestId('tg-user-id'));
    await user.type(screen.getByTestId('tg-user-id'), '42');
    await user.click(screen.getByTestId('tg-user-save'));
    await waitFor(() =>
      expect(server.sent('/v1.0/telegram/whitelist/add')[0]?.body).toEqual({
        telegramUserId: '42',
        name: 'Asha',
        enabled: true,
        // An empty field travels as null (spec section 5); the server stores ''.
        remark: null,
      }),
    );
    expect(await screen.findByText('Added')).toBeTruthy();
  });

  it("shows the server's refusal in the reader's language", async () => {
    setToken2('t2');
    server.answers.set('/v1.0/telegram/whitelist/add', {
      code: 409,
      msg: 'this Telegram user is already on the whitelist',
      data: { reason: 'telegramUserListed' },
    });
    await act(() => i18next.changeLanguage('zh-CN'));
    const user = userEvent.setup({ delay: null });
    renderPage(<TelegramWhitelistPage />, '/system/telegramWhitelist', testUser({ access: 'admin' }));
    await user.click(await screen.findByTestId('tg-user-add'));
    await user.type(await screen.findByTestId('tg-user-id'), '777000111');
    await user.type(screen.getByTestId('tg-user-name'), 'Ravi');
    await user.click(screen.getByTestId('tg-user-save'));
    expect(await screen.findByText('该 Telegram 用户已在白名单中')).toBeTruthy();
  });

  it('deletes a row after confirming', async () => {
    setToken2('t2');
    server.answers.set('/v1.0/telegram/whitelist/delete', ok({ id: 3 }));
    const user = userEvent.setup({ delay: null });
    renderPage(<TelegramWhitelistPage />, '/system/telegramWhitelist', testUser({ access: 'admin' }));
    await user.click(await screen.findByTestId('tg-user-delete-3'));
    expect(await screen.findByText('Remove Ravi from the whitelist?')).toBeTruthy();
    await user.click(screen.getByTestId('tg-user-ok'));
    await waitFor(() => expect(server.sent('/v1.0/telegram/whitelist/delete')[0]?.body).toEqual({ id: 3 }));
  });

  it('exports the filtered whitelist as CSV, also on the read-only route', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage(
      <TelegramWhitelistPage />,
      '/system/telegramWhitelist/readonly',
      testUser({ access: 'technicalMaintenance' }),
    );
    expect(await screen.findByText('777000111')).toBeTruthy();
    await user.type(within(screen.getByTestId('list-filters')).getByRole('textbox'), 'Ravi');
    await user.click(screen.getByTestId('list-search'));
    await waitFor(() => expect(server.sent('/v1.0/telegram/whitelist/list').at(-1)!.url).toContain('keyword=Ravi'));
    const exported = screen.getByTestId('export-csv').getAttribute('href') ?? '';
    expect(exported).toContain('/v1.0/telegram/whitelist/export');
    expect(exported).toContain('keyword=Ravi');
  });

  it('technical maintenance on the read-only route sees the rows and nothing to change', async () => {
    renderPage(
      <TelegramWhitelistPage />,
      '/system/telegramWhitelist/readonly',
      testUser({ access: 'technicalMaintenance' }),
    );
    expect(await screen.findByText('777000111')).toBeTruthy();
    expect(screen.getByText('Read-only: you can look, not change.')).toBeTruthy();
    expect(screen.queryByTestId('tg-user-add')).toBeNull();
    expect(screen.queryByTestId('tg-user-edit-3')).toBeNull();
    expect(screen.queryByTestId('tg-user-delete-3')).toBeNull();
  });
});

describe('Telegram bot group page', () => {
  beforeEach(() => act(() => i18next.changeLanguage('en-US')));

  it('adds a staff group without a party', async () => {
    setToken2('t2');
    server.answers.set('/v1.0/telegram/group/add', ok({ ...GROUP, id: 6, partyKind: 'staff', partyId: null }));
    const user = userEvent.setup({ delay: null });
    renderPage(<TelegramBotGroupPage />, '/system/telegramBotGroup', testUser({ access: 'superAdmin' }));
    await user.click(await screen.findByTestId('tg-group-add'));
    await user.type(await screen.findByTestId('tg-group-chat'), '-1009');
    await user.type(screen.getByTestId('tg-group-name'), 'Staff');
    // A merchant group must name its merchant.
    await user.click(screen.getByTestId('tg-group-save'));
    expect(await screen.findByText('Choose the merchant or supplier')).toBeTruthy();
    await user.click(within(screen.getByTestId('tg-group-form')).getAllByRole('combobox')[0]!);
    await user.click(await screen.findByTitle('Staff group'));
    await chosen('Staff group');
    await user.click(screen.getByTestId('tg-group-save'));
    await waitFor(() =>
      expect(server.sent('/v1.0/telegram/group/add')[0]?.body).toEqual({
        chatId: '-1009',
        name: 'Staff',
        partyKind: 'staff',
        partyId: null,
        language: 'zh-CN',
        enabled: true,
        // An empty field travels as null (spec section 5); the server stores ''.
        remark: null,
      }),
    );
  });

  it('exports the filtered groups as CSV', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage(<TelegramBotGroupPage />, '/system/telegramBotGroup', testUser({ access: 'admin' }));
    await within(await screen.findByTestId('tg-group-list')).findByText('Merchant One');
    await user.type(within(screen.getByTestId('list-filters')).getByRole('textbox'), 'ops');
    await user.click(screen.getByTestId('list-search'));
    await waitFor(() => expect(server.sent('/v1.0/telegram/group/list').at(-1)!.url).toContain('keyword=ops'));
    const exported = screen.getByTestId('export-csv').getAttribute('href') ?? '';
    expect(exported).toContain('/v1.0/telegram/group/export');
    expect(exported).toContain('keyword=ops');
  });

  it('the read-only route offers no change', async () => {
    renderPage(
      <TelegramBotGroupPage />,
      '/system/telegramBotGroup/readonly',
      testUser({ access: 'technicalMaintenance' }),
    );
    expect(await screen.findByText('Merchant One')).toBeTruthy();
    expect(screen.queryByTestId('tg-group-add')).toBeNull();
    expect(screen.queryByTestId('tg-group-edit-5')).toBeNull();
  });
});
