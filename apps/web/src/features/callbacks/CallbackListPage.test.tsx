import { type CallbackAttemptRow, type CallbackRow, ORDER_STATE, PAYOUT_STATE, type Role } from '@paydesk/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { setToken } from '../../shared/api/session-storage';
import { LiveSocket } from '../../test/liveSocket.js';
import { ok, pageOf, renderPage, stubServer, testUser } from '../../test/renderPage';
import { chosen } from '../../test/select';
import CallbackListPage from './CallbackListPage';

const callback = (over: Partial<CallbackRow> = {}): CallbackRow => ({
  id: 11,
  orderType: 'collection',
  orderCode: 'C2405011000001',
  merchantOrderNo: 'M-1',
  merchantName: 'Merchant One',
  merchantNo: '10001',
  orderState: ORDER_STATE.callbackSucceeded,
  orderLocked: false,
  notificationId: 'NC2405011000001',
  url: 'https://shop.example/notify',
  state: 'succeeded',
  trigger: 'auto',
  attempts: 2,
  lastStatus: 200,
  lastError: null,
  lastAttemptAt: '2024-05-01T10:00:20.000Z',
  nextAttemptAt: null,
  createdAt: '2024-05-01T10:00:00.000Z',
  updatedAt: '2024-05-01T10:00:20.000Z',
  ...over,
});
const SUCCEEDED = callback();
const PENDING = callback({
  id: 12,
  orderCode: 'C2405011000002',
  merchantOrderNo: 'M-2',
  notificationId: 'NC2405011000002',
  orderState: ORDER_STATE.paidNotifying,
  state: 'pending',
  attempts: 1,
  lastStatus: 500,
  lastError: 'HTTP 500',
  nextAttemptAt: '2024-05-01T10:00:15.000Z',
});
const REVERSED = callback({
  id: 13,
  orderCode: 'C2405011000003',
  orderState: ORDER_STATE.reversed,
  state: 'cancelled',
  trigger: 'replay',
  attempts: 0,
  lastStatus: null,
  lastAttemptAt: null,
});

const attempt = (over: Partial<CallbackAttemptRow>): CallbackAttemptRow => ({
  id: 101,
  callbackId: 11,
  orderType: 'collection',
  orderCode: 'C2405011000001',
  merchantOrderNo: 'M-1',
  trigger: 'auto',
  attemptNo: 1,
  url: 'https://shop.example/notify',
  httpMethod: 'POST',
  requestBody: 'amount=10000&mchId=10001&orderCode=C2405011000001&sign=AB12',
  responseStatus: 500,
  responseBody: 'down',
  error: 'HTTP 500',
  succeeded: false,
  durationMs: 41,
  createdAt: '2024-05-01T10:00:00.000Z',
  ...over,
});

vi.setConfig({ testTimeout: 30_000 });
let server: ReturnType<typeof stubServer>;

beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(() => {
  server = stubServer({
    '/v1.0/orderCallBack/getList': pageOf([SUCCEEDED, PENDING, REVERSED]),
    '/v1.0/view/getList': ok([]),
  });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await changeLanguage('en-US');
});

const renderAt = (path: string, access: Role) => renderPage(<CallbackListPage />, path, testUser({ access }));
const listCalls = () => server.sent('/v1.0/orderCallBack/getList');
const lastListUrl = () => new URL(listCalls().at(-1)!.url, 'http://x');
const actionIds = (id: number) =>
  within(screen.getByTestId(`callback-row-${id}`).closest('tr')!)
    .queryAllByRole('button')
    .map((b) => b.getAttribute('data-testid'))
    .filter((v): v is string => v !== null);

async function confirmPopup(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByTestId('callback-ok'));
}

