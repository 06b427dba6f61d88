import type { StatisticsAnswer } from '@paydesk/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { ok, renderPage, stubServer, testUser } from '../../test/renderPage';
import { figures, MERCHANT_MONEY, type Money, STAFF_MONEY, SUPPLIER_MONEY } from '../../test/statisticsFigures';
import { csvFileName, toCsv } from './csv';
import StatisticsPage from './StatisticsPage';

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

function answer(money: Money, groupedBy: 'merchant' | 'supplier', orderType: 'collection' | 'payout' = 'collection') {
  const busy = figures(money, {
    createdCount: 4,
    createdAmount: 1_234_500,
    successCount: 3,
    successAmount: 1_000_000,
    successRate: 7500,
  });
  return {
    orderType,
    timeFormat: 'day',
    startTime: '2026-11-20 00:00:00',
    endTime: '2026-11-21 23:59:59',
    totals: busy,
    series: [
      { time: '2026-11-20', ...busy },
      { time: '2026-11-21', ...figures(money, { fee: money.fee && 0 }) },
    ],
    byProduct: [{ productId: orderType === 'collection' ? 1001 : 2001, ...busy }],
    groupedBy,
    byParty: [
      { userId: 7, account: groupedBy === 'merchant' ? 'merchant1' : 'supplier1', ...busy },
      ...(groupedBy === 'supplier' ? [{ userId: 0, account: null, ...figures(money) }] : []),
    ],
  } satisfies StatisticsAnswer;
}

const COLLECTION = '/v1.0/order/statisticsV2';
const PAYOUT = '/v1.0/payoutOrder/statisticsV2';
let server: ReturnType<typeof stubServer>;

beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(() => {
  charts.made.length = 0;
  server = stubServer({
    '/v1.0/merchant/getList': ok({
      list: [{ id: 3, userId: 30, name: 'Merchant One', merchantNo: '10001' }],
      total: 1,
      pageIndex: 1,
      pageSize: 500,
    }),
    '/v1.0/supplier/getList': ok({
      list: [{ id: 4, userId: 40, name: 'Supplier One', account: 'supplier1' }],
      total: 1,
      pageIndex: 1,
      pageSize: 500,
    }),
    '/v1.0/admin/getSupplierProxyList': ok({
      list: [{ id: 41, account: 'agent1', name: 'Agent One' }],
      total: 1,
      pageIndex: 1,
      pageSize: 500,
    }),
    '/v1.0/order/getOrderMarkList': ok([
      { id: 0, name: 'normal' },
      { id: 1, name: 'suspicious' },
    ]),
  });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await changeLanguage('en-US');
});

const lastUrl = (path: string) => new URL(server.sent(path).at(-1)!.url, 'http://x');
const cells = (row: Element) =>
  within(row as HTMLElement)
    .getAllByRole('cell')
    .map((c) => c.textContent);
const headers = (testId: string) =>
  within(screen.getByTestId(testId))
    .getAllByRole('columnheader')
    .map((c) => c.textContent);
const bodyRows = (testId: string) =>
  [...screen.getByTestId(testId).querySelectorAll('tbody tr.ant-table-row')] as HTMLElement[];
const filterLabels = () =>
  [...screen.getByTestId('statistics-filters').querySelectorAll('label')].map((l) => l.textContent);

