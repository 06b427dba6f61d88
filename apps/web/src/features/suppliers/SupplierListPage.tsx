import { ACCOUNT_MANAGER_ROLES, endpoints, type Role, routeByPath, type SupplierRow } from '@paydesk/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Drawer, Form, Input, Modal, Radio, Select, Space, Tag } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { errorText } from '../../shared/api/errorText';
import { call, exportUrl } from '../../shared/api/http';
import { NewAccountFields } from '../../shared/forms/AccountFields';
import { EnabledSwitch } from '../../shared/forms/EnabledSwitch';
import { BalanceProposalButton } from '../../shared/funds/BalanceProposalButton';
import { PendingProposals } from '../../shared/funds/PendingProposals';
import { type FilterField, type ListColumn, ListTable } from '../../shared/list/ListTable';
import { PartyProductsPanel } from '../../shared/products/PartyProductsPanel';
import { useSession } from '../../shared/session/session';
import { supplierKeys } from './api';

const at = (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm:ss');

/** Roles that may read a party's product settings (the products drawer). */
const PRODUCT_READERS: readonly Role[] = ['superAdmin', 'admin', 'customerService', 'technicalMaintenance'];

interface CreateValues {
  mode: 'newAccount' | 'linkAccount';
  name: string;
  account?: string;
  nickname?: string;
  password?: string;
  userId?: number;
  remark?: string;
}

/** Add a supplier: with a new sign-in account, or on an unlinked supplier account. */
function CreateSupplierModal(props: { pending: boolean; onSubmit(values: CreateValues): void; onClose(): void }) {
  const { t } = useTranslation(['suppliers', 'common']);
  const [form] = Form.useForm<CreateValues>();
  const mode = Form.useWatch('mode', form) ?? 'newAccount';
  const unused = useQuery({
    queryKey: supplierKeys.unusedAccounts,
    queryFn: () => call(endpoints.users.getUnusedUserOptions, { role: 'supplier' }),
    enabled: mode === 'linkAccount',
  });
  return (
    <Modal
      open
      title={t('form.createTitle')}
      okText={t('common:action.save')}
      cancelText={t('common:action.cancel')}
      confirmLoading={props.pending}
      onOk={() => form.submit()}
      onCancel={props.onClose}
    >
      <Form<CreateValues>
        form={form}
        layout="vertical"
        data-testid="supplier-form"
        initialValues={{ mode: 'newAccount' }}
        onFinish={(v) => props.onSubmit(v)}
      >
        <Form.Item name="mode" label={t('form.mode')}>
          <Radio.Group data-testid="supplier-form-mode">
            <Radio value="newAccount" data-testid="supplier-form-mode-new">
              {t('form.modeNew')}
            </Radio>
            <Radio value="linkAccount" data-testid="supplier-form-mode-link">
              {t('form.modeLink')}
            </Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item
          name="name"
          label={t('form.name')}
          rules={[{ required: true, whitespace: true, message: t('rule.nameRequired') }, { max: 64 }]}
        >
          <Input autoComplete="off" data-testid="supplier-form-name" />
        </Form.Item>
        {mode === 'newAccount' ? (
          <NewAccountFields
            testIdPrefix="supplier-form"
            texts={{
              account: t('form.account'),
              accountRequired: t('rule.requiredFields'),
              nickname: t('form.nickname'),
              nicknameHint: t('form.nicknameHint'),
              password: t('form.password'),
            }}
          />
        ) : (
          <Form.Item
            name="userId"
            label={t('form.linkAccount')}
            rules={[{ required: true, message: t('rule.linkAccountRequired') }]}
          >
            <Select
              data-testid="supplier-form-user"
              loading={unused.isFetching}
              showSearch={{ optionFilterProp: 'label' }}
              options={(unused.data ?? []).map((u) => ({ value: u.id, label: `${u.account} (${u.nickname})` }))}
            />
          </Form.Item>
        )}
        <Form.Item name="remark" label={t('form.remark')}>
          <Input.TextArea maxLength={500} data-testid="supplier-form-remark" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function EditSupplierModal(props: {
  row: SupplierRow;
  pending: boolean;
  onSubmit(values: { name: string; remark: string }): void;
  onClose(): void;
}) {
  const { t } = useTranslation(['suppliers', 'common']);
  const [form] = Form.useForm<{ name: string; remark?: string }>();
  return (
    <Modal
      open
      title={t('form.editTitle', { name: props.row.name })}
      okText={t('common:action.save')}
      cancelText={t('common:action.cancel')}
      confirmLoading={props.pending}
      onOk={() => form.submit()}
      onCancel={props.onClose}
    >
      <Form
        form={form}
        layout="vertical"
        data-testid="supplier-edit-form"
        initialValues={{ name: props.row.name, remark: props.row.remark }}
        onFinish={(v) => props.onSubmit({ name: v.name.trim(), remark: (v.remark ?? '').trim() })}
      >
        <Form.Item
          name="name"
          label={t('form.name')}
          rules={[{ required: true, whitespace: true, message: t('rule.nameRequired') }, { max: 64 }]}
        >
          <Input autoComplete="off" data-testid="supplier-edit-name" />
        </Form.Item>
        <Form.Item name="remark" label={t('form.remark')}>
          <Input.TextArea maxLength={500} data-testid="supplier-edit-remark" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

interface Action {
  key: string;
  run(): Promise<unknown>;
  success: string;
}

type Dialog = { kind: 'create' } | { kind: 'edit'; row: SupplierRow } | { kind: 'products'; row: SupplierRow };

/**
 * Suppliers › supplier list (`supplierList`: admin and superAdmin manage, technicalSupport reads) and
 * its customer-service variant (`supplierListCustomerService`: read only). Balances in minor units with
 * totals over the filtered set; deposits and withdrawals are balance proposals (funds).
 * Test hooks: `supplier-list`, `supplier-create`, per row `supplier-edit-<account>`,
 * `supplier-enabled-<account>`, `supplier-products-<account>`; the form `supplier-form-*`.
 */
export default function SupplierListPage() {
  const { t, i18n } = useTranslation(['suppliers', 'common']);
  const { user } = useSession();
  const { pathname } = useLocation();
  const route = routeByPath(pathname);
  const viewKey = route?.name ?? 'supplierList';
  const role = user?.access;
  const canEdit =
    route?.readOnly !== true &&
    viewKey === 'supplierList' &&
    role !== undefined &&
    (ACCOUNT_MANAGER_ROLES as readonly Role[]).includes(role);
  const canReadProducts = role !== undefined && PRODUCT_READERS.includes(role);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const action = useMutation({
    mutationFn: (a: Action) => a.run(),
    onSuccess: async (_d, a) => {
      void message.success(t(a.success));
      await queryClient.invalidateQueries({ queryKey: supplierKeys.all });
    },
    onError: (error) => void message.error(errorText(i18n, error)),
  });
  const run = (a: Action, after?: () => void) => action.mutate(a, after ? { onSuccess: after } : undefined);
  const close = () => setDialog(null);

  const filters: FilterField[] = [
    { kind: 'text', name: 'account', label: t('filter.account') },
    { kind: 'text', name: 'name', label: t('filter.name') },
    {
      kind: 'select',
      name: 'enabled',
      label: t('filter.enabled'),
      options: [
        { value: 'true', label: t('filter.on') },
        { value: 'false', label: t('filter.off') },
      ],
    },
    {
      kind: 'select',
      name: 'kind',
      label: t('filter.kind'),
      options: [
        { value: 'supplier', label: t('kind.supplier') },
        { value: 'agent', label: t('kind.agent') },
      ],
    },
    { kind: 'number', name: 'parentId', label: t('filter.parentId') },
  ];

  const columns: Array<ListColumn<SupplierRow>> = [
    { title: t('column.id'), dataIndex: 'id', key: 'id' },
    { title: t('column.account'), dataIndex: 'account', key: 'account' },
    { title: t('column.name'), dataIndex: 'name', key: 'name', phone: 'title' },
    {
      title: t('column.kind'),
      key: 'kind',
      render: (_: unknown, row) =>
        row.parentId === null ? <Tag color="blue">{t('kind.supplier')}</Tag> : <Tag>{t('kind.agent')}</Tag>,
    },
    {
      title: t('column.parent'),
      dataIndex: 'parentName',
      key: 'parentName',
      render: (v: string | null, row) => (v ? `${v} (${row.parentId})` : ''),
    },
    { title: t('column.agentCount'), dataIndex: 'agentCount', key: 'agentCount' },
    {
      title: t('column.enabled'),
      dataIndex: 'enabled',
      key: 'enabled',
      render: (on: boolean, row) => (
        <EnabledSwitch
          checked={on}
          disabled={!canEdit}
          testId={`supplier-enabled-${row.account}`}
          label={t('common:a11y.rowControl', { what: t('column.enabled'), row: row.account })}
          onToggle={(enabled) => call(endpoints.suppliers.setEnabled, { id: row.id, enabled })}
          invalidate={supplierKeys.all}
        />
      ),
    },
    { title: t('column.balance'), dataIndex: 'balance', key: 'balance', money: true, sortKey: 'balance' },
    {
      title: t('column.frozenBalance'),
      dataIndex: 'frozenBalance',
      key: 'frozenBalance',
      money: true,
      sortKey: 'frozenBalance',
    },
    { title: t('column.remark'), dataIndex: 'remark', key: 'remark' },
    { title: t('column.createdAt'), dataIndex: 'createdAt', key: 'createdAt', sortKey: 'createdAt', render: at },
  ];
  if (canEdit || canReadProducts) {
    columns.push({
      title: t('column.actions'),
      key: 'actions',
      render: (_: unknown, row) => (
        <Space size={0} wrap>
          {canEdit && (
            <Button
              type="link"
              size="small"
              data-testid={`supplier-edit-${row.account}`}
              onClick={() => setDialog({ kind: 'edit', row })}
            >
              {t('action.edit')}
            </Button>
          )}
          {canReadProducts && (
            <Button
              type="link"
              size="small"
              data-testid={`supplier-products-${row.account}`}
              onClick={() => setDialog({ kind: 'products', row })}
            >
              {t('action.products')}
            </Button>
          )}
          {canEdit && (
            <BalanceProposalButton
              partyKind="supplier"
              partyId={row.id}
              partyName={row.name}
              kinds={['deposit', 'withdraw', 'adjust']}
            />
          )}
        </Space>
      ),
    });
  }

  return (
    <div className="page">
      {canEdit && <PendingProposals partyKind="supplier" />}
      <ListTable<SupplierRow>
        testId="supplier-list"
        viewKey={viewKey}
        queryKey={supplierKeys.list}
        rowKey="id"
        fetchPage={(p) => call(endpoints.suppliers.getList, p)}
        exportHref={(f) => exportUrl(endpoints.suppliers.exportList, f)}
        filters={filters}
        columns={columns}
        toolbar={
          canEdit && (
            <Button type="primary" data-testid="supplier-create" onClick={() => setDialog({ kind: 'create' })}>
              {t('action.create')}
            </Button>
          )
        }
      />
      {dialog?.kind === 'create' && (
        <CreateSupplierModal
          pending={action.isPending}
          onClose={close}
          onSubmit={(v) =>
            run(
              {
                key: 'create',
                run: () =>
                  call(
                    endpoints.suppliers.create,
                    v.mode === 'newAccount'
                      ? {
                          mode: 'newAccount',
                          name: v.name.trim(),
                          account: (v.account ?? '').trim(),
                          ...(v.nickname?.trim() ? { nickname: v.nickname.trim() } : {}),
                          password: v.password ?? '',
                          remark: (v.remark ?? '').trim(),
                        }
                      : {
                          mode: 'linkAccount',
                          name: v.name.trim(),
                          userId: v.userId ?? 0,
                          remark: (v.remark ?? '').trim(),
                        },
                  ),
                success: 'success.create',
              },
              close,
            )
          }
        />
      )}
      {dialog?.kind === 'edit' && (
        <EditSupplierModal
          row={dialog.row}
          pending={action.isPending}
          onClose={close}
          onSubmit={(v) =>
            run(
              {
                key: `${dialog.row.id}:update`,
                run: () => call(endpoints.suppliers.update, { id: dialog.row.id, ...v }),
                success: 'success.update',
              },
              close,
            )
          }
        />
      )}
      <Drawer
        open={dialog?.kind === 'products'}
        size="large"
        title={dialog?.kind === 'products' ? t('products.title', { name: dialog.row.name }) : ''}
        onClose={close}
        destroyOnHidden
        data-testid="supplier-products-drawer"
      >
        {dialog?.kind === 'products' && (
          // biome-ignore lint/a11y/useValidAriaRole: `role` here is the panel's party kind, not an ARIA role
          <PartyProductsPanel userId={dialog.row.userId} role="supplier" readOnly={!canEdit} />
        )}
      </Drawer>
    </div>
  );
}