describe('CallbackListPage: the list', () => {
  it('shows one row per callback with its state, trigger, attempts, last answer and the order’s state', async () => {
    renderAt('/system/orderCallback', 'admin');
    const row = (await screen.findByTestId('callback-row-12')).closest('tr')!;
    expect(row.textContent).toContain('M-2');
    expect(row.textContent).toContain('Merchant One (10001)');
    expect(row.textContent).toContain('Paid, notifying');
    expect(row.textContent).toContain('https://shop.example/notify');
    expect(row.textContent).toContain('Payment');
    expect(row.textContent).toContain('HTTP 500');
    expect(screen.getByTestId('callback-state-12').textContent).toBe('Delivering');
    expect(screen.getByTestId('callback-state-11').textContent).toBe('Succeeded');
    expect(screen.getByTestId('callback-state-13').textContent).toBe('Cancelled');
    const reversed = screen.getByTestId('callback-row-13').closest('tr')!;
    expect(reversed.textContent).toContain('Replay');
    expect(reversed.textContent).toContain('Reversed');
    // No attempt yet: no status at all rather than "no answer".
    expect(reversed.textContent).not.toContain('no answer');
    expect(screen.getByTestId('export-csv').getAttribute('href')).toBe('/v1.0/orderCallBack/export');
  });

  it('sends the spec’s filters (trimmed; empty ones left out) and the state, and the CSV link carries them', async () => {
    renderAt('/system/orderCallback', 'admin');
    const user = userEvent.setup({ delay: null });
    await screen.findByTestId('callback-row-11');
    await user.type(screen.getByTestId('filter-orderCode'), '  C2405011000002 ');
    await user.type(screen.getByTestId('filter-merchantOrderNo'), '   ');
    fireEvent.mouseDown(within(screen.getByTestId('list-filters')).getAllByRole('combobox')[0]!);
    await user.click(await screen.findByTitle('Delivering'));
    await chosen('Delivering');
    const before = listCalls().length;
    await user.click(screen.getByTestId('list-search'));
    await waitFor(() => expect(listCalls().length).toBeGreaterThan(before));
    const url = lastListUrl();
    expect(url.searchParams.get('orderCode')).toBe('C2405011000002');
    expect(url.searchParams.get('state')).toBe('pending');
    expect(url.searchParams.has('merchantOrderNo')).toBe(false);
    expect(url.searchParams.get('pageIndex')).toBe('1');
    const href = new URL(screen.getByTestId('export-csv').getAttribute('href')!, 'http://x');
    expect(href.pathname).toBe('/v1.0/orderCallBack/export');
    expect(href.searchParams.get('orderCode')).toBe('C2405011000002');
    expect(href.searchParams.get('state')).toBe('pending');
    expect(href.searchParams.has('pageIndex')).toBe(false);
  });

  it('labels states and triggers in Simplified and Traditional Chinese', async () => {
    await changeLanguage('zh-CN');
    const first = renderAt('/system/orderCallback', 'admin');
    expect((await screen.findByTestId('callback-state-12')).textContent).toBe('投递中');
    expect(screen.getByTestId('callback-row-13').closest('tr')!.textContent).toContain('重发');
    first.unmount();
    await changeLanguage('zh-TW');
    renderAt('/system/orderCallback', 'admin');
    expect((await screen.findByTestId('callback-state-12')).textContent).toBe('投遞中');
    expect(screen.getByTestId('callback-row-13').closest('tr')!.textContent).toContain('重發');
  });
});

describe('CallbackListPage: payouts’ callbacks', () => {
  it('shows each callback’s kind and a payout’s state by its name; a payout’s callback may be replayed and deleted', async () => {
    const payout = callback({
      id: 21,
      orderType: 'payout',
      orderCode: 'P2405011000000000021',
      notificationId: 'NP2405011000000000021',
      orderState: PAYOUT_STATE.rejected,
    });
    server.answers.set('/v1.0/orderCallBack/getList', pageOf([SUCCEEDED, payout]));
    renderAt('/system/orderCallback', 'admin');
    await screen.findByTestId('callback-row-21');
    expect(screen.getByTestId('callback-type-21').textContent).toBe('Payout');
    expect(screen.getByTestId('callback-type-11').textContent).toBe('Collection');
    // Payout state 6 is 'rejected', not the collection order state 6 ('paid, notifying').
    const row = screen.getByTestId('callback-row-21').closest('tr')!;
    expect(row.textContent).toContain('Rejected');
    expect(row.textContent).not.toContain('Paid, notifying');
    expect(actionIds(21)).toEqual(['callback-attempts-21', 'callback-replay-21', 'callback-delete-21']);
  });

  it('filters by kind', async () => {
    renderAt('/system/orderCallback', 'admin');
    const user = userEvent.setup({ delay: null });
    await screen.findByTestId('callback-row-11');
    fireEvent.mouseDown(within(screen.getByTestId('list-filters')).getAllByRole('combobox')[2]!);
    await user.click(await screen.findByTitle('Payout'));
    await chosen('Payout');
    const before = listCalls().length;
    await user.click(screen.getByTestId('list-search'));
    await waitFor(() => expect(listCalls().length).toBeGreaterThan(before));
    expect(lastListUrl().searchParams.get('orderType')).toBe('payout');
  });

  it('names the kinds in Simplified and Traditional Chinese', async () => {
    server.answers.set(
      '/v1.0/orderCallBack/getList',
      pageOf([callback({ id: 21, orderType: 'payout', orderState: PAYOUT_STATE.completed })]),
    );
    await changeLanguage('zh-CN');
    const first = renderAt('/system/orderCallback', 'admin');
    expect((await screen.findByTestId('callback-type-21')).textContent).toBe('代付');
    expect(screen.getByTestId('callback-row-21').closest('tr')!.textContent).toContain('已完成');
    first.unmount();
    await changeLanguage('zh-TW');
    renderAt('/system/orderCallback', 'admin');
    expect((await screen.findByTestId('callback-type-21')).textContent).toBe('代付');
  });
});

