import {
  detailsSchemaOf,
  endpoints,
  linkSchema,
  minorToMajorText,
  RESOURCE_TEXTS,
  type ResourceRow,
} from '@paydesk/contract';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, Modal, Select } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { call } from '../../shared/api/http';
import { parseMoneyInput } from '../../shared/format/money';
import { endpointRoles } from '../../shared/list/rowActions';
import { useProductName } from '../../shared/products/productName';
import { useSession } from '../../shared/session/session';
import { resourceText } from './api';
import { type Channel, KIND_FIELDS, kindOf, OPTIONAL_FIELDS, SECRET_FIELDS } from './channels';

/** What the form sends: the create/update input without the id. */
export interface ResourceFormOutput {
  supplierId?: number;
  productId: number;
  name: string;
  details: Record<string, string>;
  minAmount: number | null;
  maxAmount: number | null;
  dailyAmountLimit: number | null;
  dailyCountLimit: number | null;
  link: string | null;
  jumpLink: string | null;
}

interface Values {
  supplierId?: number;
  productId?: number;
  name?: string;
  details?: Record<string, string | undefined>;
  /** A gateway payout account's pay gateway (system › pay gateway config), when it uses one. */
  gatewayId?: number | null;
  minAmount?: string;
  maxAmount?: string;
  dailyAmountLimit?: string;
  dailyCountLimit?: string;
  link?: string;
  jumpLink?: string;
}

const MONEY_FIELDS = ['minAmount', 'maxAmount', 'dailyAmountLimit'] as const;
/**
 * The payout API gateways a gateway payout account may use, for the readers of the pay gateway config
 * (superAdmin, admin) on a channel of gateway accounts; undefined for anyone else (no choice offered).
 */
export function usePayGatewayOptions(channelProducts: readonly number[]) {
  const { t } = useTranslation(['resources']);
  const { user } = useSession();
  const enabled =
    channelProducts.some((id) => kindOf(id) === 'gatewayPayout') &&
    user !== null &&
    endpointRoles(endpoints.payGateways.getPayGateways).includes(user.access);
  const gateways = useQuery({
    queryKey: ['payGateways', 'options'],
    queryFn: () => call(endpoints.payGateways.getPayGateways, { pageIndex: 1, pageSize: 500, kind: 'payoutApi' }),
    enabled,
    staleTime: 60_000,
  });
  if (!enabled) return undefined;
  return (gateways.data?.list ?? []).map((g) => ({
    value: g.id,
    label: g.enabled ? g.name : `${g.name} (${t('form.payGatewayOff')})`,
  }));
}

/** A gateway payout account's own fields while it uses a pay gateway. */
const GATEWAY_ACCOUNT_FIELDS: readonly string[] = ['accountNumber'];
const majorText = (v: number | null) => (v === null ? '' : minorToMajorText(v));
const blankToNull = (v: string | undefined) => (v?.trim() ? v.trim() : null);

/**
 * Add or edit a resource of a channel: the fields of the chosen product's kind (a channel may serve
 * products of several kinds) with the contract's rules (the server checks the same), amounts typed in
 * major units. The product is chosen on create only (a resource keeps its product). A gateway's key
 * secret is never shown: on edit an empty secret keeps the sealed one.
 * Test hooks: `resource-form`, `resource-form-<field>` (details fields by their own name).
 */
