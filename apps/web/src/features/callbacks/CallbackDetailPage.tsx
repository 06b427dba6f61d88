import {
  CALLBACK_ORDER_TYPES,
  type CallbackAttemptRow,
  type CallbackOrderType,
  type CallbackTrigger,
  endpoints,
} from '@paydesk/contract';
import { Button, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, exportUrl } from '../../shared/api/http';
import { formatTime } from '../../shared/format/time';
import { type FilterField, type ListColumn, ListTable } from '../../shared/list/ListTable';
import { callbackKeys, useLiveCallbacks, useRouteName } from './api';
import { ExchangeView, OrderTypeTag, SucceededTag, statusText } from './Exchange';

/**
 * System management › order callback detail (/system/orderCallbackDetail and its read-only variant):
 * every delivery attempt, newest first (of collection orders' and payouts' callbacks, the kind shown),
 * with the spec's filters (orderCode, merchantOrderCode, httpMethod, times) plus the callback, success,
 * kind and time; paging; CSV of the filtered set; live over
 * the 'callbacks' topic. A row's request and answer open in a dialog, monospace. Reading only: the
 * page has no actions that change anything. Test hooks: `attempt-list`, `attempt-view-<id>`,
 * `attempt-exchange` (the dialog's exchange, see ExchangeView).
 */
export default function CallbackDetailPage() {
  const { t } = useTranslation(['callbacks', 'common']);
  const viewKey = useRouteName('orderCallbackDetail');
  const [shown, setShown] = useState<CallbackAttemptRow | null>(null);
  useLiveCallbacks();

  const yesNo = [
    { value: 'true', label: t('yes') },
    { value: 'false', label: t('no') },
  ];
  const filters: FilterField[] = [
    { kind: 'text', name: 'orderCode', label: t('filter.orderCode') },
    { kind: 'text', name: 'merchantOrderCode', label: t('filter.merchantOrderCode') },
    {
      kind: 'select',
      name: 'httpMethod',
      label: t('filter.httpMethod'),
      options: ['POST', 'GET'].map((m) => ({ value: m, label: m })),
    },
    { kind: 'number', name: 'times', label: t('filter.times') },
    { kind: 'select', name: 'succeeded', label: t('filter.succeeded'), options: yesNo },
    { kind: 'number', name: 'callbackId', label: t('filter.callbackId') },
    {
      kind: 'select',
      name: 'orderType',
      label: t('filter.orderType'),
      options: CALLBACK_ORDER_TYPES.map((s) => ({ value: s, label: t(`orderType.${s}`) })),
    },
    { kind: 'dateRange', name: 'time', label: t('filter.time') },
  ];

  const columns: Array<ListColumn<CallbackAttemptRow>> = [
    { title: t('column.orderCode'), dataIndex: 'orderCode', key: 'orderCode', fixed: 'left' },
    {
      title: t('column.orderType'),
      dataIndex: 'orderType',
      key: 'orderType',
      render: (v: CallbackOrderType) => <OrderTypeTag type={v} />,
    },
    { title: t('column.merchantOrderNo'), dataIndex: 'merchantOrderNo', key: 'merchantOrderNo' },
    { title: t('column.id'), dataIndex: 'callbackId', key: 'callbackId', defaultHidden: true },
    {
      title: t('column.trigger'),
      dataIndex: 'trigger',
      key: 'trigger',
      render: (v: CallbackTrigger) => t(`trigger.${v}`),
    },
    { title: t('column.attemptNo'), dataIndex: 'attemptNo', key: 'attemptNo', align: 'right' },
    { title: t('column.url'), dataIndex: 'url', key: 'url', width: 260, ellipsis: { showTitle: true } },
    { title: t('column.httpMethod'), dataIndex: 'httpMethod', key: 'httpMethod' },
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
      render: (v: boolean, row) => <SucceededTag succeeded={v} testId={`attempt-succeeded-${row.id}`} />,
    },
    {
      title: t('column.durationMs'),
      dataIndex: 'durationMs',
      key: 'durationMs',
      align: 'right',
      render: (ms: number) => t('duration', { ms }),
    },
    {
      title: t('column.error'),
      dataIndex: 'error',
      key: 'error',
      width: 220,
      ellipsis: { showTitle: true },
      render: (v: string | null) => (v ? <Typography.Text type="danger">{v}</Typography.Text> : ''),
    },
    { title: t('column.attemptAt'), dataIndex: 'createdAt', key: 'createdAt', render: formatTime },
    {
      title: t('column.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_: unknown, row) => (
        <Button type="link" size="small" data-testid={`attempt-view-${row.id}`} onClick={() => setShown(row)}>
          {t('action.view')}
        </Button>
      ),
    },
  ];

  return (
    <div className="page">
      <ListTable<CallbackAttemptRow>
        testId="attempt-list"
        viewKey={viewKey}
        queryKey={callbackKeys.attemptList}
        rowKey="id"
        fetchPage={(p) => call(endpoints.callbacks.getDetailList, p)}
        exportHref={(f) => exportUrl(endpoints.callbacks.exportDetailList, f)}
        filters={filters}
        columns={columns}
        toolbar={<Typography.Text type="secondary">{t('live')}</Typography.Text>}
      />
      {shown && (
        <Modal
          open
          width={820}
          title={t('exchange.title', { attemptNo: shown.attemptNo, orderCode: shown.orderCode })}
          onCancel={() => setShown(null)}
          footer={null}
          destroyOnHidden
        >
          <ExchangeView testId="attempt-exchange" exchange={shown} />
        </Modal>
      )}
    </div>
  );
}
