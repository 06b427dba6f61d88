import { endpoints } from '@paydesk/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, QRCode, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorText } from '../../shared/api/errorText';
import { call } from '../../shared/api/http';
import { authKeys } from '../../shared/session/keys';
import { useSession } from '../../shared/session/session';
import { useUserInfo } from './api';

/** /googleVerify: an account whose authenticator is not confirmed binds it here (DESIGN section 4). */
export default function GoogleVerifyPage() {
  const { t, i18n } = useTranslation('auth');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { logout } = useSession();
  const info = useUserInfo(true);
  const confirm = useMutation({
    mutationFn: (code: string) =>
      call(endpoints.auth.confirmBind, { userAccount: info.data?.account ?? '', googleCode: code.trim() }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: authKeys.info });
      navigate('/home', { replace: true });
    },
  });
  const secret = info.data?.googleSecret;

  return (
    <main className="login-page">
      <Card
        title={<h1 className="login-title">{t('bind.title')}</h1>}
        className="login-card"
        extra={<Button onClick={() => void logout()}>{t('bind.logout')}</Button>}
      >
        <Typography.Paragraph>{t('bind.intro')}</Typography.Paragraph>
        {secret && info.data?.googleAuthUrl && (
          <Space orientation="vertical" align="center" className="bind-qr">
            <QRCode value={info.data.googleAuthUrl} size={180} aria-label={t('bind.qr')} />
            <Typography.Text copyable code data-testid="google-secret">
              {secret}
            </Typography.Text>
          </Space>
        )}
        <Form layout="vertical" onFinish={(v: { code: string }) => confirm.mutate(v.code)}>
          <Form.Item
            name="code"
            label={t('bind.code')}
            rules={[{ required: true, pattern: /^\s*\d{6}\s*$/, message: t('login.codeFormat') }]}
          >
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={8} />
          </Form.Item>
          {confirm.error && (
            <Alert type="error" showIcon title={errorText(i18n, confirm.error)} className="login-error" />
          )}
          <Button type="primary" htmlType="submit" block loading={confirm.isPending}>
            {t('bind.submit')}
          </Button>
        </Form>
      </Card>
    </main>
  );
}
