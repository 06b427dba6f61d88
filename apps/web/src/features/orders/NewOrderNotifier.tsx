import { endpoints, LAST_ORDER_ROLES, type Role } from '@paydesk/contract';
import { App, Button } from 'antd';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { labelOr } from '../../i18n/labelOr';
import { call } from '../../shared/api/http';
import { getToken, onTokenChange } from '../../shared/api/session-storage';
import { useSession } from '../../shared/session/session';
import { type LastOrder, NewOrderNotifier as Notifier, playChime, TOAST_SECONDS } from './notifier';
import { orderListPathFor } from './pages';

/**
 * The console's new-order alert (spec sections 1 and 9), mounted once by the shell: for every role
 * that may poll the latest order (not merchants), while signed in. It stops when the token goes
 * (logout, a failed user-info load, an expired session) and when the shell unmounts.
 * Test hook: the toast carries `new-order-toast`.
 */
export function NewOrderNotifier({ playSound = playChime }: { playSound?: () => void }) {
  const { user } = useSession();
  const { t, i18n } = useTranslation('orders');
  const { notification } = App.useApp();
  const navigate = useNavigate();
  const hasToken = useSyncExternalStore(onTokenChange, () => getToken() !== null);
  const role = user?.access;
  const enabled =
    hasToken && role !== undefined && (LAST_ORDER_ROLES as readonly Role[]).includes(role) && role !== 'merchant';

  const alert = (order: LastOrder) => {
    playSound();
    const listPath = role ? orderListPathFor(role) : null;
    const key = `new-order-${order.orderCode}`;
    notification.info({
      key,
      title: t('notifier.title'),
      description: (
        <span data-testid="new-order-toast">
          {t('notifier.body', {
            orderCode: order.orderCode,
            state: labelOr(i18n, `orders:state.${order.state}`, String(order.state)),
          })}
        </span>
      ),
      duration: TOAST_SECONDS,
      placement: 'bottomRight',
      actions: listPath ? (
        <Button
          size="small"
          type="primary"
          onClick={() => {
            notification.destroy(key);
            navigate(listPath);
          }}
        >
          {t('notifier.view')}
        </Button>
      ) : undefined,
    });
  };
  const alertRef = useRef(alert);
  alertRef.current = alert;

  useEffect(() => {
    if (!enabled) return;
    const notifier = new Notifier({
      fetchLast: () => call(endpoints.orders.getLastOrder, {}),
      alert: (order) => alertRef.current(order),
    });
    notifier.start();
    return () => notifier.stop();
  }, [enabled]);

  return null;
}
