import { type EndpointInput, endpoints, type PartyRole, PRODUCTS } from '@paydesk/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Form, Input, Modal, Select, Switch } from 'antd';
import type { Rule } from 'antd/es/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../api/errorText';
import { call } from '../api/http';
import { formatMoney, parseRateInput } from '../format/money';
import { amountOf, isParty, moneyText, productKeys, rateText, useCatalogue, usePartyOptions } from './api';
import { useProductName } from './productName';

/** What a party may set for one product (rates in basis points, money in minor units). */
export interface UserProductSettings {
  enabled: boolean;
  feeRate: number;
  perTransactionFee: number;
  commissionRate: number;
  dailyLimit: number | null;
  minAmount: number | null;
  maxAmount: number | null;
  kycLowerLimit: number | null;
}

/** The party account and product being edited. */
export interface UserProductTarget {
  userId: number;
  account: string;
  role: PartyRole;
  productId: number;
}

interface FormValues {
  userId?: number;
  productId?: number;
  enabled: boolean;
  feeRate: string;
  perTransactionFee: string;
  commissionRate: string;
  dailyLimit: string;
  minAmount: string;
  maxAmount: string;
  kycLowerLimit: string;
}

const TWO_DECIMALS = /^\d+(\.\d{1,2})?$/;
const blank = (v: string | undefined) => (v ?? '').trim() === '';

/**
 * Adds (no target: the account and product are chosen) or edits one party's settings for one product.
 * Amounts are typed in major units and rates in percent; the server gets minor units and basis points.
 * Fees show for merchants, commission for suppliers. A refusal stays in the dialog, translated.
 * Test hooks: `user-product-form`, `user-product-form-<field>`, `user-product-form-error`,
 * `user-product-form-submit`.
 */
