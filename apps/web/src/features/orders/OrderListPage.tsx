import { endpoints, type OrderRow, PRODUCTS, routeByPath } from '@paydesk/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { call, exportUrl } from '../../shared/api/http';
import { formatTime } from '../../shared/format/time';
import { type FilterField, type ListColumn, type ListParams, ListTable } from '../../shared/list/ListTable';
import { OrderUploadButton } from '../../shared/orders/OrderUpload';
import { useProductName } from '../../shared/products/productName';
import { useSession } from '../../shared/session/session';
import { orderKeys, toOrderQuery, usdtCountText } from './api';
import { useOrderMark, useOrderRowActions } from './OrderActions';
import { OrderDetailDrawer } from './OrderDetailDrawer';
import { OrderStateTag } from './OrderStateTag';
import { PictureQueryButton, pictureQueryOffered } from './PictureQuery';
import { ORDER_PAGES } from './pages';

const COLLECTION_PRODUCTS = PRODUCTS.filter((p) => p.direction === 'collection').map((p) => p.id);
/** Realtime events arriving together are handled once (a busy platform publishes many a second). */
const LIVE_COALESCE_MS = 400;

/** What the list shows now: the request of the page on screen and its total. */
interface Shown {
  params: ListParams;
  total: number;
}

/** Staff filter selects: merchants and suppliers (with agents), at most 500 of each. */
function useStaffOptions(enabled: boolean) {
  const merchants = useQuery({
    queryKey: orderKeys.merchants,
    queryFn: () => call(endpoints.merchants.getList, { pageIndex: 1, pageSize: 500 }),
    enabled,
    staleTime: 60_000,
  });
  const suppliers = useQuery({
    queryKey: orderKeys.suppliers,
    queryFn: () => call(endpoints.suppliers.getList, { pageIndex: 1, pageSize: 500 }),
    enabled,
    staleTime: 60_000,
  });
  return {
    merchants: (merchants.data?.list ?? []).map((m) => ({ value: String(m.id), label: `${m.name} (${m.merchantNo})` })),
    suppliers: (suppliers.data?.list ?? []).map((s) => ({ value: String(s.id), label: `${s.name} (${s.account})` })),
  };
}

/**
 * Live updates (DESIGN section 3): the page subscribes to the 'orders' topic; the session refreshes
 * every query under `orders` on an event, which re-runs `orderKeys.live` here. On the first page
 * without filters or sorting the list refetches at once; once the user has paged, filtered or sorted,
 * the rows stay put and an "n new" marker counts the orders that arrived in the filtered set. A
 * (re)connection of the socket is handled like an event, for what was published meanwhile.
 */
function useLiveOrders(onEvent: () => void) {
  const { realtime, realtimeState } = useSession();
  const ticks = useRef(0);
  useEffect(() => {
    realtime.subscribe('orders');
    return () => realtime.unsubscribe('orders');
  }, [realtime]);
  const live = useQuery({
    queryKey: orderKeys.live,
    queryFn: () => ++ticks.current,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const seen = useRef<number | undefined>(undefined);
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    if (live.data === undefined) return;
    if (seen.current === undefined || live.data === seen.current) {
      seen.current = live.data;
      return;
    }
    seen.current = live.data;
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      handler.current();
    }, LIVE_COALESCE_MS);
  }, [live.data]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  // (Re)connected: what was published while the socket was down is caught up the same way.
  const previous = useRef(realtimeState);
  useEffect(() => {
    const was = previous.current;
    previous.current = realtimeState;
    if (realtimeState === 'Connected' && was !== 'Connected') handler.current();
  }, [realtimeState]);
}

/**
 * Every collection order list (route names in pages.ts ORDER_PAGES): staff see every order with
 * merchant and supplier filters; a supplier its own orders (its team's under SupplierUnifyQueryGroup)
 * or its agents' (isProxy); a merchant its own. Filters of spec section 3, server paging and sorting, money /100 with the totals row, CSV of
 * the filtered set, saved views, row actions by role and state, the detail drawer, live updates; on the
 * merchant's page the batch upload (OrderUpload.tsx); on the staff page "find by picture" while
 * AllowPictureQueryOrder is on (PictureQuery.tsx).
 * Test hooks: `order-list`, `order-detail-<orderCode>`, `order-new-marker`, and those of
 * OrderActions and OrderDetailDrawer.
 */
