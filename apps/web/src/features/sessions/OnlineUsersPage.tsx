import { endpoints, manageableRoles, type Role, routeByPath, type SessionRow } from '@paydesk/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Popconfirm, Space, Tag } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { errorText } from '../../shared/api/errorText';
import { call, exportUrl } from '../../shared/api/http';
import { ListTable } from '../../shared/list/ListTable';
import { useSession } from '../../shared/session/session';
import { sessionKeys } from './api';

const at = (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm:ss');

/** The roles the server lets end anyone's session (the contract's forceLogout `allScopeRoles`). */
const FORCE_LOGOUT_ROLES: readonly Role[] = endpoints.auth.forceLogout.allScopeRoles ?? [];

/**
 * System management › online users: every active session. superAdmin and admin (the account managers)
 * end a session on the editable route, and the server refuses a session of a role they may not manage
 * (an admin and a superAdmin's); customerService and the read-only route (technicalMaintenance) only list.
 *
 * Test hooks: the force-logout button of a row is `session-logout-<sessionId>` (unique even when an
 * account has several sessions) and carries `data-account="<account>"`, so a browser test selects
 * `[data-account="merchant1"][data-testid^="session-logout-"]`. The caller's own session has no button.
 */
export default function OnlineUsersPage() {
  const { t, i18n } = useTranslation(['sessions', 'common']);
  const { user } = useSession();
  const { pathname } = useLocation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const readOnly = routeByPath(pathname)?.readOnly === true;
  const canEnd = !readOnly && user !== null && FORCE_LOGOUT_ROLES.includes(user.access);
  const forceLogout = useMutation({
    mutationFn: (row: SessionRow) => call(endpoints.auth.forceLogout, { token: row.sessionId }),
    onSuccess: async () => {
      void message.success(t('forceLogoutDone'));
      await queryClient.invalidateQueries({ queryKey: sessionKeys.all });
    },
    onError: (error) => void message.error(t('common:error.generic', { message: errorText(i18n, error) })),
  });

  return (
    <div className="page">
      <ListTable<SessionRow>
        testId="session-list"
        viewKey="onlineUsers"
        queryKey={sessionKeys.list}
        rowKey="sessionId"
        fetchPage={(p) => call(endpoints.auth.getSessions, p)}
        exportHref={(f) => exportUrl(endpoints.auth.exportSessions, f)}
        filters={[{ kind: 'text', name: 'account', label: t('filter.account') }]}
        columns={[
          {
            title: t('column.account'),
            dataIndex: 'account',
            render: (account: string, row) => (
              <Space size={4}>
                {account}
                {row.current && <Tag color="blue">{t('current')}</Tag>}
              </Space>
            ),
          },
          { title: t('column.role'), dataIndex: 'role', render: (r: Role) => t(`common:role.${r}`) },
          { title: t('column.ip'), dataIndex: 'ip' },
          { title: t('column.userAgent'), dataIndex: 'userAgent', width: 280, ellipsis: { showTitle: true } },
          { title: t('column.createdAt'), dataIndex: 'createdAt', render: at },
          { title: t('column.lastSeenAt'), dataIndex: 'lastSeenAt', render: at },
          { title: t('column.expiresAt'), dataIndex: 'expiresAt', render: at },
          ...(canEnd
            ? [
                {
                  title: t('column.actions'),
                  key: 'actions',
                  render: (_: unknown, row: SessionRow) =>
                    !row.current &&
                    (row.userId === user?.userId || (user && manageableRoles(user.access).includes(row.role))) && (
                      <Popconfirm
                        title={t('confirmForceLogout', { account: row.account })}
                        okText={t('common:action.ok')}
                        cancelText={t('common:action.cancel')}
                        onConfirm={() => forceLogout.mutate(row)}
                      >
                        <Button
                          type="link"
                          size="small"
                          danger
                          loading={forceLogout.isPending && forceLogout.variables?.sessionId === row.sessionId}
                          data-testid={`session-logout-${row.sessionId}`}
                          data-account={row.account}
                        >
                          {t('forceLogout')}
                        </Button>
                      </Popconfirm>
                    ),
                },
              ]
            : []),
        ]}
      />
    </div>
  );
}
