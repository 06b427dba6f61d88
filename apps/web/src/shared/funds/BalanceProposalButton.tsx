import { ClearOutlined, MinusCircleOutlined, PlusCircleOutlined, SlidersOutlined } from '@ant-design/icons';
import { endpoints, type PartyKind, PROPOSAL_KINDS_OF, type ProposalKind } from '@paydesk/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Dropdown, Form, Input, Modal, Radio } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../api/errorText';
import { call } from '../api/http';
import { parseMoneyInput } from '../format/money';
import { type AnyRowAction, endpointRoles, type RowActionPanelProps, rowAction } from '../list/rowActions';
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

/** One kind's proposal form for one party. */
export interface BalanceProposalModalProps {
  partyKind: PartyKind;
  /** The merchant's or supplier's record id. */
  partyId: number;
  partyName: string;
  kind: ProposalKind;
  onClose(): void;
  /** After the proposal was sent (e.g. the list reloads). */
  onDone?(): Promise<unknown> | undefined;
}

/**
 * The form of one balance proposal (maker-checker, DESIGN section 3): an amount (a direction for an
 * adjustment; none for clearing, which warns instead) and a note. The change takes effect only once
 * another staff account approves it. Test hooks: `balance-propose-form`, `balance-propose-amount`,
 * `balance-propose-increase`, `balance-propose-decrease`, `balance-propose-note`,
 * `balance-propose-clear-warning`, `balance-propose-submit`.
 */
export function BalanceProposalModal(props: BalanceProposalModalProps) {
  const { t, i18n } = useTranslation(['funds', 'common']);
  const { kind } = props;
  const [form] = Form.useForm<ProposalFormValues>();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const propose = useMutation({
    mutationFn: (input: { amount: number | null; note: string }) =>
      call(endpoints.funds.propose, {
        partyKind: props.partyKind,
        partyId: props.partyId,
        kind,
        ...(kind === 'clear' ? {} : { amount: input.amount }),
        note: input.note,
      }),
    onSuccess: async () => {
      void message.success(t('propose.sent'));
      props.onClose();
      await Promise.all([queryClient.invalidateQueries({ queryKey: fundKeys.all }), props.onDone?.()]);
    },
    onError: (error) => void message.error(t('failed', { message: errorText(i18n, error) })),
  });

  const submit = (values: ProposalFormValues) => {
    const magnitude = kind === 'clear' ? null : positiveMinor(values.amount);
    const amount = magnitude !== null && kind === 'adjust' && values.direction === 'decrease' ? -magnitude : magnitude;
    propose.mutate({ amount, note: values.note.trim() });
  };

  return (
    <Modal
      open
      title={t('propose.title', { kind: t(`kind.${kind}`), name: props.partyName })}
      okText={t('propose.submit')}
      cancelText={t('common:action.cancel')}
      okButtonProps={{ danger: kind === 'clear', 'data-testid': 'balance-propose-submit' }}
      confirmLoading={propose.isPending}
      onOk={() => form.submit()}
      onCancel={props.onClose}
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
  );
}

/**
 * Proposes a balance change of one party outside a list: a menu of the given kinds opening the form.
 * Test hooks: `balance-propose-<partyKind>-<partyId>` (the menu), `balance-propose-kind-<kind>`, and
 * the form's (BalanceProposalModal).
 */
export function BalanceProposalButton(props: BalanceProposalButtonProps) {
  const { t } = useTranslation(['funds', 'common']);
  const [kind, setKind] = useState<ProposalKind | null>(null);
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
        <BalanceProposalModal
          partyKind={props.partyKind}
          partyId={props.partyId}
          partyName={props.partyName}
          kind={kind}
          onClose={() => setKind(null)}
        />
      )}
    </>
  );
}

/** A merchant or supplier row as the proposal actions read it. */
export interface ProposalParty {
  id: number;
  name: string;
  /** The kinds the server accepts from the caller now (the contract's `allowedProposalKinds`). */
  proposalKinds: readonly ProposalKind[];
}

const KIND_ICONS: Record<ProposalKind, ReactNode> = {
  adjust: <SlidersOutlined />,
  clear: <ClearOutlined />,
  deposit: <PlusCircleOutlined />,
  withdraw: <MinusCircleOutlined />,
};

/** One panel per party kind and proposal kind, made once: an open panel keeps its form across reloads. */
type ProposalPanel = (props: RowActionPanelProps<ProposalParty>) => ReactNode;
const panels = new Map<string, ProposalPanel>();
function proposalPanel(partyKind: PartyKind, kind: ProposalKind): ProposalPanel {
  const key = `${partyKind}:${kind}`;
  let panel = panels.get(key);
  if (!panel) {
    const Panel = ({ row, onClose, onDone }: RowActionPanelProps<ProposalParty>) => (
      <BalanceProposalModal
        partyKind={partyKind}
        partyId={row.id}
        partyName={row.name}
        kind={kind}
        onClose={onClose}
        onDone={onDone}
      />
    );
    Panel.displayName = `BalanceProposalPanel(${key})`;
    panel = Panel;
    panels.set(key, panel);
  }
  return panel;
}

/**
 * The balance proposals of a party list as row actions (ListTable's `actions`), one per kind the party
 * takes: offered to the roles funds.propose is open to (none on a read-only page), on a row whose
 * `proposalKinds` hold the kind (the server's rule). Test hooks: `<prefix>-propose-<kind>-<id>`.
 */
export function proposalRowActions<Row extends ProposalParty>(
  partyKind: PartyKind,
  opts: { readOnly: boolean },
): Array<AnyRowAction<Row>> {
  const propose = endpoints.funds.propose;
  return PROPOSAL_KINDS_OF[partyKind].map((kind) =>
    rowAction<Row>({
      key: `propose-${kind}`,
      label: `funds:kind.${kind}`,
      icon: KIND_ICONS[kind],
      roles: opts.readOnly ? [] : endpointRoles(propose),
      token2: propose.token2,
      ...(kind === 'clear' ? { danger: true } : {}),
      allowed: (row) => row.proposalKinds.includes(kind),
      panel: proposalPanel(partyKind, kind),
    }),
  );
}
