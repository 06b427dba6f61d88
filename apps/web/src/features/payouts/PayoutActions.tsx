import {
  CheckCircleOutlined,
  CloseCircleOutlined,
  ExclamationCircleOutlined,
  MedicineBoxOutlined,
  RollbackOutlined,
  SendOutlined,
  StopOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import { endpoints, type ImageUpload, type PayoutAction, type PayoutRow } from '@paydesk/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Form, Input, Modal, Radio, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/http';
import { REASON_MAX, ReasonDialog } from '../../shared/list/ReasonDialog';
import { type RowActionFormProps, type RowActions, serverRuledActions } from '../../shared/list/rowActions';
import { UtrDialog } from '../../shared/list/UtrDialog';
import { useSession } from '../../shared/session/session';
import { payoutKeys } from './api';

const { payouts: api } = endpoints;
/** The submit endpoint's own rule of a UTR: the form checks what the server will. */
const utrRule = api.submit.input.shape.utr;
/** The payout actions, offered where the server says so (the row's allowedActions). */
const payoutAction = serverRuledActions<PayoutRow, PayoutAction>('payouts');

/**
 * The payout actions (spec section 4, DESIGN section 7) as the lists and the detail drawer offer
 * them, in the order a payout meets them (a row shows its first two allowed ones, the rest in its
 * 'more' menu). Test hooks: `payout-<action>-<orderCode>`, `payout-more-<orderCode>`, `payout-ok` on
 * confirmations, `payout-submit-utr`, `payout-submit-receipt` (its picker), `payout-submit-send`, `payout-reject-reason`,
 * `payout-reject-submit`, `payout-abnormal-reason`, `payout-abnormal-submit`, `payout-resolve-to`,
 * `payout-resolve-reason`, `payout-resolve-submit`.
 */
export const PAYOUT_ROW_ACTIONS = [
  payoutAction('claim', api.claimOrder, {
    icon: <ThunderboltOutlined />,
    confirm: true,
    run: (row) => call(api.claimOrder, { orderId: row.id }),
  }),
  payoutAction<PayoutSubmission>('submit', api.submit, {
    icon: <SendOutlined />,
    form: SubmitUtrDialog,
    run: (row, v) => call(api.submit, { orderId: row.id, utr: v.utr, ...(v.receipt ? { receipt: v.receipt } : {}) }),
  }),
  payoutAction('confirm', api.confirm, {
    icon: <CheckCircleOutlined />,
    confirm: true,
    run: (row) => call(api.confirm, { orderId: row.id }),
  }),
  payoutAction<{ to: 'inProgress' | 'rejected'; reason: string }>('resolve', api.resolve, {
    icon: <MedicineBoxOutlined />,
    form: ResolveDialog,
    run: (row, v) => call(api.resolve, { orderId: row.id, to: v.to, reason: v.reason }),
  }),
  payoutAction('cancelClaim', api.cancelClaim, {
    icon: <RollbackOutlined />,
    confirm: true,
    run: (row) => call(api.cancelClaim, { orderId: row.id }),
  }),
  payoutAction<string>('reject', api.reject, {
    icon: <CloseCircleOutlined />,
    danger: true,
    form: RejectDialog,
    run: (row, rejectReason) => call(api.reject, { orderId: row.id, rejectReason }),
  }),
  payoutAction<string>('markAbnormal', api.markAbnormal, {
    icon: <ExclamationCircleOutlined />,
    danger: true,
    form: AbnormalDialog,
    run: (row, reason) => call(api.markAbnormal, { orderId: row.id, reason }),
  }),
  payoutAction('cancel', api.cancel, {
    icon: <StopOutlined />,
    danger: true,
    confirm: true,
    run: (row) => call(api.cancel, { orderId: row.id }),
  }),
];

/** What a success changes: every payout list, the claim queue and the payout's detail. */
export function usePayoutsReload() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: payoutKeys.all });
}

/** The payout lists' and the detail drawer's row actions (ListTable's `actions`, RowActionBar). */
export function usePayoutRowActions(): RowActions<PayoutRow> {
  const reload = usePayoutsReload();
  return {
    actions: PAYOUT_ROW_ACTIONS,
    testIdPrefix: 'payout',
    testIdOf: (row) => row.orderCode,
    textValues: (row) => ({ orderCode: row.orderCode }),
    failed: 'payouts:failed',
    onDone: reload,
  };
}

type DialogProps<V> = RowActionFormProps<PayoutRow, V>;

