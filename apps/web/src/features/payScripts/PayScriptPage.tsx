import { CodeOutlined, EditOutlined, HistoryOutlined, PlayCircleOutlined, ShoppingOutlined } from '@ant-design/icons';
import {
  type EndpointInput,
  endpoints,
  PAY_SCRIPT_KINDS,
  PAY_SCRIPT_LIMITS,
  type PayScriptKind,
  type PayScriptRow,
  type PayScriptVersion,
  PRODUCTS,
  payScriptHostSchema,
} from '@paydesk/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Checkbox,
  Form,
  Input,
  Modal,
  Radio,
  Select,
  Space,
  Spin,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/api/errorText';
import { call, ensureToken2, exportUrl } from '../../shared/api/http';
import { formatTime } from '../../shared/format/time';
import { type FilterField, type ListColumn, ListTable } from '../../shared/list/ListTable';
import {
  endpointRoles,
  type RowActionFormProps,
  type RowActionPanelProps,
  type RowActions,
  rowAction,
} from '../../shared/list/rowActions';
import { useScrollRegion } from '../../shared/list/scrollRegion';
import { useProductName } from '../../shared/products/productName';
import { payScriptKeys, useMay, useRouteName, useVersions } from './api';
import { CODE_STYLE, Code, RunResult } from './RunResult';

const api = endpoints.payScripts;
const COLLECTION_PRODUCTS = PRODUCTS.filter((p) => p.direction === 'collection');

/** Sample input of a test run, by kind: an order of the payer page, an upstream's notification. */
const SAMPLES: Record<PayScriptKind, unknown> = {
  render: {
    orderCode: 'C26112312000012345678',
    amount: 10_000,
    currency: 'INR',
    product: { id: 1001, name: 'UPI collection' },
    merchantName: 'Merchant',
    subject: null,
    expiresAt: null,
    payee: { kind: 'upi', accountName: 'Account name', vpa: 'account@bank' },
  },
  parse: {
    headers: { 'content-type': 'application/json' },
    body: '{"orderCode":"C26112312000012345678","amount":10000,"utr":"412345678901","status":"paid"}',
  },
};
const sampleText = (kind: PayScriptKind) => JSON.stringify(SAMPLES[kind], null, 2);

interface EditorValues {
  name: string;
  hosts: string[];
  code: string;
  activate: boolean;
}

/** Create (no row) or save a new version of a script (from its latest version's code). */
function ScriptEditor(props: {
  row: PayScriptRow | null;
  busy: boolean;
  onSubmit(values: EditorValues): void;
  onClose(): void;
}) {
  const { t } = useTranslation(['payScripts', 'common']);
  const editing = props.row !== null;
  const versions = useVersions(props.row?.id ?? 0);
  const latest = editing ? versions.data?.[0] : undefined;
  const loading = editing && versions.isLoading;
  const [form] = Form.useForm<EditorValues>();
  return (
    <Modal
      open
      width={860}
      title={
        editing ? t('form.editTitle', { name: props.row?.name, version: latest?.version ?? '' }) : t('form.createTitle')
      }
      okText={t('common:action.save')}
      cancelText={t('common:action.cancel')}
      okButtonProps={{ disabled: loading, 'data-testid': 'payscript-editor-save' }}
      confirmLoading={props.busy}
      onOk={() => form.submit()}
      onCancel={props.onClose}
      destroyOnHidden
    >
      {loading ? (
        <Spin />
      ) : (
        <Form<EditorValues>
          form={form}
          layout="vertical"
          data-testid="payscript-editor"
          initialValues={{
            name: props.row?.name ?? '',
            hosts: latest?.hosts ?? [],
            code: latest?.code ?? '',
            activate: false,
          }}
          onFinish={(values) => props.onSubmit({ ...values, name: values.name.trim(), hosts: values.hosts ?? [] })}
        >
          <Form.Item
            name="name"
            label={t('form.name')}
            rules={[{ required: true, whitespace: true, max: 64, message: t('rule.name') }]}
          >
            <Input autoComplete="off" data-testid="payscript-editor-name" />
          </Form.Item>
          <Form.Item
            name="hosts"
            label={t('form.hosts')}
            extra={t('form.hostsHelp')}
            rules={[
              {
                validator: (_rule, value: string[] | undefined) =>
                  (value ?? []).every((h) => payScriptHostSchema.safeParse(h).success) &&
                  (value ?? []).length <= PAY_SCRIPT_LIMITS.hosts
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('rule.host'))),
              },
            ]}
          >
            <Select mode="tags" open={false} tokenSeparators={[',', ' ']} data-testid="payscript-editor-hosts" />
          </Form.Item>
          <Form.Item
            name="code"
            label={t('form.code')}
            extra={t('form.codeHelp')}
            rules={[{ required: true, max: PAY_SCRIPT_LIMITS.codeChars, message: t('rule.code') }]}
          >
            <Input.TextArea
              rows={16}
              spellCheck={false}
              autoComplete="off"
              style={{ ...CODE_STYLE, maxHeight: undefined }}
              data-testid="payscript-editor-code"
            />
          </Form.Item>
          {editing && (
            <Form.Item name="activate" valuePropName="checked">
              <Checkbox data-testid="payscript-editor-activate">{t('form.activate')}</Checkbox>
            </Form.Item>
          )}
        </Form>
      )}
    </Modal>
  );
}

