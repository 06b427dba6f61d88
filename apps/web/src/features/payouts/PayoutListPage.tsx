import { endpoints, PAYOUT_PROCESS_STATES, PAYOUT_PRODUCT_IDS, type PayoutRow, routeByPath } from '@paydesk/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Space, Tabs, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { call, exportUrl } from '../../shared/api/http';
import { formatTime } from '../../shared/format/time';
import { type FilterField, type ListColumn, ListTable } from '../../shared/list/ListTable';
import { OrderUploadButton } from '../../shared/orders/OrderUpload';
import { useProductName } from '../../shared/products/productName';
import { useSession } from '../../shared/session/session';
import { payoutKeys, payoutText } from './api';
import { ClaimQueue } from './ClaimQueue';
import { NewPayoutButton } from './NewPayout';
import { usePayoutRowActions } from './PayoutActions';
import { PayoutDetailDrawer } from './PayoutDetailDrawer';
import { PayoutStateTag } from './PayoutStateTag';
import { PAYOUT_PAGES } from './pages';

/** Staff filter selects and names: merchants and suppliers (with agents), at most 500 of each. */
function useStaffOptions(enabled: boolean) {
  const merchants = useQuery({
    queryKey: payoutKeys.merchants,
    queryFn: () => call(endpoints.merchants.getList, { pageIndex: 1, pageSize: 500 }),
    enabled,
    staleTime: 60_000,
  });
  const suppliers = useQuery({
    queryKey: payoutKeys.suppliers,
    queryFn: () => call(endpoints.suppliers.getList, { pageIndex: 1, pageSize: 500 }),
    enabled,
    staleTime: 60_000,
  });
  const merchantList = merchants.data?.list ?? [];
  const supplierList = suppliers.data?.list ?? [];
  return {
    merchants: merchantList.map((m) => ({ value: String(m.id), label: `${m.name} (${m.merchantNo})` })),
    suppliers: supplierList.map((s) => ({ value: String(s.id), label: `${s.name} (${s.account})` })),
    merchantName: (id: number) => merchantList.find((m) => m.id === id)?.name,
    supplierName: (id: number) => supplierList.find((s) => s.id === id)?.name,
  };
}

/**
 * Every payout list (route names in pages.ts PAYOUT_PAGES): staff see every payout with merchant and
 * supplier filters; a supplier its own payouts (its team's under SupplierUnifyQueryGroup; with its
 * claim queue in a tab) or its agents' (isProxy); a merchant its own, with "New payout" and the payout upload (shared/orders/OrderUpload.tsx,
 * shown when orderUploadFlag opens it). Filters of spec section 3, server paging and
 * sorting, money /100 with the totals row, CSV of the filtered set, saved views, row actions by role
 * and state from each row's allowedActions, the detail drawer with the timeline and transfers, live
 * updates over the websocket ('payouts' topic).
 * Test hooks: `payout-list`, `payout-detail-<orderCode>`, `payout-tabs`, and those of PayoutActions,
 * PayoutDetailDrawer, ClaimQueue, NewPayout and the upload (`payout-upload-*`).
 */
