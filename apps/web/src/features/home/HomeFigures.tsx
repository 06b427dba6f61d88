import {
  endpoints,
  menuRoutesFor,
  type Role,
  STATISTICS_READERS,
  type StatisticsAnswer,
  type StatisticsFigures,
  type StatisticsOrderType,
  type StatisticsPeriods,
} from '@paydesk/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Card, Col, Descriptions, Row, Segmented, Skeleton, Space } from 'antd';
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorText } from '../../shared/api/errorText';
import { call } from '../../shared/api/http';
import { type ChartOption, EChart } from '../../shared/charts/EChart';
import { formatMoney, formatRate } from '../../shared/format/money';
import { useSession } from '../../shared/session/session';

const ORDER_TYPES = ['collection', 'payout'] as const satisfies readonly StatisticsOrderType[];
const PERIODS = ['today', 'yesterday', 'last7Days'] as const satisfies ReadonlyArray<keyof StatisticsPeriods>;
/** The money a role may not see comes back null: those rows are left out. */
const ROLE_MONEY = ['fee', 'commission', 'platformRevenue'] as const satisfies ReadonlyArray<keyof StatisticsFigures>;
const DAY_FORMAT = 'YYYY-MM-DD';
/** Realtime events arriving together refetch once (a busy platform publishes many a second). */
const LIVE_COALESCE_MS = 2000;

/**
 * The statistics page each card links to, by direction, in order of preference (the route names of
 * the contract's routes.ts): the first one in the role's menu wins.
 */
const STATISTICS_ROUTES: Record<StatisticsOrderType, readonly string[]> = {
  collection: [
    'orderStatistics',
    'orderStatisticsCustomerService',
    'orderStatisticsSupplierV2',
    'orderStatisticsMerchant',
  ],
  payout: [
    'payProxyOrderStatistics',
    'payProxyOrderStatisticsCustomerService',
    'payProxyOrderStatisticsSupplier',
    'payProxyOrderStatisticsMerchant',
  ],
};

/** Under `homeFigures`: refetched together when an order or payout changes. */
export const homeFigureKeys = {
  all: ['homeFigures'] as const,
  simple: ['homeFigures', 'simple'] as const,
  trend: (orderType: StatisticsOrderType, todayDate: string) => ['homeFigures', 'trend', orderType, todayDate] as const,
  /** Ticks of the realtime topics (the session invalidates `[topic]` on an event). */
  live: (topic: 'orders' | 'payouts') => [topic, 'homeFiguresLive'] as const,
};

export const canReadStatistics = (role: Role | undefined): boolean =>
  role !== undefined && (STATISTICS_READERS as readonly Role[]).includes(role);

/**
 * Live figures: subscribes to the 'orders' and 'payouts' topics while mounted; an event (or a
 * reconnection, for what was published meanwhile) refetches every `homeFigures` query, once per
 * burst of events.
 */
function useLiveFigures(enabled: boolean) {
  const { realtime, realtimeState } = useSession();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    realtime.subscribe('orders');
    realtime.subscribe('payouts');
    return () => {
      realtime.unsubscribe('orders');
      realtime.unsubscribe('payouts');
    };
  }, [enabled, realtime]);
  const ticks = useRef(0);
  const tick = () => ++ticks.current;
  const orders = useQuery({
    queryKey: homeFigureKeys.live('orders'),
    queryFn: tick,
    staleTime: Number.POSITIVE_INFINITY,
    enabled,
  });
  const payouts = useQuery({
    queryKey: homeFigureKeys.live('payouts'),
    queryFn: tick,
    staleTime: Number.POSITIVE_INFINITY,
    enabled,
  });
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const refetch = useRef(() => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      void queryClient.invalidateQueries({ queryKey: homeFigureKeys.all });
    }, LIVE_COALESCE_MS);
  });
  const seen = useRef<string | null>(null);
  const now = `${orders.data ?? ''}/${payouts.data ?? ''}`;
  useEffect(() => {
    if (orders.data === undefined || payouts.data === undefined) return;
    // The first ticks are the queries' own first run, not events.
    if (seen.current !== null && seen.current !== now) refetch.current();
    seen.current = now;
  }, [now, orders.data, payouts.data]);
  // A reconnection: what was published while the socket was down is caught up the same way.
  // The first connection after sign-in is not one: the queries have just run.
  const previous = useRef(realtimeState);
  const connectedBefore = useRef(realtimeState === 'Connected');
  useEffect(() => {
    const was = previous.current;
    previous.current = realtimeState;
    if (realtimeState !== 'Connected' || was === 'Connected') return;
    if (enabled && connectedBefore.current) refetch.current();
    connectedBefore.current = true;
  }, [enabled, realtimeState]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
}

/** The 7 days ending with `todayDate`, as the statistics call's range. */
export function weekRange(todayDate: string) {
  const today = dayjs(todayDate, DAY_FORMAT);
  return {
    startTime: `${today.subtract(6, 'day').format(DAY_FORMAT)} 00:00:00`,
    endTime: `${today.format(DAY_FORMAT)} 23:59:59`,
  };
}

function trendOption(data: StatisticsAnswer, t: TFunction, language: string): ChartOption {
  const major = (minor: number) => minor / 100;
  return {
    tooltip: {
      trigger: 'axis',
      valueFormatter: (v) => (typeof v === 'number' ? formatMoney(Math.round(v * 100), language) : String(v ?? '')),
    },
    legend: { top: 0 },
    grid: { left: 16, right: 16, top: 40, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: data.series.map((p) => p.time.slice(5)) },
    yAxis: { type: 'value' },
    series: [
      { type: 'line', name: t('figures.createdAmount'), data: data.series.map((p) => major(p.createdAmount)) },
      { type: 'line', name: t('figures.successAmount'), data: data.series.map((p) => major(p.successAmount)) },
    ],
  };
}

