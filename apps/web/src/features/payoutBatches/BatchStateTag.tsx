import { PAYOUT_BATCH_STATE } from '@paydesk/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const B = PAYOUT_BATCH_STATE;
const COLOR: Record<number, string> = {
  [B.draft]: 'default',
  [B.proposed]: 'gold',
  [B.confirmed]: 'processing',
  [B.exported]: 'cyan',
  [B.completed]: 'success',
  [B.abnormal]: 'error',
};

/** A time the server sent (ISO) as the lists show times. */

/** A batch's state in the reader's language. */
export function BatchStateTag({ state, testId }: { state: number; testId?: string }) {
  const { t } = useTranslation('payoutBatches');
  return (
    <Tag color={COLOR[state] ?? 'default'} data-testid={testId}>
      {t(`state.${state}`, { defaultValue: String(state) })}
    </Tag>
  );
}
