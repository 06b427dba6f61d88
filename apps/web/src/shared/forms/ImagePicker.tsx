import { DeleteOutlined, PictureOutlined } from '@ant-design/icons';
import type { ImageUpload } from '@paydesk/contract';
import { App, Button, Image, Space, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { imageUploadOf } from './imageFile';

/**
 * An optional image field (a payout's receipt): antd's Upload picks a file, which is checked by the
 * common image rule (type and size, the server's own texts) and read into base64 here (nothing is sent
 * until the form is); the picked image shows as a preview (tap to enlarge) with a remove button.
 * Test hooks: `<testId>` around the picker (its file input inside), `<testId>-preview`, `<testId>-remove`.
 */
export function ImagePicker(props: {
  value: ImageUpload | undefined;
  onChange(value: ImageUpload | undefined): void;
  chooseText: string;
  removeText: string;
  /** The preview's text alternative. */
  alt: string;
  testId: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation('server');
  const { message } = App.useApp();
  const pick = async (file: File) => {
    const picked = await imageUploadOf(file);
    if (picked.ok) props.onChange(picked.upload);
    else void message.error(t(`reason.${picked.reason}`));
  };
  const { value } = props;
  return (
    <Space wrap align="start">
      {value && (
        <Image
          src={`data:${value.mime};base64,${value.imageBase64}`}
          alt={props.alt}
          width={96}
          style={{ maxHeight: 160, objectFit: 'contain' }}
          data-testid={`${props.testId}-preview`}
        />
      )}
      <Space orientation="vertical" size={4}>
        {/* No `accept` filter: antd would drop another type silently; the user is told "file type error". */}
        <span data-testid={props.testId}>
          <Upload
            showUploadList={false}
            disabled={props.disabled}
            beforeUpload={(file) => {
              void pick(file);
              return false;
            }}
          >
            <Button icon={<PictureOutlined />} disabled={props.disabled}>
              {props.chooseText}
            </Button>
          </Upload>
        </span>
        {value && (
          <Button
            icon={<DeleteOutlined />}
            danger
            disabled={props.disabled}
            onClick={() => props.onChange(undefined)}
            data-testid={`${props.testId}-remove`}
          >
            {props.removeText}
          </Button>
        )}
      </Space>
    </Space>
  );
}
