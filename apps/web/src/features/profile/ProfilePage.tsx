import { endpoints, type UserInfo } from '@paydesk/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Form, Input, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/http';
import { useSession } from '../../shared/session/session';
import { AuthenticatorCard } from './AuthenticatorCard';
import { profileKeys, useShowError } from './api';
import { ChangePasswordCard, ChangePayPasswordCard } from './PasswordCards';
import { SessionsCard } from './SessionsCard';

/**
 * The personal centre (profileList, profileListCustomerService): one's account, nickname, passwords,
 * authenticator and sessions. Nickname and authenticator follow the account's allowModify switch;
 * passwords may always be changed, so that an account can always secure itself.
 */
export default function ProfilePage() {
  const { user } = useSession();
  if (!user) return null;
  return (
    <div className="page profile-page">
      <SummaryCard user={user} />
      <NicknameCard user={user} />
      <ChangePasswordCard />
      <ChangePayPasswordCard user={user} />
      <AuthenticatorCard user={user} />
      <SessionsCard user={user} />
    </div>
  );
}

function SummaryCard({ user }: { user: UserInfo }) {
  const { t } = useTranslation(['profile', 'common']);
  return (
    <Card title={t('summary.title')} data-testid="profile-summary">
      <Descriptions column={{ xs: 1, md: 3 }}>
        <Descriptions.Item label={t('summary.account')}>{user.account}</Descriptions.Item>
        <Descriptions.Item label={t('summary.nickname')}>{user.name}</Descriptions.Item>
        <Descriptions.Item label={t('summary.role')}>{t(`common:role.${user.access}`)}</Descriptions.Item>
        <Descriptions.Item label={t('summary.authenticator')}>
          {user.confirmBind ? (
            <Tag color="success">{t('summary.bound')}</Tag>
          ) : (
            <Tag color="warning">{t('summary.notBound')}</Tag>
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('summary.allowModify')}>
          {user.allowModify ? t('summary.yes') : t('summary.no')}
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

function NicknameCard({ user }: { user: UserInfo }) {
  const { t } = useTranslation('profile');
  const { message } = App.useApp();
  const showError = useShowError();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (nickname: string) => call(endpoints.profile.updateNickname, { nickname: nickname.trim() }),
    onSuccess: async () => {
      void message.success(t('nickname.saved'));
      await queryClient.invalidateQueries({ queryKey: profileKeys.userInfo });
    },
    onError: showError,
  });
  return (
    <Card title={t('nickname.title')}>
      {!user.allowModify && (
        <Alert type="info" showIcon title={t('notAllowed')} className="dialog-alert" data-testid="profile-locked" />
      )}
      <Form
        layout="inline"
        name="nickname"
        initialValues={{ nickname: user.name }}
        disabled={!user.allowModify}
        onFinish={(v: { nickname: string }) => save.mutate(v.nickname)}
      >
        <Form.Item
          name="nickname"
          label={t('nickname.label')}
          rules={[
            { required: true, whitespace: true, message: t('nickname.required') },
            { max: 64, message: t('nickname.tooLong') },
          ]}
        >
          <Input maxLength={64} data-testid="profile-nickname" />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="profile-nickname-save">
            {t('common:action.save')}
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
}
