import { ORDER_STATE, type Role } from '@paydesk/contract';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
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

describe('the same notifier for claimable payouts (fake timers)', () => {
  type Claimable = { id: number; orderCode: string };
  let latest: Claimable | null;
  let alert: ReturnType<typeof vi.fn<(p: Claimable) => void>>;
  let notifier: Notifier<Claimable>;
  const alerted = () => alert.mock.calls.map(([p]) => p.orderCode);

  beforeEach(() => {
    vi.useFakeTimers();
    latest = null;
    alert = vi.fn();
    notifier = new Notifier<Claimable>({
      fetchLast: async () => latest,
      alert,
      isNew: (p, known) => known === null || p.id > known.id,
      isPending: () => true,
    });
  });
  afterEach(() => {
    notifier.stop();
    vi.useRealTimers();
  });

  it('repeats while the payout is still claimable, stops once it is taken, and an older one back is no news', async () => {
    notifier.start();
    await vi.advanceTimersByTimeAsync(0); // nothing to claim
    latest = { id: 7, orderCode: 'P7' };
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(alerted()).toEqual(['P7']);
    await vi.advanceTimersByTimeAsync(ALERT_MS);
    expect(alerted()).toEqual(['P7', 'P7']);
    // Another supplier claimed P7: the newest claimable is an older one, known before; silence.
    latest = { id: 5, orderCode: 'P5' };
    await vi.advanceTimersByTimeAsync(ALERT_MS); // the poll at 20 s
    const count = alerted().length;
    await vi.advanceTimersByTimeAsync(4 * ALERT_MS);
    expect(alerted()).toHaveLength(count);
    expect(alerted().every((code) => code === 'P7')).toBe(true);
    latest = { id: 9, orderCode: 'P9' };
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(alerted().at(-1)).toBe('P9');
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
    server = stubServer({
      '/v1.0/order/getLastOrder': ok(order('C1')),
      '/v1.0/payoutOrderClaim/lastClaimable': ok(null),
    });
    sound = vi.fn();
    setToken('session-token');
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  /** Where the console is (the toast's button navigates). */
  function Where() {
    const { pathname, search } = useLocation();
    return <span data-testid="location">{pathname + search}</span>;
  }
  const renderAs = (access: Role) =>
    renderPage(
      <>
        <NewOrderNotifier playSound={sound} />
        <Where />
      </>,
      '/home',
      testUser({ access }),
    );

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

  it('a supplier is alerted to a new payout it can claim, with a button to its claim queue', async () => {
    const claimable = (id: number, orderCode: string) => ({
      id,
      orderCode,
      productId: 2001,
      amount: 150_000,
      createTime: '2024-05-01T10:00:00.000Z',
      state: 0,
    });
    server.answers.set('/v1.0/payoutOrderClaim/lastClaimable', ok(null));
    renderAs('supplier');
    await waitFor(() => expect(server.sent('/v1.0/payoutOrderClaim/lastClaimable')).toHaveLength(1));
    server.answers.set('/v1.0/payoutOrderClaim/lastClaimable', ok(claimable(41, 'P202405011000000041')));
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    expect((await screen.findByTestId('new-payout-toast')).textContent).toBe(
      'Payout P202405011000000041 (1,500.00) can be claimed',
    );
    expect(screen.getByText('Payout to claim')).toBeTruthy();
    // The order notifier saw no new order: only the payout sounded.
    expect(sound).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(ALERT_MS));
    expect(sound).toHaveBeenCalledTimes(2);
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Claim queue' }));
    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe('/payProxyOrder/list/supplier?tab=queue'),
    );
    // Claimed by someone else: no longer answered, no more sound.
    server.answers.set('/v1.0/payoutOrderClaim/lastClaimable', ok(null));
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    const heard = sound.mock.calls.length;
    await act(() => vi.advanceTimersByTimeAsync(3 * ALERT_MS));
    expect(sound).toHaveBeenCalledTimes(heard);
  });

  it('merchants and staff do not poll for claimable payouts', async () => {
    const claims = () => server.sent('/v1.0/payoutOrderClaim/lastClaimable').length;
    const admin = renderAs('admin');
    await waitFor(() => expect(polls()).toBe(1));
    await act(() => vi.advanceTimersByTimeAsync(2 * POLL_MS));
    admin.unmount();
    renderAs('merchant');
    await act(() => vi.advanceTimersByTimeAsync(2 * POLL_MS));
    expect(claims()).toBe(0);
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
