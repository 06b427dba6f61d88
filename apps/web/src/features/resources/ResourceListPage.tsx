import { DeleteOutlined, EditOutlined, UploadOutlined } from '@ant-design/icons';
import {
  endpoints,
  type ImageUpload,
  RESOURCE_MANAGE_ROLES,
  RESOURCE_STATE,
  type ResourceAction,
  type ResourceRow,
  type Role,
  routeByPath,
} from '@paydesk/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Checkbox, type CheckboxProps, Modal, Space, Typography, Upload } from 'antd';
import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { errorText } from '../../shared/api/errorText';
import { call, exportUrl } from '../../shared/api/http';
import { formatMoney } from '../../shared/format/money';
import { formatTime } from '../../shared/format/time';
import { imageUploadOf } from '../../shared/forms/imageFile';
import { type FilterField, type ListColumn, ListTable } from '../../shared/list/ListTable';
import { endpointRoles, type RowActionFormProps, type RowActions, rowAction } from '../../shared/list/rowActions';
import { useProductName } from '../../shared/products/productName';
import { useSession } from '../../shared/session/session';
import { resourceIssues, resourceKeys } from './api';
import { channelFields, maskNumber, RESOURCE_PAGES, SECRET_FIELDS, shortAddress } from './channels';
import { ResourceDetailDrawer } from './ResourceDetailDrawer';
import { ResourceFormModal, type ResourceFormOutput, usePayGatewayOptions } from './ResourceFormModal';
import { ResourceQrSwitch } from './ResourceQr';
import { ResourceStats } from './ResourceStats';

interface Action {
  run(): Promise<unknown>;
  success: string;
  count?: number;
}

type Dialog = { kind: 'create' } | { kind: 'detail'; row: ResourceRow };

/** Whether the server's rule allows the action on the row now (its `allowedActions`, for the caller's role). */
const allows = (row: ResourceRow, action: ResourceAction) => row.allowedActions.includes(action);

/** The edit action's form: the resource's own product (a resource keeps its product). */
function EditResourceForm(props: RowActionFormProps<ResourceRow, ResourceFormOutput>) {
  const { row } = props;
  const payGateways = usePayGatewayOptions([row.productId]);
  return (
    <ResourceFormModal
      channel={{ key: 'edit', products: [row.productId] }}
      row={row}
      payGateways={payGateways}
      pending={props.busy}
      onClose={props.onClose}
      onSubmit={props.onSubmit}
    />
  );
}

/**
 * The upload action's form: picking a file sends it. Its type and size are checked here before
 * sending (the server checks the content again). Test hook: `resource-upload-file`.
 */