/** One period's figures: created and successful (count / amount), the success rate, the money the role sees. */
function PeriodFigures({ figures, testId, title }: { figures: StatisticsFigures; testId: string; title: string }) {
  const { t, i18n } = useTranslation('home');
  const count = (n: number) => new Intl.NumberFormat(i18n.language).format(n);
  const money = (minor: number | null) => formatMoney(minor, i18n.language);
  const items = [
    {
      key: 'created',
      label: t('figures.created'),
      children: `${count(figures.createdCount)} / ${money(figures.createdAmount)}`,
    },
    {
      key: 'success',
      label: t('figures.success'),
      children: `${count(figures.successCount)} / ${money(figures.successAmount)}`,
    },
    {
      key: 'successRate',
      label: t('figures.successRate'),
      children: figures.successRate === null ? '—' : formatRate(figures.successRate),
    },
    ...ROLE_MONEY.filter((f) => figures[f] !== null).map((f) => ({
      key: f,
      label: t(`figures.${f}`),
      children: money(figures[f]),
    })),
  ].map((item) => ({ ...item, children: <span data-testid={`${testId}-${item.key}`}>{item.children}</span> }));
  return (
    <div data-testid={testId}>
      <Descriptions title={title} size="small" column={1} items={items} />
    </div>
  );
}

/** The 7-day trend of collections or payouts (a toggle), ending with the simple call's today. */
function TrendCard({ todayDate }: { todayDate: string }) {
  const { t, i18n } = useTranslation(['home', 'common']);
  const [orderType, setOrderType] = useState<StatisticsOrderType>('collection');
  const trend = useQuery({
    queryKey: homeFigureKeys.trend(orderType, todayDate),
    queryFn: () => call(endpoints.statistics.statisticsV2, { orderType, timeFormat: 'day', ...weekRange(todayDate) }),
  });
  const data = trend.data;
  const option = useMemo(() => (data ? trendOption(data, t, i18n.language) : null), [data, t, i18n.language]);
  return (
    <Card
      size="small"
      title={t('figures.trend')}
      data-testid="home-trend"
      extra={
        <Segmented<StatisticsOrderType>
          size="small"
          aria-label={t('figures.trendKind')}
          data-testid="home-trend-kind"
          value={orderType}
          onChange={setOrderType}
          options={ORDER_TYPES.map((o) => ({ value: o, label: t(`figures.${o}`) }))}
        />
      }
    >
      {trend.isPending && <Skeleton active paragraph={{ rows: 4 }} />}
      {trend.isError && (
        <Alert
          type="error"
          showIcon
          data-testid="home-trend-error"
          title={t('common:list.loadFailed', { message: errorText(i18n, trend.error) })}
        />
      )}
      {option && !trend.isError && <EChart option={option} height={280} testId="home-trend-chart" />}
    </Card>
  );
}

/**
 * The home page's figures (issue 22 item 4): today, yesterday and the last 7 days of collections and
 * payouts (order/simplestatisticsV2, the server's today in the platform time zone), and the 7-day trend
 * by day (order/statisticsV2). Scoped by the server to the role; money a role may not see is null and
 * not shown; nothing at all while `shown` is false (a merchant or supplier with ShowUserStatisticInfo
 * off) or for a role that reads no statistics (no call then). Live on the orders and payouts topics.
 * Test hooks: `home-figures`, `home-figures-error`, `home-figures-<collection|payout>` (with `-link`),
 * `home-figures-<type>-<period>` (with `-<figure>`), `home-trend`, `home-trend-kind`,
 * `home-trend-chart`, `home-trend-error`.
 */
export function HomeFigures() {
  const { t, i18n } = useTranslation(['home', 'common']);
  const { user } = useSession();
  const readers = canReadStatistics(user?.access);
  const simple = useQuery({
    queryKey: homeFigureKeys.simple,
    queryFn: () => call(endpoints.statistics.simplestatisticsV2, {}),
    enabled: readers,
  });
  useLiveFigures(readers && simple.data?.shown !== false);
  const links = useMemo(() => {
    if (!user) return null;
    const menu = menuRoutesFor(user.access, { agent: user.agent });
    const of = (type: StatisticsOrderType) =>
      STATISTICS_ROUTES[type].map((name) => menu.find((r) => r.name === name)).find((r) => r !== undefined)?.path ??
      null;
    return { collection: of('collection'), payout: of('payout') };
  }, [user]);

  if (!readers || !user) return null;
  if (simple.isPending) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (simple.isError) {
    return (
      <Alert
        type="error"
        showIcon
        data-testid="home-figures-error"
        title={t('common:list.loadFailed', { message: errorText(i18n, simple.error) })}
      />
    );
  }
  const data = simple.data;
  if (!data.shown) return null;
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="home-figures">
      {ORDER_TYPES.map((type) => {
        const periods = data[type];
        if (!periods) return null;
        const link = links?.[type];
        return (
          <Card
            key={type}
            size="small"
            title={t(`figures.${type}`)}
            data-testid={`home-figures-${type}`}
            extra={
              link && (
                <Link to={link} data-testid={`home-figures-${type}-link`}>
                  {t('figures.openStatistics')}
                </Link>
              )
            }
          >
            <Row gutter={[16, 8]}>
              {PERIODS.map((period) => (
                <Col key={period} xs={24} md={8}>
                  <PeriodFigures
                    figures={periods[period]}
                    testId={`home-figures-${type}-${period}`}
                    title={t(`figures.period.${period}`)}
                  />
                </Col>
              ))}
            </Row>
          </Card>
        );
      })}
      <TrendCard todayDate={data.todayDate} />
    </Space>
  );
}
