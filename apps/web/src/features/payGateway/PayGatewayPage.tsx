import { DeleteOutlined, EditOutlined, PauseCircleOutlined, PlayCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { endpoints, PAY_GATEWAY_KINDS, type PayGatewayKind, type PayGatewayRow, routeByPath } from '@paydesk/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, Modal, Select, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { errorText } from '../../shared/api/errorText';
import { call, ensureToken2, exportUrl } from '../../shared/api/http';
import { formatTime } from '../../shared/format/time';
import { ListTable } from '../../shared/list/ListTable';
import { endpointRoles, type RowActionFormProps, type RowActions, rowAction } from '../../shared/list/rowActions';
import { useSession } from '../../shared/session/session';

const KEYS = {
  all: ['payGateways'] as const,
  list: ['payGateways', 'list'] as const,
  scripts: ['payGateways', 'scripts'] as const,
};

export interface GatewayFormValues {
  kind: PayGatewayKind;
  name: string;
  baseUrl?: string;
  keyId?: string;
  keySecret?: string;
  webhookSecret?: string;
  remark?: string;
  /** collectionNotify: the pay script that reads its notifications. */
  payScriptId?: number | null;
}

/**
 * What the server takes: texts trimmed, a secret left empty absent (on update: the sealed one is kept),
 * a pay script only for a collection notification gateway.
 */
function bodyOf(v: GatewayFormValues, kind: PayGatewayKind) {
  const text = (s: string | undefined) => (s?.trim() ? s.trim() : null);
  return {
    name: v.name.trim(),
    baseUrl: text(v.baseUrl),
    keyId: text(v.keyId),
    keySecret: v.keySecret ? v.keySecret : null,
    webhookSecret: v.webhookSecret ? v.webhookSecret : null,
    remark: v.remark?.trim() ?? '',
    payScriptId: kind === 'collectionNotify' ? (v.payScriptId ?? null) : null,
  };
}

/** Add (no row) or change (a row) a gateway. Secrets are never shown: on change, empty keeps the sealed one. */
function GatewayDialog(props: {
  row: PayGatewayRow | null;
  busy: boolean;
  onSubmit(values: GatewayFormValues): void;
  onClose(): void;
}) {
  const { t } = useTranslation(['payGateway', 'common']);
  const [form] = Form.useForm<GatewayFormValues>();
  const { row } = props;
  const kind = Form.useWatch('kind', form) ?? row?.kind ?? 'payoutApi';
  const payoutApi = kind === 'payoutApi';
  // The scripts a collection notification gateway may name (every gateway reader reads the scripts).
  const scripts = useQuery({
    queryKey: KEYS.scripts,
    queryFn: () => call(endpoints.payScripts.getPayScriptList, { pageIndex: 1, pageSize: 500 }),
    enabled: !payoutApi,
    select: (page) => page.list.map((s) => ({ value: s.id, label: s.name })),
  });
  const required = { required: true, whitespace: true, message: t('form.required') };
  const secretRules = (needed: boolean) => [
    ...(needed ? [{ required: true, message: t('form.required') }] : []),
    { min: 8, message: t('form.secretShort') },
  ];
  return (
    <Modal
      open
      title={row ? t('form.edit') : t('form.add')}
      okText={t('common:action.save')}
      cancelText={t('common:action.cancel')}
      okButtonProps={{ 'data-testid': 'pay-gateway-save' }}
      confirmLoading={props.busy}
      onOk={() => form.submit()}
      onCancel={props.onClose}
      destroyOnHidden
    >
      <Form<GatewayFormValues>
        form={form}
        layout="vertical"
        data-testid="pay-gateway-form"
        initialValues={
          row
            ? {
                kind: row.kind,
                name: row.name,
                baseUrl: row.baseUrl,
                keyId: row.keyId,
                remark: row.remark,
                payScriptId: row.payScriptId,
              }
            : { kind: 'payoutApi' }
        }
        onFinish={props.onSubmit}
      >
        <Form.Item name="kind" label={t('column.kind')} extra={t(`kindHelp.${kind}`)}>
          <Select
            disabled={row !== null}
            data-testid="pay-gateway-kind"
            options={PAY_GATEWAY_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
          />
        </Form.Item>
        <Form.Item name="name" label={t('column.name')} rules={[required]}>
          <Input maxLength={64} autoComplete="off" data-testid="pay-gateway-name" />
        </Form.Item>
        <Form.Item
          name="baseUrl"
          label={t('column.baseUrl')}
          rules={[
            ...(payoutApi ? [required] : []),
            { type: 'url', message: t('form.badUrl') },
            { pattern: /^\s*https?:\/\/[^\s?#@]+\s*$/i, message: t('form.badUrl') },
          ]}
        >
          <Input maxLength={500} autoComplete="off" placeholder="https://" data-testid="pay-gateway-url" />
        </Form.Item>
        <Form.Item name="keyId" label={t('column.keyId')} rules={payoutApi ? [required] : []}>
          <Input maxLength={128} autoComplete="off" data-testid="pay-gateway-key-id" />
        </Form.Item>
        <Form.Item
          name="keySecret"
          label={t('form.keySecret')}
          extra={row ? t('form.keepSecret') : undefined}
          rules={secretRules(payoutApi && !(row?.hasKeySecret ?? false))}
        >
          <Input.Password maxLength={256} autoComplete="new-password" data-testid="pay-gateway-key-secret" />
        </Form.Item>
        <Form.Item
          name="webhookSecret"
          label={t('form.webhookSecret')}
          extra={row ? t('form.keepSecret') : undefined}
          rules={secretRules(!(row?.hasWebhookSecret ?? false))}
        >
          <Input.Password maxLength={256} autoComplete="new-password" data-testid="pay-gateway-webhook-secret" />
        </Form.Item>
        {!payoutApi && (
          <Form.Item name="payScriptId" label={t('column.payScript')} extra={t('form.payScriptHelp')}>
            <Select
              allowClear
              loading={scripts.isLoading}
              placeholder={t('form.noScript')}
              options={scripts.data ?? []}
              data-testid="pay-gateway-script"
            />
          </Form.Item>
        )}
        <Form.Item name="remark" label={t('column.remark')}>
          <Input.TextArea maxLength={200} rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

const EditDialog = (p: RowActionFormProps<PayGatewayRow, GatewayFormValues>) => (
  <GatewayDialog row={p.row} busy={p.busy} onSubmit={p.onSubmit} onClose={p.onClose} />
);

/**
 * System management › pay gateway config (and its read-only twin for technical maintenance): the
 * upstream gateways' addresses and credentials, which gateway payout accounts may name. Secrets are
 * typed, sealed by the server and never shown again (a row says whether each is set). Changes ask the
 * second-level password first.
 *
 * Test hooks: `pay-gateway-list`, `pay-gateway-add`, `pay-gateway-form`, `pay-gateway-name`,
 * `pay-gateway-url`, `pay-gateway-key-id`, `pay-gateway-key-secret`, `pay-gateway-webhook-secret`,
 * `pay-gateway-script` (collectionNotify), `pay-gateway-save`, row actions `pay-gateway-<edit|disable|enable|delete>-<id>`.
 */
export default function PayGatewayPage() {
  const { t, i18n } = useTranslation(['payGateway', 'common']);
  const { message } = App.useApp();
  const { user } = useSession();
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  const readOnly = routeByPath(pathname)?.readOnly === true;
  const api = endpoints.payGateways;
  const canChange = !readOnly && user !== null && endpointRoles(api.createPayGateway).includes(user.access);
  const roles = (e: { access: Parameters<typeof endpointRoles>[0]['access'] }) => (readOnly ? [] : endpointRoles(e));
  const [adding, setAdding] = useState(false);
  const reload = () => queryClient.invalidateQueries({ queryKey: KEYS.all });

  const add = useMutation({
    mutationFn: (v: GatewayFormValues) => call(api.createPayGateway, { kind: v.kind, ...bodyOf(v, v.kind) }),
    onSuccess: () => {
      void message.success(t('success.added'));
      setAdding(false);
      void reload();
    },
    onError: (error) => void message.error(errorText(i18n, error)),
  });

  const actions: RowActions<PayGatewayRow> = {
    actions: [
      rowAction<PayGatewayRow, GatewayFormValues>({
        key: 'edit',
        label: 'payGateway:action.edit',
        success: 'payGateway:success.saved',
        icon: <EditOutlined />,
        roles: roles(api.updatePayGateway),
        token2: api.updatePayGateway.token2,
        allowed: () => true,
        form: EditDialog,
        run: (row, v) => call(api.updatePayGateway, { id: row.id, ...bodyOf(v, row.kind) }),
      }),
      rowAction<PayGatewayRow>({
        key: 'disable',
        label: 'payGateway:action.disable',
        success: 'payGateway:success.disabled',
        confirm: 'payGateway:ask.disable',
        icon: <PauseCircleOutlined />,
        roles: roles(api.setPayGatewayEnabled),
        token2: api.setPayGatewayEnabled.token2,
        allowed: (row) => row.enabled,
        run: (row) => call(api.setPayGatewayEnabled, { id: row.id, enabled: false }),
      }),
      rowAction<PayGatewayRow>({
        key: 'enable',
        label: 'payGateway:action.enable',
        success: 'payGateway:success.enabled',
        icon: <PlayCircleOutlined />,
        roles: roles(api.setPayGatewayEnabled),
        token2: api.setPayGatewayEnabled.token2,
        allowed: (row) => !row.enabled,
        run: (row) => call(api.setPayGatewayEnabled, { id: row.id, enabled: true }),
      }),
      rowAction<PayGatewayRow>({
        key: 'delete',
        label: 'payGateway:action.delete',
        success: 'payGateway:success.deleted',
        confirm: 'payGateway:ask.delete',
        icon: <DeleteOutlined />,
        danger: true,
        roles: roles(api.deletePayGateway),
        token2: api.deletePayGateway.token2,
        // The server refuses a gateway that accounts still name.
        allowed: (row) => row.accounts === 0,
        run: (row) => call(api.deletePayGateway, { id: row.id }),
      }),
    ],
    testIdPrefix: 'pay-gateway',
    testIdOf: (row) => String(row.id),
    textValues: (row) => ({ name: row.name }),
    onDone: reload,
  };

  const setText = (set: boolean) => (set ? t('secret.set') : t('secret.notSet'));
  return (
    <div className="page">
      <Alert type="info" showIcon title={readOnly ? t('readOnlyNote') : t('intro')} />
      <ListTable<PayGatewayRow>
        testId="pay-gateway-list"
        viewKey="payGateway"
        queryKey={KEYS.list}
        rowKey="id"
        fetchPage={(p) => call(api.getPayGateways, p)}
        exportHref={(f) => exportUrl(api.exportPayGateways, f)}
        actions={actions}
        toolbar={
          canChange && (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              data-testid="pay-gateway-add"
              onClick={() =>
                void ensureToken2().then(
                  () => setAdding(true),
                  () => undefined, // the second-level password dialog was closed
                )
              }
            >
              {t('add')}
            </Button>
          )
        }
        filters={[
          { kind: 'text', name: 'name', label: t('column.name') },
          {
            kind: 'select',
            name: 'kind',
            label: t('column.kind'),
            options: PAY_GATEWAY_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) })),
          },
          {
            kind: 'select',
            name: 'enabled',
            label: t('column.enabled'),
            options: [
              { value: 'true', label: t('enabled') },
              { value: 'false', label: t('disabled') },
            ],
          },
        ]}
        columns={[
          { title: t('column.name'), dataIndex: 'name', phone: 'title' },
          { title: t('column.kind'), dataIndex: 'kind', phone: true, render: (k: PayGatewayKind) => t(`kind.${k}`) },
          { title: t('column.baseUrl'), dataIndex: 'baseUrl' },
          { title: t('column.keyId'), dataIndex: 'keyId' },
          { title: t('column.keySecret'), dataIndex: 'hasKeySecret', render: setText },
          { title: t('column.webhookSecret'), dataIndex: 'hasWebhookSecret', render: setText },
          { title: t('column.payScript'), dataIndex: 'payScriptName', render: (name: string | null) => name ?? '' },
          { title: t('column.accounts'), dataIndex: 'accounts' },
          {
            title: t('column.enabled'),
            dataIndex: 'enabled',
            phone: 'extra',
            render: (on: boolean) => <Tag color={on ? 'success' : 'default'}>{on ? t('enabled') : t('disabled')}</Tag>,
          },
          { title: t('column.remark'), dataIndex: 'remark' },
          { title: t('column.updatedBy'), dataIndex: 'updatedBy' },
          { title: t('column.updatedAt'), dataIndex: 'updatedAt', render: formatTime },
        ]}
      />
      {adding && (
        <GatewayDialog
          row={null}
          busy={add.isPending}
          onSubmit={(v) => add.mutate(v)}
          onClose={() => setAdding(false)}
        />
      )}
    </div>
  );
}
