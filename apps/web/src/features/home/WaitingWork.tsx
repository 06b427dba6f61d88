import {
  canAccessRoute,
  endpoints,
  ORDER_STATE,
  PAYOUT_BATCH_STATE,
  PAYOUT_STATE,
  ROUTES,
  type Role,
  TODO_READERS,
  type TodoItem,
} from '@paydesk/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Badge, Card, List, Skeleton, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorText } from '../../shared/api/errorText';
import { call } from '../../shared/api/http';
import { useSession } from '../../shared/session/session';

/**
 * Where each waiting item is done: the first of these list pages the role may open, filtered by the
 * query (the list reads its filters from the link, shared/list linkedFilters).
 */
const WORK_LINKS: Record<TodoItem, { routes: readonly string[]; query: Record<string, string | number> }> = {
  ordersToConfirm: {
    routes: ['orderList', 'orderListCustomerService', 'orderListSupplier'],
    query: { orderStatusId: ORDER_STATE.allocated },
  },
  lockedOrders: { routes: ['orderList', 'orderListCustomerService'], query: { orderMark: 1 } },
  payoutsToClaim: { routes: ['payProxyOrderListSupplier'], query: { tab: 'queue' } },
  payoutsToPay: { routes: ['payProxyOrderListSupplier'], query: { payoutStatus: PAYOUT_STATE.inProgress } },
  payoutsToConfirm: {
    routes: ['payProxyOrderList', 'payProxyOrderListCustomerService'],
    query: { payoutStatus: PAYOUT_STATE.submitted },
  },
  payoutsGivenBack: {
    routes: ['payProxyOrderList', 'payProxyOrderListCustomerService'],
    query: { payoutStatus: PAYOUT_STATE.rejecting },
  },
  payoutExceptions: {
    routes: ['payProxyOrderList', 'payProxyOrderListCustomerService'],
    query: { payoutStatus: PAYOUT_STATE.processingException },
  },
  failedCallbacks: { routes: ['orderCallback', 'orderCallbackReadOnly'], query: { state: 'failed' } },
  batchApprovals: {
    routes: ['payoutBatchList', 'payoutBatchListCustomerService'],
    query: { state: PAYOUT_BATCH_STATE.proposed },
  },
  balanceApprovals: { routes: ['merchantList', 'merchantListCustomerService'], query: {} },
};

/** Other › To-do items: the same work listed in full (staff). */
const TODO_PAGE = ROUTES.find((r) => r.name === 'todoList')!;

/** The topics whose events change some count (balance proposals announce nothing: the minute's poll). */
const LIVE_TOPICS = ['orders', 'payouts', 'payoutBatches', 'callbacks'];

/** The filter of each item's list page that finds one record by the to-do row's `ref`. */
const REF_FILTER: Partial<Record<TodoItem, string>> = {
  ordersToConfirm: 'orderCode',
  lockedOrders: 'orderCode',
  payoutsToClaim: 'orderCode',
  payoutsToPay: 'orderCode',
  payoutsToConfirm: 'orderCode',
  payoutsGivenBack: 'orderCode',
  payoutExceptions: 'orderCode',
  failedCallbacks: 'orderCode',
  batchApprovals: 'batchId',
};

/**
 * The link of `item` for `role`, or null when none of its pages is the role's. With `ref` (a to-do
 * row's), the list is filtered down to that record instead of the item's state.
 */
export function workLink(item: TodoItem, role: Role | undefined, ref?: string): string | null {
  const { routes, query } = WORK_LINKS[item];
  const route = routes.map((name) => ROUTES.find((r) => r.name === name)).find((r) => r && canAccessRoute(r, role));
  if (!route) return null;
  const refFilter = REF_FILTER[item];
  const wanted: Record<string, string | number> =
    ref !== undefined && refFilter ? { ...(query.tab ? { tab: query.tab } : {}), [refFilter]: ref } : query;
  const search = new URLSearchParams(Object.entries(wanted).map(([k, v]) => [k, String(v)])).toString();
  return search ? `${route.path}?${search}` : route.path;
}

/**
 * The counts of the work waiting for this user (GET /v1.0/todo/counts), live: refetched when orders,
 * payouts, batches or callbacks change, and every minute for what no topic announces (balance
 * proposals). Shared by the home page and the to-do page (one query, one cache entry).
 */
export function useWaitingCounts() {
  const { user, realtime } = useSession();
  const role = user?.access;
  const allowed = role !== undefined && (TODO_READERS as readonly Role[]).includes(role);
  useEffect(() => {
    if (!allowed) return;
    for (const topic of LIVE_TOPICS) realtime.subscribe(topic);
    return () => {
      for (const topic of LIVE_TOPICS) realtime.unsubscribe(topic);
    };
  }, [allowed, realtime]);
  const counts = useQuery({
    queryKey: ['todo', 'counts'],
    queryFn: () => call(endpoints.todo.counts, {}),
    enabled: allowed,
    refetchInterval: 60_000,
    meta: { liveTopics: LIVE_TOPICS },
  });
  return { allowed, role, counts };
}

/**
 * The work waiting for this user, each item with its count and a link to the list where it is done.
 * Test hooks: `home-waiting`, `waiting-<item>`.
 */
export function WaitingWork() {
  const { t, i18n } = useTranslation(['home', 'common']);
  const { allowed, role, counts } = useWaitingCounts();
  if (!allowed) return null;
  return (
    <Card
      title={t('waiting.title')}
      className="home-waiting"
      extra={
        canAccessRoute(TODO_PAGE, role) && (
          <Link to={TODO_PAGE.path} data-testid="waiting-all">
            {t('todo.all')}
          </Link>
        )
      }
    >
      {counts.isPending && <Skeleton active paragraph={{ rows: 2 }} />}
      {counts.isError && (
        <Alert type="error" showIcon title={t('common:list.loadFailed', { message: errorText(i18n, counts.error) })} />
      )}
      {counts.data && (
        <List
          data-testid="home-waiting"
          dataSource={counts.data.items}
          renderItem={({ key, count }) => {
            // Staff open the item's tab of the to-do page, which lists exactly what is counted; a
            // supplier (no to-do page) the list page where the work is done, filtered to its state.
            const link = canAccessRoute(TODO_PAGE, role) ? `${TODO_PAGE.path}?item=${key}` : workLink(key, role);
            const label = <span>{t(`waiting.item.${key}`)}</span>;
            return (
              <List.Item
                data-testid={`waiting-${key}`}
                extra={<Badge count={count} showZero color={count > 0 ? '#cf1322' : '#595959'} overflowCount={9999} />}
              >
                {link && count > 0 ? <Link to={link}>{label}</Link> : <Typography.Text>{label}</Typography.Text>}
              </List.Item>
            );
          }}
        />
      )}
    </Card>
  );
}
