import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { endpoints, routeByPath, type StaffIpRow } from '@paydesk/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Modal, Space, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { errorText } from '../../shared/api/errorText';
import { call, exportUrl } from '../../shared/api/http';
import { formatTime } from '../../shared/format/time';
import { ListTable } from '../../shared/list/ListTable';
import { endpointRoles, type RowActions, rowAction } from '../../shared/list/rowActions';
import { useSession } from '../../shared/session/session';

const KEYS = { all: ['ipWhitelist'] as const, list: ['ipWhitelist', 'list'] as const };
const SETTING_KEY = ['ipWhitelist', 'setting'] as const;

/**
 * System management › IP whitelist (superAdmin changes it; admin, customer service and technical
 * maintenance read it): the addresses staff accounts sign in from while the StaffIpWhitelist setting
 * is on. The page offers only what the server accepts: turning it on needs the caller's own address on
 * the list, and while it is on the entry holding that address is not offered for deletion.
 *
 * Test hooks: `ip-switch`, `ip-add`, `ip-form-entry`, `ip-form-remark`, `ip-form-submit`,
 * `ip-delete-<id>`, `ip-ok`, `ip-caller`.
 */
export default function IpWhitelistPage() {
  const { t, i18n } = useTranslation(['ipWhitelist', 'common']);
  const { message } = App.useApp();
  const { user } = useSession();
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  const readOnly = routeByPath(pathname)?.readOnly === true;
  const writes =
    !readOnly && user !== null && (endpoints.ipWhitelist.addStaffIp.access as readonly string[]).includes(user.access);
  const [caller, setCaller] = useState<{ ip: string; covered: boolean } | null>(null);
  const [adding, setAdding] = useState(false);
  const [form] = Form.useForm<{ entry: string; remark: string }>();

  const setting = useQuery({
    queryKey: SETTING_KEY,
    queryFn: () => call(endpoints.systemConfig.getStaffIpWhitelist, {}),
  });
  const on = setting.data?.enable === true;
  const reload = () => queryClient.invalidateQueries({ queryKey: KEYS.all });
  const turn = useMutation({
    mutationFn: (enable: boolean) => call(endpoints.systemConfig.setStaffIpWhitelist, { enable }),
    onSuccess: (answer) => {
      queryClient.setQueryData(SETTING_KEY, answer);
      void message.success(t(answer.enable ? 'turnedOn' : 'turnedOff'));
      void reload();
    },
    onError: (error) => void message.error(errorText(i18n, error)),
  });
  const add = useMutation({
    mutationFn: (values: { entry: string; remark: string }) =>
      call(endpoints.ipWhitelist.addStaffIp, { entry: values.entry, remark: values.remark ?? '' }),
    onSuccess: () => {
      void message.success(t('added'));
      setAdding(false);
      form.resetFields();
      void reload();
    },
    onError: (error) => void message.error(errorText(i18n, error)),
  });

  const actions: RowActions<StaffIpRow> = {
    actions: [
      rowAction<StaffIpRow>({
        key: 'delete',
        label: 'ipWhitelist:delete',
        success: 'ipWhitelist:deleted',
        confirm: 'ipWhitelist:confirmDelete',
        icon: <DeleteOutlined />,
        danger: true,
        roles: readOnly ? [] : endpointRoles(endpoints.ipWhitelist.deleteStaffIp),
        token2: endpoints.ipWhitelist.deleteStaffIp.token2,
        // While on, the entry that holds the caller's own address stays (the server refuses it).
        allowed: (row) => !(on && row.coversCaller),
        run: (row) => call(endpoints.ipWhitelist.deleteStaffIp, { id: row.id }),
      }),
    ],
    testIdPrefix: 'ip',
    testIdOf: (row) => String(row.id),
    textValues: (row) => ({ entry: row.entry }),
    onDone: reload,
  };

  return (
    <div className="page">
      <Card size="small">
        <Space direction="vertical" size="small" style={{ width: '100%' }}>
          <Typography.Text>{t('intro')}</Typography.Text>
          <Space wrap>
            <span id="ip-switch-label">{t('switch')}</span>
            <Switch
              data-testid="ip-switch"
              aria-labelledby="ip-switch-label"
              checked={on}
              loading={setting.isPending || turn.isPending}
              disabled={!writes || (!on && caller !== null && !caller.covered)}
              checkedChildren={t('on')}
              unCheckedChildren={t('off')}
              onChange={(enable) => turn.mutate(enable)}
            />
          </Space>
          {caller && (
            <Space wrap data-testid="ip-caller">
              <span>{t('yourIp', { ip: caller.ip })}</span>
              <Tag>{t(caller.covered ? 'covered' : 'notCovered')}</Tag>
            </Space>
          )}
        </Space>
      </Card>
      <ListTable<StaffIpRow>
        testId="ip-list"
        viewKey="ipWhitelist"
        queryKey={KEYS.list}
        rowKey="id"
        fetchPage={async (p) => {
          const page = await call(endpoints.ipWhitelist.getStaffIpList, p);
          setCaller({ ip: page.callerIp, covered: page.callerCovered });
          return page;
        }}
        exportHref={(f) => exportUrl(endpoints.ipWhitelist.exportStaffIpList, f)}
        actions={actions}
        toolbar={
          writes ? (
            <Button type="primary" icon={<PlusOutlined />} data-testid="ip-add" onClick={() => setAdding(true)}>
              {t('add')}
            </Button>
          ) : undefined
        }
        filters={[{ kind: 'text', name: 'entry', label: t('filter.entry') }]}
        columns={[
          {
            title: t('column.entry'),
            dataIndex: 'entry',
            render: (entry: string, row) => (
              <Space size={4}>
                <span>{entry}</span>
                {row.coversCaller && <Tag>{t('column.yours')}</Tag>}
              </Space>
            ),
          },
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
        okButtonProps={{ loading: add.isPending, 'data-testid': 'ip-form-submit' }}
        onOk={() => form.submit()}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onFinish={(v) => add.mutate(v)}>
          <Form.Item
            name="entry"
            label={t('entry')}
            extra={t('entryHelp')}
            rules={[{ required: true, whitespace: true, message: t('entryRequired') }]}
          >
            <Input data-testid="ip-form-entry" maxLength={64} autoComplete="off" />
          </Form.Item>
          <Form.Item name="remark" label={t('remark')}>
            <Input data-testid="ip-form-remark" maxLength={200} />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}
