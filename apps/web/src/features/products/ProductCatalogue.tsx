import { endpoints, type ProductRow } from '@paydesk/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, Modal, Switch, Table, Tag } from 'antd';
import type { Rule } from 'antd/es/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/api/errorText';
import { call } from '../../shared/api/http';
import { formatMoney } from '../../shared/format/money';
import { amountOf, moneyText, productKeys, useCatalogue } from '../../shared/products/api';
import { useProductName } from '../../shared/products/productName';

type ProductChange = { id: number; enabled: boolean; minAmount: number; maxAmount: number };

function useProductUpdate() {
  const { t, i18n } = useTranslation(['products', 'common']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProductChange) => call(endpoints.products.updateProduct, input),
    onSuccess: async () => {
      void message.success(t('success.productSaved'));
      await queryClient.invalidateQueries({ queryKey: productKeys.all });
    },
    onError: (e) => void message.error(t('error.saveFailed', { message: errorText(i18n, e) })),
  });
}

/** A product's per-order limits, typed in major units. */
function ProductLimitsModal(props: { product: ProductRow; onClose(): void }) {
  const { t, i18n } = useTranslation(['products', 'common']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const productName = useProductName();
  const [form] = Form.useForm<{ minAmount: string; maxAmount: string }>();
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (input: ProductChange) => call(endpoints.products.updateProduct, input),
    onSuccess: async () => {
      void message.success(t('success.productSaved'));
      await queryClient.invalidateQueries({ queryKey: productKeys.all });
      props.onClose();
    },
    onError: (e) => setError(t('error.saveFailed', { message: errorText(i18n, e) })),
  });
  const amountRule: Rule = {
    validator: (_, v: string | undefined) =>
      (amountOf(v) ?? 0) > 0 ? Promise.resolve() : Promise.reject(new Error(t('rule.amount'))),
  };
  return (
    <Modal
      open
      title={t('form.productTitle', { product: productName(props.product.id) })}
      okText={t('common:action.save')}
      cancelText={t('common:action.cancel')}
      okButtonProps={{ 'data-testid': 'product-form-submit' } as Record<string, string>}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={props.onClose}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        data-testid="product-form"
        initialValues={{ minAmount: moneyText(props.product.minAmount), maxAmount: moneyText(props.product.maxAmount) }}
        onFinish={(v) => {
          setError(null);
          save.mutate({
            id: props.product.id,
            enabled: props.product.enabled,
            minAmount: amountOf(v.minAmount)!,
            maxAmount: amountOf(v.maxAmount)!,
          });
        }}
      >
        <Form.Item name="minAmount" label={t('form.minAmount')} rules={[amountRule]}>
          <Input inputMode="decimal" data-testid="product-form-min-amount" />
        </Form.Item>
        <Form.Item name="maxAmount" label={t('form.maxAmount')} rules={[amountRule]}>
          <Input inputMode="decimal" data-testid="product-form-max-amount" />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon title={error} data-testid="product-form-error" />}
    </Modal>
  );
}

/**
 * The product catalogue: every product with its direction, enablement and per-order limits; superAdmin
 * and admin switch products on and off and change limits. Test hooks: `product-catalogue`,
 * `product-enabled-<id>`, `product-edit-<id>`, and the limits dialog's `product-form-*`.
 */
export function ProductCatalogue(props: { canManage: boolean }) {
  const { t, i18n } = useTranslation(['products', 'common']);
  const productName = useProductName();
  const catalogue = useCatalogue();
  const update = useProductUpdate();
  const [editing, setEditing] = useState<ProductRow | null>(null);
  return (
    <>
      {catalogue.isError && (
        <Alert
          type="error"
          showIcon
          title={t('common:list.loadFailed', { message: errorText(i18n, catalogue.error) })}
          action={<Button onClick={() => void catalogue.refetch()}>{t('common:action.retry')}</Button>}
        />
      )}
      <Table<ProductRow>
        data-testid="product-catalogue"
        rowKey="id"
        loading={catalogue.isFetching}
        dataSource={catalogue.data ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t(catalogue.isFetching ? 'common:list.loading' : 'common:list.empty') }}
        columns={[
          { title: t('column.productId'), dataIndex: 'id' },
          { title: t('column.product'), key: 'name', render: (_: unknown, p) => productName(p.id) },
          {
            title: t('column.direction'),
            dataIndex: 'direction',
            render: (d: ProductRow['direction']) => (
              <Tag color={d === 'collection' ? 'blue' : 'orange'}>{t(`direction.${d}`)}</Tag>
            ),
          },
          {
            title: t('column.enabled'),
            dataIndex: 'enabled',
            render: (on: boolean, p) => (
              <Switch
                size="small"
                checked={on}
                disabled={!props.canManage}
                loading={update.isPending && update.variables?.id === p.id}
                aria-label={t('common:a11y.rowControl', { what: t('column.enabled'), row: productName(p.id) })}
                data-testid={`product-enabled-${p.id}`}
                onChange={(next) =>
                  update.mutate({ id: p.id, enabled: next, minAmount: p.minAmount, maxAmount: p.maxAmount })
                }
              />
            ),
          },
          {
            title: t('column.minAmount'),
            dataIndex: 'minAmount',
            align: 'right',
            render: (v: number) => formatMoney(v),
          },
          {
            title: t('column.maxAmount'),
            dataIndex: 'maxAmount',
            align: 'right',
            render: (v: number) => formatMoney(v),
          },
          ...(props.canManage
            ? [
                {
                  title: t('column.actions'),
                  key: 'actions',
                  render: (_: unknown, p: ProductRow) => (
                    <Button type="link" size="small" data-testid={`product-edit-${p.id}`} onClick={() => setEditing(p)}>
                      {t('action.editLimits')}
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
      />
      {editing && <ProductLimitsModal product={editing} onClose={() => setEditing(null)} />}
    </>
  );
}
