import { DownloadOutlined, EditOutlined, UndoOutlined } from '@ant-design/icons';
import {
  BOT_MESSAGE_SAMPLES,
  endpoints,
  fillBotText,
  IN_APP_MESSAGE_SAMPLES,
  MESSAGE_TEMPLATE_CHANNELS,
  type MessageTemplateChannel,
  type MessageTemplateFilters,
  type MessageTemplateRow,
  TEMPLATE_MAX_LENGTH,
  TEXT_LOCALES,
  type TextLocale,
  templateMatches,
} from '@paydesk/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/api/errorText';
import { call, exportUrl } from '../../shared/api/http';
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
 * The catalogue is a few dozen rows, all loaded: the filters (channel, language, own or default text,
 * a keyword in the message's name, key or text) narrow what the page holds, by the contract's
 * `templateMatches`, which the CSV export applies on the server too.
 *
 * Test hooks: `tg-template-list`, `tg-template-edit-<key>-<language>`, `tg-template-reset-<key>-<language>`,
 * `tg-template-text`, `tg-template-preview`, `tg-template-save`, `tg-template-ok`, `tg-template-channel`,
 * `tg-template-language`, `tg-template-source`, `tg-template-keyword`, `tg-template-export`.
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
  const [filters, setFilters] = useState<MessageTemplateFilters>({});
  const set = (change: MessageTemplateFilters) => setFilters((f) => ({ ...f, ...change }));
  const shown = (list.data?.list ?? []).filter((row) => templateMatches(row, filters, [t(`template.key.${row.key}`)]));
  const sent = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== null && v !== undefined && v !== ''));

  return (
    <div className="page">
      <Alert type="info" showIcon title={readOnly ? t('readOnlyNote') : t('template.note')} />
      {list.error && (
        <Alert type="error" showIcon title={t('common:list.loadFailed', { message: errorText(i18n, list.error) })} />
      )}
      <Card size="small">
        <Space wrap style={{ marginBottom: 12 }}>
          <Select<MessageTemplateChannel | null>
            aria-label={t('template.channel')}
            data-testid="tg-template-channel"
            style={{ minWidth: 160 }}
            value={filters.channel ?? null}
            onChange={(channel) => set({ channel })}
            options={[
              { value: null, label: t('template.anyChannel') },
              ...MESSAGE_TEMPLATE_CHANNELS.map((c) => ({ value: c, label: t(`template.channelName.${c}`) })),
            ]}
          />
          <Select<TextLocale | null>
            aria-label={t('column.language')}
            data-testid="tg-template-language"
            style={{ minWidth: 140 }}
            value={filters.language ?? null}
            onChange={(language) => set({ language })}
            options={[
              { value: null, label: t('template.anyLanguage') },
              ...TEXT_LOCALES.map((l) => ({ value: l, label: t(`languageName.${l}`) })),
            ]}
          />
          <Select<'custom' | 'default' | null>
            aria-label={t('template.source')}
            data-testid="tg-template-source"
            style={{ minWidth: 140 }}
            value={filters.custom === true ? 'custom' : filters.custom === false ? 'default' : null}
            onChange={(source) => set({ custom: source === null ? null : source === 'custom' })}
            options={[
              { value: null, label: t('template.anySource') },
              { value: 'custom', label: t('template.custom') },
              { value: 'default', label: t('template.default') },
            ]}
          />
          <Input.Search
            aria-label={t('template.keyword')}
            placeholder={t('template.keyword')}
            data-testid="tg-template-keyword"
            allowClear
            maxLength={128}
            style={{ width: 220 }}
            onSearch={(keyword) => set({ keyword })}
          />
          <Button
            icon={<DownloadOutlined />}
            href={exportUrl(endpoints.bots.templateExport, sent)}
            download
            data-testid="tg-template-export"
          >
            {t('common:action.exportCsv')}
          </Button>
        </Space>
        <Table<MessageTemplateRow>
          ref={scrollRegion}
          data-testid="tg-template-list"
          size="small"
          loading={list.isFetching}
          dataSource={shown}
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