export function ResourceFormModal(props: {
  channel: Channel;
  row?: ResourceRow;
  /** Admin mode on create: the supplier to choose from (suppliers table ids). */
  suppliers?: Array<{ value: number; label: string }>;
  /**
   * The payout API gateways of the pay gateway config (`usePayGatewayOptions`), for its readers: a
   * gateway payout account may use one instead of its own credentials. Absent: no choice offered.
   */
  payGateways?: Array<{ value: number; label: string }> | undefined;
  pending: boolean;
  onSubmit(values: ResourceFormOutput): void;
  onClose(): void;
}) {
  const { t, i18n } = useTranslation(['resources', 'common']);
  const productName = useProductName();
  const [form] = Form.useForm<Values>();
  const { channel, row } = props;
  const mode = row ? 'update' : 'create';
  const defaultProduct = row?.productId ?? channel.products[0]!;
  const productId = Form.useWatch('productId', form) ?? defaultProduct;
  const kind = kindOf(productId);
  const gatewayChoice = kind === 'gatewayPayout' && props.payGateways !== undefined;
  const gatewayId = Form.useWatch('gatewayId', form) ?? null;
  // With a pay gateway chosen, its credentials are used: the account keeps its business account only.
  const usesGateway = (kind: string, id: number | null | undefined) =>
    kind === 'gatewayPayout' && id !== null && id !== undefined;
  const fields = usesGateway(kind, gatewayId) ? GATEWAY_ACCOUNT_FIELDS : KIND_FIELDS[kind];
  const shape = (detailsSchemaOf(kind, mode) as z.ZodObject | undefined)?.shape ?? {};

  const fieldRule = (field: string): Rule => ({
    validator: (_, value: unknown) => {
      const text = typeof value === 'string' ? value : '';
      if (text.trim() === '' && (OPTIONAL_FIELDS.has(field) || (SECRET_FIELDS.has(field) && row))) {
        return Promise.resolve();
      }
      const schema = shape[field] as z.ZodType | undefined;
      const result = schema?.safeParse(text);
      if (!result || result.success) return Promise.resolve();
      return Promise.reject(new Error(resourceText(i18n, result.error.issues[0]?.message ?? '')));
    },
  });
  const moneyRule: Rule = {
    validator: (_, value: unknown) => {
      if (typeof value !== 'string' || value.trim() === '') return Promise.resolve();
      // At most two decimals, as the text says (a third would be rounded away unseen).
      const plain = /^\d+(\.\d{1,2})?$/.test(value.replace(/[,\s]/g, ''));
      const minor = plain ? parseMoneyInput(value) : null;
      return minor !== null && minor > 0 ? Promise.resolve() : Promise.reject(new Error(t('form.amountInvalid')));
    },
  };
  const minMaxRule: Rule = ({ getFieldValue }) => ({
    validator: (_, value: unknown) => {
      const min = typeof value === 'string' ? parseMoneyInput(value) : null;
      const max = parseMoneyInput(getFieldValue('maxAmount') as string | undefined);
      return min !== null && max !== null && min > max
        ? Promise.reject(new Error(resourceText(i18n, RESOURCE_TEXTS.minAboveMax)))
        : Promise.resolve();
    },
  });
  const countRule: Rule = {
    validator: (_, value: unknown) =>
      typeof value !== 'string' || value.trim() === '' || /^[1-9]\d{0,6}$/.test(value.trim())
        ? Promise.resolve()
        : Promise.reject(new Error(t('form.countInvalid'))),
  };
  const linkRule = fieldRuleFor(i18n);

  const initialValues: Values = row
    ? {
        productId: row.productId,
        name: row.name,
        details: { ...row.details, keySecret: '', webhookSecret: '' },
        gatewayId: row.details.gatewayId ? Number(row.details.gatewayId) : null,
        minAmount: majorText(row.minAmount),
        maxAmount: majorText(row.maxAmount),
        dailyAmountLimit: majorText(row.dailyAmountLimit),
        dailyCountLimit: row.dailyCountLimit === null ? '' : String(row.dailyCountLimit),
        link: row.link ?? '',
        jumpLink: row.jumpLink ?? '',
      }
    : { productId: defaultProduct };

  const submit = (v: Values) => {
    const details: Record<string, string> = {};
    const chosen = v.productId ?? defaultProduct;
    const viaGateway = usesGateway(kindOf(chosen), v.gatewayId);
    if (viaGateway) details.gatewayId = String(v.gatewayId);
    for (const field of viaGateway ? GATEWAY_ACCOUNT_FIELDS : KIND_FIELDS[kindOf(chosen)]) {
      const text = (v.details?.[field] ?? '').trim();
      if (text === '' && (OPTIONAL_FIELDS.has(field) || SECRET_FIELDS.has(field))) continue;
      details[field] = text;
    }
    const money = (k: (typeof MONEY_FIELDS)[number]) => (v[k]?.trim() ? parseMoneyInput(v[k]) : null);
    props.onSubmit({
      ...(v.supplierId !== undefined ? { supplierId: v.supplierId } : {}),
      productId: chosen,
      name: (v.name ?? '').trim(),
      details,
      minAmount: money('minAmount'),
      maxAmount: money('maxAmount'),
      dailyAmountLimit: money('dailyAmountLimit'),
      dailyCountLimit: v.dailyCountLimit?.trim() ? Number(v.dailyCountLimit.trim()) : null,
      link: blankToNull(v.link),
      jumpLink: blankToNull(v.jumpLink),
    });
  };

  return (
    <Modal
      open
      title={row ? t('form.editTitle', { name: row.name }) : t('form.createTitle')}
      okText={t('common:action.save')}
      cancelText={t('common:action.cancel')}
      okButtonProps={{ 'data-testid': 'resource-form-save' }}
      confirmLoading={props.pending}
      onOk={() => form.submit()}
      onCancel={props.onClose}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        data-testid="resource-form"
        initialValues={initialValues}
        onFinish={submit}
      >
        {!row && props.suppliers && (
          <Form.Item
            name="supplierId"
            label={t('form.supplier')}
            rules={[{ required: true, message: resourceText(i18n, RESOURCE_TEXTS.supplierRequired) }]}
          >
            <Select
              data-testid="resource-form-supplier"
              showSearch={{ optionFilterProp: 'label' }}
              options={props.suppliers}
            />
          </Form.Item>
        )}
        <Form.Item
          name="productId"
          label={t('form.product')}
          rules={[{ required: true, message: t('form.productRequired') }]}
        >
          <Select
            data-testid="resource-form-product"
            disabled={row !== undefined || channel.products.length < 2}
            options={channel.products.map((id) => ({ value: id, label: productName(id) }))}
          />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('form.name')}
          rules={[
            { required: true, whitespace: true, message: resourceText(i18n, RESOURCE_TEXTS.nameRequired) },
            { max: 128, message: resourceText(i18n, RESOURCE_TEXTS.nameTooLong) },
          ]}
        >
          <Input autoComplete="off" data-testid="resource-form-name" />
        </Form.Item>
        {gatewayChoice && (
          <Form.Item name="gatewayId" label={t('form.payGateway')} extra={t('form.payGatewayHelp')}>
            <Select
              allowClear
              data-testid="resource-form-gatewayId"
              placeholder={t('form.ownCredentials')}
              options={props.payGateways}
            />
          </Form.Item>
        )}
        {fields.map((field) => (
          <Form.Item
            key={field}
            name={['details', field]}
            label={t(`field.${field}`)}
            required={!OPTIONAL_FIELDS.has(field) && !(SECRET_FIELDS.has(field) && row)}
            rules={[fieldRule(field)]}
            extra={SECRET_FIELDS.has(field) && row ? t(`form.${field}Keep`) : undefined}
          >
            {SECRET_FIELDS.has(field) ? (
              <Input.Password autoComplete="new-password" data-testid={`resource-form-${field}`} />
            ) : (
              <Input autoComplete="off" data-testid={`resource-form-${field}`} />
            )}
          </Form.Item>
        ))}
        <Form.Item
          name="minAmount"
          label={t('form.minAmount')}
          dependencies={['maxAmount']}
          rules={[moneyRule, minMaxRule]}
        >
          <Input inputMode="decimal" data-testid="resource-form-minAmount" />
        </Form.Item>
        <Form.Item name="maxAmount" label={t('form.maxAmount')} rules={[moneyRule]}>
          <Input inputMode="decimal" data-testid="resource-form-maxAmount" />
        </Form.Item>
        <Form.Item name="dailyAmountLimit" label={t('form.dailyAmountLimit')} rules={[moneyRule]}>
          <Input inputMode="decimal" data-testid="resource-form-dailyAmountLimit" />
        </Form.Item>
        <Form.Item name="dailyCountLimit" label={t('form.dailyCountLimit')} rules={[countRule]}>
          <Input inputMode="numeric" data-testid="resource-form-dailyCountLimit" />
        </Form.Item>
        <Form.Item name="link" label={t('form.link')} rules={[linkRule]}>
          <Input data-testid="resource-form-link" />
        </Form.Item>
        <Form.Item name="jumpLink" label={t('form.jumpLink')} rules={[linkRule]}>
          <Input data-testid="resource-form-jumpLink" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** link and jumpLink: empty, or an http(s) address (the contract's rule). */
function fieldRuleFor(i18n: Parameters<typeof resourceText>[0]): Rule {
  return {
    validator: (_, value: unknown) => {
      const text = typeof value === 'string' ? value.trim() : '';
      if (text === '' || linkSchema.safeParse(text).success) return Promise.resolve();
      return Promise.reject(new Error(resourceText(i18n, RESOURCE_TEXTS.linkInvalid)));
    },
  };
}
