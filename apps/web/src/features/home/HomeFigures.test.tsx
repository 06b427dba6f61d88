import type { Role, SimpleStatisticsAnswer, StatisticsAnswer } from '@paydesk/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { ok, renderPage, stubServer, testUser } from '../../test/renderPage';
import { figures, MERCHANT_MONEY, type Money, STAFF_MONEY } from '../../test/statisticsFigures';
import { HomeFigures } from './HomeFigures';

/** ECharts cannot draw in happy-dom: `init` hands out recording charts, one per div. */
const charts = vi.hoisted(() => {
  type Recorded = { element: HTMLElement; setOption: ReturnType<typeof vi.fn> };
  const made: Recorded[] = [];
  return { made, of: (testId: string) => made.filter((c) => c.element.dataset.testid === testId).at(-1) };
});
vi.mock('echarts/core', async (importOriginal) => {
  const actual = await importOriginal<typeof import('echarts/core')>();
  return {
    ...actual,
    init: vi.fn((element: HTMLElement) => {
      const chart = { element, setOption: vi.fn(), resize: vi.fn(), dispose: vi.fn() };
      charts.made.push(chart);
      return chart;
    }),
  };
});

const busy = (money: Money) =>
  figures(money, {
    createdCount: 1234,
    createdAmount: 1_234_500,
    successCount: 3,
    successAmount: 1_000_000,
    successRate: 7500,
  });

const simple = (money: Money): SimpleStatisticsAnswer => ({
  shown: true,
  todayDate: '2026-11-27',
  collection: { today: busy(money), yesterday: figures(money), last7Days: busy(money) },
  payout: { today: figures(money), yesterday: figures(money), last7Days: busy(money) },
});

const DAYS = ['2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27'];
const trend = (money: Money, orderType: 'collection' | 'payout' = 'collection'): StatisticsAnswer => ({
  orderType,
  timeFormat: 'day',
  startTime: '2026-11-21 00:00:00',
  endTime: '2026-11-27 23:59:59',
  totals: busy(money),
  series: DAYS.map((time, i) => ({ time, ...figures(money, { createdAmount: i * 100, successAmount: i * 50 }) })),
  byProduct: [],
  groupedBy: 'merchant',
  byParty: [],
});

const SIMPLE = '/v1.0/order/simplestatisticsV2';
const TREND = '/v1.0/order/statisticsV2';
let server: ReturnType<typeof stubServer>;

beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(() => {
  charts.made.length = 0;
  server = stubServer();
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await changeLanguage('en-US');
});

const renderFigures = (access: Role) => renderPage(<HomeFigures />, '/home', testUser({ access }));
const text = (testId: string) => screen.getByTestId(testId).textContent;
const lastUrl = (path: string) => new URL(server.sent(path).at(-1)!.url, 'http://x');

