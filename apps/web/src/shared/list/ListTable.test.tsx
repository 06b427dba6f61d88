import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { ok, renderPage, stubServer, testUser } from '../../test/renderPage';
import { moneyFilterText, typedMoneyOf } from './filterValues';
import { type ListColumn, type ListParams, ListTable, type Page } from './ListTable';

interface Row {
  id: number;
  account: string;
  balance: number;
  frozen: number;
}

const ROWS: Row[] = [
  { id: 1, account: 'alice', balance: 123_456, frozen: 500 },
  { id: 2, account: 'bob', balance: 99, frozen: 0 },
];

const COLUMNS: Array<ListColumn<Row>> = [
  { title: 'Account', dataIndex: 'account' },
  { title: 'Balance', dataIndex: 'balance', money: true, sortKey: 'balance' },
  { title: 'Frozen', key: 'frozen', dataIndex: 'frozen', money: true, defaultHidden: true },
];

let server: ReturnType<typeof stubServer>;
let fetchPage: ReturnType<typeof vi.fn<(p: ListParams) => Promise<Page<Row>>>>;

beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(async () => {
  await i18next.changeLanguage('en-US');
  server = stubServer({ '/v1.0/view/getList': ok([]) });
  fetchPage = vi.fn(async () => ({ list: ROWS, total: 2, summary: { balance: 123_456_789, frozen: 500 } }));
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderList(over: Partial<Parameters<typeof ListTable<Row>>[0]> = {}, path = '/merchants/list') {
  return renderPage(
    <ListTable<Row>
      testId="test-list"
      queryKey={['test', 'list']}
      rowKey="id"
      fetchPage={fetchPage}
      columns={COLUMNS}
      viewKey="merchantList"
      exportHref={(f) =>
        `/v1.0/test/export?${new URLSearchParams(Object.entries(f).map(([k, v]) => [k, String(v)])).toString()}`
      }
      filters={[
        { kind: 'text', name: 'account', label: 'Account' },
        { kind: 'text', name: 'note', label: 'Note' },
        { kind: 'money', name: 'amount', label: 'Amount' },
        { kind: 'number', name: 'userId', label: 'User id' },
        { kind: 'dateRange', name: 'time', label: 'Time' },
      ]}
      {...over}
    />,
    path,
    testUser({ userId: 7 }),
  );
}

const lastParams = () => fetchPage.mock.calls.at(-1)![0];

async function search(user: ReturnType<typeof userEvent.setup>) {
  const before = fetchPage.mock.calls.length;
  await user.click(screen.getByTestId('list-search'));
  await waitFor(() => expect(fetchPage.mock.calls.length).toBeGreaterThan(before));
}

describe('money filter text', () => {
  it('adds 0.0001 on the decimal text and reads it back', () => {
    expect(moneyFilterText('500')).toBe('500.0001');
    expect(moneyFilterText('12.5')).toBe('12.5001');
    expect(moneyFilterText('1,234.56')).toBe('1234.5601');
    expect(moneyFilterText('0.1')).toBe('0.1001');
    expect(moneyFilterText('-5')).toBe('-4.9999');
    expect(moneyFilterText('9999999999999999.99')).toBe('9999999999999999.9901');
    expect(moneyFilterText('1.234')).toBeNull();
    expect(moneyFilterText('abc')).toBeNull();
    expect(typedMoneyOf('500.0001')).toBe('500');
    expect(typedMoneyOf('12.5001')).toBe('12.5');
    expect(typedMoneyOf('-4.9999')).toBe('-5');
  });
});

// Typing through user-event is slow when every suite runs at once on two cores.
describe('ListTable', { timeout: 15_000 }, () => {
  it('sends a money filter as major units + 0.0001 text, and refuses a bad amount without sending', async () => {
    renderList();
    const user = userEvent.setup();
    await screen.findByText('alice');
    await user.type(screen.getByTestId('filter-amount'), '500');
    await search(user);
    expect(lastParams()).toEqual({ amount: '500.0001', pageIndex: 1, pageSize: 20 });

    await user.clear(screen.getByTestId('filter-amount'));
    await user.type(screen.getByTestId('filter-amount'), '12.5');
    await search(user);
    expect(lastParams().amount).toBe('12.5001');

    const calls = fetchPage.mock.calls.length;
    await user.clear(screen.getByTestId('filter-amount'));
    await user.type(screen.getByTestId('filter-amount'), '12.345');
    await user.type(screen.getByTestId('filter-userId'), '12a');
    await user.click(screen.getByTestId('list-search'));
    expect(await screen.findByText('Enter an amount with at most two decimals, e.g. 1234.56')).toBeTruthy();
    expect(await screen.findByText('Digits only')).toBeTruthy();
    expect(fetchPage.mock.calls.length).toBe(calls);
  });

  it('opened from a link with filters (the home page’s waiting work): starts filtered, the form showing them', async () => {
    renderList({}, '/merchants/list?account=ann&userId=42&startTime=2026-11-01%2000:00:00&tab=queue&bogus=1');
    await waitFor(() => expect(fetchPage).toHaveBeenCalled());
    // The first request is already filtered; keys that name no filter are not sent.
    expect(fetchPage.mock.calls[0]![0]).toEqual(
      expect.objectContaining({ account: 'ann', userId: '42', startTime: '2026-11-01 00:00:00' }),
    );
    expect(fetchPage.mock.calls[0]![0]).not.toHaveProperty('bogus');
    expect(fetchPage.mock.calls[0]![0]).not.toHaveProperty('tab');
    expect((screen.getByLabelText('Account') as HTMLInputElement).value).toBe('ann');
  });

  it('leaves empty filters out and trims texts', async () => {
    renderList();
    const user = userEvent.setup();
    await screen.findByText('alice');
    await user.type(screen.getByTestId('filter-account'), '  ali  ');
    await user.type(screen.getByTestId('filter-note'), '   ');
    await user.type(screen.getByTestId('filter-userId'), ' 42 ');
    await search(user);
    expect(lastParams()).toEqual({ account: 'ali', userId: '42', pageIndex: 1, pageSize: 20 });
    expect('note' in lastParams()).toBe(false);
  });

  it('sorts on the server: asc, desc, then cleared; the export link follows filters and sort', async () => {
    renderList();
    const user = userEvent.setup();
    await screen.findByText('alice');
    await user.type(screen.getByTestId('filter-account'), 'alice');
    await search(user);
    expect(screen.getByTestId('export-csv').getAttribute('href')).toBe('/v1.0/test/export?account=alice');

    const header = screen.getByRole('columnheader', { name: /Balance/ });
    await user.click(header);
    await waitFor(() => expect(lastParams()).toMatchObject({ sortBy: 'balance', sortOrder: 'asc', account: 'alice' }));
    expect(screen.getByTestId('export-csv').getAttribute('href')).toBe(
      '/v1.0/test/export?account=alice&sortBy=balance&sortOrder=asc',
    );
    await user.click(header);
    await waitFor(() => expect(lastParams()).toMatchObject({ sortBy: 'balance', sortOrder: 'desc' }));
    await user.click(header);
    await waitFor(() => expect(lastParams().sortBy).toBeUndefined());
    expect(lastParams().sortOrder).toBeUndefined();
    expect(screen.getByTestId('export-csv').getAttribute('href')).toBe('/v1.0/test/export?account=alice');
  });

  it('shows money divided by 100 right-aligned, and a totals row of the whole filtered set in en-US and zh-CN', async () => {
    renderList();
    expect(await screen.findByText('1,234.56')).toBeTruthy();
    expect(screen.getByText('0.99')).toBeTruthy();
    expect(screen.getByTestId('list-totals-label').textContent).toBe('Total (all filtered rows)');
    expect(screen.queryByTestId('list-total-after')).toBeNull();
    expect(screen.getByTestId('list-total-balance').textContent).toBe('1,234,567.89');
    // A hidden column has no total cell.
    expect(screen.queryByTestId('list-total-frozen')).toBeNull();
    expect(screen.getByTestId('list-total-balance').closest('td')?.style.textAlign).toBe('right');
    expect(screen.getByText('1,234.56').closest('td')?.style.textAlign).toBe('right');

    await act(() => i18next.changeLanguage('zh-CN'));
    expect(screen.getByTestId('list-totals-label').textContent).toBe('合计（全部筛选结果）');
    expect(screen.getByTestId('list-total-balance').textContent).toBe('1,234,567.89');
  });

  it('names its controls and makes the sideways-scrolling table a focusable region (accessibility)', async () => {
    renderList();
    await screen.findByText('alice');
    const region = screen.getByRole('region', { name: 'Data table' });
    expect(region.getAttribute('tabindex')).toBe('0');
    expect(region.querySelector('table')).not.toBeNull();
    expect(screen.getByRole('combobox', { name: 'Views' })).toBeTruthy();
  });

  it('has no totals row when the answer carries no summary', async () => {
    fetchPage.mockResolvedValue({ list: ROWS, total: 2 });
    renderList();
    await screen.findByText('alice');
    expect(screen.queryByTestId('list-totals')).toBeNull();
  });

  it('column settings: hidden by default or by the user, kept per user and page across remounts, and reset', async () => {
    const first = renderList();
    const user = userEvent.setup();
    await screen.findByText('alice');
    expect(screen.queryByRole('columnheader', { name: 'Frozen' })).toBeNull();
    await user.click(screen.getByTestId('list-columns'));
    await user.click(await screen.findByTestId('list-column-balance'));
    await user.click(screen.getByTestId('list-column-frozen'));
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: /Balance/ })).toBeNull());
    expect(screen.getByRole('columnheader', { name: 'Frozen' })).toBeTruthy();
    first.unmount();

    renderList();
    await screen.findByText('alice');
    expect(screen.queryByRole('columnheader', { name: /Balance/ })).toBeNull();
    expect(screen.getByRole('columnheader', { name: 'Frozen' })).toBeTruthy();
    expect(localStorage.getItem('paydesk.listColumns.7.merchantList')).toBeTruthy();

    await user.click(screen.getByTestId('list-columns'));
    await user.click(await screen.findByTestId('list-columns-reset'));
    await waitFor(() => expect(screen.getByRole('columnheader', { name: /Balance/ })).toBeTruthy());
    expect(screen.queryByRole('columnheader', { name: 'Frozen' })).toBeNull();
  });

  it('applies a saved view: fills the form and runs the query with its filters', async () => {
    server.answers.set(
      '/v1.0/view/getList',
      ok([
        {
          id: 31,
          page: 'merchantList',
          name: 'Big ones',
          filters: { account: 'alice', amount: '500.0001', startTime: '2024-01-02 03:04:05', endTime: null },
          createdAt: '2024-01-02T00:00:00.000Z',
        },
      ]),
    );
    renderList();
    const user = userEvent.setup();
    await screen.findByText('alice');
    // Views load when the select opens, not with the list.
    expect(server.sent('/v1.0/view/getList')).toHaveLength(0);
    fireEvent.mouseDown(within(screen.getByTestId('list-filters')).getAllByRole('combobox').at(-1)!);
    await user.click(await screen.findByText('Big ones'));
    expect(server.sent('/v1.0/view/getList')[0]?.url).toContain('page=merchantList');
    await waitFor(() =>
      expect(lastParams()).toEqual({
        account: 'alice',
        amount: '500.0001',
        startTime: '2024-01-02 03:04:05',
        pageIndex: 1,
        pageSize: 20,
      }),
    );
    expect((screen.getByTestId('filter-amount') as HTMLInputElement).value).toBe('500');
    expect((screen.getByTestId('filter-account') as HTMLInputElement).value).toBe('alice');
  });

  it('folds the filters beyond the first six when there are more than eight, and never hides a set one unseen', async () => {
    const many = Array.from({ length: 10 }, (_, i) => ({ kind: 'text' as const, name: `f${i}`, label: `Filter ${i}` }));
    server.answers.set(
      '/v1.0/view/getList',
      ok([{ id: 34, page: 'merchantList', name: 'Deep', filters: { f9: 'z' }, createdAt: '2024-01-02T00:00:00.000Z' }]),
    );
    renderList({ filters: many });
    const user = userEvent.setup();
    await screen.findByText('alice');
    const folded = () =>
      many
        .filter((f) =>
          screen.getByTestId(`filter-${f.name}`).closest('.ant-form-item')!.classList.contains('ant-form-item-hidden'),
        )
        .map((f) => f.name);
    expect(folded()).toEqual(['f6', 'f7', 'f8', 'f9']);
    const toggle = screen.getByTestId('list-more-filters');
    expect(toggle.textContent).toBe('More filters (4)');

    await user.click(toggle);
    expect(folded()).toEqual([]);
    expect(toggle.textContent).toBe('Fewer filters');
    await user.type(screen.getByTestId('filter-f8'), 'x');
    await user.click(toggle);
    expect(folded()).toEqual(['f6', 'f7', 'f8', 'f9']);
    expect(toggle.textContent).toBe('More filters (1 set)');
    await search(user);
    expect(lastParams()).toEqual({ f8: 'x', pageIndex: 1, pageSize: 20 });

    // A saved view that sets a folded filter unfolds them.
    fireEvent.mouseDown(within(screen.getByTestId('list-filters')).getAllByRole('combobox').at(-1)!);
    await user.click(await screen.findByText('Deep'));
    await waitFor(() => expect(lastParams()).toEqual({ f9: 'z', pageIndex: 1, pageSize: 20 }));
    expect(folded()).toEqual([]);
  });

  it('unfolds the filters when a folded one fails its check, and sends nothing', async () => {
    const many = [
      ...Array.from({ length: 9 }, (_, i) => ({ kind: 'text' as const, name: `f${i}`, label: `Filter ${i}` })),
      { kind: 'number' as const, name: 'userId', label: 'User id' },
    ];
    renderList({ filters: many });
    const user = userEvent.setup();
    await screen.findByText('alice');
    await user.click(screen.getByTestId('list-more-filters'));
    await user.type(screen.getByTestId('filter-userId'), '12a');
    await user.click(screen.getByTestId('list-more-filters'));
    const calls = fetchPage.mock.calls.length;
    await user.click(screen.getByTestId('list-search'));
    expect(await screen.findByText('Digits only')).toBeTruthy();
    expect(screen.getByTestId('list-more-filters').textContent).toBe('Fewer filters');
    expect(fetchPage.mock.calls.length).toBe(calls);
  });

  it('shows every filter when there are eight or fewer', async () => {
    renderList({
      filters: Array.from({ length: 8 }, (_, i) => ({ kind: 'text' as const, name: `f${i}`, label: `F${i}` })),
    });
    await screen.findByText('alice');
    expect(screen.queryByTestId('list-more-filters')).toBeNull();
    expect(document.querySelectorAll('.ant-form-item-hidden')).toHaveLength(0);
  });

  it('saves the form’s filters as sent under a name, and deletes a view', async () => {
    server.answers.set(
      '/v1.0/view/getList',
      ok([{ id: 32, page: 'merchantList', name: 'Old', filters: {}, createdAt: '2024-01-02T00:00:00.000Z' }]),
    );
    server.answers.set(
      '/v1.0/view/save',
      ok({ id: 33, page: 'merchantList', name: 'Mine', filters: {}, createdAt: '2024-01-03T00:00:00.000Z' }),
    );
    server.answers.set('/v1.0/view/delete', ok(null));
    renderList();
    const user = userEvent.setup();
    await screen.findByText('alice');
    await user.type(screen.getByTestId('filter-account'), ' bob ');
    await user.type(screen.getByTestId('filter-amount'), '1,000');
    await user.click(screen.getByTestId('list-view-save'));
    await user.type(await screen.findByTestId('list-view-name'), '  Mine ');
    await user.click(screen.getByTestId('list-view-save-ok'));
    await waitFor(() => expect(server.sent('/v1.0/view/save')).toHaveLength(1));
    expect(server.sent('/v1.0/view/save')[0]!.body).toEqual({
      page: 'merchantList',
      name: 'Mine',
      filters: { account: 'bob', amount: '1000.0001' },
    });
    expect(await screen.findByText('View saved')).toBeTruthy();

    fireEvent.mouseDown(within(screen.getByTestId('list-filters')).getAllByRole('combobox').at(-1)!);
    await user.click(await screen.findByTestId('list-view-delete-32'));
    await waitFor(() => expect(server.sent('/v1.0/view/delete')[0]?.body).toEqual({ id: 32 }));
  });

  it('shows the server’s refusal of a view in the user’s language', async () => {
    server.answers.set('/v1.0/view/save', {
      code: 422,
      msg: 'at most 50 views per page: delete one first',
      data: { reason: 'tooManyViews' },
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderList();
    const user = userEvent.setup();
    await screen.findByText('alice');
    await user.click(screen.getByTestId('list-view-save'));
    await user.type(await screen.findByTestId('list-view-name'), 'One more');
    await user.click(screen.getByTestId('list-view-save-ok'));
    expect(await screen.findByText('At most 50 views per page: delete one first')).toBeTruthy();
  });

  it('shows the error state with a retry that loads the list', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fetchPage.mockRejectedValueOnce(new Error('boom'));
    renderList();
    expect(await screen.findByText('Loading failed: boom')).toBeTruthy();
    await userEvent.setup().click(screen.getByTestId('list-retry'));
    expect(await screen.findByText('alice')).toBeTruthy();
  });

  it('on a phone shows each row as a card (title, first lines, actions) under the totals, and two filters', async () => {
    const phone = { matches: true, addEventListener: () => undefined, removeEventListener: () => undefined };
    vi.stubGlobal('matchMedia', () => phone);
    const columns: Array<ListColumn<Row>> = [
      { title: 'Account', dataIndex: 'account', key: 'account', fixed: 'left' },
      { title: 'Balance', dataIndex: 'balance', key: 'balance', money: true },
      // An amount the answer does not total (a balance after): no empty line among the totals.
      { title: 'After', dataIndex: 'frozen', key: 'after', money: true },
      { title: 'Actions', key: 'actions', fixed: 'right', render: (_: unknown, row: Row) => `act-${row.account}` },
    ];
    renderList({ columns });
    const card = await screen.findByTestId('list-card-1');
    expect(within(card).getByText('alice')).toBeTruthy();
    expect(within(card).getByText('Balance')).toBeTruthy();
    expect(within(card).getByText('1,234.56')).toBeTruthy();
    expect(within(card).getByText('act-alice')).toBeTruthy();
    expect(within(screen.getByTestId('list-card-2')).getByText('act-bob')).toBeTruthy();
    // The totals of the whole filtered set head the cards.
    expect(screen.getByTestId('list-total-balance').textContent).toBe('1,234,567.89');
    expect(screen.getByTestId('list-totals-label').textContent).toBe('Total (all filtered rows)');
    expect(screen.queryByTestId('list-total-after')).toBeNull();
    expect(document.querySelector('.ant-table')).toBeNull();
    // Each filter takes a line there: two show, the other three wait behind the toggle.
    const hidden = ['account', 'note', 'amount', 'userId', 'time'].filter((name) =>
      screen.getAllByTestId(`filter-${name}`)[0]!.closest('.ant-form-item')!.classList.contains('ant-form-item-hidden'),
    );
    expect(hidden).toEqual(['amount', 'userId', 'time']);
    expect(screen.getByTestId('list-more-filters').textContent).toBe('More filters (3)');
  });

  it('on a phone the sortable columns are offered in a select (a card has no header to click)', async () => {
    vi.stubGlobal('matchMedia', () => ({ matches: true, addEventListener() {}, removeEventListener() {} }));
    renderList();
    const user = userEvent.setup();
    await screen.findByTestId('list-card-1');
    fireEvent.mouseDown(within(screen.getByTestId('list-sort')).getByRole('combobox'));
    await user.click(await screen.findByText('Balance, descending'));
    await waitFor(() => expect(lastParams()).toMatchObject({ sortBy: 'balance', sortOrder: 'desc', pageIndex: 1 }));
    // The export follows the sort, as on a wide screen.
    expect(screen.getByTestId('export-csv').getAttribute('href')).toContain('sortBy=balance');
  });

  it('a card takes its title, corner and lines from the columns a page marks for phones', async () => {
    vi.stubGlobal('matchMedia', () => ({ matches: true, addEventListener() {}, removeEventListener() {} }));
    const columns: Array<ListColumn<Row>> = [
      { title: 'Pick', key: 'pick', phone: 'extra', render: (_: unknown, row: Row) => `pick-${row.id}` },
      { title: 'Balance', dataIndex: 'balance', key: 'balance', money: true },
      { title: 'Id', dataIndex: 'id', key: 'id', phone: true },
      { title: 'Account', dataIndex: 'account', key: 'account', phone: 'title' },
      // Not pinned, but named as the actions: the card ends with them whatever the lines.
      { title: 'Actions', key: 'actions', render: (_: unknown, row: Row) => `edit-${row.id}` },
    ];
    renderList({ columns });
    const card = await screen.findByTestId('list-card-1');
    expect(card.querySelector('.ant-card-head-title')!.textContent).toBe('alice');
    expect(card.querySelector('.ant-card-extra')!.textContent).toBe('pick-1');
    expect(within(card).getByText('Id')).toBeTruthy();
    expect(within(card).queryByText('Balance')).toBeNull();
    expect(card.querySelector('.list-card-actions')!.textContent).toBe('edit-1');
  });
});