export default function PayoutListPage() {
  const { t, i18n } = useTranslation(['payouts', 'common']);
  const queryClient = useQueryClient();
  const productName = useProductName();
  const { user, realtime } = useSession();
  // Live updates (DESIGN section 3): on a 'payouts' event the session refreshes every query under
  // `payouts` (this list, the claim queue, an open detail), so a claim or a new payout shows without a reload.
  useEffect(() => {
    realtime.subscribe('payouts');
    return () => realtime.unsubscribe('payouts');
  }, [realtime]);
  const { pathname } = useLocation();
  // `?tab=queue` opens the claim queue (the notifier's claimable-payout toast links there).
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = searchParams.get('tab') === 'queue' ? 'queue' : 'list';
  const viewKey = routeByPath(pathname)?.name ?? '';
  const config = PAYOUT_PAGES[viewKey];
  const role = user?.access;
  const mode = config?.mode ?? 'merchant';
  const staff = mode === 'staff';
  const options = useStaffOptions(staff);
  const actions = usePayoutRowActions();
  const [detail, setDetail] = useState<PayoutRow | null>(null);
  const statuses = useQuery({
    queryKey: payoutKeys.statuses,
    queryFn: () => call(endpoints.payouts.getPayoutStatusList, {}),
    staleTime: Number.POSITIVE_INFINITY,
  });

  if (!config) return null;

  /** The request of a page of the list: the page's fixed isProxy. */
  const requestOf = <F extends Record<string, unknown>>(filters: F): F =>
    config.isProxy === undefined ? filters : { ...filters, isProxy: config.isProxy };

  // The first six are what a payout is most often looked up by; the rest fold behind 'More filters'.
  const filters: FilterField[] = [
    { kind: 'text', name: 'orderCode', label: t('filter.orderCode') },
    { kind: 'text', name: 'merchantOrderId', label: t('filter.merchantOrderId') },
    { kind: 'text', name: 'utr', label: t('filter.utr') },
    { kind: 'money', name: 'amount', label: t('filter.amount') },
    {
      kind: 'select',
      name: 'payoutStatus',
      label: t('filter.state'),
      options: (statuses.data ?? []).map((s) => ({ value: String(s.id), label: t(`state.${s.id}`) })),
    },
    { kind: 'dateRange', name: 'time', label: t('filter.time') },
    {
      kind: 'select',
      name: 'processState',
      label: t('filter.processState'),
      options: PAYOUT_PROCESS_STATES.map((p) => ({ value: String(p), label: t(`processState.${p}`) })),
    },
    ...(staff
      ? ([
          { kind: 'select', name: 'merchantId', label: t('filter.merchant'), options: options.merchants },
          { kind: 'select', name: 'supplierId', label: t('filter.supplier'), options: options.suppliers },
          {
            kind: 'select',
            name: 'isProxy',
            label: t('filter.claimedBy'),
            options: [
              { value: 'true', label: t('filter.claimedByAgent') },
              { value: 'false', label: t('filter.claimedBySupplier') },
            ],
          },
        ] satisfies FilterField[])
      : []),
    {
      kind: 'select',
      name: 'productId',
      label: t('filter.product'),
      options: PAYOUT_PRODUCT_IDS.map((id) => ({ value: String(id), label: productName(id) })),
    },
    { kind: 'text', name: 'userName', label: t('filter.userName') },
    { kind: 'text', name: 'cardNumber', label: t('filter.cardNumber') },
    { kind: 'text', name: 'ifscCode', label: t('filter.ifscCode') },
    { kind: 'text', name: 'batchId', label: t('filter.batchId') },
  ];

  const text = (v: string | null) => v ?? '';
  // Shown by default: the code, state, amount, creation time and what the page's role looks payouts
  // up by; the rest are a click away in the column settings.
  const hiddenUnless = (shown: boolean) => (shown ? {} : { defaultHidden: true });
  const columns: Array<ListColumn<PayoutRow>> = [
    {
      title: t('column.orderCode'),
      dataIndex: 'orderCode',
      key: 'orderCode',
      fixed: 'left',
      render: (code: string, row) => (
        <Typography.Link data-testid={`payout-detail-${code}`} onClick={() => setDetail(row)}>
          {code}
        </Typography.Link>
      ),
    },
    {
      title: t('column.state'),
      dataIndex: 'state',
      key: 'state',
      render: (state: number, row) => <PayoutStateTag state={state} testId={`payout-state-${row.orderCode}`} />,
      phone: true,
    },
    { title: t('column.amount'), dataIndex: 'amount', key: 'amount', money: true, sortKey: 'amount', phone: true },
    {
      title: t('column.createdAt'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      sortKey: 'createdAt',
      render: formatTime,
      phone: true,
    },
    {
      title: t('column.mchOrderNo'),
      dataIndex: 'mchOrderNo',
      key: 'mchOrderNo',
      ...hiddenUnless(mode !== 'supplier'),
    },
    ...(staff
      ? [
          {
            title: t('column.merchant'),
            dataIndex: 'merchantId',
            key: 'merchantId',
            render: (id: number) => options.merchantName(id) ?? `#${id}`,
          },
          {
            title: t('column.supplier'),
            dataIndex: 'supplierId',
            key: 'supplierId',
            render: (id: number | null) => (id === null ? '' : (options.supplierName(id) ?? `#${id}`)),
            defaultHidden: true,
          },
        ]
      : []),
    {
      title: t('column.product'),
      dataIndex: 'productId',
      key: 'productId',
      render: (id: number) => productName(id),
      defaultHidden: true,
    },
    { title: t('column.fee'), dataIndex: 'fee', key: 'fee', money: true, ...hiddenUnless(mode === 'merchant') },
    ...(mode !== 'merchant'
      ? [
          {
            title: t('column.commission'),
            dataIndex: 'commission',
            key: 'commission',
            money: true,
            ...hiddenUnless(mode === 'supplier'),
          },
        ]
      : []),
    // A supplier pays these from its bank's app: on its page they are in sight (and on its cards).
    {
      title: t('column.userName'),
      dataIndex: 'userName',
      key: 'userName',
      render: text,
      phone: true,
      ...hiddenUnless(mode === 'supplier'),
    },
    {
      title: t('column.cardNumber'),
      dataIndex: 'cardNumber',
      key: 'cardNumber',
      render: text,
      ...hiddenUnless(mode === 'supplier'),
    },
    {
      title: t('column.ifscCode'),
      dataIndex: 'ifscCode',
      key: 'ifscCode',
      render: text,
      ...hiddenUnless(mode === 'supplier'),
    },
    { title: t('column.bankName'), dataIndex: 'bankName', key: 'bankName', render: text, defaultHidden: true },
    { title: t('column.bankBranch'), dataIndex: 'bankBranch', key: 'bankBranch', render: text, defaultHidden: true },
    { title: t('column.address'), dataIndex: 'address', key: 'address', render: text, defaultHidden: true },
    { title: t('column.utr'), dataIndex: 'utr', key: 'utr', render: text, ...hiddenUnless(staff) },
    { title: t('column.remark'), dataIndex: 'remark', key: 'remark', render: text, defaultHidden: true },
    {
      title: t('column.rejectReason'),
      dataIndex: 'rejectReason',
      key: 'rejectReason',
      render: text,
      defaultHidden: true,
    },
    {
      title: t('column.exceptionReason'),
      dataIndex: 'exceptionReason',
      key: 'exceptionReason',
      render: text,
      defaultHidden: true,
    },
    { title: t('column.claimedAt'), dataIndex: 'claimedAt', key: 'claimedAt', render: formatTime, defaultHidden: true },
    {
      title: t('column.completedAt'),
      dataIndex: 'completedAt',
      key: 'completedAt',
      sortKey: 'completedAt',
      render: formatTime,
      defaultHidden: true,
    },
  ];

  const list = (
    <ListTable<PayoutRow>
      testId="payout-list"
      viewKey={viewKey}
      queryKey={payoutKeys.list(viewKey)}
      rowKey="id"
      fetchPage={(p) => call(endpoints.payouts.getList, requestOf(p))}
      exportHref={(f) => exportUrl(endpoints.payouts.exportList, requestOf(f))}
      filters={filters}
      columns={columns}
      actions={actions}
      toolbar={
        mode === 'merchant' ? (
          <Space wrap>
            <NewPayoutButton />
            <OrderUploadButton
              orderType="payout"
              onDone={() => queryClient.invalidateQueries({ queryKey: payoutKeys.all })}
              rowText={(english) => payoutText(i18n, english)}
            />
          </Space>
        ) : undefined
      }
    />
  );

  return (
    <div className="page">
      {config.claimQueue ? (
        <Tabs
          data-testid="payout-tabs"
          destroyOnHidden
          activeKey={tab}
          onChange={(key) => setSearchParams(key === 'queue' ? { tab: 'queue' } : {}, { replace: true })}
          items={[
            { key: 'list', label: t('tab.list'), children: list },
            { key: 'queue', label: t('tab.queue'), children: <ClaimQueue /> },
          ]}
        />
      ) : (
        list
      )}
      {detail && (
        <PayoutDetailDrawer
          id={detail.id}
          orderCode={detail.orderCode}
          role={role}
          actions={actions}
          merchantName={staff ? options.merchantName : undefined}
          supplierName={staff ? options.supplierName : undefined}
          onClose={() => setDetail(null)}
        />
      )}
    </div>
  );
}
