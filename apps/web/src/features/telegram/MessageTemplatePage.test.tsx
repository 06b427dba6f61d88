import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { clearToken2, setToken2 } from '../../shared/api/session-storage';
import { ok, renderPage, stubServer, testUser } from '../../test/renderPage';
import { chosen } from '../../test/select';
import MessageTemplatePage from './MessageTemplatePage';

const row = (language: string, text: string, custom = false) => ({
  channel: 'bot',
  key: 'orderNotFound',
  language,
  text,
  defaultText: text,
  custom,
  variables: ['orderCode'],
  updatedAt: null,
  updatedBy: custom ? 'admin' : null,
});
const LIST = ok({
  list: [
    row('zh-CN', '找不到订单 {{orderCode}}'),
    row('zh-TW', '找不到訂單 {{orderCode}}'),
    row('en-US', 'Sorry, {{orderCode}} is not yours', true),
    {
      channel: 'inApp',
      key: 'proposalRejectedTitle',
      language: 'en-US',
      text: 'Balance proposal #{{id}} rejected',
      defaultText: 'Balance proposal #{{id}} rejected',
      custom: false,
      variables: ['id'],
      updatedAt: null,
      updatedBy: null,
    },
  ],
});

let server: ReturnType<typeof stubServer>;
beforeAll(() => setupI18n('en-US'));
beforeEach(() => {
  server = stubServer({ '/v1.0/telegram/template/list': LIST });
});
afterEach(() => {
  clearToken2();
  vi.unstubAllGlobals();
});

describe.each([
  ['zh-CN', '订单未找到', '已自定义'],
  ['zh-TW', '訂單未找到', '已自訂'],
  ['en-US', 'Order not found', 'Customised'],
] as const)('MessageTemplatePage (%s)', (lang, message, custom) => {
  it('lists each message in each language, the customised ones marked', async () => {
    await act(() => i18next.changeLanguage(lang));
    renderPage(<MessageTemplatePage />, '/system/messageTemplate', testUser({ access: 'admin' }));
    const list = await screen.findByTestId('tg-template-list');
    expect(await within(list).findByText('Sorry, {{orderCode}} is not yours')).toBeTruthy();
    expect(within(list).getAllByText(message)).toHaveLength(3);
    expect(within(list).getByText(custom)).toBeTruthy();
  });
});

describe('MessageTemplatePage editing', () => {
  beforeEach(() => act(() => i18next.changeLanguage('en-US')));

  it('previews the text with example values as it is typed, then saves it', async () => {
    setToken2('t2');
    server.answers.set('/v1.0/telegram/template/update', ok(row('zh-CN', 'x', true)));
    const user = userEvent.setup({ delay: null });
    renderPage(<MessageTemplatePage />, '/system/messageTemplate', testUser({ access: 'admin' }));
    await user.click(await screen.findByTestId('tg-template-edit-orderNotFound-zh-CN'));
    const text = await screen.findByTestId('tg-template-text');
    expect(screen.getByTestId('tg-template-preview').textContent).toBe('找不到订单 C2611271030000001');
    await user.clear(text);
    await user.type(text, 'Missing: {{{{orderCode}}');
    expect(screen.getByTestId('tg-template-preview').textContent).toBe('Missing: C2611271030000001');
    await user.click(screen.getByTestId('tg-template-save'));
    await waitFor(() =>
      expect(server.sent('/v1.0/telegram/template/update')[0]?.body).toEqual({
        channel: 'bot',
        key: 'orderNotFound',
        language: 'zh-CN',
        text: 'Missing: {{orderCode}}',
      }),
    );
  });

  it('edits an in-app message the same way: its channel named, its own example values in the preview', async () => {
    setToken2('t2');
    server.answers.set('/v1.0/telegram/template/update', ok(row('en-US', 'x', true)));
    const user = userEvent.setup({ delay: null });
    renderPage(<MessageTemplatePage />, '/system/messageTemplate', testUser({ access: 'admin' }));
    const list = await screen.findByTestId('tg-template-list');
    expect(await within(list).findByText('In-app message')).toBeTruthy();
    expect(within(list).getByText('Balance proposal rejected (title)')).toBeTruthy();
    await user.click(screen.getByTestId('tg-template-edit-proposalRejectedTitle-en-US'));
    const text = await screen.findByTestId('tg-template-text');
    expect(screen.getByTestId('tg-template-preview').textContent).toBe('Balance proposal #42 rejected');
    await user.clear(text);
    await user.type(text, 'Proposal {{{{id}} turned down');
    expect(screen.getByTestId('tg-template-preview').textContent).toBe('Proposal 42 turned down');
    await user.click(screen.getByTestId('tg-template-save'));
    await waitFor(() =>
      expect(server.sent('/v1.0/telegram/template/update')[0]?.body).toEqual({
        channel: 'inApp',
        key: 'proposalRejectedTitle',
        language: 'en-US',
        text: 'Proposal {{id}} turned down',
      }),
    );
  });

  it('offers reset only for a customised text', async () => {
    setToken2('t2');
    server.answers.set('/v1.0/telegram/template/reset', ok(row('en-US', 'x')));
    const user = userEvent.setup({ delay: null });
    renderPage(<MessageTemplatePage />, '/system/messageTemplate', testUser({ access: 'admin' }));
    await screen.findByTestId('tg-template-list');
    await waitFor(() => expect(screen.queryByTestId('tg-template-edit-orderNotFound-en-US')).not.toBeNull());
    expect(screen.queryByTestId('tg-template-reset-orderNotFound-zh-CN')).toBeNull();
    await user.click(screen.getByTestId('tg-template-reset-orderNotFound-en-US'));
    await user.click(await screen.findByTestId('tg-template-ok'));
    await waitFor(() =>
      expect(server.sent('/v1.0/telegram/template/reset')[0]?.body).toEqual({
        channel: 'bot',
        key: 'orderNotFound',
        language: 'en-US',
      }),
    );
  });

  it('the read-only route shows the texts and no change', async () => {
    renderPage(
      <MessageTemplatePage />,
      '/system/messageTemplate/readonly',
      testUser({ access: 'technicalMaintenance' }),
    );
    expect(await screen.findByText('Sorry, {{orderCode}} is not yours')).toBeTruthy();
    expect(screen.queryByTestId('tg-template-edit-orderNotFound-en-US')).toBeNull();
  });
});

