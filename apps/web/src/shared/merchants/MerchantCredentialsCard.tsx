import { Code, endpoints } from '@paydesk/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '../api/errorText';
import { ApiError, call } from '../api/http';
import { merchantKeys } from './api';
import { CredentialsPanel } from './Credentials';

/**
 * The signed-in merchant's own API credentials, for its home or profile page. Test hook:
 * `merchant-credentials-card`.
 */
export function MerchantCredentialsCard() {
  const { t, i18n } = useTranslation(['merchants', 'common']);
  const mine = useQuery({ queryKey: merchantKeys.mine, queryFn: () => call(endpoints.merchants.getMine, {}) });
  return (
    <Card title={t('credentials.cardTitle')} data-testid="merchant-credentials-card" loading={mine.isLoading}>
      {mine.data && <CredentialsPanel merchant={mine.data} />}
      {mine.isError &&
        (mine.error instanceof ApiError && mine.error.code === Code.notFound ? (
          <Alert type="info" showIcon message={t('credentials.notLinked')} />
        ) : (
          <Alert type="error" showIcon message={t('common:error.generic', { message: errorText(i18n, mine.error) })} />
        ))}
    </Card>
  );
}
