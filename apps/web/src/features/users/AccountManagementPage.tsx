import {
  ClearOutlined,
  DeleteOutlined,
  DisconnectOutlined,
  EditOutlined,
  KeyOutlined,
  SafetyOutlined,
  ToolOutlined,
} from '@ant-design/icons';
import {
  ACCOUNT_MANAGER_ROLES,
  type ActionCaller,
  Code,
  endpoints,
  manageableRoles,
  ROLES,
  type Role,
  routeByPath,
  USER_ACTION_ENDPOINTS,
  type UserAction,
  type UserRow,
  userActionRefusal,
} from '@paydesk/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Checkbox, Form, Input, Modal, Select, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import type { i18n as I18n } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { errorText } from '../../shared/api/errorText';
import { ApiError, call, exportUrl } from '../../shared/api/http';
import { formatTime } from '../../shared/format/time';
import { AccountItem, PasswordItem } from '../../shared/forms/AccountFields';
import { ListTable } from '../../shared/list/ListTable';
import { endpointRoles, type RowActionFormProps, type RowActions, rowAction } from '../../shared/list/rowActions';
import { useSession } from '../../shared/session/session';
import { userKeys } from './api';

/** A failed change of an account's fields reads as the spec's 'update failed' (edit, repair, the switches). */
class UpdateFailed extends Error {
  constructor(readonly failure: unknown) {
    super('update failed');
  }
}
const asUpdate = <T,>(p: Promise<T>) =>
  p.catch((error: unknown) => {
    throw new UpdateFailed(error);
  });

/** How a failure reads: 'update failed: …' for changes of fields, the generic text otherwise. */
function failureText(t: (key: string, values?: Record<string, unknown>) => string, i18n: I18n, error: unknown) {
  if (error instanceof UpdateFailed) return t('users:error.updateFailed', { message: errorText(i18n, error.failure) });
  return t('common:error.generic', { message: errorText(i18n, error) });
}

interface Action {
  /** Identifies what is running (row and kind), for the loading state of switches. */
  key: string;
  run(): Promise<unknown>;
  /** Key under `success.` (or any full key) shown when it worked. */
  success: string;
  /** How a failure reads: the spec's 'update failed' for edits, the generic text otherwise. */
  failure?: 'update' | 'add';
}

/** Runs a change outside the row actions (add, the switches), then toasts and reloads the list. */
function useUserAction() {
  const { t, i18n } = useTranslation(['users', 'common']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: Action) => action.run(),
    onSuccess: async (_data, action) => {
      void message.success(t(action.success));
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
    onError: (error, action) => {
      if (action.failure === 'add' && error instanceof ApiError && error.code === Code.conflict) {
        void message.error(t('error.addFailed'));
        return;
      }
      void message.error(failureText(t, i18n, action.failure === 'update' ? new UpdateFailed(error) : error));
    },
  });
}

interface UserFormValues {
  nickname: string;
  account: string;
  password?: string;
  role: Role;
}

