import { AppstoreOutlined, EditOutlined, KeyOutlined } from '@ant-design/icons';
import { type Endpoint, endpoints, type MerchantRow, routeByPath } from '@paydesk/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { errorText } from '../../shared/api/errorText';
import { ApiError, call, exportUrl } from '../../shared/api/http';
import { formatTime } from '../../shared/format/time';
import { EnabledSwitch } from '../../shared/forms/EnabledSwitch';
import { proposalRowActions } from '../../shared/funds/BalanceProposalButton';
import { PendingProposals } from '../../shared/funds/PendingProposals';
import { type ListColumn, ListTable } from '../../shared/list/ListTable';
import {
  endpointRoles,
  type RowActionFormProps,
  type RowActionPanelProps,
  type RowActions,
  rowAction,
} from '../../shared/list/rowActions';
import { merchantKeys, whitelistEntries } from '../../shared/merchants/api';
import { MerchantCredentialsModal, SecretModal } from '../../shared/merchants/Credentials';
import { PartyProductsDrawer } from '../../shared/products/PartyProductsPanel';
import { useSession } from '../../shared/session/session';
import { MerchantFormModal, type MerchantFormValues } from './MerchantFormModal';

const { merchants: api } = endpoints;

/**
 * Whether this page only reads: the customer service variant (`merchantListCustomerService`) and any
 * read-only route. What a role may do on the managing page is the contract's access of each endpoint.
 */
function useReadOnly(): boolean {
  const route = routeByPath(useLocation().pathname);
  return route?.readOnly === true || route?.name !== 'merchantList';
}

/** The edit form of a row (the create form with the row's settings). */
function EditDialog({ row, busy, onSubmit, onClose }: RowActionFormProps<MerchantRow, MerchantFormValues>) {
  return <MerchantFormModal row={row} pending={busy} autoCreateOff={false} onSubmit={onSubmit} onClose={onClose} />;
}

/** A row's products and fees; editable where the page is not read-only (and the role manages products). */
function ProductsPanel({ row, onClose }: RowActionPanelProps<MerchantRow>) {
  const { t } = useTranslation('merchants');
  const readOnly = useReadOnly();
  return (
    <PartyProductsDrawer
      userId={row.userId}
      party="merchant"
      readOnly={readOnly}
      title={t('products.title', { name: row.name })}
      testId="merchant-products-drawer"
      onClose={onClose}
    />
  );
}

/** The settings fields of the form as the API takes them. */
function settingsOf(v: MerchantFormValues) {
  return {
    name: v.name.trim(),
    signType: v.signType,
    ipWhitelist: whitelistEntries(v.ipWhitelistText),
    notifyUrl: v.notifyUrl?.trim() ? v.notifyUrl.trim() : null,
    callbackEnabled: v.callbackEnabled,
    remark: v.remark?.trim() ?? '',
  };
}

/**
 * Merchants › merchant list. `merchantList` (admin, superAdmin) manages merchants; the customer
 * service route (`merchantListCustomerService`: customerService, technicalMaintenance) only reads.
 * Row actions (declared, drawn by ListTable): edit (a form), products (a drawer, read-only on the
 * customer service route), API credentials (a dialog), and the balance proposals the row's
 * `proposalKinds` allow (the server's rule); the first two a row allows are buttons, the rest in its
 * 'more' menu. Test hooks: `merchant-list`, `merchant-create`, and per row
 * `merchant-<action>-<merchantNo>` (enabled, edit, products, credentials, propose-adjust,
 * propose-clear, more).
 */
