import {
  ACCOUNT_MANAGER_ROLES,
  Code,
  endpoints,
  manageableRoles,
  ROLES,
  type Role,
  routeByPath,
  type UserRow,
} from '@paydesk/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Checkbox,
  Form,
  Input,
  Modal,
  Popconfirm,
  Select,
  Space,
  Switch,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { errorText } from '../../shared/api/errorText';
import { ApiError, call, exportUrl } from '../../shared/api/http';
import { AccountItem, PasswordItem } from '../../shared/forms/AccountFields';
import { ListTable } from '../../shared/list/ListTable';
import { useSession } from '../../shared/session/session';
import { userKeys } from './api';

const at = (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm:ss') : '');

interface Action {
  /** Identifies what is running (row and kind), for the loading state of switches. */
  key: string;
  run(): Promise<unknown>;
  /** Key under `success.` (or any full key) shown when it worked. */
  success: string;
  /** How a failure reads: the spec's 'update failed' for edits, the generic text otherwise. */
  failure?: 'update' | 'add';
}

/** Runs one change, then toasts and reloads the list; failures toast the refusal in the reader's language. */
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
      const text = errorText(i18n, error);
      void message.error(
        action.failure === 'update'
          ? t('error.updateFailed', { message: text })
          : t('common:error.generic', { message: text }),
      );
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
            options={props.roles.map((r) => ({ value: r, label: t(`common:role.${r}`) }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Repair: give an account a new account name. */
function RepairModal(props: { row: UserRow; pending: boolean; onSubmit(name: string): void; onClose(): void }) {
  const { t } = useTranslation(['users', 'common']);
  const [form] = Form.useForm<{ newAccountName: string }>();
  return (
    <Modal
      open
      title={t('form.repairTitle', { account: props.row.account })}
      okText={t('common:action.ok')}
      cancelText={t('common:action.cancel')}
      confirmLoading={props.pending}
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
function RebindModal(props: {
  row: UserRow;
  pending: boolean;
  onSubmit(needToLogout: boolean): void;
  onClose(): void;
}) {
  const { t } = useTranslation(['users', 'common']);
  const [needToLogout, setNeedToLogout] = useState(true);
  return (
    <Modal
      open
      title={t('form.rebindTitle', { account: props.row.account })}
      okText={t('common:action.ok')}
      cancelText={t('common:action.cancel')}
      confirmLoading={props.pending}
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

type Dialog =
  | { kind: 'add' }
  | { kind: 'edit'; row: UserRow }
  | { kind: 'repair'; row: UserRow }
  | { kind: 'rebind'; row: UserRow };

/**
 * System management › account management: console accounts with their sign-in state. superAdmin and
 * admin manage them on the editable route; the read-only route (technicalMaintenance) and other roles
 * only read. Test hooks: `user-add`, and per row `user-<action>-<account>` (edit, delete, repair,
 * reset-paypassword, rebind, unbind, clear-lock, google-verify, allow-modify).
 */
export default function AccountManagementPage() {
  const { t } = useTranslation(['users', 'common']);
  const { user } = useSession();
  const { pathname } = useLocation();
  const role = user?.access;
  const readOnly = routeByPath(pathname)?.readOnly === true;
  const canManage = !readOnly && role !== undefined && (ACCOUNT_MANAGER_ROLES as readonly Role[]).includes(role);
  const manageable = role && canManage ? manageableRoles(role) : [];
  const canManageRow = (row: UserRow) => canManage && row.deletedAt === null && manageable.includes(row.role);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const action = useUserAction();
  const running = (key: string) => action.isPending && action.variables?.key === key;
  const close = () => setDialog(null);
  const run = (a: Action, after?: () => void) => action.mutate(a, after ? { onSuccess: after } : undefined);
  const yesNo = (v: boolean) => <Tag color={v ? 'success' : 'default'}>{v ? t('yes') : t('no')}</Tag>;

  return (
    <div className="page">
      <ListTable<UserRow>
        testId="user-list"
        viewKey="accountManagement"
        queryKey={userKeys.list}
        rowKey="id"
        fetchPage={(p) => call(endpoints.users.getUserList, p)}
        exportHref={(f) => exportUrl(endpoints.users.exportUserList, f)}
        toolbar={
          canManage && (
            <Button type="primary" data-testid="user-add" onClick={() => setDialog({ kind: 'add' })}>
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
                disabled={!canManageRow(row)}
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
                disabled={!canManageRow(row)}
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
                  <Tooltip title={t('lockedUntil', { time: at(row.lockedUntil) })}>
                    <Tag color="red" data-testid={`user-locked-${row.account}`}>
                      {t('locked')}
                    </Tag>
                  </Tooltip>
                )}
              </Space>
            ),
          },
          { title: t('column.lastLogin'), dataIndex: 'lastLoginAt', render: at },
          { title: t('column.createdAt'), dataIndex: 'createdAt', render: at },
          ...(canManage
            ? [
                {
                  title: t('column.actions'),
                  key: 'actions',
                  render: (_: unknown, row: UserRow) =>
                    canManageRow(row) && (
                      <Space size={0} wrap>
                        <Button
                          type="link"
                          size="small"
                          data-testid={`user-edit-${row.account}`}
                          onClick={() => setDialog({ kind: 'edit', row })}
                        >
                          {t('action.edit')}
                        </Button>
                        {row.id !== user?.userId && (
                          <Popconfirm
                            title={t('confirm.delete', { account: row.account })}
                            okText={t('common:action.ok')}
                            cancelText={t('common:action.cancel')}
                            onConfirm={() =>
                              run({
                                key: `${row.id}:delete`,
                                run: () => call(endpoints.users.deleteUser, { id: row.id }),
                                success: 'success.delete',
                              })
                            }
                          >
                            <Button type="link" size="small" danger data-testid={`user-delete-${row.account}`}>
                              {t('action.delete')}
                            </Button>
                          </Popconfirm>
                        )}
                        <Button
                          type="link"
                          size="small"
                          data-testid={`user-repair-${row.account}`}
                          onClick={() => setDialog({ kind: 'repair', row })}
                        >
                          {t('action.repair')}
                        </Button>
                        <Popconfirm
                          title={t('confirm.resetPayPassword', { account: row.account })}
                          okText={t('common:action.ok')}
                          cancelText={t('common:action.cancel')}
                          onConfirm={() =>
                            run({
                              key: `${row.id}:resetPayPassword`,
                              run: () => call(endpoints.users.resetPayPassword, { id: row.id }),
                              success: 'success.resetPayPassword',
                            })
                          }
                        >
                          <Button type="link" size="small" data-testid={`user-reset-paypassword-${row.account}`}>
                            {t('action.resetPayPassword')}
                          </Button>
                        </Popconfirm>
                        <Button
                          type="link"
                          size="small"
                          data-testid={`user-rebind-${row.account}`}
                          onClick={() => setDialog({ kind: 'rebind', row })}
                        >
                          {t('action.resetAuthenticator')}
                        </Button>
                        {(row.failedLoginCount > 0 || (row.lockedUntil && dayjs(row.lockedUntil).isAfter(dayjs()))) && (
                          <Popconfirm
                            title={t('confirm.clearSignInLock', { account: row.account })}
                            okText={t('common:action.ok')}
                            cancelText={t('common:action.cancel')}
                            onConfirm={() =>
                              run({
                                key: `${row.id}:clearSignInLock`,
                                run: () => call(endpoints.auth.clearSignInLock, { userId: row.id }),
                                success: 'success.clearSignInLock',
                              })
                            }
                          >
                            <Button type="link" size="small" data-testid={`user-clear-lock-${row.account}`}>
                              {t('action.clearSignInLock')}
                            </Button>
                          </Popconfirm>
                        )}
                        <Popconfirm
                          title={t('confirm.unbind', { account: row.account })}
                          okText={t('common:action.ok')}
                          cancelText={t('common:action.cancel')}
                          onConfirm={() =>
                            run({
                              key: `${row.id}:unbind`,
                              run: () => call(endpoints.auth.unbind, { userAccount: row.account }),
                              success: 'success.unbind',
                            })
                          }
                        >
                          <Button type="link" size="small" danger data-testid={`user-unbind-${row.account}`}>
                            {t('action.unbind')}
                          </Button>
                        </Popconfirm>
                      </Space>
                    ),
                },
              ]
            : []),
        ]}
      />
      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
        <UserFormModal
          row={dialog.kind === 'edit' ? dialog.row : null}
          roles={manageable}
          pending={action.isPending}
          onClose={close}
          onSubmit={(v) => {
            if (dialog.kind === 'add') {
              const password = v.password ?? '';
              run(
                {
                  key: 'add',
                  run: () =>
                    call(endpoints.users.addUser, {
                      nickname: v.nickname,
                      account: v.account,
                      password,
                      access: v.role,
                    }),
                  success: 'success.add',
                  failure: 'add',
                },
                close,
              );
            } else {
              const { row } = dialog;
              run(
                {
                  key: `${row.id}:update`,
                  run: () =>
                    call(endpoints.users.updateUser, {
                      id: row.id,
                      nickname: v.nickname,
                      account: v.account,
                      role: v.role,
                      ...(v.password ? { password: v.password } : {}),
                    }),
                  success: 'success.update',
                  failure: 'update',
                },
                close,
              );
            }
          }}
        />
      )}
      {dialog?.kind === 'repair' && (
        <RepairModal
          row={dialog.row}
          pending={action.isPending}
          onClose={close}
          onSubmit={(newAccountName) =>
            run(
              {
                key: `${dialog.row.id}:repair`,
                run: () => call(endpoints.users.repairUser, { userId: dialog.row.id, newAccountName }),
                success: 'success.repair',
                failure: 'update',
              },
              close,
            )
          }
        />
      )}
      {dialog?.kind === 'rebind' && (
        <RebindModal
          row={dialog.row}
          pending={action.isPending}
          onClose={close}
          onSubmit={(needToLogout) =>
            run(
              {
                key: `${dialog.row.id}:rebind`,
                run: () => call(endpoints.auth.bindUser, { userAccount: dialog.row.account, needToLogout }),
                success: 'success.rebind',
              },
              close,
            )
          }
        />
      )}
    </div>
  );
}