export default function OrderListPage() {
  const { t } = useTranslation(['orders', 'common']);
  const productName = useProductName();
  const { user } = useSession();
  const { pathname } = useLocation();
  const viewKey = routeByPath(pathname)?.name ?? '';
  const config = ORDER_PAGES[viewKey];
  const role = user?.access;
  const mode = config?.mode ?? 'merchant';
  const staff = mode === 'staff';
  const proxyPage = config?.isProxy === true;
  const options = useStaffOptions(staff);
  const actions = useOrderRowActions();
  const markCell = useOrderMark();
  const queryClient = useQueryClient();
  const [detail, setDetail] = useState<string | null>(null);
  const [newCount, setNewCount] = useState(0);
  const shown = useRef<Shown | null>(null);
  const statuses = useQuery({
    queryKey: orderKeys.statuses,
    queryFn: () => call(endpoints.orders.getOrderStatusList, {}),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const marks = useQuery({
    queryKey: orderKeys.marks,
    queryFn: () => call(endpoints.orders.getOrderMarkList, {}),
    staleTime: Number.POSITIVE_INFINITY,
  });

  /** The request of a page of the list: the page's fixed isProxy, the USDT count in micro-units. */
  const requestOf = useCallback(
    <F extends Record<string, unknown>>(filters: F) =>
      toOrderQuery(
        config?.isProxy === undefined ? filters : { ...filters, isProxy: config.isProxy },
        t('usdtCountInvalid'),
      ),
    [config?.isProxy, t],
  );

  useLiveOrders(() => {
    const now = shown.current;
    if (!now) return;
    const { pageIndex, pageSize: _size, sortBy, sortOrder: _order, ...filters } = now.params;
    if (pageIndex === 1 && !sortBy && Object.keys(filters).length === 0) {
      void queryClient.invalidateQueries({ queryKey: orderKeys.list(viewKey) });
      return;
    }
    void call(endpoints.orders.getList, { ...requestOf(filters), pageIndex: 1, pageSize: 1 })
      .then((probe) => {
        // Uncounted lists (HighPerfOrderQuery) have no total to compare: no count of new orders.
        if (probe.hasMore !== undefined) return;
        if (shown.current === now) setNewCount(Math.max(0, probe.total - now.total));
      })
      .catch(() => undefined);
  });

  if (!config) return null;

  const yesNo = [
    { value: 'true', label: t('yes') },
    { value: 'false', label: t('no') },
  ];
  // The first six are what an order is most often looked up by; the rest fold behind 'More filters'.
  const filters: FilterField[] = [
    { kind: 'text', name: 'orderCode', label: t('filter.orderCode') },
    { kind: 'text', name: 'merchantOrderId', label: t('filter.merchantOrderId') },
    { kind: 'text', name: 'utr', label: t('filter.utr') },
    { kind: 'money', name: 'amount', label: t('filter.amount') },
    {
      kind: 'select',
      name: 'orderStatusId',
      label: t('filter.state'),
      options: (statuses.data ?? []).map((s) => ({ value: String(s.id), label: t(`state.${s.id}`) })),
    },
    { kind: 'dateRange', name: 'time', label: t('filter.time') },
    ...(staff
      ? ([
          { kind: 'select', name: 'merchantId', label: t('filter.merchant'), options: options.merchants },
          { kind: 'select', name: 'supplierId', label: t('filter.supplier'), options: options.suppliers },
        ] satisfies FilterField[])
      : []),
    {
      kind: 'select',
      name: 'productId',
      label: t('filter.product'),
      options: COLLECTION_PRODUCTS.map((id) => ({ value: String(id), label: productName(id) })),
    },
    {
      kind: 'select',
      name: 'orderMark',
      label: t('filter.mark'),
      options: (marks.data ?? []).map((m) => ({ value: String(m.id), label: t(`mark.${m.id}`) })),
    },
    { kind: 'select', name: 'supplementStatus', label: t('filter.supplemented'), options: yesNo },
    {
      kind: 'select',
      name: 'supplementType',
      label: t('filter.supplementType'),
      options: [1, 2].map((v) => ({ value: String(v), label: t(`supplementType.${v}`) })),
    },
    ...(staff
      ? ([
          {
            kind: 'select',
            name: 'isProxy',
            label: t('filter.takenBy'),
            options: [
              { value: 'true', label: t('filter.takenByAgent') },
              { value: 'false', label: t('filter.takenBySupplier') },
            ],
          },
        ] satisfies FilterField[])
      : []),
    { kind: 'text', name: 'description', label: t('filter.description') },
    { kind: 'text', name: 'cardNumber', label: t('filter.cardNumber') },
    { kind: 'text', name: 'usdtAddress', label: t('filter.usdtAddress') },
    { kind: 'text', name: 'usdtCount', label: t('filter.usdtCount') },
    { kind: 'text', name: 'userName', label: t('filter.userName') },
    { kind: 'text', name: 'ifscCode', label: t('filter.ifscCode') },
    { kind: 'text', name: 'ipAddress', label: t('filter.ipAddress') },
  ];

  const text = (v: string | null) => v ?? '';
  // Shown by default: what fits a 1366 px screen beside the menu with the actions column (the code,
  // state, amount, creation time and the two or three fields the page's role looks orders up by);
  // the rest are a click away in the column settings.
  const hiddenUnless = (shown: boolean) => (shown ? {} : { defaultHidden: true });
  const columns: Array<ListColumn<OrderRow>> = [
    {
      title: t('column.orderCode'),
      dataIndex: 'orderCode',
      key: 'orderCode',
      fixed: 'left',
      render: (code: string) => (
        <Typography.Link data-testid={`order-detail-${code}`} onClick={() => setDetail(code)}>
          {code}
        </Typography.Link>
      ),
    },
    // What the agent scans first sits beside the code: the state, the amount and when it came in.
    {
      title: t('column.state'),
      dataIndex: 'state',
      key: 'state',
      render: (state: number, row) => (
        <OrderStateTag state={state} locked={row.locked} testId={`order-state-${row.orderCode}`} />
      ),
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
      title: t('column.merchantOrderNo'),
      dataIndex: 'merchantOrderNo',
      key: 'merchantOrderNo',
      phone: true,
      ...hiddenUnless(mode !== 'supplier'),
    },
    ...(mode !== 'merchant'
      ? [{ title: t('column.merchant'), dataIndex: 'merchantName', key: 'merchantName', ...hiddenUnless(staff) }]
      : []),
    {
      title: t('column.product'),
      dataIndex: 'productId',
      key: 'productId',
      render: (id: number) => productName(id),
      defaultHidden: true,
    },
    ...(mode !== 'supplier'
      ? [{ title: t('column.fee'), dataIndex: 'fee', key: 'fee', money: true, ...hiddenUnless(mode === 'merchant') }]
      : []),
    ...(mode !== 'merchant'
      ? [
          {
            title: t('column.commission'),
            dataIndex: 'commission',
            key: 'commission',
            money: true,
            defaultHidden: true,
          },
        ]
      : []),
    {
      title: t('column.mark'),
      dataIndex: 'mark',
      key: 'mark',
      render: (_: unknown, row) => markCell(row),
      defaultHidden: true,
    },
    {
      title: t('column.supplemented'),
      dataIndex: 'supplemented',
      key: 'supplemented',
      render: (v: boolean, row) =>
        v ? (row.supplementType !== null ? t(`supplementType.${row.supplementType}`) : t('yes')) : t('no'),
      defaultHidden: true,
    },
    { title: t('column.utr'), dataIndex: 'utr', key: 'utr', render: text, defaultHidden: true },
    // On a phone a supplier matches the payer's UTR and the account against its bank's app (and, for
    // Alipay by hand, the name the payer typed against the transfer's).
    {
      title: t('column.payerUtr'),
      dataIndex: 'payerUtr',
      key: 'payerUtr',
      render: (v: string | null, row) => (row.payerName ? `${v ?? ''} · ${row.payerName}` : text(v)),
      phone: true,
      ...hiddenUnless(mode === 'supplier'),
    },
    // A supplier's own page lists its team's orders too under SupplierUnifyQueryGroup: the column is
    // there to show (shown by default on the agents' page).
    ...(mode !== 'merchant'
      ? [
          {
            title: t('column.supplier'),
            dataIndex: 'supplierName',
            key: 'supplierName',
            render: text,
            ...hiddenUnless(proxyPage),
          },
        ]
      : []),
    ...(mode !== 'merchant'
      ? [
          {
            title: t('column.resource'),
            dataIndex: 'resourceName',
            key: 'resourceName',
            render: text,
            phone: true,
            ...hiddenUnless(mode === 'supplier' && !proxyPage),
          },
        ]
      : []),
    { title: t('column.userName'), dataIndex: 'userName', key: 'userName', render: text, defaultHidden: true },
    { title: t('column.cardNumber'), dataIndex: 'cardNumber', key: 'cardNumber', render: text, defaultHidden: true },
    { title: t('column.ifscCode'), dataIndex: 'ifscCode', key: 'ifscCode', render: text, defaultHidden: true },
    { title: t('column.usdtAddress'), dataIndex: 'usdtAddress', key: 'usdtAddress', render: text, defaultHidden: true },
    {
      title: t('column.usdtCount'),
      dataIndex: 'usdtCount',
      key: 'usdtCount',
      align: 'right',
      render: (v: number | null) => usdtCountText(v),
      defaultHidden: true,
    },
    { title: t('column.clientIp'), dataIndex: 'clientIp', key: 'clientIp', render: text, defaultHidden: true },
    { title: t('column.subject'), dataIndex: 'subject', key: 'subject', render: text, defaultHidden: true },
    {
      title: t('column.rejectReason'),
      dataIndex: 'rejectReason',
      key: 'rejectReason',
      render: text,
      defaultHidden: true,
    },
    {
      title: t('column.paidAt'),
      dataIndex: 'paidAt',
      key: 'paidAt',
      sortKey: 'paidAt',
      render: formatTime,
      defaultHidden: true,
    },
    { title: t('column.expiresAt'), dataIndex: 'expiresAt', key: 'expiresAt', render: formatTime, defaultHidden: true },
  ];

  return (
    <div className="page">
      <ListTable<OrderRow>
        testId="order-list"
        viewKey={viewKey}
        queryKey={orderKeys.list(viewKey)}
        rowKey="id"
        fetchPage={async (p) => {
          const page = await call(endpoints.orders.getList, requestOf(p));
          shown.current = { params: p, total: page.total };
          setNewCount(0);
          return page;
        }}
        exportHref={(f) => {
          try {
            return exportUrl(endpoints.orders.exportList, requestOf(f));
          } catch {
            // A USDT count that is not a number: the list shows why; the link keeps the other filters.
            const { usdtCount: _bad, ...rest } = f;
            return exportUrl(endpoints.orders.exportList, requestOf(rest));
          }
        }}
        filters={filters}
        columns={columns}
        actions={actions}
        toolbar={
          <>
            {staff && pictureQueryOffered(user?.pictureQueryEnabled, role) && <PictureQueryButton onOpen={setDetail} />}
            {mode === 'merchant' && (
              <OrderUploadButton
                orderType="collection"
                onDone={() => queryClient.invalidateQueries({ queryKey: orderKeys.lists })}
              />
            )}
            {newCount > 0 && (
              <Button
                type="primary"
                ghost
                data-testid="order-new-marker"
                onClick={() => {
                  setNewCount(0);
                  void queryClient.invalidateQueries({ queryKey: orderKeys.list(viewKey) });
                }}
              >
                {t('live.newOrders', { count: newCount })} · {t('live.show')}
              </Button>
            )}
          </>
        }
      />
      {detail && <OrderDetailDrawer orderCode={detail} role={role} actions={actions} onClose={() => setDetail(null)} />}
    </div>
  );
}