/** Picks `title` in the filter select `testId` and waits until it shows as chosen. */
async function chooseOption(user: ReturnType<typeof userEvent.setup>, testId: string, title: string) {
  await user.click(within(screen.getByTestId(testId)).getByRole('combobox'));
  const options = await screen.findAllByTitle(title);
  await user.click(options.find((o) => o.closest('.ant-select-dropdown')) ?? options[0]!);
  await chosen(title);
}

describe('MessageTemplatePage filters and export', () => {
  beforeEach(() => act(() => i18next.changeLanguage('en-US')));

  it('narrows the catalogue by language, source and keyword (the message’s name too), and exports what is shown', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage(<MessageTemplatePage />, '/system/messageTemplate', testUser({ access: 'admin' }));
    const list = await screen.findByTestId('tg-template-list');
    await within(list).findByText('Sorry, {{orderCode}} is not yours');
    const rows = () => list.querySelectorAll('tbody tr.ant-table-row').length;
    expect(rows()).toBe(4);

    await chooseOption(user, 'tg-template-source', 'Customised');
    await waitFor(() => expect(rows()).toBe(1));
    await chooseOption(user, 'tg-template-source', 'Own or default');
    await waitFor(() => expect(rows()).toBe(4));

    // The keyword finds the message by its name in the reader's language, not only by its text.
    await user.type(screen.getByTestId('tg-template-keyword').querySelector('input')!, 'balance proposal{Enter}');
    await waitFor(() => expect(rows()).toBe(1));
    expect(within(list).getByText('Balance proposal #{{id}} rejected')).toBeTruthy();
    const href = screen.getByTestId('tg-template-export').getAttribute('href')!;
    const url = new URL(href, 'http://x');
    expect(url.pathname).toBe('/v1.0/telegram/template/export');
    expect(url.searchParams.get('keyword')).toBe('balance proposal');

    await user.clear(screen.getByTestId('tg-template-keyword').querySelector('input')!);
    await user.type(screen.getByTestId('tg-template-keyword').querySelector('input')!, 'Order not found{Enter}');
    await chooseOption(user, 'tg-template-language', 'English');
    await waitFor(() => expect(rows()).toBe(1));
    expect(
      new URL(screen.getByTestId('tg-template-export').getAttribute('href')!, 'http://x').searchParams.get('language'),
    ).toBe('en-US');
  });
});
