import {
  endpoints,
  ORDER_PROFILE_DEFAULT_DAYS,
  ORDER_PROFILE_MAX_DAYS,
  ORDER_PROFILE_METRICS,
  type OrderProfile,
  type OrderProfileMetric,
  type OrderProfileRow,
  type OrderProfileStats,
  PRODUCTS,
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
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/api/errorText';
import { call, exportUrl } from '../../shared/api/http';
import { type ChartOption, EChart } from '../../shared/charts/EChart';
import { DateRangeFilter } from '../../shared/list/DateRangeFilter';
import { FILTER_DATE_FORMAT } from '../../shared/list/ListTable';
import { useProductName } from '../../shared/products/productName';
import { formatDuration, latencyField, type OrderProfileFilters, orderProfileKeys, PERCENTILE_KEYS } from './api';

const COUNT_KEYS = ['created', 'allocated', 'paid', 'allocationFailed', 'timedOut'] as const;
const COLLECTION_PRODUCTS = PRODUCTS.filter((p) => p.direction === 'collection').map((p) => p.id);

interface FormValues {
  time?: [Dayjs | null, Dayjs | null] | null;
  productId?: number | null;
  merchantId?: number | null;
}

/** Form values -> the request: the range as two 'YYYY-MM-DD HH:mm:ss' texts, empty fields left out. */
function filtersOf(values: FormValues): OrderProfileFilters {
  const out: OrderProfileFilters = {};
  const [from, to] = values.time ?? [];
  if (from) out.startTime = from.format(FILTER_DATE_FORMAT);
  if (to) out.endTime = to.format(FILTER_DATE_FORMAT);
  if (values.productId) out.productId = values.productId;
  if (values.merchantId) out.merchantId = values.merchantId;
  return out;
}

/** A missing latency is a gap in a line ('-' is ECharts' empty value). */
const point = (v: number | null) => (v === null ? '-' : v);

function hourlyOption(data: OrderProfile, metric: OrderProfileMetric, t: TFunction): ChartOption {
  return {
    tooltip: { trigger: 'axis', valueFormatter: (v) => formatDuration(t, typeof v === 'number' ? v : null) },
    legend: { top: 0 },
    grid: { left: 72, right: 24, top: 40, bottom: 48 },
    xAxis: {
      type: 'category',
      name: t('chart.hourlyAxis', { zone: data.timeZone }),
      nameLocation: 'middle',
      nameGap: 28,
      data: data.byHour.map((h) => String(h.hour)),
    },
    yAxis: { type: 'value', axisLabel: { formatter: (v: number) => formatDuration(t, v) } },
    series: PERCENTILE_KEYS.map((p) => ({
      type: 'line' as const,
      name: t(`percentile.${p}`),
      data: data.byHour.map((h) => point(h[latencyField(metric, p)])),
    })),
  };
}

function productsOption(data: OrderProfile, productName: (id: number) => string, t: TFunction): ChartOption {
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { left: 56, right: 24, top: 40, bottom: 32 },
    xAxis: { type: 'category', data: data.byProduct.map((p) => productName(p.productId)) },
    yAxis: { type: 'value', minInterval: 1 },
    series: COUNT_KEYS.map((k) => ({
      type: 'bar' as const,
      name: t(`count.${k}`),
      data: data.byProduct.map((p) => p[k]),
    })),
  };
}

