import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { BLACKLIST_KINDS, type BlacklistKind, type BlacklistRow, endpoints, routeByPath } from '@paydesk/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { errorText } from '../../shared/api/errorText';
import { call, exportUrl } from '../../shared/api/http';
import { formatTime } from '../../shared/format/time';
import { ListTable } from '../../shared/list/ListTable';
import { endpointRoles, type RowActions, rowAction } from '../../shared/list/rowActions';
import { useSession } from '../../shared/session/session';

const KEYS = { all: ['nameBlacklist'] as const, list: ['nameBlacklist', 'list'] as const };

/**
 * System management › name blacklist: payer names refused at collection order create (2016), payee
 * names at payout create (2017). Changes for superAdmin, admin and customer service (token2); technical
 * maintenance reads it on the read-only route.
 *
 * Test hooks: `blacklist-add`, `blacklist-form-name`, `blacklist-form-kind`, `blacklist-form-submit`,
 * `blacklist-delete-<id>`, `blacklist-ok`.
 */
export default function NameBlacklistPage() {
  const { t, i18n } = useTranslation(['nameBlacklist', 'common']);
  const { message } = App.useApp();
  const { user } = useSession();
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  const readOnly = routeByPath(pathname)?.readOnly === true;
  const writes =
    !readOnly && user !== null && endpointRoles(endpoints.nameBlacklist.addBlacklistName).includes(user.access);
  const [adding, setAdding] = useState(false);
  const [form] = Form.useForm<{ name: string; kind: BlacklistKind; remark: string }>();
  const reload = () => queryClient.invalidateQueries({ queryKey: KEYS.all });
  const kindOptions = BLACKLIST_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }));

  const add = useMutation({
    mutationFn: (v: { name: string; kind: BlacklistKind; remark?: string }) =>
      call(endpoints.nameBlacklist.addBlacklistName, { name: v.name, kind: v.kind, remark: v.remark ?? '' }),
    onSuccess: () => {
      void message.success(t('added'));
      setAdding(false);
      form.resetFields();
      void reload();
    },
    onError: (error) => void message.error(errorText(i18n, error)),
  });

  const actions: RowActions<BlacklistRow> = {
    actions: [
      rowAction<BlacklistRow>({
        key: 'delete',
        label: 'nameBlacklist:delete',
        success: 'nameBlacklist:deleted',
        confirm: 'nameBlacklist:confirmDelete',
        icon: <DeleteOutlined />,
        danger: true,
        roles: readOnly ? [] : endpointRoles(endpoints.nameBlacklist.deleteBlacklistName),
        token2: endpoints.nameBlacklist.deleteBlacklistName.token2,
        allowed: () => true,
        run: (row) => call(endpoints.nameBlacklist.deleteBlacklistName, { id: row.id }),
      }),
    ],
    testIdPrefix: 'blacklist',
    testIdOf: (row) => String(row.id),
    textValues: (row) => ({ name: row.name }),
    onDone: reload,
  };

  return (
    <div className="page">
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
      <ListTable<BlacklistRow>
        testId="blacklist-list"
        viewKey="nameBlacklist"
        queryKey={KEYS.list}
        rowKey="id"
        fetchPage={(p) => call(endpoints.nameBlacklist.getBlacklist, p)}
        exportHref={(f) => exportUrl(endpoints.nameBlacklist.exportBlacklist, f)}
        actions={actions}
        toolbar={
          writes ? (
            <Button type="primary" icon={<PlusOutlined />} data-testid="blacklist-add" onClick={() => setAdding(true)}>
              {t('add')}
            </Button>
          ) : undefined
        }
        filters={[
          { kind: 'text', name: 'name', label: t('filter.name') },
          { kind: 'select', name: 'kind', label: t('filter.kind'), options: kindOptions },
        ]}
        columns={[
          { title: t('column.name'), dataIndex: 'name' },
          { title: t('column.kind'), dataIndex: 'kind', render: (k: BlacklistKind) => t(`kind.${k}`) },
          { title: t('column.remark'), dataIndex: 'remark' },
          { title: t('column.createdBy'), dataIndex: 'createdBy' },
          {
            title: t('column.createdAt'),
            dataIndex: 'createdAt',
            render: (v: string) => formatTime(v),
          },
        ]}
      />
      <Modal
        open={adding}
        title={t('addTitle')}
        onCancel={() => setAdding(false)}
        okText={t('common:action.ok')}
        cancelText={t('common:action.cancel')}
        okButtonProps={{ loading: add.isPending, 'data-testid': 'blacklist-form-submit' }}
        onOk={() => form.submit()}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" initialValues={{ kind: 'both' }} onFinish={(v) => add.mutate(v)}>
          <Form.Item
            name="name"
            label={t('name')}
            rules={[{ required: true, whitespace: true, message: t('nameRequired') }]}
          >
            <Input data-testid="blacklist-form-name" maxLength={128} autoComplete="off" />
          </Form.Item>
          <Form.Item name="kind" label={t('kindLabel')}>
            <Select data-testid="blacklist-form-kind" options={kindOptions} />
          </Form.Item>
          <Form.Item name="remark" label={t('remark')}>
            <Input maxLength={200} />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}