describe('CallbackListPage: row actions by role', () => {
  it('admin replays a paid order’s callback after confirming: the id is posted, the new callback named, the list reloaded', async () => {
    server.answers.set('/v1.0/orderCallBack/replay', ok({ callbackId: 14, orderCode: 'C2405011000001' }));
    renderAt('/system/orderCallback', 'admin');
    const user = userEvent.setup({ delay: null });
    await screen.findByTestId('callback-row-11');
    const before = listCalls().length;
    await user.click(screen.getByTestId('callback-replay-11'));
    expect(await screen.findByText(/Send the notification of order C2405011000001/)).toBeTruthy();
    expect(server.sent('/v1.0/orderCallBack/replay')).toHaveLength(0);
    await confirmPopup(user);
    expect(await screen.findByText('Replayed: new callback #14')).toBeTruthy();
    expect(server.sent('/v1.0/orderCallBack/replay')[0]?.body).toEqual({ id: 11 });
    await waitFor(() => expect(listCalls().length).toBeGreaterThan(before));
  });

  it('offers what the server accepts: replay for paid, unlocked orders; delete for callbacks not being delivered', async () => {
    server.answers.set(
      '/v1.0/orderCallBack/getList',
      pageOf([SUCCEEDED, PENDING, REVERSED, callback({ id: 14, orderCode: 'C2405011000004', orderLocked: true })]),
    );
    renderAt('/system/orderCallback', 'superAdmin');
    await screen.findByTestId('callback-row-14');
    expect(actionIds(11)).toEqual(['callback-attempts-11', 'callback-replay-11', 'callback-delete-11']);
    expect(actionIds(12)).toEqual(['callback-attempts-12', 'callback-replay-12']);
    expect(actionIds(13)).toEqual(['callback-attempts-13', 'callback-delete-13']);
    expect(actionIds(14)).toEqual(['callback-attempts-14', 'callback-delete-14']);
  });

  it('deletes a settled callback after confirming, and the list drops it', async () => {
    renderAt('/system/orderCallback', 'admin');
    const user = userEvent.setup({ delay: null });
    await screen.findByTestId('callback-row-12');
    server.answers.set('/v1.0/orderCallBack/delete', ok({ count: 1 }));
    server.answers.set('/v1.0/orderCallBack/getList', pageOf([PENDING, REVERSED]));
    await user.click(screen.getByTestId('callback-delete-11'));
    await confirmPopup(user);
    expect(await screen.findByText('1 callback(s) deleted')).toBeTruthy();
    expect(server.sent('/v1.0/orderCallBack/delete')[0]?.body).toEqual({ ids: [11] });
    await waitFor(() => expect(screen.queryByTestId('callback-row-11')).toBeNull());
  });

  it('a refusal without a reason shows its code’s text in the reader’s language', async () => {
    server.answers.set('/v1.0/orderCallBack/replay', { code: 404, msg: 'no such callback', data: null });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderAt('/system/orderCallback', 'admin');
    const user = userEvent.setup({ delay: null });
    await screen.findByTestId('callback-row-11');
    await user.click(screen.getByTestId('callback-replay-11'));
    await confirmPopup(user);
    expect(await screen.findByText('not found')).toBeTruthy();
    expect(screen.queryByText('no such callback')).toBeNull();
  });

  it('customer service and the read-only route (technicalMaintenance) only read: attempts, no replay or delete', async () => {
    const cs = renderAt('/system/orderCallback', 'customerService');
    await screen.findByTestId('callback-row-11');
    expect(actionIds(11)).toEqual(['callback-attempts-11']);
    expect(actionIds(12)).toEqual(['callback-attempts-12']);
    cs.unmount();
    renderAt('/system/orderCallback/readonly', 'technicalMaintenance');
    await screen.findByTestId('callback-row-11');
    expect(actionIds(11)).toEqual(['callback-attempts-11']);
  });
});