/** Add (no row) or edit (a row) an account; the spec's validation texts on the client side. */
function UserFormModal(props: {
  row: UserRow | null;
  roles: readonly Role[];
  pending: boolean;
  onSubmit(values: UserFormValues): void;
  onClose(): void;
}) {
  const { t } = useTranslation(['users', 'common']);
  const { user } = useSession();
  // The server refuses changing one's own role (ownRole): one's own account keeps it.
  const own = props.row !== null && props.row.id === user?.userId;
  const [form] = Form.useForm<UserFormValues>();
  const editing = props.row !== null;
  const required = { required: true, whitespace: true, message: t('rule.requiredFields') };
  return (
    <Modal
      open
      title={editing ? t('form.editTitle', { account: props.row?.account }) : t('form.addTitle')}
      okText={t('common:action.save')}
      cancelText={t('common:action.cancel')}
      confirmLoading={props.pending}
      onOk={() => form.submit()}
      onCancel={props.onClose}
    >
      <Form<UserFormValues>
        form={form}
        layout="vertical"
        data-testid="user-form"
        initialValues={
          props.row ? { nickname: props.row.nickname, account: props.row.account, role: props.row.role } : undefined
        }
        onFinish={(values) =>
          props.onSubmit({ ...values, nickname: values.nickname.trim(), account: values.account.trim() })
        }
      >
        <Form.Item
          name="nickname"
          label={t('form.nickname')}
          rules={[required, { max: 64, message: t('rule.nicknameLength') }]}
        >
          <Input autoComplete="off" data-testid="user-form-nickname" />
        </Form.Item>
        <AccountItem testIdPrefix="user-form" label={t('form.account')} requiredMessage={required.message} />
        <PasswordItem
          testIdPrefix="user-form"
          label={editing ? t('form.newPassword') : t('form.password')}
          extra={editing ? t('form.newPasswordHint') : undefined}
          required={!editing}
        />
        <Form.Item name="role" label={t('form.role')} rules={[{ required: true, message: t('rule.requiredFields') }]}>
          <Select
            data-testid="user-form-role"
            disabled={own}
            options={props.roles.map((r) => ({ value: r, label: t(`common:role.${r}`) }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Repair: give an account a new account name. */
function RepairModal(props: RowActionFormProps<UserRow, string>) {
  const { t } = useTranslation(['users', 'common']);
  const [form] = Form.useForm<{ newAccountName: string }>();
  return (
    <Modal
      open
      title={t('form.repairTitle', { account: props.row.account })}
      okText={t('common:action.ok')}
      cancelText={t('common:action.cancel')}
      confirmLoading={props.busy}
      onOk={() => form.submit()}
      onCancel={props.onClose}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ newAccountName: props.row.account }}
        onFinish={(v) => props.onSubmit(v.newAccountName.trim())}
      >
        <AccountItem
          name="newAccountName"
          testIdPrefix="user-repair"
          label={t('form.newAccountName')}
          requiredMessage={t('rule.requiredFields')}
        />
      </Form>
    </Modal>
  );
}

/** Reset authenticator (bindUser): a new one is bound at the next sign-in; optionally sign the account out. */
function RebindModal(props: RowActionFormProps<UserRow, boolean>) {
  const { t } = useTranslation(['users', 'common']);
  const [needToLogout, setNeedToLogout] = useState(true);
  return (
    <Modal
      open
      title={t('form.rebindTitle', { account: props.row.account })}
      okText={t('common:action.ok')}
      cancelText={t('common:action.cancel')}
      confirmLoading={props.busy}
      onOk={() => props.onSubmit(needToLogout)}
      onCancel={props.onClose}
    >
      <Typography.Paragraph>{t('form.rebindIntro')}</Typography.Paragraph>
      <Checkbox
        checked={needToLogout}
        onChange={(e) => setNeedToLogout(e.target.checked)}
        data-testid="user-rebind-logout"
      >
        {t('form.needToLogout')}
      </Checkbox>
    </Modal>
  );
}

/** Edit: the add form filled with the account, for the roles the caller may grant. */
function EditModal(props: RowActionFormProps<UserRow, UserFormValues>) {
  const { user } = useSession();
  const roles = user ? manageableRoles(user.access) : [];
  return (
    <UserFormModal
      row={props.row}
      roles={roles}
      pending={props.busy}
      onSubmit={props.onSubmit}
      onClose={props.onClose}
    />
  );
}

/** The row actions, most used first (a row shows the first two it allows; the rest are under 'more'). */
function userRowActions(caller: ActionCaller): RowActions<UserRow>['actions'] {
  const rule = (action: UserAction) => ({
    // The read-only route has no actions column at all.
    roles: caller.readOnly ? [] : endpointRoles(USER_ACTION_ENDPOINTS[action]),
    token2: USER_ACTION_ENDPOINTS[action].token2,
    // The server's rule: role, the roles the caller manages, deleted, one's own, a lock to clear.
    allowed: (row: UserRow) => userActionRefusal(action, caller, row, new Date()) === null,
  });
  return [
    rowAction<UserRow, UserFormValues>({
      key: 'edit',
      label: 'users:action.edit',
      success: 'users:success.update',
      icon: <EditOutlined />,
      ...rule('update'),
      form: EditModal,
      run: (row, v) =>
        asUpdate(
          call(endpoints.users.updateUser, {
            id: row.id,
            nickname: v.nickname,
            account: v.account,
            role: v.role,
            ...(v.password ? { password: v.password } : {}),
          }),
        ),
    }),
    rowAction<UserRow>({
      key: 'delete',
      label: 'users:action.delete',
      success: 'users:success.delete',
      confirm: 'users:confirm.delete',
      icon: <DeleteOutlined />,
      danger: true,
      ...rule('delete'),
      run: (row) => call(endpoints.users.deleteUser, { id: row.id }),
    }),
    rowAction<UserRow, string>({
      key: 'repair',
      label: 'users:action.repair',
      success: 'users:success.repair',
      icon: <ToolOutlined />,
      ...rule('repair'),
      form: RepairModal,
      run: (row, newAccountName) => asUpdate(call(endpoints.users.repairUser, { userId: row.id, newAccountName })),
    }),
    rowAction<UserRow>({
      key: 'reset-paypassword',
      label: 'users:action.resetPayPassword',
      success: 'users:success.resetPayPassword',
      confirm: 'users:confirm.resetPayPassword',
      icon: <KeyOutlined />,
      ...rule('resetPayPassword'),
      run: (row) => call(endpoints.users.resetPayPassword, { id: row.id }),
    }),
    rowAction<UserRow, boolean>({
      key: 'rebind',
      label: 'users:action.resetAuthenticator',
      success: 'users:success.rebind',
      icon: <SafetyOutlined />,
      ...rule('bindUser'),
      form: RebindModal,
      run: (row, needToLogout) => call(endpoints.auth.bindUser, { userAccount: row.account, needToLogout }),
    }),
    rowAction<UserRow>({
      key: 'clear-lock',
      label: 'users:action.clearSignInLock',
      success: 'users:success.clearSignInLock',
      confirm: 'users:confirm.clearSignInLock',
      icon: <ClearOutlined />,
      ...rule('clearSignInLock'),
      run: (row) => call(endpoints.auth.clearSignInLock, { userId: row.id }),
    }),
    rowAction<UserRow>({
      key: 'unbind',
      label: 'users:action.unbind',
      success: 'users:success.unbind',
      confirm: 'users:confirm.unbind',
      icon: <DisconnectOutlined />,
      danger: true,
      ...rule('unbind'),
      run: (row) => call(endpoints.auth.unbind, { userAccount: row.account }),
    }),
  ];
}

/**
 * System management › account management: console accounts with their sign-in state. superAdmin and
 * admin manage them on the editable route; the read-only route (technicalMaintenance) and other roles
 * only read. What a row offers is the contract's `userActionRefusal`, the rule the server's guards
 * refuse with. Test hooks: `user-add`, and per row `user-<action>-<account>` (edit, delete, repair,
 * reset-paypassword, rebind, clear-lock, unbind: the first two a row allows as buttons, the others
 * after `user-more-<account>`; `user-ok` confirms) and the switches `user-google-verify-<account>`,
 * `user-allow-modify-<account>`.
 */
export default function AccountManagementPage() {
  const { t, i18n } = useTranslation(['users', 'common']);
  const { user } = useSession();
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  const role = user?.access;
  const readOnly = routeByPath(pathname)?.readOnly === true;
  const caller: ActionCaller = { role, userId: user?.userId, readOnly };
  const canAdd = !readOnly && role !== undefined && (ACCOUNT_MANAGER_ROLES as readonly Role[]).includes(role);
  const manageable = role && canAdd ? manageableRoles(role) : [];
  const mayFlip = (row: UserRow, action: 'enableGoogleVerify' | 'setAllowModify') =>
    userActionRefusal(action, caller, row, new Date()) === null;
  const [adding, setAdding] = useState(false);
  const action = useUserAction();
  const running = (key: string) => action.isPending && action.variables?.key === key;
  const run = (a: Action, after?: () => void) => action.mutate(a, after ? { onSuccess: after } : undefined);
  const yesNo = (v: boolean) => <Tag color={v ? 'success' : 'default'}>{v ? t('yes') : t('no')}</Tag>;
  const actions: RowActions<UserRow> = {
    actions: userRowActions(caller),
    testIdPrefix: 'user',
    testIdOf: (row) => row.account,
    textValues: (row) => ({ account: row.account }),
    errorText: (error) => failureText(t, i18n, error),
    failed: null,
    onDone: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  };

  return (
    <div className="page">
      <ListTable<UserRow>
        testId="user-list"
        viewKey="accountManagement"
        queryKey={userKeys.list}
        rowKey="id"
        fetchPage={(p) => call(endpoints.users.getUserList, p)}
        exportHref={(f) => exportUrl(endpoints.users.exportUserList, f)}
        actions={actions}
        toolbar={
          canAdd && (
            <Button type="primary" data-testid="user-add" onClick={() => setAdding(true)}>
              {t('action.add')}
            </Button>
          )
        }
        filters={[
          { kind: 'text', name: 'account', label: t('filter.account') },
          {
            kind: 'select',
            name: 'role',
            label: t('filter.role'),
            options: ROLES.map((r) => ({ value: r, label: t(`common:role.${r}`) })),
          },
          {
            kind: 'select',
            name: 'includeDeleted',
            label: t('filter.includeDeleted'),
            options: [
              { value: 'true', label: t('yes') },
              { value: 'false', label: t('no') },
            ],
          },
        ]}
        columns={[
          { title: t('column.id'), dataIndex: 'id' },
          {
            title: t('column.account'),
            dataIndex: 'account',
            render: (account: string, row) => (
              <Space size={4}>
                {account}
                {row.deletedAt && <Tag>{t('deleted')}</Tag>}
              </Space>
            ),
          },
          { title: t('column.nickname'), dataIndex: 'nickname' },
          { title: t('column.role'), dataIndex: 'role', render: (r: Role) => t(`common:role.${r}`) },
          { title: t('column.confirmBind'), dataIndex: 'confirmBind', render: yesNo },
          {
            title: t('column.enableGoogleVerify'),
            dataIndex: 'enableGoogleVerify',
            render: (on: boolean, row) => (
              <Switch
                size="small"
                checked={on}
                disabled={!mayFlip(row, 'enableGoogleVerify')}
                loading={running(`${row.id}:googleVerify`)}
                aria-label={t('common:a11y.rowControl', { what: t('column.enableGoogleVerify'), row: row.account })}
                data-testid={`user-google-verify-${row.account}`}
                onChange={(next) =>
                  run({
                    key: `${row.id}:googleVerify`,
                    run: () => call(endpoints.auth.enableGoogleVerify, { userId: row.id, enableGoogleVerify: next }),
                    success: next ? 'success.opened' : 'success.closed',
                    failure: 'update',
                  })
                }
              />
            ),
          },
          {
            title: t('column.allowModify'),
            dataIndex: 'allowModify',
            render: (on: boolean, row) => (
              <Switch
                size="small"
                checked={on}
                disabled={!mayFlip(row, 'setAllowModify')}
                loading={running(`${row.id}:allowModify`)}
                aria-label={t('common:a11y.rowControl', { what: t('column.allowModify'), row: row.account })}
                data-testid={`user-allow-modify-${row.account}`}
                onChange={(next) =>
                  run({
                    key: `${row.id}:allowModify`,
                    run: () => call(endpoints.auth.setAllowModify, { userId: row.id, allowModify: next }),
                    success: next ? 'success.opened' : 'success.closed',
                    failure: 'update',
                  })
                }
              />
            ),
          },
          { title: t('column.hasPayPassword'), dataIndex: 'hasPayPassword', render: yesNo },
          {
            title: t('column.failedLogin'),
            dataIndex: 'failedLoginCount',
            render: (count: number, row) => (
              <Space size={4}>
                {count}
                {row.lockedUntil && dayjs(row.lockedUntil).isAfter(dayjs()) && (
                  <Tooltip title={t('lockedUntil', { time: formatTime(row.lockedUntil) })}>
                    <Tag color="red" data-testid={`user-locked-${row.account}`}>
                      {t('locked')}
                    </Tag>
                  </Tooltip>
                )}
              </Space>
            ),
          },
          { title: t('column.lastLogin'), dataIndex: 'lastLoginAt', render: formatTime },
          { title: t('column.createdAt'), dataIndex: 'createdAt', render: formatTime },
        ]}
      />
      {adding && (
        <UserFormModal
          row={null}
          roles={manageable}
          pending={action.isPending}
          onClose={() => setAdding(false)}
          onSubmit={(v) =>
            run(
              {
                key: 'add',
                run: () =>
                  call(endpoints.users.addUser, {
                    nickname: v.nickname,
                    account: v.account,
                    password: v.password ?? '',
                    access: v.role,
                  }),
                success: 'success.add',
                failure: 'add',
              },
              () => setAdding(false),
            )
          }
        />
      )}
    </div>
  );
}
