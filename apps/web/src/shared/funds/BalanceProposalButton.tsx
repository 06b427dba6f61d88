import { endpoints, type ProposalKind } from '@paydesk/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Dropdown, Form, Input, Modal, Radio } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../api/errorText';
import { call } from '../api/http';
import { parseMoneyInput } from '../format/money';
import { fundKeys } from './api';

export type { ProposalKind };

export interface BalanceProposalButtonProps {
  partyKind: 'merchant' | 'supplier';
  /** The merchant's or supplier's record id. */
  partyId: number;
  partyName: string;
  kinds: ProposalKind[];
}

interface ProposalFormValues {
  amount?: string;
  direction?: 'increase' | 'decrease';
  note: string;
}

/** A positive amount of minor units typed in major units, at most two decimals; null otherwise. */
function positiveMinor(text: string | undefined): number | null {
  const cleaned = (text ?? '').replace(/[,\s]/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return null;
  const minor = parseMoneyInput(cleaned);
  return minor !== null && minor > 0 ? minor : null;
}

/**
 * Proposes a balance change of one party (maker-checker, DESIGN section 3): a menu of the given kinds
 * opening a form. The change takes effect only once another staff account approves it. Test hooks:
 * `balance-propose-<partyKind>-<partyId>` (the menu), `balance-propose-kind-<kind>`, `balance-propose-form`,
 * `balance-propose-amount`, `balance-propose-increase`, `balance-propose-decrease`,
 * `balance-propose-note`, `balance-propose-clear-warning`, `balance-propose-submit`.
 */
export function BalanceProposalButton(props: BalanceProposalButtonProps) {
  const { t, i18n } = useTranslation(['funds', 'common']);
  const [kind, setKind] = useState<ProposalKind | null>(null);
  const [form] = Form.useForm<ProposalFormValues>();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const close = () => {
    setKind(null);
    form.resetFields();
  };
  const propose = useMutation({
    mutationFn: (input: { kind: ProposalKind; amount: number | null; note: string }) =>
      call(endpoints.funds.propose, {
        partyKind: props.partyKind,
        partyId: props.partyId,
        kind: input.kind,
        ...(input.kind === 'clear' ? {} : { amount: input.amount }),
        note: input.note,
      }),
    onSuccess: async () => {
      void message.success(t('propose.sent'));
      close();
      await queryClient.invalidateQueries({ queryKey: fundKeys.all });
    },
    onError: (error) => void message.error(t('failed', { message: errorText(i18n, error) })),
  });

  const submit = (values: ProposalFormValues) => {
    if (!kind) return;
    const magnitude = kind === 'clear' ? null : positiveMinor(values.amount);
    const amount = magnitude !== null && kind === 'adjust' && values.direction === 'decrease' ? -magnitude : magnitude;
    propose.mutate({ kind, amount, note: values.note.trim() });
  };

  return (
    <>
      <Dropdown
        trigger={['click']}
        menu={{
          items: props.kinds.map((k) => ({
            key: k,
            label: <span data-testid={`balance-propose-kind-${k}`}>{t(`kind.${k}`)}</span>,
          })),
          onClick: ({ key }) => setKind(key as ProposalKind),
        }}
      >
        <Button size="small" data-testid={`balance-propose-${props.partyKind}-${props.partyId}`}>
          {t('propose.button')}
        </Button>
      </Dropdown>
      {kind && (
        <Modal
          open
          title={t('propose.title', { kind: t(`kind.${kind}`), name: props.partyName })}
          okText={t('propose.submit')}
          cancelText={t('common:action.cancel')}
          okButtonProps={{ danger: kind === 'clear', 'data-testid': 'balance-propose-submit' }}
          confirmLoading={propose.isPending}
          onOk={() => form.submit()}
          onCancel={close}
        >
          <Form<ProposalFormValues>
            form={form}
            layout="vertical"
            data-testid="balance-propose-form"
            initialValues={{ direction: 'increase' }}
            onFinish={submit}
          >
            {kind === 'clear' ? (
              <Alert
                type="warning"
                showIcon
                data-testid="balance-propose-clear-warning"
                title={t('propose.clearWarning')}
                style={{ marginBottom: 16 }}
              />
            ) : (
              <>
                {kind === 'adjust' && (
                  <Form.Item name="direction" label={t('propose.direction')}>
                    <Radio.Group>
                      <Radio value="increase" data-testid="balance-propose-increase">
                        {t('propose.increase')}
                      </Radio>
                      <Radio value="decrease" data-testid="balance-propose-decrease">
                        {t('propose.decrease')}
                      </Radio>
                    </Radio.Group>
                  </Form.Item>
                )}
                <Form.Item
                  name="amount"
                  label={t('propose.amount')}
                  rules={[
                    {
                      validator: (_, v: string | undefined) =>
                        positiveMinor(v) !== null
                          ? Promise.resolve()
                          : Promise.reject(new Error(t('propose.amountRequired'))),
                    },
                  ]}
                >
                  <Input inputMode="decimal" autoComplete="off" data-testid="balance-propose-amount" />
                </Form.Item>
              </>
            )}
            <Form.Item
              name="note"
              label={t('propose.note')}
              rules={[{ required: true, whitespace: true, max: 200, message: t('propose.noteRequired') }]}
            >
              <Input.TextArea rows={2} maxLength={200} data-testid="balance-propose-note" />
            </Form.Item>
          </Form>
        </Modal>
      )}
    </>
  );
}