describe('CallbackListPage: the attempts drawer', () => {
  it('lists the callback’s attempts oldest first; a row expands to the request fields, the raw body and the answer', async () => {
    server.answers.set(
      '/v1.0/orderCallBack/getDetailList',
      pageOf([
        attempt({
          id: 102,
          attemptNo: 2,
          responseStatus: 200,
          responseBody: ' success\n',
          error: null,
          succeeded: true,
          durationMs: 12,
          createdAt: '2024-05-01T10:00:20.000Z',
        }),
        attempt({}),
      ]),
    );
    renderAt('/system/orderCallback/readonly', 'technicalMaintenance');
    const user = userEvent.setup({ delay: null });
    await screen.findByTestId('callback-row-11');
    await user.click(screen.getByTestId('callback-attempts-11'));
    const drawer = await screen.findByTestId('callback-attempts');
    expect(within(drawer).getByText('Attempts of callback #11')).toBeTruthy();
    expect(within(drawer).getByText('NC2405011000001')).toBeTruthy();
    await within(drawer).findByTestId('callback-attempt-1');
    expect(server.sent('/v1.0/orderCallBack/getDetailList')[0]?.url).toContain('callbackId=11');
    const rows = within(drawer)
      .getAllByTestId(/^callback-attempt-\d$/)
      .map((r) => r.getAttribute('data-testid'));
    expect(rows).toEqual(['callback-attempt-1', 'callback-attempt-2']);
    expect(within(drawer).getByTestId('callback-attempt-1').textContent).toContain('HTTP 500');
    expect(within(drawer).getByTestId('callback-attempt-1').textContent).toContain('41 ms');

    await user.click(within(within(drawer).getByTestId('callback-attempt-1')).getByRole('button'));
    const request = await within(drawer).findByTestId('attempt-1-request');
    expect(request.textContent).toBe('amount=10000\nmchId=10001\norderCode=C2405011000001\nsign=AB12');
    expect(within(drawer).getByTestId('attempt-1-response').textContent).toBe('down');
    expect(within(drawer).getByTestId('attempt-1-status').textContent).toBe('500');
    expect(within(drawer).getByTestId('attempt-1-error').textContent).toBe('HTTP 500');
    await user.click(within(within(drawer).getByTestId('attempt-1-request-view')).getByText('Raw'));
    expect(within(drawer).getByTestId('attempt-1-request').textContent).toBe(
      'amount=10000&mchId=10001&orderCode=C2405011000001&sign=AB12',
    );
  });

  it('a callback without attempts says so', async () => {
    server.answers.set('/v1.0/orderCallBack/getDetailList', pageOf([]));
    renderAt('/system/orderCallback', 'admin');
    const user = userEvent.setup({ delay: null });
    await screen.findByTestId('callback-row-13');
    await user.click(screen.getByTestId('callback-attempts-13'));
    expect(await screen.findByText('No attempt yet: the first one shows here once it is made')).toBeTruthy();
  });
});

describe('CallbackListPage: live updates', () => {
  beforeEach(() => {
    vi.stubGlobal('WebSocket', LiveSocket);
    setToken('session-token');
  });

  it('subscribes to the callbacks topic and refetches once per burst of events', async () => {
    renderAt('/system/orderCallback', 'admin');
    await screen.findByTestId('callback-row-11');
    const socket = LiveSocket.last!;
    act(() => socket.open());
    expect(socket.subscribed()).toContain('callbacks');
    // The (re)connection catches up once.
    await waitFor(() => expect(listCalls().length).toBe(2));

    server.answers.set('/v1.0/orderCallBack/getList', pageOf([callback({ id: 15, orderCode: 'C2405011000015' })]));
    act(() => {
      socket.push('callbacks', { callbackId: 1, orderCode: 'C1' });
      socket.push('callbacks', { callbackId: 1, orderCode: 'C1' });
      socket.push('callbacks', { callbackId: 1, orderCode: 'C1' });
    });
    expect(await screen.findByTestId('callback-row-15')).toBeTruthy();
    await new Promise((r) => setTimeout(r, 700));
    expect(listCalls().length).toBe(3);
  });
});
