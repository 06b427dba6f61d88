import {
  CheckCircleOutlined,
  CloseCircleOutlined,
  DisconnectOutlined,
  FileDoneOutlined,
  FlagOutlined,
  RollbackOutlined,
  SendOutlined,
  SwapOutlined,
  UnlockOutlined,
} from '@ant-design/icons';
import { endpoints, ORDER_MARKS, type OrderAction, type OrderRow, utrSchema } from '@paydesk/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Checkbox, Modal, Select, Space } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/api/errorText';
import { call } from '../../shared/api/http';
import { ReasonDialog } from '../../shared/list/ReasonDialog';
import { type RowActionFormProps, type RowActions, serverRuledActions } from '../../shared/list/rowActions';
import { UtrDialog } from '../../shared/list/UtrDialog';
import { orderKeys } from './api';

const { orders: api } = endpoints;
/** The order actions, offered where the server says so (the row's allowedActions). */
const orderAction = serverRuledActions<OrderRow, OrderAction>('orders');

/**
 * The order actions of spec section 4 as the lists and the detail drawer offer them, most used first
 * (a row shows its first two allowed ones, the rest in its 'more' menu). Test hooks:
 * `order-<action>-<orderCode>`, `order-more-<orderCode>`, `order-actions-<orderCode>`, `order-ok` on
 * confirmations, `order-reject-reason`, `order-reject-submit`, `order-supplement-utr`,
 * `order-supplement-submit`, `order-reverse-submit`, `order-unlock-understood`, `order-unlock-submit`.
 */
export const ORDER_ROW_ACTIONS = [
  orderAction('confirm', api.confirmOrder, {
    icon: <CheckCircleOutlined />,
    confirm: true,
    run: (row) => call(api.confirmOrder, { orderCode: row.orderCode }),
  }),
  orderAction<string>('supplement', api.replenishmentOrder, {
    icon: <FileDoneOutlined />,
    form: SupplementDialog,
    run: (row, utr) =>
      call(api.replenishmentOrder, { orderCode: row.orderCode, isOffsetReplenishmentOrder: false, utr }),
  }),
  orderAction('callback', api.callback, {
    icon: <SendOutlined />,
    confirm: true,
    run: (row) => call(api.callback, { orderCode: row.orderCode }),
  }),
  orderAction('reverse', api.reverseOrder, {
    icon: <RollbackOutlined />,
    danger: true,
    form: ReverseDialog,
    run: (row) => call(api.reverseOrder, { orderCode: row.orderCode }),
  }),
  orderAction('unlock', api.unlockOrder, {
    icon: <UnlockOutlined />,
    danger: true,
    form: UnlockDialog,
    run: (row) => call(api.unlockOrder, { orderCodes: [row.orderCode] }),
  }),
  orderAction('reselect', api.reselect, {
    icon: <SwapOutlined />,
    confirm: true,
    run: (row) => call(api.reselect, { orderCode: row.orderCode }),
  }),
  orderAction<string>('reject', api.reject, {
    icon: <CloseCircleOutlined />,
    danger: true,
    form: RejectDialog,
    run: (row, rejectReason) => call(api.reject, { orderCode: row.orderCode, rejectReason }),
  }),
  orderAction('freeResource', api.freeResource, {
    icon: <DisconnectOutlined />,
    confirm: true,
    run: (row) => call(api.freeResource, { orderCode: row.orderCode, isOffsetReplenishmentOrder: false }),
  }),
  // Also the mark column's select (hidden by default): here it is at hand on every row.
  orderAction<number>('updateMark', api.updateOrderMark, {
    icon: <FlagOutlined />,
    form: MarkDialog,
    run: (row, orderMark) => call(api.updateOrderMark, { id: row.id, orderMark }),
  }),
];

/** What a success changes: every order list and the order's detail. */
function useOrdersReload() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: orderKeys.lists }),
      queryClient.invalidateQueries({ queryKey: orderKeys.all }),
    ]);
}

/** The order lists' and the detail drawer's row actions (ListTable's `actions`, RowActionBar). */
export function useOrderRowActions(): RowActions<OrderRow> {
  const reload = useOrdersReload();
  return {
    actions: ORDER_ROW_ACTIONS,
    testIdPrefix: 'order',
    testIdOf: (row) => row.orderCode,
    textValues: (row) => ({ orderCode: row.orderCode }),
    failed: 'orders:failed',
    onDone: reload,
  };
}

/**
 * The mark of a row: a select where the server allows the caller to change it (any state, even
 * locked), else its label. Test hook: `order-mark-<orderCode>`.
 */
