import { ORDER_STATE, type Role } from '@paydesk/contract';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { clearToken, setToken } from '../../shared/api/session-storage';
import { ok, renderPage, stubServer, testUser } from '../../test/renderPage';
import { NewOrderNotifier } from './NewOrderNotifier';
import { ALERT_MS, type LastOrder, NewOrderNotifier as Notifier, POLL_MS } from './notifier';

const order = (orderCode: string, state: number = ORDER_STATE.allocated): LastOrder => ({
  orderCode,
  createTime: '2024-05-01T10:00:00.000Z',
  state,
});

describe('NewOrderNotifier timing (fake timers)', () => {
  let latest: LastOrder | null;
  let fetchLast: ReturnType<typeof vi.fn<() => Promise<LastOrder | null>>>;
  let alert: ReturnType<typeof vi.fn<(o: LastOrder) => void>>;
  let notifier: Notifier;
  const alerted = () => alert.mock.calls.map(([o]) => o.orderCode);

  beforeEach(() => {
    vi.useFakeTimers();
    latest = order('C1');
    fetchLast = vi.fn(async () => latest);
    alert = vi.fn();
    notifier = new Notifier({ fetchLast, alert });
  });
  afterEach(() => {
    notifier.stop();
    vi.useRealTimers();
  });

  it('polls every 10 s; the first answer is remembered without an alert', async () => {
    notifier.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchLast).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(POLL_MS - 1);
    expect(fetchLast).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchLast).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(3 * POLL_MS);
    expect(fetchLast).toHaveBeenCalledTimes(5);
    expect(alert).not.toHaveBeenCalled();
  });

  it('a new order code alerts at once, then every 5 s while it is pending, and stops once it is paid', async () => {
    notifier.start();
    await vi.advanceTimersByTimeAsync(0);
    latest = order('C2');
    await vi.advanceTimersByTimeAsync(POLL_MS); // t = 10 s: the poll sees C2
    expect(alerted()).toEqual(['C2']);
    await vi.advanceTimersByTimeAsync(ALERT_MS - 1);
    expect(alerted()).toEqual(['C2']);
    await vi.advanceTimersByTimeAsync(1); // t = 15 s
    expect(alerted()).toEqual(['C2', 'C2']);
    await vi.advanceTimersByTimeAsync(ALERT_MS); // t = 20 s: the poll still sees it allocated
    expect(alerted()).toEqual(['C2', 'C2', 'C2']);
    latest = order('C2', ORDER_STATE.paidNotifying);
    await vi.advanceTimersByTimeAsync(ALERT_MS); // t = 25 s: repeats with what the 20 s poll saw
    expect(alerted()).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(ALERT_MS); // t = 30 s: the poll sees it paid
    await vi.advanceTimersByTimeAsync(4 * ALERT_MS);
    expect(alerted()).toHaveLength(4);
    expect(alert.mock.calls.at(-1)![0].state).toBe(ORDER_STATE.allocated);
  });

  it('a newer order takes the alert over; an order that is no longer pending alerts once', async () => {
    notifier.start();
    await vi.advanceTimersByTimeAsync(0);
    latest = order('C2');
    await vi.advanceTimersByTimeAsync(POLL_MS); // 10 s: C2
    latest = order('C3', ORDER_STATE.allocationFailed);
    await vi.advanceTimersByTimeAsync(POLL_MS); // 15 s C2 again, 20 s: C3 (not pending)
    expect(alerted()).toEqual(['C2', 'C2', 'C3']);
    await vi.advanceTimersByTimeAsync(6 * ALERT_MS);
    expect(alerted()).toEqual(['C2', 'C2', 'C3']);
  });

  it('a failed poll changes nothing; stop() ends polling and alerts', async () => {
    notifier.start();
    await vi.advanceTimersByTimeAsync(0);
    fetchLast.mockRejectedValueOnce(new Error('network'));
    latest = order('C2');
    await vi.advanceTimersByTimeAsync(POLL_MS); // fails
    expect(alert).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(POLL_MS); // sees C2
    expect(alerted()).toEqual(['C2']);
    notifier.stop();
    const calls = fetchLast.mock.calls.length;
    await vi.advanceTimersByTimeAsync(10 * POLL_MS);
    expect(fetchLast.mock.calls.length).toBe(calls);
    expect(alerted()).toEqual(['C2']);
  });

  it('an answer arriving after stop() is ignored', async () => {
    let answer: (o: LastOrder) => void = () => undefined;
    fetchLast.mockImplementationOnce(async () => latest);
    notifier.start();
    await vi.advanceTimersByTimeAsync(0);
    fetchLast.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    await vi.advanceTimersByTimeAsync(POLL_MS);
    notifier.stop();
    answer(order('C9'));
    await vi.advanceTimersByTimeAsync(ALERT_MS * 3);
    expect(alert).not.toHaveBeenCalled();
  });
});

describe('NewOrderNotifier in the console', { timeout: 20_000 }, () => {
  let server: ReturnType<typeof stubServer>;
  let sound: ReturnType<typeof vi.fn<() => void>>;
  const polls = () => server.sent('/v1.0/order/getLastOrder').length;

  beforeAll(() => {
    setupI18n('en-US');
  });
  beforeEach(() => {
    // Only the intervals are fake: React, antd and Testing Library keep their real timeouts.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    server = stubServer({ '/v1.0/order/getLastOrder': ok(order('C1')) });
    sound = vi.fn();
    setToken('session-token');
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  const renderAs = (access: Role) => renderPage(<NewOrderNotifier playSound={sound} />, '/home', testUser({ access }));

  it('for staff: a new order plays the sound and shows a 5 s toast, again after 5 s; stops when the token goes', async () => {
    renderAs('admin');
    await waitFor(() => expect(polls()).toBe(1));
    server.answers.set('/v1.0/order/getLastOrder', ok(order('C2405011000777')));
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    await waitFor(() => expect(sound).toHaveBeenCalledTimes(1));
    expect((await screen.findByTestId('new-order-toast')).textContent).toBe('Order C2405011000777 (Allocated)');
    expect(screen.getByText('New order')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(ALERT_MS));
    expect(sound).toHaveBeenCalledTimes(2);

    // Logout or a failed user-info load clears the token: no more polls, no more alerts.
    act(() => clearToken());
    const seen = polls();
    await act(() => vi.advanceTimersByTimeAsync(3 * POLL_MS));
    expect(polls()).toBe(seen);
    expect(sound).toHaveBeenCalledTimes(2);
  });

  it('suppliers are alerted too; merchants never poll', async () => {
    const supplier = renderAs('supplier');
    await waitFor(() => expect(polls()).toBe(1));
    supplier.unmount();
    const seen = polls();
    renderAs('merchant');
    await act(() => vi.advanceTimersByTimeAsync(3 * POLL_MS));
    expect(polls()).toBe(seen);
  });
});
