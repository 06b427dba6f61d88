import { endpoints, type UserInfo } from '@paydesk/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input, type FormRule as Rule } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/http';
import { useSession } from '../../shared/session/session';
import { profileKeys, useShowError } from './api';

/** Spec section 5: a password must contain digits and letters (and the contract asks 8 to 128 characters). */
function useNewPasswordRules(): Rule[] {
  const { t } = useTranslation('profile');
  return [
    { required: true, message: t('password.newRequired') },
    { min: 8, message: t('password.tooShort') },
    { max: 128, message: t('password.tooLong') },
    { pattern: /^(?=.*[A-Za-z])(?=.*\d)/, message: t('password.strength') },
  ];
}

/** The confirmation must repeat the field `of`. */
function useConfirmRules(of: string): Rule[] {
  const { t } = useTranslation('profile');
  return [
    { required: true, message: t('password.confirmRequired') },
    ({ getFieldValue }) => ({
      validator: (_: unknown, value: string | undefined) =>
        !value || value === getFieldValue(of) ? Promise.resolve() : Promise.reject(new Error(t('password.mismatch'))),
    }),
  ];
}

/** The new value must differ from the field `of` (the server refuses it too). */
function differentFrom(of: string, message: string): Rule {
  return ({ getFieldValue }) => ({
    validator: (_: unknown, value: string | undefined) =>
      !value || value !== getFieldValue(of) ? Promise.resolve() : Promise.reject(new Error(message)),
  });
}

interface PasswordForm {
  oldPassword: string;
  newPassword: string;
  confirm: string;
}

/** Changes the sign-in password; the server then ends one's other sessions. */
export function ChangePasswordCard() {
  const { t } = useTranslation('profile');
  const { message } = App.useApp();
  const { user } = useSession();
  const showError = useShowError();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<PasswordForm>();
  const newRules = useNewPasswordRules();
  const confirmRules = useConfirmRules('newPassword');
  const change = useMutation({
    mutationFn: (v: PasswordForm) =>
      call(endpoints.profile.changePassword, { oldPassword: v.oldPassword, newPassword: v.newPassword }),
    onSuccess: async () => {
      form.resetFields();
      void message.success(t('password.changed'));
      if (user) await queryClient.invalidateQueries({ queryKey: profileKeys.sessions(user.userId) });
      await queryClient.invalidateQueries({ queryKey: profileKeys.userInfo });
    },
    onError: showError,
  });
  return (
    <Card title={t('password.title')}>
      <Alert type="info" showIcon title={t('password.endsOtherSessions')} className="dialog-alert" />
      <Form<PasswordForm>
        form={form}
        name="changePassword"
        layout="vertical"
        style={{ maxWidth: 420 }}
        onFinish={(v) => change.mutate(v)}
      >
        <Form.Item
          name="oldPassword"
          label={t('password.old')}
          rules={[{ required: true, message: t('password.oldRequired') }]}
        >
          <Input.Password autoComplete="current-password" data-testid="profile-old-password" />
        </Form.Item>
        <Form.Item
          name="newPassword"
          label={t('password.new')}
          dependencies={['oldPassword']}
          rules={[...newRules, differentFrom('oldPassword', t('server:reason.samePassword'))]}
        >
          <Input.Password autoComplete="new-password" data-testid="profile-new-password" />
        </Form.Item>
        <Form.Item name="confirm" label={t('password.confirm')} dependencies={['newPassword']} rules={confirmRules}>
          <Input.Password autoComplete="new-password" data-testid="profile-confirm-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={change.isPending} data-testid="profile-password-save">
          {t('password.submit')}
        </Button>
      </Form>
    </Card>
  );
}

interface PayPasswordForm {
  password: string;
  newPayPassword: string;
  confirm: string;
}

/**
 * Sets the second-level password. The first one needs only the sign-in password; replacing it needs
 * token2 (the HTTP client opens the second-level dialog by itself when there is none, then retries).
 * Under EnablePayPassword an account without one is told here that it must set it.
 */
export function ChangePayPasswordCard({ user }: { user: UserInfo }) {
  const { t } = useTranslation('profile');
  const { message } = App.useApp();
  const showError = useShowError();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<PayPasswordForm>();
  const newRules = useNewPasswordRules();
  const confirmRules = useConfirmRules('newPayPassword');
  const change = useMutation({
    mutationFn: (v: PayPasswordForm) =>
      call(endpoints.profile.changePayPassword, { password: v.password, newPayPassword: v.newPayPassword }),
    onSuccess: async () => {
      form.resetFields();
      void message.success(t('payPassword.changed'));
      await queryClient.invalidateQueries({ queryKey: profileKeys.userInfo });
    },
    onError: showError,
  });
  return (
    <Card title={t('payPassword.title')}>
      {user.payPasswordRequired && !user.hasPayPassword && (
        <Alert
          type="warning"
          showIcon
          title={t('payPassword.required')}
          className="dialog-alert"
          data-testid="profile-pay-password-required"
        />
      )}
      <Alert type="info" showIcon title={t('payPassword.note')} className="dialog-alert" />
      <Form<PayPasswordForm>
        form={form}
        name="changePayPassword"
        layout="vertical"
        style={{ maxWidth: 420 }}
        onFinish={(v) => change.mutate(v)}
      >
        <Form.Item
          name="password"
          label={t('payPassword.signInPassword')}
          rules={[{ required: true, message: t('password.oldRequired') }]}
        >
          <Input.Password autoComplete="current-password" data-testid="profile-pay-sign-in-password" />
        </Form.Item>
        <Form.Item
          name="newPayPassword"
          label={t('payPassword.new')}
          dependencies={['password']}
          rules={[...newRules, differentFrom('password', t('server:reason.payPasswordSameAsSignIn'))]}
        >
          <Input.Password autoComplete="new-password" data-testid="profile-new-pay-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('payPassword.confirm')}
          dependencies={['newPayPassword']}
          rules={confirmRules}
        >
          <Input.Password autoComplete="new-password" data-testid="profile-confirm-pay-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={change.isPending} data-testid="profile-pay-password-save">
          {t('payPassword.submit')}
        </Button>
      </Form>
    </Card>
  );
}
