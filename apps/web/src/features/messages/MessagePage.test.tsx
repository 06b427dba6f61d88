import type { MessageRow, Role } from '@paydesk/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { renderPage, stubWebSocket, testUser } from '../../test/renderPage';
import { chosen } from '../../test/select';
import MessagePage from './MessagePage';

const row = (
  msg_id: number,
  title: string,
  title_template: MessageRow['title_template'] = null,
  title_texts: MessageRow['title_texts'] = {},
): MessageRow => ({
  msg_id,
  title,
  title_template,
  title_texts,
  create_time: '2025-01-02T03:04:05Z',
});
/** Message 6's content as staff edited its template in zh-CN (the server fills it when it sends). */
const EDITED_CONTENT = { 'zh-CN': '押金充值 #12 未通过：x' };
/** A system message's content template (the fake answers it with message 5). */
const REJECTED = {
  key: 'proposalRejected',
  values: {
    id: 12,
    proposalKind: 'deposit',
    partyKind: 'merchant',
    party: 'Merchant One',
    account: 'admin',
    reason: 'x',
  },
};

/** The fake server's inbox; the move endpoints change it like the real one does. */
let inbox: Record<'unread' | 'readed' | 'trash', MessageRow[]>;
let requests: Array<{ method: string; path: string; body: unknown }>;

function move(from: keyof typeof inbox, to: keyof typeof inbox, msgId: number) {
  const m = inbox[from].find((r) => r.msg_id === msgId);
  if (!m) return { code: 409, msg: 'not in that list', data: null };
  inbox[from] = inbox[from].filter((r) => r !== m);
  inbox[to] = [m, ...inbox[to]];
  return { code: 200, msg: 'success', data: null };
}

function answer(method: string, path: string, body: { msg_id?: number } | null, query: URLSearchParams): unknown {
  const msgId = body?.msg_id ?? 0;
  switch (path) {
    case '/message/init':
      return { code: 200, msg: 'success', data: inbox };
    case '/v1.0/message/unreadCount':
      return { code: 200, msg: 'success', data: { count: inbox.unread.length } };
    case '/message/content': {
      const id = Number(query.get('msg_id'));
      const m = [...inbox.unread, ...inbox.readed, ...inbox.trash].find((r) => r.msg_id === id);
      return m
        ? {
            code: 200,
            msg: 'success',
            data: {
              ...m,
              content: `Body of ${m.title}`,
              content_template: m.msg_id === 5 || m.msg_id === 6 ? REJECTED : null,
              content_texts: m.msg_id === 6 ? EDITED_CONTENT : {},
            },
          }
        : { code: 404, msg: 'not found', data: null };
    }
    case '/message/has_read':
      return move('unread', 'readed', msgId);
    case '/message/remove_readed':
      return move('readed', 'trash', msgId);
    case '/message/restore':
      return move('trash', 'readed', msgId);
    case '/v1.0/user/getUserOptions':
      return {
        code: 200,
        msg: 'success',
        data: [{ id: 11, account: 'merchant1', nickname: 'M1', role: 'merchant', parentId: null, deleted: false }],
      };
    case '/v1.0/message/send':
      return { code: 200, msg: 'success', data: { msg_id: 99, recipients: 5 } };
    default:
      return { code: 404, msg: `no fake for ${method} ${path}`, data: null };
  }
}

beforeAll(() => {
  setupI18n('en-US');
});

