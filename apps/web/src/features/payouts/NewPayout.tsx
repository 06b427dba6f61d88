import { PlusOutlined } from '@ant-design/icons';
import { endpoints, PAYOUT_PRODUCT_IDS } from '@paydesk/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, Modal, Select } from 'antd';
import type { Rule } from 'antd/es/form';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/api/errorText';
import { call, ensureToken2 } from '../../shared/api/http';
import { useProductName } from '../../shared/products/productName';
import {
  isUsdtPayout,
  type PayoutFormValues,
  payoutFormProblems,
  payoutIssues,
  payoutKeys,
  payoutText,
  toPayoutRequest,
} from './api';
import { usePayoutsReload } from './PayoutActions';

/** The form's fields in the order a merchant fills them; a USDT payout has no bank fields. */
const BANK_FIELDS = ['userName', 'cardNumber', 'ifscCode', 'bankName', 'bankBranch'] as const;

/** A merchant order number the merchant may keep or replace: P, the time, and a random tail. */
const newMerchantOrderNo = () =>
  `P${Date.now()}${Math.floor(Math.random() * 1000)
    .toString()
    .padStart(3, '0')}`;

/**
 * The merchant's "New payout" (issue 20 item 3, /payProxyOrder/list/merchant): asks the second-level
 * password first (the endpoint needs token2), then a form checked by the contract's own rule
 * (consolePayoutRequest, the server's) with the spec's texts in the user's language. The amount is
 * typed in major units. The server holds amount plus fee from the balance; a refusal (balance short,
 * product off) is shown in the form. Test hooks: `payout-create`, `payout-create-form`,
 * `payout-create-<field>`, `payout-create-submit`, `payout-create-error`.
 */
export function NewPayoutButton() {
  const { t } = useTranslation('payouts');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        type="primary"
        icon={<PlusOutlined />}
        data-testid="payout-create"
        onClick={() =>
          void ensureToken2().then(
            () => setOpen(true),
            () => undefined, // the user closed the second-level password dialog
          )
        }
      >
        {t('create.button')}
      </Button>
      {open && <NewPayoutDialog onClose={() => setOpen(false)} />}
    </>
  );
}

export function NewPayoutDialog({ onClose }: { onClose(): void }) {
  const { t, i18n } = useTranslation(['payouts', 'common']);
  const { message } = App.useApp();
  const productName = useProductName();
  const reload = usePayoutsReload();
  const [form] = Form.useForm<PayoutFormValues>();
  // The payout products the merchant has enabled (its own product settings); until they are known,
  // or when they cannot be read, every payout product (the server refuses one that is off).
  const enabled = useQuery({
    queryKey: payoutKeys.enabledProducts,
    queryFn: () => call(endpoints.products.getUserProductList, { pageIndex: 1, pageSize: 100, enabled: true }),
    staleTime: 60_000,
  });
  const products: readonly number[] = useMemo(
    () =>
      enabled.data
        ? PAYOUT_PRODUCT_IDS.filter((id) => enabled.data.list.some((p) => p.productId === id && p.enabled))
        : PAYOUT_PRODUCT_IDS,
    [enabled.data],
  );
  const productId = Form.useWatch('productId', form) ?? String(products[0] ?? PAYOUT_PRODUCT_IDS[0]);
  useEffect(() => {
    const first = products[0];
    if (first !== undefined && !products.includes(Number(form.getFieldValue('productId')))) {
      form.setFieldValue('productId', String(first));
    }
  }, [products, form]);
  const usdt = isUsdtPayout(productId);
  const create = useMutation({
    mutationFn: (values: PayoutFormValues) => call(endpoints.payouts.createInConsole, toPayoutRequest(values)),
    onSuccess: async (answer) => {
      void message.success(t('create.done', { orderCode: answer.orderCode }));
      onClose();
      await reload();
    },
  });

  /** A field's rule: the contract's problem with it, if any, in the user's language. */
  const rule = (field: keyof PayoutFormValues): Rule => ({
    validator: () => {
      const problem = payoutFormProblems(form.getFieldsValue(true) as PayoutFormValues)[field];
      return problem ? Promise.reject(new Error(payoutText(i18n, problem))) : Promise.resolve();
    },
  });
  const item = (field: keyof PayoutFormValues, extra?: string) => (
    <Form.Item key={field} name={field} label={t(`field.${field}`)} rules={[rule(field)]} extra={extra}>
      <Input autoComplete="off" data-testid={`payout-create-${field}`} />
    </Form.Item>
  );

  return (
    <Modal
      open
      title={t('create.title')}
      okText={t('create.send')}
      okButtonProps={{ loading: create.isPending, 'data-testid': 'payout-create-submit' }}
      cancelText={t('common:action.cancel')}
      onOk={() =>
        void form
          .validateFields()
          .then((values) => create.mutate(values))
          .catch(() => undefined)
      }
      onCancel={onClose}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        name="payoutCreate"
        preserve={false}
        data-testid="payout-create-form"
        initialValues={{ productId: String(PAYOUT_PRODUCT_IDS[0]), mchOrderNo: newMerchantOrderNo() }}
        // A changed product changes which fields are required: check the others again.
        onValuesChange={(changed) => {
          if ('productId' in changed) void form.validateFields({ validateOnly: true }).catch(() => undefined);
        }}
      >
        <Form.Item name="productId" label={t('field.productId')} rules={[rule('productId')]}>
          <Select
            data-testid="payout-create-productId"
            options={products.map((id) => ({ value: String(id), label: productName(id) }))}
          />
        </Form.Item>
        {enabled.data && products.length === 0 && (
          <Alert type="warning" showIcon data-testid="payout-create-no-product" title={t('create.noProduct')} />
        )}
        {item('mchOrderNo')}
        {item('amount', t('create.amountHint'))}
        {!usdt && BANK_FIELDS.map((field) => item(field))}
        {item('address', usdt ? t('create.usdtAddressHint') : undefined)}
        {item('remark')}
      </Form>
      {create.isError && (
        <Alert
          type="error"
          showIcon
          data-testid="payout-create-error"
          title={errorText(i18n, create.error, payoutIssues(i18n))}
        />
      )}
    </Modal>
  );
}
