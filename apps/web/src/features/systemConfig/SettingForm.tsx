import type { IntegerSettingType, SettingEntry, SettingKey } from '@paydesk/contract';
import { Alert, App, Form, Input, InputNumber, Modal, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/api/errorText';
import { useSetSetting } from './api';
import {
  choiceText,
  type FormValue,
  fieldLabelOf,
  fieldProblem,
  formValuesOf,
  labelOf,
  rangeText,
  typeOf,
  unitOf,
  valueFromForm,
} from './values';

type Values = Record<string, FormValue>;

/** A text at least this long is free text (the contact info): typed in a box of several lines. */
const LONG_TEXT = 200;

/** A number's input with its unit and range; an amount in minor units is typed in rupees. */
function NumberInput(props: { type: IntegerSettingType; testId: string }) {
  const { t, i18n } = useTranslation('systemConfig');
  // The form item adds its id, value and onChange.
  const { type, testId, ...rest } = props;
  const money = type.unit === 'minorUnits';
  return (
    <InputNumber
      {...rest}
      data-testid={testId}
      // No min and max here: the input would silently bring a number into range; the form's check
      // says what the range is instead (it is also shown under the field).
      step={money ? 0.01 : 1}
      suffix={type.unit === 'count' ? undefined : unitOf(type, i18n.language, t)}
      style={{ width: '100%' }}
    />
  );
}

/**
 * The form that changes one setting of any type but a switch: the typed control with the current
 * value (a secret's input starts empty: its value is never shown), checked by the contract's schema
 * of the key; Save sends setX (the second-level password is asked on 1024) and the page shows the new
 * value. A refusal shows the server's text in the form. Test hooks: `config-form`, `config-input`
 * (one field) or `config-input-<field>` (a structured value), the OK button `config-save`.
 */
export function SettingForm({ entry, onClose }: { entry: SettingEntry; onClose(): void }) {
  const { t, i18n } = useTranslation(['systemConfig', 'common']);
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const change = useSetSetting();
  const [refusal, setRefusal] = useState<string | null>(null);
  const key: SettingKey = entry.key;
  const type = typeOf(key);
  const label = labelOf(key, i18n.language);

  /** A field's rule: the whole value through the contract's schema, this field's problem shown. */
  const rule = (field: string) => ({
    validator: async () => {
      const problem = fieldProblem(key, field, form.getFieldsValue(true) as Values, i18n.language, t);
      if (problem) throw new Error(problem);
    },
  });

  const submit = async (values: Values) => {
    setRefusal(null);
    try {
      await change.mutateAsync({ key, value: valueFromForm(key, values) });
      void message.success(t('saved', { label }));
      onClose();
    } catch (e) {
      setRefusal(errorText(i18n, e));
    }
  };

  const field = (() => {
    switch (type.kind) {
      case 'integer':
        return (
          <Form.Item name="value" label={label} extra={rangeText(type, i18n.language, t)} rules={[rule('value')]}>
            <NumberInput type={type} testId="config-input" />
          </Form.Item>
        );
      case 'choice':
        return (
          <Form.Item name="value" label={label} rules={[rule('value')]}>
            <Select
              data-testid="config-input"
              options={type.options.map((o) => ({ value: o, label: choiceText(key, o, i18n.language) }))}
            />
          </Form.Item>
        );
      case 'text':
        return (
          <Form.Item name="value" label={label} rules={[rule('value')]}>
            {type.maxLength >= LONG_TEXT && !type.pattern ? (
              <Input.TextArea
                maxLength={type.maxLength}
                showCount
                autoSize={{ minRows: 3 }}
                data-testid="config-input"
              />
            ) : (
              <Input maxLength={type.maxLength} autoComplete="off" data-testid="config-input" />
            )}
          </Form.Item>
        );
      case 'secret':
        return (
          <Form.Item name="value" label={t('secret.newValue')} extra={t('secret.hidden')} rules={[rule('value')]}>
            <Input.Password maxLength={type.maxLength} autoComplete="new-password" data-testid="config-input" />
          </Form.Item>
        );
      case 'structured':
        return Object.entries(type.fields).map(([f, ft]) => (
          <Form.Item
            key={f}
            name={f}
            label={fieldLabelOf(f, i18n.language)}
            extra={rangeText(ft, i18n.language, t)}
            rules={[rule(f)]}
          >
            <NumberInput type={ft} testId={`config-input-${f}`} />
          </Form.Item>
        ));
      case 'switch':
        return null;
    }
  })();

  return (
    <Modal
      open
      title={t(type.kind === 'secret' ? 'secret.setTitle' : 'changeTitle', { label })}
      okText={t('common:action.save')}
      cancelText={t('common:action.cancel')}
      okButtonProps={{ 'data-testid': 'config-save' } as Record<`data-${string}`, string>}
      confirmLoading={change.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Form<Values>
        form={form}
        name="settingForm"
        layout="vertical"
        data-testid="config-form"
        initialValues={formValuesOf(entry)}
        onFinish={(values) => void submit(values)}
      >
        <Typography.Paragraph type="secondary">
          <Typography.Text code>{key}</Typography.Text> {t('changeNote')}
        </Typography.Paragraph>
        {field}
        {refusal && <Alert type="error" showIcon title={refusal} data-testid="config-refusal" />}
      </Form>
    </Modal>
  );
}
