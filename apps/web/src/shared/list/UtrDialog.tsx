import type { ImageUpload } from '@paydesk/contract';
import { Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ImagePicker } from '../forms/ImagePicker';

/** What the dialog checks a UTR with: the contract's own rule (a zod schema), so it refuses what the server would. */
interface UtrRule {
  safeParse(value: unknown): { success: boolean };
}

/** The optional image field of a dialog that takes one (a payout's receipt): its texts and test hook. */
export interface UtrImageField {
  label: string;
  hint: string;
  chooseText: string;
  removeText: string;
  /** The preview's text alternative. */
  alt: string;
  testId: string;
}

/**
 * A row action's form that asks for a UTR (an order's supplement, a payout's payment): checked by the
 * endpoint's rule before sending, sent trimmed. With `image`, it also offers an optional image (a
 * payout's receipt: ImagePicker), sent with the UTR when one was picked. Texts are the caller's, in its
 * namespace. Test hooks: `utrTestId` on the field, `submitTestId` on the button, `image.testId` on the picker.
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
  image?: UtrImageField;
  onSubmit(utr: string, image?: ImageUpload): void;
  onClose(): void;
}) {
  const { t } = useTranslation('common');
  const [form] = Form.useForm<{ utr: string }>();
  const [image, setImage] = useState<ImageUpload>();
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
          .then((v) => (props.image && image ? props.onSubmit(v.utr.trim(), image) : props.onSubmit(v.utr.trim())))
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
        {props.image && (
          <Form.Item label={props.image.label} extra={props.image.hint}>
            <ImagePicker
              value={image}
              onChange={setImage}
              chooseText={props.image.chooseText}
              removeText={props.image.removeText}
              alt={props.image.alt}
              testId={props.image.testId}
              disabled={props.busy}
            />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