function SummaryCards({ overall }: { overall: OrderProfileStats }) {
  const { t } = useTranslation(['orderProfile', 'common']);
  return (
    <>
      <Row gutter={[16, 16]}>
        {COUNT_KEYS.map((k) => (
          <Col key={k} xs={12} md={8} lg={4}>
            <Card size="small">
              <div data-testid={`profile-count-${k}`}>
                <Statistic title={t(`count.${k}`)} value={overall[k]} />
              </div>
            </Card>
          </Col>
        ))}
      </Row>
      <Row gutter={[16, 16]}>
        {ORDER_PROFILE_METRICS.map((metric) => (
          <Col key={metric} xs={24} md={8}>
            <Card size="small" title={t(`metric.${metric}`)} className="profile-latency">
              {/* Under the title, not beside it: beside it, the title was cut to a few letters. */}
              <Typography.Paragraph type="secondary">{t(`metricHelp.${metric}`)}</Typography.Paragraph>
              <Row gutter={8}>
                {PERCENTILE_KEYS.map((p) => (
                  <Col key={p} span={8}>
                    <div data-testid={`profile-latency-${metric}-${p}`}>
                      <Statistic
                        title={t(`percentile.${p}`)}
                        value={formatDuration(t, overall[latencyField(metric, p)])}
                      />
                    </div>
                  </Col>
                ))}
              </Row>
            </Card>
          </Col>
        ))}
      </Row>
    </>
  );
}

/**
 * /order/profile (superAdmin): how long collection orders take, by product and hour of day in the
 * platform time zone: counts, p50/p90/p99 of time to allocate, time to pay and callback latency,
 * charts of the latencies by hour and of the counts by product, the product and hour rows, and
 * their CSV. Test hooks: `profile-filters`, `profile-search`, `profile-reset`, `profile-export`,
 * `profile-window`, `profile-count-<key>`, `profile-latency-<metric>-<p>`, `profile-chart-hourly`,
 * `profile-chart-products`, `profile-metric`, `profile-table`, `profile-error`, `profile-retry`,
 * `profile-empty`.
 */