describe('HomeFigures', { timeout: 60_000 }, () => {
  it('staff: today, yesterday and 7 days of both directions, formatted, with fee, commission and revenue; links; no dates sent', async () => {
    server.answers.set(SIMPLE, ok(simple(STAFF_MONEY)));
    server.answers.set(TREND, ok(trend(STAFF_MONEY)));
    renderFigures('admin');

    expect((await screen.findByTestId('home-figures-collection-today-created')).textContent).toBe('1,234 / 12,345.00');
    expect(text('home-figures-collection-today-success')).toBe('3 / 10,000.00');
    expect(text('home-figures-collection-today-successRate')).toBe('75.00%');
    expect(text('home-figures-collection-yesterday-successRate')).toBe('—');
    expect(text('home-figures-collection-today-fee')).toBe('3.00');
    expect(text('home-figures-collection-today-commission')).toBe('1.00');
    expect(text('home-figures-collection-today-platformRevenue')).toBe('2.00');
    expect(text('home-figures-payout-last7Days-created')).toBe('1,234 / 12,345.00');
    expect(text('home-figures-collection-last7Days')).toContain('Last 7 days');
    expect(text('home-figures-payout')).toContain('Payouts');

    expect(screen.getByTestId('home-figures-collection-link').getAttribute('href')).toBe('/order/statistics');
    expect(screen.getByTestId('home-figures-payout-link').getAttribute('href')).toBe('/payProxyOrder/statistics');
    // The server's own today: no dates asked.
    expect([...lastUrl(SIMPLE).searchParams.keys()]).toEqual([]);
  });

  it('the trend: 7 days ending with the simple call’s today, by day, created vs successful; payouts on the toggle', async () => {
    server.answers.set(SIMPLE, ok(simple(STAFF_MONEY)));
    server.answers.set(TREND, ok(trend(STAFF_MONEY)));
    renderFigures('customerService');

    await waitFor(() => expect(charts.of('home-trend-chart')?.setOption).toHaveBeenCalled());
    const url = lastUrl(TREND);
    expect(url.searchParams.get('startTime')).toBe('2026-11-21 00:00:00');
    expect(url.searchParams.get('endTime')).toBe('2026-11-27 23:59:59');
    expect(url.searchParams.get('timeFormat')).toBe('day');
    expect(url.searchParams.get('orderType')).toBe('collection');
    const option = charts.of('home-trend-chart')!.setOption.mock.calls.at(-1)![0] as {
      xAxis: { data: string[] };
      series: Array<{ name: string; data: number[] }>;
    };
    expect(option.xAxis.data).toHaveLength(7);
    expect(option.series.map((s) => s.name)).toEqual(['Created amount', 'Successful amount']);
    expect(option.series[0]!.data).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(option.series[1]!.data).toEqual([0, 0.5, 1, 1.5, 2, 2.5, 3]);
    // Customer service's statistics pages are their own.
    expect(screen.getByTestId('home-figures-collection-link').getAttribute('href')).toBe(
      '/order/statistics/customerService',
    );

    server.answers.set(TREND, ok(trend(STAFF_MONEY, 'payout')));
    fireEvent.click(within(screen.getByTestId('home-trend-kind')).getByText('Payouts'));
    await waitFor(() => expect(lastUrl(TREND).searchParams.get('orderType')).toBe('payout'));
  });

  it('a merchant: its fee, no commission nor revenue; its own statistics pages', async () => {
    server.answers.set(SIMPLE, ok(simple(MERCHANT_MONEY)));
    server.answers.set(TREND, ok(trend(MERCHANT_MONEY)));
    renderFigures('merchant');

    expect((await screen.findByTestId('home-figures-collection-today-fee')).textContent).toBe('3.00');
    expect(screen.queryByTestId('home-figures-collection-today-commission')).toBeNull();
    expect(screen.queryByTestId('home-figures-collection-today-platformRevenue')).toBeNull();
    expect(screen.queryByTestId('home-figures-payout-last7Days-commission')).toBeNull();
    expect(screen.getByTestId('home-figures-collection-link').getAttribute('href')).toBe('/order/statistics/merchant');
    expect(screen.getByTestId('home-figures-payout-link').getAttribute('href')).toBe(
      '/payProxyOrder/statistics/merchant',
    );
  });

  it('shows nothing while the figures are not shown to the role (ShowUserStatisticInfo off), and asks no trend', async () => {
    server.answers.set(SIMPLE, ok({ shown: false, todayDate: '2026-11-27', collection: null, payout: null }));
    const { container } = renderFigures('supplier');
    await waitFor(() => expect(server.sent(SIMPLE)).toHaveLength(1));
    await waitFor(() => expect(container.querySelector('.ant-skeleton')).toBeNull());
    expect(screen.queryByTestId('home-figures')).toBeNull();
    expect(screen.queryByTestId('home-figures-error')).toBeNull();
    expect(container.textContent).toBe('');
    expect(server.sent(TREND)).toHaveLength(0);
  });

  it('technical support reads no statistics: no call, nothing shown', async () => {
    const { container } = renderFigures('technicalSupport');
    await new Promise((r) => setTimeout(r, 50));
    expect(server.sent(SIMPLE)).toHaveLength(0);
    expect(server.sent(TREND)).toHaveLength(0);
    expect(container.textContent).toBe('');
  });

  it('a failed call shows the error in the reader’s language', async () => {
    await changeLanguage('zh-CN');
    server.answers.set(SIMPLE, { code: 500, msg: 'boom', data: null });
    renderFigures('admin');
    expect((await screen.findByTestId('home-figures-error')).textContent).toContain('加载失败');
    expect(server.sent(TREND)).toHaveLength(0);
  });

  it('live: an orders or payouts event refetches the figures and the trend, once per burst', async () => {
    const sockets: Array<{ onopen: (() => void) | null; onmessage: ((ev: { data: unknown }) => void) | null }> = [];
    vi.stubGlobal(
      'WebSocket',
      class {
        readyState = 0;
        onopen = null;
        onclose = null;
        onerror = null;
        onmessage = null;
        constructor() {
          sockets.push(this);
        }
        send() {}
        close() {}
      },
    );
    server.answers.set(SIMPLE, ok(simple(STAFF_MONEY)));
    server.answers.set(TREND, ok(trend(STAFF_MONEY)));
    renderFigures('admin');
    await waitFor(() => expect(server.sent(TREND)).toHaveLength(1));
    expect(server.sent(SIMPLE)).toHaveLength(1);
    const socket = sockets.at(-1)!;
    socket.onopen?.();
    const event = (topic: string) => socket.onmessage?.({ data: JSON.stringify({ type: 'event', topic, data: {} }) });
    event('orders');
    event('payouts');
    event('orders');
    await waitFor(() => expect(server.sent(SIMPLE)).toHaveLength(2), { timeout: 5000 });
    await waitFor(() => expect(server.sent(TREND)).toHaveLength(2));
    await new Promise((r) => setTimeout(r, 2500));
    expect(server.sent(SIMPLE)).toHaveLength(2);
  });

  it('texts in Traditional Chinese', async () => {
    await changeLanguage('zh-TW');
    server.answers.set(SIMPLE, ok(simple(STAFF_MONEY)));
    server.answers.set(TREND, ok(trend(STAFF_MONEY)));
    renderFigures('admin');
    expect((await screen.findByTestId('home-figures-collection-today')).textContent).toContain('今日');
    expect(text('home-figures-collection-today')).toContain('碼商佣金');
    expect(text('home-trend')).toContain('近 7 天趨勢');
  });
});
