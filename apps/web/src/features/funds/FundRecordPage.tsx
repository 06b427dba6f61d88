import {
  endpoints,
  FUND_BUCKETS,
  type FundRecordRow,
  PARTY_KINDS,
  routeByPath,
  TRANSFER_TYPES,
} from '@paydesk/contract';
import { useQuery } from '@tanstack/react-query';
import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { call, exportUrl } from '../../shared/api/http';
import { formatTime } from '../../shared/format/time';
import { fundKeys, transferTypeText } from '../../shared/funds/api';
import { type FilterField, type ListColumn, ListTable } from '../../shared/list/ListTable';
import { noteText } from '../../shared/notes/noteText';

/** Merchant and supplier accounts for the account filter (staff variants only). */
function usePartyAccounts(enabled: boolean) {
  return useQuery({
    queryKey: ['funds', 'partyAccounts'],
    enabled,
    queryFn: async () => {
      const [merchants, suppliers] = await Promise.all([
        call(endpoints.users.getUserOptions, { role: 'merchant' }),
        call(endpoints.users.getUserOptions, { role: 'supplier' }),
      ]);
      return [...merchants, ...suppliers];
    },
  });
}

/**
 * Funds › fund records: ledger entries seen from a merchant's or supplier's account, with balance
 * before and after (DESIGN section 5). On `fundRecord` a merchant or supplier reads its own; on
 * `fundRecordAdmin` and its customer-service variant staff read every party's, filtered by party.
 * Test hooks: `fund-records` (the list), `filter-<name>`, `export-csv`, `list-total-amount`.
 */
export default function FundRecordPage() {
  const { t, i18n } = useTranslation(['funds', 'common']);
  const { pathname } = useLocation();
  const routeName = routeByPath(pathname)?.name ?? 'fundRecord';
  const staffView = routeName !== 'fundRecord';
  const accounts = usePartyAccounts(staffView);

  const filters: FilterField[] = [
    ...(staffView
      ? ([
          {
            kind: 'select',
            name: 'partyKind',
            label: t('filter.partyKind'),
            options: PARTY_KINDS.map((k) => ({ value: k, label: t(`partyKind.${k}`) })),
          },
          {
            kind: 'select',
            name: 'userId',
            label: t('filter.account'),
            options: (accounts.data ?? []).map((u) => ({
              value: String(u.id),
              label: `${u.account} (${t(`common:role.${u.role}`)})`,
            })),
          },
        ] satisfies FilterField[])
      : []),
    {
      kind: 'select',
      name: 'bucket',
      label: t('filter.bucket'),
      options: FUND_BUCKETS.map((b) => ({ value: b, label: t(`bucket.${b}`) })),
    },
    {
      kind: 'select',
      name: 'type',
      label: t('filter.type'),
      options: TRANSFER_TYPES.map((type) => ({ value: type, label: transferTypeText(i18n, type) })),
    },
    { kind: 'text', name: 'orderCode', label: t('filter.orderCode') },
    { kind: 'dateRange', name: 'time', label: t('filter.time') },
    { kind: 'money', name: 'minAmount', label: t('filter.minAmount') },
    { kind: 'money', name: 'maxAmount', label: t('filter.maxAmount') },
  ];

  const columns: Array<ListColumn<FundRecordRow>> = [
    { title: t('column.time'), dataIndex: 'createdAt', key: 'createdAt', sortKey: 'createdAt', render: formatTime },
    ...(staffView
      ? [
          {
            title: t('column.party'),
            key: 'party',
            render: (_: unknown, row: FundRecordRow) => (
              <Space size={4}>
                <Tag>{t(`partyKind.${row.partyKind}`)}</Tag>
                <span>{row.account}</span>
                {row.partyName && <Typography.Text type="secondary">{row.partyName}</Typography.Text>}
              </Space>
            ),
          },
        ]
      : []),
    { title: t('column.bucket'), dataIndex: 'bucket', key: 'bucket', render: (b: string) => t(`bucket.${b}`) },
    {
      title: t('column.type'),
      dataIndex: 'type',
      key: 'type',
      render: (type: string) => transferTypeText(i18n, type),
    },
    { title: t('column.orderCode'), dataIndex: 'orderCode', key: 'orderCode' },
    { title: t('column.amount'), dataIndex: 'amount', key: 'amount', money: true, sortKey: 'amount' },
    { title: t('column.balanceBefore'), dataIndex: 'balanceBefore', key: 'balanceBefore', money: true },
    { title: t('column.balanceAfter'), dataIndex: 'balanceAfter', key: 'balanceAfter', money: true },
    {
      title: t('column.note'),
      dataIndex: 'note',
      key: 'note',
      render: (_: string, row: FundRecordRow) => noteText(i18n, row),
    },
  ];

  return (
    <div className="page">
      <ListTable<FundRecordRow>
        testId="fund-records"
        viewKey={routeName}
        queryKey={[...fundKeys.records, routeName]}
        rowKey="id"
        fetchPage={(p) => call(endpoints.funds.getFundRecordList, p)}
        exportHref={(f) => exportUrl(endpoints.funds.exportFundRecords, f)}
        filters={filters}
        columns={columns}
      />
    </div>
  );
}
