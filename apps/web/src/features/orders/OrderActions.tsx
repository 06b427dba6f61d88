import {
  ACTION_ROLES,
  actionAllowed,
  endpoints,
  ORDER_ACTIONS,
  ORDER_MARKS,
  type OrderAction,
  type OrderRow,
  type Role,
  utrSchema,
} from '@paydesk/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Checkbox, Form, Input, Modal, Popconfirm, Select, Space, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/api/errorText';
import { call } from '../../shared/api/http';
import { orderKeys } from './api';

/** Actions that ask through a popconfirm: one click and an OK. */
const SIMPLE = ['confirm', 'reselect', 'freeResource', 'callback'] as const;
type SimpleAction = (typeof SIMPLE)[number];
/** Actions that open a dialog of their own. */
type DialogAction = 'supplement' | 'reject' | 'reverse' | 'unlock';
type Dialog = { action: DialogAction; row: OrderRow };

interface Run {
  action: OrderAction;
  run(): Promise<unknown>;
}

const SIMPLE_CALL: Record<SimpleAction, (orderCode: string) => Promise<unknown>> = {
  confirm: (orderCode) => call(endpoints.orders.confirmOrder, { orderCode }),
  reselect: (orderCode) => call(endpoints.orders.reselect, { orderCode }),
  freeResource: (orderCode) => call(endpoints.orders.freeResource, { orderCode, isOffsetReplenishmentOrder: false }),
  callback: (orderCode) => call(endpoints.orders.callback, { orderCode }),
};

export interface OrderActionsApi {
  /** Whether the role has any action at all (the page then shows the actions column). */
  any: boolean;
  /** The buttons of one row: exactly the actions `actionAllowed` gives the role in the row's state. */
  buttons(row: OrderRow): ReactNode;
  /** The mark of a row: a select for roles that may change it (any state, even locked), else its label. */
  mark(row: OrderRow): ReactNode;
  /** The dialogs (reject, supplement, reverse, unlock); render once per page. */
  dialogs: ReactNode;
}

/**
 * Row actions of the order lists and the detail drawer (spec section 4, DESIGN section 6). What is
 * offered comes from the contract's `actionAllowed(action, role, state, locked)`; the server checks
 * the same rule. Success and failure are told in the user's language, a failure with the server's
 * reason. Supplement and reverse need token2: the HTTP client opens the second-level password dialog.
 * Test hooks: `order-<action>-<orderCode>`, `order-mark-<orderCode>`, `order-reject-reason`,
 * `order-reject-submit`, `order-supplement-utr`, `order-supplement-submit`, `order-reverse-submit`,
 * `order-unlock-understood`, `order-unlock-submit`, and `order-ok` on popconfirms.
 */
