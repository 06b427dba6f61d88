import {
  type EndpointInput,
  endpoints,
  PRODUCTS,
  routeByPath,
  type StatisticsAnswer,
  type StatisticsFigures,
  type StatisticsTimeFormat,
} from '@paydesk/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Col,
  Empty,
  Form,
  Row,
  Segmented,
  Select,
  Skeleton,
  Space,
  Spin,
  Statistic,
  Table,
  type TableColumnsType,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import type { TFunction } from 'i18next';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { errorText } from '../../shared/api/errorText';
import { call } from '../../shared/api/http';
import { type ChartOption, EChart } from '../../shared/charts/EChart';
import { formatMoney, formatRate } from '../../shared/format/money';
import { platformNow } from '../../shared/format/time';
import { DateRangeFilter } from '../../shared/list/DateRangeFilter';
import { FILTER_DATE_FORMAT } from '../../shared/list/ListTable';
import { useScrollRegion } from '../../shared/list/scrollRegion';
import { useProductName } from '../../shared/products/productName';
import { useSession } from '../../shared/session/session';
import { csvFileName, saveCsv, toCsv } from './csv';
import { STATISTICS_PAGES, type StatisticsPageConfig } from './pages';

type StatisticsRequest = EndpointInput<typeof endpoints.statistics.statisticsV2>;

/** The figures a page shows, in order; the money ones a role may not see come back null and are hidden. */
const FIGURES = [
  'createdCount',
  'createdAmount',
  'successCount',
  'successAmount',
  'successRate',
  'fee',
  'commission',
  'platformRevenue',
] as const satisfies ReadonlyArray<keyof StatisticsFigures>;
type Figure = (typeof FIGURES)[number];
const COUNTS: ReadonlySet<Figure> = new Set(['createdCount', 'successCount']);
/** The money figures that are null for some roles. */
const ROLE_MONEY: ReadonlySet<Figure> = new Set(['fee', 'commission', 'platformRevenue']);

export const statisticsKeys = {
  all: ['statistics'] as const,
  figures: (view: string, request: StatisticsRequest) => ['statistics', view, request] as const,
  merchants: ['statistics', 'merchants'] as const,
  suppliers: ['statistics', 'suppliers'] as const,
  team: ['statistics', 'team'] as const,
  marks: ['statistics', 'marks'] as const,
};

interface FormValues {
  time?: [Dayjs | null, Dayjs | null] | null;
  productId?: number | null;
  merchantUserId?: number | null;
  supplierUserId?: number | null;
  orderMark?: number | null;
}

const today = (): [Dayjs, Dayjs] => [platformNow().startOf('day'), platformNow().endOf('day')];

/** Form values -> the request: the range as two 'YYYY-MM-DD HH:mm:ss' texts, empty fields left out. */
function requestOf(values: FormValues, config: StatisticsPageConfig, timeFormat?: StatisticsTimeFormat) {
  const out: StatisticsRequest = { orderType: config.orderType, groupByMerchant: config.groupByMerchant };
  const [from, to] = values.time ?? [];
  if (from) out.startTime = from.format(FILTER_DATE_FORMAT);
  if (to) out.endTime = to.format(FILTER_DATE_FORMAT);
  if (values.productId) out.productId = values.productId;
  if (values.merchantUserId) out.merchantUserId = values.merchantUserId;
  if (values.supplierUserId) out.supplierUserId = values.supplierUserId;
  if (values.orderMark !== undefined && values.orderMark !== null) out.orderMark = values.orderMark;
  if (timeFormat) out.timeFormat = timeFormat;
  return out;
}

const showFigure = (figure: Figure, value: number | null) =>
  COUNTS.has(figure) ? String(value ?? 0) : figure === 'successRate' ? formatRate(value) : formatMoney(value);