export function UserProductFormModal(props: {
  target: UserProductTarget | null;
  initial: UserProductSettings | null;
  onClose(): void;
}) {
  const { t, i18n } = useTranslation(['products', 'common']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const productName = useProductName();
  const [form] = Form.useForm<FormValues>();
  const [error, setError] = useState<string | null>(null);
  const adding = props.target === null;
  const options = usePartyOptions(adding);
  const catalogue = useCatalogue();
  const chosenUser = Form.useWatch('userId', form);
  const chosenProduct = Form.useWatch('productId', form);
  const chosen = options.data?.find((o) => o.id === chosenUser);
  const role: PartyRole | undefined = props.target?.role ?? (chosen && isParty(chosen.role) ? chosen.role : undefined);
  const productId = props.target?.productId ?? chosenProduct;
  const product = catalogue.data?.find((p) => p.id === productId);

  const save = useMutation({
    mutationFn: (input: EndpointInput<typeof endpoints.products.saveUserProduct>) =>
      call(endpoints.products.saveUserProduct, input),
    onSuccess: async () => {
      void message.success(t('success.saved'));
      await queryClient.invalidateQueries({ queryKey: productKeys.all });
      props.onClose();
    },
    onError: (e) => setError(t('error.saveFailed', { message: errorText(i18n, e) })),
  });

  const initial = props.initial;
  const initialValues: FormValues = {
    enabled: initial?.enabled ?? true,
    feeRate: rateText(initial?.feeRate ?? 0),
    perTransactionFee: moneyText(initial?.perTransactionFee ?? 0),
    commissionRate: rateText(initial?.commissionRate ?? 0),
    dailyLimit: moneyText(initial?.dailyLimit),
    minAmount: moneyText(initial?.minAmount),
    maxAmount: moneyText(initial?.maxAmount),
    kycLowerLimit: moneyText(initial?.kycLowerLimit),
  };

  const rateRule: Rule = {
    validator: (_, v: string | undefined) => {
      const text = (v ?? '').trim();
      const bp = TWO_DECIMALS.test(text) ? parseRateInput(text) : null;
      return bp !== null && bp <= 10_000 ? Promise.resolve() : Promise.reject(new Error(t('rule.rate')));
    },
  };
  const optionalAmountRule: Rule = {
    validator: (_, v: string | undefined) =>
      blank(v) || (amountOf(v) ?? 0) > 0 ? Promise.resolve() : Promise.reject(new Error(t('rule.amount'))),
  };
  const feeRule: Rule = {
    validator: (_, v: string | undefined) =>
      blank(v) || amountOf(v) !== null ? Promise.resolve() : Promise.reject(new Error(t('rule.fee'))),
  };
  const required: Rule = { required: true, message: t('rule.required') };
  const limitHint = product
    ? t('form.limitHint', { min: formatMoney(product.minAmount), max: formatMoney(product.maxAmount) })
    : undefined;

  const submit = (v: FormValues) => {
    const userId = props.target?.userId ?? v.userId;
    if (userId === undefined || productId === undefined || role === undefined) return;
    const optional = (text: string) => (blank(text) ? null : amountOf(text));
    setError(null);
    save.mutate({
      userId,
      productId,
      enabled: v.enabled,
      feeRate: role === 'merchant' ? (parseRateInput(v.feeRate.trim()) ?? 0) : 0,
      perTransactionFee: role === 'merchant' && !blank(v.perTransactionFee) ? (amountOf(v.perTransactionFee) ?? 0) : 0,
      commissionRate: role === 'supplier' ? (parseRateInput(v.commissionRate.trim()) ?? 0) : 0,
      dailyLimit: optional(v.dailyLimit),
      minAmount: optional(v.minAmount),
      maxAmount: optional(v.maxAmount),
      kycLowerLimit: optional(v.kycLowerLimit),
    });
  };

  return (
    <Modal
      open
      title={
        props.target
          ? t('form.editTitle', { account: props.target.account, product: productName(props.target.productId) })
          : t('form.addTitle')
      }
      okText={t('common:action.save')}
      cancelText={t('common:action.cancel')}
      okButtonProps={{ 'data-testid': 'user-product-form-submit' } as Record<string, string>}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={props.onClose}
      destroyOnHidden
    >
      <Form<FormValues>
        form={form}
        layout="vertical"
        data-testid="user-product-form"
        initialValues={initialValues}
        onFinish={submit}
      >
        {adding && (
          <>
            <Form.Item name="userId" label={t('form.account')} rules={[required]}>
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                loading={options.isPending}
                data-testid="user-product-form-account"
                options={(options.data ?? []).map((o) => ({
                  value: o.id,
                  label: `${o.account} (${t(`common:role.${o.role}`)})`,
                }))}
              />
            </Form.Item>
            <Form.Item name="productId" label={t('form.product')} rules={[required]}>
              <Select
                data-testid="user-product-form-product"
                options={PRODUCTS.map((p) => ({ value: p.id, label: `${p.id} ${productName(p.id)}` }))}
              />
            </Form.Item>
          </>
        )}
        <Form.Item name="enabled" label={t('form.enabled')} valuePropName="checked">
          <Switch data-testid="user-product-form-enabled" />
        </Form.Item>
        {role === 'merchant' && (
          <>
            <Form.Item name="feeRate" label={t('form.feeRate')} rules={[rateRule]}>
              <Input inputMode="decimal" data-testid="user-product-form-fee-rate" />
            </Form.Item>
            <Form.Item name="perTransactionFee" label={t('form.perTransactionFee')} rules={[feeRule]}>
              <Input inputMode="decimal" data-testid="user-product-form-per-transaction-fee" />
            </Form.Item>
          </>
        )}
        {role === 'supplier' && (
          <Form.Item name="commissionRate" label={t('form.commissionRate')} rules={[rateRule]}>
            <Input inputMode="decimal" data-testid="user-product-form-commission-rate" />
          </Form.Item>
        )}
        <Form.Item
          name="dailyLimit"
          label={t('form.dailyLimit')}
          extra={t('form.dailyLimitHint')}
          rules={[optionalAmountRule]}
        >
          <Input inputMode="decimal" data-testid="user-product-form-daily-limit" />
        </Form.Item>
        <Form.Item name="minAmount" label={t('form.minAmount')} extra={limitHint} rules={[optionalAmountRule]}>
          <Input inputMode="decimal" data-testid="user-product-form-min-amount" />
        </Form.Item>
        <Form.Item name="maxAmount" label={t('form.maxAmount')} extra={limitHint} rules={[optionalAmountRule]}>
          <Input inputMode="decimal" data-testid="user-product-form-max-amount" />
        </Form.Item>
        <Form.Item
          name="kycLowerLimit"
          label={t('form.kycLowerLimit')}
          extra={t('form.kycHint')}
          rules={[optionalAmountRule]}
        >
          <Input inputMode="decimal" data-testid="user-product-form-kyc-lower-limit" />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon title={error} data-testid="user-product-form-error" />}
    </Modal>
  );
}
