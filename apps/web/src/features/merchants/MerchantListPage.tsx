import { endpoints, type MerchantRow, type Role, routeByPath } from '@paydesk/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Drawer, Modal, Space, Tag } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { errorText } from '../../shared/api/errorText';
import { ApiError, call, exportUrl } from '../../shared/api/http';
import { EnabledSwitch } from '../../shared/forms/EnabledSwitch';
import { BalanceProposalButton } from '../../shared/funds/BalanceProposalButton';
import { PendingProposals } from '../../shared/funds/PendingProposals';
import { type ListColumn, ListTable } from '../../shared/list/ListTable';
import { merchantKeys, whitelistEntries } from '../../shared/merchants/api';
import { CredentialsPanel, SecretModal } from '../../shared/merchants/Credentials';
import { PartyProductsPanel } from '../../shared/products/PartyProductsPanel';
import { useSession } from '../../shared/session/session';
import { MerchantFormModal, type MerchantFormValues } from './MerchantFormModal';

const EDITORS: readonly Role[] = ['superAdmin', 'admin'];
const at = (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm:ss');

type Dialog =
  | { kind: 'create' }
  | { kind: 'edit'; row: MerchantRow }
  | { kind: 'credentials'; row: MerchantRow }
  | { kind: 'products'; row: MerchantRow };

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
 * Test hooks: `merchant-list`, `merchant-create`, and per row `merchant-<action>-<merchantNo>`
 * (enabled, edit, credentials; products on both routes, read-only on the customer service one).
 */
export default function MerchantListPage() {
  const { t, i18n } = useTranslation(['merchants', 'common']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const { pathname } = useLocation();
  const route = routeByPath(pathname);
  const canEdit = route?.name === 'merchantList' && user !== null && EDITORS.includes(user.access);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [created, setCreated] = useState<{ merchantNo: string; secret: string } | null>(null);
  const [autoCreateOff, setAutoCreateOff] = useState(false);
  const close = () => setDialog(null);
  const reload = () => queryClient.invalidateQueries({ queryKey: merchantKeys.all });
  const failure = (error: unknown) => errorText(i18n, error);

  const create = useMutation({
    mutationFn: (v: MerchantFormValues) =>
      call(endpoints.merchants.create, {
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

  const update = useMutation({
    mutationFn: ({ id, values }: { id: number; values: MerchantFormValues }) =>
      call(endpoints.merchants.update, { id, ...settingsOf(values) }),
    onSuccess: async () => {
      close();
      void message.success(t('success.update'));
      await reload();
    },
    onError: (error) => void message.error(t('error.updateFailed', { message: failure(error) })),
  });

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
        canEdit ? (
          <EnabledSwitch
            checked={on}
            testId={`merchant-enabled-${row.merchantNo}`}
            label={t('common:a11y.rowControl', { what: t('column.enabled'), row: row.name })}
            onToggle={(enabled) => call(endpoints.merchants.setEnabled, { id: row.id, enabled })}
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
    { title: t('column.createdAt'), dataIndex: 'createdAt', key: 'createdAt', sortKey: 'createdAt', render: at },
  ];
  columns.push({
    title: t('column.actions'),
    key: 'actions',
    render: (_: unknown, row: MerchantRow) => (
      <Space size={0} wrap>
        {canEdit && (
          <Button
            type="link"
            size="small"
            data-testid={`merchant-edit-${row.merchantNo}`}
            onClick={() => setDialog({ kind: 'edit', row })}
          >
            {t('action.edit')}
          </Button>
        )}
        {canEdit && (
          <Button
            type="link"
            size="small"
            data-testid={`merchant-credentials-${row.merchantNo}`}
            onClick={() => setDialog({ kind: 'credentials', row })}
          >
            {t('action.credentials')}
          </Button>
        )}
        <Button
          type="link"
          size="small"
          data-testid={`merchant-products-${row.merchantNo}`}
          onClick={() => setDialog({ kind: 'products', row })}
        >
          {t('action.products')}
        </Button>
        {canEdit && (
          <BalanceProposalButton
            partyKind="merchant"
            partyId={row.id}
            partyName={row.name}
            kinds={['adjust', 'clear']}
          />
        )}
      </Space>
    ),
  });

  return (
    <div className="page">
      {canEdit && <PendingProposals partyKind="merchant" />}
      <ListTable<MerchantRow>
        testId="merchant-list"
        viewKey={route?.name ?? 'merchantList'}
        queryKey={merchantKeys.list}
        rowKey="id"
        fetchPage={(p) => call(endpoints.merchants.getList, p)}
        exportHref={(f) => exportUrl(endpoints.merchants.exportList, f)}
        toolbar={
          canEdit && (
            <Button type="primary" data-testid="merchant-create" onClick={() => setDialog({ kind: 'create' })}>
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
      {(dialog?.kind === 'create' || dialog?.kind === 'edit') && (
        <MerchantFormModal
          row={dialog.kind === 'edit' ? dialog.row : null}
          pending={create.isPending || update.isPending}
          autoCreateOff={autoCreateOff}
          onClose={close}
          onSubmit={(values) =>
            dialog.kind === 'edit' ? update.mutate({ id: dialog.row.id, values }) : create.mutate(values)
          }
        />
      )}
      {dialog?.kind === 'credentials' && (
        <Modal
          open
          title={t('credentials.title', { name: dialog.row.name })}
          onCancel={close}
          footer={null}
          data-testid="merchant-credentials-modal"
        >
          <CredentialsPanel merchant={dialog.row} />
        </Modal>
      )}
      {dialog?.kind === 'products' && (
        <Drawer open width={720} title={t('products.title', { name: dialog.row.name })} onClose={close}>
          {/* biome-ignore lint/a11y/useValidAriaRole: `role` here is the panel's party kind, not an ARIA role */}
          <PartyProductsPanel userId={dialog.row.userId} role="merchant" readOnly={!canEdit} />
        </Drawer>
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
