import {
  CheckCircleOutlined,
  CloudDownloadOutlined,
  CloudUploadOutlined,
  ExportOutlined,
  SendOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import {
  type EndpointOutput,
  endpoints,
  type PayoutBatchAction,
  type PayoutBatchRow,
  type Role,
} from '@paydesk/contract';
import { Alert, Form, Input, Modal } from 'antd';
import type { i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/http';
import { formatMoney } from '../../shared/format/money';
import { endpointRoles, type RowActionFormProps, type RowActions, rowAction } from '../../shared/list/rowActions';
import { saveBankFile } from './api';
import { ResultUploadPanel } from './ResultUpload';

const api = endpoints.payoutBatches;

/** Offered where the server says so: the row's allowedActions (the contract's rule for the caller). */
const offered = (action: PayoutBatchAction) => (row: PayoutBatchRow) => row.allowedActions.includes(action);

/** Who an action is open to and whether it needs token2: the endpoint it calls says. */
const guard = (action: PayoutBatchAction, endpoint: { access: readonly Role[] | 'public'; token2: boolean }) => ({
  key: action,
  label: `payoutBatches:action.${action}`,
  roles: endpointRoles(endpoint),
  token2: endpoint.token2,
  allowed: offered(action),
});

/** Saves the bank file an answer carries, then answers it (its fileName fills the success text). */
function saved(file: EndpointOutput<typeof api.download>) {
  saveBankFile(file);
  return file;
}

/**
 * The batch actions of spec section 2 as the list and the drawer offer them, in the order a batch
 * goes through them (a row shows its first two allowed ones, the rest in its 'more' menu). Test hooks:
 * `batch-<action>-<id>`, `batch-more-<id>`, `batch-actions-<id>`, `batch-ok` on confirmations,
 * `batch-abnormal-reason`, `batch-abnormal-submit`, and those of ResultUpload.tsx.
 */
export const BATCH_ROW_ACTIONS = [
  rowAction<PayoutBatchRow>({
    ...guard('propose', api.propose),
    icon: <SendOutlined />,
    confirm: 'payoutBatches:ask.propose',
    success: 'payoutBatches:success.propose',
    run: (row) => call(api.propose, { batchId: row.id }),
  }),
  rowAction<PayoutBatchRow>({
    ...guard('approve', api.approve),
    icon: <CheckCircleOutlined />,
    confirm: 'payoutBatches:ask.approve',
    success: 'payoutBatches:success.approve',
    run: (row) => call(api.approve, { batchId: row.id }),
  }),
  rowAction<PayoutBatchRow>({
    ...guard('exportFile', api.exportFile),
    icon: <ExportOutlined />,
    confirm: 'payoutBatches:ask.exportFile',
    success: 'payoutBatches:success.exportFile',
    run: async (row) => saved(await call(api.exportFile, { batchId: row.id })),
  }),
  rowAction<PayoutBatchRow>({
    ...guard('download', api.download),
    icon: <CloudDownloadOutlined />,
    confirm: 'payoutBatches:ask.download',
    success: 'payoutBatches:success.download',
    run: async (row) => saved(await call(api.download, { batchId: row.id })),
  }),
  rowAction<PayoutBatchRow>({
    ...guard('uploadResult', api.uploadResult),
    icon: <CloudUploadOutlined />,
    panel: ResultUploadPanel,
  }),
  rowAction<PayoutBatchRow, string>({
    ...guard('markAbnormal', api.markAbnormal),
    icon: <WarningOutlined />,
    danger: true,
    form: AbnormalDialog,
    success: 'payoutBatches:success.markAbnormal',
    run: (row, reason) => call(api.markAbnormal, { batchId: row.id, reason }),
  }),
];

/** The values a batch's confirmation texts name (its amounts as the reader reads them). */
export function batchTextValues(i18n: I18n, row: PayoutBatchRow): Record<string, unknown> {
  return {
    id: row.id,
    batchId: row.id,
    orderCount: row.orderCount,
    total: formatMoney(row.totalAmount, i18n.language),
    resource: row.resourceName,
    template: i18n.t(`payoutBatches:template.${row.templateId}`, { defaultValue: row.templateId }),
    fileName: row.fileName ?? '',
    fileHash: row.fileHash ?? '',
  };
}

/** The list's and the drawer's batch actions (ListTable's `actions`, RowActionBar). */
export function useBatchRowActions(reload: () => Promise<unknown>, before?: (row: PayoutBatchRow) => ReactNode) {
  const { i18n } = useTranslation('payoutBatches');
  const actions: RowActions<PayoutBatchRow> = {
    actions: BATCH_ROW_ACTIONS,
    testIdPrefix: 'batch',
    testIdOf: (row) => String(row.id),
    textValues: (row) => batchTextValues(i18n, row),
    failed: 'payoutBatches:failed',
    onDone: reload,
    ...(before ? { before } : {}),
  };
  return actions;
}

/** Marks a batch abnormal with a reason (1 to 256 characters, as the contract says). */
function AbnormalDialog({ row, busy, onClose, onSubmit }: RowActionFormProps<PayoutBatchRow, string>) {
  const { t } = useTranslation(['payoutBatches', 'common']);
  const [form] = Form.useForm<{ reason: string }>();
  return (
    <Modal
      open
      title={t('abnormal.title', { id: row.id })}
      okText={t('abnormal.submit')}
      okButtonProps={{ danger: true, loading: busy, 'data-testid': 'batch-abnormal-submit' }}
      cancelText={t('common:action.cancel')}
      onOk={() =>
        void form
          .validateFields()
          .then((v) => onSubmit(v.reason.trim()))
          .catch(() => undefined)
      }
      onCancel={onClose}
      destroyOnHidden
    >
      <Alert type="warning" showIcon title={t('abnormal.hint')} style={{ marginBottom: 16 }} />
      <Form form={form} layout="vertical" name="batchAbnormal">
        <Form.Item
          name="reason"
          label={t('abnormal.reason')}
          rules={[
            { required: true, whitespace: true, message: t('abnormal.reasonRequired') },
            { max: 256, message: t('abnormal.reasonTooLong') },
          ]}
        >
          <Input.TextArea rows={3} data-testid="batch-abnormal-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
