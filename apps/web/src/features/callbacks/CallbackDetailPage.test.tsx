import type { CallbackAttemptRow, Role } from '@paydesk/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { setToken } from '../../shared/api/session-storage';
import { LiveSocket } from '../../test/liveSocket.js';
import { ok, pageOf, renderPage, stubServer, testUser } from '../../test/renderPage';
import { chosen } from '../../test/select';
import CallbackDetailPage from './CallbackDetailPage';

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
  requestBody: 'amount=10000&extra=%7B%22shop%22%3A%22north%22%7D&orderCode=C2405011000001&sign=AB12',
  responseStatus: 500,
  responseBody: 'down',
  error: 'HTTP 500',
  succeeded: false,
  durationMs: 41,
  createdAt: '2024-05-01T10:00:00.000Z',
  ...over,
});
const FAILED = attempt({});
const DELIVERED = attempt({
  id: 102,
  attemptNo: 2,
  responseStatus: 200,
  responseBody: ' success\n',
  error: null,
  succeeded: true,
  durationMs: 12,
});
const NO_ANSWER = attempt({
  id: 103,
  callbackId: 12,
  orderCode: 'C2405011000002',
  trigger: 'replay',
  responseStatus: null,
  responseBody: null,
  error: 'no answer within 10 s',
  durationMs: 10_004,
});

vi.setConfig({ testTimeout: 30_000 });
let server: ReturnType<typeof stubServer>;

beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(() => {
  server = stubServer({
    '/v1.0/orderCallBack/getDetailList': pageOf([DELIVERED, FAILED, NO_ANSWER]),
    '/v1.0/view/getList': ok([]),
  });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await changeLanguage('en-US');
});

const renderAt = (path: string, access: Role) => renderPage(<CallbackDetailPage />, path, testUser({ access }));
const calls = () => server.sent('/v1.0/orderCallBack/getDetailList');
const rowOf = (id: number) => screen.getByTestId(`attempt-view-${id}`).closest('tr')!;

