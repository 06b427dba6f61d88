import { Form, Input, Modal } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The reasons the contract takes (rejecting, marking abnormal): 1 to 256 characters. */
export const REASON_MAX = 256;

/**
 * A row action's form that asks for a reason (reject, mark abnormal): required, at most `REASON_MAX`
 * characters, sent trimmed. Texts are the caller's, in its namespace; `children` go above the field.
 * Test hooks: `<testId>-reason`, `<testId>-submit`.
 */
export function ReasonDialog(props: {
  title: string;
  label: string;
  submitText: string;
  requiredText: string;
  tooLongText: string;
  testId: string;
  busy: boolean;
  danger?: boolean;
  children?: ReactNode;
  onSubmit(reason: string): void;
  onClose(): void;
}) {
  const { t } = useTranslation('common');
  const [form] = Form.useForm<{ reason: string }>();
  return (
    <Modal
      open
      title={props.title}
      okText={props.submitText}
      okButtonProps={{ danger: props.danger, loading: props.busy, 'data-testid': `${props.testId}-submit` }}
      cancelText={t('action.cancel')}
      onOk={() =>
        void form
          .validateFields()
          .then((v) => props.onSubmit(v.reason.trim()))
          .catch(() => undefined)
      }
      onCancel={props.onClose}
      destroyOnHidden
    >
      {props.children}
      <Form form={form} layout="vertical" name={props.testId}>
        <Form.Item
          name="reason"
          label={props.label}
          rules={[
            { required: true, whitespace: true, message: props.requiredText },
            { max: REASON_MAX, message: props.tooLongText },
          ]}
        >
          <Input.TextArea rows={3} data-testid={`${props.testId}-reason`} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
