import { EditOutlined, PercentageOutlined } from '@ant-design/icons';
import {
  AGENT_ACTION_ENDPOINTS,
  type AgentAction,
  agentActionRefusal,
  endpoints,
  type SupplierProxyRow,
} from '@paydesk/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, Modal, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/api/errorText';
import { call, exportUrl } from '../../shared/api/http';
import { formatRate, parseRateInput } from '../../shared/format/money';
import { formatTime } from '../../shared/format/time';
import { AccountItem, PasswordItem } from '../../shared/forms/AccountFields';
import { EnabledSwitch } from '../../shared/forms/EnabledSwitch';
import { type ListColumn, ListTable } from '../../shared/list/ListTable';
import {
  endpointRoles,
  type RowActionFormProps,
  type RowActionPanelProps,
  type RowActions,
  rowAction,
} from '../../shared/list/rowActions';
import { useProductName } from '../../shared/products/productName';
import { useSession } from '../../shared/session/session';
import { supplierKeys } from './api';

type AgentRow = SupplierProxyRow;

/** A percentage with at most two decimals, 0 to 100. */
const RATE_PATTERN = /^\d{1,3}(\.\d{1,2})?$/;

interface AgentValues {
  account: string;
  nickname: string;
  password: string;
  name: string;
}

/** Add an agent (create) or change its name and nickname (edit: no account, no password). */
function AgentFormModal(props: {
  row: AgentRow | null;
  pending: boolean;
  onSubmit(values: AgentValues): void;
  onClose(): void;
}) {
  const { t } = useTranslation(['suppliers', 'common']);
  const [form] = Form.useForm<AgentValues>();
  const editing = props.row !== null;
  const required = { required: true, whitespace: true, message: t('rule.requiredFields') };
  return (
    <Modal
      open
      title={editing ? t('form.agentEditTitle', { name: props.row?.name }) : t('form.agentTitle')}
      okText={t('common:action.save')}
      cancelText={t('common:action.cancel')}
      confirmLoading={props.pending}
      onOk={() => form.submit()}
      onCancel={props.onClose}
    >
      <Form<AgentValues>
        form={form}
        layout="vertical"
        data-testid="agent-form"
        initialValues={props.row ? { name: props.row.name, nickname: props.row.nickname } : undefined}
        onFinish={(v) =>
          props.onSubmit({
            ...v,
            name: v.name.trim(),
            nickname: v.nickname.trim(),
            account: (v.account ?? '').trim(),
          })
        }
      >
        {!editing && (
          <AccountItem testIdPrefix="agent-form" label={t('form.account')} requiredMessage={required.message} />
        )}
        <Form.Item name="nickname" label={t('form.nickname')} rules={[required, { max: 64 }]}>
          <Input autoComplete="off" data-testid="agent-form-nickname" />
        </Form.Item>
        {!editing && <PasswordItem testIdPrefix="agent-form" label={t('form.password')} />}
        <Form.Item
          name="name"
          label={t('form.agentName')}
          rules={[{ required: true, whitespace: true, message: t('rule.nameRequired') }, { max: 64 }]}
        >
          <Input autoComplete="off" data-testid="agent-form-name" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * An agent's commission: pick one of the caller's enabled products, see the caller's own rate (the
 * agent's maximum), enter a percentage. The cap is the server's: its refusal shows here, translated.
 */
function CommissionModal(props: RowActionPanelProps<AgentRow>) {
  const { t, i18n } = useTranslation(['suppliers', 'common']);
  const productName = useProductName();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ productId?: number; rate: string }>();
  const productId = Form.useWatch('productId', form);
  const [refusal, setRefusal] = useState<string | null>(null);
  const rates = useQuery({
    queryKey: supplierKeys.commissions(props.row.supplierId),
    queryFn: () => call(endpoints.suppliers.getAgentCommissions, { agentId: props.row.supplierId }),
  });
  const chosen = rates.data?.find((r) => r.productId === productId);
  const save = useMutation({
    mutationFn: (v: { productId: number; commissionRate: number }) =>
      call(endpoints.suppliers.setAgentCommission, { agentId: props.row.supplierId, ...v }),
    onSuccess: async () => {
      void message.success(t('success.commission'));
      props.onClose();
      await Promise.all([queryClient.invalidateQueries({ queryKey: supplierKeys.all }), props.onDone()]);
    },
    onError: (error) => setRefusal(errorText(i18n, error)),
  });
  return (
    <Modal
      open
      title={t('commission.title', { name: props.row.name })}
      okText={t('common:action.save')}
      cancelText={t('common:action.cancel')}
      confirmLoading={save.isPending}
      okButtonProps={{ disabled: rates.data?.length === 0 }}
      onOk={() => form.submit()}
      onCancel={props.onClose}
    >
      {rates.data?.length === 0 && <Alert type="info" showIcon title={t('commission.noProducts')} />}
      <Form
        form={form}
        layout="vertical"
        data-testid="agent-commission-form"
        onValuesChange={() => setRefusal(null)}
        onFinish={(v) => {
          const commissionRate = parseRateInput(v.rate);
          if (v.productId === undefined || commissionRate === null) return;
          save.mutate({ productId: v.productId, commissionRate });
        }}
      >
        <Form.Item
          name="productId"
          label={t('commission.product')}
          rules={[{ required: true, message: t('commission.productRequired') }]}
        >
          <Select
            data-testid="agent-commission-product"
            loading={rates.isFetching}
            options={(rates.data ?? []).map((r) => ({ value: r.productId, label: productName(r.productId) }))}
            onChange={(id: number) => {
              const current = rates.data?.find((r) => r.productId === id)?.agentRate;
              form.setFieldValue('rate', current === null || current === undefined ? '' : (current / 100).toFixed(2));
            }}
          />
        </Form.Item>
        {chosen && (
          <Space direction="vertical" size={0} style={{ marginBottom: 12 }}>
            <Typography.Text strong data-testid="agent-commission-max">
              {t('commission.max', { rate: formatRate(chosen.parentRate) })}
            </Typography.Text>
            <Typography.Text type="secondary" data-testid="agent-commission-current">
              {t('commission.current', {
                rate: chosen.agentRate === null ? t('commission.none') : formatRate(chosen.agentRate),
              })}
            </Typography.Text>
          </Space>
        )}
        <Form.Item
          name="rate"
          label={t('commission.rate')}
          rules={[
            { required: true, message: t('commission.rateInvalid') },
            {
              validator: (_r, value: string | undefined) => {
                const text = String(value ?? '').trim();
                const bp = parseRateInput(text);
                return RATE_PATTERN.test(text) && bp !== null && bp >= 0 && bp <= 10_000
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('commission.rateInvalid')));
              },
            },
          ]}
        >
          <Input suffix="%" autoComplete="off" data-testid="agent-commission-rate" />
        </Form.Item>
      </Form>
      {refusal && <Alert type="error" showIcon title={refusal} data-testid="agent-commission-error" />}
    </Modal>
  );
}

