import { endpoints, type UserInfo } from '@paydesk/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Checkbox, Form, Input, Popconfirm, QRCode, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/http';
import { profileKeys, useShowError } from './api';

interface Binding {
  googleSecret: string;
  googleAuthUrl: string;
}

/**
 * One's own authenticator (DESIGN section 4): "rebind" starts a new binding (QR code and secret; the old
 * authenticator stays valid until a code of the new one confirms it); "remove" clears it, and the next
 * sign-in binds a new one. Both need token2 (the HTTP client asks for it) and the account's allowModify.
 */
export function AuthenticatorCard({ user }: { user: UserInfo }) {
  const { t } = useTranslation(['profile', 'common']);
  const { message } = App.useApp();
  const showError = useShowError();
  const queryClient = useQueryClient();
  const [needToLogout, setNeedToLogout] = useState(false);
  const [binding, setBinding] = useState<Binding | null>(null);
  // After removal this session goes on; the user info is left as it is, so that the guard does not send
  // the user to bind right now: the next sign-in does.
  const [removed, setRemoved] = useState(false);

  const start = useMutation({
    mutationFn: () => call(endpoints.auth.bindUserForProfile, { userAccount: user.account, needToLogout }),
    onSuccess: (b) => {
      setBinding(b);
      if (needToLogout) void queryClient.invalidateQueries({ queryKey: profileKeys.sessions(user.userId) });
    },
    onError: showError,
  });
  const confirm = useMutation({
    mutationFn: (code: string) =>
      call(endpoints.auth.confirmBindForProfile, { userAccount: user.account, googleCode: code.trim() }),
    onSuccess: async () => {
      setBinding(null);
      setRemoved(false);
      void message.success(t('authenticator.bound'));
      await queryClient.invalidateQueries({ queryKey: profileKeys.userInfo });
    },
    onError: showError,
  });
  const remove = useMutation({
    mutationFn: () => call(endpoints.auth.unbindForProfile, { userAccount: user.account }),
    onSuccess: () => {
      setBinding(null);
      setRemoved(true);
      void message.success(t('authenticator.removed'));
    },
    onError: showError,
  });

  const locked = !user.allowModify;
  return (
    <Card title={t('authenticator.title')} data-testid="profile-authenticator">
      {locked && <Alert type="info" showIcon title={t('notAllowed')} className="dialog-alert" />}
      {removed && <Alert type="warning" showIcon title={t('authenticator.removedNote')} className="dialog-alert" />}
      {!binding && (
        <Space orientation="vertical">
          <Typography.Text type="secondary">{t('authenticator.intro')}</Typography.Text>
          <Checkbox checked={needToLogout} disabled={locked} onChange={(e) => setNeedToLogout(e.target.checked)}>
            {t('authenticator.needToLogout')}
          </Checkbox>
          <Space wrap>
            <Button
              type="primary"
              disabled={locked}
              loading={start.isPending}
              onClick={() => start.mutate()}
              data-testid="profile-rebind"
            >
              {t('authenticator.rebind')}
            </Button>
            <Popconfirm
              title={t('authenticator.removeConfirm')}
              description={t('authenticator.removeWarning')}
              okText={t('common:action.ok')}
              cancelText={t('common:action.cancel')}
              okButtonProps={{ danger: true }}
              disabled={locked}
              onConfirm={() => remove.mutate()}
            >
              <Button danger disabled={locked} loading={remove.isPending} data-testid="profile-unbind">
                {t('authenticator.remove')}
              </Button>
            </Popconfirm>
          </Space>
        </Space>
      )}
      {binding && (
        <Space orientation="vertical" className="bind-qr">
          <Typography.Paragraph>{t('authenticator.scan')}</Typography.Paragraph>
          <QRCode value={binding.googleAuthUrl} size={180} aria-label={t('common:a11y.qr', { name: 'PayDesk' })} />
          <Typography.Text copyable code data-testid="profile-google-secret">
            {binding.googleSecret}
          </Typography.Text>
          <Form layout="inline" name="confirmBind" onFinish={(v: { code: string }) => confirm.mutate(v.code)}>
            <Form.Item
              name="code"
              label={t('authenticator.code')}
              rules={[{ required: true, pattern: /^\s*\d{6}\s*$/, message: t('authenticator.codeFormat') }]}
            >
              <Input inputMode="numeric" autoComplete="one-time-code" maxLength={8} data-testid="profile-bind-code" />
            </Form.Item>
            <Form.Item>
              <Space>
                <Button type="primary" htmlType="submit" loading={confirm.isPending} data-testid="profile-bind-confirm">
                  {t('authenticator.confirm')}
                </Button>
                <Button onClick={() => setBinding(null)}>{t('common:action.cancel')}</Button>
              </Space>
            </Form.Item>
          </Form>
          {user.confirmBind && !removed && (
            <Typography.Text type="secondary">{t('authenticator.oldStillValid')}</Typography.Text>
          )}
        </Space>
      )}
    </Card>
  );
}
