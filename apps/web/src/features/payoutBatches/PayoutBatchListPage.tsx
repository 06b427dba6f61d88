import { PlusOutlined } from '@ant-design/icons';
import { BANK_TEMPLATE_IDS, endpoints, PAYOUT_BATCH_STATE, type PayoutBatchRow, routeByPath } from '@paydesk/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { call, exportUrl } from '../../shared/api/http';
import { formatTime } from '../../shared/format/time';
import { type FilterField, type ListColumn, ListTable } from '../../shared/list/ListTable';
import { useProductName } from '../../shared/products/productName';
import { useSession } from '../../shared/session/session';
import { batchKeys, load, useMay } from './api';
import { useBatchRowActions } from './BatchActions';
import { BatchPayoutsDrawer } from './BatchPayoutsDrawer';
import { BatchStateTag } from './BatchStateTag';
import { CreateBatchModal } from './CreateBatchModal';

const api = endpoints.payoutBatches;

/**
 * Batch payouts (/payoutBatch/list for superAdmin, admin and supplier; /payoutBatch/list/customerService):
 * the batches (a supplier: those of its own payout accounts) with the spec's filters, paging, the
 * totals, CSV of the filtered set; "New batch" for the staff who make batches; each row's actions
 * from its allowedActions (propose, approve with token2 by another account, export and download the
 * bank file, upload the bank's result, mark abnormal); the drawer with the batch's payouts; live
 * updates over the websocket ('payoutBatches' topic).
 * Test hooks: `batch-list`, `batch-row-<id>` (the batch number, opens the drawer), `batch-state-<id>`,
 * `batch-payouts-<id>`, `batch-create-open`, and those of BatchActions, CreateBatchModal,
 * BatchPayoutsDrawer and ResultUpload.
 */