/** The edit form of a row: its name and nickname. */
function EditAgentModal({ row, busy, onSubmit, onClose }: RowActionFormProps<AgentRow, AgentValues>) {
  return <AgentFormModal row={row} pending={busy} onSubmit={onSubmit} onClose={onClose} />;
}

/**
 * Suppliers › supplier agents (`supplierProxy`, role supplier): the caller's agents with their balances
 * and totals; create, rename, enable or disable them and set their commissions (never above the
 * caller's own). An agent signing in sees that agents cannot have agents. Row actions and the enable
 * switch follow the contract's agent rule (`agentActionRefusal`: a supplier's own agents only), the
 * one the server's guard refuses with.
 * Test hooks: `agent-list`, `agent-create`, `agent-notice`, per row `agent-enabled-<account>`,
 * `agent-edit-<account>`, `agent-commission-<account>`; forms `agent-form-*`, `agent-commission-*`.
 */
export default function SupplierProxyPage() {
  const { t, i18n } = useTranslation(['suppliers', 'common']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const [creating, setCreating] = useState(false);
  const mine = useQuery({ queryKey: supplierKeys.mine, queryFn: () => call(endpoints.suppliers.getMine, {}) });
  const isAgent = mine.data != null && mine.data.parentId !== null;
  const canManage = mine.data != null && mine.data.parentId === null;
  /** Whether the caller may take the action on the agent: the contract's rule, as the server applies it. */
  const allows = (action: AgentAction) => (row: AgentRow) =>
    user !== null &&
    agentActionRefusal(action, { role: user.access, userId: user.userId }, { parentUserId: row.parentId }) === null;
  const action = useMutation({
    mutationFn: (a: { key: string; run(): Promise<unknown>; success: string }) => a.run(),
    onSuccess: async (_d, a) => {
      void message.success(t(a.success));
      await queryClient.invalidateQueries({ queryKey: supplierKeys.all });
    },
    onError: (error) => void message.error(errorText(i18n, error)),
  });
  const close = () => setCreating(false);
  const reload = () => queryClient.invalidateQueries({ queryKey: supplierKeys.all });

  const actions: RowActions<AgentRow> = {
    actions: [
      rowAction<AgentRow, AgentValues>({
        key: 'edit',
        label: 'suppliers:action.edit',
        success: 'suppliers:success.update',
        icon: <EditOutlined />,
        roles: endpointRoles(AGENT_ACTION_ENDPOINTS.edit),
        token2: AGENT_ACTION_ENDPOINTS.edit.token2,
        allowed: allows('edit'),
        form: EditAgentModal,
        run: (row, v) =>
          call(endpoints.suppliers.updateAgent, {
            agentId: row.supplierId,
            name: v.name,
            nickname: v.nickname,
            enabled: row.enabled,
          }),
      }),
      rowAction<AgentRow>({
        key: 'commission',
        label: 'suppliers:action.commission',
        icon: <PercentageOutlined />,
        roles: endpointRoles(AGENT_ACTION_ENDPOINTS.commission),
        token2: AGENT_ACTION_ENDPOINTS.commission.token2,
        allowed: allows('commission'),
        panel: CommissionModal,
      }),
    ],
    testIdPrefix: 'agent',
    testIdOf: (row) => row.account,
    textValues: (row) => ({ name: row.name }),
    failed: null,
    onDone: reload,
  };

  const columns: Array<ListColumn<AgentRow>> = [
    { title: t('column.account'), dataIndex: 'account', key: 'account' },
    { title: t('column.nickname'), dataIndex: 'nickname', key: 'nickname' },
    { title: t('column.name'), dataIndex: 'name', key: 'name', phone: 'title' },
    {
      title: t('column.enabled'),
      dataIndex: 'enabled',
      key: 'enabled',
      render: (on: boolean, row) => (
        <EnabledSwitch
          checked={on}
          disabled={!allows('setEnabled')(row)}
          testId={`agent-enabled-${row.account}`}
          label={t('common:a11y.rowControl', { what: t('column.enabled'), row: row.account })}
          onToggle={(enabled) =>
            call(endpoints.suppliers.updateAgent, {
              agentId: row.supplierId,
              name: row.name,
              nickname: row.nickname,
              enabled,
            })
          }
          invalidate={supplierKeys.all}
        />
      ),
    },
    { title: t('column.balance'), dataIndex: 'balance', key: 'balance', money: true },
    { title: t('column.frozenBalance'), dataIndex: 'frozenBalance', key: 'frozenBalance', money: true },
    { title: t('column.createdAt'), dataIndex: 'createdAt', key: 'createdAt', render: formatTime },
  ];
  return (
    <div className="page">
      {isAgent && <Alert type="info" showIcon title={t('proxy.agentNotice')} data-testid="agent-notice" />}
      {mine.isSuccess && mine.data === null && (
        <Alert type="warning" showIcon title={t('proxy.noRecord')} data-testid="agent-notice" />
      )}
      <ListTable<AgentRow>
        testId="agent-list"
        viewKey="supplierProxy"
        queryKey={supplierKeys.proxy}
        rowKey="id"
        fetchPage={(p) =>
          call(endpoints.users.getSupplierProxyList, {
            pageIndex: p.pageIndex,
            pageSize: p.pageSize,
            account: typeof p.account === 'string' ? p.account : undefined,
          })
        }
        filters={[{ kind: 'text', name: 'account', label: t('filter.account') }]}
        exportHref={(f) =>
          exportUrl(endpoints.users.exportSupplierProxyList, {
            account: typeof f.account === 'string' ? f.account : undefined,
          })
        }
        columns={columns}
        actions={actions}
        toolbar={
          canManage && (
            <Button type="primary" data-testid="agent-create" onClick={() => setCreating(true)}>
              {t('action.createAgent')}
            </Button>
          )
        }
      />
      {creating && (
        <AgentFormModal
          row={null}
          pending={action.isPending}
          onClose={close}
          onSubmit={(v) =>
            action.mutate(
              { key: 'create', run: () => call(endpoints.suppliers.createAgent, v), success: 'success.createAgent' },
              { onSuccess: close },
            )
          }
        />
      )}
    </div>
  );
}
