import { endpoints } from '@paydesk/contract';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LanguageSwitch } from '../../app/layout/LanguageSwitch';
import { call } from '../../shared/api/http';
import { setToken } from '../../shared/api/session-storage';
import { signInErrorText } from './signInError';

interface LoginForm {
  userName: string;
  password: string;
  googleCode?: string;
}

export default function LoginPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const login = useMutation({
    // Spec section 5: account and code are trimmed.
    mutationFn: (v: LoginForm) =>
      call(endpoints.auth.login, {
        userName: v.userName.trim(),
        password: v.password,
        googleCode: v.googleCode?.trim() || undefined,
      }),
    onSuccess: (data) => {
      setToken(data.token);
      navigate(data.confirmBind ? '/home' : '/googleVerify', { replace: true });
    },
  });

  return (
    <main className="login-page">
      <div className="login-language">
        <LanguageSwitch />
      </div>
      <Card title={<h1 className="login-title">PayDesk · {t('login.title')}</h1>} className="login-card">
        <Form<LoginForm> layout="vertical" onFinish={(v) => login.mutate(v)} requiredMark={false}>
          <Form.Item
            name="userName"
            label={t('login.account')}
            rules={[{ required: true, whitespace: true, message: t('login.accountRequired') }]}
          >
            <Input autoComplete="username" autoFocus />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('login.password')}
            rules={[{ required: true, message: t('login.passwordRequired') }]}
          >
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Form.Item
            name="googleCode"
            label={t('login.googleCode')}
            extra={t('login.googleCodeHint')}
            rules={[{ pattern: /^\s*\d{6}\s*$/, message: t('login.codeFormat') }]}
          >
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={8} />
          </Form.Item>
          {login.error && (
            <Alert
              type="error"
              showIcon
              className="login-error"
              title={t('login.failed', { message: signInErrorText(t, login.error) })}
            />
          )}
          <Button type="primary" htmlType="submit" block loading={login.isPending}>
            {t('login.submit')}
          </Button>
        </Form>
      </Card>
    </main>
  );
}
