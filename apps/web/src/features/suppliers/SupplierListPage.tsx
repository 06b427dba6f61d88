import { AppstoreOutlined, EditOutlined } from '@ant-design/icons';
import { type Endpoint, endpoints, routeByPath, type SupplierRow } from '@paydesk/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Radio, Select, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { errorText } from '../../shared/api/errorText';
import { call, exportUrl } from '../../shared/api/http';
import { formatTime } from '../../shared/format/time';
import { NewAccountFields } from '../../shared/forms/AccountFields';
import { EnabledSwitch } from '../../shared/forms/EnabledSwitch';
import { proposalRowActions } from '../../shared/funds/BalanceProposalButton';
import { PendingProposals } from '../../shared/funds/PendingProposals';
import { type FilterField, type ListColumn, ListTable } from '../../shared/list/ListTable';
import {
  endpointRoles,
  type RowActionFormProps,
  type RowActionPanelProps,
  type RowActions,
  rowAction,
} from '../../shared/list/rowActions';
import { PartyProductsDrawer } from '../../shared/products/PartyProductsPanel';
import { useSession } from '../../shared/session/session';
import { supplierKeys } from './api';

const { suppliers: api } = endpoints;

/**
 * Whether this page only reads: the customer service variant (`supplierListCustomerService`) and any
 * read-only route. What a role may do on the managing page is the contract's access of each endpoint.
 */
function useReadOnly(): boolean {
  const route = routeByPath(useLocation().pathname);
  return route?.readOnly === true || (route?.name ?? 'supplierList') !== 'supplierList';
}

/** A row's products and commissions; editable where the page is not read-only (and the role manages products). */
function ProductsPanel({ row, onClose }: RowActionPanelProps<SupplierRow>) {
  const { t } = useTranslation('suppliers');
  const readOnly = useReadOnly();
  return (
    <PartyProductsDrawer
      userId={row.userId}
      party="supplier"
      readOnly={readOnly}
      title={t('products.title', { name: row.name })}
      testId="supplier-products-drawer"
      onClose={onClose}
    />
  );
}

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

interface EditValues {
  name: string;
  remark: string;
}

/** The edit form of a row: name and remark. */
function EditSupplierModal(props: RowActionFormProps<SupplierRow, EditValues>) {
  const { t } = useTranslation(['suppliers', 'common']);
  const [form] = Form.useForm<{ name: string; remark?: string }>();
  return (
    <Modal
      open
      title={t('form.editTitle', { name: props.row.name })}
      okText={t('common:action.save')}
      cancelText={t('common:action.cancel')}
      confirmLoading={props.busy}
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

/**
 * Suppliers › supplier list (`supplierList`: admin and superAdmin manage, technicalSupport reads) and
 * its customer-service variant (`supplierListCustomerService`: read only). Balances in minor units with
 * totals over the filtered set; deposits and withdrawals are balance proposals (funds).
 * Row actions (declared, drawn by ListTable): edit (a form), products (a drawer), and the balance
 * proposals the row's `proposalKinds` allow (the server's rule); the first two a row allows are
 * buttons, the rest in its 'more' menu. Test hooks: `supplier-list`, `supplier-create`, per row
 * `supplier-<action>-<account>` (edit, products, propose-deposit, propose-withdraw, propose-adjust,
 * more) and `supplier-enabled-<account>`; the forms `supplier-form-*`, `supplier-edit-*`.
 */
export default function SupplierListPage() {
  const { t, i18n } = useTranslation(['suppliers', 'common']);
  const { user } = useSession();
  const { pathname } = useLocation();
  const route = routeByPath(pathname);
  const viewKey = route?.name ?? 'supplierList';
  const role = user?.access;
  const readOnly = useReadOnly();
  const may = (endpoint: Endpoint) => !readOnly && role !== undefined && endpointRoles(endpoint).includes(role);
  const [creating, setCreating] = useState(false);
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
  const close = () => setCreating(false);
  const reload = () => queryClient.invalidateQueries({ queryKey: supplierKeys.all });

  /** Most used first: a row shows the first two it allows, the rest in its 'more' menu. */
  const actions: RowActions<SupplierRow> = {
    actions: [
      rowAction<SupplierRow, EditValues>({
        key: 'edit',
        label: 'suppliers:action.edit',
        success: 'suppliers:success.update',
        icon: <EditOutlined />,
        roles: readOnly ? [] : endpointRoles(api.update),
        token2: api.update.token2,
        allowed: () => true,
        form: EditSupplierModal,
        run: (row, values) => call(api.update, { id: row.id, ...values }),
      }),
      rowAction<SupplierRow>({
        key: 'products',
        label: 'suppliers:action.products',
        icon: <AppstoreOutlined />,
        roles: endpointRoles(endpoints.products.getUserProductsForUser),
        allowed: () => true,
        panel: ProductsPanel,
      }),
      ...proposalRowActions<SupplierRow>('supplier', { readOnly }),
    ],
    testIdPrefix: 'supplier',
    testIdOf: (row) => row.account,
    textValues: (row) => ({ name: row.name }),
    failed: null,
    onDone: reload,
  };

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
          disabled={!may(api.setEnabled)}
          testId={`supplier-enabled-${row.account}`}
          label={t('common:a11y.rowControl', { what: t('column.enabled'), row: row.account })}
          onToggle={(enabled) => call(api.setEnabled, { id: row.id, enabled })}
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
    {
      title: t('column.createdAt'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      sortKey: 'createdAt',
      render: formatTime,
    },
  ];
  return (
    <div className="page">
      {may(endpoints.funds.propose) && <PendingProposals partyKind="supplier" />}
      <ListTable<SupplierRow>
        testId="supplier-list"
        viewKey={viewKey}
        queryKey={supplierKeys.list}
        rowKey="id"
        fetchPage={(p) => call(api.getList, p)}
        exportHref={(f) => exportUrl(api.exportList, f)}
        filters={filters}
        columns={columns}
        actions={actions}
        toolbar={
          may(api.create) && (
            <Button type="primary" data-testid="supplier-create" onClick={() => setCreating(true)}>
              {t('action.create')}
            </Button>
          )
        }
      />
      {creating && (
        <CreateSupplierModal
          pending={action.isPending}
          onClose={close}
          onSubmit={(v) =>
            run(
              {
                key: 'create',
                run: () =>
                  call(
                    api.create,
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
    </div>
  );
}
