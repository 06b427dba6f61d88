import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { ok, renderPage, stubServer, testUser } from '../../test/renderPage';
import { chosen } from '../../test/select';
import EntityDataPage from './EntityDataPage';

const TABLES = ok({
  list: [
    {
      table: 'users',
      columns: [
        { name: 'id', type: 'integer', kind: 'value' },
        { name: 'account', type: 'text', kind: 'value' },
        { name: 'password_hash', type: 'text', kind: 'secret' },
      ],
    },
    { table: 'resource_images', columns: [{ name: 'bytes', type: 'bytea', kind: 'bytes' }] },
  ],
});
const rows = (list: Array<Record<string, string | null>>, hasMore = false) =>
  ok({ list, pageIndex: 1, pageSize: 20, hasMore });

let server: ReturnType<typeof stubServer>;
beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(() => {
  server = stubServer({
    '/v1.0/system/entityData/tables': TABLES,
    '/v1.0/system/entityData/rows': rows(
      [
        { id: '2', account: 'admin', password_hash: 'set' },
        { id: '1', account: 'superadmin', password_hash: 'set' },
      ],
      true,
    ),
  });
});
afterEach(() => vi.unstubAllGlobals());

describe.each(['zh-CN', 'zh-TW', 'en-US'] as const)('EntityDataPage (%s)', (lang) => {
  it('shows a table’s rows with secrets only as set, and pages on', async () => {
    await act(() => i18next.changeLanguage(lang));
    const secret = { 'zh-CN': '已设置（不显示）', 'zh-TW': '已設定（不顯示）', 'en-US': 'Set (not shown)' }[lang];
    renderPage(<EntityDataPage />, '/system/entityData', testUser({ access: 'superAdmin' }));
    const table = await screen.findByTestId('entity-rows');
    expect(await within(table).findByText('superadmin')).toBeTruthy();
    expect(within(table).getAllByText(secret)).toHaveLength(2);
    expect(within(table).queryByText('set')).toBeNull();
    const next = screen.getByTestId('entity-next');
    await waitFor(() => expect(next.hasAttribute('disabled')).toBe(false));
    await userEvent.setup({ delay: null }).click(next);
    await waitFor(() => expect(server.sent('/v1.0/system/entityData/rows').at(-1)?.url).toContain('pageIndex=2'));
  });
});

describe('EntityDataPage filter', () => {
  it('sends the column and the value it equals, and says when nothing matches', async () => {
    await act(() => i18next.changeLanguage('en-US'));
    renderPage(<EntityDataPage />, '/system/entityData', testUser({ access: 'superAdmin' }));
    await screen.findByText('superadmin');
    const user = userEvent.setup({ delay: null });
    await user.click(within(screen.getByTestId('entity-column')).getByRole('combobox'));
    await user.click(await screen.findByTitle('account'));
    await chosen('account');
    await user.type(screen.getByTestId('entity-value'), 'merchant1');
    server.answers.set('/v1.0/system/entityData/rows', rows([]));
    await user.click(screen.getByTestId('entity-search'));
    await waitFor(() => {
      const url = server.sent('/v1.0/system/entityData/rows').at(-1)!.url;
      expect(url).toContain('column=account');
      expect(url).toContain('value=merchant1');
    });
    expect(await screen.findByText('No rows match')).toBeTruthy();
    // The password hash is no column to filter by.
    await user.click(within(screen.getByTestId('entity-column')).getByRole('combobox'));
    expect(screen.queryByTitle('password_hash')).toBeNull();
  });
});
