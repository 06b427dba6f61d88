import { BellOutlined, MutedOutlined, SendOutlined } from '@ant-design/icons';
import {
  BOT_GROUP_KINDS,
  type BotGroupKind,
  endpoints,
  settingBodySchema,
  type TelegramGroupRow,
  type TextLocale,
} from '@paydesk/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Form, Input, Modal, Popconfirm, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/api/errorText';
import { call, exportUrl } from '../../shared/api/http';
import { formatTime } from '../../shared/format/time';
import { ListTable } from '../../shared/list/ListTable';
import { endpointRoles, type RowActions, rowAction } from '../../shared/list/rowActions';
import { telegramKeys, useCanChange } from './api';

const statusKey = [...telegramKeys.all, 'transferBot'] as const;
const setToken = endpoints.systemConfig.setTransferBotToken;

/** Sets a new transfer bot token (a password field: the value is never shown) through the setting's call. */
function TokenDialog(props: { busy: boolean; onSubmit(value: string): void; onClose(): void }) {
  const { t } = useTranslation(['telegram', 'common']);
  const [form] = Form.useForm<{ value: string }>();
  return (
    <Modal
      open
      title={t('transfer.setTitle')}
      okText={t('common:action.save')}
      cancelText={t('common:action.cancel')}
      okButtonProps={{ 'data-testid': 'transfer-token-save' }}
      confirmLoading={props.busy}
      onOk={() => form.submit()}
      onCancel={props.onClose}
    >
      <Form form={form} layout="vertical" onFinish={(v) => props.onSubmit(v.value.trim())}>
        <Form.Item
          name="value"
          label={t('transfer.newToken')}
          extra={t('transfer.tokenHelp')}
          rules={[
            {
              validator: async (_, value: string | undefined) => {
                if (!settingBodySchema('TransferBotToken').safeParse({ value: (value ?? '').trim() }).success)
                  throw new Error(t('transfer.badToken'));
              },
            },
          ]}
        >
          <Input.Password autoComplete="off" maxLength={128} data-testid="transfer-token-input" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * System management › transfer bot (and its read-only twin for technical maintenance): whether the
 * transfer bot's token is set (never its value) and which bot posts the balance changes now; set or
 * clear the token (superAdmin, through the TransferBotToken setting's call); choose the groups that get
 * the balance changes; send a test message to a group. Changes ask the second-level password.
 *
 * Test hooks: `transfer-status`, `transfer-token-state`, `transfer-sender`, `transfer-token-set`,
 * `transfer-token-input`, `transfer-token-save`, `transfer-token-clear`, `transfer-token-confirm`,
 * `transfer-group-list`, row actions `transfer-group-{noticesOn,noticesOff,test}-<id>`.
 */
export default function TransferBotPage() {
  const { t, i18n } = useTranslation(['telegram', 'common']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { readOnly } = useCanChange(endpoints.bots.groupTransferNotices.access);
  const { canChange: canSetToken } = useCanChange(setToken.access);
  const [setting, setSetting] = useState(false);
  const status = useQuery({ queryKey: statusKey, queryFn: () => call(endpoints.bots.transferBotStatus, {}) });
  const reload = () => queryClient.invalidateQueries({ queryKey: telegramKeys.all });
  const token = useMutation({
    mutationFn: (value: string | null) => call(setToken, { value }),
    onSuccess: async (_, value) => {
      void message.success(t(value === null ? 'transfer.cleared' : 'transfer.saved'));
      setSetting(false);
      await reload();
    },
    onError: (error) => void message.error(errorText(i18n, error)),
  });

  const roles = (e: { access: Parameters<typeof endpointRoles>[0]['access'] }) => (readOnly ? [] : endpointRoles(e));
  const party = (row: TelegramGroupRow) => row.partyKind !== 'staff';
  const flag = (on: boolean) =>
    rowAction<TelegramGroupRow>({
      key: on ? 'noticesOn' : 'noticesOff',
      label: `telegram:transfer.action.${on ? 'noticesOn' : 'noticesOff'}`,
      success: 'telegram:success.saved',
      confirm: `telegram:transfer.ask.${on ? 'noticesOn' : 'noticesOff'}`,
      icon: on ? <BellOutlined /> : <MutedOutlined />,
      roles: roles(endpoints.bots.groupTransferNotices),
      token2: endpoints.bots.groupTransferNotices.token2,
      allowed: (row) => party(row) && row.transferNotices !== on,
      run: (row) => call(endpoints.bots.groupTransferNotices, { id: row.id, transferNotices: on }),
    });
  const actions: RowActions<TelegramGroupRow> = {
    actions: [
      flag(true),
      flag(false),
      rowAction<TelegramGroupRow>({
        key: 'test',
        label: 'telegram:transfer.action.test',
        success: 'telegram:transfer.testSent',
        confirm: 'telegram:transfer.ask.test',
        icon: <SendOutlined />,
        roles: roles(endpoints.bots.transferBotTest),
        token2: endpoints.bots.transferBotTest.token2,
        allowed: (row) => row.enabled,
        run: (row) => call(endpoints.bots.transferBotTest, { groupId: row.id }),
      }),
    ],
    testIdPrefix: 'transfer-group',
    testIdOf: (row) => String(row.id),
    textValues: (row) => ({ name: row.name }),
    onDone: reload,
  };

  const s = status.data;
  const yes = (on: boolean | undefined, testId: string) =>
    on === undefined ? '—' : <span data-testid={testId}>{on ? t('transfer.set') : t('transfer.notSet')}</span>;
  return (
    <div className="page">
      <Alert type="info" showIcon title={readOnly ? t('readOnlyNote') : t('transfer.note')} />
      <Card size="small" title={t('transfer.statusTitle')} data-testid="transfer-status">
        {status.isError ? (
          <Alert type="error" showIcon title={errorText(i18n, status.error)} />
        ) : (
          <Descriptions size="small" column={{ xs: 1, sm: 1, md: 2 }} bordered>
            <Descriptions.Item label={t('transfer.token')}>
              {yes(s?.tokenSet, 'transfer-token-state')}
            </Descriptions.Item>
            <Descriptions.Item label={t('transfer.mainToken')}>
              {yes(s?.mainTokenSet, 'transfer-main-state')}
            </Descriptions.Item>
            <Descriptions.Item label={t('transfer.sender')}>
              <span data-testid="transfer-sender">{s ? t(`transfer.senderName.${s.sender ?? 'none'}`) : '—'}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('transfer.fundNotices')}>
              {s ? (s.fundNoticesOn ? t('transfer.on') : t('transfer.off')) : '—'}
            </Descriptions.Item>
            <Descriptions.Item label={t('transfer.receivingGroups')}>{s?.receivingGroups ?? '—'}</Descriptions.Item>
          </Descriptions>
        )}
        {canSetToken && (
          <Space wrap style={{ marginTop: 12 }}>
            <Button type="primary" data-testid="transfer-token-set" onClick={() => setSetting(true)}>
              {t('transfer.setNew')}
            </Button>
            {s?.tokenSet && (
              <Popconfirm
                title={t('transfer.askClear')}
                okText={t('common:action.ok')}
                cancelText={t('common:action.cancel')}
                okButtonProps={{ danger: true, 'data-testid': 'transfer-token-confirm' } as never}
                onConfirm={() => token.mutateAsync(null).catch(() => undefined)}
              >
                <Button danger loading={token.isPending} data-testid="transfer-token-clear">
                  {t('transfer.clear')}
                </Button>
              </Popconfirm>
            )}
          </Space>
        )}
        {!canSetToken && !readOnly && (
          <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
            {t('transfer.superAdminSets')}
          </Typography.Paragraph>
        )}
      </Card>
      <ListTable<TelegramGroupRow>
        testId="transfer-group-list"
        queryKey={[...telegramKeys.groups, 'transfer']}
        rowKey="id"
        fetchPage={(p) => call(endpoints.bots.groupList, p)}
        exportHref={(f) => exportUrl(endpoints.bots.groupExport, f)}
        actions={actions}
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
            render: (_: unknown, row: TelegramGroupRow) =>
              row.partyKind === 'staff' ? '—' : (row.partyName ?? `#${row.partyId} ${t('partyRemoved')}`),
          },
          {
            title: t('transfer.column.notices'),
            key: 'transferNotices',
            phone: 'extra',
            render: (_: unknown, row: TelegramGroupRow) =>
              !party(row) ? (
                t('transfer.staffNone')
              ) : (
                <Tag data-testid={`transfer-notices-${row.id}`}>
                  {row.transferNotices ? t('transfer.receives') : t('transfer.muted')}
                </Tag>
              ),
          },
          { title: t('column.language'), dataIndex: 'language', render: (l: TextLocale) => t(`languageName.${l}`) },
          {
            title: t('column.enabled'),
            dataIndex: 'enabled',
            render: (on: boolean) => (on ? t('enabled') : t('disabled')),
          },
          { title: t('column.updatedAt'), dataIndex: 'updatedAt', render: formatTime },
        ]}
      />
      {setting && (
        <TokenDialog busy={token.isPending} onSubmit={(v) => token.mutate(v)} onClose={() => setSetting(false)} />
      )}
    </div>
  );
}
