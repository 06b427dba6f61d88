import { PAYOUT_STATE } from '@paydesk/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const S = PAYOUT_STATE;
const COLOR: Record<number, string> = {
  [S.awaiting]: 'default',
  [S.preparing]: 'cyan',
  [S.inProgress]: 'processing',
  [S.completed]: 'success',
  [S.cancelled]: 'default',
  [S.rejecting]: 'warning',
  [S.rejected]: 'default',
  [S.pendingConfirmation]: 'gold',
  [S.submitted]: 'blue',
  [S.processingException]: 'error',
};

/** A payout's state label in the user's language. */
export function PayoutStateTag({ state, testId }: { state: number; testId?: string }) {
  const { t, i18n } = useTranslation('payouts');
  return (
    <Tag color={COLOR[state] ?? 'default'} data-testid={testId}>
      {i18n.exists(`payouts:state.${state}`) ? t(`state.${state}`) : String(state)}
    </Tag>
  );
}
