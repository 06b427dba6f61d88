import { endpoints } from '@paydesk/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, List, Skeleton } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../app/session';
import { call } from '../../shared/api/http';

/** Home for every role: who is signed in and the unread messages (statistics come with their own issue). */
export default function HomePage() {
  const { t } = useTranslation(['home', 'common']);
  const { user } = useSession();
  const navigate = useNavigate();
  const inbox = useQuery({ queryKey: ['messages', 'init'], queryFn: () => call(endpoints.messages.init) });
  if (!user) return null;
  return (
    <div className="page home-page">
      <Card title={t('welcome', { name: user.name })}>
        <Descriptions column={2}>
          <Descriptions.Item label={t('account')}>{user.account}</Descriptions.Item>
          <Descriptions.Item label={t('role')}>{t(`common:role.${user.access}`)}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Card
        title={t('unread')}
        extra={<Button onClick={() => navigate('/message_page')}>{t('openInbox')}</Button>}
        className="home-unread"
      >
        {inbox.isPending && <Skeleton active />}
        {inbox.isError && (
          <Alert type="error" showIcon title={t('common:list.loadFailed', { message: inbox.error.message })} />
        )}
        {inbox.data && (
          <List
            data-testid="home-unread"
            dataSource={inbox.data.unread}
            locale={{ emptyText: t('noUnread') }}
            renderItem={(m) => (
              <List.Item onClick={() => navigate(`/message_page?msg=${m.msg_id}`)} className="clickable">
                <List.Item.Meta title={m.title} description={dayjs(m.create_time).format('YYYY-MM-DD HH:mm:ss')} />
              </List.Item>
            )}
          />
        )}
      </Card>
    </div>
  );
}