beforeEach(() => {
  inbox = {
    unread: [row(1, 'Payout rejected'), row(2, 'Low deposit')],
    readed: [row(3, 'Supplement awaiting review')],
    trash: [row(4, 'Old notice')],
  };
  requests = [];
  stubWebSocket();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      const body = init.body ? (JSON.parse(String(init.body)) as { msg_id?: number }) : null;
      const method = init.method ?? 'GET';
      requests.push({ method, path: url.pathname, body });
      const reply = answer(method, url.pathname, body, url.searchParams);
      return new Response(JSON.stringify(reply), { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const renderInbox = (access: Role, entry = '/message_page') =>
  renderPage(
    <MessagePage />,
    entry,
    testUser({ userId: 7, userName: 'someone', account: 'someone', name: 'Someone', access, showLogo: false }),
  );

const initCalls = () => requests.filter((r) => r.path === '/message/init').length;

describe('MessagePage', () => {
  it('a system message reads in the console’s language; a broadcast as its sender wrote it', async () => {
    inbox.unread.push(row(5, 'Balance proposal #12 rejected', { key: 'proposalRejectedTitle', values: { id: 12 } }));
    await changeLanguage('zh-CN');
    try {
      const user = userEvent.setup();
      renderInbox('admin');
      const item = await screen.findByTestId('message-item-5');
      expect(item.textContent).toContain('余额操作 #12 已拒绝');
      expect(screen.getByTestId('message-item-1').textContent).toContain('Payout rejected');
      await user.click(within(item).getByText('余额操作 #12 已拒绝'));
      const content = await screen.findByTestId('message-content');
      expect(content.textContent).toContain(
        '您提交的余额操作 #12（押金充值，商户 Merchant One）已被 admin 拒绝，余额未变动。原因：x',
      );
    } finally {
      await changeLanguage('en-US');
    }
  });

  it('a system message whose template staff edited reads the edited text in that language, the default in others', async () => {
    inbox.unread.push(
      row(
        6,
        'Balance proposal #12 rejected',
        { key: 'proposalRejectedTitle', values: { id: 12 } },
        { 'zh-CN': '12 号操作未通过' },
      ),
    );
    await changeLanguage('zh-TW');
    try {
      const view = renderInbox('admin');
      expect((await screen.findByTestId('message-item-6')).textContent).toContain('餘額操作 #12 已拒絕');
      view.unmount();
      await changeLanguage('zh-CN');
      const user = userEvent.setup();
      renderInbox('admin');
      const item = await screen.findByTestId('message-item-6');
      expect(item.textContent).toContain('12 号操作未通过');
      await user.click(within(item).getByText('12 号操作未通过'));
      expect((await screen.findByTestId('message-content')).textContent).toContain('押金充值 #12 未通过：x');
    } finally {
      await changeLanguage('en-US');
    }
  });

  it('shows the three tabs with their counts and the unread messages', async () => {
    renderInbox('merchant');
    expect(await screen.findByTestId('message-item-1')).toBeTruthy();
    expect(screen.getByTestId('message-item-2')).toBeTruthy();
    expect(screen.getByTestId('message-tab-unread').textContent).toContain('2');
    expect(screen.getByTestId('message-tab-readed').textContent).toContain('1');
    expect(screen.getByTestId('message-tab-trash').textContent).toContain('1');
  });

  it('"mark read" posts /message/has_read with the msg_id and refetches the inbox', async () => {
    const user = userEvent.setup();
    renderInbox('merchant');
    await screen.findByTestId('message-item-1');
    const before = initCalls();

    await user.click(screen.getByTestId('message-read-1'));

    await waitFor(() =>
      expect(requests).toContainEqual({ method: 'POST', path: '/message/has_read', body: { msg_id: 1 } }),
    );
    await waitFor(() => expect(initCalls()).toBeGreaterThan(before));
    await waitFor(() => expect(screen.queryByTestId('message-item-1')).toBeNull());
    expect(screen.getByTestId('message-tab-unread').textContent).toContain('1');
    expect(screen.getByTestId('message-tab-readed').textContent).toContain('2');
    // Marking read did not open the message.
    expect(requests.some((r) => r.path === '/message/content')).toBe(false);
  });

  it('moves a read message to the trash and restores it from there', async () => {
    const user = userEvent.setup();
    renderInbox('merchant');
    await user.click(await screen.findByTestId('message-tab-readed'));
    await user.click(await screen.findByTestId('message-remove-3'));
    await waitFor(() =>
      expect(requests).toContainEqual({ method: 'POST', path: '/message/remove_readed', body: { msg_id: 3 } }),
    );
    await user.click(screen.getByTestId('message-tab-trash'));
    await user.click(await screen.findByTestId('message-restore-3'));
    await waitFor(() =>
      expect(requests).toContainEqual({ method: 'POST', path: '/message/restore', body: { msg_id: 3 } }),
    );
    await waitFor(() => expect(inbox.readed.map((m) => m.msg_id)).toEqual([3]));
  });

  it('a deep link ?msg=<id> opens that message and marks it read', async () => {
    renderInbox('merchant', '/message_page?msg=2');
    const content = await screen.findByTestId('message-content');
    expect(within(content).getByText('Body of Low deposit')).toBeTruthy();
    await waitFor(() =>
      expect(requests).toContainEqual({ method: 'POST', path: '/message/has_read', body: { msg_id: 2 } }),
    );
  });

  it('"Send message" is absent for a merchant and present for an admin', async () => {
    const merchant = renderInbox('merchant');
    await screen.findByTestId('message-item-1');
    expect(screen.queryByTestId('message-send')).toBeNull();
    merchant.unmount();

    renderInbox('admin');
    await screen.findByTestId('message-item-1');
    expect(screen.getByTestId('message-send')).toBeTruthy();
    // The account options are fetched only once the modal opens.
    expect(requests.some((r) => r.path === '/v1.0/user/getUserOptions')).toBe(false);
    await act(async () => screen.getByTestId('message-send').click());
    await waitFor(() => expect(requests.some((r) => r.path === '/v1.0/user/getUserOptions')).toBe(true));
  });

  it('sends a message to the chosen roles and says how many recipients it reached', async () => {
    const user = userEvent.setup();
    renderInbox('customerService');
    await user.click(await screen.findByTestId('message-send'));
    await user.type(await screen.findByTestId('message-send-title'), 'Maintenance');
    await user.type(screen.getByTestId('message-send-content'), 'Tonight 02:00');
    await user.click(within(screen.getByTestId('message-send-roles')).getByRole('combobox'));
    await user.click(await screen.findByTitle('Merchant'));
    await chosen('Merchant');
    await user.click(screen.getByTestId('message-send-submit'));
    await waitFor(() =>
      expect(requests).toContainEqual({
        method: 'POST',
        path: '/v1.0/message/send',
        body: { title: 'Maintenance', content: 'Tonight 02:00', roles: ['merchant'] },
      }),
    );
    expect(await screen.findByText('Sent. Recipients reached: 5')).toBeTruthy();
  });
});