/** The options of the filters each mode has: staff's merchants and suppliers, a supplier's team, the marks. */
function useFilterOptions(config: StatisticsPageConfig | undefined) {
  const { user } = useSession();
  const staff = config?.mode === 'staff';
  const teamLead = config?.mode === 'supplier' && user?.agent === false;
  const merchants = useQuery({
    queryKey: statisticsKeys.merchants,
    queryFn: () => call(endpoints.merchants.getList, { pageIndex: 1, pageSize: 500 }),
    enabled: staff,
    staleTime: 60_000,
  });
  const suppliers = useQuery({
    queryKey: statisticsKeys.suppliers,
    queryFn: () => call(endpoints.suppliers.getList, { pageIndex: 1, pageSize: 500 }),
    enabled: staff,
    staleTime: 60_000,
  });
  const team = useQuery({
    queryKey: statisticsKeys.team,
    queryFn: () => call(endpoints.users.getSupplierProxyList, { pageIndex: 1, pageSize: 500 }),
    enabled: teamLead,
    staleTime: 60_000,
  });
  const marks = useQuery({
    queryKey: statisticsKeys.marks,
    queryFn: () => call(endpoints.orders.getOrderMarkList, {}),
    enabled: config?.orderType === 'collection',
    staleTime: Number.POSITIVE_INFINITY,
  });
  const supplierOptions = staff
    ? (suppliers.data?.list ?? []).map((s) => ({ value: s.userId, label: `${s.name} (${s.account})` }))
    : teamLead && user
      ? [
          { value: user.userId, label: user.account },
          ...(team.data?.list ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.account})` })),
        ]
      : null;
  return {
    merchants: staff
      ? (merchants.data?.list ?? []).map((m) => ({ value: m.userId, label: `${m.name} (${m.merchantNo})` }))
      : null,
    merchantsLoading: merchants.isPending && staff,
    suppliers: supplierOptions,
    suppliersLoading: (staff && suppliers.isPending) || (teamLead && team.isPending),
    marks: (marks.data ?? []).map((m) => m.id),
  };
}

function trendOption(data: StatisticsAnswer, t: TFunction): ChartOption {
  const major = (minor: number) => minor / 100;
  return {
    tooltip: {
      trigger: 'axis',
      valueFormatter: (v) => (typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(2) : String(v ?? '')),
    },
    legend: { top: 0 },
    grid: { left: 64, right: 48, top: 48, bottom: 40, containLabel: true },
    xAxis: { type: 'category', data: data.series.map((p) => p.time) },
    yAxis: [
      { type: 'value', name: t('chart.amountAxis') },
      { type: 'value', name: t('chart.countAxis'), minInterval: 1, splitLine: { show: false } },
    ],
    series: [
      {
        type: 'line',
        name: t('figure.createdAmount'),
        data: data.series.map((p) => major(p.createdAmount)),
      },
      {
        type: 'line',
        name: t('figure.successAmount'),
        data: data.series.map((p) => major(p.successAmount)),
      },
      { type: 'bar', name: t('figure.createdCount'), yAxisIndex: 1, data: data.series.map((p) => p.createdCount) },
      { type: 'bar', name: t('figure.successCount'), yAxisIndex: 1, data: data.series.map((p) => p.successCount) },
    ],
  };
}

interface FiguresTableProps<R extends StatisticsFigures> {
  testId: string;
  title: string;
  rows: R[];
  totals: StatisticsFigures;
  figures: readonly Figure[];
  /** The first column: what a row is (time, product, party). */
  head: { title: string; render: (row: R) => ReactNode; key: (row: R) => string };
  onExport: () => void;
  pageSize?: number;
}

/** A table of figures with its totals row and CSV export; it scrolls sideways on a phone. */
function FiguresTable<R extends StatisticsFigures>(props: FiguresTableProps<R>) {
  const { t } = useTranslation(['statistics', 'common']);
  const scrollRegion = useScrollRegion();
  const columns: TableColumnsType<R> = [
    { title: props.head.title, key: 'head', fixed: 'left', render: (_: unknown, row: R) => props.head.render(row) },
    ...props.figures.map((f) => ({
      title: t(`figure.${f}`),
      key: f,
      align: 'right' as const,
      render: (_: unknown, row: R) => showFigure(f, row[f]),
    })),
  ];
  return (
    <Card
      size="small"
      title={props.title}
      extra={
        <Button size="small" onClick={props.onExport} data-testid={`${props.testId}-export`} autoInsertSpace={false}>
          {t('common:action.exportCsv')}
        </Button>
      }
    >
      <Table<R>
        ref={scrollRegion}
        data-testid={props.testId}
        rowKey={props.head.key}
        columns={columns}
        dataSource={props.rows}
        size="small"
        scroll={{ x: 'max-content' }}
        pagination={{ pageSize: props.pageSize ?? 24, hideOnSinglePage: true, showSizeChanger: false }}
        locale={{ emptyText: t('common:list.empty') }}
        summary={() => (
          <Table.Summary.Row data-testid={`${props.testId}-totals`}>
            <Table.Summary.Cell index={0}>
              <strong>{t('table.total')}</strong>
            </Table.Summary.Cell>
            {props.figures.map((f, i) => (
              <Table.Summary.Cell key={f} index={i + 1} align="right">
                <strong>{showFigure(f, props.totals[f])}</strong>
              </Table.Summary.Cell>
            ))}
          </Table.Summary.Row>
        )}
      />
    </Card>
  );
}

/**
 * Every statistics page (route names in pages.ts STATISTICS_PAGES): collections or payouts from the
 * hourly rollups (order/statisticsV2, payoutOrder/statisticsV2), scoped by the server to the role:
 * staff filter by merchant and supplier, a supplier by its team members, a merchant by neither. Summary
 * cards, the trend by day or hour (ECharts), the trend points and the splits by product and by merchant
 * or supplier as tables with totals and CSV (made in the browser from the answer: the rows are what is
 * on screen, at most a few thousand). Money a role may not see comes back null and is not shown.
 * Test hooks: `statistics-filters`, `statistics-search`, `statistics-reset`, `statistics-refresh`,
 * `statistics-time-format`, `statistics-window`, `statistics-card-<figure>`, `statistics-chart`,
 * `statistics-series`, `statistics-products`, `statistics-parties` (each with `-export` and `-totals`),
 * `statistics-error`, `statistics-retry`, `statistics-empty`.
 */
export default function StatisticsPage() {
  const { t, i18n } = useTranslation(['statistics', 'common']);
  const productName = useProductName();
  const { pathname } = useLocation();
  const viewKey = routeByPath(pathname)?.name ?? '';
  const config = STATISTICS_PAGES[viewKey];
  const [form] = Form.useForm<FormValues>();
  const [values, setValues] = useState<FormValues>(() => ({ time: today() }));
  const [timeFormat, setTimeFormat] = useState<StatisticsTimeFormat | undefined>(undefined);
  const options = useFilterOptions(config);
  const request = useMemo(() => (config ? requestOf(values, config, timeFormat) : null), [values, config, timeFormat]);
  const endpoint =
    config?.orderType === 'payout' ? endpoints.statistics.payoutStatisticsV2 : endpoints.statistics.statisticsV2;
  const figures = useQuery({
    queryKey: statisticsKeys.figures(viewKey, request ?? {}),
    queryFn: () => call(endpoint, request ?? {}),
    enabled: request !== null,
    placeholderData: keepPreviousData,
  });
  const data = figures.data;
  const chart = useMemo(() => (data ? trendOption(data, t) : null), [data, t]);

  if (!config || !request) return null;

  const products = PRODUCTS.filter((p) => p.direction === config.orderType).map((p) => p.id);
  // The money a role may not see is null throughout the answer: its columns and cards are left out.
  const shown = FIGURES.filter((f) => !ROLE_MONEY.has(f) || (data ? data.totals[f] !== null : false));
  const partyName = (row: { userId: number; account: string | null }) =>
    row.userId === 0 ? t('table.unassigned') : (row.account ?? String(row.userId));
  const exportRows = (part: string, head: string[], rows: Array<Record<string, unknown>>) =>
    saveCsv(csvFileName(endpoint.path, part), toCsv([...head, ...shown], rows));
  const byMerchant = data?.groupedBy === 'merchant';
  // A merchant's split by merchant is itself alone: worth a table only when its team has more accounts.
  const showParties = data ? config.mode !== 'merchant' || data.byParty.length > 1 : false;

  return (
    <div className="page statistics-page">
      <Card>
        <Form<FormValues>
          form={form}
          layout="inline"
          data-testid="statistics-filters"
          initialValues={{ time: today() }}
          onFinish={(v) => setValues({ ...v })}
        >
          <Form.Item name="time" label={t('filter.time')}>
            <DateRangeFilter data-testid="filter-time" />
          </Form.Item>
          <Form.Item name="productId" label={t('filter.product')}>
            <Select
              allowClear
              style={{ minWidth: 180 }}
              data-testid="filter-productId"
              options={products.map((id) => ({ value: id, label: productName(id) }))}
            />
          </Form.Item>
          {options.merchants && (
            <Form.Item name="merchantUserId" label={t('filter.merchant')}>
              <Select
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                style={{ minWidth: 180 }}
                data-testid="filter-merchantUserId"
                loading={options.merchantsLoading}
                options={options.merchants}
              />
            </Form.Item>
          )}
          {options.suppliers && (
            <Form.Item name="supplierUserId" label={t('filter.supplier')}>
              <Select
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                style={{ minWidth: 180 }}
                data-testid="filter-supplierUserId"
                loading={options.suppliersLoading}
                options={options.suppliers}
              />
            </Form.Item>
          )}
          {config.orderType === 'collection' && (
            <Form.Item name="orderMark" label={t('filter.mark')}>
              <Select
                allowClear
                style={{ minWidth: 120 }}
                data-testid="filter-orderMark"
                options={options.marks.map((id) => ({ value: id, label: t(`orders:mark.${id}`) }))}
              />
            </Form.Item>
          )}
          <Space wrap>
            <Button type="primary" htmlType="submit" data-testid="statistics-search" autoInsertSpace={false}>
              {t('common:action.search')}
            </Button>
            <Button
              data-testid="statistics-reset"
              autoInsertSpace={false}
              onClick={() => {
                form.resetFields();
                setValues({ time: today() });
              }}
            >
              {t('common:action.reset')}
            </Button>
            <Button onClick={() => void figures.refetch()} data-testid="statistics-refresh" autoInsertSpace={false}>
              {t('common:action.refresh')}
            </Button>
          </Space>
        </Form>
        {data && (
          <Typography.Paragraph
            type="secondary"
            data-testid="statistics-window"
            style={{ marginTop: 12, marginBottom: 0 }}
          >
            {t('window', { start: data.startTime, end: data.endTime })}
          </Typography.Paragraph>
        )}
      </Card>

      {figures.isError && (
        <Alert
          type="error"
          showIcon
          data-testid="statistics-error"
          title={t('common:list.loadFailed', { message: errorText(i18n, figures.error) })}
          action={
            <Button onClick={() => void figures.refetch()} data-testid="statistics-retry" autoInsertSpace={false}>
              {t('common:action.retry')}
            </Button>
          }
        />
      )}
      {figures.isPending && <Skeleton active paragraph={{ rows: 6 }} />}

      {data && !figures.isError && (
        <Spin spinning={figures.isFetching}>
          {data.totals.createdCount === 0 ? (
            <Card>
              <Empty description={t('empty')} data-testid="statistics-empty" />
            </Card>
          ) : (
            <Space orientation="vertical" size={16} style={{ width: '100%' }}>
              <Row gutter={[16, 16]}>
                {shown.map((f) => (
                  <Col key={f} xs={12} md={8} lg={6} xl={3}>
                    <Card size="small">
                      <div data-testid={`statistics-card-${f}`}>
                        <Statistic title={t(`figure.${f}`)} value={showFigure(f, data.totals[f])} />
                      </div>
                    </Card>
                  </Col>
                ))}
              </Row>
              <Card
                size="small"
                title={t('chart.title')}
                extra={
                  <Segmented<StatisticsTimeFormat>
                    size="small"
                    aria-label={t('filter.timeFormat')}
                    data-testid="statistics-time-format"
                    value={data.timeFormat}
                    onChange={setTimeFormat}
                    options={(['day', 'hour'] as const).map((f) => ({ value: f, label: t(`timeFormat.${f}`) }))}
                  />
                }
              >
                {chart && <EChart option={chart} testId="statistics-chart" />}
              </Card>
              <FiguresTable
                testId="statistics-series"
                title={t('table.series')}
                rows={data.series}
                totals={data.totals}
                figures={shown}
                head={{ title: t('table.time'), render: (r) => r.time, key: (r) => r.time }}
                onExport={() => exportRows('series', ['time'], data.series)}
              />
              <FiguresTable
                testId="statistics-products"
                title={t('table.byProduct')}
                rows={data.byProduct}
                totals={data.totals}
                figures={shown}
                head={{
                  title: t('table.product'),
                  render: (r) => productName(r.productId),
                  key: (r) => String(r.productId),
                }}
                onExport={() =>
                  exportRows(
                    'byProduct',
                    ['productId', 'productName'],
                    data.byProduct.map((r) => ({ ...r, productName: productName(r.productId) })),
                  )
                }
              />
              {showParties && (
                <FiguresTable
                  testId="statistics-parties"
                  title={t(byMerchant ? 'table.byMerchant' : 'table.bySupplier')}
                  rows={data.byParty}
                  totals={data.totals}
                  figures={shown}
                  head={{
                    title: t(byMerchant ? 'table.merchant' : 'table.supplier'),
                    render: partyName,
                    key: (r) => String(r.userId),
                  }}
                  onExport={() =>
                    exportRows(byMerchant ? 'byMerchant' : 'bySupplier', ['userId', 'account'], data.byParty)
                  }
                />
              )}
            </Space>
          )}
        </Spin>
      )}
    </div>
  );
}