/** What the supplier submits: the UTR and, optionally, the transfer's receipt image. */
export interface PayoutSubmission {
  utr: string;
  receipt?: ImageUpload;
}

/**
 * The supplier paid the payee: the transfer's UTR (USDT: the transaction hash), by the endpoint's rule,
 * and optionally a picture of the bank's receipt (the common image rule, checked before sending).
 */
export function SubmitUtrDialog({ row, busy, onClose, onSubmit }: DialogProps<PayoutSubmission>) {
  const { t } = useTranslation('payouts');
  return (
    <UtrDialog
      image={{
        label: t('submit.receipt'),
        hint: t('submit.receiptHint'),
        chooseText: t('submit.receiptChoose'),
        removeText: t('submit.receiptRemove'),
        alt: t('submit.receiptAlt', { orderCode: row.orderCode }),
        testId: 'payout-submit-receipt',
      }}
      title={t('submit.title', { orderCode: row.orderCode })}
      hint={t('submit.hint')}
      label={t('submit.utr')}
      submitText={t('submit.send')}
      invalidText={t('submit.utrInvalid')}
      rule={utrRule}
      formName="payoutSubmit"
      utrTestId="payout-submit-utr"
      submitTestId="payout-submit-send"
      busy={busy}
      onSubmit={(utr, receipt) => onSubmit(receipt ? { utr, receipt } : { utr })}
      onClose={onClose}
    />
  );
}

/** Reject with a reason: staff end the payout; a supplier gives back one it cannot pay (said above the field). */
export function RejectDialog({ row, busy, onClose, onSubmit }: DialogProps<string>) {
  const { t } = useTranslation(['payouts', 'common']);
  const { user } = useSession();
  return (
    <ReasonDialog
      title={t('reject.title', { orderCode: row.orderCode })}
      label={t('reject.reason')}
      submitText={t('reject.send')}
      requiredText={t('reject.reasonRequired')}
      tooLongText={t('reject.reasonTooLong')}
      testId="payout-reject"
      danger
      busy={busy}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      {user?.access === 'supplier' && (
        <Typography.Paragraph type="secondary">{t('reject.supplierHint')}</Typography.Paragraph>
      )}
    </ReasonDialog>
  );
}

/** Mark abnormal with what is wrong (-> processing exception). */
export function AbnormalDialog({ row, busy, onClose, onSubmit }: DialogProps<string>) {
  const { t } = useTranslation(['payouts', 'common']);
  return (
    <ReasonDialog
      title={t('abnormal.title', { orderCode: row.orderCode })}
      label={t('abnormal.reason')}
      submitText={t('abnormal.send')}
      requiredText={t('abnormal.reasonRequired')}
      tooLongText={t('abnormal.reasonTooLong')}
      testId="payout-abnormal"
      danger
      busy={busy}
      onSubmit={onSubmit}
      onClose={onClose}
    />
  );
}

/** Resolve a processing exception: back to its supplier (in progress) or rejected, with a note. */
export function ResolveDialog({
  row,
  busy,
  onClose,
  onSubmit,
}: DialogProps<{ to: 'inProgress' | 'rejected'; reason: string }>) {
  const { t } = useTranslation(['payouts', 'common']);
  const [form] = Form.useForm<{ to: 'inProgress' | 'rejected'; reason: string }>();
  return (
    <Modal
      open
      title={t('resolve.title', { orderCode: row.orderCode })}
      okText={t('resolve.send')}
      okButtonProps={{ loading: busy, 'data-testid': 'payout-resolve-submit' }}
      cancelText={t('common:action.cancel')}
      onOk={() =>
        void form
          .validateFields()
          .then((v) => onSubmit({ to: v.to, reason: v.reason.trim() }))
          .catch(() => undefined)
      }
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" name="payoutResolve" initialValues={{ to: 'inProgress' }}>
        <Form.Item name="to" label={t('resolve.to')}>
          <Radio.Group data-testid="payout-resolve-to">
            <Radio value="inProgress">{t('resolve.toInProgress')}</Radio>
            <Radio value="rejected">{t('resolve.toRejected')}</Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item
          name="reason"
          label={t('resolve.reason')}
          rules={[
            { required: true, whitespace: true, message: t('resolve.reasonRequired') },
            { max: REASON_MAX, message: t('resolve.reasonTooLong') },
          ]}
        >
          <Input.TextArea rows={3} data-testid="payout-resolve-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