describe('CallbackDetailPage', () => {
  it('lists every attempt with its number, method, status, success, duration and error', async () => {
    renderAt('/system/orderCallbackDetail', 'customerService');
    await screen.findByTestId('attempt-view-101');
    const failed = rowOf(101).textContent!;
    expect(failed).toContain('C2405011000001');
    expect(failed).toContain('POST');
    expect(failed).toContain('500');
    expect(failed).toContain('41 ms');
    expect(failed).toContain('HTTP 500');
    expect(screen.getByTestId('attempt-succeeded-101').textContent).toBe('No');
    expect(screen.getByTestId('attempt-succeeded-102').textContent).toBe('Yes');
    expect(rowOf(103).textContent).toContain('no answer');
    expect(rowOf(103).textContent).toContain('Replay');
    expect(screen.getByTestId('export-csv').getAttribute('href')).toBe('/v1.0/orderCallBack/exportDetail');
  });

  it('sends the spec’s filters (orderCode, merchantOrderCode, httpMethod, times) and the CSV link carries them', async () => {
    renderAt('/system/orderCallbackDetail', 'admin');
    const user = userEvent.setup({ delay: null });
    await screen.findByTestId('attempt-view-101');
    await user.type(screen.getByTestId('filter-orderCode'), ' C2405011000001 ');
    await user.type(screen.getByTestId('filter-merchantOrderCode'), 'M-1');
    await user.type(screen.getByTestId('filter-times'), '2');
    fireEvent.mouseDown(within(screen.getByTestId('list-filters')).getAllByRole('combobox')[0]!);
    await user.click(await screen.findByTitle('POST'));
    await chosen('POST');
    const before = calls().length;
    await user.click(screen.getByTestId('list-search'));
    await waitFor(() => expect(calls().length).toBeGreaterThan(before));
    const url = new URL(calls().at(-1)!.url, 'http://x');
    expect(url.searchParams.get('orderCode')).toBe('C2405011000001');
    expect(url.searchParams.get('merchantOrderCode')).toBe('M-1');
    expect(url.searchParams.get('times')).toBe('2');
    expect(url.searchParams.get('httpMethod')).toBe('POST');
    // The detail list has no sorting in the contract: nothing is sent that it would refuse.
    expect(url.searchParams.has('sortBy')).toBe(false);
    const href = new URL(screen.getByTestId('export-csv').getAttribute('href')!, 'http://x');
    expect(href.pathname).toBe('/v1.0/orderCallBack/exportDetail');
    expect(href.searchParams.get('orderCode')).toBe('C2405011000001');
    expect(href.searchParams.get('times')).toBe('2');
    expect(href.searchParams.has('pageIndex')).toBe(false);
  });

  it('a typed attempt number that is not a number is refused in the form and not sent', async () => {
    renderAt('/system/orderCallbackDetail', 'admin');
    const user = userEvent.setup({ delay: null });
    await screen.findByTestId('attempt-view-101');
    const before = calls().length;
    await user.type(screen.getByTestId('filter-times'), 'two');
    await user.click(screen.getByTestId('list-search'));
    expect(await screen.findByText('Digits only')).toBeTruthy();
    expect(calls().length).toBe(before);
  });

  it('View opens the exchange: decoded request fields (or the raw body), the status and the answer, monospace', async () => {
    renderAt('/system/orderCallbackDetail/readonly', 'technicalMaintenance');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('attempt-view-101'));
    expect(await screen.findByText('Attempt 1 of C2405011000001')).toBeTruthy();
    const request = screen.getByTestId('attempt-exchange-request');
    expect(request.tagName).toBe('PRE');
    expect(request.textContent).toBe('amount=10000\nextra={"shop":"north"}\norderCode=C2405011000001\nsign=AB12');
    expect(screen.getByTestId('attempt-exchange-response').textContent).toBe('down');
    expect(screen.getByTestId('attempt-exchange-status').textContent).toBe('500');
    expect(screen.getByTestId('attempt-exchange-error').textContent).toBe('HTTP 500');
    expect(screen.getByTestId('attempt-exchange-succeeded').textContent).toBe('No');
    await user.click(within(screen.getByTestId('attempt-exchange-request-view')).getByText('Raw'));
    expect(screen.getByTestId('attempt-exchange-request').textContent).toBe(FAILED.requestBody);
  });

  it('an attempt that got no answer says so instead of an empty body', async () => {
    renderAt('/system/orderCallbackDetail', 'admin');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('attempt-view-103'));
    expect((await screen.findByTestId('attempt-exchange-response')).textContent).toBe('No answer received');
    expect(screen.getByTestId('attempt-exchange-status').textContent).toBe('no answer');
    expect(screen.getByTestId('attempt-exchange-error').textContent).toBe('no answer within 10 s');
  });

  it('speaks Simplified Chinese', async () => {
    await changeLanguage('zh-CN');
    renderAt('/system/orderCallbackDetail', 'admin');
    await screen.findByTestId('attempt-view-101');
    expect(screen.getByTestId('attempt-succeeded-101').textContent).toBe('否');
    expect(rowOf(101).textContent).toContain('41 毫秒');
    expect(screen.getByRole('columnheader', { name: '第几次' })).toBeTruthy();
  });

  it('refetches when the server publishes on the callbacks topic', async () => {
    vi.stubGlobal('WebSocket', LiveSocket);
    setToken('session-token');
    renderAt('/system/orderCallbackDetail', 'admin');
    await screen.findByTestId('attempt-view-101');
    const socket = LiveSocket.last!;
    act(() => socket.open());
    expect(socket.subscribed()).toContain('callbacks');
    await waitFor(() => expect(calls().length).toBe(2));
    server.answers.set(
      '/v1.0/orderCallBack/getDetailList',
      pageOf([attempt({ id: 104, attemptNo: 3, succeeded: true, responseStatus: 200 }), DELIVERED, FAILED]),
    );
    act(() => socket.push('callbacks', { callbackId: 1, orderCode: 'C1' }));
    expect(await screen.findByTestId('attempt-view-104')).toBeTruthy();
  });
});
