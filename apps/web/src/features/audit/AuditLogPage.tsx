import { type AuditRow, endpoints } from '@paydesk/contract';
import { Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { labelOr } from '../../i18n/labelOr';
import { call, exportUrl } from '../../shared/api/http';
import { ListTable } from '../../shared/list/ListTable';

const json = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));

/** System management › audit log: who changed what, when, from where (read-only for everyone). */
export default function AuditLogPage() {
  const { t, i18n } = useTranslation(['audit', 'common']);
  return (
    <div className="page">
      <ListTable<AuditRow>
        testId="audit-list"
        viewKey="auditLog"
        queryKey={['audit', 'list']}
        rowKey="id"
        fetchPage={(p) => call(endpoints.audit.getList, p)}
        exportHref={(f) => exportUrl(endpoints.audit.export, f)}
        filters={[
          { kind: 'text', name: 'account', label: t('filter.account') },
          { kind: 'text', name: 'action', label: t('filter.action') },
          { kind: 'dateRange', name: 'time', label: t('filter.time') },
        ]}
        columns={[
          { title: t('column.at'), dataIndex: 'at', render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm:ss') },
          { title: t('column.account'), dataIndex: 'account' },
          {
            title: t('column.role'),
            dataIndex: 'role',
            render: (r: string | null) => (r ? t(`common:role.${r}`) : ''),
          },
          {
            title: t('column.action'),
            dataIndex: 'action',
            // In the reader's language; the code stays at hand as the title (and is what the filter takes).
            render: (action: string) => (
              <span title={action} data-testid="audit-action">
                {/* An action this console does not know (an older version's) shows its code. */}
                {labelOr(i18n, `audit:actionName.${action}`, action)}
              </span>
            ),
          },
          { title: t('column.target'), dataIndex: 'target' },
          {
            title: t('column.change'),
            key: 'change',
            render: (_, row) => (
              <Typography.Text type="secondary" className="audit-change">
                {row.before !== null && row.before !== undefined && `${t('before')}: ${json(row.before)} `}
                {row.after !== null && row.after !== undefined && `${t('after')}: ${json(row.after)}`}
              </Typography.Text>
            ),
          },
          { title: t('column.ip'), dataIndex: 'ip' },
        ]}
      />
    </div>
  );
}