export default function OrderProfilePage() {
  const { t, i18n } = useTranslation(['orderProfile', 'common']);
  const productName = useProductName();
  const [form] = Form.useForm<FormValues>();
  const [filters, setFilters] = useState<OrderProfileFilters>({});
  const [metric, setMetric] = useState<OrderProfileMetric>('allocate');

  const merchants = useQuery({
    queryKey: orderProfileKeys.merchants,
    queryFn: () => call(endpoints.merchants.getList, { pageIndex: 1, pageSize: 500 }),
    staleTime: 60_000,
  });
  const profile = useQuery({
    queryKey: orderProfileKeys.profile(filters),
    queryFn: () => call(endpoints.orderProfile.getProfile, filters),
    placeholderData: keepPreviousData,
  });
  const data = profile.data;

  const hourly = useMemo(() => (data ? hourlyOption(data, metric, t) : null), [data, metric, t]);
  const byProduct = useMemo(() => (data ? productsOption(data, productName, t) : null), [data, productName, t]);

  const columns = useMemo<TableColumnsType<OrderProfileRow>>(
    () => [
      {
        title: t('table.product'),
        dataIndex: 'productId',
        key: 'product',
        fixed: 'left',
        render: (id: number) => productName(id),
      },
      { title: t('table.hour'), dataIndex: 'hour', key: 'hour', align: 'right' },
      ...COUNT_KEYS.map((k) => ({ title: t(`count.${k}`), dataIndex: k, key: k, align: 'right' as const })),
      ...ORDER_PROFILE_METRICS.map((m) => ({
        title: t(`metric.${m}`),
        key: m,
        children: PERCENTILE_KEYS.map((p) => ({
          title: t(`percentile.${p}`),
          dataIndex: latencyField(m, p),
          key: latencyField(m, p),
          align: 'right' as const,
          render: (v: number | null) => formatDuration(t, v),
        })),
      })),
    ],
    [t, productName],
  );

  return (
    <div className="page order-profile-page">
      <Card>
        <Form<FormValues>
          form={form}
          layout="inline"
          data-testid="profile-filters"
          onFinish={(values) => setFilters(filtersOf(values))}
        >
          <Form.Item name="time" label={t('filter.time')}>
            <DateRangeFilter data-testid="filter-time" />
          </Form.Item>
          <Form.Item name="productId" label={t('filter.product')}>
            <Select
              allowClear
              style={{ minWidth: 200 }}
              data-testid="filter-productId"
              options={COLLECTION_PRODUCTS.map((id) => ({ value: id, label: productName(id) }))}
            />
          </Form.Item>
          <Form.Item name="merchantId" label={t('filter.merchant')}>
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              style={{ minWidth: 200 }}
              data-testid="filter-merchantId"
              loading={merchants.isPending}
              options={(merchants.data?.list ?? []).map((m) => ({ value: m.id, label: `${m.name} (${m.merchantNo})` }))}
            />
          </Form.Item>
          <Space wrap>
            <Button type="primary" htmlType="submit" data-testid="profile-search">
              {t('common:action.search')}
            </Button>
            <Button
              data-testid="profile-reset"
              onClick={() => {
                form.resetFields();
                setFilters({});
              }}
            >
              {t('common:action.reset')}
            </Button>
            <Button
              href={exportUrl(endpoints.orderProfile.exportProfile, filters)}
              download
              data-testid="profile-export"
            >
              {t('common:action.exportCsv')}
            </Button>
            <Button onClick={() => void profile.refetch()} data-testid="profile-refresh">
              {t('common:action.refresh')}
            </Button>
          </Space>
        </Form>
        {data && (
          <Typography.Paragraph
            type="secondary"
            data-testid="profile-window"
            style={{ marginTop: 12, marginBottom: 0 }}
          >
            {t('window', {
              start: data.startTime,
              end: data.endTime,
              zone: data.timeZone,
              max: ORDER_PROFILE_MAX_DAYS,
              days: ORDER_PROFILE_DEFAULT_DAYS,
            })}
          </Typography.Paragraph>
        )}
      </Card>

      {profile.isError && (
        <Alert
          type="error"
          showIcon
          data-testid="profile-error"
          title={t('common:list.loadFailed', { message: errorText(i18n, profile.error) })}
          action={
            <Button onClick={() => void profile.refetch()} data-testid="profile-retry">
              {t('common:action.retry')}
            </Button>
          }
        />
      )}
      {profile.isPending && <Skeleton active paragraph={{ rows: 6 }} />}

      {data && !profile.isError && (
        <Spin spinning={profile.isFetching}>
          {data.overall.created === 0 ? (
            <Card>
              <Empty description={t('empty')} data-testid="profile-empty" />
            </Card>
          ) : (
            <Space orientation="vertical" size={16} style={{ width: '100%' }}>
              <SummaryCards overall={data.overall} />
              <Row gutter={[16, 16]}>
                <Col xs={24} xl={14}>
                  <Card
                    size="small"
                    title={t('chart.hourly')}
                    extra={
                      <Segmented<OrderProfileMetric>
                        size="small"
                        data-testid="profile-metric"
                        value={metric}
                        onChange={setMetric}
                        options={ORDER_PROFILE_METRICS.map((m) => ({ value: m, label: t(`metric.${m}`) }))}
                      />
                    }
                  >
                    {hourly && <EChart option={hourly} testId="profile-chart-hourly" />}
                  </Card>
                </Col>
                <Col xs={24} xl={10}>
                  <Card size="small" title={t('chart.products')}>
                    {byProduct && <EChart option={byProduct} testId="profile-chart-products" />}
                  </Card>
                </Col>
              </Row>
              <Card size="small" title={t('table.title')}>
                <Table<OrderProfileRow>
                  data-testid="profile-table"
                  rowKey={(r) => `${r.productId}-${r.hour}`}
                  columns={columns}
                  dataSource={data.rows}
                  size="small"
                  bordered
                  scroll={{ x: 'max-content' }}
                  pagination={{ pageSize: 24, hideOnSinglePage: true, showSizeChanger: false }}
                  locale={{ emptyText: t('common:list.empty') }}
                />
              </Card>
            </Space>
          )}
        </Spin>
      )}
    </div>
  );
}
