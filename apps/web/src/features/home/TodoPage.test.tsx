import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { ok, renderPage, stubServer, testUser } from '../../test/renderPage';
import TodoPage from './TodoPage';

beforeAll(() => {
  setupI18n('en-US');
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await changeLanguage('en-US');
});

const counts = ok({
  items: [
    { key: 'ordersToConfirm', count: 0 },
    { key: 'lockedOrders', count: 1 },
    { key: 'payoutsToConfirm', count: 2 },
  ],
});
const payoutRows = ok({
  list: [
    {
      key: 'payout:7',
      item: 'payoutsToConfirm',
      ref: 'P2611270001',
      party: 'merchant1',
      amount: 150_000,
      since: '2026-11-27T20:00:00.000Z',
      detail: 'UTR000111',
    },
    {
      key: 'payout:8',
      item: 'payoutsToConfirm',
      ref: 'P2611270002',
      party: 'merchant2',
      amount: 50_000,
      since: '2026-11-27T19:00:00.000Z',
      detail: 'UTR000222',
    },
  ],
  total: 2,
  pageIndex: 1,
  pageSize: 20,
  summary: { amount: 200_000 },
});

describe('the to-do page', () => {
  it('one tab per waiting item with its count; a tab lists its records with the total, each linked to where it is done', async () => {
    const server = stubServer({
      '/v1.0/todo/counts': counts,
      '/v1.0/todo/getList': payoutRows,
      '/v1.0/view/getList': ok([]),
    });
    renderPage(<TodoPage />, '/todo/list?item=payoutsToConfirm', testUser({ access: 'admin' }));
    const list = await screen.findByTestId('todo-list');
    await within(list).findByText('UTR000111');
    expect(server.sent('/v1.0/todo/getList')[0]!.url).toContain('item=payoutsToConfirm');
    const tabs = screen.getByTestId('todo-tabs');
    for (const label of ['Collection orders to confirm', 'Orders locked for review', 'Payouts to confirm']) {
      expect(tabs.textContent).toContain(label);
    }
    // The time is the platform's (India): 20:00 UTC is 01:30 the next day.
    expect(list.textContent).toContain('2026-11-28 01:30:00');
    expect(within(list).getAllByTestId('list-total-amount')[0]!.textContent).toBe('2,000.00');
    expect(screen.getByTestId('todo-open-payout:7').getAttribute('href')).toBe(
      '/payProxyOrder/list?orderCode=P2611270001',
    );
    expect(screen.getByTestId('export-csv').getAttribute('href')).toContain('/v1.0/todo/export?item=payoutsToConfirm');
  });

  it('another tab asks for its own item, and a locked order shows its mark', async () => {
    const server = stubServer({
      '/v1.0/todo/counts': counts,
      '/v1.0/todo/getList': payoutRows,
      '/v1.0/view/getList': ok([]),
    });
    renderPage(<TodoPage />, '/todo/list', testUser({ access: 'customerService' }));
    await screen.findByTestId('todo-list');
    // No item in the address: the first of the role's.
    await waitFor(() => expect(server.sent('/v1.0/todo/getList')[0]!.url).toContain('item=ordersToConfirm'));
    server.answers.set(
      '/v1.0/todo/getList',
      ok({
        list: [
          {
            key: 'order:3',
            item: 'lockedOrders',
            ref: 'C2611270003',
            party: 'merchant1',
            amount: 10_000,
            since: '2026-11-27T10:00:00.000Z',
            detail: '4',
          },
        ],
        total: 1,
        pageIndex: 1,
        pageSize: 20,
        summary: { amount: 10_000 },
      }),
    );
    fireEvent.click(within(screen.getByTestId('todo-tabs')).getByText('Orders locked for review'));
    await screen.findByText('Malicious');
    expect(server.sent('/v1.0/todo/getList').at(-1)!.url).toContain('item=lockedOrders');
    expect(screen.getByTestId('todo-open-order:3').getAttribute('href')).toBe(
      '/order/list/customerService?orderCode=C2611270003',
    );
  });

  it.each([
    ['zh-CN' as const, '待确认的代付订单', '代付订单号'],
    ['zh-TW' as const, '待確認的代付訂單', '代付訂單號'],
  ])('%s: the page in its language', async (language, tab, column) => {
    await changeLanguage(language);
    stubServer({ '/v1.0/todo/counts': counts, '/v1.0/todo/getList': payoutRows, '/v1.0/view/getList': ok([]) });
    renderPage(<TodoPage />, '/todo/list?item=payoutsToConfirm', testUser({ access: 'admin' }));
    const list = await screen.findByTestId('todo-list');
    await within(list).findByText('UTR000111');
    expect(screen.getByTestId('todo-tabs').textContent).toContain(tab);
    expect(list.textContent).toContain(column);
  });
});