function UploadQrForm(props: RowActionFormProps<ResourceRow, ImageUpload>) {
  const { t } = useTranslation(['resources', 'common']);
  const { message } = App.useApp();
  const pick = async (file: File) => {
    const picked = await imageUploadOf(file);
    if (picked.ok) props.onSubmit(picked.upload);
    else void message.error(t(`text.${picked.reason}`));
  };
  return (
    <Modal open title={t('upload.title', { name: props.row.name })} footer={null} onCancel={props.onClose}>
      <Space orientation="vertical">
        <Typography.Text type="secondary">{t('upload.hint')}</Typography.Text>
        {/* No `accept` filter: antd would drop another type silently; the user is told "file type error". */}
        <Upload
          showUploadList={false}
          disabled={props.busy}
          beforeUpload={(file) => {
            void pick(file);
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} loading={props.busy} data-testid="resource-upload-file">
            {t('upload.choose')}
          </Button>
        </Upload>
      </Space>
    </Modal>
  );
}

/**
 * Every receiving and payout account page (route names in channels.ts RESOURCE_PAGES): the channel
 * gives the products (of one kind or several: a product filter and the fields of every kind), the
 * route the mode. A supplier manages its own; admins manage
 * every supplier's (supplier filter); customer service reads.
 * Row actions (declared, rowActions.tsx): edit, upload a QR image (kinds that take one), delete (not
 * while it has open orders), each offered by the row's `allowedActions`, the server's rule; the switch
 * is disabled where the rule does not allow switching on. The bulk switch stays in the toolbar.
 * Test hooks: `resource-list`, `resource-create`, `resource-bulk-enable`, `resource-bulk-disable`,
 * `resource-select-all`, per row `resource-select-<id>`, `resource-enabled-<id>`, `resource-qr-<id>`,
 * `resource-detail-<id>`, `resource-edit-<id>`, `resource-upload-<id>`, `resource-delete-<id>`,
 * `resource-more-<id>` (the actions beyond the first two), `resource-ok`, `resource-upload-file`.
 */
export default function ResourceListPage() {
  const { t, i18n } = useTranslation(['resources', 'common']);
  const productName = useProductName();
  const { user } = useSession();
  const { pathname } = useLocation();
  const route = routeByPath(pathname);
  const viewKey = route?.name ?? '';
  const config = RESOURCE_PAGES[viewKey];
  const role = user?.access;
  const mode = config?.mode ?? 'customerService';
  const canManage =
    config !== undefined &&
    mode !== 'customerService' &&
    route?.readOnly !== true &&
    role !== undefined &&
    (RESOURCE_MANAGE_ROLES as readonly Role[]).includes(role);
  const staff = mode !== 'supplier';
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [rows, setRows] = useState<ResourceRow[]>([]);
  const [selected, setSelected] = useState<number[]>([]);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const suppliers = useQuery({
    queryKey: resourceKeys.suppliers,
    queryFn: () => call(endpoints.suppliers.getList, { pageIndex: 1, pageSize: 500 }),
    enabled: staff,
    staleTime: 60_000,
  });
  const payGateways = usePayGatewayOptions(config?.channel.products ?? []);
  const action = useMutation({
    mutationFn: (a: Action) => a.run(),
    onSuccess: async (_d, a) => {
      void message.success(t(a.success, { count: a.count }));
      await queryClient.invalidateQueries({ queryKey: resourceKeys.all });
    },
    onError: (error) => void message.error(errorText(i18n, error, resourceIssues(i18n))),
  });
  if (!config) return null;
  const { channel } = config;
  /** The channel's products: every list and export of the page is limited to them. */
  const productIds = channel.products.join(',');
  const run = (a: Action, after?: () => void) => action.mutate(a, after ? { onSuccess: after } : undefined);
  const close = () => setDialog(null);
  const reload = () => queryClient.invalidateQueries({ queryKey: resourceKeys.all });
  /** The roles an action is open to on this page: none on a read-only page. */
  const open = (endpoint: Parameters<typeof endpointRoles>[0]) => (canManage ? endpointRoles(endpoint) : []);

  // Most used first: a row shows its first two allowed actions, the rest in its 'more' menu.
  const rowActions: RowActions<ResourceRow> = {
    actions: [
      rowAction<ResourceRow, ResourceFormOutput>({
        key: 'edit',
        label: 'resources:action.edit',
        success: 'resources:success.update',
        icon: <EditOutlined />,
        roles: open(endpoints.resources.update),
        token2: endpoints.resources.update.token2,
        allowed: (row) => allows(row, 'edit'),
        form: EditResourceForm,
        run: (row, v) => {
          const { supplierId: _s, ...fields } = v;
          return call(endpoints.resources.update, { id: row.id, ...fields });
        },
      }),
      rowAction<ResourceRow, ImageUpload>({
        key: 'upload',
        label: 'resources:action.uploadQr',
        success: 'resources:success.upload',
        icon: <UploadOutlined />,
        roles: open(endpoints.resources.uploadQr),
        token2: endpoints.resources.uploadQr.token2,
        allowed: (row) => allows(row, 'uploadQr'),
        form: UploadQrForm,
        run: (row, v) => call(endpoints.resources.uploadQr, { id: row.id, ...v }),
      }),
      rowAction<ResourceRow>({
        key: 'delete',
        label: 'resources:action.delete',
        success: 'resources:success.delete',
        confirm: 'resources:confirm.delete',
        icon: <DeleteOutlined />,
        danger: true,
        roles: open(endpoints.resources.delete),
        token2: endpoints.resources.delete.token2,
        allowed: (row) => allows(row, 'delete'),
        run: (row) => call(endpoints.resources.delete, { id: row.id }),
      }),
    ],
    testIdPrefix: 'resource',
    testIdOf: (row) => String(row.id),
    textValues: (row) => ({ name: row.name }),
    errorText: (error) => errorText(i18n, error, resourceIssues(i18n)),
    failed: null,
    onDone: reload,
  };
  const supplierOptions = (suppliers.data?.list ?? []).map((s) => ({ value: s.id, label: `${s.name} (${s.account})` }));

  const filters: FilterField[] = [
    ...(staff
      ? [
          {
            kind: 'select' as const,
            name: 'supplierId',
            label: t('filter.supplier'),
            options: supplierOptions.map((o) => ({ value: String(o.value), label: o.label })),
          },
        ]
      : []),
    ...(channel.products.length > 1
      ? [
          {
            kind: 'select' as const,
            name: 'productId',
            label: t('filter.product'),
            options: channel.products.map((id) => ({ value: String(id), label: productName(id) })),
          },
        ]
      : []),
    {
      kind: 'select',
      name: 'state',
      label: t('filter.state'),
      options: [
        { value: '0', label: t('filter.on') },
        { value: '1', label: t('filter.off') },
      ],
    },
    { kind: 'text', name: 'text', label: t('filter.text') },
  ];

  const pageIds = rows.map((r) => r.id);
  const allSelected = pageIds.length > 0 && pageIds.every((id) => selected.includes(id));
  const toggleRow = (id: number, on: boolean) =>
    setSelected((s) => (on ? [...s.filter((x) => x !== id), id] : s.filter((x) => x !== id)));

  const fieldColumn = (field: string): ListColumn<ResourceRow> => ({
    title: t(`field.${field}`),
    key: `details.${field}`,
    render: (_: unknown, row) => {
      const v = row.details[field];
      if (SECRET_FIELDS.has(field)) return row.hasSecret ? t('secret.set') : '';
      if (field === 'cardNumber' || field === 'accountNumber') return maskNumber(v);
      if (field === 'address') return <span title={v}>{shortAddress(v)}</span>;
      return v ?? '';
    },
  });
  const moneyText = (v: number | null) => formatMoney(v, i18n.language);

  const columns: Array<ListColumn<ResourceRow>> = [
    ...(canManage
      ? [
          {
            title: (
              <SelectAll
                checked={allSelected}
                indeterminate={!allSelected && pageIds.some((id) => selected.includes(id))}
                data-testid="resource-select-all"
                aria-label={t('column.select')}
                onChange={(e) => setSelected(e.target.checked ? pageIds : [])}
              />
            ),
            key: 'select',
            phone: 'extra' as const,
            render: (_: unknown, row: ResourceRow) => (
              <Checkbox
                checked={selected.includes(row.id)}
                data-testid={`resource-select-${row.id}`}
                aria-label={t('column.select')}
                onChange={(e) => toggleRow(row.id, e.target.checked)}
              />
            ),
          },
        ]
      : []),
    { title: t('column.id'), dataIndex: 'id', key: 'id' },
    ...(staff ? [{ title: t('column.supplier'), dataIndex: 'supplierName', key: 'supplierName' }] : []),
    {
      title: t('column.product'),
      dataIndex: 'productId',
      key: 'productId',
      render: (id: number) => productName(id),
      phone: true,
    },
    {
      title: t('column.name'),
      dataIndex: 'name',
      key: 'name',
      phone: 'title',
      render: (name: string, row) => (
        <Typography.Link data-testid={`resource-detail-${row.id}`} onClick={() => setDialog({ kind: 'detail', row })}>
          {name}
        </Typography.Link>
      ),
    },
    ...channelFields(channel).map(fieldColumn),
    {
      title: t('column.qrState'),
      key: 'state',
      phone: true,
      render: (_: unknown, row) => (
        <ResourceQrSwitch
          key={`${row.id}:${row.qrImageId}:${row.qrCode}`}
          row={row}
          canToggle={canManage && allows(row, row.state === RESOURCE_STATE.enabled ? 'disable' : 'enable')}
          {...(canManage && row.state !== RESOURCE_STATE.enabled && !allows(row, 'enable')
            ? { why: t('qr.cannotEnable') }
            : {})}
        />
      ),
    },
    {
      title: t('column.minAmount'),
      dataIndex: 'minAmount',
      key: 'minAmount',
      align: 'right',
      render: moneyText,
      phone: true,
    },
    {
      title: t('column.maxAmount'),
      dataIndex: 'maxAmount',
      key: 'maxAmount',
      align: 'right',
      render: moneyText,
      phone: true,
    },
    {
      title: t('column.dailyAmountLimit'),
      dataIndex: 'dailyAmountLimit',
      key: 'dailyAmountLimit',
      align: 'right',
      render: moneyText,
    },
    { title: t('column.dailyCountLimit'), dataIndex: 'dailyCountLimit', key: 'dailyCountLimit', align: 'right' },
    { title: t('column.todayCount'), dataIndex: 'todayCount', key: 'todayCount', align: 'right', phone: true },
    {
      title: t('column.todayAmount'),
      dataIndex: 'todayAmount',
      key: 'todayAmount',
      money: true,
      sortKey: 'todayAmount',
      phone: true,
    },
    {
      title: t('column.createdAt'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      sortKey: 'createdAt',
      render: formatTime,
    },
  ];
  const bulk = (enable: boolean) =>
    run(
      {
        run: () => call(endpoints.resources.bulkEnable, { ids: selected, enable }),
        success: enable ? 'success.bulkEnable' : 'success.bulkDisable',
        count: selected.length,
      },
      () => setSelected([]),
    );

  const submitCreate = (v: ResourceFormOutput) =>
    run({ run: () => call(endpoints.resources.create, v), success: 'success.create' }, close);

  return (
    <div className="page">
      <ResourceStats products={channel.products} />
      <ListTable<ResourceRow>
        testId="resource-list"
        viewKey={viewKey}
        queryKey={resourceKeys.list(viewKey)}
        rowKey="id"
        fetchPage={async (p) => {
          const page = await call(endpoints.resources.getList, { ...p, productIds });
          setRows(page.list);
          return page;
        }}
        exportHref={(f) => exportUrl(endpoints.resources.exportList, { ...f, productIds })}
        filters={filters}
        columns={columns}
        actions={rowActions}
        toolbar={
          canManage && (
            <Space wrap>
              <Button type="primary" data-testid="resource-create" onClick={() => setDialog({ kind: 'create' })}>
                {t('action.create')}
              </Button>
              <Button data-testid="resource-bulk-enable" disabled={selected.length === 0} onClick={() => bulk(true)}>
                {t('action.bulkEnable')}
              </Button>
              <Button data-testid="resource-bulk-disable" disabled={selected.length === 0} onClick={() => bulk(false)}>
                {t('action.bulkDisable')}
              </Button>
              {selected.length > 0 && (
                <Typography.Text data-testid="resource-selected">
                  {t('selected', { count: selected.length })}
                </Typography.Text>
              )}
            </Space>
          )
        }
      />
      {dialog?.kind === 'create' && (
        <ResourceFormModal
          channel={channel}
          {...(staff ? { suppliers: supplierOptions } : {})}
          payGateways={payGateways}
          pending={action.isPending}
          onClose={close}
          onSubmit={submitCreate}
        />
      )}
      {dialog?.kind === 'detail' && (
        <ResourceDetailDrawer resourceId={dialog.row.id} productId={dialog.row.productId} onClose={close} />
      )}
    </div>
  );
}

/**
 * The header's select-all box. antd's table copies every column title into a hidden row it measures
 * widths with; the copy there is left out, so no hidden checkbox can take the keyboard's focus.
 */
function SelectAll(props: CheckboxProps) {
  const ref = useRef<HTMLSpanElement>(null);
  const [measuring, setMeasuring] = useState(false);
  useLayoutEffect(() => setMeasuring(Boolean(ref.current?.closest('.ant-table-measure-row'))), []);
  return <span ref={ref}>{measuring ? null : <Checkbox {...props} />}</span>;
}