describe('StatisticsPage', { timeout: 60_000 }, () => {
  it('staff by merchant: merchant and supplier filters, every money column, the split by merchant, a chart with the trend', async () => {
    server.answers.set(COLLECTION, ok(answer(STAFF_MONEY, 'merchant')));
    renderPage(<StatisticsPage />, '/order/statisticsByMerhcantV2', testUser({ access: 'admin' }));

    expect((await screen.findByTestId('statistics-card-createdCount')).textContent).toContain('4');
    expect(screen.getByTestId('statistics-card-successRate').textContent).toContain('75.00%');
    expect(screen.getByTestId('statistics-card-createdAmount').textContent).toContain('12,345.00');
    expect(screen.getByTestId('statistics-card-platformRevenue').textContent).toContain('2.00');
    expect(filterLabels()).toEqual(['Created', 'Product', 'Merchant', 'Supplier', 'Order mark']);

    const url = lastUrl(COLLECTION);
    expect(url.searchParams.get('groupByMerchant')).toBe('true');
    expect(url.searchParams.get('orderType')).toBe('collection');
    // Today by default, as a range of whole days.
    expect(url.searchParams.get('startTime')).toMatch(/^\d{4}-\d{2}-\d{2} 00:00:00$/);
    expect(url.searchParams.get('endTime')).toMatch(/^\d{4}-\d{2}-\d{2} 23:59:59$/);

    expect(headers('statistics-parties')).toEqual([
      'Merchant',
      'Created',
      'Created amount',
      'Successful',
      'Successful amount',
      'Success rate',
      'Fees',
      'Supplier commission',
      'Platform revenue',
    ]);
    expect(cells(bodyRows('statistics-parties')[0]!)).toEqual([
      'merchant1',
      '4',
      '12,345.00',
      '3',
      '10,000.00',
      '75.00%',
      '3.00',
      '1.00',
      '2.00',
    ]);
    expect(cells(screen.getByTestId('statistics-series-totals'))[0]).toBe('Total');
    expect(bodyRows('statistics-series')).toHaveLength(2);
    expect(cells(bodyRows('statistics-products')[0]!)[0]).toBe('UPI collection');

    await waitFor(() => expect(charts.of('statistics-chart')?.setOption).toHaveBeenCalled());
    const option = charts.of('statistics-chart')!.setOption.mock.calls.at(-1)![0] as {
      xAxis: { data: string[] };
      series: Array<{ type: string; data: number[]; yAxisIndex?: number }>;
    };
    expect(option.xAxis.data).toEqual(['2026-11-20', '2026-11-21']);
    expect(option.series.map((s) => s.type)).toEqual(['line', 'line', 'bar', 'bar']);
    expect(option.series[0]!.data).toEqual([12345, 0]);
    expect(option.series[2]!.data).toEqual([4, 0]);
    expect(option.series[2]!.yAxisIndex).toBe(1);

    // The trend by hour: asked of the server.
    fireEvent.click(within(screen.getByTestId('statistics-time-format')).getByText('Hour'));
    await waitFor(() => expect(lastUrl(COLLECTION).searchParams.get('timeFormat')).toBe('hour'));
  });

  it('a supplier: its team as the supplier filter, no merchant filter, commission but no fee or revenue, split by supplier', async () => {
    server.answers.set(COLLECTION, ok(answer(SUPPLIER_MONEY, 'supplier')));
    renderPage(
      <StatisticsPage />,
      '/order/statistics/supplierV2',
      testUser({ access: 'supplier', userId: 40, account: 'supplier1' }),
    );
    await screen.findByTestId('statistics-card-commission');
    expect(screen.queryByTestId('statistics-card-fee')).toBeNull();
    expect(screen.queryByTestId('statistics-card-platformRevenue')).toBeNull();
    expect(filterLabels()).toEqual(['Created', 'Product', 'Supplier', 'Order mark']);
    expect(server.sent('/v1.0/merchant/getList')).toHaveLength(0);
    await waitFor(() => expect(server.sent('/v1.0/admin/getSupplierProxyList')).toHaveLength(1));

    expect(headers('statistics-parties')).toEqual([
      'Supplier',
      'Created',
      'Created amount',
      'Successful',
      'Successful amount',
      'Success rate',
      'Supplier commission',
    ]);
    const rows = bodyRows('statistics-parties');
    expect(cells(rows[0]!)[0]).toBe('supplier1');
    expect(cells(rows[1]!)[0]).toBe('Not allocated yet');
    expect(lastUrl(COLLECTION).searchParams.get('groupByMerchant')).toBe('false');
  });

  it('a merchant’s payouts: no party filters, no mark, fee but no commission, the payout call', async () => {
    server.answers.set(PAYOUT, ok(answer(MERCHANT_MONEY, 'merchant', 'payout')));
    renderPage(<StatisticsPage />, '/payProxyOrder/statistics/merchant', testUser({ access: 'merchant' }));
    await screen.findByTestId('statistics-card-fee');
    expect(screen.queryByTestId('statistics-card-commission')).toBeNull();
    expect(filterLabels()).toEqual(['Created', 'Product']);
    expect(lastUrl(PAYOUT).searchParams.get('orderType')).toBe('payout');
    expect(server.sent(COLLECTION)).toHaveLength(0);
    // Itself alone: no split by merchant.
    expect(screen.queryByTestId('statistics-parties')).toBeNull();
    expect(headers('statistics-products')).toContain('Fees');
    expect(headers('statistics-products')).not.toContain('Supplier commission');
  });

  it('empty and error states', async () => {
    const empty = answer(STAFF_MONEY, 'supplier');
    server.answers.set(
      COLLECTION,
      ok({ ...empty, totals: figures(STAFF_MONEY), byProduct: [], byParty: [], series: [] }),
    );
    renderPage(<StatisticsPage />, '/order/statistics', testUser({ access: 'admin' }));
    expect(await screen.findByTestId('statistics-empty')).toBeTruthy();

    server.answers.set(COLLECTION, { code: 500, msg: 'boom', data: null });
    fireEvent.click(screen.getByTestId('statistics-refresh'));
    expect(await screen.findByTestId('statistics-error')).toBeTruthy();
  });

  it('shows its texts in Chinese', async () => {
    await changeLanguage('zh-CN');
    server.answers.set(COLLECTION, ok(answer(STAFF_MONEY, 'supplier')));
    renderPage(<StatisticsPage />, '/order/statistics', testUser({ access: 'admin' }));
    expect((await screen.findByTestId('statistics-card-successRate')).textContent).toContain('成功率');
    expect(headers('statistics-parties')[0]).toBe('码商');
  });
});

describe('statistics CSV', () => {
  it('is the lists’ CSV: BOM, keys, raw minor units, formulas neutralised, quoted when needed', () => {
    const text = toCsv(
      ['userId', 'account', 'createdAmount', 'fee'],
      [
        { userId: 7, account: '=cmd', createdAmount: 1_234_500, fee: null },
        { userId: 8, account: 'a,b', createdAmount: -5, fee: 0 },
      ],
    );
    expect(text).toBe('\uFEFFuserId,account,createdAmount,fee\n7,\'=cmd,1234500,\n8,"a,b",-5,0\n');
    expect(csvFileName('/v1.0/order/statisticsV2', 'byProduct', new Date('2026-11-27T13:05:09Z'))).toBe(
      'order-statisticsV2-byProduct-20261127T130509.csv',
    );
  });
});