export default function MerchantListPage() {
  const { t, i18n } = useTranslation(['merchants', 'common']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const { pathname } = useLocation();
  const route = routeByPath(pathname);
  const readOnly = useReadOnly();
  const role = user?.access;
  const may = (endpoint: Endpoint) => !readOnly && role !== undefined && endpointRoles(endpoint).includes(role);
  const canCreate = may(api.create);
  const canSwitch = may(api.setEnabled);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ merchantNo: string; secret: string } | null>(null);
  const [autoCreateOff, setAutoCreateOff] = useState(false);
  const close = () => setCreating(false);
  const reload = () => queryClient.invalidateQueries({ queryKey: merchantKeys.all });
  const failure = (error: unknown) => errorText(i18n, error);

  const create = useMutation({
    mutationFn: (v: MerchantFormValues) =>
      call(api.create, {
        ...settingsOf(v),
        mode: v.mode,
        ...(v.mode === 'newAccount'
          ? {
              account: v.account?.trim() ?? '',
              password: v.password ?? '',
              ...(v.nickname?.trim() ? { nickname: v.nickname.trim() } : {}),
            }
          : { userId: v.userId ?? 0 }),
      }),
    onSuccess: async (data) => {
      close();
      setCreated({ merchantNo: data.merchantNo, secret: data.secret });
      void message.success(t('success.create'));
      await reload();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.reason === 'autoCreateOff') setAutoCreateOff(true);
      // The spec's words for an account that exists, as on the other add forms.
      const exists = error instanceof ApiError && error.reason === 'accountExists';
      void message.error(exists ? t('error.addFailed') : failure(error));
    },
  });

  /** Most used first: a row shows the first two it allows, the rest in its 'more' menu. */
  const actions: RowActions<MerchantRow> = {
    actions: [
      rowAction<MerchantRow, MerchantFormValues>({
        key: 'edit',
        label: 'merchants:action.edit',
        success: 'merchants:success.update',
        icon: <EditOutlined />,
        roles: readOnly ? [] : endpointRoles(api.update),
        token2: api.update.token2,
        allowed: () => true,
        form: EditDialog,
        run: (row, values) => call(api.update, { id: row.id, ...settingsOf(values) }),
      }),
      rowAction<MerchantRow>({
        key: 'products',
        label: 'merchants:action.products',
        icon: <AppstoreOutlined />,
        roles: endpointRoles(endpoints.products.getUserProductsForUser),
        allowed: () => true,
        panel: ProductsPanel,
      }),
      rowAction<MerchantRow>({
        key: 'credentials',
        label: 'merchants:action.credentials',
        icon: <KeyOutlined />,
        // Reveal and rotate ask for the second-level password themselves; the panel shows no secret.
        roles: readOnly ? [] : endpointRoles(api.revealSecret),
        allowed: () => true,
        panel: MerchantCredentialsModal,
      }),
      ...proposalRowActions<MerchantRow>('merchant', { readOnly }),
    ],
    testIdPrefix: 'merchant',
    testIdOf: (row) => row.merchantNo,
    textValues: (row) => ({ name: row.name }),
    failed: 'merchants:error.updateFailed',
    onDone: reload,
  };

  const yesNo = (v: boolean) => <Tag color={v ? 'success' : 'default'}>{v ? t('yes') : t('no')}</Tag>;

  const columns: Array<ListColumn<MerchantRow>> = [
    { title: t('column.id'), dataIndex: 'id', defaultHidden: true },
    { title: t('column.merchantNo'), dataIndex: 'merchantNo' },
    { title: t('column.name'), dataIndex: 'name', phone: 'title' },
    { title: t('column.account'), dataIndex: 'account' },
    {
      title: t('column.enabled'),
      dataIndex: 'enabled',
      render: (on: boolean, row) =>
        canSwitch ? (
          <EnabledSwitch
            checked={on}
            testId={`merchant-enabled-${row.merchantNo}`}
            label={t('common:a11y.rowControl', { what: t('column.enabled'), row: row.name })}
            onToggle={(enabled) => call(api.setEnabled, { id: row.id, enabled })}
            invalidate={merchantKeys.all}
          />
        ) : (
          <Tag color={on ? 'success' : 'default'} data-testid={`merchant-enabled-${row.merchantNo}`}>
            {on ? t('enabledOn') : t('enabledOff')}
          </Tag>
        ),
    },
    { title: t('column.signType'), dataIndex: 'signType' },
    {
      title: t('column.ipWhitelist'),
      dataIndex: 'ipWhitelist',
      render: (ips: string[]) => (ips.length === 0 ? t('anyAddress') : ips.map((ip) => <Tag key={ip}>{ip}</Tag>)),
    },
    { title: t('column.callbackEnabled'), dataIndex: 'callbackEnabled', render: yesNo },
    { title: t('column.notifyUrl'), dataIndex: 'notifyUrl', defaultHidden: true },
    { title: t('column.remark'), dataIndex: 'remark', defaultHidden: true },
    { title: t('column.balance'), dataIndex: 'balance', key: 'balance', money: true, sortKey: 'balance' },
    {
      title: t('column.frozenBalance'),
      dataIndex: 'frozenBalance',
      key: 'frozenBalance',
      money: true,
      sortKey: 'frozenBalance',
    },
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
      {may(endpoints.funds.propose) && <PendingProposals partyKind="merchant" />}
      <ListTable<MerchantRow>
        testId="merchant-list"
        viewKey={route?.name ?? 'merchantList'}
        queryKey={merchantKeys.list}
        rowKey="id"
        fetchPage={(p) => call(api.getList, p)}
        exportHref={(f) => exportUrl(api.exportList, f)}
        actions={actions}
        toolbar={
          canCreate && (
            <Button type="primary" data-testid="merchant-create" onClick={() => setCreating(true)}>
              {t('action.create')}
            </Button>
          )
        }
        filters={[
          { kind: 'text', name: 'merchantNo', label: t('filter.merchantNo') },
          { kind: 'text', name: 'name', label: t('filter.name') },
          { kind: 'text', name: 'account', label: t('filter.account') },
          {
            kind: 'select',
            name: 'enabled',
            label: t('filter.enabled'),
            options: [
              { value: 'true', label: t('enabledOn') },
              { value: 'false', label: t('enabledOff') },
            ],
          },
        ]}
        columns={columns}
      />
      {creating && (
        <MerchantFormModal
          row={null}
          pending={create.isPending}
          autoCreateOff={autoCreateOff}
          onClose={close}
          onSubmit={(values) => create.mutate(values)}
        />
      )}
      {created && (
        <SecretModal
          title={t('secret.createdTitle')}
          merchantNo={created.merchantNo}
          secret={created.secret}
          once
          onClose={() => setCreated(null)}
        />
      )}
    </div>
  );
}
