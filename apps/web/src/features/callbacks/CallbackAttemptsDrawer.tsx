import { type CallbackAttemptRow, type CallbackRow, endpoints } from '@paydesk/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Drawer, Empty, Space, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/api/errorText';
import { call } from '../../shared/api/http';
import { formatTime } from '../../shared/format/time';
import { callbackKeys } from './api';
import { CallbackStateTag, ExchangeView, OrderTypeTag, SucceededTag, statusText } from './Exchange';

/** More attempts than a callback's schedule can make (14 offsets), so one page holds them all. */
const ATTEMPTS_PAGE = 100;

/**
 * The attempts of one callback, oldest first; each row expands to the request sent and the answer.
 * Refreshed with the lists by the 'callbacks' events. Test hooks: `callback-attempts`,
 * `callback-attempt-<attemptNo>` (the row), `attempt-<attemptNo>` (its exchange once expanded).
 */
export function CallbackAttemptsDrawer({ callback, onClose }: { callback: CallbackRow; onClose(): void }) {
  const { t, i18n } = useTranslation(['callbacks', 'common']);
  const attempts = useQuery({
    queryKey: callbackKeys.attemptsOf(callback.id),
    queryFn: () =>
      call(endpoints.callbacks.getDetailList, { pageIndex: 1, pageSize: ATTEMPTS_PAGE, callbackId: callback.id }),
  });
  const rows = [...(attempts.data?.list ?? [])].sort((a, b) => a.attemptNo - b.attemptNo);

  return (
    <Drawer
      open
      size="large"
      title={t('attempts.title', { id: callback.id })}
      onClose={onClose}
      destroyOnHidden
      data-testid="callback-attempts"
    >
      <Descriptions column={1} size="small" style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('column.orderCode')}>
          <Space size={8}>
            {callback.orderCode}
            <OrderTypeTag type={callback.orderType} />
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label={t('column.merchantOrderNo')}>{callback.merchantOrderNo}</Descriptions.Item>
        <Descriptions.Item label={t('column.url')}>
          <Typography.Text style={{ wordBreak: 'break-all' }}>{callback.url}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('column.notificationId')}>{callback.notificationId}</Descriptions.Item>
        <Descriptions.Item label={t('column.state')}>
          <Space size={8} wrap>
            <CallbackStateTag state={callback.state} />
            {callback.nextAttemptAt && (
              <Typography.Text type="secondary">
                {t('attempts.next', { at: formatTime(callback.nextAttemptAt) })}
              </Typography.Text>
            )}
          </Space>
        </Descriptions.Item>
      </Descriptions>
      {attempts.isError && (
        <Alert type="error" showIcon title={t('attempts.loadFailed', { message: errorText(i18n, attempts.error) })} />
      )}
      <Table<CallbackAttemptRow>
        rowKey="id"
        size="small"
        loading={attempts.isFetching}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 'max-content' }}
        onRow={(row) => ({ 'data-testid': `callback-attempt-${row.attemptNo}` }) as React.HTMLAttributes<HTMLElement>}
        locale={{ emptyText: attempts.isError ? ' ' : <Empty description={t('attempts.empty')} /> }}
        expandable={{
          expandedRowRender: (row) => (
            <ExchangeView testId={`attempt-${row.attemptNo}`} exchange={{ ...row, createdAt: row.createdAt }} />
          ),
        }}
        columns={[
          { title: t('column.attemptNo'), dataIndex: 'attemptNo', key: 'attemptNo' },
          { title: t('column.attemptAt'), dataIndex: 'createdAt', key: 'createdAt', render: formatTime },
          {
            title: t('column.responseStatus'),
            dataIndex: 'responseStatus',
            key: 'responseStatus',
            render: (v: number | null) => statusText(t, v),
          },
          {
            title: t('column.succeeded'),
            dataIndex: 'succeeded',
            key: 'succeeded',
            render: (v: boolean) => <SucceededTag succeeded={v} />,
          },
          {
            title: t('column.durationMs'),
            dataIndex: 'durationMs',
            key: 'durationMs',
            align: 'right',
            render: (ms: number) => t('duration', { ms }),
          },
          { title: t('column.error'), dataIndex: 'error', key: 'error', render: (v: string | null) => v ?? '' },
        ]}
      />
    </Drawer>
  );
}
