import { EditOutlined } from '@ant-design/icons';
import { endpoints, PRODUCTS, type Role, routeByPath, type UserProductRow } from '@paydesk/contract';
import { Button, Tabs, Tag, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { call, exportUrl } from '../../shared/api/http';
import { formatMoney, formatRate } from '../../shared/format/money';
import { formatTime } from '../../shared/format/time';
import { type ListColumn, ListTable } from '../../shared/list/ListTable';
import { endpointRoles, type RowActionPanelProps, type RowActions, rowAction } from '../../shared/list/rowActions';
import { productKeys, useCanManageProducts, usePartyOptions } from '../../shared/products/api';
import { useProductName } from '../../shared/products/productName';
import { UserProductFormModal } from '../../shared/products/UserProductFormModal';
import { ProductCatalogue } from './ProductCatalogue';

/** The edit action's panel: the settings dialog, which saves and reloads the lists itself. */
function EditUserProductPanel(props: RowActionPanelProps<UserProductRow>) {
  const { row } = props;
  return (
    <UserProductFormModal
      target={{ userId: row.userId, account: row.account, role: row.role, productId: row.productId }}
      initial={row}
      onClose={props.onClose}
    />
  );
}

/** Money columns of a setting: null means "the product's", "no limit" or "not required" by column. */
function limitText(v: number | null, empty: string): ReactNode {
  return v === null ? <Typography.Text type="secondary">{empty}</Typography.Text> : formatMoney(v);
}

/**
 * System management › user product config (routes userProductConfig and userProductConfigReadOnly):
 * every party's product settings with filters and CSV export, and the product catalogue. superAdmin
 * and admin edit on the editable route: a declared row action (rowActions.tsx) open to the roles
 * saveUserProduct is, on every row (a listed row is a live party's setting; what the server checks
 * then is the form's values: products.offered.test). Test hooks: `user-product-list`,
 * `user-product-add`, `user-product-edit-<account>-<productId>`, `user-product-actions-<account>-<productId>`,
 * `user-product-tab-settings`, `user-product-tab-catalogue`.
 */
export default function UserProductConfigPage() {
  const { t } = useTranslation(['products', 'common']);
  const { pathname } = useLocation();
  const readOnly = routeByPath(pathname)?.readOnly === true;
  const routeName = routeByPath(pathname)?.name ?? 'userProductConfig';
  const canManage = useCanManageProducts(readOnly);
  const productName = useProductName();
  const options = usePartyOptions();
  const [adding, setAdding] = useState(false);
  const [tab, setTab] = useState('settings');
  const yesNo = (v: boolean) => <Tag color={v ? 'success' : 'default'}>{v ? t('value.yes') : t('value.no')}</Tag>;

  const columns: Array<ListColumn<UserProductRow>> = [
    {
      title: t('column.account'),
      key: 'account',
      dataIndex: 'account',
      render: (account: string, row) =>
        row.nickname && row.nickname !== account ? `${account} (${row.nickname})` : account,
    },
    { title: t('column.role'), key: 'role', dataIndex: 'role', render: (r: Role) => t(`common:role.${r}`) },
    {
      title: t('column.parent'),
      key: 'parentAccount',
      dataIndex: 'parentAccount',
      render: (p: string | null) => p ?? '',
    },
    {
      title: t('column.product'),
      key: 'productId',
      dataIndex: 'productId',
      render: (id: number) => `${id} ${productName(id)}`,
    },
    { title: t('column.enabled'), key: 'enabled', dataIndex: 'enabled', render: yesNo },
    {
      title: t('column.feeRate'),
      key: 'feeRate',
      dataIndex: 'feeRate',
      sortKey: 'feeRate',
      align: 'right',
      render: (v: number, row) => (row.role === 'merchant' ? formatRate(v) : ''),
    },
    {
      title: t('column.perTransactionFee'),
      key: 'perTransactionFee',
      dataIndex: 'perTransactionFee',
      align: 'right',
      render: (v: number, row) => (row.role === 'merchant' ? formatMoney(v) : ''),
    },
    {
      title: t('column.commissionRate'),
      key: 'commissionRate',
      dataIndex: 'commissionRate',
      sortKey: 'commissionRate',
      align: 'right',
      render: (v: number, row) => (row.role === 'supplier' ? formatRate(v) : ''),
    },
    {
      title: t('column.dailyLimit'),
      key: 'dailyLimit',
      dataIndex: 'dailyLimit',
      sortKey: 'dailyLimit',
      align: 'right',
      render: (v: number | null) => limitText(v, t('value.noLimit')),
    },
    {
      title: t('column.minAmount'),
      key: 'minAmount',
      dataIndex: 'minAmount',
      align: 'right',
      render: (v: number | null) => limitText(v, t('value.productLimit')),
    },
    {
      title: t('column.maxAmount'),
      key: 'maxAmount',
      dataIndex: 'maxAmount',
      align: 'right',
      render: (v: number | null) => limitText(v, t('value.productLimit')),
    },
    {
      title: t('column.kycLowerLimit'),
      key: 'kycLowerLimit',
      dataIndex: 'kycLowerLimit',
      align: 'right',
      render: (v: number | null) => limitText(v, t('value.noKyc')),
    },
    {
      title: t('column.updatedAt'),
      key: 'updatedAt',
      dataIndex: 'updatedAt',
      sortKey: 'updatedAt',
      render: formatTime,
    },
  ];

  const actions: RowActions<UserProductRow> = {
    actions: [
      rowAction<UserProductRow>({
        key: 'edit',
        label: 'products:action.edit',
        icon: <EditOutlined />,
        roles: canManage ? endpointRoles(endpoints.products.saveUserProduct) : [],
        token2: endpoints.products.saveUserProduct.token2,
        allowed: () => true,
        panel: EditUserProductPanel,
      }),
    ],
    testIdPrefix: 'user-product',
    testIdOf: (row) => `${row.account}-${row.productId}`,
  };

  const settings = (
    <ListTable<UserProductRow>
      testId="user-product-list"
      viewKey={routeName}
      queryKey={productKeys.userProducts}
      rowKey="id"
      fetchPage={(p) => call(endpoints.products.getUserProductList, p)}
      exportHref={(f) => exportUrl(endpoints.products.exportUserProductList, f)}
      toolbar={
        canManage && (
          <Button type="primary" data-testid="user-product-add" onClick={() => setAdding(true)}>
            {t('action.add')}
          </Button>
        )
      }
      filters={[
        {
          kind: 'select',
          name: 'userId',
          label: t('filter.account'),
          options: (options.data ?? []).map((o) => ({
            value: String(o.id),
            label: `${o.account} (${t(`common:role.${o.role}`)})`,
          })),
        },
        {
          kind: 'select',
          name: 'role',
          label: t('filter.role'),
          options: (['merchant', 'supplier'] as const).map((r) => ({ value: r, label: t(`common:role.${r}`) })),
        },
        {
          kind: 'select',
          name: 'productId',
          label: t('filter.product'),
          options: PRODUCTS.map((p) => ({ value: String(p.id), label: `${p.id} ${productName(p.id)}` })),
        },
        {
          kind: 'select',
          name: 'enabled',
          label: t('filter.enabled'),
          options: [
            { value: 'true', label: t('value.yes') },
            { value: 'false', label: t('value.no') },
          ],
        },
      ]}
      columns={columns}
      actions={actions}
    />
  );

  return (
    <div className="page">
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          {
            key: 'settings',
            label: <span data-testid="user-product-tab-settings">{t('tab.settings')}</span>,
            children: settings,
          },
          {
            key: 'catalogue',
            label: <span data-testid="user-product-tab-catalogue">{t('tab.catalogue')}</span>,
            children: <ProductCatalogue canManage={canManage} />,
          },
        ]}
      />
      {adding && <UserProductFormModal target={null} initial={null} onClose={() => setAdding(false)} />}
    </div>
  );
}
