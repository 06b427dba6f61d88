import { Empty, Space, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../format/money';
import { formatTime } from '../format/time';
import { noteText } from '../notes/noteText';
import { transferTypeText } from './api';

/** One ledger transfer of an order or a payout, as its detail answers it (the note when it has one). */
export interface TransferView {
  id: number;
  type: string;
  createdAt: string;
  note?: string;
  noteTemplate?: { key: string; values: Record<string, string | number> } | null;
  entries: Array<{ account: string; amount: number }>;
}

/**
 * The ledger transfers of an order's or a payout's detail: each its type, time, note and entries
 * (account in words, amount). Texts are the caller's (`detail.account`, `detail.entryAmount`,
 * `detail.noTransfers` of its namespace). Test hooks: `<testIdPrefix>-transfer-<id>`, `accountTestId`
 * on each account.
 */
export function TransferList(props: {
  transfers: readonly TransferView[];
  accountText(code: string): string;
  testIdPrefix: string;
  accountTestId?: string;
  texts: { account: string; entryAmount: string; none: string };
}) {
  const { i18n } = useTranslation();
  if (props.transfers.length === 0) return <Empty description={props.texts.none} />;
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {props.transfers.map((tr) => (
        <div key={tr.id} data-testid={`${props.testIdPrefix}-transfer-${tr.id}`}>
          <Space wrap size={4}>
            <strong>{transferTypeText(i18n, tr.type)}</strong>
            <Typography.Text type="secondary">{formatTime(tr.createdAt)}</Typography.Text>
            {tr.note !== undefined && (
              <span>{noteText(i18n, { note: tr.note, noteTemplate: tr.noteTemplate ?? null })}</span>
            )}
          </Space>
          <Table
            size="small"
            pagination={false}
            rowKey={(e) => `${tr.id}:${e.account}:${e.amount}`}
            dataSource={tr.entries}
            columns={[
              {
                title: props.texts.account,
                dataIndex: 'account',
                key: 'account',
                render: (code: string) => (
                  <span title={code} data-testid={props.accountTestId}>
                    {props.accountText(code)}
                  </span>
                ),
              },
              {
                title: props.texts.entryAmount,
                dataIndex: 'amount',
                key: 'amount',
                align: 'right',
                render: (v: number) => formatMoney(v, i18n.language),
              },
            ]}
          />
        </div>
      ))}
    </Space>
  );
}