export default function PayoutBatchListPage() {
  const { t, i18n } = useTranslation(['payoutBatches', 'common']);
  const productName = useProductName();
  const queryClient = useQueryClient();
  const { user, realtime } = useSession();
  // Live updates (DESIGN section 3): a batch made, confirmed, settled or marked abnormal elsewhere is
  // published on 'payoutBatches'; the session then refetches the list and an open batch's payouts.
  useEffect(() => {
    realtime.subscribe('payoutBatches');
    return () => realtime.unsubscribe('payoutBatches');
  }, [realtime]);
  const { pathname } = useLocation();
  const viewKey = routeByPath(pathname)?.name ?? 'payoutBatchList';
  const mayCreate = useMay(api.create);
  const mayPickResource = useMay(api.getResourceList);
  const mayPickSupplier = useMay(endpoints.suppliers.getList) && user?.access !== 'supplier';
  const [creating, setCreating] = useState(false);
  const [open, setOpen] = useState<PayoutBatchRow | null>(null);

  const resources = useQuery({
    queryKey: batchKeys.resources,
    queryFn: () => load(i18n, 'resourceList', () => call(api.getResourceList, {})),
    enabled: mayPickResource,
  });
  const suppliers = useQuery({
    queryKey: batchKeys.suppliers,
    queryFn: () => call(endpoints.suppliers.getList, { pageIndex: 1, pageSize: 500 }),
    enabled: mayPickSupplier,
    staleTime: 60_000,
  });

  const reload = () => queryClient.invalidateQueries({ queryKey: batchKeys.lists });
  const actions = useBatchRowActions(reload, (row) => (
    <Button type="link" size="small" data-testid={`batch-payouts-${row.id}`} onClick={() => setOpen(row)}>
      {t('action.payouts')}
    </Button>
  ));

  const filters: FilterField[] = [
    { kind: 'number', name: 'batchId', label: t('filter.batchId') },
    {
      kind: 'select',
      name: 'state',
      label: t('filter.state'),
      options: Object.values(PAYOUT_BATCH_STATE).map((s) => ({ value: String(s), label: t(`state.${s}`) })),
    },
    ...(mayPickResource
      ? ([
          {
            kind: 'select',
            name: 'resourceId',
            label: t('filter.resource'),
            options: (resources.data ?? []).map((r) => ({
              value: String(r.id),
              label: `${r.name} · ${r.supplierName}`,
            })),
          },
        ] satisfies FilterField[])
      : []),
    ...(mayPickSupplier
      ? ([
          {
            kind: 'select',
            name: 'supplierId',
            label: t('filter.supplier'),
            options: (suppliers.data?.list ?? []).map((s) => ({
              value: String(s.id),
              label: `${s.name} (${s.account})`,
            })),
          },
        ] satisfies FilterField[])
      : []),
    {
      kind: 'select',
      name: 'templateId',
      label: t('filter.template'),
      options: BANK_TEMPLATE_IDS.map((id) => ({ value: id, label: t(`template.${id}`) })),
    },
    { kind: 'dateRange', name: 'time', label: t('filter.time') },
  ];

  const text = (v: string | null) => v ?? '';
  const by = (who: string | null, when: string | null) => (who ? `${who} · ${formatTime(when)}` : '');
  const columns: Array<ListColumn<PayoutBatchRow>> = [
    {
      title: t('column.id'),
      dataIndex: 'id',
      key: 'id',
      fixed: 'left',
      phone: 'title',
      render: (id: number, row) => (
        <Typography.Link data-testid={`batch-row-${id}`} onClick={() => setOpen(row)}>
          #{id}
        </Typography.Link>
      ),
    },
    {
      title: t('column.state'),
      dataIndex: 'state',
      key: 'state',
      phone: 'extra',
      render: (s: number, row) => <BatchStateTag state={s} testId={`batch-state-${row.id}`} />,
    },
    { title: t('column.resource'), dataIndex: 'resourceName', key: 'resourceName', phone: true },
    { title: t('column.supplier'), dataIndex: 'supplierName', key: 'supplierName' },
    { title: t('column.orderCount'), dataIndex: 'orderCount', key: 'orderCount', align: 'right', phone: true },
    { title: t('column.totalAmount'), dataIndex: 'totalAmount', key: 'totalAmount', money: true, phone: true },
    { title: t('column.payoutTime'), dataIndex: 'payoutTime', key: 'payoutTime', phone: true },
    {
      title: t('column.template'),
      dataIndex: 'templateId',
      key: 'templateId',
      render: (id: string) => t(`template.${id}`, { defaultValue: id }),
      defaultHidden: true,
    },
    {
      title: t('column.settled'),
      key: 'settled',
      render: (_: unknown, row) => `${row.completedCount} / ${row.failedCount}`,
    },
    {
      title: t('column.proposedBy'),
      dataIndex: 'proposedBy',
      key: 'proposedBy',
      render: (who: string | null, row) => by(who, row.proposedAt),
    },
    {
      title: t('column.approvedBy'),
      dataIndex: 'approvedBy',
      key: 'approvedBy',
      render: (who: string | null, row) => by(who, row.approvedAt),
      defaultHidden: true,
    },
    { title: t('column.createdBy'), dataIndex: 'createdBy', key: 'createdBy', defaultHidden: true },
    {
      title: t('column.product'),
      dataIndex: 'productId',
      key: 'productId',
      render: (id: number) => productName(id),
      defaultHidden: true,
    },
    { title: t('column.minAmount'), dataIndex: 'minAmount', key: 'minAmount', money: true, defaultHidden: true },
    { title: t('column.maxAmount'), dataIndex: 'maxAmount', key: 'maxAmount', money: true, defaultHidden: true },
    { title: t('column.maxCount'), dataIndex: 'maxCount', key: 'maxCount', align: 'right', defaultHidden: true },
    { title: t('column.fileName'), dataIndex: 'fileName', key: 'fileName', render: text, defaultHidden: true },
    {
      title: t('column.fileHash'),
      dataIndex: 'fileHash',
      key: 'fileHash',
      render: text,
      ellipsis: { showTitle: true },
      width: 200,
      defaultHidden: true,
    },
    {
      title: t('column.exportedAt'),
      dataIndex: 'exportedAt',
      key: 'exportedAt',
      render: formatTime,
      defaultHidden: true,
    },
    {
      title: t('column.resultUploads'),
      dataIndex: 'resultUploads',
      key: 'resultUploads',
      align: 'right',
      defaultHidden: true,
    },
    {
      title: t('column.abnormalReason'),
      dataIndex: 'abnormalReason',
      key: 'abnormalReason',
      render: text,
      defaultHidden: true,
    },
    { title: t('column.createdAt'), dataIndex: 'createdAt', key: 'createdAt', render: formatTime },
    {
      title: t('column.updatedAt'),
      dataIndex: 'updatedAt',
      key: 'updatedAt',
      render: formatTime,
      defaultHidden: true,
    },
  ];

  return (
    <div className="page">
      <ListTable<PayoutBatchRow>
        testId="batch-list"
        viewKey={viewKey}
        queryKey={batchKeys.list(viewKey)}
        rowKey="id"
        fetchPage={async (p) => {
          const page = await load(i18n, 'batchList', () => call(api.getList, p));
          // The drawer follows its batch as the list reloads (after an action, say).
          setOpen((o) => (o ? (page.list.find((r) => r.id === o.id) ?? o) : o));
          return page;
        }}
        exportHref={(f) => exportUrl(api.exportList, f)}
        filters={filters}
        columns={columns}
        actions={actions}
        toolbar={
          mayCreate && (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              data-testid="batch-create-open"
              onClick={() => setCreating(true)}
            >
              {t('action.create')}
            </Button>
          )
        }
      />
      {creating && <CreateBatchModal onClose={() => setCreating(false)} onCreated={reload} />}
      {open && <BatchPayoutsDrawer batch={open} role={user?.access} actions={actions} onClose={() => setOpen(null)} />}
    </div>
  );
}
