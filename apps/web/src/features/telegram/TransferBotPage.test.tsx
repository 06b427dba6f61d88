import type { TelegramGroupRow, TransferBotStatus } from '@paydesk/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { clearToken2, setToken2 } from '../../shared/api/session-storage';
import { ok, pageOf, renderPage, stubServer, testUser } from '../../test/renderPage';
import TransferBotPage from './TransferBotPage';

const PAGE = '/system/transferBot';
const STATUS = '/v1.0/telegram/transferBot/status';
const SET_TOKEN = '/v1.0/system-config/setTransferBotToken';
const FLAG = '/v1.0/telegram/group/transferNotices';
const TEST = '/v1.0/telegram/transferBot/test';

const GROUP: TelegramGroupRow = {
  id: 5,
  chatId: '-1001',
  name: 'Merchant money',
  partyKind: 'merchant',
  partyId: 1,
  partyName: 'Merchant One',
  language: 'en-US',
  enabled: true,
  transferNotices: true,
  remark: '',
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};
const STAFF: TelegramGroupRow = { ...GROUP, id: 6, chatId: '-1002', name: 'Staff', partyKind: 'staff', partyId: null };
const NOT_SET: TransferBotStatus = {
  tokenSet: false,
  mainTokenSet: true,
  fundNoticesOn: true,
  sender: 'mainBot',
  receivingGroups: 1,
};

let server: ReturnType<typeof stubServer>;
beforeAll(() => setupI18n('en-US'));
beforeEach(async () => {
  await act(() => i18next.changeLanguage('en-US'));
  server = stubServer({ [STATUS]: ok(NOT_SET), '/v1.0/telegram/group/list': pageOf([GROUP, STAFF]) });
});
afterEach(() => {
  clearToken2();
  vi.unstubAllGlobals();
});

describe.each([
  ['zh-CN', '主机器人', '未设置', '接收'],
  ['zh-TW', '主機器人', '未設定', '接收'],
  ['en-US', 'Main bot', 'Not set', 'Receives'],
] as const)('TransferBotPage (%s)', (lang, mainBot, notSet, receives) => {
  it('shows whether the token is set and which bot posts the balance changes, and the groups that get them', async () => {
    await act(() => i18next.changeLanguage(lang));
    renderPage(<TransferBotPage />, PAGE, testUser({ access: 'admin' }));
    await waitFor(() => expect(screen.getByTestId('transfer-sender').textContent).toBe(mainBot));
    expect(screen.getByTestId('transfer-token-state').textContent).toBe(notSet);
    const list = screen.getByTestId('transfer-group-list');
    expect(await within(list).findByText('Merchant One')).toBeTruthy();
    expect(within(list).getByTestId('transfer-notices-5').textContent).toBe(receives);
  });
});

describe('transfer bot page', () => {
  it('a super admin sets the token in a password field through the setting call, and clears it', async () => {
    setToken2('t2');
    server.answers.set(SET_TOKEN, ok({ set: true }));
    const user = userEvent.setup({ delay: null });
    renderPage(<TransferBotPage />, PAGE, testUser({ access: 'superAdmin' }));
    await user.click(await screen.findByTestId('transfer-token-set'));
    await user.type(screen.getByTestId('transfer-token-input'), 'not a token');
    await user.click(screen.getByTestId('transfer-token-save'));
    expect(await screen.findByText('Enter a Telegram bot token (digits, a colon, letters)')).toBeTruthy();
    expect(server.sent(SET_TOKEN)).toEqual([]);
    await user.clear(screen.getByTestId('transfer-token-input'));
    await user.type(screen.getByTestId('transfer-token-input'), '654321:ABC-def_1234567890abcdefghij');
    server.answers.set(STATUS, ok({ ...NOT_SET, tokenSet: true, sender: 'transferBot' }));
    await user.click(screen.getByTestId('transfer-token-save'));
    await waitFor(() =>
      expect(server.sent(SET_TOKEN)[0]?.body).toEqual({ value: '654321:ABC-def_1234567890abcdefghij' }),
    );
    await waitFor(() => expect(screen.getByTestId('transfer-sender').textContent).toBe('Transfer bot'));
    expect(screen.getByTestId('transfer-token-state').textContent).toBe('Set');
    expect(document.body.textContent).not.toContain('ABC-def_1234567890');

    server.answers.set(SET_TOKEN, ok({ set: false }));
    await user.click(screen.getByTestId('transfer-token-clear'));
    await user.click(await screen.findByTestId('transfer-token-confirm'));
    await waitFor(() => expect(server.sent(SET_TOKEN)[1]?.body).toEqual({ value: null }));
  });

  it('an admin mutes a group and sends a test message; the token is left to a super admin', async () => {
    setToken2('t2');
    server.answers.set(FLAG, ok({ ...GROUP, transferNotices: false }));
    server.answers.set(TEST, ok({ sender: 'mainBot', chatId: '-1001', messageId: 7 }));
    const user = userEvent.setup({ delay: null });
    renderPage(<TransferBotPage />, PAGE, testUser({ access: 'admin' }));
    await screen.findByTestId('transfer-notices-5');
    expect(screen.queryByTestId('transfer-token-set')).toBeNull();
    expect(screen.getByText('Only a super admin sets or clears the token.')).toBeTruthy();
    // A staff group gets no balance changes: nothing to turn on or off.
    expect(screen.queryByTestId('transfer-group-noticesOff-6')).toBeNull();
    expect(screen.queryByTestId('transfer-group-noticesOn-5')).toBeNull();

    await user.click(screen.getByTestId('transfer-group-noticesOff-5'));
    expect(await screen.findByText('Stop sending the balance changes to the group Merchant money?')).toBeTruthy();
    await user.click(screen.getByTestId('transfer-group-ok'));
    await waitFor(() => expect(server.sent(FLAG)[0]?.body).toEqual({ id: 5, transferNotices: false }));

    await user.click(screen.getByTestId('transfer-group-test-5'));
    await user.click(await screen.findByTestId('transfer-group-ok'));
    await waitFor(() => expect(server.sent(TEST)[0]?.body).toEqual({ groupId: 5 }));
    expect(await screen.findByText('Test message sent')).toBeTruthy();
  });

  it('technical maintenance on the read-only route sees the state and changes nothing', async () => {
    renderPage(<TransferBotPage />, `${PAGE}/readonly`, testUser({ access: 'technicalMaintenance' }));
    await screen.findByTestId('transfer-notices-5');
    expect(screen.getByText('Read-only: you can look, not change.')).toBeTruthy();
    expect(screen.queryByTestId('transfer-token-set')).toBeNull();
    expect(screen.queryByTestId('transfer-group-noticesOff-5')).toBeNull();
    expect(screen.queryByTestId('transfer-group-test-5')).toBeNull();
    expect(screen.getByTestId('export-csv').getAttribute('href')).toContain('/v1.0/telegram/group/export');
  });
});
