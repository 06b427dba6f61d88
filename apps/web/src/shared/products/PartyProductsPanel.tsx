import { endpoints, type UserProductSlot } from '@paydesk/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Drawer, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../api/errorText';
import { call } from '../api/http';
import { formatMoney, formatRate } from '../format/money';
import { productKeys, useCanManageProducts } from './api';
import { useProductName } from './productName';
import { UserProductFormModal } from './UserProductFormModal';

export interface PartyProductsPanelProps {
  /** The merchant's or supplier's console account. */
  userId: number;
  role: 'merchant' | 'supplier';
  readOnly?: boolean;
}

/**
 * Every product for one merchant or supplier account (its settings, or "not set"), for the party
 * detail drawers: fees for a merchant, commission for a supplier. superAdmin and admin edit a row in a
 * dialog unless `readOnly`. Test hooks: `party-products`, `party-product-edit-<productId>`.
 */
export function PartyProductsPanel({ userId, role, readOnly = false }: PartyProductsPanelProps) {
  const { t, i18n } = useTranslation(['products', 'common']);
  const productName = useProductName();
  const canManage = useCanManageProducts(readOnly);
  const [editing, setEditing] = useState<UserProductSlot | null>(null);
  const slots = useQuery({
    queryKey: productKeys.forUser(userId),
    queryFn: () => call(endpoints.products.getUserProductsForUser, { userId }),
  });
  const limit = (v: number | null, empty: string) => (v === null ? empty : formatMoney(v));

  return (
    <>
      {slots.isError && (
        <Alert
          type="error"
          showIcon
          title={t('common:list.loadFailed', { message: errorText(i18n, slots.error) })}
          action={<Button onClick={() => void slots.refetch()}>{t('common:action.retry')}</Button>}
        />
      )}
      <Table<UserProductSlot>
        data-testid="party-products"
        size="small"
        rowKey="productId"
        loading={slots.isFetching}
        dataSource={slots.data ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t(slots.isFetching ? 'common:list.loading' : 'common:list.empty') }}
        columns={[
          {
            title: t('column.product'),
            key: 'product',
            render: (_: unknown, r) => `${r.productId} ${productName(r.productId)}`,
          },
          {
            title: t('column.enabled'),
            dataIndex: 'enabled',
            render: (on: boolean, r) =>
              r.id === null ? (
                <Tag>{t('value.notSaved')}</Tag>
              ) : (
                <Tag color={on ? 'success' : 'default'}>{on ? t('value.yes') : t('value.no')}</Tag>
              ),
          },
          ...(role === 'merchant'
            ? [
                {
                  title: t('column.feeRate'),
                  dataIndex: 'feeRate',
                  align: 'right' as const,
                  render: (v: number) => formatRate(v),
                },
                {
                  title: t('column.perTransactionFee'),
                  dataIndex: 'perTransactionFee',
                  align: 'right' as const,
                  render: (v: number) => formatMoney(v),
                },
              ]
            : [
                {
                  title: t('column.commissionRate'),
                  dataIndex: 'commissionRate',
                  align: 'right' as const,
                  render: (v: number) => formatRate(v),
                },
              ]),
          {
            title: t('column.dailyLimit'),
            dataIndex: 'dailyLimit',
            align: 'right',
            render: (v: number | null) => limit(v, t('value.noLimit')),
          },
          {
            title: t('column.minAmount'),
            dataIndex: 'minAmount',
            align: 'right',
            render: (v: number | null) => limit(v, t('value.productLimit')),
          },
          {
            title: t('column.maxAmount'),
            dataIndex: 'maxAmount',
            align: 'right',
            render: (v: number | null) => limit(v, t('value.productLimit')),
          },
          {
            title: t('column.kycLowerLimit'),
            dataIndex: 'kycLowerLimit',
            align: 'right',
            render: (v: number | null) => limit(v, t('value.noKyc')),
          },
          ...(canManage
            ? [
                {
                  title: t('column.actions'),
                  key: 'actions',
                  render: (_: unknown, r: UserProductSlot) => (
                    <Button
                      type="link"
                      size="small"
                      data-testid={`party-product-edit-${r.productId}`}
                      onClick={() => setEditing(r)}
                    >
                      {t('action.edit')}
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
      />
      {editing && (
        <UserProductFormModal
          target={{ userId, account: editing.account, role, productId: editing.productId }}
          initial={editing.id === null ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  );
}

/**
 * A party's products in a drawer, for a list's row panel action (merchants, suppliers): the page's
 * panel passes the row's account, its kind (`party`), its title and whether the page only reads.
 * Test hook: `testId` on the drawer, and the panel's.
 */
export function PartyProductsDrawer(props: {
  userId: number;
  party: PartyProductsPanelProps['role'];
  readOnly: boolean;
  title: string;
  testId?: string;
  onClose(): void;
}) {
  return (
    <Drawer open size="large" title={props.title} onClose={props.onClose} destroyOnHidden data-testid={props.testId}>
      <PartyProductsPanel userId={props.userId} role={props.party} readOnly={props.readOnly} />
    </Drawer>
  );
}
