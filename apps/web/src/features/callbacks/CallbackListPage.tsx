import { DeleteOutlined, RedoOutlined } from '@ant-design/icons';
import {
  CALLBACK_ORDER_TYPES,
  CALLBACK_STATES,
  CALLBACK_TRIGGERS,
  type CallbackOrderType,
  type CallbackRow,
  type CallbackState,
  type CallbackTrigger,
  callbackActionRefusal,
  endpoints,
} from '@paydesk/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, exportUrl } from '../../shared/api/http';
import { formatTime } from '../../shared/format/time';
import { type FilterField, type ListColumn, ListTable } from '../../shared/list/ListTable';
import { endpointRoles, type RowActions, rowAction } from '../../shared/list/rowActions';
import { callbackKeys, useLiveCallbacks, useMay, useRouteName } from './api';
import { CallbackAttemptsDrawer } from './CallbackAttemptsDrawer';
import { CallbackStateTag, OrderTypeTag, statusText, useOrderStateText } from './Exchange';

/**
 * System management › order callback info (/system/orderCallback and its read-only variant): one row
 * per callback (the payment's, a manual trigger's, a replay's; of a collection order or of a payout,
 * its kind shown) with its state, attempts and the latest answer; the spec's filters (orderCode,
 * merchantOrderNo) plus state, trigger, kind and time; paging, sorting,
 * CSV of the filtered set; live over the 'callbacks' topic. Row actions: the attempts drawer for every
 * reader; replay (paid orders) and delete (refused by the server while pending) for the roles the
 * contract lists, never on the read-only route.
 * Test hooks: `callback-list`, `callback-row-<id>` (on the order code), `callback-state-<id>`,
 * `callback-attempts-<id>`, `callback-replay-<id>`, `callback-delete-<id>`, `callback-type-<id>`,
 * `callback-ok` (rowActions.tsx).
 */
