import { endpoints } from '@paydesk/contract';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { call } from '../../shared/api/http';
import { setToken } from '../../shared/api/session-storage';
import { LanguageSwitch } from '../../shared/layout/LanguageSwitch';
import { signInErrorText } from './signInError';

interface LoginForm {
  userName: string;
  password: string;
  googleCode?: string;
}

export default function LoginPage() {
  const { t, i18n } = useTranslation('auth');
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
      {/* A plain panel, not antd's Card: Card brings Tabs, Menu and Dropdown into the first download. */}
      <section className="login-card" aria-labelledby="login-title">
        <h1 className="login-title" id="login-title">
          PayDesk · {t('login.title')}
        </h1>
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
              title={t('login.failed', { message: signInErrorText(i18n, login.error) })}
            />
          )}
          <Button type="primary" htmlType="submit" block loading={login.isPending}>
            {t('login.submit')}
          </Button>
        </Form>
      </section>
    </main>
  );
}
