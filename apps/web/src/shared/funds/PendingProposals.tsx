import { BALANCE_DECIDERS, endpoints, type ProposalRow, type Role } from '@paydesk/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input, Modal, Popconfirm, Space, Table, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../api/errorText';
import { call } from '../api/http';
import { formatMoney } from '../format/money';
import { formatTime } from '../format/time';
import { useScrollRegion } from '../list/scrollRegion';
import { useSession } from '../session/session';
import { fundKeys } from './api';

export interface PendingProposalsProps {
  partyKind: 'merchant' | 'supplier';
}

/** Pending proposals are re-read this often, so a colleague's new proposal shows up without a reload. */
const POLL_MS = 15_000;

type Decision = { kind: 'approve' | 'cancel'; id: number } | { kind: 'reject'; id: number; reason: string };

/**
 * The balance changes of one kind of party awaiting approval (maker-checker, DESIGN section 3), with
 * approve / reject / cancel. Shown to superAdmin and admin only; one's own proposal cannot be approved
 * here (another staff account must). Test hooks: `pending-proposals-<partyKind>`, and per proposal
 * `proposal-approve-<id>`, `proposal-reject-<id>`, `proposal-cancel-<id>`; the reject dialog's
 * `proposal-reject-reason` and `proposal-reject-submit`.
 */
export function PendingProposals(props: PendingProposalsProps) {
  const { user } = useSession();
  const role = user?.access;
  if (!role || !(BALANCE_DECIDERS as readonly Role[]).includes(role)) return null;
  return <PendingProposalsCard partyKind={props.partyKind} userId={user.userId} />;
}

function PendingProposalsCard(props: { partyKind: 'merchant' | 'supplier'; userId: number }) {
  const { t, i18n } = useTranslation(['funds', 'common']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [rejecting, setRejecting] = useState<ProposalRow | null>(null);
  const [form] = Form.useForm<{ reason: string }>();
  const pending = useQuery({
    queryKey: [...fundKeys.proposals, 'pending', props.partyKind],
    queryFn: () =>
      call(endpoints.funds.getProposalList, {
        pageIndex: 1,
        pageSize: 100,
        state: 'pending',
        partyKind: props.partyKind,
      }),
    refetchInterval: POLL_MS,
  });
  const decide = useMutation({
    mutationFn: (d: Decision) =>
      d.kind === 'approve'
        ? call(endpoints.funds.approve, { id: d.id })
        : d.kind === 'reject'
          ? call(endpoints.funds.reject, { id: d.id, reason: d.reason })
          : call(endpoints.funds.cancel, { id: d.id }),
    onSuccess: (_data, d) => {
      void message.success(
        t(`pending.${d.kind === 'approve' ? 'approved' : d.kind === 'reject' ? 'rejected' : 'cancelled'}`),
      );
      if (d.kind === 'reject') {
        setRejecting(null);
        form.resetFields();
      }
    },
    onError: (error) => void message.error(t('failed', { message: errorText(i18n, error) })),
    // Balances, fund records and party lists all may have changed (or the proposal changed meanwhile).
    onSettled: () => queryClient.invalidateQueries(),
  });
  const busy = (kind: Decision['kind'], id: number) =>
    decide.isPending && decide.variables?.kind === kind && decide.variables.id === id;

  const scrollRegion = useScrollRegion();
  return (
    <Card
      size="small"
      title={t('pending.title')}
      className="pending-proposals"
      data-testid={`pending-proposals-${props.partyKind}`}
    >
      {pending.isError && (
        <Alert type="error" showIcon title={t('common:list.loadFailed', { message: errorText(i18n, pending.error) })} />
      )}
      <Table<ProposalRow>
        ref={scrollRegion}
        size="small"
        rowKey="id"
        loading={pending.isPending}
        dataSource={pending.data?.list ?? []}
        pagination={false}
        locale={{ emptyText: t('pending.empty') }}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: '#', dataIndex: 'id' },
          { title: t('pending.party'), dataIndex: 'partyName' },
          { title: t('pending.kind'), dataIndex: 'kind', render: (k: string) => t(`kind.${k}`) },
          {
            title: t('pending.amount'),
            dataIndex: 'amount',
            align: 'right',
            render: (amount: number | null) =>
              amount === null ? t('pending.clearAll') : formatMoney(amount, i18n.language),
          },
          { title: t('pending.note'), dataIndex: 'note' },
          { title: t('pending.proposedBy'), dataIndex: 'proposedBy' },
          {
            title: t('pending.proposedAt'),
            dataIndex: 'proposedAt',
            render: (v: string) => formatTime(v),
          },
          {
            title: t('pending.actions'),
            key: 'actions',
            render: (_: unknown, row: ProposalRow) => {
              const own = row.proposedById === props.userId;
              return (
                <Space size={0} wrap>
                  {own ? (
                    <Tooltip title={t('pending.ownProposal')}>
                      <Button type="link" size="small" disabled data-testid={`proposal-approve-${row.id}`}>
                        {t('pending.approve')}
                      </Button>
                    </Tooltip>
                  ) : (
                    <Popconfirm
                      title={t('pending.confirmApprove')}
                      okText={t('common:action.ok')}
                      cancelText={t('common:action.cancel')}
                      onConfirm={() => decide.mutate({ kind: 'approve', id: row.id })}
                    >
                      <Button
                        type="link"
                        size="small"
                        loading={busy('approve', row.id)}
                        data-testid={`proposal-approve-${row.id}`}
                      >
                        {t('pending.approve')}
                      </Button>
                    </Popconfirm>
                  )}
                  <Button
                    type="link"
                    size="small"
                    danger
                    data-testid={`proposal-reject-${row.id}`}
                    onClick={() => setRejecting(row)}
                  >
                    {t('pending.reject')}
                  </Button>
                  {own && (
                    <Popconfirm
                      title={t('pending.confirmCancel')}
                      okText={t('common:action.ok')}
                      cancelText={t('common:action.cancel')}
                      onConfirm={() => decide.mutate({ kind: 'cancel', id: row.id })}
                    >
                      <Button
                        type="link"
                        size="small"
                        loading={busy('cancel', row.id)}
                        data-testid={`proposal-cancel-${row.id}`}
                      >
                        {t('pending.cancel')}
                      </Button>
                    </Popconfirm>
                  )}
                </Space>
              );
            },
          },
        ]}
      />
      {rejecting && (
        <Modal
          open
          title={t('pending.rejectTitle', { id: rejecting.id })}
          okText={t('pending.reject')}
          cancelText={t('common:action.cancel')}
          okButtonProps={{ danger: true, 'data-testid': 'proposal-reject-submit' }}
          confirmLoading={decide.isPending}
          onOk={() => form.submit()}
          onCancel={() => {
            setRejecting(null);
            form.resetFields();
          }}
        >
          <Form
            form={form}
            layout="vertical"
            onFinish={(v) => decide.mutate({ kind: 'reject', id: rejecting.id, reason: v.reason.trim() })}
          >
            <Form.Item
              name="reason"
              label={t('pending.reason')}
              rules={[{ required: true, whitespace: true, max: 200, message: t('pending.reasonRequired') }]}
            >
              <Input.TextArea rows={2} maxLength={200} data-testid="proposal-reject-reason" />
            </Form.Item>
          </Form>
        </Modal>
      )}
    </Card>
  );
}
