import {
  endpoints,
  LAST_ORDER_ROLES,
  type LastClaimablePayout,
  PAYOUT_ACTION_ROLES,
  type Role,
} from '@paydesk/contract';
import { App, Button } from 'antd';
import { type ReactNode, useEffect, useRef, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { labelOr } from '../../i18n/labelOr';
import { call } from '../../shared/api/http';
import { getToken, onTokenChange } from '../../shared/api/session-storage';
import { formatMoney } from '../../shared/format/money';
import { useSession } from '../../shared/session/session';
import {
  type LastOrder,
  type Notified,
  NewOrderNotifier as Notifier,
  type NotifierOptions,
  playChime,
  TOAST_SECONDS,
} from './notifier';
import { CLAIM_QUEUE_PATH, orderListPathFor } from './pages';

/** A newer payout (by id) than the one last alerted is news; an older one back in the answer is not. */
const newerPayout = (p: LastClaimablePayout, known: LastClaimablePayout | null) => known === null || p.id > known.id;

/** Polls with a NewOrderNotifier while `enabled`; `alert` may change between renders. */
function useNotifier<T extends Notified>(
  enabled: boolean,
  fetchLast: () => Promise<T | null>,
  alert: (item: T) => void,
  rules: Pick<NotifierOptions<T>, 'isNew' | 'isPending'> = {},
) {
  const alertRef = useRef(alert);
  alertRef.current = alert;
  const setup = useRef({ fetchLast, rules });
  useEffect(() => {
    if (!enabled) return;
    const notifier = new Notifier<T>({
      fetchLast: setup.current.fetchLast,
      alert: (item) => alertRef.current(item),
      ...setup.current.rules,
    });
    notifier.start();
    return () => notifier.stop();
  }, [enabled]);
}

/**
 * The console's new-order alert (spec sections 1 and 9), mounted once by the shell: for every role
 * that may poll the latest order (not merchants), while signed in. It stops when the token goes
 * (logout, a failed user-info load, an expired session) and when the shell unmounts.
 * A supplier is also alerted, with the same sound and toast rules, to a new payout it can claim now
 * (`lastClaimable`: its claim queue, its deposit, its room), with a button to its claim queue.
 * Test hooks: the toasts carry `new-order-toast` and `new-payout-toast`.
 */
export function NewOrderNotifier({ playSound = playChime }: { playSound?: () => void }) {
  const { user } = useSession();
  const { t, i18n } = useTranslation('orders');
  const { notification } = App.useApp();
  const navigate = useNavigate();
  const hasToken = useSyncExternalStore(onTokenChange, () => getToken() !== null);
  const role = user?.access;
  const may = (roles: readonly Role[]) => hasToken && role !== undefined && roles.includes(role) && role !== 'merchant';

  const toast = (
    key: string,
    title: string,
    description: ReactNode,
    action: { label: string; path: string } | null,
  ) => {
    playSound();
    notification.info({
      key,
      title,
      description,
      duration: TOAST_SECONDS,
      placement: 'bottomRight',
      actions: action ? (
        <Button
          size="small"
          type="primary"
          onClick={() => {
            notification.destroy(key);
            navigate(action.path);
          }}
        >
          {action.label}
        </Button>
      ) : undefined,
    });
  };

  useNotifier<LastOrder>(
    may(LAST_ORDER_ROLES),
    () => call(endpoints.orders.getLastOrder, {}),
    (order) => {
      const listPath = role ? orderListPathFor(role) : null;
      toast(
        `new-order-${order.orderCode}`,
        t('notifier.title'),
        <span data-testid="new-order-toast">
          {t('notifier.body', {
            orderCode: order.orderCode,
            state: labelOr(i18n, `orders:state.${order.state}`, String(order.state)),
          })}
        </span>,
        listPath ? { label: t('notifier.view'), path: listPath } : null,
      );
    },
  );

  useNotifier<LastClaimablePayout>(
    may(PAYOUT_ACTION_ROLES.claim),
    () => call(endpoints.payouts.lastClaimable, {}),
    (payout) =>
      toast(
        `new-payout-${payout.orderCode}`,
        t('notifier.payoutTitle'),
        <span data-testid="new-payout-toast">
          {t('notifier.payoutBody', {
            orderCode: payout.orderCode,
            amount: formatMoney(payout.amount, i18n.language),
          })}
        </span>,
        { label: t('notifier.claimQueue'), path: CLAIM_QUEUE_PATH },
      ),
    // The server answers only what the supplier can claim now: the alert repeats while it still does.
    { isNew: newerPayout, isPending: () => true },
  );

  return null;
}
