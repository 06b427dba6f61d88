import { LogoutOutlined } from '@ant-design/icons';
import {
  type ActionCaller,
  endpoints,
  type Role,
  routeByPath,
  type SessionRow,
  sessionActionRefusal,
} from '@paydesk/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { call, exportUrl } from '../../shared/api/http';
import { formatTime } from '../../shared/format/time';
import { ListTable } from '../../shared/list/ListTable';
import { endpointRoles, type RowActions, rowAction } from '../../shared/list/rowActions';
import { useSession } from '../../shared/session/session';
import { sessionKeys } from './api';

/**
 * System management › online users: every active session. Ending one (force logout) follows the
 * contract's `sessionActionRefusal`, the rule the server refuses with: one's own other sessions for
 * everyone; another account's for the account managers (superAdmin, admin), of the roles they manage
 * (an admin never ends a superAdmin's); never the session in use (signing out ends it), never on the
 * read-only route (technicalMaintenance).
 *
 * Test hooks: the force-logout button of a row is `session-logout-<sessionId>` (unique even when an
 * account has several sessions) and carries `data-account="<account>"`, so a browser test selects
 * `[data-account="merchant1"][data-testid^="session-logout-"]`; `session-ok` confirms.
 */
export default function OnlineUsersPage() {
  const { t } = useTranslation(['sessions', 'common']);
  const { user } = useSession();
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  const readOnly = routeByPath(pathname)?.readOnly === true;
  const caller: ActionCaller = { role: user?.access, userId: user?.userId, readOnly };
  const actions: RowActions<SessionRow> = {
    actions: [
      rowAction<SessionRow>({
        key: 'logout',
        label: 'sessions:forceLogout',
        success: 'sessions:forceLogoutDone',
        confirm: 'sessions:confirmForceLogout',
        icon: <LogoutOutlined />,
        danger: true,
        // The read-only route has no actions column at all.
        roles: readOnly ? [] : endpointRoles(endpoints.auth.forceLogout),
        token2: endpoints.auth.forceLogout.token2,
        allowed: (row) => sessionActionRefusal('forceLogout', caller, row) === null,
        run: (row) => call(endpoints.auth.forceLogout, { token: row.sessionId }),
      }),
    ],
    testIdPrefix: 'session',
    testIdOf: (row) => row.sessionId,
    textValues: (row) => ({ account: row.account }),
    attrs: (row) => ({ 'data-account': row.account }),
    onDone: () => queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  };

  return (
    <div className="page">
      <ListTable<SessionRow>
        testId="session-list"
        viewKey="onlineUsers"
        queryKey={sessionKeys.list}
        rowKey="sessionId"
        fetchPage={(p) => call(endpoints.auth.getSessions, p)}
        exportHref={(f) => exportUrl(endpoints.auth.exportSessions, f)}
        actions={actions}
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
          { title: t('column.createdAt'), dataIndex: 'createdAt', render: formatTime },
          { title: t('column.lastSeenAt'), dataIndex: 'lastSeenAt', render: formatTime },
          { title: t('column.expiresAt'), dataIndex: 'expiresAt', render: formatTime },
        ]}
      />
    </div>
  );
}
