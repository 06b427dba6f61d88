import {
  BANK_TEMPLATE_IDS,
  createPayoutBatchInput,
  endpoints,
  PAYOUT_BATCH_MAX_ORDERS,
  PAYOUT_BATCH_RULE_TEXTS,
  payoutBatchRuleText,
  payoutCountInput,
} from '@paydesk/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, DatePicker, Form, Input, InputNumber, Modal, Select, Space, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/http';
import { formatMoney, parseMoneyInput } from '../../shared/format/money';
import { platformNow } from '../../shared/format/time';
import { useNarrow } from '../../shared/layout/useNarrow';
import { FILTER_DATE_FORMAT } from '../../shared/list/ListTable';
import { batchKeys, createErrorText, load, textLocale } from './api';

const api = endpoints.payoutBatches;

/** The form as the user fills it: amounts typed in major units, the time picked. */
interface CreateValues {
  resourceId?: number | null;
  templateId?: string | null;
  payoutTime?: Dayjs | null;
  minAmount?: string;
  maxAmount?: string;
  maxCount?: number | null;
}
type Field = keyof CreateValues;
const FIELDS: readonly Field[] = ['resourceId', 'templateId', 'payoutTime', 'minAmount', 'maxAmount', 'maxCount'];

/** A typed amount in minor units: blank is none (null), text that is no amount is NaN (the rule refuses it). */
const amountOf = (text: string | undefined) =>
  text === undefined || text.trim() === '' ? null : (parseMoneyInput(text) ?? Number.NaN);

/** The form's values as the contract's create input (the same the server parses). */
export function toCreateInput(v: CreateValues) {
  return {
    resourceId: v.resourceId ?? null,
    templateId: v.templateId ?? null,
    payoutTime: v.payoutTime ? v.payoutTime.format(FILTER_DATE_FORMAT) : null,
    minAmount: amountOf(v.minAmount),
    maxAmount: amountOf(v.maxAmount),
    ...(v.maxCount === null || v.maxCount === undefined ? {} : { maxCount: v.maxCount }),
  };
}

/** The first problem of each field by the contract's rule, as the rule's (English) message. */
function problemsOf(v: CreateValues): Partial<Record<Field, string>> {
  const parsed = createPayoutBatchInput.safeParse(toCreateInput(v));
  const out: Partial<Record<Field, string>> = {};
  if (parsed.success) return out;
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as Field;
    if (FIELDS.includes(field)) out[field] ??= issue.message;
  }
  // The schema compares the amounts only once every field parses; the form says it at once.
  const min = amountOf(v.minAmount);
  const max = amountOf(v.maxAmount);
  if (!out.minAmount && !out.maxAmount && min !== null && max !== null && min > max) {
    out.minAmount = PAYOUT_BATCH_RULE_TEXTS.minAboveMax['en-US'];
  }
  return out;
}

/**
 * "New batch" (spec section 5): the payout account (from the resource list, with its awaiting count),
 * the bank file template, when the bank pays, the amounts and the most payouts it takes. Every rule is
 * the contract's own (createPayoutBatchInput) with its text in the reader's language
 * (payoutBatchRuleText); while the form is valid it shows what the batch would take now.
 * Test hooks: `batch-create-form`, `batch-create-<field>` (the fields), `batch-create-preview`,
 * `batch-create-error`, `batch-create-submit`, `batch-create-now` and `batch-create-tomorrow` (the
 * time presets).
 */