export default function CallbackListPage() {
  const { t } = useTranslation(['callbacks', 'common']);
  const orderState = useOrderStateText();
  const queryClient = useQueryClient();
  const viewKey = useRouteName('orderCallback');
  const mayReplay = useMay(endpoints.callbacks.replay);
  const mayDelete = useMay(endpoints.callbacks.delete);
  const [open, setOpen] = useState<CallbackRow | null>(null);
  useLiveCallbacks();

  const refresh = () => queryClient.invalidateQueries({ queryKey: callbackKeys.lists });
  // Replay (paid orders) and delete (the server refuses while pending), never on the read-only route.
  const actions: RowActions<CallbackRow> = {
    actions: [
      rowAction<CallbackRow>({
        key: 'replay',
        label: 'callbacks:action.replay',
        success: 'callbacks:done.replay',
        confirm: 'callbacks:confirm.replay',
        icon: <RedoOutlined />,
        roles: mayReplay ? endpointRoles(endpoints.callbacks.replay) : [],
        token2: endpoints.callbacks.replay.token2,
        allowed: (row) => callbackActionRefusal('replay', row) === null,
        run: (row) => call(endpoints.callbacks.replay, { id: row.id }),
      }),
      rowAction<CallbackRow>({
        key: 'delete',
        label: 'callbacks:action.delete',
        success: 'callbacks:done.delete',
        confirm: 'callbacks:confirm.delete',
        icon: <DeleteOutlined />,
        danger: true,
        roles: mayDelete ? endpointRoles(endpoints.callbacks.delete) : [],
        token2: endpoints.callbacks.delete.token2,
        allowed: (row) => callbackActionRefusal('delete', row) === null,
        run: (row) => call(endpoints.callbacks.delete, { ids: [row.id] }),
      }),
    ],
    testIdPrefix: 'callback',
    testIdOf: (row) => String(row.id),
    textValues: (row) => ({ orderCode: row.orderCode, url: row.url }),
    failed: null,
    onDone: refresh,
    // Every reader opens the attempts.
    before: (row) => (
      <Button type="link" size="small" data-testid={`callback-attempts-${row.id}`} onClick={() => setOpen(row)}>
        {t('action.attempts')}
      </Button>
    ),
  };

  const filters: FilterField[] = [
    { kind: 'text', name: 'orderCode', label: t('filter.orderCode') },
    { kind: 'text', name: 'merchantOrderNo', label: t('filter.merchantOrderNo') },
    {
      kind: 'select',
      name: 'state',
      label: t('filter.state'),
      options: CALLBACK_STATES.map((s) => ({ value: s, label: t(`state.${s}`) })),
    },
    {
      kind: 'select',
      name: 'trigger',
      label: t('filter.trigger'),
      options: CALLBACK_TRIGGERS.map((s) => ({ value: s, label: t(`trigger.${s}`) })),
    },
    {
      kind: 'select',
      name: 'orderType',
      label: t('filter.orderType'),
      options: CALLBACK_ORDER_TYPES.map((s) => ({ value: s, label: t(`orderType.${s}`) })),
    },
    { kind: 'dateRange', name: 'time', label: t('filter.time') },
  ];

  const columns: Array<ListColumn<CallbackRow>> = [
    { title: t('column.id'), dataIndex: 'id', key: 'id', defaultHidden: true },
    {
      title: t('column.orderCode'),
      dataIndex: 'orderCode',
      key: 'orderCode',
      fixed: 'left',
      render: (code: string, row) => <span data-testid={`callback-row-${row.id}`}>{code}</span>,
    },
    {
      title: t('column.orderType'),
      dataIndex: 'orderType',
      key: 'orderType',
      render: (v: CallbackOrderType, row) => <OrderTypeTag type={v} testId={`callback-type-${row.id}`} />,
    },
    { title: t('column.merchantOrderNo'), dataIndex: 'merchantOrderNo', key: 'merchantOrderNo' },
    {
      title: t('column.merchant'),
      dataIndex: 'merchantName',
      key: 'merchantName',
      render: (name: string, row) => `${name} (${row.merchantNo})`,
    },
    {
      title: t('column.orderState'),
      dataIndex: 'orderState',
      key: 'orderState',
      render: (s: number, row) => orderState(row.orderType, s),
    },
    {
      title: t('column.url'),
      dataIndex: 'url',
      key: 'url',
      width: 260,
      ellipsis: { showTitle: true },
    },
    {
      title: t('column.state'),
      dataIndex: 'state',
      key: 'state',
      render: (s: CallbackState, row) => <CallbackStateTag state={s} testId={`callback-state-${row.id}`} />,
    },
    {
      title: t('column.trigger'),
      dataIndex: 'trigger',
      key: 'trigger',
      render: (v: CallbackTrigger) => t(`trigger.${v}`),
    },
    { title: t('column.attempts'), dataIndex: 'attempts', key: 'attempts', align: 'right', sortKey: 'attempts' },
    {
      title: t('column.lastStatus'),
      dataIndex: 'lastStatus',
      key: 'lastStatus',
      render: (v: number | null, row) => (row.attempts === 0 ? '' : statusText(t, v)),
    },
    {
      title: t('column.lastError'),
      dataIndex: 'lastError',
      key: 'lastError',
      width: 220,
      ellipsis: { showTitle: true },
      render: (v: string | null) => (v ? <Typography.Text type="danger">{v}</Typography.Text> : ''),
    },
    { title: t('column.lastAttemptAt'), dataIndex: 'lastAttemptAt', key: 'lastAttemptAt', render: formatTime },
    { title: t('column.nextAttemptAt'), dataIndex: 'nextAttemptAt', key: 'nextAttemptAt', render: formatTime },
    { title: t('column.notificationId'), dataIndex: 'notificationId', key: 'notificationId', defaultHidden: true },
    {
      title: t('column.createdAt'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      sortKey: 'createdAt',
      render: formatTime,
    },
    {
      title: t('column.updatedAt'),
      dataIndex: 'updatedAt',
      key: 'updatedAt',
      sortKey: 'updatedAt',
      render: formatTime,
      defaultHidden: true,
    },
  ];

  return (
    <div className="page">
      <ListTable<CallbackRow>
        testId="callback-list"
        viewKey={viewKey}
        queryKey={callbackKeys.list}
        rowKey="id"
        fetchPage={async (p) => {
          const page = await call(endpoints.callbacks.getList, p);
          // The drawer follows its callback's state as the list refreshes.
          setOpen((o) => (o ? (page.list.find((r) => r.id === o.id) ?? o) : o));
          return page;
        }}
        exportHref={(f) => exportUrl(endpoints.callbacks.exportList, f)}
        filters={filters}
        columns={columns}
        actions={actions}
        toolbar={<Typography.Text type="secondary">{t('live')}</Typography.Text>}
      />
      {open && <CallbackAttemptsDrawer callback={open} onClose={() => setOpen(null)} />}
    </div>
  );
}