/** The collection products whose payer page runs the script. */
function ProductsForm(props: RowActionFormProps<PayScriptRow, number[]>) {
  const { t } = useTranslation(['payScripts', 'common']);
  const productName = useProductName();
  const [form] = Form.useForm<{ productIds: number[] }>();
  return (
    <Modal
      open
      title={t('form.productsTitle', { name: props.row.name })}
      okText={t('common:action.save')}
      cancelText={t('common:action.cancel')}
      okButtonProps={{ 'data-testid': 'payscript-products-save' }}
      confirmLoading={props.busy}
      onOk={() => form.submit()}
      onCancel={props.onClose}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ productIds: props.row.productIds }}
        onFinish={(v) => props.onSubmit(v.productIds ?? [])}
      >
        <Form.Item name="productIds" label={t('form.products')} extra={t('form.productsHelp')}>
          <Select
            mode="multiple"
            data-testid="payscript-products-select"
            options={COLLECTION_PRODUCTS.map((p) => ({ value: p.id, label: `${p.id} ${productName(p.id)}` }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** A script's versions, newest first: the code of each, and activating one. */
function VersionsPanel(props: RowActionPanelProps<PayScriptRow>) {
  const { t, i18n } = useTranslation(['payScripts', 'common']);
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const versions = useVersions(props.row.id);
  const scrollRegion = useScrollRegion();
  const mayActivate = useMay(api.activatePayScriptVersion);
  const activate = useMutation({
    mutationFn: (version: number) => call(api.activatePayScriptVersion, { id: props.row.id, version }),
    onSuccess: async (row) => {
      void message.success(t('success.activate', { activeVersion: row.activeVersion }));
      await queryClient.invalidateQueries({ queryKey: payScriptKeys.all });
      await props.onDone();
    },
    onError: (error) => void message.error(errorText(i18n, error)),
  });
  const ask = async (version: number) => {
    try {
      await ensureToken2();
    } catch {
      return;
    }
    modal.confirm({
      title: t('versions.ask', { version }),
      okText: t('common:action.ok'),
      cancelText: t('common:action.cancel'),
      onOk: () => activate.mutateAsync(version),
    });
  };
  return (
    <Modal
      open
      width={860}
      title={t('versions.title', { name: props.row.name })}
      footer={null}
      onCancel={props.onClose}
      destroyOnHidden
    >
      <Table<PayScriptVersion>
        ref={scrollRegion}
        data-testid="payscript-versions"
        rowKey="version"
        size="small"
        loading={versions.isLoading}
        dataSource={versions.data ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        expandable={{
          expandedRowRender: (v) => (
            <Code
              label={t('versions.code', { version: v.version })}
              text={v.code}
              testId={`payscript-code-${v.version}`}
            />
          ),
        }}
        columns={[
          {
            title: t('column.version'),
            dataIndex: 'version',
            render: (v: number, row) => (
              <Space>
                {v}
                {row.active && <Tag color="success">{t('versions.active')}</Tag>}
              </Space>
            ),
          },
          {
            title: t('column.hosts'),
            dataIndex: 'hosts',
            render: (hosts: string[]) => hosts.map((h) => <Tag key={h}>{h}</Tag>),
          },
          { title: t('column.createdAt'), dataIndex: 'createdAt', render: formatTime },
          { title: t('column.createdBy'), dataIndex: 'createdBy' },
          {
            title: t('column.actions'),
            key: 'actions',
            render: (_: unknown, v) =>
              mayActivate && !v.active ? (
                <Button
                  size="small"
                  data-testid={`payscript-activate-${v.version}`}
                  loading={activate.isPending && activate.variables === v.version}
                  onClick={() => void ask(v.version)}
                >
                  {t('action.activate')}
                </Button>
              ) : null,
          },
        ]}
      />
    </Modal>
  );
}

/** Runs a version on sample input and shows what it returned or why it failed, and the time taken. */
function TestRunPanel(props: RowActionPanelProps<PayScriptRow>) {
  const { t, i18n } = useTranslation(['payScripts', 'common']);
  const versions = useVersions(props.row.id);
  const [kind, setKind] = useState<PayScriptKind>('render');
  const [version, setVersion] = useState(props.row.activeVersion);
  const [input, setInput] = useState(sampleText('render'));
  const [jsonError, setJsonError] = useState(false);
  const run = useMutation({
    // The input is checked by the server (400 naming the field); here it only has to be JSON.
    mutationFn: (body: unknown) =>
      call(api.testPayScript, { id: props.row.id, version, kind, input: body } as EndpointInput<
        typeof api.testPayScript
      >),
    onSuccess: () => void props.onDone(),
  });
  const submit = () => {
    let body: unknown;
    try {
      body = JSON.parse(input);
    } catch {
      setJsonError(true);
      return;
    }
    setJsonError(false);
    run.mutate(body);
  };
  const inputId = `payscript-input-${props.row.id}`;
  return (
    <Modal
      open
      width={860}
      title={t('test.title', { name: props.row.name })}
      onCancel={props.onClose}
      destroyOnHidden
      footer={[
        <Button key="close" data-testid="payscript-run-close" onClick={props.onClose}>
          {t('action.close')}
        </Button>,
        <Button
          key="run"
          type="primary"
          icon={<PlayCircleOutlined />}
          loading={run.isPending}
          data-testid="payscript-run"
          onClick={submit}
        >
          {t('action.run')}
        </Button>,
      ]}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space wrap>
          <Typography.Text id={`${inputId}-version`}>{t('test.version')}</Typography.Text>
          <Select
            aria-labelledby={`${inputId}-version`}
            style={{ minWidth: 200 }}
            value={version}
            onChange={setVersion}
            data-testid="payscript-run-version"
            options={(versions.data ?? [{ version: props.row.activeVersion, active: true }]).map((v) => ({
              value: v.version,
              label: v.active
                ? t('test.versionActive', { version: v.version })
                : t('test.versionOption', { version: v.version }),
            }))}
          />
          <Radio.Group
            aria-label={t('test.kind')}
            value={kind}
            data-testid="payscript-run-kind"
            onChange={(e) => {
              const next = e.target.value as PayScriptKind;
              setKind(next);
              setInput(sampleText(next));
              run.reset();
            }}
            options={PAY_SCRIPT_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
            optionType="button"
          />
        </Space>
        <label htmlFor={inputId}>{t('test.input')}</label>
        <Input.TextArea
          id={inputId}
          rows={10}
          spellCheck={false}
          value={input}
          onChange={(e) => setInput(e.target.value)}
          status={jsonError ? 'error' : undefined}
          style={{ ...CODE_STYLE, maxHeight: undefined }}
          data-testid="payscript-run-input"
        />
        <Typography.Text type="secondary">
          {kind === 'render' ? t('test.inputHelpRender') : t('test.inputHelpParse')}
        </Typography.Text>
        {jsonError && <Alert type="error" showIcon message={t('rule.json')} data-testid="payscript-run-json" />}
        {run.isError && (
          <Alert type="error" showIcon message={errorText(i18n, run.error)} data-testid="payscript-run-failed" />
        )}
        {run.data && <RunResult run={run.data} testId="payscript-result" />}
      </Space>
    </Modal>
  );
}

/**
 * System management › dynamic pay scripts (/system/dynamicPayScript and its read-only variant): the
 * scripts with their active and latest versions, hosts and products; create, edit (a new version each
 * save), activate a version, choose the products that use a script, and test-run a version on sample
 * input. Changes need the second-level password. Technical maintenance (read-only route) sees the
 * scripts and their versions and changes nothing. Test hooks: `payscript-list`, `payscript-new`,
 * `payscript-<action>-<id>`, `payscript-editor-*`, `payscript-versions`, `payscript-activate-<v>`,
 * `payscript-run*`, `payscript-result-*`, `payscript-products-*`.
 */
export default function PayScriptPage() {
  const { t, i18n } = useTranslation(['payScripts', 'common']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const productName = useProductName();
  const viewKey = useRouteName('dynamicPayScript');
  const mayCreate = useMay(api.createPayScript);
  const [creating, setCreating] = useState(false);
  const reload = () => queryClient.invalidateQueries({ queryKey: payScriptKeys.all });

  const create = useMutation({
    mutationFn: (values: EditorValues) =>
      call(api.createPayScript, { name: values.name, code: values.code, hosts: values.hosts }),
    onSuccess: async (row) => {
      void message.success(t('success.create', { name: row.name }));
      setCreating(false);
      await reload();
    },
    onError: (error) => void message.error(errorText(i18n, error)),
  });

  const filters: FilterField[] = [{ kind: 'text', name: 'name', label: t('filter.name') }];
  const columns: Array<ListColumn<PayScriptRow>> = [
    { title: t('column.name'), dataIndex: 'name', key: 'name', fixed: 'left', phone: 'title' },
    {
      title: t('column.activeVersion'),
      dataIndex: 'activeVersion',
      key: 'activeVersion',
      phone: 'extra',
      render: (v: number, row) => <Tag color="success" data-testid={`payscript-active-${row.id}`}>{`v${v}`}</Tag>,
    },
    { title: t('column.latestVersion'), dataIndex: 'latestVersion', key: 'latestVersion', phone: true },
    {
      title: t('column.hosts'),
      dataIndex: 'hosts',
      key: 'hosts',
      phone: true,
      render: (hosts: string[]) => hosts.map((h) => <Tag key={h}>{h}</Tag>),
    },
    {
      title: t('column.products'),
      dataIndex: 'productIds',
      key: 'productIds',
      phone: true,
      render: (ids: number[]) => ids.map((id) => <Tag key={id}>{productName(id)}</Tag>),
    },
    { title: t('column.updatedAt'), dataIndex: 'updatedAt', key: 'updatedAt', render: formatTime },
    { title: t('column.updatedBy'), dataIndex: 'updatedBy', key: 'updatedBy' },
  ];

  const actions: RowActions<PayScriptRow> = {
    testIdPrefix: 'payscript',
    testIdOf: (row) => String(row.id),
    textValues: (row) => ({ name: row.name }),
    onDone: reload,
    actions: [
      rowAction<PayScriptRow, EditorValues>({
        key: 'edit',
        label: 'payScripts:action.edit',
        icon: <EditOutlined />,
        roles: endpointRoles(api.savePayScriptVersion),
        token2: true,
        allowed: () => true,
        form: (p) => <ScriptEditor row={p.row} busy={p.busy} onSubmit={p.onSubmit} onClose={p.onClose} />,
        success: 'payScripts:success.save',
        run: (row, values) => call(api.savePayScriptVersion, { id: row.id, ...values }),
      }),
      rowAction<PayScriptRow>({
        key: 'test',
        label: 'payScripts:action.testRun',
        icon: <PlayCircleOutlined />,
        roles: endpointRoles(api.testPayScript),
        allowed: () => true,
        panel: TestRunPanel,
      }),
      rowAction<PayScriptRow>({
        key: 'versions',
        label: 'payScripts:action.versions',
        icon: <HistoryOutlined />,
        roles: endpointRoles(api.getPayScriptVersions),
        allowed: () => true,
        panel: VersionsPanel,
      }),
      rowAction<PayScriptRow, number[]>({
        key: 'products',
        label: 'payScripts:action.products',
        icon: <ShoppingOutlined />,
        roles: endpointRoles(api.setPayScriptProducts),
        token2: true,
        allowed: () => true,
        form: ProductsForm,
        success: 'payScripts:success.products',
        run: (row, productIds) => call(api.setPayScriptProducts, { id: row.id, productIds }),
      }),
    ],
  };
  // The read-only route shows the versions and nothing that changes anything.
  const shown = useMay(api.savePayScriptVersion)
    ? actions
    : { ...actions, actions: actions.actions.filter((a) => a.key === 'versions') };

  return (
    <div className="page">
      <Typography.Paragraph type="secondary" data-testid="payscript-intro">
        <CodeOutlined />{' '}
        {t('intro', {
          cpuMs: PAY_SCRIPT_LIMITS.cpuMs,
          memoryMiB: PAY_SCRIPT_LIMITS.memoryBytes / 1_048_576,
          wallSeconds: PAY_SCRIPT_LIMITS.wallMs / 1000,
        })}
      </Typography.Paragraph>
      <ListTable<PayScriptRow>
        testId="payscript-list"
        viewKey={viewKey}
        queryKey={payScriptKeys.list}
        rowKey="id"
        fetchPage={(p) => call(api.getPayScriptList, p)}
        exportHref={(f) => exportUrl(api.exportPayScriptList, f)}
        filters={filters}
        columns={columns}
        actions={shown}
        toolbar={
          mayCreate ? (
            <Button
              type="primary"
              data-testid="payscript-new"
              onClick={() =>
                void ensureToken2().then(
                  () => setCreating(true),
                  () => undefined,
                )
              }
            >
              {t('action.new')}
            </Button>
          ) : null
        }
      />
      {creating && (
        <ScriptEditor
          row={null}
          busy={create.isPending}
          onSubmit={(v) => create.mutate(v)}
          onClose={() => setCreating(false)}
        />
      )}
    </div>
  );
}
