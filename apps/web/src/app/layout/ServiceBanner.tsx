import { isStaff } from '@paydesk/contract';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../shared/session/session';

/**
 * While the service is paused (the global setting enableService is off, answered by getInfo as
 * serviceEnabled), every signed-in page says so: merchants' new orders are refused, staff still sign
 * in and work. The console reads getInfo again after any setting change, so the banner comes and goes
 * with the switch. Test hook: `service-paused-banner`.
 */
export function ServiceBanner() {
  const { t } = useTranslation('common');
  const { user } = useSession();
  if (!user || user.serviceEnabled) return null;
  return (
    <Alert
      banner
      type="warning"
      role="status"
      showIcon
      data-testid="service-paused-banner"
      title={t(isStaff(user.access) ? 'servicePaused.staff' : 'servicePaused.partner')}
    />
  );
}
