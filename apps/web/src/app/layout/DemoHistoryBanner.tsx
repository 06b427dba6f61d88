import { endpoints } from '@paydesk/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/http';

/** How often the notice asks while the history is made (the server writes its count every 50 orders). */
export const DEMO_HISTORY_POLL_MS = 5_000;

/**
 * After a first `npm start`, the demo's 30-day order history is made in the background while the
 * console already works: this notice says so, with its progress, until it is done (then it goes and
 * the console stops asking).
 */
export function DemoHistoryBanner({ pollMs = DEMO_HISTORY_POLL_MS }: { pollMs?: number }) {
  const { t, i18n } = useTranslation('common');
  const status = useQuery({
    queryKey: ['system', 'demoHistory'],
    queryFn: () => call(endpoints.system.demoHistory, {}),
    refetchInterval: (query) => (query.state.data?.state === 'making' ? pollMs : false),
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (status.data?.state !== 'making') return null;
  return (
    <Alert
      banner
      type="info"
      role="status"
      data-testid="demo-history-banner"
      showIcon
      title={t('demoHistory.making', {
        made: status.data.made.toLocaleString(i18n.language),
        planned: status.data.planned.toLocaleString(i18n.language),
      })}
    />
  );
}
