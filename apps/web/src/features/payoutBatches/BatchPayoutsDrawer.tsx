import { endpoints, type PayoutBatchRow, type PayoutRow, type Role } from '@paydesk/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Drawer, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/http';
import { formatMoney } from '../../shared/format/money';
import { formatTime } from '../../shared/format/time';
import { useNarrow } from '../../shared/layout/useNarrow';
import { RowActionBar, type RowActions } from '../../shared/list/rowActions';
import { batchKeys, load } from './api';
import { BatchStateTag } from './BatchStateTag';

const PAGE_SIZE = 50;

/**
 * A batch and the payouts it holds (oldest first, 50 a page, with the totals of all of them): what
 * staff check before proposing or approving it, and what the bank file lists. The batch's actions sit
 * in the header (on a phone, under the details).
 * Test hooks: `batch-drawer`, `batch-payouts`, `batch-payouts-total`, `batch-payout-<orderCode>`,
 * `batch-payouts-error`.
 */
export function BatchPayoutsDrawer(props: {
  batch: PayoutBatchRow;
  role: Role | undefined;
  actions: RowActions<PayoutBatchRow>;
  onClose(): void;
}) {
  const { t, i18n } = useTranslation(['payoutBatches', 'common']);
  const narrow = useNarrow();
  const { batch } = props;
  const [pageIndex, setPageIndex] = useState(1);
  const payouts = useQuery({
    queryKey: [...batchKeys.payouts(batch.id), pageIndex],
    queryFn: () =>
      load(i18n, 'orderList', () =>
        call(endpoints.payoutBatches.getPayouts, { batchId: batch.id, pageIndex, pageSize: PAGE_SIZE }),
      ),
    placeholderData: keepPreviousData,
  });
  const money = (v: number | null | undefined) => formatMoney(v, i18n.language);
  const text = (v: string | null) => v ?? '';
  const summary = payouts.data?.summary;
  const bar = <RowActionBar actions={props.actions} role={props.role} row={batch} />;

  return (
    <Drawer
      open
      size="large"
      title={t('drawer.title', { id: batch.id })}
      onClose={props.onClose}
      destroyOnHidden
      data-testid="batch-drawer"
      extra={!narrow && bar}
    >
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Descriptions
          size="small"
          bordered
          column={narrow ? 1 : 2}
          items={[
            { key: 'state', label: t('column.state'), children: <BatchStateTag state={batch.state} /> },
            { key: 'resource', label: t('column.resource'), children: batch.resourceName },
            { key: 'supplier', label: t('column.supplier'), children: batch.supplierName },
            {
              key: 'template',
              label: t('column.template'),
              children: t(`template.${batch.templateId}`, { defaultValue: batch.templateId }),
            },
            { key: 'payoutTime', label: t('column.payoutTime'), children: batch.payoutTime },
            { key: 'orderCount', label: t('column.orderCount'), children: batch.orderCount },
            { key: 'totalAmount', label: t('column.totalAmount'), children: money(batch.totalAmount) },
            {
              key: 'settled',
              label: t('column.settled'),
              children: `${batch.completedCount} / ${batch.failedCount}`,
            },
            {
              key: 'createdBy',
              label: t('column.createdBy'),
              children: `${batch.createdBy} · ${formatTime(batch.createdAt)}`,
            },
            {
              key: 'proposedBy',
              label: t('column.proposedBy'),
              children: batch.proposedBy ? `${batch.proposedBy} · ${formatTime(batch.proposedAt)}` : '',
            },
            {
              key: 'approvedBy',
              label: t('column.approvedBy'),
              children: batch.approvedBy ? `${batch.approvedBy} · ${formatTime(batch.approvedAt)}` : '',
            },
            { key: 'fileName', label: t('column.fileName'), children: text(batch.fileName) },
            {
              key: 'fileHash',
              label: t('column.fileHash'),
              children: batch.fileHash ? (
                <Typography.Text code copyable>
                  {batch.fileHash}
                </Typography.Text>
              ) : (
                ''
              ),
            },
            ...(batch.abnormalReason
              ? [{ key: 'abnormalReason', label: t('column.abnormalReason'), children: batch.abnormalReason }]
              : []),
          ]}
        />
        {narrow && bar}
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('drawer.payouts')}
        </Typography.Title>
        {payouts.isError && (
          <Alert type="error" showIcon data-testid="batch-payouts-error" title={payouts.error.message} />
        )}
        {summary && (
          <Typography.Text data-testid="batch-payouts-total">
            {t('drawer.total', {
              count: payouts.data?.total ?? 0,
              amount: money(summary.amount),
              fee: money(summary.fee),
            })}
          </Typography.Text>
        )}
        <Table<PayoutRow>
          data-testid="batch-payouts"
          size="small"
          rowKey="id"
          loading={payouts.isFetching}
          dataSource={payouts.data?.list ?? []}
          locale={{ emptyText: payouts.isError ? ' ' : t('drawer.empty') }}
          scroll={{ x: 'max-content' }}
          pagination={{
            current: pageIndex,
            pageSize: PAGE_SIZE,
            total: payouts.data?.total ?? 0,
            showSizeChanger: false,
            onChange: setPageIndex,
          }}
          columns={[
            {
              title: t('drawer.orderCode'),
              dataIndex: 'orderCode',
              key: 'orderCode',
              render: (code: string) => <span data-testid={`batch-payout-${code}`}>{code}</span>,
            },
            { title: t('drawer.amount'), dataIndex: 'amount', key: 'amount', align: 'right', render: money },
            {
              title: t('drawer.state'),
              dataIndex: 'state',
              key: 'state',
              render: (s: number) => t(`payoutState.${s}`, { defaultValue: String(s) }),
            },
            { title: t('drawer.payee'), dataIndex: 'userName', key: 'userName', render: text },
            { title: t('drawer.cardNumber'), dataIndex: 'cardNumber', key: 'cardNumber', render: text },
            { title: t('drawer.ifscCode'), dataIndex: 'ifscCode', key: 'ifscCode', render: text },
            { title: t('drawer.utr'), dataIndex: 'utr', key: 'utr', render: text },
            { title: t('drawer.fee'), dataIndex: 'fee', key: 'fee', align: 'right', render: money },
            { title: t('drawer.mchOrderNo'), dataIndex: 'mchOrderNo', key: 'mchOrderNo' },
          ]}
        />
      </Space>
    </Drawer>
  );
}
