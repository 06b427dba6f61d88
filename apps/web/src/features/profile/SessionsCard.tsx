import { endpoints, type SessionRow, type UserInfo } from '@paydesk/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Popconfirm, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/api/errorText';
import { call } from '../../shared/api/http';
import { formatTime } from '../../shared/format/time';
import { profileKeys, useMySessions, useShowError } from './api';

/** One's own signed-in sessions; any other than this one can be ended, one by one or all at once. */
export function SessionsCard({ user }: { user: UserInfo }) {
  const { t, i18n } = useTranslation(['profile', 'common']);
  const { message } = App.useApp();
  const showError = useShowError();
  const queryClient = useQueryClient();
  const sessions = useMySessions(user);
  const others = (sessions.data ?? []).filter((s) => !s.current);

  const refresh = () => queryClient.invalidateQueries({ queryKey: profileKeys.sessions(user.userId) });
  const end = useMutation({
    mutationFn: (sessionId: string) => call(endpoints.auth.forceLogout, { token: sessionId }),
    onSuccess: () => void message.success(t('sessions.ended')),
    onError: showError,
    onSettled: refresh,
  });
  const endOthers = useMutation({
    mutationFn: async (ids: string[]) => {
      for (const token of ids) await call(endpoints.auth.forceLogout, { token });
      return ids.length;
    },
    onSuccess: (count) => void message.success(t('sessions.endedOthers', { count })),
    onError: showError,
    onSettled: refresh,
  });

  return (
    <Card
      title={t('sessions.title')}
      data-testid="profile-sessions"
      extra={
        <Popconfirm
          title={t('sessions.endOthersConfirm')}
          okText={t('common:action.ok')}
          cancelText={t('common:action.cancel')}
          disabled={others.length === 0}
          onConfirm={() => endOthers.mutate(others.map((s) => s.sessionId))}
        >
          <Button
            danger
            disabled={others.length === 0}
            loading={endOthers.isPending}
            data-testid="profile-sessions-end-others"
          >
            {t('sessions.endOthers')}
          </Button>
        </Popconfirm>
      }
    >
      {sessions.isError && (
        <Alert
          type="error"
          showIcon
          title={t('common:list.loadFailed', { message: errorText(i18n, sessions.error) })}
          action={<Button onClick={() => void sessions.refetch()}>{t('common:action.retry')}</Button>}
        />
      )}
      <Table<SessionRow>
        rowKey="sessionId"
        size="small"
        loading={sessions.isFetching}
        dataSource={sessions.data ?? []}
        pagination={false}
        scroll={{ x: true }}
        columns={[
          {
            title: t('sessions.ip'),
            dataIndex: 'ip',
            render: (ip: string, row) => (
              <>
                {ip} {row.current && <Tag color="blue">{t('sessions.current')}</Tag>}
              </>
            ),
          },
          {
            title: t('sessions.device'),
            dataIndex: 'userAgent',
            render: (ua: string) => (
              <Typography.Text ellipsis={{ tooltip: ua }} style={{ maxWidth: 280 }}>
                {ua}
              </Typography.Text>
            ),
          },
          { title: t('sessions.createdAt'), dataIndex: 'createdAt', render: formatTime },
          { title: t('sessions.lastSeenAt'), dataIndex: 'lastSeenAt', render: formatTime },
          { title: t('sessions.expiresAt'), dataIndex: 'expiresAt', render: formatTime },
          {
            title: t('sessions.action'),
            key: 'action',
            render: (_, row) =>
              row.current ? null : (
                <Button
                  size="small"
                  danger
                  loading={end.isPending && end.variables === row.sessionId}
                  onClick={() => end.mutate(row.sessionId)}
                  data-testid={`profile-session-end-${row.sessionId}`}
                >
                  {t('sessions.end')}
                </Button>
              ),
          },
        ]}
      />
    </Card>
  );
}
