import { PlayCircleOutlined } from '@ant-design/icons';
import {
  endpoints,
  ORDER_CLEAR_STATES,
  ORDER_CLEAR_TRIGGERS,
  type OrderClearRun,
  type OrderClearState,
  type OrderClearTrigger,
  routeByPath,
} from '@paydesk/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Popconfirm, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { errorText } from '../../shared/api/errorText';
import { call, exportUrl } from '../../shared/api/http';
import { formatTime } from '../../shared/format/time';
import { ListTable } from '../../shared/list/ListTable';
import { endpointRoles } from '../../shared/list/rowActions';
import { useSession } from '../../shared/session/session';

const KEYS = { list: ['orderClear', 'list'] as const, running: ['orderClear', 'running'] as const };
/** How often the page looks again while a run it started is going. */
const WATCH_MS = 3_000;

/**
 * System management › order clear history: the runs of the DataClearCycle retention job (daily, or a
 * superAdmin's run now with token2), each with what it removed. superAdmin and admin read it;
 * technical maintenance reads it on the read-only route (the server refuses its run now).
 *
 * Test hooks: `order-clear-run`, `order-clear-list`.
 */
export default function OrderClearHistoryPage() {
  const { t, i18n } = useTranslation(['orderClear', 'common']);
  const { message } = App.useApp();
  const { user } = useSession();
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  const readOnly = routeByPath(pathname)?.readOnly === true;
  const runs = !readOnly && user !== null && endpointRoles(endpoints.orderClear.runOrderClear).includes(user.access);

  // After "clear now", the list is read again every few seconds until no run is going.
  const [watchingSince, setWatchingSince] = useState<number | null>(null);
  const going = useQuery({
    queryKey: KEYS.running,
    queryFn: () => call(endpoints.orderClear.getOrderClearRuns, { pageIndex: 1, pageSize: 1, state: 'running' }),
    enabled: watchingSince !== null,
    refetchInterval: watchingSince !== null ? WATCH_MS : false,
  });
  useEffect(() => {
    if (watchingSince === null || going.dataUpdatedAt <= watchingSince) return;
    void queryClient.invalidateQueries({ queryKey: KEYS.list });
    if (going.data?.total === 0) setWatchingSince(null);
  }, [watchingSince, going.dataUpdatedAt, going.data, queryClient]);

  const run = useMutation({
    mutationFn: () => call(endpoints.orderClear.runOrderClear, {}),
    onSuccess: () => {
      void message.success(t('started'));
      setWatchingSince(Date.now());
      void queryClient.invalidateQueries({ queryKey: KEYS.list });
    },
    onError: (error) => void message.error(errorText(i18n, error)),
  });

  const count = (key: keyof OrderClearRun) => ({ title: t(`column.${key}`), dataIndex: key, align: 'right' as const });

  return (
    <div className="page">
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
      <ListTable<OrderClearRun>
        testId="order-clear-list"
        viewKey="orderClearHistory"
        queryKey={KEYS.list}
        rowKey="id"
        fetchPage={(p) => call(endpoints.orderClear.getOrderClearRuns, p)}
        exportHref={(f) => exportUrl(endpoints.orderClear.exportOrderClearRuns, f)}
        toolbar={
          runs ? (
            <Popconfirm
              title={t('confirmRun')}
              okText={t('common:action.ok')}
              cancelText={t('common:action.cancel')}
              onConfirm={() => run.mutate()}
            >
              <Button
                type="primary"
                icon={<PlayCircleOutlined />}
                loading={run.isPending}
                data-testid="order-clear-run"
                autoInsertSpace={false}
              >
                {t('run')}
              </Button>
            </Popconfirm>
          ) : undefined
        }
        filters={[
          { kind: 'dateRange', name: 'time', label: t('filter.time') },
          {
            kind: 'select',
            name: 'trigger',
            label: t('filter.trigger'),
            options: ORDER_CLEAR_TRIGGERS.map((v) => ({ value: v, label: t(`trigger.${v}`) })),
          },
          {
            kind: 'select',
            name: 'state',
            label: t('filter.state'),
            options: ORDER_CLEAR_STATES.map((v) => ({ value: v, label: t(`state.${v}`) })),
          },
        ]}
        columns={[
          { title: t('column.startedAt'), dataIndex: 'startedAt', render: formatTime },
          { title: t('column.finishedAt'), dataIndex: 'finishedAt', render: formatTime },
          {
            title: t('column.trigger'),
            dataIndex: 'trigger',
            render: (v: OrderClearTrigger, row) =>
              row.startedBy ? `${t(`trigger.${v}`)} (${row.startedBy})` : t(`trigger.${v}`),
          },
          { title: t('column.state'), dataIndex: 'state', render: (v: OrderClearState) => t(`state.${v}`) },
          { title: t('column.cycleDays'), dataIndex: 'cycleDays', align: 'right' },
          { title: t('column.cutoff'), dataIndex: 'cutoff', render: formatTime },
          count('orders'),
          count('payouts'),
          count('orderEvents'),
          count('payoutEvents'),
          count('allocations'),
          count('callbacks'),
          count('callbackAttempts'),
          count('receipts'),
          count('payScriptCalls'),
          { title: t('column.error'), dataIndex: 'error' },
        ]}
      />
    </div>
  );
}