export function CreateBatchModal(props: { onClose(): void; onCreated(): Promise<unknown> }) {
  const { t, i18n } = useTranslation(['payoutBatches', 'common']);
  const { message } = App.useApp();
  const narrow = useNarrow();
  const [form] = Form.useForm<CreateValues>();
  const values = Form.useWatch([], form) as CreateValues | undefined;
  const locale = textLocale(i18n);
  const ruleText = (m: string) => payoutBatchRuleText(m, locale) ?? m;

  const resources = useQuery({
    queryKey: batchKeys.resources,
    queryFn: () => load(i18n, 'resourceList', () => call(api.getResourceList, {})),
  });
  const templates = useQuery({
    queryKey: batchKeys.templates,
    queryFn: () => load(i18n, 'templateList', () => call(api.getTemplateList, {})),
    staleTime: Number.POSITIVE_INFINITY,
  });
  // What the batch would take now, once the account is chosen and the amounts are valid.
  const counted = payoutCountInput.safeParse({
    resourceId: values?.resourceId ?? null,
    minAmount: amountOf(values?.minAmount),
    maxAmount: amountOf(values?.maxAmount),
    ...(typeof values?.maxCount === 'number' ? { maxCount: values.maxCount } : {}),
  });
  const countInput = counted.success && values?.resourceId ? counted.data : null;
  const count = useQuery({
    queryKey: [...batchKeys.count, countInput],
    queryFn: () => load(i18n, 'payoutCount', () => call(api.getPayoutCount, countInput!)),
    enabled: countInput !== null,
  });

  const create = useMutation({
    mutationFn: (input: ReturnType<typeof toCreateInput>) => call(api.create, input),
    onSuccess: async (answer) => {
      void message.success(t('success.create', { ...answer, total: formatMoney(answer.totalAmount, i18n.language) }));
      props.onClose();
      await props.onCreated();
    },
  });

  const rule = (field: Field) => ({
    validator: () => {
      const problem = problemsOf(form.getFieldsValue())[field];
      return problem ? Promise.reject(new Error(ruleText(problem))) : Promise.resolve();
    },
  });
  const label = (path: string) => ((FIELDS as readonly string[]).includes(path) ? t(`create.${path}`) : undefined);
  const submit = () =>
    void form
      .validateFields()
      .then((v) => create.mutate(toCreateInput(v)))
      .catch(() => undefined);
  const now = () => platformNow().add(1, 'hour').startOf('minute');
  const tomorrow = () => platformNow().add(1, 'day').hour(10).startOf('hour');

  const templateOptions = (templates.data ?? BANK_TEMPLATE_IDS.map((id) => ({ id }))).map(({ id }) => ({
    value: id,
    label: t(`template.${id}`, { defaultValue: id }),
  }));
  const readFailure = resources.error ?? templates.error;

  return (
    <Modal
      open
      width={narrow ? '100%' : 640}
      title={t('create.title')}
      okText={t('create.submit')}
      cancelText={t('common:action.cancel')}
      okButtonProps={{ loading: create.isPending, 'data-testid': 'batch-create-submit' }}
      onOk={submit}
      onCancel={props.onClose}
      destroyOnHidden
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          {t('create.hint')}
        </Typography.Paragraph>
        {readFailure && (
          <Alert type="error" showIcon data-testid="batch-create-load-error" title={readFailure.message} />
        )}
        <Form
          form={form}
          layout="vertical"
          name="batchCreate"
          data-testid="batch-create-form"
          initialValues={{ maxCount: PAYOUT_BATCH_MAX_ORDERS }}
        >
          <Form.Item name="resourceId" label={t('create.resource')} rules={[rule('resourceId')]}>
            <Select
              data-testid="batch-create-resourceId"
              loading={resources.isFetching}
              showSearch={{ optionFilterProp: 'label' }}
              options={(resources.data ?? []).map((r) => ({
                value: r.id,
                label: t('create.resourceOption', { name: r.name, supplier: r.supplierName, count: r.awaitingCount }),
              }))}
            />
          </Form.Item>
          <Form.Item name="templateId" label={t('create.template')} rules={[rule('templateId')]}>
            <Select data-testid="batch-create-templateId" loading={templates.isFetching} options={templateOptions} />
          </Form.Item>
          <Form.Item name="payoutTime" label={t('create.payoutTime')} rules={[rule('payoutTime')]}>
            <DatePicker
              showTime
              needConfirm={false}
              format={FILTER_DATE_FORMAT}
              style={{ width: '100%' }}
              data-testid="batch-create-payoutTime"
              presets={[
                { label: <span data-testid="batch-create-now">{t('create.presetHour')}</span>, value: now },
                {
                  label: <span data-testid="batch-create-tomorrow">{t('create.presetTomorrow')}</span>,
                  value: tomorrow,
                },
              ]}
            />
          </Form.Item>
          <Space wrap align="start">
            <Form.Item
              name="minAmount"
              label={t('create.minAmount')}
              rules={[rule('minAmount')]}
              dependencies={['maxAmount']}
            >
              <Input
                inputMode="decimal"
                allowClear
                placeholder={t('create.amountPlaceholder')}
                data-testid="batch-create-minAmount"
              />
            </Form.Item>
            <Form.Item name="maxAmount" label={t('create.maxAmount')} rules={[rule('maxAmount')]}>
              <Input
                inputMode="decimal"
                allowClear
                placeholder={t('create.amountPlaceholder')}
                data-testid="batch-create-maxAmount"
              />
            </Form.Item>
            <Form.Item name="maxCount" label={t('create.maxCount')} rules={[rule('maxCount')]}>
              {/* No min/max here: a number out of range is shown with the rule's text, not silently clamped. */}
              <InputNumber data-testid="batch-create-maxCount" style={{ width: 140 }} />
            </Form.Item>
          </Space>
        </Form>
        {countInput && (
          <Alert
            type={count.isError ? 'error' : 'info'}
            showIcon
            data-testid="batch-create-preview"
            title={
              count.isError
                ? count.error.message
                : count.data
                  ? t('create.preview', {
                      count: count.data.count,
                      total: formatMoney(count.data.totalAmount, i18n.language),
                    })
                  : t('create.previewLoading')
            }
          />
        )}
        {create.error && (
          <Alert
            type="error"
            showIcon
            data-testid="batch-create-error"
            title={createErrorText(i18n, create.error, label)}
          />
        )}
      </Space>
    </Modal>
  );
}
