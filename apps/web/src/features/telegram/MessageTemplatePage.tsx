import { EditOutlined, UndoOutlined } from '@ant-design/icons';
import {
  BOT_MESSAGE_SAMPLES,
  endpoints,
  fillBotText,
  IN_APP_MESSAGE_SAMPLES,
  type MessageTemplateChannel,
  type MessageTemplateRow,
  TEMPLATE_MAX_LENGTH,
  type TextLocale,
} from '@paydesk/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Card, Form, Input, Modal, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/api/errorText';
import { call } from '../../shared/api/http';
import {
  endpointRoles,
  type RowActionFormProps,
  type RowActions,
  rowAction,
  useRowActions,
} from '../../shared/list/rowActions';
import { useScrollRegion } from '../../shared/list/scrollRegion';
import { useSession } from '../../shared/session/session';
import { telegramKeys, useCanChange } from './api';

const templateKeys = [...telegramKeys.all, 'templates'] as const;

/** The text with the message's example values: what a group (or an inbox) would read. */
export const previewOf = (text: string, channel: MessageTemplateChannel = 'bot') =>
  fillBotText(text, channel === 'bot' ? BOT_MESSAGE_SAMPLES : IN_APP_MESSAGE_SAMPLES);

/** Edits one message's text in one language, with its variables and a live preview. */
function TemplateDialog(p: RowActionFormProps<MessageTemplateRow, { text: string }>) {
  const { t } = useTranslation(['telegram', 'common']);
  const [form] = Form.useForm<{ text: string }>();
  const text = Form.useWatch('text', form) ?? p.row.text;
  return (
    <Modal
      open
      title={t('template.editTitle', {
        message: t(`template.key.${p.row.key}`),
        language: t(`languageName.${p.row.language}`),
      })}
      okText={t('common:action.save')}
      cancelText={t('common:action.cancel')}
      okButtonProps={{ 'data-testid': 'tg-template-save' }}
      confirmLoading={p.busy}
      onOk={() => form.submit()}
      onCancel={p.onClose}
    >
      <Form<{ text: string }>
        form={form}
        layout="vertical"
        initialValues={{ text: p.row.text }}
        onFinish={(v) => p.onSubmit({ text: v.text.trim() })}
      >
        <Form.Item
          name="text"
          label={t('template.text')}
          rules={[{ required: true, whitespace: true, message: t('form.required') }]}
          extra={
            <Space size={4} wrap>
              {t('template.variables')}
              {p.row.variables.map((v) => (
                <Tag key={v}>{`{{${v}}}`}</Tag>
              ))}
            </Space>
          }
        >
          <Input.TextArea rows={6} maxLength={TEMPLATE_MAX_LENGTH} data-testid="tg-template-text" />
        </Form.Item>
      </Form>
      <Typography.Text strong>{t('template.preview')}</Typography.Text>
      <pre className="template-preview" data-testid="tg-template-preview" style={{ whiteSpace: 'pre-wrap' }}>
        {previewOf(text, p.row.channel)}
      </pre>
    </Modal>
  );
}

/**
 * System management › message templates (and the read-only twin): what the Telegram bots send and the
 * in-app inbox's system messages (channel), each message in each language, with its variables and a
 * preview filled with example values. Staff change
 * a text (its message's variables only) or reset it to the default, with the second-level password.
 *
 * Test hooks: `tg-template-list`, `tg-template-edit-<key>-<language>`, `tg-template-reset-<key>-<language>`,
 * `tg-template-text`, `tg-template-preview`, `tg-template-save`, `tg-template-ok`.
 */
export default function MessageTemplatePage() {
  const { t, i18n } = useTranslation(['telegram', 'common']);
  const { user } = useSession();
  const queryClient = useQueryClient();
  const { readOnly } = useCanChange(endpoints.bots.templateUpdate.access);
  const list = useQuery({ queryKey: templateKeys, queryFn: () => call(endpoints.bots.templateList, {}) });
  const roles = (e: Parameters<typeof endpointRoles>[0]) => (readOnly ? [] : endpointRoles(e));
  const actions: RowActions<MessageTemplateRow> = {
    actions: [
      rowAction<MessageTemplateRow, { text: string }>({
        key: 'edit',
        label: 'telegram:action.edit',
        success: 'telegram:success.saved',
        icon: <EditOutlined />,
        roles: roles(endpoints.bots.templateUpdate),
        token2: endpoints.bots.templateUpdate.token2,
        allowed: () => true,
        form: TemplateDialog,
        run: (row, v) =>
          call(endpoints.bots.templateUpdate, {
            channel: row.channel,
            key: row.key,
            language: row.language,
            text: v.text,
          }),
      }),
      rowAction<MessageTemplateRow>({
        key: 'reset',
        label: 'telegram:template.reset',
        success: 'telegram:template.resetDone',
        confirm: 'telegram:template.askReset',
        icon: <UndoOutlined />,
        roles: roles(endpoints.bots.templateReset),
        token2: endpoints.bots.templateReset.token2,
        allowed: (row) => row.custom,
        run: (row) =>
          call(endpoints.bots.templateReset, { channel: row.channel, key: row.key, language: row.language }),
      }),
    ],
    testIdPrefix: 'tg-template',
    testIdOf: (row) => `${row.key}-${row.language}`,
    textValues: (row) => ({ message: t(`template.key.${row.key}`), language: t(`languageName.${row.language}`) }),
    onDone: () => queryClient.invalidateQueries({ queryKey: templateKeys }),
  };
  const rowActions = useRowActions(actions, user?.access);
  const scrollRegion = useScrollRegion();
  const canAct = rowActions.any;

  return (
    <div className="page">
      <Alert type="info" showIcon title={readOnly ? t('readOnlyNote') : t('template.note')} />
      {list.error && (
        <Alert type="error" showIcon title={t('common:list.loadFailed', { message: errorText(i18n, list.error) })} />
      )}
      <Card size="small">
        <Table<MessageTemplateRow>
          ref={scrollRegion}
          data-testid="tg-template-list"
          size="small"
          loading={list.isFetching}
          dataSource={list.data?.list ?? []}
          rowKey={(row) => `${row.channel}:${row.key}:${row.language}`}
          pagination={false}
          scroll={{ x: 'max-content' }}
          columns={[
            {
              title: t('template.channel'),
              dataIndex: 'channel',
              render: (c: MessageTemplateChannel) => t(`template.channelName.${c}`),
            },
            { title: t('template.message'), dataIndex: 'key', render: (k: string) => t(`template.key.${k}`) },
            {
              title: t('column.language'),
              dataIndex: 'language',
              render: (l: TextLocale) => t(`languageName.${l}`),
            },
            {
              title: t('template.text'),
              dataIndex: 'text',
              render: (text: string) => <span style={{ whiteSpace: 'pre-wrap' }}>{text}</span>,
            },
            {
              title: t('template.source'),
              dataIndex: 'custom',
              render: (custom: boolean, row) => (
                <Space direction="vertical" size={0}>
                  <Tag color={custom ? 'blue' : 'default'}>{custom ? t('template.custom') : t('template.default')}</Tag>
                  {row.updatedBy && <Typography.Text type="secondary">{row.updatedBy}</Typography.Text>}
                </Space>
              ),
            },
            ...(canAct
              ? [
                  {
                    title: t('common:rowActions.column'),
                    key: 'actions',
                    fixed: 'right' as const,
                    render: (_: unknown, row: MessageTemplateRow) => rowActions.bar(row),
                  },
                ]
              : []),
          ]}
        />
      </Card>
      {rowActions.dialogs}
    </div>
  );
}