export function useOrderMark() {
  const { t, i18n } = useTranslation(['orders', 'common']);
  const { message } = App.useApp();
  const reload = useOrdersReload();
  const mutation = useMutation({
    mutationFn: (row: { id: number; orderMark: number }) => call(api.updateOrderMark, row),
    onSuccess: async () => {
      void message.success(t('success.updateMark'));
      await reload();
    },
    onError: (error) =>
      void message.error(t('failed', { action: t('action.updateMark'), message: errorText(i18n, error) })),
  });
  return (row: OrderRow): ReactNode => {
    if (!row.allowedActions.includes('updateMark')) return t(`mark.${row.mark}`);
    return (
      <Select
        size="small"
        value={row.mark}
        disabled={mutation.isPending}
        aria-label={t('action.updateMark')}
        style={{ minWidth: 110 }}
        data-testid={`order-mark-${row.orderCode}`}
        options={ORDER_MARKS.map((m) => ({ value: m, label: t(`mark.${m}`) }))}
        onChange={(orderMark: number) => mutation.mutate({ id: row.id, orderMark })}
      />
    );
  };
}

type DialogProps<V> = RowActionFormProps<OrderRow, V>;

/** Reject with a reason (1 to 256 characters, as the contract says). */
export function RejectDialog({ row, busy, onClose, onSubmit }: DialogProps<string>) {
  const { t } = useTranslation(['orders', 'common']);
  return (
    <ReasonDialog
      title={t('reject.title', { orderCode: row.orderCode })}
      label={t('reject.reason')}
      submitText={t('reject.submit')}
      requiredText={t('reject.reasonRequired')}
      tooLongText={t('reject.reasonTooLong')}
      testId="order-reject"
      danger
      busy={busy}
      onSubmit={onSubmit}
      onClose={onClose}
    />
  );
}

/** Supplement with the payer's UTR (checked by the contract's rule before sending). */
export function SupplementDialog({ row, busy, onClose, onSubmit }: DialogProps<string>) {
  const { t } = useTranslation('orders');
  return (
    <UtrDialog
      title={t('supplement.title', { orderCode: row.orderCode })}
      hint={t('supplement.hint')}
      label={t('supplement.utr')}
      submitText={t('supplement.submit')}
      invalidText={t('supplement.utrInvalid')}
      rule={utrSchema}
      formName="orderSupplement"
      utrTestId="order-supplement-utr"
      submitTestId="order-supplement-submit"
      busy={busy}
      onSubmit={onSubmit}
      onClose={onClose}
    />
  );
}

/** Spec section 6: unlocking warns about the risks and needs an explicit confirmation. */
function UnlockDialog({ row, busy, onClose, onSubmit }: DialogProps<void>) {
  const { t } = useTranslation(['orders', 'common']);
  const [understood, setUnderstood] = useState(false);
  return (
    <Modal
      open
      title={t('ask.unlockTitle', { orderCode: row.orderCode })}
      okText={t('action.unlock')}
      okButtonProps={{ danger: true, disabled: !understood, loading: busy, 'data-testid': 'order-unlock-submit' }}
      cancelText={t('common:action.cancel')}
      onOk={() => onSubmit()}
      onCancel={onClose}
    >
      <Space orientation="vertical">
        <Alert type="error" showIcon title={t('ask.unlock')} />
        <Checkbox
          checked={understood}
          onChange={(e) => setUnderstood(e.target.checked)}
          data-testid="order-unlock-understood"
        >
          {t('ask.understood')}
        </Checkbox>
      </Space>
    </Modal>
  );
}

/** Reversing cannot be undone: a warning, and a danger button. */
function ReverseDialog({ row, busy, onClose, onSubmit }: DialogProps<void>) {
  const { t } = useTranslation(['orders', 'common']);
  return (
    <Modal
      open
      title={t('ask.reverseTitle', { orderCode: row.orderCode })}
      okText={t('action.reverse')}
      okButtonProps={{ danger: true, loading: busy, 'data-testid': 'order-reverse-submit' }}
      cancelText={t('common:action.cancel')}
      onOk={() => onSubmit()}
      onCancel={onClose}
    >
      <Alert type="warning" showIcon title={t('ask.reverse')} />
    </Modal>
  );
}

/** Marks the order; suspicious and malicious lock it (the select lists every mark). */
function MarkDialog({ row, busy, onClose, onSubmit }: DialogProps<number>) {
  const { t } = useTranslation(['orders', 'common']);
  const [mark, setMark] = useState(row.mark);
  return (
    <Modal
      open
      title={`${t('action.updateMark')} · ${row.orderCode}`}
      okText={t('common:action.ok')}
      okButtonProps={{ loading: busy, disabled: mark === row.mark, 'data-testid': 'order-mark-submit' }}
      cancelText={t('common:action.cancel')}
      onOk={() => onSubmit(mark)}
      onCancel={onClose}
    >
      <Select
        value={mark}
        aria-label={t('markSelect')}
        style={{ minWidth: 200 }}
        data-testid="order-mark-choice"
        options={ORDER_MARKS.map((m) => ({ value: m, label: t(`mark.${m}`) }))}
        onChange={(value: number) => setMark(value)}
      />
    </Modal>
  );
}
