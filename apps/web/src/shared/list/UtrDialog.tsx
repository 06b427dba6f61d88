import { Form, Input, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** What the dialog checks a UTR with: the contract's own rule (a zod schema), so it refuses what the server would. */
interface UtrRule {
  safeParse(value: unknown): { success: boolean };
}

/**
 * A row action's form that asks for a UTR (an order's supplement, a payout's payment): checked by the
 * endpoint's rule before sending, sent trimmed. Texts are the caller's, in its namespace. Test hooks:
 * `utrTestId` on the field, `submitTestId` on the button.
 */
export function UtrDialog(props: {
  title: string;
  hint: string;
  label: string;
  submitText: string;
  invalidText: string;
  rule: UtrRule;
  formName: string;
  utrTestId: string;
  submitTestId: string;
  busy: boolean;
  onSubmit(utr: string): void;
  onClose(): void;
}) {
  const { t } = useTranslation('common');
  const [form] = Form.useForm<{ utr: string }>();
  return (
    <Modal
      open
      title={props.title}
      okText={props.submitText}
      okButtonProps={{ loading: props.busy, 'data-testid': props.submitTestId }}
      cancelText={t('action.cancel')}
      onOk={() =>
        void form
          .validateFields()
          .then((v) => props.onSubmit(v.utr.trim()))
          .catch(() => undefined)
      }
      onCancel={props.onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{props.hint}</Typography.Paragraph>
      <Form form={form} layout="vertical" name={props.formName}>
        <Form.Item
          name="utr"
          label={props.label}
          rules={[
            {
              validator: (_, v: unknown) =>
                props.rule.safeParse(v ?? '').success
                  ? Promise.resolve()
                  : Promise.reject(new Error(props.invalidText)),
            },
          ]}
        >
          <Input autoComplete="off" data-testid={props.utrTestId} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
