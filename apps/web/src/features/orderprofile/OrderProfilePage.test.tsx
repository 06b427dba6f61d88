import type { OrderProfile, OrderProfileStats } from '@paydesk/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { ok, renderPage, stubServer, testUser } from '../../test/renderPage';
import { chosen } from '../../test/select';
import OrderProfilePage from './OrderProfilePage';

/** ECharts cannot draw in happy-dom: `init` hands out recording charts, one per div. */
const charts = vi.hoisted(() => {
  type Recorded = {
    element: HTMLElement;
    setOption: ReturnType<typeof vi.fn>;
    resize: ReturnType<typeof vi.fn>;
    dispose: ReturnType<typeof vi.fn>;
  };
  const made: Recorded[] = [];
  return {
    made,
    /** The chart drawn on the div with this test id (the latest one made). */
    of: (testId: string) => made.filter((c) => c.element.dataset.testid === testId).at(-1),
  };
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

const stats = (over: Partial<OrderProfileStats> = {}): OrderProfileStats => ({
  created: 0,
  allocated: 0,
  paid: 0,
  allocationFailed: 0,
  timedOut: 0,
  allocateP50Ms: null,
  allocateP90Ms: null,
  allocateP99Ms: null,
  payP50Ms: null,
  payP90Ms: null,
  payP99Ms: null,
  callbackP50Ms: null,
  callbackP90Ms: null,
  callbackP99Ms: null,
  ...over,
});

const nineAm = stats({
  created: 7,
  allocated: 7,
  paid: 5,
  timedOut: 1,
  allocateP50Ms: 2000,
  allocateP90Ms: 6800,
  allocateP99Ms: 7880,
  payP50Ms: 30_000,
  payP90Ms: 46_000,
  payP99Ms: 49_600,
  callbackP50Ms: 250,
  callbackP90Ms: 790,
  callbackP99Ms: 979,
});
const tenAm = stats({
  created: 2,
  allocated: 2,
  paid: 2,
  allocateP50Ms: 1000,
  allocateP90Ms: 1800,
  allocateP99Ms: 1980,
  payP50Ms: 185_000,
  payP90Ms: 190_000,
  payP99Ms: 199_000,
  callbackP50Ms: 400,
  callbackP90Ms: 500,
  callbackP99Ms: 510,
});
const failed = stats({ created: 1, allocationFailed: 1 });

const PROFILE: OrderProfile = {
  startTime: '2024-05-01 00:00:00',
  endTime: '2024-05-07 23:59:59',
  timeZone: 'Asia/Kolkata',
  overall: stats({
    created: 10,
    allocated: 9,
    paid: 7,
    allocationFailed: 1,
    timedOut: 1,
    allocateP50Ms: 2000,
    allocateP90Ms: 6400,
    allocateP99Ms: 7840,
    payP50Ms: 20_000,
    payP90Ms: 44_000,
    payP99Ms: 125_500,
    callbackP50Ms: 350,
    callbackP90Ms: 650,
    callbackP99Ms: 965,
  }),
  byHour: Array.from({ length: 24 }, (_, hour) => ({
    hour,
    ...(hour === 9 ? { ...nineAm, created: 8, allocationFailed: 1 } : hour === 10 ? tenAm : stats()),
  })),
  byProduct: [
    {
      productId: 1001,
      productName: 'UPI collection',
      ...stats({ created: 9, allocated: 9, paid: 7, timedOut: 1, allocateP50Ms: 2000 }),
    },
    { productId: 1045, productName: 'Collection (API amount in 1/10000)', ...failed },
  ],
  rows: [
    { productId: 1001, productName: 'UPI collection', hour: 9, ...nineAm },
    { productId: 1001, productName: 'UPI collection', hour: 10, ...tenAm },
    { productId: 1045, productName: 'Collection (API amount in 1/10000)', hour: 9, ...failed },
  ],
};
const EMPTY: OrderProfile = {
  ...PROFILE,
  overall: stats(),
  byHour: PROFILE.byHour.map(({ hour }) => ({ hour, ...stats() })),
  byProduct: [],
  rows: [],
};

const PATH = '/v1.0/order/profile';
let server: ReturnType<typeof stubServer>;

beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(() => {
  charts.made.length = 0;
  server = stubServer({
    [PATH]: ok(PROFILE),
    '/v1.0/merchant/getList': ok({
      list: [{ id: 3, name: 'Merchant One', merchantNo: '10001' }],
      total: 1,
      pageIndex: 1,
      pageSize: 500,
    }),
  });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await changeLanguage('en-US');
});

const render = () => renderPage(<OrderProfilePage />, '/order/profile', testUser({ access: 'superAdmin' }));
const lastProfileUrl = () => new URL(server.sent(PATH).at(-1)!.url, 'http://x');
type Series = { type: string; name: string; data: unknown[] };
const seriesOf = (testId: string) => {
  const chart = charts.of(testId)!;
  return (chart.setOption.mock.calls.at(-1)![0] as { series: Series[] }).series;
};

describe('OrderProfilePage', () => {
  it('shows the counts and latencies, the product and hour rows, and gives ECharts the data', async () => {
    render();
    expect((await screen.findByTestId('profile-count-created')).textContent).toContain('10');
    expect(screen.getByTestId('profile-count-paid').textContent).toContain('7');
    expect(screen.getByTestId('profile-count-allocationFailed').textContent).toContain('1');
    // Latencies as people read them: 2 s, 44 s, 2 min 6 s, 350 ms.
    expect(screen.getByTestId('profile-latency-allocate-p50').textContent).toContain('2 s');
    expect(screen.getByTestId('profile-latency-pay-p90').textContent).toContain('44 s');
    expect(screen.getByTestId('profile-latency-pay-p99').textContent).toContain('2 min 6 s');
    expect(screen.getByTestId('profile-latency-callback-p50').textContent).toContain('350 ms');
    expect(screen.getByTestId('profile-window').textContent).toContain(
      '2024-05-01 00:00:00 to 2024-05-07 23:59:59 (Asia/Kolkata',
    );

    const table = screen.getByTestId('profile-table');
    const rows = within(table)
      .getAllByRole('row')
      .filter((r) => r.querySelector('td'));
    expect(rows).toHaveLength(3);
    expect(
      within(rows[0]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual([
      'UPI collection',
      '9',
      '7',
      '7',
      '5',
      '0',
      '1',
      '2 s',
      '6.8 s',
      '7.9 s',
      '30 s',
      '46 s',
      '49.6 s',
      '250 ms',
      '790 ms',
      '979 ms',
    ]);
    // No sample: a dash, not 0.
    expect(within(rows[2]!).getAllByRole('cell')[7]!.textContent).toBe('—');

    // Two charts, each given the answer's numbers.
    await waitFor(() => expect(charts.of('profile-chart-hourly')?.setOption).toHaveBeenCalled());
    const hourly = seriesOf('profile-chart-hourly');
    expect(hourly.map((s) => [s.type, s.name])).toEqual([
      ['line', 'P50'],
      ['line', 'P90'],
      ['line', 'P99'],
    ]);
    expect(hourly[0]!.data).toHaveLength(24);
    expect(hourly[0]!.data[9]).toBe(2000);
    expect(hourly[1]!.data[10]).toBe(1800);
    expect(hourly[2]!.data[9]).toBe(7880);
    // An hour without orders is a gap in the line.
    expect(hourly[0]!.data[3]).toBe('-');
    const products = seriesOf('profile-chart-products');
    expect(products.map((s) => s.name)).toEqual(['Created', 'Allocated', 'Paid', 'Allocation failed', 'Timed out']);
    expect(products[0]!.data).toEqual([9, 1]);
    expect(products[2]!.data).toEqual([7, 0]);
    expect(products[3]!.data).toEqual([0, 1]);
    const option = charts.of('profile-chart-products')!.setOption.mock.calls.at(-1)![0] as {
      xAxis: { data: string[] };
    };
    expect(option.xAxis.data[0]).toBe('UPI collection');

    // The hourly chart shows the chosen latency.
    fireEvent.click(within(screen.getByTestId('profile-metric')).getByText('Time to pay'));
    await waitFor(() => expect(seriesOf('profile-chart-hourly')[0]!.data[10]).toBe(185_000));
    expect(seriesOf('profile-chart-hourly')[2]!.data[9]).toBe(49_600);
    expect(screen.getByTestId('profile-export').getAttribute('href')).toBe('/v1.0/order/profile/export');
  });

  it('gives options the real ECharts draws (server-side SVG)', async () => {
    render();
    await waitFor(() => expect(charts.of('profile-chart-products')?.setOption).toHaveBeenCalled());
    const real = await vi.importActual<typeof import('echarts/core')>('echarts/core');
    const { SVGRenderer } = await import('echarts/renderers');
    real.use([SVGRenderer]);
    for (const [testId, expected] of [
      ['profile-chart-hourly', ['P50', 'P99', 'Hour (Asia/Kolkata)']],
      ['profile-chart-products', ['UPI collection', 'Allocation failed']],
    ] as const) {
      const chart = real.init(null, null, { renderer: 'svg', ssr: true, width: 800, height: 320 });
      chart.setOption(charts.of(testId)!.setOption.mock.calls.at(-1)![0]);
      const svg = chart.renderToSVGString();
      for (const text of expected) expect(svg, testId).toContain(text);
      chart.dispose();
    }
  });

  it('sends the filters and the CSV link carries them', async () => {
    render();
    const user = userEvent.setup({ delay: null });
    await screen.findByTestId('profile-count-created');
    const [from, to] = screen.getAllByTestId('filter-time');
    await user.click(from!);
    await user.type(from!, '2024-05-01 00:00:00{Enter}');
    await user.type(to!, '2024-05-02 23:59:59{Enter}');
    await user.keyboard('{Escape}');
    const [product, merchant] = within(screen.getByTestId('profile-filters')).getAllByRole('combobox').slice(-2);
    fireEvent.mouseDown(product!);
    await user.click(await screen.findByTitle('UPI collection'));
    await chosen('UPI collection');
    fireEvent.mouseDown(merchant!);
    await user.click(await screen.findByTitle('Merchant One (10001)'));
    await chosen('Merchant One (10001)');
    const before = server.sent(PATH).length;
    await user.click(screen.getByTestId('profile-search'));
    await waitFor(() => expect(server.sent(PATH).length).toBeGreaterThan(before));
    const url = lastProfileUrl();
    expect(url.searchParams.get('startTime')).toBe('2024-05-01 00:00:00');
    expect(url.searchParams.get('endTime')).toBe('2024-05-02 23:59:59');
    expect(url.searchParams.get('productId')).toBe('1001');
    expect(url.searchParams.get('merchantId')).toBe('3');
    const href = new URL(screen.getByTestId('profile-export').getAttribute('href')!, 'http://x');
    expect(href.pathname).toBe('/v1.0/order/profile/export');
    expect(href.searchParams.get('startTime')).toBe('2024-05-01 00:00:00');
    expect(href.searchParams.get('productId')).toBe('1001');
    expect(href.searchParams.get('merchantId')).toBe('3');

    await user.click(screen.getByTestId('profile-reset'));
    await waitFor(() =>
      expect(screen.getByTestId('profile-export').getAttribute('href')).toBe('/v1.0/order/profile/export'),
    );
  });

  it('shows the server’s refusal (a window over 31 days) and retries', async () => {
    server.answers.set(PATH, {
      code: 400,
      msg: 'the window may span at most 31 days: narrow startTime and endTime',
      data: {
        issues: [{ path: 'endTime', message: 'the window may span at most 31 days: narrow startTime and endTime' }],
        reason: 'windowTooLong',
      },
    });
    render();
    const alert = await screen.findByTestId('profile-error');
    expect(alert.textContent).toContain('the window may span at most 31 days');
    expect(charts.made).toHaveLength(0);
    server.answers.set(PATH, ok(PROFILE));
    fireEvent.click(screen.getByTestId('profile-retry'));
    expect((await screen.findByTestId('profile-count-created')).textContent).toContain('10');
    expect(screen.queryByTestId('profile-error')).toBeNull();
  });

  it('says so when the window has no orders, and draws no chart', async () => {
    server.answers.set(PATH, ok(EMPTY));
    render();
    expect((await screen.findByTestId('profile-empty')).textContent).toContain('No orders in this window');
    expect(screen.queryByTestId('profile-table')).toBeNull();
    expect(charts.made).toHaveLength(0);
  });

  it('resizes the charts with the window and disposes of them when the page closes', async () => {
    const view = render();
    await waitFor(() => expect(charts.made).toHaveLength(2));
    window.dispatchEvent(new Event('resize'));
    for (const chart of charts.made) expect(chart.resize).toHaveBeenCalledTimes(1);
    view.unmount();
    for (const chart of charts.made) expect(chart.dispose).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event('resize'));
    for (const chart of charts.made) expect(chart.resize).toHaveBeenCalledTimes(1);
  });

  it('reads in Simplified and Traditional Chinese', async () => {
    await changeLanguage('zh-CN');
    const first = render();
    expect((await screen.findAllByText('分配耗时')).length).toBeGreaterThan(0);
    expect(screen.getByTestId('profile-latency-callback-p50').textContent).toContain('350 毫秒');
    first.unmount();
    await changeLanguage('zh-TW');
    render();
    expect((await screen.findAllByText('回呼延遲')).length).toBeGreaterThan(0);
    expect(screen.getByTestId('profile-count-timedOut').textContent).toContain('已逾時');
  });
});
