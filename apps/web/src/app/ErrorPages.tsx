import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export function ForbiddenPage() {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  return (
    <Result
      status="403"
      title={t('page.forbiddenTitle')}
      subTitle={t('page.forbidden')}
      extra={<Button onClick={() => navigate('/home')}>{t('action.backHome')}</Button>}
      data-testid="page-401"
    />
  );
}

export function NotFoundPage() {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title={t('page.notFoundTitle')}
      subTitle={t('page.notFound')}
      extra={<Button onClick={() => navigate('/home')}>{t('action.backHome')}</Button>}
      data-testid="page-404"
    />
  );
}
