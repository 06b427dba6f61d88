import { Code, endpoints, MERCHANT_GUIDE_PATH } from '@paydesk/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '../api/errorText';
import { ApiError, call } from '../api/http';
import { useSession } from '../session/session';
import { merchantApiBase, merchantKeys } from './api';
import { CredentialsPanel } from './Credentials';

/**
 * The signed-in merchant's own API credentials, for its home or profile page: the API address to call
 * (ApiUrl, else the console's own) with the integration guide, then the credentials. Test hooks:
 * `merchant-credentials-card`, `merchant-api-address`.
 */
export function MerchantCredentialsCard() {
  const { t, i18n } = useTranslation(['merchants', 'common']);
  const { user } = useSession();
  const mine = useQuery({ queryKey: merchantKeys.mine, queryFn: () => call(endpoints.merchants.getMine, {}) });
  const apiBase = merchantApiBase(user?.apiUrl);
  return (
    <Card title={t('credentials.cardTitle')} data-testid="merchant-credentials-card" loading={mine.isLoading}>
      {apiBase && (
        <Descriptions column={1} bordered size="small" style={{ marginBottom: 16 }}>
          <Descriptions.Item label={t('credentials.apiAddress')}>
            <Typography.Text copyable code data-testid="merchant-api-address">
              {apiBase}
            </Typography.Text>{' '}
            <Typography.Link href={MERCHANT_GUIDE_PATH} target="_blank">
              {t('credentials.guide')}
            </Typography.Link>
          </Descriptions.Item>
        </Descriptions>
      )}
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