export function useOrderActions(role: Role | undefined): OrderActionsApi {
  const { t, i18n } = useTranslation(['orders', 'common']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const mutation = useMutation({
    mutationFn: (r: Run) => r.run(),
    onSuccess: async (_d, r) => {
      void message.success(t(`success.${r.action}`));
      setDialog(null);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: orderKeys.lists }),
        queryClient.invalidateQueries({ queryKey: orderKeys.all }),
      ]);
    },
    onError: (error, r) =>
      void message.error(t('failed', { action: t(`action.${r.action}`), message: errorText(i18n, error) })),
  });
  const allowed = (action: OrderAction, row: OrderRow) =>
    role !== undefined && actionAllowed(action, role, row.state, row.locked);
  const run = (action: OrderAction, fn: () => Promise<unknown>) => mutation.mutate({ action, run: fn });
  const busy = mutation.isPending;

  const simple = (action: SimpleAction, row: OrderRow) => (
    <Popconfirm
      key={action}
      title={t(`ask.${action}`, { orderCode: row.orderCode })}
      okText={t('common:action.ok')}
      cancelText={t('common:action.cancel')}
      okButtonProps={{ 'data-testid': 'order-ok' }}
      onConfirm={() => run(action, () => SIMPLE_CALL[action](row.orderCode))}
    >
      <Button type="link" size="small" disabled={busy} data-testid={`order-${action}-${row.orderCode}`}>
        {t(`action.${action}`)}
      </Button>
    </Popconfirm>
  );
  const opener = (action: DialogAction, row: OrderRow) => (
    <Button
      key={action}
      type="link"
      size="small"
      danger={action === 'reverse' || action === 'reject' || action === 'unlock'}
      disabled={busy}
      data-testid={`order-${action}-${row.orderCode}`}
      onClick={() => setDialog({ action, row })}
    >
      {t(`action.${action}`)}
    </Button>
  );

  const buttons = (row: OrderRow) => {
    const out: ReactNode[] = [];
    for (const action of ['confirm', 'supplement', 'reselect', 'reject', 'freeResource', 'callback'] as const) {
      if (!allowed(action, row)) continue;
      out.push(action === 'supplement' || action === 'reject' ? opener(action, row) : simple(action, row));
    }
    if (allowed('reverse', row)) out.push(opener('reverse', row));
    if (allowed('unlock', row)) out.push(opener('unlock', row));
    return out;
  };

  const mark = (row: OrderRow) => {
    if (!allowed('updateMark', row)) return t(`mark.${row.mark}`);
    return (
      <Select
        size="small"
        value={row.mark}
        disabled={busy}
        aria-label={t('action.updateMark')}
        style={{ minWidth: 110 }}
        data-testid={`order-mark-${row.orderCode}`}
        options={ORDER_MARKS.map((m) => ({ value: m, label: t(`mark.${m}`) }))}
        onChange={(orderMark: number) =>
          run('updateMark', () => call(endpoints.orders.updateOrderMark, { id: row.id, orderMark }))
        }
      />
    );
  };

  const close = () => setDialog(null);
  const dialogs = dialog && (
    <>
      {dialog.action === 'reject' && (
        <RejectDialog
          row={dialog.row}
          busy={busy}
          onClose={close}
          onSubmit={(rejectReason) =>
            run('reject', () => call(endpoints.orders.reject, { orderCode: dialog.row.orderCode, rejectReason }))
          }
        />
      )}
      {dialog.action === 'supplement' && (
        <SupplementDialog
          row={dialog.row}
          busy={busy}
          onClose={close}
          onSubmit={(utr) =>
            run('supplement', () =>
              call(endpoints.orders.replenishmentOrder, {
                orderCode: dialog.row.orderCode,
                isOffsetReplenishmentOrder: false,
                utr,
              }),
            )
          }
        />
      )}
      {dialog.action === 'reverse' && (
        <Modal
          open
          title={t('ask.reverseTitle', { orderCode: dialog.row.orderCode })}
          okText={t('action.reverse')}
          okButtonProps={{ danger: true, loading: busy, 'data-testid': 'order-reverse-submit' }}
          cancelText={t('common:action.cancel')}
          onOk={() => run('reverse', () => call(endpoints.orders.reverseOrder, { orderCode: dialog.row.orderCode }))}
          onCancel={close}
        >
          <Alert type="warning" showIcon title={t('ask.reverse')} />
        </Modal>
      )}
      {dialog.action === 'unlock' && (
        <UnlockDialog
          row={dialog.row}
          busy={busy}
          onClose={close}
          onSubmit={() =>
            run('unlock', () => call(endpoints.orders.unlockOrder, { orderCodes: [dialog.row.orderCode] }))
          }
        />
      )}
    </>
  );

  const any = role !== undefined && ORDER_ACTIONS.some((a) => ACTION_ROLES[a].includes(role));
  return { any, buttons, mark, dialogs };
}

interface DialogProps<V> {
  row: OrderRow;
  busy: boolean;
  onClose(): void;
  onSubmit(value: V): void;
}

/** Reject with a reason (1 to 256 characters, as the contract says). */
export function RejectDialog({ row, busy, onClose, onSubmit }: DialogProps<string>) {
  const { t } = useTranslation(['orders', 'common']);
  const [form] = Form.useForm<{ rejectReason: string }>();
  return (
    <Modal
      open
      title={t('reject.title', { orderCode: row.orderCode })}
      okText={t('reject.submit')}
      okButtonProps={{ danger: true, loading: busy, 'data-testid': 'order-reject-submit' }}
      cancelText={t('common:action.cancel')}
      onOk={() =>
        void form
          .validateFields()
          .then((v) => onSubmit(v.rejectReason.trim()))
          .catch(() => undefined)
      }
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" name="orderReject">
        <Form.Item
          name="rejectReason"
          label={t('reject.reason')}
          rules={[
            { required: true, whitespace: true, message: t('reject.reasonRequired') },
            { max: 256, message: t('reject.reasonTooLong') },
          ]}
        >
          <Input.TextArea rows={3} data-testid="order-reject-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Supplement with the payer's UTR (checked by the contract's rule before sending). */
function SupplementDialog({ row, busy, onClose, onSubmit }: DialogProps<string>) {
  const { t } = useTranslation(['orders', 'common']);
  const [form] = Form.useForm<{ utr: string }>();
  return (
    <Modal
      open
      title={t('supplement.title', { orderCode: row.orderCode })}
      okText={t('supplement.submit')}
      okButtonProps={{ loading: busy, 'data-testid': 'order-supplement-submit' }}
      cancelText={t('common:action.cancel')}
      onOk={() =>
        void form
          .validateFields()
          .then((v) => onSubmit(v.utr.trim()))
          .catch(() => undefined)
      }
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('supplement.hint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" name="orderSupplement">
        <Form.Item
          name="utr"
          label={t('supplement.utr')}
          rules={[
            {
              validator: (_, v: unknown) =>
                utrSchema.safeParse(v ?? '').success
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('supplement.utrInvalid'))),
            },
          ]}
        >
          <Input autoComplete="off" data-testid="order-supplement-utr" />
        </Form.Item>
      </Form>
    </Modal>
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
