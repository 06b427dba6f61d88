import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { endpoints, type TelegramWhitelistRow } from '@paydesk/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Modal, Switch, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, ensureToken2, exportUrl } from '../../shared/api/http';
import { formatTime } from '../../shared/format/time';
import { ListTable } from '../../shared/list/ListTable';
import { endpointRoles, type RowActionFormProps, type RowActions, rowAction } from '../../shared/list/rowActions';
import { telegramKeys, useCanChange, useTelegramChange } from './api';

export interface WhitelistFormValues {
  telegramUserId: string;
  name: string;
  enabled: boolean;
  remark: string;
}

/** Add (no row) or change (a row) a whitelisted Telegram user. */
function WhitelistDialog(props: {
  row: TelegramWhitelistRow | null;
  busy: boolean;
  onSubmit(values: WhitelistFormValues): void;
  onClose(): void;
}) {
  const { t } = useTranslation(['telegram', 'common']);
  const [form] = Form.useForm<WhitelistFormValues>();
  const required = { required: true, whitespace: true, message: t('form.required') };
  return (
    <Modal
      open
      title={props.row ? t('form.whitelistEdit') : t('form.whitelistAdd')}
      okText={t('common:action.save')}
      cancelText={t('common:action.cancel')}
      okButtonProps={{ 'data-testid': 'tg-user-save' }}
      confirmLoading={props.busy}
      onOk={() => form.submit()}
      onCancel={props.onClose}
    >
      <Form<WhitelistFormValues>
        form={form}
        layout="vertical"
        data-testid="tg-user-form"
        initialValues={props.row ?? { telegramUserId: '', name: '', enabled: true, remark: '' }}
        onFinish={(v) =>
          props.onSubmit({
            ...v,
            telegramUserId: v.telegramUserId.trim(),
            name: v.name.trim(),
            remark: (v.remark ?? '').trim(),
          })
        }
      >
        <Form.Item
          name="telegramUserId"
          label={t('column.telegramUserId')}
          extra={t('form.telegramUserIdHelp')}
          rules={[required, { pattern: /^\s*[1-9]\d{0,15}\s*$/, message: t('form.badUserId') }]}
        >
          <Input inputMode="numeric" maxLength={16} autoComplete="off" data-testid="tg-user-id" />
        </Form.Item>
        <Form.Item name="name" label={t('column.name')} rules={[required]}>
          <Input maxLength={64} autoComplete="off" data-testid="tg-user-name" />
        </Form.Item>
        <Form.Item name="enabled" label={t('column.enabled')} valuePropName="checked">
          <Switch data-testid="tg-user-enabled" />
        </Form.Item>
        <Form.Item name="remark" label={t('column.remark')}>
          <Input.TextArea maxLength={200} rows={2} data-testid="tg-user-remark" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

const EditDialog = (p: RowActionFormProps<TelegramWhitelistRow, WhitelistFormValues>) => (
  <WhitelistDialog row={p.row} busy={p.busy} onSubmit={p.onSubmit} onClose={p.onClose} />
);

/**
 * System management › Telegram whitelist (and its read-only twin for technical maintenance): the
 * Telegram users the bots answer. Changes ask the second-level password first.
 *
 * Test hooks: `tg-user-list`, `tg-user-add`, `tg-user-form`, `tg-user-id`, `tg-user-name`,
 * `tg-user-save`, row actions `tg-user-edit-<id>`, `tg-user-delete-<id>`.
 */
export default function TelegramWhitelistPage() {
  const { t } = useTranslation(['telegram', 'common']);
  const queryClient = useQueryClient();
  const { readOnly, canChange } = useCanChange(endpoints.bots.whitelistAdd.access);
  const [adding, setAdding] = useState(false);
  const add = useTelegramChange(
    (v: WhitelistFormValues) => call(endpoints.bots.whitelistAdd, v),
    () => setAdding(false),
  );
  const roles = (e: { access: Parameters<typeof endpointRoles>[0]['access'] }) => (readOnly ? [] : endpointRoles(e));
  const actions: RowActions<TelegramWhitelistRow> = {
    actions: [
      rowAction<TelegramWhitelistRow, WhitelistFormValues>({
        key: 'edit',
        label: 'telegram:action.edit',
        success: 'telegram:success.saved',
        icon: <EditOutlined />,
        roles: roles(endpoints.bots.whitelistUpdate),
        token2: endpoints.bots.whitelistUpdate.token2,
        allowed: () => true,
        form: EditDialog,
        run: (row, v) => call(endpoints.bots.whitelistUpdate, { id: row.id, ...v }),
      }),
      rowAction<TelegramWhitelistRow>({
        key: 'delete',
        label: 'telegram:action.delete',
        success: 'telegram:success.deleted',
        confirm: 'telegram:ask.whitelistDelete',
        icon: <DeleteOutlined />,
        danger: true,
        roles: roles(endpoints.bots.whitelistDelete),
        token2: endpoints.bots.whitelistDelete.token2,
        allowed: () => true,
        run: (row) => call(endpoints.bots.whitelistDelete, { id: row.id }),
      }),
    ],
    testIdPrefix: 'tg-user',
    testIdOf: (row) => String(row.id),
    textValues: (row) => ({ name: row.name }),
    onDone: () => queryClient.invalidateQueries({ queryKey: telegramKeys.all }),
  };

  return (
    <div className="page">
      <Alert type="info" showIcon title={readOnly ? t('readOnlyNote') : t('whitelistNote')} />
      <ListTable<TelegramWhitelistRow>
        testId="tg-user-list"
        queryKey={telegramKeys.whitelist}
        rowKey="id"
        fetchPage={(p) => call(endpoints.bots.whitelistList, p)}
        exportHref={(f) => exportUrl(endpoints.bots.whitelistExport, f)}
        actions={actions}
        toolbar={
          canChange && (
            <Button
              type="primary"
              data-testid="tg-user-add"
              onClick={() =>
                void ensureToken2().then(
                  () => setAdding(true),
                  () => undefined, // the second-level password dialog was closed
                )
              }
            >
              {t('add.whitelist')}
            </Button>
          )
        }
        filters={[{ kind: 'text', name: 'keyword', label: t('filter.keyword') }]}
        columns={[
          { title: t('column.telegramUserId'), dataIndex: 'telegramUserId', phone: 'title' },
          { title: t('column.name'), dataIndex: 'name', phone: true },
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
        <WhitelistDialog
          row={null}
          busy={add.isPending}
          onSubmit={(v) => add.mutate(v)}
          onClose={() => setAdding(false)}
        />
      )}
    </div>
  );
}
