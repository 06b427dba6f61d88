import { ORDER_STATE } from '@paydesk/contract';
import { Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const S = ORDER_STATE;
const COLOR: Record<number, string> = {
  [S.created]: 'default',
  [S.allocated]: 'processing',
  [S.timedOut]: 'warning',
  [S.callbackSucceeded]: 'success',
  [S.callbackFailed]: 'error',
  [S.allocationFailed]: 'error',
  [S.paidNotifying]: 'cyan',
  [S.rejected]: 'default',
  [S.reversed]: 'magenta',
  [S.paid]: 'green',
};

/** An order's state label in the user's language, with a "locked" tag while it is under investigation. */
export function OrderStateTag({ state, locked, testId }: { state: number; locked?: boolean; testId?: string }) {
  const { t, i18n } = useTranslation('orders');
  const key = `orders:state.${state}`;
  return (
    <Space size={2} data-testid={testId}>
      <Tag color={COLOR[state] ?? 'default'}>{i18n.exists(key) ? t(`state.${state}`) : String(state)}</Tag>
      {locked && <Tag color="red">{t('locked')}</Tag>}
    </Space>
  );
}
