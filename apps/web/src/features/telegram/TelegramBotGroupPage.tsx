import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import {
  BOT_GROUP_KINDS,
  type BotGroupKind,
  endpoints,
  TEXT_LOCALES,
  type TelegramGroupRow,
  type TextLocale,
} from '@paydesk/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Modal, Select, Switch, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, ensureToken2, exportUrl } from '../../shared/api/http';
import { formatTime } from '../../shared/format/time';
import { ListTable } from '../../shared/list/ListTable';
import { endpointRoles, type RowActionFormProps, type RowActions, rowAction } from '../../shared/list/rowActions';
import { telegramKeys, useCanChange, useTelegramChange } from './api';

export interface GroupFormValues {
  chatId: string;
  name: string;
  partyKind: BotGroupKind;
  partyId: number | null;
  language: TextLocale;
  enabled: boolean;
  remark: string;
}

/** Add (no row) or change (a row) a bot group: its chat, and the merchant or supplier it speaks for. */
function GroupDialog(props: {
  row: TelegramGroupRow | null;
  busy: boolean;
  onSubmit(values: GroupFormValues): void;
  onClose(): void;
}) {
  const { t } = useTranslation(['telegram', 'common']);
  const [form] = Form.useForm<GroupFormValues>();
  const parties = useQuery({
    queryKey: telegramKeys.parties,
    queryFn: () => call(endpoints.bots.groupParties, {}),
    staleTime: 60_000,
  });
  const kind = Form.useWatch('partyKind', form) ?? props.row?.partyKind ?? 'merchant';
  const options =
    kind === 'merchant'
      ? (parties.data?.merchants ?? []).map((m) => ({ value: m.id, label: `${m.name} (${m.merchantNo})` }))
      : (parties.data?.suppliers ?? []).map((s) => ({ value: s.id, label: s.name }));
  const required = { required: true, whitespace: true, message: t('form.required') };
  return (
    <Modal
      open
      title={props.row ? t('form.groupEdit') : t('form.groupAdd')}
      okText={t('common:action.save')}
      cancelText={t('common:action.cancel')}
      okButtonProps={{ 'data-testid': 'tg-group-save' }}
      confirmLoading={props.busy}
      onOk={() => form.submit()}
      onCancel={props.onClose}
    >
      <Form<GroupFormValues>
        form={form}
        layout="vertical"
        data-testid="tg-group-form"
        initialValues={
          props.row ?? {
            chatId: '',
            name: '',
            partyKind: 'merchant',
            partyId: null,
            language: 'zh-CN',
            enabled: true,
            remark: '',
          }
        }
        onFinish={(v) =>
          props.onSubmit({
            ...v,
            chatId: v.chatId.trim(),
            name: v.name.trim(),
            remark: (v.remark ?? '').trim(),
            partyId: v.partyKind === 'staff' ? null : (v.partyId ?? null),
          })
        }
      >
        <Form.Item
          name="chatId"
          label={t('column.chatId')}
          extra={t('form.chatIdHelp')}
          rules={[required, { pattern: /^\s*-?[1-9]\d{0,15}\s*$/, message: t('form.badChatId') }]}
        >
          <Input maxLength={17} autoComplete="off" data-testid="tg-group-chat" />
        </Form.Item>
        <Form.Item name="name" label={t('column.name')} rules={[required]}>
          <Input maxLength={64} autoComplete="off" data-testid="tg-group-name" />
        </Form.Item>
        <Form.Item name="partyKind" label={t('column.partyKind')}>
          <Select
            data-testid="tg-group-kind"
            options={BOT_GROUP_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
            onChange={() => form.setFieldValue('partyId', null)}
          />
        </Form.Item>
        {kind !== 'staff' && (
          <Form.Item
            name="partyId"
            label={kind === 'merchant' ? t('form.merchant') : t('form.supplier')}
            rules={[{ required: true, message: t('form.chooseParty') }]}
          >
            <Select
              data-testid="tg-group-party"
              showSearch={{ optionFilterProp: 'label' }}
              loading={parties.isPending}
              options={options}
            />
          </Form.Item>
        )}
        <Form.Item name="language" label={t('column.language')}>
          <Select
            data-testid="tg-group-language"
            options={TEXT_LOCALES.map((l) => ({ value: l, label: t(`languageName.${l}`) }))}
          />
        </Form.Item>
        <Form.Item name="enabled" label={t('column.enabled')} valuePropName="checked">
          <Switch data-testid="tg-group-enabled" />
        </Form.Item>
        <Form.Item name="remark" label={t('column.remark')}>
          <Input.TextArea maxLength={200} rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

const EditDialog = (p: RowActionFormProps<TelegramGroupRow, GroupFormValues>) => (
  <GroupDialog row={p.row} busy={p.busy} onSubmit={p.onSubmit} onClose={p.onClose} />
);

/**
 * System management › Telegram bot groups (and the read-only twin): which chat gets which merchant's
 * or supplier's notices, and the staff groups that get the reminders. Changes ask the second-level
 * password first.
 *
 * Test hooks: `tg-group-list`, `tg-group-add`, `tg-group-form`, `tg-group-chat`, `tg-group-name`,
 * `tg-group-kind`, `tg-group-party`, `tg-group-save`, row actions `tg-group-edit-<id>`, `tg-group-delete-<id>`.
 */
export default function TelegramBotGroupPage() {
  const { t } = useTranslation(['telegram', 'common']);
  const queryClient = useQueryClient();
  const { readOnly, canChange } = useCanChange(endpoints.bots.groupAdd.access);
  const [adding, setAdding] = useState(false);
  const add = useTelegramChange(
    (v: GroupFormValues) => call(endpoints.bots.groupAdd, v),
    () => setAdding(false),
  );
  const roles = (e: { access: Parameters<typeof endpointRoles>[0]['access'] }) => (readOnly ? [] : endpointRoles(e));
  const actions: RowActions<TelegramGroupRow> = {
    actions: [
      rowAction<TelegramGroupRow, GroupFormValues>({
        key: 'edit',
        label: 'telegram:action.edit',
        success: 'telegram:success.saved',
        icon: <EditOutlined />,
        roles: roles(endpoints.bots.groupUpdate),
        token2: endpoints.bots.groupUpdate.token2,
        allowed: () => true,
        form: EditDialog,
        run: (row, v) => call(endpoints.bots.groupUpdate, { id: row.id, ...v }),
      }),
      rowAction<TelegramGroupRow>({
        key: 'delete',
        label: 'telegram:action.delete',
        success: 'telegram:success.deleted',
        confirm: 'telegram:ask.groupDelete',
        icon: <DeleteOutlined />,
        danger: true,
        roles: roles(endpoints.bots.groupDelete),
        token2: endpoints.bots.groupDelete.token2,
        allowed: () => true,
        run: (row) => call(endpoints.bots.groupDelete, { id: row.id }),
      }),
    ],
    testIdPrefix: 'tg-group',
    testIdOf: (row) => String(row.id),
    textValues: (row) => ({ name: row.name }),
    onDone: () => queryClient.invalidateQueries({ queryKey: telegramKeys.all }),
  };

  return (
    <div className="page">
      <Alert type="info" showIcon title={readOnly ? t('readOnlyNote') : t('groupNote')} />
      <ListTable<TelegramGroupRow>
        testId="tg-group-list"
        queryKey={telegramKeys.groups}
        rowKey="id"
        fetchPage={(p) => call(endpoints.bots.groupList, p)}
        exportHref={(f) => exportUrl(endpoints.bots.groupExport, f)}
        actions={actions}
        toolbar={
          canChange && (
            <Button
              type="primary"
              data-testid="tg-group-add"
              onClick={() =>
                void ensureToken2().then(
                  () => setAdding(true),
                  () => undefined, // the second-level password dialog was closed
                )
              }
            >
              {t('add.group')}
            </Button>
          )
        }
        filters={[
          { kind: 'text', name: 'keyword', label: t('filter.keyword') },
          {
            kind: 'select',
            name: 'partyKind',
            label: t('filter.partyKind'),
            options: BOT_GROUP_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) })),
          },
        ]}
        columns={[
          { title: t('column.name'), dataIndex: 'name', phone: 'title' },
          { title: t('column.chatId'), dataIndex: 'chatId', phone: true },
          {
            title: t('column.partyKind'),
            dataIndex: 'partyKind',
            phone: true,
            render: (k: BotGroupKind) => t(`kind.${k}`),
          },
          {
            title: t('column.party'),
            key: 'party',
            phone: true,
            render: (_: unknown, row: TelegramGroupRow) =>
              row.partyKind === 'staff' ? '—' : (row.partyName ?? `#${row.partyId} ${t('partyRemoved')}`),
          },
          { title: t('column.language'), dataIndex: 'language', render: (l: TextLocale) => t(`languageName.${l}`) },
          {
            title: t('column.enabled'),
            dataIndex: 'enabled',
            phone: 'extra',
            render: (on: boolean) => <Tag color={on ? 'success' : 'default'}>{on ? t('enabled') : t('disabled')}</Tag>,
          },
          { title: t('column.remark'), dataIndex: 'remark' },
          { title: t('column.updatedAt'), dataIndex: 'updatedAt', render: formatTime },
        ]}
      />
      {adding && (
        <GroupDialog row={null} busy={add.isPending} onSubmit={(v) => add.mutate(v)} onClose={() => setAdding(false)} />
      )}
    </div>
  );
}
